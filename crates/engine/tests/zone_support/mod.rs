//! Helpers shared by the zone and terrain spell tests (`spell_zones`, `spell_terrain`): an engine on
//! a fresh SQLite file with the SRD loaded and a seeded dice stream, SRD-built casters, an
//! encounter on a map, casting and moving through `execute_action`, turns, sheets and sight.

#![allow(dead_code)]

// The set-up both spell test families share (an engine over the SRD, SRD-built casters, sheets,
// turns) is `spell_support`'s; this module adds zones, terrain and sight.
pub use super::spell_support::{E, advance, caster, engine, id_of, pc, sheet, who};

pub use tabletop_engine::EngineError;
pub use tabletop_engine::character::Character;
pub use tabletop_engine::combat::actions::{
    ActionOutcome, ActionRequest, ActionType, Who, execute,
};
pub use tabletop_engine::combat::create::{
    CreateEncounter, ParticipantSource, ParticipantSpec, create_encounter,
};
pub use tabletop_grid::{Position, Terrain};
pub use tabletop_rules::Condition;

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
