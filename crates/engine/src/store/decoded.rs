//! Characters decoded from their stored text, kept by that text.
//!
//! A character is stored as JSON text (its document and its derived sheet, see
//! [`super::character_text`]), and decoding it is a large share of a call that reads or changes
//! a character. Decoding is a pure function of the text, so a decoded value kept under the exact
//! text it came from (or was encoded to) can be handed out again whenever the store returns the
//! same text: there is nothing to invalidate. A changed character has a new text and is decoded
//! anew; a rolled-back write leaves an entry nobody asks for. The set is small and bounded (one
//! table's creatures, not a campaign's history).
//!
//! Beside the decoded value, an entry may keep one *resolved* value: what the engine makes of the
//! decoded character on every read (its sheet derived from its sources against the loaded
//! compendium, see `characters::resolve`). That is a pure function of the text and of what the
//! caller's key names (the compendium it was resolved against), so it is kept under both: a new
//! text is a new entry, and another key resolves again (and replaces the kept one).
//!
//! A resolved value also carries an effective sheet slot shared by every read of it, filled the
//! first time a read that changes nothing asks for it (`characters::Read`): a pure function of
//! the resolved character, so it is as valid as the resolution it sits on.
//!
//! Resolving a stored character usually changes nothing: what a write stores was resolved when
//! read. An entry whose resolution equals its decoding keeps no second character, and a write
//! that changed only state resolving does not read (`model::doc_state::resolution_carries`)
//! keeps the text it makes as its own resolution, so a fight's next read of that character
//! resolves nothing. A debug build resolves such an entry once on its first read and asserts
//! that nothing changed, so every test that reads after such a write checks the rule.
//!
//! A text is looked up by its two parts as the store reads them (the document and the sheet,
//! borrowed from the database's row: nothing is copied to look it up), its document hashed with a
//! fast non-cryptographic hash (foldhash), then both parts compared in full, so a hash collision
//! can never hand out another text's character.

use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::StoreError;
use super::character_text::{Encoded, Parts, join};
use crate::model::character::{Character, ReadSheet};
use crate::model::doc_state::ReadDoc;

/// How many decoded characters are kept (a fight's creatures and the party, with room to spare).
const KEEP: usize = 64;

/// One stored text's decoding and, when asked for, its resolution under a key.
struct Entry {
    doc: Arc<str>,
    sheet: Option<Arc<str>>,
    hash: u64,
    decoded: Arc<Character>,
    /// Where the document's state part begins, when the write that made it knew.
    base_end: Option<usize>,
    /// When it was last kept or handed out (`Decoded::tick`): the least recent goes first.
    used: u64,
    /// The effective sheet the write that kept it handed on (`model::doc_state::Document`),
    /// adopted by a resolution that changes nothing it is derived from.
    carried: ReadSheet,
    resolved: Option<(u64, Resolution)>,
}

/// What resolving an entry's decoding under a key made of it.
enum Resolution {
    /// Nothing: the decoding itself is the resolution, read with this document and sheet.
    Same {
        doc: ReadDoc,
        sheet: ReadSheet,
        /// Kept by a write that knew resolving would change nothing
        /// (`model::doc_state::Document::fixed_under`), and not yet checked: a debug build
        /// resolves it once on its first read and asserts that it did not change.
        unchecked: bool,
    },
    /// A changed character, with its document and sheet.
    Changed(Box<Character>),
}

/// A character a store writes, as its caller holds it: a store that keeps what it wrote shares
/// a shared one instead of copying it.
#[derive(Clone, Copy)]
pub(crate) enum Written<'a> {
    /// Borrowed: kept as a copy.
    Copy(&'a Character),
    /// Shared: kept as it is (when nothing read with it hangs on it).
    Shared(&'a Arc<Character>),
}

impl std::ops::Deref for Written<'_> {
    type Target = Character;
    fn deref(&self) -> &Character {
        match self {
            Written::Copy(c) => c,
            Written::Shared(c) => c,
        }
    }
}

