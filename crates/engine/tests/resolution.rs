//! What resolving a stored character on read (its sheet derived again from its sources) may
//! leave alone, which the store relies on to keep the resolution a state-only write makes
//! (`model::doc_state::resolution_carries`): resolving what it made changes nothing, and neither
//! does a change of the state it does not read. Shown on SRD-built characters, and through the
//! real tools against a store opened afresh.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::common;
use tabletop_engine::character::CharacterRef;
use tabletop_engine::creation::{ClassRequest, CreateRequest, create_character};
use tabletop_engine::model::character::Character;
use tabletop_engine::sheet::get_character;
use tabletop_engine::update::{HpChange, UpdateRequest, update_character};
use tabletop_engine::{Engine, EngineOptions, SqliteStore};
use tabletop_rules::{Ability, Condition};
use tabletop_srd::Compendium;

/// A change made to a character.
type Change = Box<dyn Fn(&mut Character)>;

fn engine(db: &std::path::Path, srd: &Arc<Compendium>) -> Engine<SqliteStore> {
    Engine::open(
        SqliteStore::open(db).unwrap(),
        "main",
        EngineOptions {
            seed: Some(3),
            compendium: tabletop_engine::compendium::CompendiumSource::ready(srd.clone()),
        },
    )
    .unwrap()
}

fn scores(v: [i64; 6]) -> Option<BTreeMap<Ability, i64>> {
    Some(Ability::ALL.iter().copied().zip(v).collect())
}

fn class(name: &str, level: u32) -> ClassRequest {
    ClassRequest {
        class: name.into(),
        level,
        subclass: None,
    }
}

/// A hill-dwarf cleric 5, a lightfoot-halfling rogue 3, a human fighter 1 / wizard 2 (combined
/// slots) and a tiefling wizard 3 / warlock 2 (pact slots kept apart), all built from the SRD.
fn party() -> Vec<CreateRequest> {
    let plain = |name: &str, race: &str, subrace: Option<&str>, class: &str, level| CreateRequest {
        name: name.into(),
        race: Some(race.into()),
        subrace: subrace.map(Into::into),
        class: Some(class.into()),
        level: Some(level),
        scores: scores([14, 14, 14, 13, 15, 13]),
        ..Default::default()
    };
    let multi = |name: &str, race: &str, classes| CreateRequest {
        name: name.into(),
        race: Some(race.into()),
        classes,
        scores: scores([14, 13, 14, 14, 10, 13]),
        ..Default::default()
    };
    vec![
        plain("Hild", "dwarf", Some("hill dwarf"), "cleric", 5),
        plain("Pip", "halfling", Some("lightfoot halfling"), "rogue", 3),
        multi(
            "Mara",
            "human",
            vec![class("fighter", 1), class("wizard", 2)],
        ),
        multi(
            "Vex",
            "tiefling",
            vec![class("wizard", 3), class("warlock", 2)],
        ),
    ]
}

fn sheet(e: &mut Engine<SqliteStore>, name: &str) -> serde_json::Value {
    let s = e
        .read(|call| get_character(call, CharacterRef::new(None, Some(name))))
        .unwrap();
    serde_json::to_value(s).unwrap()
}

fn read(e: &mut Engine<SqliteStore>, name: &str) -> Character {
    e.read(|call| get_character(call, CharacterRef::new(None, Some(name))))
        .unwrap()
        .character
}

