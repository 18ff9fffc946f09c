//! The texts a character is stored as.
//!
//! A character is stored as two texts: its *document* (everything but its derived sheet) and,
//! in a row of its own (`character_sheets`), its *derived sheet*: every derived value with its
//! sources, most of the character's text. Nearly every write in play (hit points, conditions,
//! slots, items) leaves the derivation as it was, so only the small document is written again;
//! the sheet's row is rewritten only when the derivation changed (a level, an edited score, a
//! feature). Each store writes the sheet with an upsert that leaves an equal text alone.
//!
//! Reads join the two into one *stored text*: the document, then U+0001, then the sheet. That
//! is what the decoded-character cache is keyed by ([`super::decoded`]) and what [`decode`]
//! takes apart. JSON never holds a raw U+0001 (serde_json escapes every control character in a
//! string, and writes no whitespace), so the split is exact. A document written before sheets
//! were kept apart still holds its sheet inside and has no sheet row: it is its own stored text,
//! and its next write splits it.

use std::sync::{Arc, Mutex};

use super::StoreError;
use crate::model::build::Derived;
use crate::model::character::{Character, ReadSheet};
use crate::model::doc_state::{Document, document_after_read};

/// Separates a document from its sheet in a stored text.
const SEP: char = '\u{1}';

/// How many serialized sheets are kept (one per derivation in play, with room to spare).
const KEEP: usize = 32;

/// A character encoded for storage: its document and its derived sheet.
pub(crate) struct Encoded {
    doc: Arc<str>,
    sheet: Option<Arc<str>>,
    base_end: Option<usize>,
    effective: ReadSheet,
    fixed_under: Option<u64>,
}

impl Encoded {
    /// A text as encoded: its two parts and what the encoding knew (see [`Self::base_end`],
    /// [`Self::effective`] and [`Self::fixed_under`]).
    #[cfg(test)]
    pub(crate) fn of(
        text: Parts<'_>,
        base_end: Option<usize>,
        effective: ReadSheet,
        fixed_under: Option<u64>,
    ) -> Self {
        Self {
            doc: text.doc.into(),
            sheet: text.sheet.map(Into::into),
            base_end,
            effective,
            fixed_under,
        }
    }

    /// The document: everything but the derived sheet.
    pub(crate) fn doc(&self) -> &str {
        &self.doc
    }

    /// The derived sheet, when the character has one.
    pub(crate) fn sheet(&self) -> Option<&str> {
        self.sheet.as_deref()
    }

    /// The document, shared.
    pub(crate) fn shared_doc(&self) -> Arc<str> {
        self.doc.clone()
    }

    /// The derived sheet, shared.
    pub(crate) fn shared_sheet(&self) -> Option<Arc<str>> {
        self.sheet.clone()
    }

    /// The compendium key under which resolving the character on read changes nothing, when
    /// the writer knew (`model::doc_state::Document::fixed_under`).
    pub(crate) fn fixed_under(&self) -> Option<u64> {
        self.fixed_under
    }

    /// Where the document's state part begins, when known (`model::doc_state`).
    pub(crate) fn base_end(&self) -> Option<usize> {
        self.base_end
    }

    /// The effective sheet the writer kept for the character (`model::doc_state::Document`).
    pub(crate) fn effective(&self) -> ReadSheet {
        self.effective.clone()
    }

    /// Its two parts.
    pub(crate) fn parts(&self) -> Parts<'_> {
        Parts {
            doc: self.doc(),
            sheet: self.sheet(),
        }
    }
}

/// A stored text in its two parts: the document and the derived sheet (when it has one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Parts<'a> {
    pub(crate) doc: &'a str,
    pub(crate) sheet: Option<&'a str>,
}

impl<'a> Parts<'a> {
    /// The parts of a joined stored text.
    pub(crate) fn of(text: &'a str) -> Self {
        match text.split_once(SEP) {
            Some((doc, sheet)) => Parts {
                doc,
                sheet: Some(sheet),
            },
            None => Parts {
                doc: text,
                sheet: None,
            },
        }
    }
}

/// Joins a document and its sheet (when it has one) into a stored text.
pub(crate) fn join(mut doc: String, sheet: Option<&str>) -> String {
    if let Some(s) = sheet {
        doc.reserve(s.len() + SEP.len_utf8());
        doc.push(SEP);
        doc.push_str(s);
    }
    doc
}

/// A character's text that does not decode (or encode).
fn corrupt(e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt {
        what: "character".into(),
        detail: e.to_string(),
    }
}

/// Decodes a stored text (see the module's doc).
pub(crate) fn decode(text: &str) -> Result<Character, StoreError> {
    let Parts { doc, sheet } = Parts::of(text);
    let mut c: Character = serde_json::from_str(doc).map_err(corrupt)?;
    if let Some(sheet) = sheet {
        c.derived = Some(Arc::new(serde_json::from_str(sheet).map_err(corrupt)?));
    }
    Ok(c)
}