impl Entry {
    /// The entry of a text and its decoding, with nothing else known yet.
    fn new(doc: Arc<str>, sheet: Option<Arc<str>>, hash: u64, decoded: Arc<Character>) -> Self {
        Self {
            doc,
            sheet,
            hash,
            decoded,
            base_end: None,
            used: 0,
            carried: ReadSheet::default(),
            resolved: None,
        }
    }

    fn is(&self, text: Parts<'_>) -> bool {
        *self.doc == *text.doc && self.sheet.as_deref() == text.sheet
    }
}

/// Decoded characters keyed by their stored text.
#[derive(Default)]
pub(crate) struct Decoded {
    kept: Mutex<hashbrown::HashTable<Entry>>,
    /// A counter stamped on an entry whenever it is kept or handed out.
    tick: AtomicU64,
    hasher: foldhash::fast::FixedState,
    /// The texts of the derived sheets written lately (see [`super::character_text`]).
    pub(crate) sheets: super::character_text::SheetTexts,
}

impl Decoded {
    /// The hash a text is looked up by: its document's alone. The derived sheet is a function
    /// of the document (and the compendium), so two texts that share a document are rare; they
    /// share a hash and are told apart by the full comparison. Hashing the sheet (most of the
    /// text) on every read would cost more than it saves.
    fn hash(&self, text: Parts<'_>) -> u64 {
        let mut h = self.hasher.build_hasher();
        h.write(text.doc.as_bytes());
        h.finish()
    }

    /// The character stored as `text`: a kept copy when this text was seen before, otherwise
    /// decoded with `decode` (and kept).
    pub(crate) fn character(
        &self,
        text: Parts<'_>,
        decode: impl FnOnce(&str) -> Result<Character, StoreError>,
    ) -> Result<Character, StoreError> {
        self.character_hashed(text, self.hash(text), decode)
    }

    fn character_hashed(
        &self,
        text: Parts<'_>,
        hash: u64,
        decode: impl FnOnce(&str) -> Result<Character, StoreError>,
    ) -> Result<Character, StoreError> {
        if let Some(c) = self.kept.lock().ok().and_then(|mut k| {
            k.find_mut(hash, |e| e.is(text)).map(|e| {
                e.used = self.next_tick();
                Character::clone(&e.decoded)
            })
        }) {
            return Ok(c);
        }
        let c = decode(&join(text.doc.to_owned(), text.sheet))?;
        self.insert(text, hash, |hash| {
            let sheet = text.sheet.map(Into::into);
            Entry::new(text.doc.into(), sheet, hash, Arc::new(c.clone()))
        });
        Ok(c)
    }

