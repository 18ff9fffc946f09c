//! Helpers shared by the zone and terrain spell tests (`spell_zones`, `spell_terrain`): an engine on
//! a fresh SQLite file with the SRD loaded and a seeded dice stream, SRD-built casters, an
//! encounter on a map, casting and moving through `execute_action`, turns, sheets and sight.

#![allow(dead_code)]

pub use std::sync::Arc;

pub use tabletop_engine::character::Character;
pub use tabletop_engine::combat::actions::{
    ActionOutcome, ActionRequest, ActionType, Who, execute,
};
pub use tabletop_engine::combat::create::{
    CreateEncounter, ParticipantSource, ParticipantSpec, create_encounter,
};
pub use tabletop_engine::combat::turn::{AdvanceRequest, TurnReport, advance_turn};
pub use tabletop_engine::compendium::CompendiumSource;
pub use tabletop_engine::creation::{AbilityMethod, CreateMode, CreateRequest, create_character};
pub use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
pub use tabletop_grid::{Position, Terrain};
pub use tabletop_rules::{Ability, Condition};
pub use tabletop_srd::Compendium;

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

/// An SRD-built caster: DEX 14, CON 14, INT and WIS 16 (save DC 8 + prof + 3).
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

pub fn monster(m: &str, at: &[(i32, i32)]) -> ParticipantSpec {
    ParticipantSpec {
        source: ParticipantSource::Monster {
            monster: m.into(),
            count: at.len() as u32,
            name: None,
        },
        side: None,
        positions: at.iter().map(|&(x, y)| Position::new(x, y)).collect(),
        surprised: false,
        initiative: Some(1),
    }
}

pub fn named(m: &str, name: &str, x: i32, y: i32, init: i32) -> ParticipantSpec {
    ParticipantSpec {
        source: ParticipantSource::Monster {
            monster: m.into(),
            count: 1,
            name: Some(name.into()),
        },
        side: None,
        positions: vec![Position::new(x, y)],
        surprised: false,
        initiative: Some(init),
    }
}

pub fn fight(e: &mut E, parts: Vec<ParticipantSpec>) -> Vec<(String, String)> {
    let out = e
        .write("create_encounter", &serde_json::json!({}), |call| {
            create_encounter(
                call,
                CreateEncounter {
                    participants: parts,
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
    e.write("execute_action", &serde_json::json!({}), |call| {
        execute(call, &req)
    })
}

pub fn step(e: &mut E, actor: &str, to: (i32, i32)) -> Result<ActionOutcome, EngineError> {
    let req = ActionRequest {
        actor: who(actor),
        action_type: Some(ActionType::Move),
        to: Some(Position::new(to.0, to.1)),
        ..Default::default()
    };
    e.write("execute_action", &serde_json::json!({}), |call| {
        execute(call, &req)
    })
}

pub fn advance(e: &mut E) -> TurnReport {
    e.write("advance_turn", &serde_json::json!({}), |call| {
        advance_turn(call, &AdvanceRequest::default())
    })
    .unwrap()
}

pub fn encounter(e: &mut E) -> tabletop_engine::combat::Encounter {
    e.read(|call| tabletop_engine::combat::load(call, None))
        .unwrap()
}

pub fn terrain(e: &mut E, x: i32, y: i32) -> Terrain {
    encounter(e)
        .map
        .terrain(Position::new(x, y))
        .unwrap()
        .clone()
}

pub fn break_concentration(e: &mut E, id: &str) {
    let id = id.to_string();
    e.write("manage_concentration", &serde_json::json!({}), |call| {
        tabletop_engine::concentration::break_concentration(
            call,
            tabletop_engine::character::CharacterRef::new(Some(&id), None),
            None,
        )
    })
    .unwrap();
}

pub fn has(c: &Character, cond: Condition) -> bool {
    c.conditions.iter().any(|x| x.condition == cond)
}

pub fn sight(e: &mut E, from: (i32, i32), to: (i32, i32)) -> (bool, Option<Position>) {
    use tabletop_engine::combat::spatial::Point;
    use tabletop_engine::combat::spatial::sight::{SightRequest, check_line_of_sight};
    let req = SightRequest {
        from: Point::square(Position::new(from.0, from.1)),
        to: Point::square(Position::new(to.0, to.1)),
        ..Default::default()
    };
    let out = e.read(|call| check_line_of_sight(call, &req)).unwrap();
    (out.line_of_sight, out.blocked_at)
}
