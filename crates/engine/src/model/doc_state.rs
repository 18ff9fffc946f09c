//! A character's document in two parts: the base (who it is: race, class, build, abilities,
//! gear, spells known) and the state (what play changes from call to call: hit points, hit
//! dice, death saves, conditions, effects, concentration, slots and resources).
//!
//! The state fields are the last fields of [`Character`], so a document made by serde_json ends
//! with them: `{…base…,"hp":7,…state…}`. Most writes in play change only the state (damage,
//! healing, a slot spent). Such a write keeps the base's text exactly as the store read it and
//! serializes only the state, a small part of the work of serializing the whole document.
//!
//! The document read is reused only when it is certain to mean what the full serialization would:
//! - the character's base fields equal those of the character decoded from that text
//!   (`same_base`, which names every field, so a new field cannot be forgotten);
//! - the text ends with the serialized state of that decoded character, after a comma: the
//!   text decoded, so it is one valid object, and that tail closes it, so the comma separates
//!   its top-level members and the part before it holds every other member;
//! - the part before holds none of the state's keys that may be left out (an old or imported
//!   document could put one there: the new state would repeat the key) and no `\u` escape
//!   (a key could be spelled with one).
//!
//! Anything else (a document written by an older version, by PostgreSQL's JSON type, or not read
//! at all) is serialized whole, as before.

use std::sync::Arc;

use serde::Serialize;
use serde_json::value::RawValue;
use tabletop_rules::damage::DeathSaves;

pub(crate) use crate::model::character::ReadDoc;
use crate::model::character::{
    AsRead, Character, ConditionEntry, ReadSheet, Resource, document_raw,
};
use crate::model::concentration::Concentration;
use crate::model::effects::ActiveEffect;
use crate::model::sheet::SheetInputs;
use crate::model::slots::SpellSlots;

/// The state part, serialized as a document's tail: the same names, order and omissions as the
/// last fields of [`Character`] (a test holds them together).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct State<'a> {
    hp: u32,
    temp_hp: u32,
    hit_dice: u32,
    death_saves: &'a DeathSaves,
    dead: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    died_at: Option<u64>,
    conditions: &'a [ConditionEntry],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    effects: &'a [ActiveEffect],
    #[serde(skip_serializing_if = "Option::is_none")]
    concentration: Option<&'a Concentration>,
    #[serde(skip_serializing_if = "SpellSlots::is_empty")]
    spell_slots: &'a SpellSlots,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    resources: &'a [Resource],
}

impl<'a> State<'a> {
    fn of(c: &'a Character) -> Self {
        Self {
            hp: c.hp,
            temp_hp: c.temp_hp,
            hit_dice: c.hit_dice,
            death_saves: &c.death_saves,
            dead: c.dead,
            died_at: c.died_at,
            conditions: &c.conditions,
            effects: &c.effects,
            concentration: c.concentration.as_ref(),
            spell_slots: &c.spell_slots,
            resources: &c.resources,
        }
    }

    /// `{"hp":…,…}`.
    fn text(c: &Character) -> Result<String, serde_json::Error> {
        serde_json::to_string(&State::of(c))
    }
}

/// The keys of the state fields a document may leave out, as they open a member.
const OMITTABLE: [&str; 5] = [
    "\"diedAt\":",
    "\"effects\":",
    "\"concentration\":",
    "\"spellSlots\":",
    "\"resources\":",
];

impl AsRead {
    /// The length of the base part: where the comma before the state part stands.
    fn base_end(&self) -> Option<usize> {
        *self.base_end.get_or_init(|| {
            let state = State::text(&self.decoded).ok()?;
            let tail = state.strip_prefix('{')?;
            let at = self.doc.len().checked_sub(tail.len() + 1)?;
            let base = &self.doc.as_bytes()[..at];
            let fits = self.doc.as_bytes()[at] == b','
                && self.doc.ends_with(tail)
                && memchr::memmem::find(base, b"\\u").is_none()
                && OMITTABLE
                    .iter()
                    .all(|k| memchr::memmem::find(base, k.as_bytes()).is_none());
            fits.then_some(at)
        })
    }
}