/// Serialized derived sheets, kept beside the shared sheet each was made from.
///
/// A derived sheet is shared (`Arc`) by every character derived from the same build, and the
/// compendium keeps it while the build is in play, so a character written again and again
/// (hit points in a fight) hands in the same sheet every time: its text is made once. The
/// kept `Arc` keeps the sheet alive, so its address cannot be taken by another sheet while it
/// is kept; nothing mutates a shared sheet (a change derives a new one).
#[derive(Default)]
pub(crate) struct SheetTexts {
    kept: Mutex<Vec<(Arc<Derived>, Arc<str>)>>,
}

impl SheetTexts {
    /// The JSON text of `d`.
    fn text(&self, d: &Arc<Derived>) -> Result<Arc<str>, serde_json::Error> {
        if let Ok(kept) = self.kept.lock()
            && let Some((_, t)) = kept.iter().find(|(k, _)| Arc::ptr_eq(k, d))
        {
            return Ok(t.clone());
        }
        let t: Arc<str> = serde_json::to_string(&**d)?.into();
        if let Ok(mut kept) = self.kept.lock() {
            if kept.len() >= KEEP {
                kept.remove(0);
            }
            kept.push((d.clone(), t.clone()));
        }
        Ok(t)
    }

    /// Encodes `c` for storage, with its document already made when `doc` is given (the text
    /// [`crate::model::doc_state::document_after_read`] makes of `c`).
    pub(crate) fn encode_with(
        &self,
        c: &Character,
        doc: Option<&Document>,
    ) -> Result<Encoded, StoreError> {
        let (doc, base_end, effective, fixed_under) = match doc {
            Some(doc) => (
                Arc::from(doc.text.get()),
                doc.base_end,
                doc.effective.clone(),
                doc.fixed_under,
            ),
            None => {
                let made = document_after_read(c).map_err(corrupt)?;
                let text = Arc::from(made.text.get());
                (text, made.base_end, made.effective, made.fixed_under)
            }
        };
        let sheet = c
            .derived
            .as_ref()
            .map(|d| self.text(d))
            .transpose()
            .map_err(corrupt)?;
        Ok(Encoded {
            doc,
            sheet,
            base_end,
            effective,
            fixed_under,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ona() -> Character {
        serde_json::from_value(serde_json::json!({
            "id": "ona", "name": "Ona\u{1}", "kind": "npc", "level": 1,
            "abilities": {"str": 10, "dex": 10, "con": 10, "int": 10, "wis": 10, "cha": 10},
            "proficiencyBonus": 2, "armorClass": 10, "armorSource": "none", "speed": 30,
            "size": "medium", "maxHp": 4, "hp": 4, "hitDie": 8, "hitDice": 1
        }))
        .unwrap()
    }

    #[test]
    fn a_character_comes_back_whole_from_its_two_texts() {
        let sheets = SheetTexts::default();
        let mut c = ona();
        let e = sheets.encode_with(&c, None).unwrap();
        assert_eq!(e.sheet(), None);
        let text = join(e.doc().to_string(), e.sheet());
        assert_eq!(text, e.doc());
        assert_eq!(Parts::of(&text), e.parts());
        assert_eq!(decode(&text).unwrap(), c);

        let d = Derived {
            level: 3,
            max_hp: 21,
            features: vec!["Second\u{1}Wind".into()],
            ..Default::default()
        };
        c.derived = Some(Arc::new(d));
        let e = sheets.encode_with(&c, None).unwrap();
        assert!(
            !e.doc().contains("derived"),
            "the document leaves the sheet out"
        );
        assert_eq!(
            e.sheet().unwrap(),
            serde_json::to_string(&**c.derived.as_ref().unwrap()).unwrap()
        );
        let text = join(e.doc().to_string(), e.sheet());
        assert_eq!(
            text.matches(SEP).count(),
            1,
            "a control character in a value is escaped"
        );
        assert_eq!(
            Parts::of(&text),
            e.parts(),
            "the stored text is the document and the sheet joined"
        );
        assert_eq!(decode(&text).unwrap(), c);
    }

    #[test]
    fn a_document_with_its_sheet_inside_still_decodes() {
        let mut c = ona();
        c.derived = Some(Arc::new(Derived {
            level: 2,
            ..Default::default()
        }));
        let old = serde_json::to_string(&c).unwrap();
        assert!(old.contains("\"derived\""));
        assert_eq!(decode(&old).unwrap(), c);
    }

    #[test]
    fn a_sheet_is_serialized_once_while_it_is_shared() {
        let sheets = SheetTexts::default();
        let d = Arc::new(Derived {
            level: 4,
            ..Default::default()
        });
        let a = sheets.text(&d).unwrap();
        let b = sheets.text(&d.clone()).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        // An equal sheet that is another value is serialized on its own (to the same text).
        let other = Arc::new((*d).clone());
        let c = sheets.text(&other).unwrap();
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(a, c);
        for i in 0..(KEEP + 3) {
            sheets
                .text(&Arc::new(Derived {
                    level: i as u32,
                    ..Default::default()
                }))
                .unwrap();
        }
        assert_eq!(sheets.kept.lock().unwrap().len(), KEEP);
    }
}
