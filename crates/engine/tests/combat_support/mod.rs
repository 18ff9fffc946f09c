//! Helpers for the combat integration tests: open a seeded campaign, start a fight with inline
//! stat blocks at fixed initiative, run execute_action requests, read sheets back.

#![allow(dead_code)]

use serde_json::{Value, json};
use tabletop_engine::character::{Character, CharacterRef, ConditionEntry, resolve};
use tabletop_engine::combat::actions::{ActionOutcome, ActionRequest, execute};
use tabletop_engine::combat::create::{
    CreateEncounter, InlineAttack, InlineStatBlock, ParticipantSource, ParticipantSpec,
    TerrainSpec, create_encounter,
};
use tabletop_engine::combat::{self, Encounter, Side};
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_grid::Position;
use tabletop_rules::{Condition, DamageType};

/// The engine type of the tests.
pub type E = Engine<SqliteStore>;

/// A campaign in a temporary database with a fixed dice seed (and the SRD when `srd` is given).
pub fn open(
    seed: u64,
    srd: Option<std::sync::Arc<tabletop_srd::Compendium>>,
) -> (tempfile::TempDir, E) {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("t.db")).unwrap();
    let compendium = match srd {
        Some(s) => tabletop_engine::compendium::CompendiumSource::ready(s),
        None => tabletop_engine::compendium::CompendiumSource::none(),
    };
    let e = Engine::open(
        store,
        "combat",
        EngineOptions {
            seed: Some(seed),
            compendium,
        },
    )
    .unwrap();
    (dir, e)
}

/// A melee attack of an inline stat block.
pub fn melee(name: &str, bonus: i32, damage: &str, t: DamageType) -> InlineAttack {
    InlineAttack {
        name: name.into(),
        bonus,
        damage: damage.into(),
        damage_type: Some(t),
        reach_ft: None,
        range_ft: None,
    }
}

/// A ranged attack of an inline stat block.
pub fn ranged(name: &str, bonus: i32, damage: &str, normal: u32, long: u32) -> InlineAttack {
    InlineAttack {
        name: name.into(),
        bonus,
        damage: damage.into(),
        damage_type: Some(DamageType::Piercing),
        reach_ft: None,
        range_ft: Some((normal, long)),
    }
}

/// An inline creature.
pub fn creature(name: &str, hp: u32, ac: i32, attacks: Vec<InlineAttack>) -> InlineStatBlock {
    InlineStatBlock {
        name: name.into(),
        hp,
        ac,
        attacks,
        ..Default::default()
    }
}

/// A participant at `pos` with a fixed initiative.
pub fn at(block: InlineStatBlock, side: Side, x: i32, y: i32, init: i32) -> ParticipantSpec {
    ParticipantSpec {
        source: ParticipantSource::Inline(Box::new(block)),
        side: Some(side),
        positions: vec![Position::new(x, y)],
        surprised: false,
        initiative: Some(init),
    }
}

/// An existing character at `pos` with a fixed initiative.
pub fn character(name: &str, side: Side, x: i32, y: i32, init: i32) -> ParticipantSpec {
    ParticipantSpec {
        source: ParticipantSource::Character {
            id: None,
            name: Some(name.into()),
        },
        side: Some(side),
        positions: vec![Position::new(x, y)],
        surprised: false,
        initiative: Some(init),
    }
}

/// Starts an encounter.
pub fn start(e: &mut E, participants: Vec<ParticipantSpec>, terrain: TerrainSpec) -> Encounter {
    e.write("create_encounter", &json!({}), |call| {
        create_encounter(
            call,
            CreateEncounter {
                name: Some("Test fight".into()),
                participants,
                terrain,
                auto_end: false,
            },
        )
    })
    .unwrap()
    .encounter
}

/// Runs one execute_action request given as JSON.
pub fn act(e: &mut E, req: Value) -> Result<ActionOutcome, EngineError> {
    let r: ActionRequest = serde_json::from_value(req).unwrap();
    e.write("execute_action", &json!({}), |call| execute(call, &r))
}

/// A character's sheet by name.
pub fn sheet(e: &mut E, name: &str) -> Character {
    e.read(|call| resolve(call, CharacterRef::new(None, Some(name))))
        .unwrap()
}

/// The active encounter.
pub fn encounter(e: &mut E) -> Encounter {
    e.read(|call| combat::load(call, None)).unwrap()
}

/// Edits a sheet directly (test setup).
pub fn edit(e: &mut E, name: &str, f: impl FnOnce(&mut Character)) {
    let mut c = sheet(e, name);
    f(&mut c);
    e.write("test", &json!({}), |call| combat::put_sheet(call, &c))
        .unwrap();
}

/// Edits the stored encounter directly (test setup).
pub fn edit_encounter(e: &mut E, f: impl FnOnce(&mut Encounter)) {
    let mut enc = encounter(e);
    f(&mut enc);
    e.write("test", &json!({}), |call| combat::save(call, &enc))
        .unwrap();
}

/// Gives a condition (test setup).
pub fn condition(e: &mut E, name: &str, c: Condition) {
    edit(e, name, |ch| {
        ch.conditions.push(ConditionEntry {
            by: None,
            ends_on: None,
            condition: c,
            level: None,
            source: "test".into(),
            duration: None,
        })
    });
}
