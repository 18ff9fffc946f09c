//! A multiclassed character's spell slots by the SRD's multiclassing rules, through the real
//! `create_character` and `level_up` use cases. The oracle reads the SRD's raw JSON itself (the
//! level each class gains Spellcasting, its own slot table, the full casters' table the
//! multiclass table equals) and applies the rule as the SRD words it: only classes that have
//! the Spellcasting feature at their level count; with one, that class's own table at its level;
//! with two or more, full caster levels + half the paladin and ranger levels (rounded down) on the
//! multiclass table; Pact Magic apart.

use super::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde_json::Value;
use tabletop_engine::character::{Character, CharacterRef};
use tabletop_engine::creation::{ClassRequest, CreateRequest, create_character};
use tabletop_engine::levelling::{LevelHpMethod, level_up_in};
use tabletop_engine::{Engine, EngineOptions, SqliteStore};
use tabletop_rules::Ability;
use tabletop_rules::hp::HpMethod;
use tabletop_srd::Compendium;

fn engine(dir: &tempfile::TempDir, srd: Arc<Compendium>) -> Engine<SqliteStore> {
    let store = SqliteStore::open(&dir.path().join("t.sqlite")).unwrap();
    Engine::open(
        store,
        "main",
        EngineOptions {
            seed: Some(5),
            compendium: tabletop_engine::compendium::CompendiumSource::ready(srd),
        },
    )
    .unwrap()
}

fn create(e: &mut Engine<SqliteStore>, name: &str, classes: &[(&str, u32)]) -> Character {
    let req = CreateRequest {
        name: name.into(),
        classes: classes
            .iter()
            .map(|(class, level)| ClassRequest {
                class: (*class).into(),
                level: *level,
                subclass: None,
            })
            .collect(),
        // 14 everywhere meets every class's multiclassing prerequisite.
        scores: Some(Ability::ALL.iter().map(|a| (*a, 14)).collect()),
        ..Default::default()
    };
    e.write("create_character", &serde_json::json!({}), |call| {
        create_character(call, req)
    })
    .expect("create")
    .character
}

/// What the SRD JSON says of each class: the level its Spellcasting (or Pact Magic) starts, and
/// its level table's slots and pact slots.
struct Oracle {
    starts: BTreeMap<String, u64>,
    slots: BTreeMap<(String, u64), [u8; 9]>,
}