/// A character's document as made for storage (its text without the derived sheet), and where
/// its state part begins when it was made by rewriting only that part (a store keeps this
/// with the text, so the next such write need not look for it).
pub struct Document {
    /// The document.
    pub text: Box<RawValue>,
    /// Where the comma before the state part stands, when known.
    pub(crate) base_end: Option<usize>,
    /// The effective sheet of the character written, when the writer knows it is the kept sheet
    /// of the text it read (see [`same_effective_inputs`]); a store keeps it with the new text.
    pub(crate) effective: ReadSheet,
    /// The compendium key under which resolving the character written on read would change
    /// nothing (see [`resolution_carries`]): a store keeps it with the new text, so the next
    /// read need not resolve it.
    pub(crate) fixed_under: Option<u64>,
}

/// `c`'s document as [`document_raw`] makes it, but made from the document `c` was read from
/// when only its state changed since (see the module's doc): the same members, the base's
/// written as they were read.
pub fn document_after_read(c: &Character) -> Result<Document, serde_json::Error> {
    Ok(match state_only_rewrite(c)? {
        Some((text, at, fixed_under)) => Document {
            // SAFETY: the text is the base part of a document that decoded (a valid JSON
            // object cut before the comma that opens its state part, see `AsRead::base_end`),
            // a comma, and the members of an object serde_json just wrote with its closing
            // brace: one well-formed JSON object without surrounding whitespace. Debug builds
            // check it again.
            text: unsafe { RawValue::from_string_unchecked(text) },
            base_end: Some(at),
            effective: ReadSheet::default(),
            fixed_under,
        },
        None => Document {
            text: document_raw(c)?,
            base_end: None,
            effective: ReadSheet::default(),
            fixed_under: None,
        },
    })
}

/// The document made from the one read, where its state part begins, and the key of
/// [`resolution_carries`], if `c` changed only its state since.
fn state_only_rewrite(
    c: &Character,
) -> Result<Option<(String, usize, Option<u64>)>, serde_json::Error> {
    let Some(read) = &c.read_doc.0 else {
        return Ok(None);
    };
    let Some(at) = read.base_end() else {
        return Ok(None);
    };
    if !same_base(c, &read.decoded) {
        return Ok(None);
    }
    let state = State::text(c)?;
    let mut text = String::with_capacity(at + state.len());
    text.push_str(&read.doc[..at]);
    text.push(',');
    text.push_str(&state[1..]);
    Ok(Some((text, at, resolution_carries(c, read))))
}

/// The compendium key under which resolving `c` on read (`characters::resolve_stored`: its
/// sheet derived again, old equipment adopted) would change nothing, when `c` has the same base
/// as the character it was read from (checked by the caller) and that read was a resolution
/// that changed nothing under that key.
///
/// Resolving reads a character's base, its derived sheet, hit dice, effects (a form held by
/// one), slots and resources, and its hit points only to hold them to the maximum; it reads
/// none of its temporary hit points, death saves, death, conditions and concentration
/// (`derive::refresh` says so where it reads). So when `c` differs from a character resolving
/// left alone only in those, and in hit points within the maximum, resolving leaves `c` alone
/// too. A test holds this on SRD-built characters (`tests/resolution.rs`).
fn resolution_carries(c: &Character, read: &AsRead) -> Option<u64> {
    let key = read.fixed_under?;
    let was = &*read.decoded;
    // Every field is named, so a new one must be placed: the base (compared by the caller),
    // a state field resolving reads (compared here), or one it does not read.
    let Character {
        id: _,
        name: _,
        kind: _,
        race: _,
        subrace: _,
        class: _,
        background: _,
        level: _,
        xp: _,
        abilities: _,
        proficiency_bonus: _,
        save_proficiencies: _,
        skills: _,
        armor_class: _,
        armor_source: _,
        speed: _,
        size: _,
        max_hp,
        hit_die: _,
        resistances: _,
        immunities: _,
        vulnerabilities: _,
        condition_immunities: _,
        spellcasting_ability: _,
        spells: _,
        spellbook: _,
        spell_classes: _,
        equipment: _,
        inventory: _,
        languages: _,
        features: _,
        notes: _,
        stat_block: _,
        shape: _,
        mastered_spells: _,
        build: _,
        // The state resolving reads.
        hp,
        hit_dice,
        effects,
        spell_slots,
        resources,
        derived: _,
        // The state it does not read.
        temp_hp: _,
        death_saves: _,
        dead: _,
        died_at: _,
        conditions: _,
        concentration: _,
        // Not in the document.
        read_sheet: _,
        read_doc: _,
    } = c;
    (same_derived(c, was)
        && *hp <= *max_hp
        && *hit_dice == was.hit_dice
        && *effects == was.effects
        && *spell_slots == was.spell_slots
        && *resources == was.resources)
        .then_some(key)
}

