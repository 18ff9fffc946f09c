//! Movement through execute_action: the budget, terrain costs, standing up, dash, disengage and
//! the opportunity attacks the engine resolves, checked on the map and the sheets afterwards.

use super::combat_support;
use super::common;
use super::fidelity;

use combat_support::*;
use serde_json::json;
use tabletop_engine::combat::Side;
use tabletop_engine::combat::create::TerrainSpec;
use tabletop_grid::Position;
use tabletop_rules::{Condition, DamageType};

fn pos(e: &mut E, name: &str) -> Position {
    let id = sheet(e, name).id;
    encounter(e).position_of(&id).unwrap()
}

fn mv(
    e: &mut E,
    who: &str,
    x: i32,
    y: i32,
) -> Result<tabletop_engine::combat::actions::ActionOutcome, tabletop_engine::EngineError> {
    act(
        e,
        json!({"actor": {"name": who}, "actionType": "move", "to": {"x": x, "y": y}}),
    )
}

fn duel(seed: u64, orc_damage: &str) -> (tempfile::TempDir, E) {
    let (d, mut e) = open(seed, None);
    start(
        &mut e,
        vec![
            at(creature("Rogue", 200, 10, vec![]), Side::Party, 5, 5, 20),
            at(
                creature(
                    "Orc",
                    30,
                    13,
                    vec![melee("Greataxe", 5, orc_damage, DamageType::Slashing)],
                ),
                Side::Enemy,
                6,
                5,
                10,
            ),
        ],
        TerrainSpec::default(),
    );
    (d, e)
}

#[test]
fn leaving_reach_provokes_exactly_one_opportunity_attack() {
    let (_d, mut e) = duel(31, "1d12+3");
    let out = mv(&mut e, "Rogue", 3, 5).unwrap();
    let oas = out.details["opportunityAttacks"].as_array().unwrap();
    assert_eq!(oas.len(), 1, "{}", out.details);
    assert_eq!(oas[0]["attacker"], "Orc");
    assert_eq!(oas[0]["weapon"], "Greataxe");
    assert!(
        out.headline.contains("Opportunity attack by Orc"),
        "{}",
        out.headline
    );
    // Pinned (seed 31): the greataxe's d20 is 12, +5 = 17 against the rogue's AC 10, a hit; the
    // damage is the d12 face + 3, worked out here from the die, not read from the total.
    assert!(
        out.lines
            .iter()
            .any(|l| l == "Opportunity attack: Orc with Greataxe: d20 [12] + 5 = 17 vs AC 10 — hit"),
        "{:?}",
        out.lines
    );
    let d12 = oas[0]["damageRoll"]["terms"][0]["dice"][0]["value"]
        .as_u64()
        .expect("the d12 face");
    assert_eq!(d12, 6);
    assert_eq!(sheet(&mut e, "Rogue").hp, 200 - (d12 as u32 + 3));
    assert_eq!(pos(&mut e, "Rogue"), Position::new(3, 5));
    let orc = sheet(&mut e, "Orc").id;
    assert!(
        encounter(&mut e).combatant(&orc).unwrap().economy.reaction,
        "the reaction is spent"
    );
    assert_eq!(out.economy.as_ref().unwrap().movement_used_ft, 10);
    // Back into reach and out again: the orc has no reaction left.
    let out = mv(&mut e, "Rogue", 5, 4).unwrap();
    assert_eq!(
        out.details["opportunityAttacks"].as_array().unwrap().len(),
        0
    );
    let out = mv(&mut e, "Rogue", 4, 3).unwrap();
    assert_eq!(
        out.details["opportunityAttacks"].as_array().unwrap().len(),
        0
    );
}