    /// The character stored as `text` passed through `resolve`, a pure function of the decoded
    /// character and of what `key` names: the kept result when this text was resolved under
    /// `key` before (or written by a write that knew resolving it would change nothing),
    /// otherwise the (kept) decoding resolved now, and kept under `key`.
    pub(crate) fn resolved(
        &self,
        text: Parts<'_>,
        key: u64,
        decode: impl FnOnce(&str) -> Result<Character, StoreError>,
        resolve: &mut dyn FnMut(&mut Character),
    ) -> Result<Character, StoreError> {
        let hash = self.hash(text);
        let hit = self.kept.lock().ok().and_then(|mut k| {
            let e = k.find_mut(hash, |e| e.is(text))?;
            let (at, r) = e.resolved.as_mut()?;
            if *at != key {
                return None;
            }
            e.used = self.next_tick();
            Some(match r {
                Resolution::Same {
                    doc,
                    sheet,
                    unchecked,
                } => {
                    let mut c = Character::clone(&e.decoded);
                    c.read_doc = doc.clone();
                    c.read_sheet = sheet.clone();
                    (c, std::mem::take(unchecked))
                }
                Resolution::Changed(c) => (Character::clone(c), false),
            })
        });
        if let Some((c, unchecked)) = hit {
            if cfg!(debug_assertions) && unchecked {
                let mut again = c.clone();
                resolve(&mut again);
                assert_eq!(again, c, "a write kept a resolution that resolving changes");
            }
            return Ok(c);
        }
        let mut c = self.character_hashed(text, hash, decode)?;
        resolve(&mut c);
        // Every read of this text under this key shares one effective sheet, derived when first
        // asked for (`characters::Read`).
        c.read_sheet = ReadSheet::default();
        if let Ok(mut kept) = self.kept.lock()
            && let Some(e) = kept.find_mut(hash, |e| e.is(text))
        {
            let same = c == *e.decoded;
            // A write that changes only the state reuses the document's text
            // (`model::doc_state`), and knows whether resolving changed nothing.
            c.read_doc = ReadDoc::new(
                e.doc.clone(),
                e.decoded.clone(),
                e.base_end,
                same.then_some(key),
            );
            // And the sheet it kept, when resolving changed nothing the sheet is derived from.
            if same || crate::model::doc_state::same_effective_inputs(&c, &e.decoded) {
                c.read_sheet = e.carried.clone();
            }
            c.read_sheet = std::mem::take(&mut c.read_sheet).or_new();
            let r = if same {
                Resolution::Same {
                    doc: c.read_doc.clone(),
                    sheet: c.read_sheet.clone(),
                    unchecked: false,
                }
            } else {
                Resolution::Changed(Box::new(c.clone()))
            };
            e.resolved = Some((key, r));
        } else {
            c.read_sheet = ReadSheet::new();
        }
        Ok(c)
    }

    fn next_tick(&self) -> u64 {
        self.tick.fetch_add(1, Ordering::Relaxed)
    }

    /// Keeps `c` as the decoding of `stored`, the text it was just encoded to, with what the
    /// encoding knew: where the document's state part begins, the effective sheet handed on,
    /// and the key under which resolving it changes nothing (its resolution, then, is itself).
    pub(crate) fn keep(&self, stored: &Encoded, c: Written<'_>) {
        let text = stored.parts();
        self.insert(text, self.hash(text), |hash| {
            let doc = stored.shared_doc();
            let decoded = match c {
                Written::Shared(c) if c.read_sheet.0.is_none() && c.read_doc.0.is_none() => {
                    c.clone()
                }
                _ => Arc::new(Character {
                    read_sheet: ReadSheet::default(),
                    read_doc: ReadDoc::default(),
                    ..Character::clone(&c)
                }),
            };
            let resolved = stored.fixed_under().map(|key| {
                let r = Resolution::Same {
                    doc: ReadDoc::new(doc.clone(), decoded.clone(), stored.base_end(), Some(key)),
                    sheet: stored.effective().or_new(),
                    unchecked: true,
                };
                (key, r)
            });
            Entry {
                base_end: stored.base_end(),
                carried: stored.effective(),
                resolved,
                ..Entry::new(doc, stored.shared_sheet(), hash, decoded)
            }
        });
    }

