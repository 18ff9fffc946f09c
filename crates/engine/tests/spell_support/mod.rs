//! Shared set-up of the spell tests (movement, summons, wards): an engine over the SRD with
//! seeded dice, SRD-built casters, encounters on a map, casting and turns through the real
//! use cases.
#![allow(dead_code)]

use std::sync::Arc;

use tabletop_engine::character::Character;
use tabletop_engine::combat::actions::{ActionOutcome, ActionRequest, ActionType, Who, execute};
use tabletop_engine::combat::create::{
    CreateEncounter, ParticipantSource, ParticipantSpec, TerrainSpec, create_encounter,
};
use tabletop_engine::combat::turn::{AdvanceRequest, TurnReport, advance_turn};
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{AbilityMethod, CreateMode, CreateRequest, create_character};
use tabletop_engine::model::encounter::Encounter;
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_grid::Position;
use tabletop_rules::Ability;
use tabletop_srd::Compendium;

pub type E = Engine<SqliteStore>;

pub fn engine(dir: &tempfile::TempDir, srd: &Arc<Compendium>, seed: u64) -> E {
    Engine::open(
        SqliteStore::open(&dir.path().join("c.sqlite")).unwrap(),
        "c",
        EngineOptions {
            seed: Some(seed),
            compendium: CompendiumSource::ready(srd.clone()),
        },
    )
    .unwrap()
}

/// An SRD-built caster: DEX 14, CON 14, INT 16, WIS 16.
pub fn caster(e: &mut E, name: &str, class: &str, level: u32, spells: &[&str]) -> String {
    let scores = [10, 14, 14, 16, 16, 10];
    let req = CreateRequest {
        name: name.into(),
        class: Some(class.into()),
        level: Some(level),
        method: AbilityMethod::Manual,
        scores: Some(Ability::ALL.iter().copied().zip(scores).collect()),
        spells: spells.iter().map(|s| s.to_string()).collect(),
        mode: CreateMode::Create,
        ..Default::default()
    };
    e.write("create_character", &serde_json::json!({}), |call| {
        create_character(call, req)
    })
    .unwrap()
    .character
    .id
}

pub fn sheet(e: &mut E, id: &str) -> Character {
    let id = id.to_string();
    e.read(|call| tabletop_engine::combat::sheet(call, &id))
        .unwrap()
}

pub fn pc(id: &str, x: i32, y: i32, init: i32) -> ParticipantSpec {
    ParticipantSpec {
        source: ParticipantSource::Character {
            id: Some(id.into()),
            name: None,
        },
        side: None,
        positions: vec![Position::new(x, y)],
        surprised: false,
        initiative: Some(init),
    }
}

pub fn monster(m: &str, count: u32, at: &[(i32, i32)]) -> ParticipantSpec {
    ParticipantSpec {
        source: ParticipantSource::Monster {
            monster: m.into(),
            count,
            name: None,
        },
        side: None,
        positions: at.iter().map(|&(x, y)| Position::new(x, y)).collect(),
        surprised: false,
        initiative: Some(1),
    }
}

pub fn fight_on(
    e: &mut E,
    parts: Vec<ParticipantSpec>,
    terrain: TerrainSpec,
) -> Vec<(String, String)> {
    let out = e
        .write("create_encounter", &serde_json::json!({}), |call| {
            create_encounter(
                call,
                CreateEncounter {
                    participants: parts,
                    terrain,
                    ..Default::default()
                },
            )
        })
        .unwrap();
    out.encounter
        .order
        .iter()
        .map(|c| (c.name.clone(), c.character_id.clone()))
        .collect()
}

pub fn fight(e: &mut E, parts: Vec<ParticipantSpec>) -> Vec<(String, String)> {
    fight_on(e, parts, TerrainSpec::default())
}

pub fn id_of(order: &[(String, String)], name: &str) -> String {
    order
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, id)| id.clone())
        .unwrap_or_else(|| panic!("{name} not in {order:?}"))
}

pub fn who(id: &str) -> Who {
    Who {
        id: Some(id.into()),
        name: None,
    }
}

pub fn act(e: &mut E, req: ActionRequest) -> Result<ActionOutcome, EngineError> {
    e.write("execute_action", &serde_json::json!({}), |call| {
        execute(call, &req)
    })
}

pub fn cast(
    e: &mut E,
    actor: &str,
    spell: &str,
    f: impl FnOnce(&mut ActionRequest),
) -> Result<ActionOutcome, EngineError> {
    let mut req = ActionRequest {
        actor: who(actor),
        action_type: Some(ActionType::CastSpell),
        spell: Some(spell.into()),
        ..Default::default()
    };
    f(&mut req);
    act(e, req)
}

pub fn advance(e: &mut E) -> TurnReport {
    e.write("advance_turn", &serde_json::json!({}), |call| {
        advance_turn(call, &AdvanceRequest::default())
    })
    .unwrap()
}

pub fn encounter(e: &mut E) -> Encounter {
    e.read(|call| tabletop_engine::combat::load(call, None))
        .unwrap()
}

pub fn position(e: &mut E, id: &str) -> Option<Position> {
    encounter(e).position_of(id)
}
