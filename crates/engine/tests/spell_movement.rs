//! Spells that move creatures or grant ways of moving, through the real tools with the SRD
//! configured (skipped without TABLETOP_SRD_DIR) and seeded dice: Misty Step and Dimension Door
//! move tokens on the map (range, sight, an unoccupied destination, a passenger, the damage of an
//! occupied destination); Fly lets the move cross difficult terrain at its fly speed; Water
//! Walk walks on water; Spider Climb gives a climb speed; Expeditious Retreat allows Dash as a
//! bonus action.

use super::common;
use super::spell_support;

use spell_support::*;
use tabletop_engine::combat::actions::{ActionRequest, ActionType};
use tabletop_engine::combat::create::TerrainSpec;
use tabletop_engine::model::encounter::ActionCost;
use tabletop_grid::Position;

fn p(x: i32, y: i32) -> Position {
    Position::new(x, y)
}

fn mv(
    e: &mut E,
    id: &str,
    to: Position,
) -> Result<tabletop_engine::combat::actions::ActionOutcome, tabletop_engine::EngineError> {
    act(
        e,
        ActionRequest {
            actor: who(id),
            action_type: Some(ActionType::Move),
            to: Some(to),
            ..Default::default()
        },
    )
}

#[test]
fn misty_step_moves_the_caster_to_a_seen_unoccupied_square_within_30_ft() {
    let Some(srd) = common::srd("misty_step") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let aria = caster(&mut e, "Aria", "wizard", 5, &["Misty Step"]);
    let order = fight_on(
        &mut e,
        vec![pc(&aria, 0, 0, 20), monster("goblin", 1, &[(4, 4)])],
        TerrainSpec {
            walls: vec![p(3, 0)],
            ..Default::default()
        },
    );
    let goblin = id_of(&order, "Goblin");
    let step = |e: &mut E, to: Position| {
        cast(e, &aria, "Misty Step", |r| {
            r.action_cost = Some(ActionCost::BonusAction);
            r.to = Some(to);
        })
    };
    let err = step(&mut e, p(6, 0)).unwrap_err().to_string();
    assert_eq!(
        err,
        "Aria cannot see (6, 0); Misty Step needs an unoccupied space the caster can see"
    );
    let err = step(&mut e, p(7, 7)).unwrap_err().to_string();
    assert_eq!(err, "(7, 7) is 35 ft from Aria; Misty Step reaches 30 ft");
    let err = step(&mut e, p(4, 4)).unwrap_err().to_string();
    assert!(
        err.starts_with("(4, 4) is not an unoccupied space for Aria"),
        "{err}"
    );
    // The refusals spent nothing: the slot is spent once, by the casting that works.
    let out = step(&mut e, p(5, 5)).unwrap();
    assert_eq!(out.headline, "Aria casts Misty Step and appears at (5, 5).");
    assert_eq!(out.lines[0], "Aria teleports 25 ft from (0, 0) to (5, 5)");
    assert_eq!(position(&mut e, &aria), Some(p(5, 5)));
    assert_eq!(position(&mut e, &goblin), Some(p(4, 4)));
    assert_eq!(
        sheet(&mut e, &aria).spell_slots.summary(),
        "1st 4/4, 2nd 2/3, 3rd 2/2"
    );
    // Cast outside an encounter it says it is not automated there.
    let dir2 = tempfile::tempdir().unwrap();
    let mut e2 = engine(&dir2, &srd, 7);
    let bo = caster(&mut e2, "Bo", "wizard", 5, &["Misty Step"]);
    let out = cast(&mut e2, &bo, "Misty Step", |_| {}).unwrap();
    assert_eq!(
        out.headline,
        "Misty Step (2nd level): no automation outside an encounter for Misty Step: it moves the caster to a chosen square on the encounter map; cast it in an encounter (outside one the DM places the creatures)."
    );
}