    /// Inserts the entry `make` makes for `text` (stamped now) unless the text is kept
    /// already; when the set is full the least recently used entry goes first.
    fn insert(&self, text: Parts<'_>, hash: u64, make: impl FnOnce(u64) -> Entry) {
        let Ok(mut kept) = self.kept.lock() else {
            return;
        };
        if kept.find(hash, |e| e.is(text)).is_some() {
            return;
        }
        if kept.len() >= KEEP {
            // The least recently used goes: in a fight each write makes a new text, read back on
            // the character's next turn, while the texts it replaced are never asked for again.
            if let Some((hash, used)) = kept.iter().map(|e| (e.hash, e.used)).min_by_key(|e| e.1)
                && let Ok(old) = kept.find_entry(hash, |e| e.used == used)
            {
                old.remove();
            }
        }
        let mut e = make(hash);
        e.used = self.next_tick();
        kept.insert_unique(hash, e, |e| e.hash);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::character_text::Parts;

    /// A text as a write encodes it, knowing nothing more.
    fn plain(doc: &str) -> Encoded {
        Encoded::of(Parts::of(doc), None, ReadSheet::default(), None)
    }

    /// A new character's text, decoded and resolved (to itself) under `key`.
    fn read_new(d: &Decoded, name: &str, key: u64) -> Character {
        let doc = crate::model::character::document_text(&named(name)).unwrap();
        d.resolved(
            Parts::of(&doc),
            key,
            |t| Ok(serde_json::from_str(t).unwrap()),
            &mut |_| {},
        )
        .unwrap()
    }

    fn named(name: &str) -> Character {
        serde_json::from_value(serde_json::json!({
            "id": name.to_lowercase(), "name": name, "kind": "npc", "level": 1,
            "abilities": {"str": 10, "dex": 10, "con": 10, "int": 10, "wis": 10, "cha": 10},
            "proficiencyBonus": 2, "armorClass": 10, "armorSource": "none", "speed": 30,
            "size": "medium", "maxHp": 4, "hp": 4, "hitDie": 8, "hitDice": 1
        }))
        .unwrap()
    }

    #[test]
    fn the_same_text_is_decoded_once_and_a_new_text_anew() {
        let d = Decoded::default();
        let doc = serde_json::to_string(&named("Ona")).unwrap();
        let mut decodes = 0;
        for _ in 0..3 {
            let c = d
                .character(Parts::of(&doc), |t| {
                    decodes += 1;
                    Ok(serde_json::from_str(t).unwrap())
                })
                .unwrap();
            assert_eq!(c.name, "Ona");
        }
        assert_eq!(decodes, 1);
        let other = serde_json::to_string(&named("Bran")).unwrap();
        let c = d
            .character(Parts::of(&other), |t| Ok(serde_json::from_str(t).unwrap()))
            .unwrap();
        assert_eq!(c.name, "Bran");
    }

    /// Texts that share a document (looked up by the same hash) and differ in their sheet are
    /// kept apart: each is handed out only for its own sheet.
    #[test]
    fn texts_with_one_document_and_different_sheets_are_told_apart() {
        let d = Decoded::default();
        let doc = serde_json::to_string(&named("Ona")).unwrap();
        let parts = |sheet| Parts { doc: &doc, sheet };
        for (sheet, name) in [(Some("s1"), "One"), (Some("s2"), "Two"), (None, "None")] {
            d.keep(
                &Encoded::of(parts(sheet), None, ReadSheet::default(), None),
                Written::Copy(&named(name)),
            );
        }
        for (sheet, name) in [(Some("s2"), "Two"), (None, "None"), (Some("s1"), "One")] {
            let c = d
                .character(parts(sheet), |_| panic!("kept: {name}"))
                .unwrap();
            assert_eq!(c.name, name);
        }
        let c = d
            .character(parts(Some("s3")), |_| Ok(named("Three")))
            .unwrap();
        assert_eq!(c.name, "Three", "a sheet not kept is decoded");
    }

    #[test]
    fn a_kept_encoding_is_served_without_decoding_and_the_set_stays_bounded() {
        let d = Decoded::default();
        for i in 0..(KEEP + 10) {
            let c = named(&format!("c{i}"));
            d.keep(
                &plain(&serde_json::to_string(&c).unwrap()),
                Written::Copy(&c),
            );
        }
        assert_eq!(d.kept.lock().unwrap().len(), KEEP);
        let last = named(&format!("c{}", KEEP + 9));
        let doc = serde_json::to_string(&last).unwrap();
        let c = d
            .character(Parts::of(&doc), |_| {
                panic!("a kept text is not decoded again")
            })
            .unwrap();
        assert_eq!(c.name, last.name);
    }

    #[test]
    fn a_resolution_is_kept_per_text_and_key() {
        let d = Decoded::default();
        let doc = serde_json::to_string(&named("Ona")).unwrap();
        let mut runs = 0;
        let mut resolve_as = |key: u64, doc: &str| {
            d.resolved(
                Parts::of(doc),
                key,
                |t| Ok(serde_json::from_str(t).unwrap()),
                &mut |c: &mut Character| {
                    runs += 1;
                    c.hp = 1 + u32::try_from(key).unwrap();
                },
            )
            .unwrap()
        };
        assert_eq!(resolve_as(1, &doc).hp, 2);
        assert_eq!(resolve_as(1, &doc).hp, 2);
        assert_eq!(resolve_as(2, &doc).hp, 3, "another key resolves again");
        assert_eq!(resolve_as(1, &doc).hp, 2, "and the first key again too");
        let other = serde_json::to_string(&named("Bran")).unwrap();
        let c = resolve_as(1, &other);
        assert_eq!(
            (c.name.as_str(), c.hp),
            ("Bran", 2),
            "a new text resolves anew"
        );
        assert_eq!(runs, 4);
        // The decoding is kept as decoded: the resolution does not leak into it.
        let plain = d.character(Parts::of(&doc), |_| panic!("kept")).unwrap();
        assert_eq!(plain.hp, 4);
    }

    /// A read shares the text it came from with what it decoded to, and where the state part
    /// begins when the write that kept the text knew it (`model::doc_state`).
    #[test]
    fn a_read_carries_its_document_and_the_state_part_a_write_found() {
        let d = Decoded::default();
        let c = named("Ona");
        let doc = crate::model::character::document_text(&c).unwrap();
        let at = doc.find(",\"hp\":").unwrap();
        d.keep(
            &Encoded::of(Parts::of(&doc), Some(at), ReadSheet::default(), None),
            Written::Copy(&c),
        );
        let read = d
            .resolved(Parts::of(&doc), 1, |_| panic!("kept"), &mut |_| {})
            .unwrap();
        let kept = read.read_doc.0.as_ref().expect("a read keeps its document");
        assert_eq!(&*kept.doc, doc);
        assert_eq!(*kept.decoded, c);
        assert_eq!(
            kept.base_end.get(),
            Some(&Some(at)),
            "known without looking"
        );
        // A text decoded from the store looks for it when first asked.
        let read = read_new(&d, "Bran", 1);
        assert_eq!(read.read_doc.0.as_ref().unwrap().base_end.get(), None);
    }

    /// A write that knew resolving its character changes nothing under a key keeps the
    /// decoding as the resolution under that key: it is read without resolving (a debug build
    /// resolves the first read once, to check it), and resolved again under another key. A
    /// read that resolving left alone is known to be such a resolution.
    #[test]
    fn a_resolution_a_write_knew_is_read_without_resolving() {
        let d = Decoded::default();
        let c = named("Ona");
        let doc = crate::model::character::document_text(&c).unwrap();
        let fixed = Encoded::of(Parts::of(&doc), None, ReadSheet::default(), Some(7));
        d.keep(&fixed, Written::Copy(&c));
        let mut runs = 0;
        for _ in 0..3 {
            let read = d
                .resolved(Parts::of(&doc), 7, |_| panic!("kept"), &mut |_| runs += 1)
                .unwrap();
            assert_eq!(read, c);
            assert_eq!(read.read_doc.0.as_ref().unwrap().fixed_under, Some(7));
            assert!(read.read_sheet.0.is_some(), "reads share one sheet");
        }
        assert_eq!(runs, usize::from(cfg!(debug_assertions)));
        let read = d
            .resolved(Parts::of(&doc), 8, |_| panic!("kept"), &mut |c| c.hp = 1)
            .unwrap();
        assert_eq!(read.hp, 1, "another key resolves");
        assert_eq!(read.read_doc.0.as_ref().unwrap().fixed_under, None);
        let read = read_new(&d, "Bran", 7);
        assert_eq!(read.read_doc.0.as_ref().unwrap().fixed_under, Some(7));
    }

    /// A debug build checks a resolution a write knew on its first read.
    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "a write kept a resolution that resolving changes")]
    fn a_debug_build_checks_a_resolution_a_write_knew() {
        let d = Decoded::default();
        let c = named("Ona");
        let doc = crate::model::character::document_text(&c).unwrap();
        d.keep(
            &Encoded::of(Parts::of(&doc), None, ReadSheet::default(), Some(7)),
            Written::Copy(&c),
        );
        let _ = d.resolved(Parts::of(&doc), 7, |_| panic!("kept"), &mut |c| c.hp = 1);
    }

    /// When the set is full the least recently used text goes: one just kept or just read
    /// stays, however the table orders its entries.
    #[test]
    fn the_least_recently_used_text_goes_first() {
        let d = Decoded::default();
        let texts: Vec<(Character, String)> = (0..KEEP)
            .map(|i| {
                let c = named(&format!("c{i}"));
                let t = serde_json::to_string(&c).unwrap();
                (c, t)
            })
            .collect();
        for (c, t) in &texts {
            d.keep(&plain(t), Written::Copy(c));
        }
        // c0 is read again; c1 is now the least recently used.
        d.character(Parts::of(&texts[0].1), |_| panic!("kept"))
            .unwrap();
        for i in 0..KEEP {
            let c = named(&format!("new{i}"));
            d.keep(
                &plain(&serde_json::to_string(&c).unwrap()),
                Written::Copy(&c),
            );
            let latest = serde_json::to_string(&c).unwrap();
            d.character(Parts::of(&latest), |_| panic!("the text just kept went"))
                .unwrap();
            if i == 0 {
                let mut decodes = 0;
                d.character(Parts::of(&texts[0].1), |_| panic!("c0 was read last"))
                    .unwrap();
                d.character(Parts::of(&texts[1].1), |t| {
                    decodes += 1;
                    Ok(serde_json::from_str(t).unwrap())
                })
                .unwrap();
                assert_eq!(decodes, 1, "c1 went first");
            }
        }
    }

    /// The sheet a state-only write kept is adopted by the next read of the text it wrote when
    /// resolving changed nothing the sheet is derived from, and not otherwise.
    #[test]
    fn a_kept_sheet_is_adopted_only_when_nothing_it_is_derived_from_changed() {
        let d = Decoded::default();
        let carried = ReadSheet::new();
        let shares = |c: &Character| {
            Arc::ptr_eq(
                c.read_sheet.0.as_ref().unwrap(),
                carried.0.as_ref().unwrap(),
            )
        };
        let read = |name: &str, change: &mut dyn FnMut(&mut Character)| {
            let c = named(name);
            let doc = crate::model::character::document_text(&c).unwrap();
            d.keep(
                &Encoded::of(Parts::of(&doc), None, carried.clone(), None),
                Written::Copy(&c),
            );
            d.resolved(Parts::of(&doc), 1, |_| panic!("kept"), change)
                .unwrap()
        };
        // Hit points are not read by the sheet.
        assert!(shares(&read("Ona", &mut |c| c.hp = 1)));
        assert!(!shares(&read("Bran", &mut |c| {
            c.conditions.push(crate::model::character::ConditionEntry {
                by: None,
                ends_on: None,
                condition: tabletop_rules::Condition::Prone,
                level: None,
                source: "test".into(),
                duration: None,
            })
        })));
        assert!(
            !shares(&read("Cai", &mut |c| c.max_hp += 1)),
            "a base field"
        );
        assert!(!shares(&read("Dov", &mut |c| c.dead = true)));
        assert!(
            !shares(&read("Eli", &mut |c| c.derived = Some(Default::default()))),
            "another derived block"
        );
    }
}