#[test]
fn disengage_provokes_none_and_moving_within_reach_provokes_none() {
    let (_d, mut e) = duel(32, "1d12+3");
    // Circling the orc stays within its reach.
    let out = act(&mut e, json!({"actor": {"name": "Rogue"}, "actionType": "move", "path": [{"x": 5, "y": 4}, {"x": 6, "y": 4}, {"x": 7, "y": 4}]})).unwrap();
    assert_eq!(
        out.details["opportunityAttacks"].as_array().unwrap().len(),
        0
    );
    let out = act(
        &mut e,
        json!({"actor": {"name": "Rogue"}, "actionType": "disengage"}),
    )
    .unwrap();
    assert!(out.headline.contains("disengages"));
    let out = mv(&mut e, "Rogue", 10, 4).unwrap();
    assert_eq!(
        out.details["opportunityAttacks"].as_array().unwrap().len(),
        0
    );
    assert_eq!(sheet(&mut e, "Rogue").hp, 200);
    let orc = sheet(&mut e, "Orc").id;
    assert!(!encounter(&mut e).combatant(&orc).unwrap().economy.reaction);
    assert_eq!(pos(&mut e, "Rogue"), Position::new(10, 4));
}

#[test]
fn a_pc_dropped_by_an_opportunity_attack_stops_where_it_was_hit() {
    let (_d, mut e) = open(33, None);
    let mut req = common::fighter("Pip", [10, 14, 10, 10, 10, 10]);
    req.max_hp = Some(8);
    common::create(&mut e, req);
    start(
        &mut e,
        vec![
            character("Pip", Side::Party, 5, 5, 20),
            at(
                creature(
                    "Ogre",
                    60,
                    11,
                    vec![melee("Club", 30, "10", DamageType::Bludgeoning)],
                ),
                Side::Enemy,
                6,
                5,
                10,
            ),
        ],
        TerrainSpec::default(),
    );
    let out = mv(&mut e, "Pip", 1, 5).unwrap();
    assert!(
        out.headline.contains("stopped at (5, 5)"),
        "{}",
        out.headline
    );
    let pip = sheet(&mut e, "Pip");
    assert_eq!(pip.hp, 0);
    assert!(!pip.dead, "a PC falls unconscious");
    assert!(pip.has_condition(Condition::Unconscious));
    assert_eq!(pos(&mut e, "Pip"), Position::new(5, 5));
}

#[test]
fn budget_walls_difficult_terrain_and_dash() {
    let (_d, mut e) = open(34, None);
    start(
        &mut e,
        vec![
            at(creature("Runner", 20, 12, vec![]), Side::Party, 0, 0, 20),
            at(creature("Ogre", 60, 11, vec![]), Side::Enemy, 15, 15, 10),
        ],
        TerrainSpec {
            walls: vec![
                Position::new(1, 1),
                Position::new(1, 2),
                Position::new(1, 0),
            ],
            difficult: vec![Position::new(0, 2), Position::new(0, 3)],
            ..Default::default()
        },
    );
    // Through a wall, square by square: refused naming the square.
    let err = act(
        &mut e,
        json!({"actor": {"name": "Runner"}, "actionType": "move", "path": [{"x": 1, "y": 0}]}),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("(1, 0)") && err.contains("wall"), "{err}");
    // Off the map.
    let err = mv(&mut e, "Runner", 40, 0).unwrap_err().to_string();
    assert!(err.contains("off the map"), "{err}");
    // Two difficult squares cost 20 ft: (0,1) 5 + (0,2) 10 + (0,3) 10 = 25.
    let out = mv(&mut e, "Runner", 0, 3).unwrap();
    assert_eq!(out.details["costFt"].as_u64().unwrap(), 25);
    assert_eq!(out.details["leftFt"].as_u64().unwrap(), 5);
    let err = mv(&mut e, "Runner", 0, 6).unwrap_err().to_string();
    assert!(
        err.contains("costs 15 ft") && err.contains("5 ft of movement left"),
        "{err}"
    );
    // Bonus-action dash needs Cunning Action.
    let err = act(
        &mut e,
        json!({"actor": {"name": "Runner"}, "actionType": "dash", "actionCost": "bonus_action"}),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("Cunning Action"), "{err}");
    let out = act(
        &mut e,
        json!({"actor": {"name": "Runner"}, "actionType": "dash"}),
    )
    .unwrap();
    assert!(out.headline.contains("+30 ft"), "{}", out.headline);
    mv(&mut e, "Runner", 0, 6).unwrap();
    assert_eq!(pos(&mut e, "Runner"), Position::new(0, 6));
    assert_eq!(encounter(&mut e).order[0].economy.movement_used_ft, 40);
}