#[test]
fn dimension_door_takes_a_passenger_and_an_occupied_destination_deals_4d6_force() {
    let Some(srd) = common::srd("dimension_door") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 11);
    let aria = caster(&mut e, "Aria", "wizard", 9, &["Dimension Door"]);
    let bran = caster(&mut e, "Bran", "fighter", 5, &[]);
    let order = fight(
        &mut e,
        vec![
            pc(&aria, 0, 0, 20),
            pc(&bran, 1, 0, 15),
            monster("goblin", 1, &[(15, 5)]),
        ],
    );
    let goblin = id_of(&order, "Goblin");
    let err = cast(&mut e, &aria, "Dimension Door", |r| {
        r.to = Some(p(10, 0));
        r.targets = vec![who(&bran), who(&goblin)];
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "targets: Dimension Door brings at most 1 willing creature(s) along"
    );
    let out = cast(&mut e, &aria, "Dimension Door", |r| {
        r.to = Some(p(10, 0));
        r.target = who(&bran);
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Aria casts Dimension Door and appears at (10, 0) with Bran."
    );
    assert_eq!(position(&mut e, &aria), Some(p(10, 0)));
    assert_eq!(position(&mut e, &bran), Some(p(11, 0)));
    // Next round, into the goblin's square: the door fails and both take 4d6 force.
    advance(&mut e);
    advance(&mut e);
    advance(&mut e);
    let (a0, b0) = (sheet(&mut e, &aria).hp, sheet(&mut e, &bran).hp);
    let out = cast(&mut e, &aria, "Dimension Door", |r| {
        r.to = Some(p(15, 5));
        r.target = who(&bran);
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Aria casts Dimension Door, but the destination is occupied."
    );
    let (a1, b1) = (sheet(&mut e, &aria).hp, sheet(&mut e, &bran).hp);
    assert_eq!((a0, b0, a1, b1), (56, 44, 49, 28), "{:?}", out.lines);
    assert_eq!(
        out.lines[..2],
        [
            "(15, 5) is occupied: Dimension Door fails and the travellers are not moved",
            "Aria takes 7 force (4d6: [3, 2, 1, 1] = 7)"
        ]
    );
    assert_eq!(position(&mut e, &aria), Some(p(10, 0)));
}

#[test]
fn fly_crosses_difficult_terrain_at_60_ft_and_water_walk_walks_on_water() {
    let Some(srd) = common::srd("fly_water_walk") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 5);
    let aria = caster(&mut e, "Aria", "wizard", 5, &["Fly", "Spider Climb"]);
    let dara = caster(&mut e, "Dara", "druid", 5, &["Water Walk"]);
    fight_on(
        &mut e,
        vec![
            pc(&aria, 0, 0, 20),
            pc(&dara, 0, 4, 15),
            monster("goblin", 1, &[(19, 19)]),
        ],
        TerrainSpec {
            // Bands across the whole map: no way around.
            difficult: (1..=6).flat_map(|x| (0..3).map(move |y| p(x, y))).collect(),
            water: (1..=4)
                .flat_map(|x| (3..20).map(move |y| p(x, y)))
                .collect(),
            ..Default::default()
        },
    );
    let err = mv(&mut e, &aria, p(6, 0)).unwrap_err().to_string();
    assert!(err.contains("costs 60 ft"), "{err}");
    let out = cast(&mut e, &aria, "Fly", |r| r.target = who(&aria)).unwrap();
    assert_eq!(
        out.headline,
        "Fly (3rd level): Aria gains Fly (fly speed 60 ft)."
    );
    let s = e
        .read(|call| {
            tabletop_engine::sheet::get_character(
                call,
                tabletop_engine::character::CharacterRef::new(Some(&aria), None),
            )
        })
        .unwrap();
    assert_eq!(s.speeds.get("fly"), Some(&60));
    let out = mv(&mut e, &aria, p(6, 0)).unwrap();
    assert_eq!(out.details["costFt"], 30, "{}", out.details);
    assert_eq!(out.details["budgetFt"], 60, "{}", out.details);
    assert!(
        out.lines
            .iter()
            .any(|l| l
                == "Aria flies (fly speed 60 ft): difficult terrain and water cost nothing extra"),
        "{:?}",
        out.lines
    );
    advance(&mut e);
    // Water costs double on foot; Water Walk makes it ground.
    let err = mv(&mut e, &dara, p(4, 4)).unwrap_err().to_string();
    assert!(err.contains("costs 40 ft"), "{err}");
    let out = cast(&mut e, &dara, "Water Walk", |r| r.target = who(&dara)).unwrap();
    assert_eq!(
        out.headline,
        "Water Walk (3rd level): Dara gains Water Walk (walks on water and other liquids as on solid ground)."
    );
    let out = mv(&mut e, &dara, p(4, 4)).unwrap();
    assert_eq!(out.details["costFt"], 20, "{}", out.details);
}

#[test]
fn spider_climb_gives_a_climb_speed_and_expeditious_retreat_a_bonus_action_dash() {
    let Some(srd) = common::srd("spider_climb") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 5);
    let aria = caster(
        &mut e,
        "Aria",
        "wizard",
        5,
        &["Spider Climb", "Expeditious Retreat"],
    );
    fight(
        &mut e,
        vec![pc(&aria, 0, 0, 20), monster("goblin", 1, &[(19, 19)])],
    );
    let dash = |e: &mut E| {
        act(
            e,
            ActionRequest {
                actor: who(&aria),
                action_type: Some(ActionType::Dash),
                action_cost: Some(ActionCost::BonusAction),
                ..Default::default()
            },
        )
    };
    assert!(dash(&mut e).is_err());
    let out = cast(&mut e, &aria, "Spider Climb", |r| r.target = who(&aria)).unwrap();
    assert_eq!(
        out.headline,
        "Spider Climb (2nd level): Aria gains Spider Climb (climb speed 30 ft)."
    );
    let req = tabletop_engine::combat::spatial::movement::MovementRequest {
        mover: who(&aria),
        mode: tabletop_engine::combat::spatial::movement::MoveMode::Reach,
        locomotion: tabletop_engine::combat::spatial::movement::Locomotion::Climb,
        ..Default::default()
    };
    let m = e
        .read(|call| tabletop_engine::combat::spatial::movement::calculate_movement(call, &req))
        .unwrap();
    assert_eq!(m.budget_ft, Some(30));
    advance(&mut e);
    advance(&mut e);
    let out = cast(&mut e, &aria, "Expeditious Retreat", |r| {
        r.action_cost = Some(ActionCost::BonusAction)
    })
    .unwrap();
    assert!(
        out.lines
            .iter()
            .any(|l| l == "Aria's concentration on Spider Climb ends (a new concentration spell, Expeditious Retreat, ends the old); removed: Spider Climb on Aria"),
        "{:?}",
        out.lines
    );
    advance(&mut e);
    advance(&mut e);
    let out = dash(&mut e).unwrap();
    assert!(out.forced.is_empty(), "{:?}", out.forced);
    assert_eq!(out.economy.as_ref().map(|x| x.bonus_action), Some(true));
}

#[test]
fn freedom_of_movement_crosses_difficult_terrain_at_normal_cost() {
    let Some(srd) = common::srd("freedom_of_movement") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 5);
    let dara = caster(&mut e, "Dara", "druid", 7, &["Freedom of Movement"]);
    fight_on(
        &mut e,
        vec![pc(&dara, 0, 0, 20), monster("goblin", 1, &[(19, 19)])],
        TerrainSpec {
            difficult: (1..=6)
                .flat_map(|x| (0..20).map(move |y| p(x, y)))
                .collect(),
            ..Default::default()
        },
    );
    let err = mv(&mut e, &dara, p(6, 0)).unwrap_err().to_string();
    assert!(err.contains("costs 60 ft"), "{err}");
    let out = cast(&mut e, &dara, "Freedom of Movement", |r| {
        r.target = who(&dara)
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Freedom of Movement (4th level): Dara gains Freedom of Movement (immune to paralyzed, immune to restrained, difficult terrain costs it no extra movement)."
    );
    let out = mv(&mut e, &dara, p(6, 0)).unwrap();
    assert_eq!(out.details["costFt"], 30, "{}", out.details);
}