fn read(dir: &Path, file: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    serde_json::from_str::<Value>(&text)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

impl Oracle {
    fn load(test: &str) -> Option<Self> {
        let dir = common::srd_env::srd_dir(test)?;
        let mut starts = BTreeMap::new();
        for c in read(&dir, "5e-SRD-Classes.json") {
            if let Some(level) = c["spellcasting"]["level"].as_u64() {
                starts.insert(c["index"].as_str().unwrap().to_string(), level);
            }
        }
        let mut slots = BTreeMap::new();
        for row in read(&dir, "5e-SRD-Levels.json") {
            if row.get("subclass").is_some() {
                continue;
            }
            let class = row["class"]["index"].as_str().unwrap().to_string();
            let mut s = [0u8; 9];
            for (i, n) in s.iter_mut().enumerate() {
                let key = format!("spell_slots_level_{}", i + 1);
                *n = row["spellcasting"][key.as_str()].as_u64().unwrap_or(0) as u8;
            }
            slots.insert((class, row["level"].as_u64().unwrap()), s);
        }
        Some(Self { starts, slots })
    }

    /// The spell slots (not pact slots) the SRD rule gives these class levels.
    fn expected(&self, classes: &[(&str, u32)]) -> [u8; 9] {
        // The SRD multiclassing rule names the full casters and the half casters.
        const FULL: &[&str] = &["bard", "cleric", "druid", "sorcerer", "wizard"];
        const HALF: &[&str] = &["paladin", "ranger"];
        let casting: Vec<(&str, u32)> = classes
            .iter()
            .copied()
            .filter(|(c, l)| {
                (FULL.contains(c) || HALF.contains(c))
                    && self.starts.get(*c).is_some_and(|s| u64::from(*l) >= *s)
            })
            .collect();
        match casting.as_slice() {
            [] => [0; 9],
            [(c, l)] => self.slots[&(c.to_string(), u64::from(*l))],
            several => {
                let level: u32 = several
                    .iter()
                    .map(|(c, l)| if HALF.contains(c) { l / 2 } else { *l })
                    .sum();
                // The Multiclass Spellcaster table is the full casters' (wizard's) table.
                self.slots[&("wizard".to_string(), u64::from(level))]
            }
        }
    }

    /// The warlock's pact slots at `level`: (count, slot level).
    fn pact(&self, level: u32) -> (u8, u8) {
        let s = self.slots[&("warlock".to_string(), u64::from(level))];
        s.iter()
            .enumerate()
            .find(|(_, n)| **n > 0)
            .map_or((0, 0), |(i, n)| (*n, i as u8 + 1))
    }
}

#[test]
fn a_multiclass_follows_the_one_spellcasting_class_or_the_combined_table() {
    let Some(srd) = common::srd("multiclass_slots") else {
        return;
    };
    let oracle = Oracle::load("multiclass_slots").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, srd);

    // The play-test's cases, with their numbers from the SRD tables.
    for (classes, first_level) in [
        // Ranger 1 has no Spellcasting yet: nothing, in either order.
        (&[("ranger", 1), ("rogue", 1)][..], 0),
        (&[("rogue", 1), ("ranger", 1)][..], 0),
        (&[("fighter", 1), ("ranger", 1)][..], 0),
        (&[("paladin", 1), ("fighter", 1)][..], 0),
        // One spellcasting class: its own table at its level (ranger 3: three 1st-level slots;
        // on the multiclass table, half of 3 would give two).
        (&[("ranger", 3), ("fighter", 1)][..], 3),
        (&[("fighter", 1), ("paladin", 3)][..], 3),
        // Paladin 1 does not count: wizard 1 alone, two slots.
        (&[("paladin", 1), ("wizard", 1)][..], 2),
    ] {
        let name: String = classes.iter().map(|(c, l)| format!("{c}{l}")).collect();
        let c = create(&mut e, &name, classes);
        assert_eq!(c.spell_slots.max[0], first_level, "{name}");
        assert_eq!(c.spell_slots.max, oracle.expected(classes), "{name}");
    }
    // No Spellcasting feature yet, no spellcasting ability on the sheet; ranger 2 has WIS.
    let c = create(&mut e, "Scout", &[("ranger", 1), ("rogue", 1)]);
    assert_eq!(c.spellcasting_ability, None);
    assert_eq!(c.spell_slots.summary(), "none");
    let up = e
        .write("level_up", &serde_json::json!({}), |call| {
            level_up_in(
                call,
                CharacterRef::new(None, Some("Scout")),
                Some("ranger"),
                None,
                LevelHpMethod::Rules(HpMethod::Average),
            )
        })
        .unwrap();
    assert!(
        up.changes.iter().any(|l| l == "spell slots none → 1st 2/2"),
        "{:?}",
        up.changes
    );
    let c = e
        .read(|call| {
            tabletop_engine::sheet::get_character(call, CharacterRef::new(None, Some("Scout")))
        })
        .unwrap()
        .character;
    assert_eq!(c.spellcasting_ability, Some(Ability::Wisdom));
    assert_eq!(
        c.spell_slots.max,
        oracle.expected(&[("ranger", 2), ("rogue", 1)])
    );
    assert_eq!(c.spell_slots.max[0], 2);

    // Every pair of full, half, pact and non-casters at levels 1–3 and 5, in both orders: the
    // slots the rule gives, and the warlock's pact slots apart.
    let classes = [
        "wizard", "cleric", "paladin", "ranger", "warlock", "fighter",
    ];
    let mut n = 0;
    for a in classes {
        for b in classes.iter().copied().filter(|b| *b != a) {
            for (la, lb) in [
                (1, 1),
                (1, 2),
                (2, 1),
                (2, 3),
                (3, 2),
                (5, 1),
                (1, 5),
                (5, 3),
            ] {
                let levels = [(a, la), (b, lb)];
                n += 1;
                let c = create(&mut e, &format!("P{n}"), &levels);
                assert_eq!(
                    c.spell_slots.max,
                    oracle.expected(&levels),
                    "{a} {la} / {b} {lb}"
                );
                let pact = levels
                    .iter()
                    .find(|(c, _)| *c == "warlock")
                    .map(|(_, l)| oracle.pact(*l));
                assert_eq!(
                    c.spell_slots.pact.map(|p| (p.max, p.level)),
                    pact,
                    "{a} {la} / {b} {lb}"
                );
            }
        }
    }
    // Three classes: two half casters with Spellcasting and a full caster add up.
    for levels in [
        [("paladin", 2), ("ranger", 3), ("wizard", 1)],
        [("paladin", 1), ("ranger", 3), ("warlock", 2)],
        [("paladin", 5), ("ranger", 1), ("fighter", 2)],
    ] {
        n += 1;
        let c = create(&mut e, &format!("P{n}"), &levels);
        assert_eq!(c.spell_slots.max, oracle.expected(&levels), "{levels:?}");
    }
}