#[test]
fn standing_from_prone_costs_half_and_grappled_cannot_move() {
    let (_d, mut e) = open(35, None);
    start(
        &mut e,
        vec![
            at(creature("Faller", 20, 12, vec![]), Side::Party, 0, 0, 20),
            at(creature("Ogre", 60, 11, vec![]), Side::Enemy, 15, 15, 10),
        ],
        TerrainSpec::default(),
    );
    condition(&mut e, "Faller", Condition::Prone);
    let out = mv(&mut e, "Faller", 3, 0).unwrap();
    assert!(
        out.headline.starts_with("Faller stands up."),
        "{}",
        out.headline
    );
    assert!(!sheet(&mut e, "Faller").has_condition(Condition::Prone));
    assert_eq!(out.economy.as_ref().unwrap().movement_used_ft, 30);
    let err = mv(&mut e, "Faller", 4, 0).unwrap_err().to_string();
    assert!(err.contains("0 ft of movement left"), "{err}");

    let (_d, mut e) = open(36, None);
    start(
        &mut e,
        vec![
            at(creature("Held", 20, 12, vec![]), Side::Party, 0, 0, 20),
            at(creature("Ogre", 60, 11, vec![]), Side::Enemy, 15, 15, 10),
        ],
        TerrainSpec::default(),
    );
    condition(&mut e, "Held", Condition::Grappled);
    let err = mv(&mut e, "Held", 1, 0).unwrap_err().to_string();
    assert!(err.contains("speed 0") && err.contains("grappled"), "{err}");
    assert_eq!(pos(&mut e, "Held"), Position::new(0, 0));
}

#[test]
fn hostiles_block_allies_do_not() {
    let (_d, mut e) = open(37, None);
    start(
        &mut e,
        vec![
            at(creature("Mover", 20, 12, vec![]), Side::Party, 0, 1, 20),
            at(creature("Friend", 20, 12, vec![]), Side::Party, 1, 1, 15),
            at(creature("Foe", 60, 11, vec![]), Side::Enemy, 3, 1, 10),
        ],
        TerrainSpec {
            width: Some(6),
            height: Some(3),
            walls: (0..6)
                .flat_map(|x| [Position::new(x, 0), Position::new(x, 2)])
                .collect(),
            ..Default::default()
        },
    );
    // Through the friend (double cost), but not into its square.
    let err = mv(&mut e, "Mover", 1, 1).unwrap_err().to_string();
    assert!(
        err.contains("cannot end a move at (1, 1): the square is occupied by 'ch2'"),
        "{err}"
    );
    let out = mv(&mut e, "Mover", 2, 1).unwrap();
    assert_eq!(out.details["costFt"].as_u64().unwrap(), 15);
    // The foe holds the corridor.
    let err = mv(&mut e, "Mover", 4, 1).unwrap_err().to_string();
    assert!(err.contains("no path"), "{err}");
}

/// Issue 18: a frightened fighter can't move closer to the dragon that frightened it (force
/// overrides and says so); moving away is fine.
#[test]
fn a_frightened_creature_cannot_move_closer_to_its_fear() {
    let Some(mut t) = fidelity::Table::new(
        24,
        &[fidelity::FIGHTER],
        vec![("adult-red-dragon", "Dragon", vec![(8, 2)], 5)],
        (16, 16),
    ) else {
        return;
    };
    t.turn_of("Dragon");
    let f = t
        .act(json!({"actorName": "Dragon", "actionType": "use_special_ability", "abilityName": "Frightful Presence"}))
        .unwrap();
    assert_eq!(
        f.headline,
        "Dragon uses Frightful Presence: Rook fail, no one succeed."
    );
    assert_eq!(t.conditions("Rook"), vec!["Frightened"]);
    t.turn_of("Rook");
    assert_eq!(
        t.refused(json!({"actorName": "Rook", "actionType": "move", "to": {"x": 4, "y": 2}})),
        "Rook is frightened of Dragon (Frightful Presence (Dragon)) and can't willingly move closer to it: (3, 1) is 25 ft from it, nearer than the 30 ft it starts at (pass force: true to override as the game master)"
    );
    let o = t
        .act(json!({"actorName": "Rook", "actionType": "move", "to": {"x": 1, "y": 2}}))
        .unwrap();
    assert_eq!(
        o.headline,
        "Rook moves 5 ft to (1, 2) (25 ft of movement left)."
    );
    let o = t
        .act(json!({"actorName": "Rook", "actionType": "move", "to": {"x": 3, "y": 2}, "force": true}))
        .unwrap();
    assert_eq!(
        o.headline,
        "Rook moves 10 ft to (3, 2) (15 ft of movement left)."
    );
    assert_eq!(
        o.forced,
        vec![
            "Rook is frightened of Dragon (Frightful Presence (Dragon)) and can't willingly move closer to it: (2, 1) is 30 ft from it, nearer than the 35 ft it starts at"
        ]
    );
}