/// Whether `a` and `b` have the same effective sheet by what it is derived from: the base part,
/// the derived block (the same shared one), and the state the sheet reads
/// (`model::sheet::SheetInputs`). The state it does not read (hit points, slots, resources, …)
/// may differ. This is the rule `update` already follows when it reuses the sheet it read; a
/// store follows it to hand the sheet a state-only write kept on to the text it wrote.
pub(crate) fn same_effective_inputs(a: &Character, b: &Character) -> bool {
    same_derived(a, b) && SheetInputs::equal(a, b) && same_base(a, b)
}

/// Whether `a` and `b` hold the same shared derived block (or neither has one): the same
/// derivation, known without comparing it.
fn same_derived(a: &Character, b: &Character) -> bool {
    match (&a.derived, &b.derived) {
        (Some(x), Some(y)) => Arc::ptr_eq(x, y),
        (None, None) => true,
        _ => false,
    }
}

/// Whether `a` and `b` agree on every member of the document's base part. Every field is named:
/// a new field must be put in the base (and compared) or in the state.
fn same_base(a: &Character, b: &Character) -> bool {
    let Character {
        id,
        name,
        kind,
        race,
        subrace,
        class,
        background,
        level,
        xp,
        abilities,
        proficiency_bonus,
        save_proficiencies,
        skills,
        armor_class,
        armor_source,
        speed,
        size,
        max_hp,
        hit_die,
        resistances,
        immunities,
        vulnerabilities,
        condition_immunities,
        spellcasting_ability,
        spells,
        spellbook,
        spell_classes,
        equipment,
        inventory,
        languages,
        features,
        notes,
        stat_block,
        shape,
        mastered_spells,
        build,
        // The state part (`State`).
        hp: _,
        temp_hp: _,
        hit_dice: _,
        death_saves: _,
        dead: _,
        died_at: _,
        conditions: _,
        effects: _,
        concentration: _,
        spell_slots: _,
        resources: _,
        // Not in the document.
        derived: _,
        read_sheet: _,
        read_doc: _,
    } = a;
    *id == b.id
        && *name == b.name
        && *kind == b.kind
        && *race == b.race
        && *subrace == b.subrace
        && *class == b.class
        && *background == b.background
        && *level == b.level
        && *xp == b.xp
        && *abilities == b.abilities
        && *proficiency_bonus == b.proficiency_bonus
        && *save_proficiencies == b.save_proficiencies
        && *skills == b.skills
        && *armor_class == b.armor_class
        && *armor_source == b.armor_source
        && *speed == b.speed
        && *size == b.size
        && *max_hp == b.max_hp
        && *hit_die == b.hit_die
        && *resistances == b.resistances
        && *immunities == b.immunities
        && *vulnerabilities == b.vulnerabilities
        && *condition_immunities == b.condition_immunities
        && *spellcasting_ability == b.spellcasting_ability
        && *spells == b.spells
        && *spellbook == b.spellbook
        && *spell_classes == b.spell_classes
        && *equipment == b.equipment
        && *inventory == b.inventory
        && *languages == b.languages
        && *features == b.features
        && *notes == b.notes
        && *stat_block == b.stat_block
        && *shape == b.shape
        && *mastered_spells == b.mastered_spells
        && *build == b.build
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::character::document_text;
    use serde_json::{Map, Value, json};

    /// A character with every state member present (none left out).
    fn full_state() -> Character {
        let mut c: Character = serde_json::from_value(json!({
            "id": "ona", "name": "Ona", "kind": "pc", "level": 3, "class": "cleric",
            "abilities": {"str": 10, "dex": 12, "con": 14, "int": 10, "wis": 16, "cha": 8},
            "proficiencyBonus": 2, "armorClass": 16, "armorSource": "chain mail", "speed": 25,
            "size": "medium", "maxHp": 24, "hp": 9, "tempHp": 3, "hitDie": 8, "hitDice": 2,
            "deathSaves": {"successes": 1, "failures": 0, "stable": false},
            "diedAt": 60,
            "conditions": [{"condition": "poisoned", "source": "venom"}],
            "effects": [{"id": "e1", "name": "Bless", "modifiers": [],
                          "duration": {"kind": "rounds", "remaining": 10}}],
            "concentration": {"spell": "bless", "roundsLeft": 10},
            "spellSlots": {"max": [4, 2, 0, 0, 0, 0, 0, 0, 0], "used": [1, 0, 0, 0, 0, 0, 0, 0, 0]},
            "resources": [{"name": "Channel Divinity", "max": 1, "current": 0, "recharge": "short"}],
            "languages": ["Common"], "features": ["Divine Domain"]
        }))
        .unwrap();
        c.dead = true;
        c
    }

    fn keys(text: &str) -> Vec<String> {
        serde_json::from_str::<Map<String, Value>>(text)
            .unwrap()
            .keys()
            .cloned()
            .collect()
    }

    /// The state serializer and the last fields of `Character` agree: a document is its base
    /// members, a comma, then exactly the state's members, in the same order.
    #[test]
    fn a_document_ends_with_its_state_members() {
        let full = full_state();
        let mut plain = full.clone();
        (plain.died_at, plain.effects, plain.concentration) = (None, vec![], None);
        (plain.spell_slots, plain.resources) = (SpellSlots::default(), vec![]);
        for c in [full, plain] {
            let doc = document_text(&c).unwrap();
            let state = State::text(&c).unwrap();
            let tail = &state[1..];
            assert!(doc.ends_with(tail), "{doc}\ndoes not end with\n{tail}");
            let base = format!("{}}}", &doc[..doc.len() - tail.len() - 1]);
            let (base_keys, state_keys) = (keys(&base), keys(&state));
            assert!(
                base_keys.iter().all(|k| !state_keys.contains(k)),
                "{base_keys:?}"
            );
            let mut all = base_keys.clone();
            all.extend(state_keys.iter().cloned());
            let mut in_doc = keys(&doc);
            in_doc.sort();
            all.sort();
            assert_eq!(all, in_doc);
        }
        // Every state member, as the document writes them, in their order.
        let c = full_state();
        let expected = [
            "hp",
            "tempHp",
            "hitDice",
            "deathSaves",
            "dead",
            "diedAt",
            "conditions",
            "effects",
            "concentration",
            "spellSlots",
            "resources",
        ];
        let mut sorted = expected.map(String::from).to_vec();
        sorted.sort();
        assert_eq!(keys(&State::text(&c).unwrap()), sorted);
        // (A parsed map sorts its keys: the text's order is checked on the text.)
        let text = document_text(&c).unwrap();
        let at: Vec<usize> = expected
            .iter()
            .map(|k| text.find(&format!("\"{k}\":")).unwrap())
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
    }

    /// A read character changed only in its state is written from the text it was read from:
    /// what that text holds beyond the fields (an unknown member) is kept, and it decodes to the
    /// character the whole serialization gives.
    #[test]
    fn a_state_change_keeps_the_base_text_as_read() {
        let c = full_state();
        let doc = document_text(&c).unwrap().replacen("{", "{\"zz\":1,", 1);
        let decoded: Character = serde_json::from_str(&doc).unwrap();
        let mut read = decoded.clone();
        read.read_doc = ReadDoc::new(doc.as_str().into(), Arc::new(decoded), None, None);
        read.hp = 4;
        read.conditions.clear();
        read.effects.clear();
        let made = document_after_read(&read).unwrap();
        let text = made.text.get();
        assert!(text.starts_with("{\"zz\":1,"), "{text}");
        assert_eq!(made.base_end, Some(text.find(",\"hp\":").unwrap()));
        let back: Character = serde_json::from_str(text).unwrap();
        let whole: Character = serde_json::from_str(&document_text(&read).unwrap()).unwrap();
        assert_eq!(back, whole);
        assert_eq!(back.hp, 4);
        // A base change (a feature) is serialized whole.
        read.features.push("Turn Undead".into());
        let made = document_after_read(&read).unwrap();
        assert!(!made.text.get().contains("zz"), "{}", made.text);
        assert_eq!(made.base_end, None);
        assert_eq!(
            serde_json::from_str::<Character>(made.text.get()).unwrap(),
            read
        );
    }

    /// A write knows the resolution of what it writes (see `resolution_carries`) only when the
    /// text it read was a resolution that changed nothing, its base is unchanged, and of the
    /// state it changed only what resolving does not read (hit points within the maximum).
    #[test]
    fn a_write_knows_its_resolution_only_when_resolving_reads_nothing_it_changed() {
        let decoded = full_state();
        let doc = document_text(&decoded).unwrap();
        let read_as = |fixed| {
            let mut r = decoded.clone();
            r.read_doc = ReadDoc::new(doc.as_str().into(), Arc::new(decoded.clone()), None, fixed);
            r
        };
        let knows = |c: &Character| document_after_read(c).unwrap().fixed_under;
        type Change = fn(&mut Character);
        let unread: [(&str, Change); 6] = [
            ("hp", |c| c.hp = c.max_hp),
            ("temp hp", |c| c.temp_hp = 0),
            ("death saves", |c| c.death_saves.failures = 2),
            ("dead", |c| (c.dead, c.died_at) = (false, None)),
            ("conditions", |c| c.conditions.clear()),
            ("concentration", |c| c.concentration = None),
        ];
        for (what, change) in unread {
            let mut w = read_as(Some(5));
            change(&mut w);
            assert_eq!(knows(&w), Some(5), "{what}");
            let mut w = read_as(None);
            change(&mut w);
            assert_eq!(
                knows(&w),
                None,
                "{what}: the read was not known to be resolved"
            );
        }
        let read: [(&str, Change); 7] = [
            ("hp above the maximum", |c| c.hp = c.max_hp + 1),
            ("hit dice", |c| c.hit_dice -= 1),
            ("effects", |c| c.effects.clear()),
            ("slots", |c| c.spell_slots.used[0] = 2),
            ("resources", |c| c.resources[0].current = 1),
            ("derived sheet", |c| c.derived = Some(Default::default())),
            ("base", |c| c.notes = Some("a ledger".into())),
        ];
        for (what, change) in read {
            let mut w = read_as(Some(5));
            change(&mut w);
            assert_eq!(knows(&w), None, "{what}");
        }
    }

    /// A document not in the expected shape is never spliced: a state member left in its base
    /// part (an older or imported document) would be written twice.
    #[test]
    fn an_unusual_document_is_serialized_whole() {
        let mut c = full_state();
        (c.effects, c.resources) = (vec![], vec![]);
        let plain = document_text(&c).unwrap();
        let cases = [
            // An omittable state member in the base part.
            plain.replacen("{", "{\"resources\":[],", 1),
            // A key spelled with an escape.
            plain.replacen("{", "{\"\\u007a\":1,", 1),
            // The state members not at the end.
            {
                let mut m: Map<String, Value> = serde_json::from_str(&plain).unwrap();
                m.sort_keys();
                serde_json::to_string(&m).unwrap()
            },
        ];
        for doc in cases {
            let decoded: Character = serde_json::from_str(&doc).unwrap();
            let mut read = decoded.clone();
            read.read_doc = ReadDoc::new(doc.as_str().into(), Arc::new(decoded), None, None);
            read.resources = full_state().resources;
            read.hp = 1;
            let made = document_after_read(&read).unwrap();
            assert_eq!(made.text.get(), document_text(&read).unwrap(), "from {doc}");
            assert_eq!(made.base_end, None);
        }
    }
}
