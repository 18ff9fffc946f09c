//! Terrain and walls on the grid, through the real tools with the SRD configured (skipped
//! without TABLETOP_SRD_DIR): Web, Grease, Entangle, Spike Growth, Plant Growth, Sleet Storm,
//! Fog Cloud, Darkness, Stinking Cloud, Wall of Stone and Wall of Force cast by SRD-built
//! casters with execute_action; the squares' terrain, line of sight, movement and conditions
//! checked exactly with seeded dice, and gone when the spell ends.

mod common;

use std::sync::Arc;

use tabletop_engine::character::Character;
use tabletop_engine::combat::actions::{ActionOutcome, ActionRequest, ActionType, Who, execute};
use tabletop_engine::combat::create::{
    CreateEncounter, ParticipantSource, ParticipantSpec, create_encounter,
};
use tabletop_engine::combat::turn::{AdvanceRequest, TurnReport, advance_turn};
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{AbilityMethod, CreateMode, CreateRequest, create_character};
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_grid::{Position, Terrain};
use tabletop_rules::{Ability, Condition};
use tabletop_srd::Compendium;

type E = Engine<SqliteStore>;

fn engine(dir: &tempfile::TempDir, srd: &Arc<Compendium>, seed: u64) -> E {
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
fn caster(e: &mut E, name: &str, class: &str, level: u32, spells: &[&str]) -> String {
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

fn sheet(e: &mut E, id: &str) -> Character {
    let id = id.to_string();
    e.read(|call| tabletop_engine::combat::sheet(call, &id))
        .unwrap()
}

fn pc(id: &str, x: i32, y: i32, init: i32) -> ParticipantSpec {
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

fn monster(m: &str, at: &[(i32, i32)]) -> ParticipantSpec {
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

fn fight(e: &mut E, parts: Vec<ParticipantSpec>) -> Vec<(String, String)> {
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

fn id_of(order: &[(String, String)], name: &str) -> String {
    order
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, id)| id.clone())
        .unwrap_or_else(|| panic!("{name} not in {order:?}"))
}

fn who(id: &str) -> Who {
    Who {
        id: Some(id.into()),
        name: None,
    }
}

fn cast(
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

fn step(e: &mut E, actor: &str, to: (i32, i32)) -> Result<ActionOutcome, EngineError> {
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

fn advance(e: &mut E) -> TurnReport {
    e.write("advance_turn", &serde_json::json!({}), |call| {
        advance_turn(call, &AdvanceRequest::default())
    })
    .unwrap()
}

fn encounter(e: &mut E) -> tabletop_engine::combat::Encounter {
    e.read(|call| tabletop_engine::combat::load(call, None))
        .unwrap()
}

fn terrain(e: &mut E, x: i32, y: i32) -> Terrain {
    encounter(e)
        .map
        .terrain(Position::new(x, y))
        .unwrap()
        .clone()
}

fn break_concentration(e: &mut E, id: &str) {
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

fn has(c: &Character, cond: Condition) -> bool {
    c.conditions.iter().any(|x| x.condition == cond)
}

fn sight(e: &mut E, from: (i32, i32), to: (i32, i32)) -> (bool, Option<Position>) {
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

fn show(tag: &str, o: &ActionOutcome) {
    println!("== {tag}: {}\n{:#?}", o.headline, o.lines);
}

fn show_turn(tag: &str, t: &TurnReport) {
    println!(
        "== {tag}: end {:#?}\nstart {:#?}",
        t.end_of_turn, t.start_of_turn
    );
}

#[test]
fn explore_web() {
    let Some(srd) = common::srd("terrain_web") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let wiz = caster(&mut e, "Mira", "wizard", 3, &["Web", "Grease"]);
    let order = fight(
        &mut e,
        vec![
            pc(&wiz, 0, 0, 25),
            monster("goblin", &[(6, 1), (7, 2), (12, 12)]),
        ],
    );
    let g1 = id_of(&order, "Goblin 1");
    let g2 = id_of(&order, "Goblin 2");
    let g3 = id_of(&order, "Goblin 3");
    let out = cast(&mut e, &wiz, "Web", |r| {
        r.to = Some(Position::new(5, 0));
        r.direction = Some("se".into());
    })
    .unwrap();
    show("cast", &out);
    for g in [&g1, &g2] {
        let s = sheet(&mut e, g);
        println!("{} restrained {}", s.name, has(&s, Condition::Restrained));
    }
    println!(
        "terrain {:?} {:?} {:?}",
        terrain(&mut e, 5, 0),
        terrain(&mut e, 8, 3),
        terrain(&mut e, 9, 4)
    );
    let t = advance(&mut e);
    show_turn("adv g1", &t);
    let t = advance(&mut e);
    show_turn("adv g2", &t);
    let t = advance(&mut e);
    show_turn("adv g3", &t);
    match step(&mut e, &g3, (8, 8)) {
        Ok(o) => show("g3 move", &o),
        Err(x) => println!("g3 err {x}"),
    }
    match step(&mut e, &g3, (8, 5)) {
        Ok(o) => show("g3 move2", &o),
        Err(x) => println!("g3 err {x}"),
    }
    let s = sheet(&mut e, &g3);
    println!("g3 restrained {}", has(&s, Condition::Restrained));
    break_concentration(&mut e, &wiz);
    println!("terrain after break {:?}", terrain(&mut e, 5, 0));
    let t = advance(&mut e);
    show_turn("adv wiz", &t);
    for g in [&g1, &g2, &g3] {
        let s = sheet(&mut e, g);
        println!("{} restrained {}", s.name, has(&s, Condition::Restrained));
    }
}

#[test]
fn explore_grease_and_spike() {
    let Some(srd) = common::srd("terrain_grease") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let wiz = caster(&mut e, "Mira", "wizard", 3, &["Grease"]);
    let druid = caster(&mut e, "Ivy", "druid", 3, &["Spike Growth"]);
    let order = fight(
        &mut e,
        vec![
            pc(&wiz, 0, 0, 25),
            pc(&druid, 0, 1, 24),
            monster("goblin", &[(5, 5), (15, 15)]),
        ],
    );
    let g1 = id_of(&order, "Goblin 1");
    let g2 = id_of(&order, "Goblin 2");
    let out = cast(&mut e, &wiz, "Grease", |r| {
        r.to = Some(Position::new(5, 5));
        r.direction = Some("se".into());
    })
    .unwrap();
    show("grease", &out);
    let s = sheet(&mut e, &g1);
    println!("g1 prone {}", has(&s, Condition::Prone));
    let t = advance(&mut e);
    show_turn("adv druid", &t);
    let out = cast(&mut e, &druid, "Spike Growth", |r| {
        r.to = Some(Position::new(15, 10))
    })
    .unwrap();
    show("spikes", &out);
    println!("terrain {:?}", terrain(&mut e, 15, 12));
    let t = advance(&mut e);
    show_turn("adv g1", &t);
    let t = advance(&mut e);
    show_turn("adv g2", &t);
    println!("g2 hp {}", sheet(&mut e, &g2).hp);
    match step(&mut e, &g2, (15, 13)) {
        Ok(o) => {
            show("g2 move", &o);
            println!("{}", o.details)
        }
        Err(x) => println!("g2 err {x}"),
    }
    println!("g2 hp {}", sheet(&mut e, &g2).hp);
    let t = advance(&mut e);
    show_turn("adv wiz", &t);
}

#[test]
fn explore_fog_darkness_stinking() {
    let Some(srd) = common::srd("terrain_fog") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let wiz = caster(
        &mut e,
        "Mira",
        "wizard",
        5,
        &["Fog Cloud", "Darkness", "Stinking Cloud"],
    );
    let order = fight(
        &mut e,
        vec![pc(&wiz, 0, 10, 25), monster("goblin", &[(12, 10)])],
    );
    let g = id_of(&order, "Goblin");
    println!("los {:?}", sight(&mut e, (0, 10), (19, 10)));
    show(
        "fog",
        &cast(&mut e, &wiz, "Fog Cloud", |r| {
            r.to = Some(Position::new(6, 10))
        })
        .unwrap(),
    );
    println!("los {:?}", sight(&mut e, (0, 10), (19, 10)));
    show(
        "dark",
        &cast(&mut e, &wiz, "Darkness", |r| {
            r.to = Some(Position::new(6, 10))
        })
        .unwrap(),
    );
    println!(
        "los after darkness (fog ended) {:?}",
        sight(&mut e, (0, 10), (19, 10))
    );
    show(
        "stinking",
        &cast(&mut e, &wiz, "Stinking Cloud", |r| {
            r.to = Some(Position::new(12, 10))
        })
        .unwrap(),
    );
    println!("los {:?}", sight(&mut e, (0, 10), (19, 10)));
    let t = advance(&mut e);
    show_turn("adv g", &t);
    let s = sheet(&mut e, &g);
    println!("g incap {}", has(&s, Condition::Incapacitated));
}

#[test]
fn explore_walls() {
    let Some(srd) = common::srd("terrain_walls") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let wiz = caster(
        &mut e,
        "Mira",
        "wizard",
        9,
        &["Wall of Stone", "Wall of Force"],
    );
    let order = fight(
        &mut e,
        vec![pc(&wiz, 0, 5, 25), monster("goblin", &[(9, 5)])],
    );
    let g = id_of(&order, "Goblin");
    let out = cast(&mut e, &wiz, "Wall of Stone", |r| {
        r.to = Some(Position::new(5, 0));
        r.direction = Some("s".into());
    })
    .unwrap();
    show("stone", &out);
    println!(
        "terrain {:?} {:?}",
        terrain(&mut e, 5, 5),
        terrain(&mut e, 5, 19)
    );
    println!("los {:?}", sight(&mut e, (0, 5), (9, 5)));
    let t = advance(&mut e);
    show_turn("adv g", &t);
    match step(&mut e, &g, (3, 5)) {
        Ok(o) => show("g move", &o),
        Err(x) => println!("g err {x}"),
    }
    let t = advance(&mut e);
    show_turn("adv wiz", &t);
    let out = cast(&mut e, &wiz, "Wall of Force", |r| {
        r.to = Some(Position::new(7, 0));
        r.direction = Some("s".into());
    })
    .unwrap();
    show("force", &out);
    println!("terrain after stone ended {:?}", terrain(&mut e, 5, 5));
    println!("los {:?}", sight(&mut e, (0, 5), (9, 5)));
    let t = advance(&mut e);
    show_turn("adv g", &t);
    match step(&mut e, &g, (3, 5)) {
        Ok(o) => show("g move", &o),
        Err(x) => println!("g err {x}"),
    }
}