/// Issue 18: a grappler drags its target at half speed, the target ends beside it (still
/// grappled), and it takes no opportunity attack on the grappler it moves with.
#[test]
fn a_grappler_drags_its_target_at_half_speed() {
    let Some(mut t) = fidelity::Table::new(
        1,
        &[fidelity::FIGHTER],
        vec![("goblin", "Goblin", vec![(3, 2)], 5)],
        (16, 16),
    ) else {
        return;
    };
    t.turn_of("Rook");
    let g = t
        .act(json!({"actorName": "Rook", "actionType": "grapple", "targetName": "Goblin"}))
        .unwrap();
    assert_eq!(
        g.headline,
        "Rook grapples Goblin: Goblin is grappled (speed 0)."
    );
    let o = t
        .act(json!({"actorName": "Rook", "actionType": "move", "to": {"x": 0, "y": 2}}))
        .unwrap();
    assert_eq!(
        o.headline,
        "Rook moves 20 ft to (0, 2) (10 ft of movement left)."
    );
    assert_eq!(
        o.lines,
        vec![
            "Rook drags Goblin (grappled): every foot of movement costs 2 (half speed).",
            "Goblin is dragged along to (1, 3).",
        ]
    );
    let gid = t.ids["Goblin"].clone();
    assert_eq!(t.enc().position_of(&gid), Some(Position::new(1, 3)));
    assert_eq!(t.conditions("Goblin"), vec!["Grappled"]);
    assert_eq!(t.sheet("Rook").hp, 44);
}

/// Issue 18: in darkness a fighter without darkvision does not see the goblin leave its reach:
/// no opportunity attack; in bright light the same move draws one.
#[test]
fn no_opportunity_attack_on_a_creature_the_watcher_cannot_see() {
    for (light, oa) in [
        (tabletop_grid::Light::Darkness, false),
        (tabletop_grid::Light::Bright, true),
    ] {
        let Some(mut t) = fidelity::Table::new_on(
            6,
            &[fidelity::FIGHTER],
            vec![("goblin", "Goblin", vec![(3, 2)], 5)],
            TerrainSpec {
                width: Some(16),
                height: Some(16),
                lighting: Some(light),
                ..Default::default()
            },
        ) else {
            return;
        };
        t.arm("Rook", "Longsword");
        t.turn_of("Goblin");
        let o = t
            .act(json!({"actorName": "Goblin", "actionType": "move", "to": {"x": 6, "y": 2}}))
            .unwrap();
        let expected = if oa {
            "Goblin is stopped at (3, 2) after 0 ft: it drops to 0 HP. Opportunity attack by Rook: Hit! Goblin takes 8 slashing (7 → 0 HP) and dies."
        } else {
            "Goblin moves 15 ft to (6, 2) (15 ft of movement left)."
        };
        assert_eq!(o.headline, expected);
        assert_eq!(o.lines.is_empty(), !oa, "{:?}", o.lines);
    }
}