/// Resolving a resolved character again changes nothing, and a change of hit points within the
/// maximum, temporary hit points, death saves, death, conditions or concentration is left as it
/// is; hit points above the maximum are held to it (resolving does read them).
#[test]
fn resolving_leaves_what_it_made_and_the_state_it_does_not_read_alone() {
    let Some(srd) = common::srd("resolving_leaves_what_it_made") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir.path().join("t.sqlite"), &srd);
    for req in party() {
        let name = req.name.clone();
        e.write("create_character", &serde_json::json!({}), |call| {
            create_character(call, req)
        })
        .unwrap();
        let c = read(&mut e, &name);
        assert!(c.build.is_some() && c.derived.is_some(), "{name} built");
        let resolve = |c: &Character| {
            let mut again = c.clone();
            tabletop_engine::derive::refresh_with(Some(&srd), &mut again);
            again
        };
        assert_eq!(resolve(&c), c, "{name}: resolving again changes nothing");
        let concentration: tabletop_engine::model::concentration::Concentration =
            serde_json::from_value(serde_json::json!({"spell": "bless", "roundsLeft": 10}))
                .unwrap();
        let poisoned: tabletop_engine::model::character::ConditionEntry =
            serde_json::from_value(serde_json::json!({"condition": "poisoned", "source": "dart"}))
                .unwrap();
        let changes: Vec<(&str, Change)> = vec![
            ("hp", Box::new(|c| c.hp = c.max_hp - 3)),
            ("temp hp", Box::new(|c| c.temp_hp = 5)),
            ("death saves", Box::new(|c| c.death_saves.failures = 2)),
            (
                "dead",
                Box::new(|c| {
                    c.hp = 0;
                    c.dead = true;
                    c.died_at = Some(12);
                }),
            ),
            (
                "condition",
                Box::new(move |c| c.conditions.push(poisoned.clone())),
            ),
            (
                "concentration",
                Box::new(move |c| c.concentration = Some(concentration.clone())),
            ),
        ];
        for (what, change) in &changes {
            let mut w = c.clone();
            change(&mut w);
            assert_ne!(w, c, "{name}: {what} changes the character");
            assert_eq!(resolve(&w), w, "{name}: resolving leaves {what} alone");
        }
        let mut over = c.clone();
        over.hp = c.max_hp + 5;
        assert_eq!(
            resolve(&over).hp,
            c.max_hp,
            "{name}: hit points held to the maximum"
        );
    }
}

/// After each state-only change through the tools (damage, temporary hit points, a condition,
/// healing, a drop to 0 HP), a character's sheet reads the same as from a store opened afresh,
/// which decodes and resolves the stored text anew.
#[test]
fn a_sheet_read_after_a_state_change_equals_one_read_afresh() {
    let Some(srd) = common::srd("a_sheet_read_after_a_state_change") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let mut e = engine(&db, &srd);
    let party = party();
    let names: Vec<String> = party.iter().map(|r| r.name.clone()).collect();
    for req in party {
        e.write("create_character", &serde_json::json!({}), |call| {
            create_character(call, req)
        })
        .unwrap();
    }
    let steps = [
        ("7 damage", Step::Hp(HpChange::Damage(7))),
        ("5 temp hp", Step::TempHp(5)),
        ("poisoned", Step::Poisoned),
        ("3 healing", Step::Healing(3)),
        ("2 damage", Step::Hp(HpChange::Damage(2))),
        ("a drop to 0", Step::DropToZero),
    ];
    for (what, step) in &steps {
        for name in &names {
            let before = read(&mut e, name);
            step.make(&mut e, name);
            let kept = sheet(&mut e, name);
            let fresh = sheet(&mut engine(&db, &srd), name);
            assert_eq!(kept, fresh, "{name} after {what}");
            assert_ne!(read(&mut e, name), before, "{name}: {what} changed it");
        }
    }
    // The last step left everyone at 0 HP, dying: their saves fail on their own.
    for name in &names {
        let s = sheet(&mut e, name);
        assert_eq!(s["character"]["hp"], 0, "{name}");
        assert!(
            s["character"]["conditions"]
                .to_string()
                .contains("unconscious"),
            "{name}: {}",
            s["character"]["conditions"]
        );
    }
}

/// A state change made through the tools.
enum Step {
    Hp(HpChange),
    TempHp(u32),
    Healing(u32),
    Poisoned,
    /// Damage of exactly the hit points and temporary hit points left.
    DropToZero,
}

impl Step {
    fn make(&self, e: &mut Engine<SqliteStore>, name: &str) {
        let req = match self {
            Step::Hp(change) => hp(*change),
            Step::TempHp(n) => UpdateRequest {
                temp_hp: Some(*n),
                ..Default::default()
            },
            Step::Healing(n) => UpdateRequest {
                healing: Some(*n),
                ..Default::default()
            },
            Step::Poisoned => return common::add_condition(e, name, Condition::Poisoned),
            Step::DropToZero => {
                let c = read(e, name);
                hp(HpChange::Damage(c.hp + c.temp_hp))
            }
        };
        update(e, name, req);
    }
}

fn update(e: &mut Engine<SqliteStore>, name: &str, req: UpdateRequest) {
    e.write("update_character", &serde_json::json!({}), |call| {
        update_character(call, CharacterRef::new(None, Some(name)), req)
    })
    .unwrap();
}

fn hp(change: HpChange) -> UpdateRequest {
    UpdateRequest {
        hp: Some(change),
        ..Default::default()
    }
}
