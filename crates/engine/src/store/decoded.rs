//! Characters decoded from their stored text, kept by that text.
//!
//! A character is stored as one JSON document, and decoding it is a large share of a call that
//! reads or changes a character. Decoding is a pure function of the text, so a decoded value kept
//! under the exact text it came from (or was encoded to) can be handed out again whenever the
//! store returns the same text: there is nothing to invalidate. A changed character has a new
//! text and is decoded anew; a rolled-back write leaves an entry nobody asks for. The set is
//! small and bounded (one table's creatures, not a campaign's history).

use std::collections::HashMap;
use std::sync::Mutex;

use super::StoreError;
use crate::model::character::Character;

/// How many decoded characters are kept (a fight's creatures and the party, with room to spare).
const KEEP: usize = 64;

/// Decoded characters keyed by their stored text.
#[derive(Default)]
pub(crate) struct Decoded {
    kept: Mutex<HashMap<Box<str>, Character>>,
}

impl Decoded {
    /// The character stored as `doc`: a kept copy when this text was seen before, otherwise
    /// decoded with `decode` (and kept).
    pub(crate) fn character(
        &self,
        doc: &str,
        decode: impl FnOnce(&str) -> Result<Character, StoreError>,
    ) -> Result<Character, StoreError> {
        if let Some(c) = self.kept.lock().ok().and_then(|k| k.get(doc).cloned()) {
            return Ok(c);
        }
        let c = decode(doc)?;
        self.keep(doc, &c);
        Ok(c)
    }

    /// Keeps `c` as the decoding of `doc` (its text as just encoded for storage).
    pub(crate) fn keep(&self, doc: &str, c: &Character) {
        let Ok(mut kept) = self.kept.lock() else {
            return;
        };
        if kept.contains_key(doc) {
            return;
        }
        if kept.len() >= KEEP
            && let Some(old) = kept.keys().next().cloned()
        {
            kept.remove(&old);
        }
        kept.insert(doc.into(), c.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                .character(&doc, |t| {
                    decodes += 1;
                    Ok(serde_json::from_str(t).unwrap())
                })
                .unwrap();
            assert_eq!(c.name, "Ona");
        }
        assert_eq!(decodes, 1);
        let other = serde_json::to_string(&named("Bran")).unwrap();
        let c = d
            .character(&other, |t| Ok(serde_json::from_str(t).unwrap()))
            .unwrap();
        assert_eq!(c.name, "Bran");
    }

    #[test]
    fn a_kept_encoding_is_served_without_decoding_and_the_set_stays_bounded() {
        let d = Decoded::default();
        for i in 0..(KEEP + 10) {
            let c = named(&format!("c{i}"));
            d.keep(&serde_json::to_string(&c).unwrap(), &c);
        }
        assert_eq!(d.kept.lock().unwrap().len(), KEEP);
        let last = named(&format!("c{}", KEEP + 9));
        let doc = serde_json::to_string(&last).unwrap();
        let c = d
            .character(&doc, |_| panic!("a kept text is not decoded again"))
            .unwrap();
        assert_eq!(c.name, last.name);
    }
}