/// Issue 18: a Large ogre squeezes through a 5-ft gap in a wall (each foot costs 1 extra foot);
/// squeezed, its attacks have disadvantage and attacks against it advantage; once through it
/// fights normally; a Huge hill giant cannot squeeze through a space two sizes smaller.
#[test]
fn a_large_ogre_squeezes_through_a_5_ft_gap_and_a_huge_giant_cannot() {
    // A wall down column 8 with one gap at (8, 5).
    let walls: Vec<Position> = (0..12)
        .filter(|&y| y != 5)
        .map(|y| Position::new(8, y))
        .collect();
    let terrain = || TerrainSpec {
        width: Some(16),
        height: Some(12),
        walls: walls.clone(),
        ..Default::default()
    };
    let Some(mut t) = fidelity::Table::new_on(
        3,
        &[fidelity::FIGHTER],
        vec![("ogre", "Ogre", vec![(5, 4)], 5)],
        terrain(),
    ) else {
        return;
    };
    t.arm("Rook", "Longsword");
    let rook = t.ids["Rook"].clone();
    t.edit_enc(|enc| {
        enc.map.move_creature(&rook, Position::new(10, 5)).unwrap();
    });
    t.turn_of("Ogre");
    // Into the gap: 5 ft to (6, 4), then two squeezed steps of 10 ft.
    let o = t
        .act(json!({"actorName": "Ogre", "actionType": "move", "to": {"x": 8, "y": 5}}))
        .unwrap();
    assert_eq!(
        o.headline,
        "Ogre moves 25 ft to (8, 5) (15 ft of movement left)."
    );
    let ogre = t.ids["Ogre"].clone();
    assert!(t.enc().map.is_squeezing(&ogre));
    // Squeezed: its greatclub at disadvantage, the fighter's longsword at advantage.
    let o = t
        .act(json!({"actorName": "Ogre", "actionType": "attack", "targetName": "Rook", "weapon": "Greatclub"}))
        .unwrap();
    assert_eq!(
        o.lines[0],
        "Ogre attack with Greatclub: d20 [~~19~~, 1] (disadvantage: Ogre squeezing into a smaller space) + 6 = 7 vs AC 12 — miss (natural 1)"
    );
    t.turn_of("Rook");
    let o = t
        .act(json!({"actorName": "Rook", "actionType": "attack", "targetName": "Ogre", "weapon": "Longsword"}))
        .unwrap();
    assert_eq!(
        o.lines[0],
        "Rook attack with Longsword: d20 [8, ~~7~~] (advantage: Ogre squeezing into a smaller space) + 6 = 14 vs AC 11 — hit"
    );
    // Out of the gap: its next space is clear of the wall, so 5 + 5 ft at the normal cost.
    t.turn_of("Ogre");
    t.edit_enc(|enc| {
        enc.map.move_creature(&rook, Position::new(13, 9)).unwrap();
    });
    let o = t
        .act(json!({"actorName": "Ogre", "actionType": "move", "to": {"x": 10, "y": 4}}))
        .unwrap();
    assert_eq!(
        o.headline,
        "Ogre moves 10 ft to (10, 4) (30 ft of movement left)."
    );
    assert!(!t.enc().map.is_squeezing(&ogre));

    // A Huge hill giant (3×3) would need a 10-ft gap: no route.
    let Some(mut g) = fidelity::Table::new_on(
        3,
        &[fidelity::FIGHTER],
        vec![("hill-giant", "Giant", vec![(4, 4)], 5)],
        terrain(),
    ) else {
        return;
    };
    g.turn_of("Giant");
    let err =
        g.refused(json!({"actorName": "Giant", "actionType": "move", "to": {"x": 10, "y": 4}}));
    assert!(err.contains("no path for Giant"), "{err}");
}

/// Halfling Nimbleness: an SRD halfling rogue walks through a hostile orc's square (one size
/// larger) in a 5-ft corridor, paying double for it and not stopping there; a human rogue is
/// refused the same path.
#[test]
fn a_halfling_moves_through_a_larger_hostile_and_a_human_cannot() {
    let Some(srd) = common::srd("halfling_nimbleness") else {
        return;
    };
    for (race, through) in [("halfling", true), ("human", false)] {
        let (_d, mut e) = open(8, Some(srd.clone()));
        let req = tabletop_engine::creation::CreateRequest {
            name: "Pip".into(),
            class: Some("rogue".into()),
            race: Some(race.into()),
            level: Some(3),
            ..Default::default()
        };
        e.write("create_character", &json!({}), |call| {
            tabletop_engine::creation::create_character(call, req)
        })
        .unwrap();
        // A corridor along y = 5: walls at y = 4 and y = 6.
        let walls: Vec<Position> = (0..12)
            .flat_map(|x| [Position::new(x, 4), Position::new(x, 6)])
            .collect();
        start(
            &mut e,
            vec![
                character("Pip", Side::Party, 2, 5, 20),
                tabletop_engine::combat::create::ParticipantSpec {
                    source: tabletop_engine::combat::create::ParticipantSource::Monster {
                        monster: "orc".into(),
                        count: 1,
                        name: Some("Orc".into()),
                    },
                    side: None,
                    positions: vec![Position::new(4, 5)],
                    surprised: false,
                    initiative: Some(5),
                },
            ],
            TerrainSpec {
                width: Some(12),
                height: Some(10),
                walls,
                ..Default::default()
            },
        );
        let r = mv(&mut e, "Pip", 6, 5);
        if through {
            // 5 ft to (3, 5), 10 ft through the orc's square, 5 + 5 ft on: all 25 ft, and the
            // orc's opportunity attack as Pip leaves its reach (pinned dice).
            let o = r.unwrap();
            assert_eq!(
                o.headline,
                "Pip moves 25 ft to (6, 5) (0 ft of movement left). Opportunity attack by Orc: Hit! Pip takes 8 slashing (18 → 10 HP)."
            );
            assert_eq!(pos(&mut e, "Pip"), Position::new(6, 5));
            // It may not stop in the orc's square.
            let err = mv(&mut e, "Pip", 4, 5).unwrap_err().to_string();
            assert!(err.contains("Pip cannot move to (4, 5)"), "{err}");
        } else {
            let err = r.unwrap_err().to_string();
            assert!(err.contains("no path for Pip"), "{err}");
        }
    }
}

/// Naturally Stealthy: a lightfoot halfling may hide from an orc when only a Medium ally stands
/// between them; a human rogue in the same spot is refused (the orc sees it clearly).
#[test]
fn a_lightfoot_halfling_hides_behind_a_larger_creature_and_a_human_cannot() {
    let Some(srd) = common::srd("naturally_stealthy") else {
        return;
    };
    for (race, subrace, hides) in [
        ("halfling", Some("Lightfoot Halfling"), true),
        ("human", None, false),
    ] {
        let (_d, mut e) = open(8, Some(srd.clone()));
        let req = tabletop_engine::creation::CreateRequest {
            name: "Pip".into(),
            class: Some("rogue".into()),
            race: Some(race.into()),
            subrace: subrace.map(Into::into),
            level: Some(3),
            ..Default::default()
        };
        e.write("create_character", &json!({}), |call| {
            tabletop_engine::creation::create_character(call, req)
        })
        .unwrap();
        start(
            &mut e,
            vec![
                character("Pip", Side::Party, 2, 5, 20),
                at(creature("Brute", 30, 12, vec![]), Side::Party, 5, 5, 10),
                tabletop_engine::combat::create::ParticipantSpec {
                    source: tabletop_engine::combat::create::ParticipantSource::Monster {
                        monster: "orc".into(),
                        count: 1,
                        name: Some("Orc".into()),
                    },
                    side: None,
                    positions: vec![Position::new(8, 5)],
                    surprised: false,
                    initiative: Some(5),
                },
            ],
            TerrainSpec {
                width: Some(12),
                height: Some(10),
                ..Default::default()
            },
        );
        let r = act(
            &mut e,
            json!({"actor": {"name": "Pip"}, "actionType": "hide"}),
        );
        if hides {
            let o = r.unwrap();
            assert_eq!(
                o.lines,
                vec![
                    "Pip Stealth (hide): d20 [13] + 3 = 16",
                    "Orc: cannot see Pip clearly (Naturally Stealthy (lightfoot halfling): obscured by a larger creature)",
                ],
                "{}",
                o.headline
            );
            assert_eq!(
                o.headline,
                "Pip hides (Stealth 16), hidden from Orc (passive 10)."
            );
        } else {
            let err = r.unwrap_err().to_string();
            assert!(
                err.contains("Pip cannot hide while Orc can see it clearly"),
                "{err}"
            );
        }
    }
}
