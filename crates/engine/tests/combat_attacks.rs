//! Attacks through execute_action: every rule is checked on the rolls the engine recorded and on
//! the sheets afterwards, so a rule that were only displayed would fail here.

use super::combat_support;
use super::common;
use super::fidelity;

use combat_support::*;
use serde_json::{Value, json};
use tabletop_engine::combat::Side;
use tabletop_engine::combat::create::TerrainSpec;
use tabletop_grid::Position;
use tabletop_rules::{Condition, DamageType};

fn first_attack(out: &tabletop_engine::combat::actions::ActionOutcome) -> Value {
    out.details["attacks"][0].clone()
}

fn rolls(a: &Value) -> Vec<u64> {
    a["roll"]["rolls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|s| s.as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn attack(e: &mut E, actor: &str, target: &str) -> Value {
    let out = act(
        e,
        json!({"actor": {"name": actor}, "actionType": "attack", "target": {"name": target}}),
    )
    .unwrap();
    first_attack(&out)
}

/// HP lost by the target equals the damage the engine says it applied.
fn check_hp(e: &mut E, target: &str, before: u32, a: &Value) {
    let after = sheet(e, target).hp;
    if a["hit"].as_bool().unwrap() {
        let taken = a["damage"]["total"].as_u64().unwrap() as u32;
        assert_eq!(after, before.saturating_sub(taken), "{a}");
    } else {
        assert_eq!(after, before);
    }
}

#[test]
fn poisoned_attacker_rolls_two_d20_and_keeps_the_lower() {
    for seed in [1, 2, 3] {
        let (_d, mut e) = open(seed, None);
        start(
            &mut e,
            vec![
                at(
                    creature(
                        "Brute",
                        30,
                        12,
                        vec![melee("Claw", 4, "1d6+2", DamageType::Slashing)],
                    ),
                    Side::Enemy,
                    0,
                    0,
                    20,
                ),
                at(creature("Dummy", 50, 12, vec![]), Side::Party, 1, 0, 10),
            ],
            TerrainSpec::default(),
        );
        condition(&mut e, "Brute", Condition::Poisoned);
        let a = attack(&mut e, "Brute", "Dummy");
        let r = rolls(&a);
        assert_eq!(r.len(), 2, "{a}");
        assert_eq!(
            a["roll"]["kept"].as_u64().unwrap(),
            *r.iter().min().unwrap()
        );
        assert!(
            strs(&a["roll"]["disadvantage"])
                .iter()
                .any(|s| s.contains("poisoned"))
        );
        // The kept die + 4 decides the hit against AC 12.
        let kept = a["roll"]["kept"].as_u64().unwrap() as i64;
        let hit = kept != 1 && (kept == 20 || kept + 4 >= 12);
        assert_eq!(a["hit"].as_bool().unwrap(), hit);
        check_hp(&mut e, "Dummy", 50, &a);
    }
}

#[test]
fn prone_target_is_attacked_with_advantage_within_5_ft_and_disadvantage_beyond() {
    let (_d, mut e) = open(7, None);
    start(
        &mut e,
        vec![
            at(
                creature(
                    "Brute",
                    30,
                    12,
                    vec![
                        melee("Claw", 4, "1d6+2", DamageType::Slashing),
                        ranged("Spear throw", 4, "1d6", 20, 60),
                    ],
                ),
                Side::Enemy,
                0,
                0,
                20,
            ),
            at(creature("Dummy", 50, 12, vec![]), Side::Party, 1, 0, 10),
            at(creature("Far", 50, 12, vec![]), Side::Party, 3, 0, 5),
        ],
        TerrainSpec::default(),
    );
    condition(&mut e, "Dummy", Condition::Prone);
    condition(&mut e, "Far", Condition::Prone);
    let a = attack(&mut e, "Brute", "Dummy");
    let r = rolls(&a);
    assert_eq!(r.len(), 2);
    assert_eq!(
        a["roll"]["kept"].as_u64().unwrap(),
        *r.iter().max().unwrap()
    );
    assert!(
        strs(&a["roll"]["advantage"])
            .iter()
            .any(|s| s == "target prone"),
        "{a}"
    );
    check_hp(&mut e, "Dummy", 50, &a);
    // 15 ft away: the thrown spear, with disadvantage.
    let out = act(
        &mut e,
        json!({"actor": {"name": "Brute"}, "actionType": "attack", "target": {"name": "Far"}, "weapon": "Spear throw", "force": true}),
    )
    .unwrap();
    let a = first_attack(&out);
    let r = rolls(&a);
    assert_eq!(r.len(), 2);
    assert_eq!(
        a["roll"]["kept"].as_u64().unwrap(),
        *r.iter().min().unwrap()
    );
    assert!(
        strs(&a["roll"]["disadvantage"])
            .iter()
            .any(|s| s.contains("prone")),
        "{a}"
    );
}

#[test]
fn a_critical_hit_doubles_the_dice_not_the_modifier() {
    let (_d, mut e) = open(11, None);
    start(
        &mut e,
        vec![
            at(
                creature(
                    "Axeman",
                    30,
                    12,
                    vec![melee("Axe", 5, "1d12+3", DamageType::Slashing)],
                ),
                Side::Enemy,
                0,
                0,
                20,
            ),
            at(creature("Victim", 100, 5, vec![]), Side::Party, 1, 0, 10),
        ],
        TerrainSpec::default(),
    );
    // Paralyzed within 5 ft: advantage, and any hit is a critical hit.
    condition(&mut e, "Victim", Condition::Paralyzed);
    let a = attack(&mut e, "Axeman", "Victim");
    assert!(a["hit"].as_bool().unwrap(), "{a}");
    assert!(a["critical"].as_bool().unwrap(), "{a}");
    let expr = a["damageRoll"]["expression"].as_str().unwrap();
    assert!(expr.contains("2d12"), "{expr}");
    let terms = a["damageRoll"]["terms"].as_array().unwrap();
    let dice: Vec<u64> = terms[0]["dice"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["value"].as_u64().or(d["face"].as_u64()).unwrap_or(0))
        .collect();
    let total = a["damageRoll"]["total"].as_i64().unwrap();
    assert_eq!(dice.len(), 2, "{terms:?}");
    assert_eq!(
        total,
        dice.iter().sum::<u64>() as i64 + 3,
        "modifier added once"
    );
    assert_eq!(sheet(&mut e, "Victim").hp, 100 - total as u32);
}

#[test]
fn fire_damage_to_a_fire_resistant_target_is_halved_after_the_crit() {
    let (_d, mut e) = open(5, None);
    let mut victim = creature("Salamander", 100, 5, vec![]);
    victim.resistances = vec![DamageType::Fire];
    start(
        &mut e,
        vec![
            at(
                creature(
                    "Pyro",
                    30,
                    12,
                    vec![melee("Flame", 5, "2d6+3", DamageType::Fire)],
                ),
                Side::Enemy,
                0,
                0,
                20,
            ),
            at(victim, Side::Party, 1, 0, 10),
        ],
        TerrainSpec::default(),
    );
    condition(&mut e, "Salamander", Condition::Unconscious);
    let a = attack(&mut e, "Pyro", "Salamander");
    assert!(a["critical"].as_bool().unwrap(), "{a}");
    assert!(
        a["damageRoll"]["expression"]
            .as_str()
            .unwrap()
            .contains("4d6")
    );
    let rolled = a["damageRoll"]["total"].as_u64().unwrap() as u32;
    let t = &a["damage"]["byType"][0];
    assert_eq!(t["rolled"].as_u64().unwrap() as u32, rolled);
    assert_eq!(t["taken"].as_u64().unwrap() as u32, rolled / 2);
    assert_eq!(sheet(&mut e, "Salamander").hp, 100 - rolled / 2);
}

#[test]
fn a_concentrating_target_hit_for_30_saves_against_dc_15() {
    let (_d, mut e) = open(3, None);
    start(
        &mut e,
        vec![
            at(
                creature(
                    "Ogre",
                    60,
                    12,
                    vec![melee("Club", 30, "30", DamageType::Bludgeoning)],
                ),
                Side::Enemy,
                0,
                0,
                20,
            ),
            at(creature("Mage", 100, 10, vec![]), Side::Party, 1, 0, 10),
        ],
        TerrainSpec::default(),
    );
    let mut mage = sheet(&mut e, "Mage");
    e.write("test", &json!({}), |call| {
        tabletop_engine::concentration::begin(call, &mut mage, "Bless", &mut Vec::new())?;
        tabletop_engine::combat::put_sheet(call, &mage)
    })
    .unwrap();
    let a = attack(&mut e, "Ogre", "Mage");
    assert!(a["hit"].as_bool().unwrap(), "{a}");
    assert_eq!(a["damage"]["total"].as_u64().unwrap(), 30);
    assert_eq!(a["concentration"]["dc"].as_u64().unwrap(), 15, "{a}");
    let kept = a["concentration"]["kept"].as_bool().unwrap();
    assert_eq!(sheet(&mut e, "Mage").concentration.is_some(), kept);
    assert_eq!(sheet(&mut e, "Mage").hp, 70);
}

#[test]
fn ranges_long_range_disadvantage_and_out_of_range_refused() {
    let (_d, mut e) = open(9, None);
    start(
        &mut e,
        vec![
            at(
                creature(
                    "Archer",
                    20,
                    12,
                    vec![ranged("Longbow", 5, "1d8+3", 150, 600)],
                ),
                Side::Enemy,
                0,
                0,
                20,
            ),
            at(creature("Near", 50, 10, vec![]), Side::Party, 20, 0, 10),
            at(creature("Mid", 50, 10, vec![]), Side::Party, 40, 0, 9),
            at(creature("Gone", 50, 10, vec![]), Side::Party, 130, 0, 8),
        ],
        TerrainSpec {
            width: Some(140),
            height: Some(5),
            ..Default::default()
        },
    );
    let err = act(
        &mut e,
        json!({"actor": {"name": "Archer"}, "actionType": "attack", "target": {"name": "Gone"}}),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("650 ft") && err.contains("600 ft"), "{err}");
    assert_eq!(sheet(&mut e, "Gone").hp, 50);
    let a = attack(&mut e, "Archer", "Near");
    assert_eq!(a["situation"]["distanceFt"].as_u64().unwrap(), 100);
    assert_eq!(rolls(&a).len(), 1, "within normal range: a straight roll");
    // A second attack needs force (one action); the point is the roll.
    let out = act(&mut e, json!({"actor": {"name": "Archer"}, "actionType": "attack", "target": {"name": "Mid"}, "force": true})).unwrap();
    let a = first_attack(&out);
    assert_eq!(rolls(&a).len(), 2);
    assert!(
        strs(&a["roll"]["disadvantage"])
            .iter()
            .any(|s| s.contains("beyond normal range")),
        "{a}"
    );
}

#[test]
fn ranged_attack_with_an_adjacent_hostile_has_disadvantage() {
    let (_d, mut e) = open(4, None);
    start(
        &mut e,
        vec![
            at(
                creature(
                    "Archer",
                    20,
                    12,
                    vec![ranged("Shortbow", 4, "1d6+2", 80, 320)],
                ),
                Side::Party,
                0,
                0,
                20,
            ),
            at(creature("Goblin", 7, 15, vec![]), Side::Enemy, 1, 0, 10),
            at(creature("Target", 30, 10, vec![]), Side::Enemy, 8, 0, 9),
        ],
        TerrainSpec::default(),
    );
    let a = attack(&mut e, "Archer", "Target");
    assert_eq!(rolls(&a).len(), 2);
    assert!(
        strs(&a["roll"]["disadvantage"])
            .iter()
            .any(|s| s.contains("hostile within 5 ft (Goblin)")),
        "{a}"
    );
    // An incapacitated neighbour does not spoil the shot.
    condition(&mut e, "Goblin", Condition::Stunned);
    let out = act(&mut e, json!({"actor": {"name": "Archer"}, "actionType": "attack", "target": {"name": "Target"}, "force": true})).unwrap();
    assert_eq!(rolls(&first_attack(&out)).len(), 1);
}

#[test]
fn cover_adds_two_or_five_to_ac() {
    let (_d, mut e) = open(6, None);
    start(
        &mut e,
        vec![
            at(
                creature(
                    "Archer",
                    20,
                    12,
                    vec![ranged("Shortbow", 4, "1d6+2", 80, 320)],
                ),
                Side::Party,
                0,
                5,
                20,
            ),
            at(
                creature("Behind wall", 30, 13, vec![]),
                Side::Enemy,
                5,
                5,
                10,
            ),
        ],
        TerrainSpec {
            low_walls: vec![Position::new(4, 5)],
            ..Default::default()
        },
    );
    let a = attack(&mut e, "Archer", "Behind wall");
    assert_eq!(a["situation"]["coverBonus"].as_i64().unwrap(), 2);
    assert_eq!(a["roll"]["dc"].as_i64().unwrap(), 15);

    let (_d, mut e) = open(6, None);
    start(
        &mut e,
        vec![
            at(
                creature(
                    "Archer",
                    20,
                    12,
                    vec![ranged("Shortbow", 4, "1d6+2", 80, 320)],
                ),
                Side::Party,
                0,
                0,
                20,
            ),
            at(
                creature("Behind pillar", 30, 13, vec![]),
                Side::Enemy,
                4,
                4,
                10,
            ),
        ],
        TerrainSpec {
            obstacles: vec![Position::new(2, 2)],
            ..Default::default()
        },
    );
    let a = attack(&mut e, "Archer", "Behind pillar");
    assert_eq!(a["situation"]["coverBonus"].as_i64().unwrap(), 5);
    assert_eq!(a["roll"]["dc"].as_i64().unwrap(), 18);
    let total = a["roll"]["total"].as_i64().unwrap();
    let kept = a["roll"]["kept"].as_i64().unwrap();
    assert_eq!(
        a["hit"].as_bool().unwrap(),
        kept == 20 || (kept != 1 && total >= 18)
    );
}

#[test]
fn extra_attack_gives_two_attacks_for_one_action() {
    let (_d, mut e) = open(8, None);
    let mut req = common::fighter("Vera", [16, 12, 14, 10, 10, 10]);
    req.level = Some(5);
    common::create(&mut e, req);
    e.write("manage_inventory", &json!({}), |call| {
        use tabletop_engine::character::CharacterRef;
        use tabletop_engine::inventory::ops::{self, GiveRequest, ItemDef, ItemRef};
        use tabletop_engine::inventory::{WeaponCategory, WeaponProperty, WeaponStats};
        ops::give(
            call,
            CharacterRef::new(None, Some("Vera")),
            GiveRequest {
                item: Some(ItemDef {
                    name: "Longsword".into(),
                    weapon: Some(WeaponStats {
                        damage_dice: "1d8".into(),
                        damage_type: DamageType::Slashing,
                        category: WeaponCategory::MartialMelee,
                        properties: vec![WeaponProperty::Versatile],
                        range_normal: None,
                        range_long: None,
                        versatile_damage: Some("1d10".into()),
                    }),
                    ..Default::default()
                }),
                ..Default::default()
            },
        )?;
        ops::equip(
            call,
            CharacterRef::new(None, Some("Vera")),
            ItemRef {
                id: None,
                name: Some("Longsword"),
            },
            None,
        )
    })
    .unwrap();
    start(
        &mut e,
        vec![
            character("Vera", Side::Party, 0, 0, 20),
            at(creature("Ogre", 200, 11, vec![]), Side::Enemy, 1, 0, 10),
        ],
        TerrainSpec::default(),
    );
    let first = act(
        &mut e,
        json!({"actor": {"name": "Vera"}, "actionType": "attack", "target": {"name": "Ogre"}}),
    )
    .unwrap();
    assert_eq!(first.economy.as_ref().unwrap().attacks_left, 1);
    assert!(first.economy.as_ref().unwrap().action);
    let a = first_attack(&first);
    assert_eq!(a["weapon"], "Longsword");
    // Versatile with the off hand free: 1d10, +3 STR.
    assert!(a["roll"]["modifierTotal"].as_i64().unwrap() == 6, "{a}");
    let second = act(
        &mut e,
        json!({"actor": {"name": "Vera"}, "actionType": "attack", "target": {"name": "Ogre"}}),
    )
    .unwrap();
    assert_eq!(second.economy.as_ref().unwrap().attacks_left, 0);
    let err = act(
        &mut e,
        json!({"actor": {"name": "Vera"}, "actionType": "attack", "target": {"name": "Ogre"}}),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("already used its action"), "{err}");
    let dealt: u64 = [&first, &second]
        .iter()
        .map(|o| first_attack(o)["damage"]["total"].as_u64().unwrap_or(0))
        .sum();
    // Pinned by the seed: both attacks' damage, and the HP the ogre has left.
    assert_eq!(dealt, 6);
    assert_eq!(sheet(&mut e, "Ogre").hp as u64, 200 - dealt);
}

#[test]
fn a_monster_at_0_hp_dies_and_leaves_the_map() {
    let (_d, mut e) = open(12, None);
    start(
        &mut e,
        vec![
            at(
                creature(
                    "Hero",
                    30,
                    12,
                    vec![melee("Sword", 20, "50", DamageType::Slashing)],
                ),
                Side::Party,
                0,
                0,
                20,
            ),
            at(
                creature(
                    "Goblin",
                    7,
                    5,
                    vec![melee("Scimitar", 20, "50", DamageType::Slashing)],
                ),
                Side::Enemy,
                1,
                0,
                10,
            ),
        ],
        TerrainSpec::default(),
    );
    let out = act(
        &mut e,
        json!({"actor": {"name": "Hero"}, "actionType": "attack", "target": {"name": "Goblin"}}),
    )
    .unwrap();
    // Pinned: d20 3 + 20 = 23 against AC 5, a hit (no critical), for a flat 50.
    assert_eq!(
        out.lines[..3],
        [
            "Hero attack with Sword: d20 [3] + 20 = 23 vs AC 5 — hit",
            "Damage: 50[slashing]: 50 slashing = 50 (slashing 50)",
            "Goblin takes 50 (50 slashing); 7 → 0 HP; dies"
        ]
    );
    assert!(out.headline.starts_with("Hit! "), "{}", out.headline);
    assert!(
        out.headline.contains("(7 → 0 HP) and dies"),
        "{}",
        out.headline
    );
    let g = sheet(&mut e, "Goblin");
    assert!(g.dead);
    let enc = encounter(&mut e);
    assert!(
        enc.map.creature(&g.id).is_none(),
        "dead creatures leave the map"
    );
    assert!(enc.combatant(&g.id).is_some(), "but stay in the order");
    let err = act(&mut e, json!({"actor": {"name": "Hero"}, "actionType": "attack", "target": {"name": "Goblin"}, "force": true}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("already dead"), "{err}");
}

#[test]
fn damage_and_heal_by_the_game_master() {
    let (_d, mut e) = open(13, None);
    let mut troll = creature("Troll", 40, 12, vec![]);
    troll.resistances = vec![DamageType::Fire];
    start(
        &mut e,
        vec![
            at(troll, Side::Enemy, 0, 0, 20),
            at(creature("Ogre", 40, 12, vec![]), Side::Enemy, 3, 0, 10),
        ],
        TerrainSpec::default(),
    );
    let out = act(&mut e, json!({"actionType": "damage", "targets": [{"name": "Troll"}, {"name": "Ogre"}], "amount": "10", "damageType": "fire"})).unwrap();
    assert!(
        out.headline.contains("Troll takes 5 fire"),
        "{}",
        out.headline
    );
    assert_eq!(sheet(&mut e, "Troll").hp, 35);
    assert_eq!(sheet(&mut e, "Ogre").hp, 30);
    let out = act(
        &mut e,
        json!({"actionType": "heal", "target": {"name": "Ogre"}, "amount": "4"}),
    )
    .unwrap();
    assert!(
        out.headline.contains("Ogre heals 4 (30 → 34 HP)"),
        "{}",
        out.headline
    );
    assert_eq!(sheet(&mut e, "Ogre").hp, 34);
    let err = act(
        &mut e,
        json!({"actionType": "damage", "target": {"name": "Ogre"}}),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("amount"), "{err}");
}

#[test]
fn bad_inputs_are_refused_with_the_fix() {
    let (_d, mut e) = open(14, None);
    start(
        &mut e,
        vec![
            at(
                creature(
                    "First",
                    20,
                    12,
                    vec![melee("Claw", 4, "1d4", DamageType::Slashing)],
                ),
                Side::Enemy,
                0,
                0,
                20,
            ),
            at(
                creature(
                    "Second",
                    20,
                    12,
                    vec![melee("Bite", 4, "1d4", DamageType::Piercing)],
                ),
                Side::Party,
                5,
                0,
                10,
            ),
        ],
        TerrainSpec::default(),
    );
    let err = act(
        &mut e,
        json!({"actor": {"name": "Second"}, "actionType": "attack", "target": {"name": "First"}}),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("it is First's turn") && err.contains("advance_turn"),
        "{err}"
    );
    let err = act(
        &mut e,
        json!({"actor": {"name": "First"}, "actionType": "attack", "target": {"name": "Second"}}),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("25 ft") && err.contains("5 ft reach") && err.contains("move closer"),
        "{err}"
    );
    let err = act(&mut e, json!({"actor": {"name": "First"}, "actionType": "attack", "target": {"name": "Second"}, "weapon": "Halberd"})).unwrap_err().to_string();
    assert!(
        err.contains("Claw") && err.contains("unarmed strike"),
        "{err}"
    );
    let err = act(
        &mut e,
        json!({"actor": {"name": "First"}, "actionType": "attack"}),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("targetId"), "{err}");
    // Nothing was spent by the refusals.
    let enc = encounter(&mut e);
    assert!(!enc.order[0].economy.action);
}

#[test]
fn srd_goblin_scimitar_and_shortbow_from_the_stat_block() {
    let Some(srd) = common::srd("srd_goblin_scimitar_and_shortbow_from_the_stat_block") else {
        return;
    };
    let (_d, mut e) = open(21, Some(srd));
    e.write("create_encounter", &json!({}), |call| {
        use tabletop_engine::combat::create::*;
        create_encounter(
            call,
            CreateEncounter {
                name: None,
                participants: vec![
                    ParticipantSpec {
                        source: ParticipantSource::Monster {
                            monster: "goblin".into(),
                            count: 1,
                            name: None,
                        },
                        side: None,
                        positions: vec![Position::new(0, 0)],
                        surprised: false,
                        initiative: Some(20),
                    },
                    at(creature("Dummy", 50, 10, vec![]), Side::Party, 1, 0, 10),
                    at(creature("Far dummy", 50, 10, vec![]), Side::Party, 18, 0, 9),
                ],
                terrain: TerrainSpec::default(),
                auto_end: false,
            },
        )
    })
    .unwrap();
    let enc = encounter(&mut e);
    let goblin = enc.order[0].name.clone();
    let a = attack(&mut e, &goblin, "Dummy");
    assert_eq!(a["weapon"], "Scimitar");
    assert_eq!(a["roll"]["modifierTotal"].as_i64().unwrap(), 4);
    check_hp(&mut e, "Dummy", 50, &a);
    // Shortbow at 90 ft: beyond 80, within 320 → disadvantage.
    let out = act(&mut e, json!({"actor": {"name": goblin}, "actionType": "attack", "target": {"name": "Far dummy"}, "weapon": "shortbow", "force": true})).unwrap();
    let a = first_attack(&out);
    assert_eq!(a["kind"]["delivery"], "ranged");
    assert!(
        strs(&a["roll"]["disadvantage"])
            .iter()
            .any(|s| s.contains("beyond normal range")),
        "{a}"
    );
}

#[test]
fn srd_owlbear_multiattack_makes_beak_and_claws() {
    let Some(srd) = common::srd("srd_owlbear_multiattack_makes_beak_and_claws") else {
        return;
    };
    let (_d, mut e) = open(22, Some(srd));
    e.write("create_encounter", &json!({}), |call| {
        use tabletop_engine::combat::create::*;
        create_encounter(
            call,
            CreateEncounter {
                name: None,
                participants: vec![
                    ParticipantSpec {
                        source: ParticipantSource::Monster {
                            monster: "owlbear".into(),
                            count: 1,
                            name: None,
                        },
                        side: None,
                        positions: vec![Position::new(0, 0)],
                        surprised: false,
                        initiative: Some(20),
                    },
                    at(creature("Dummy", 200, 10, vec![]), Side::Party, 2, 0, 10),
                ],
                terrain: TerrainSpec::default(),
                auto_end: false,
            },
        )
    })
    .unwrap();
    let owlbear = encounter(&mut e).order[0].name.clone();
    let out = act(
        &mut e,
        json!({"actor": {"name": owlbear}, "actionType": "attack", "target": {"name": "Dummy"}, "weapon": "Multiattack"}),
    )
    .unwrap();
    let attacks = out.details["attacks"].as_array().unwrap();
    let weapons: Vec<&str> = attacks
        .iter()
        .map(|a| a["weapon"].as_str().unwrap())
        .collect();
    assert_eq!(weapons, ["Beak", "Claws"], "{}", out.details);
    assert!(
        out.headline
            .starts_with(&format!("{owlbear} uses Multiattack."))
    );
    let dealt: u64 = attacks
        .iter()
        .map(|a| a["damage"]["total"].as_u64().unwrap_or(0))
        .sum();
    // Pinned by the seed: the beak's and the claws' damage, and what the dummy has left.
    assert_eq!(dealt, 15);
    assert_eq!(sheet(&mut e, "Dummy").hp as u64, 200 - dealt);
    let eco = out.economy.unwrap();
    assert!(eco.action && eco.attacks_left == 0);
}

/// Gives `name` a light melee weapon and equips it in `slot`.
fn wield_light(e: &mut E, who: &str, name: &str, slot: &str) {
    e.write("manage_inventory", &json!({}), |call| {
        use tabletop_engine::character::CharacterRef;
        use tabletop_engine::inventory::ops::{self, GiveRequest, ItemDef, ItemRef};
        use tabletop_engine::inventory::{Slot, WeaponCategory, WeaponProperty, WeaponStats};
        ops::give(
            call,
            CharacterRef::new(None, Some(who)),
            GiveRequest {
                item: Some(ItemDef {
                    name: name.into(),
                    weapon: Some(WeaponStats {
                        damage_dice: "1d6".into(),
                        damage_type: DamageType::Piercing,
                        category: WeaponCategory::MartialMelee,
                        properties: vec![WeaponProperty::Light, WeaponProperty::Finesse],
                        range_normal: None,
                        range_long: None,
                        versatile_damage: None,
                    }),
                    ..Default::default()
                }),
                ..Default::default()
            },
        )?;
        let slot = if slot == "offhand" {
            Slot::Offhand
        } else {
            Slot::Mainhand
        };
        ops::equip(
            call,
            CharacterRef::new(None, Some(who)),
            ItemRef {
                id: None,
                name: Some(name),
            },
            Some(slot),
        )
    })
    .unwrap();
}

#[test]
fn two_weapon_fighting_is_a_bonus_action_after_the_attack_action_without_the_damage_modifier() {
    let (_d, mut e) = open(21, None);
    common::create(&mut e, common::fighter("Nim", [10, 16, 12, 10, 10, 10]));
    wield_light(&mut e, "Nim", "Shortsword", "mainhand");
    wield_light(&mut e, "Nim", "Dagger", "offhand");
    start(
        &mut e,
        vec![
            character("Nim", Side::Party, 0, 0, 20),
            at(creature("Ogre", 300, 5, vec![]), Side::Enemy, 1, 0, 10),
        ],
        TerrainSpec::default(),
    );
    let off = json!({"actor": {"name": "Nim"}, "actionType": "two_weapon_attack", "target": {"name": "Ogre"}});
    // Not before the Attack action.
    let err = act(&mut e, off.clone()).unwrap_err().to_string();
    assert!(err.contains("Attack action"), "{err}");
    let main = attack(&mut e, "Nim", "Ogre");
    assert_eq!(main["weapon"], "Shortsword");
    let out = act(&mut e, off.clone()).unwrap();
    let economy = out.economy.clone().unwrap();
    assert!(
        economy.bonus_action,
        "the off-hand attack spends the bonus action"
    );
    let a = first_attack(&out);
    assert_eq!(a["weapon"], "Dagger");
    // To hit keeps DEX (+3) and proficiency (+2); the damage leaves the +3 off.
    assert_eq!(a["roll"]["modifierTotal"].as_i64().unwrap(), 5, "{a}");
    // AC 5 against +5: this seed hits, so the damage roll is there to check.
    assert!(a["hit"].as_bool().unwrap(), "{a}");
    {
        let roll = &a["damageRoll"];
        let terms = roll["terms"].as_array().unwrap();
        assert!(
            terms
                .iter()
                .all(|t| t["dice"].as_array().is_some_and(|d| !d.is_empty())),
            "no constant term (modifier) on off-hand damage: {a}"
        );
        let dice: i64 = terms
            .iter()
            .flat_map(|t| t["dice"].as_array().cloned().unwrap_or_default())
            .filter(|d| d["kept"].as_bool().unwrap_or(false))
            .map(|d| d["value"].as_i64().unwrap())
            .sum();
        assert_eq!(roll["total"].as_i64().unwrap(), dice, "{a}");
    }
    // Only one bonus action.
    let err = act(&mut e, off).unwrap_err().to_string();
    assert!(err.contains("bonus action"), "{err}");
}

/// An SRD magic item, equipped (and attuned), put on `name`'s sheet.
fn wear(
    e: &mut E,
    srd: &tabletop_srd::Compendium,
    name: &str,
    item: &str,
    slot: tabletop_engine::inventory::Slot,
) {
    let mut it = tabletop_engine::inventory::catalog::lookup(srd, item)
        .unwrap()
        .item;
    it.id = format!("{name}-magic");
    it.slot = Some(slot);
    it.attuned = it.requires_attunement;
    edit(e, name, |c| c.inventory.items.push(it));
}

fn paralyzed_dummy_fight(seed: u64, armor: bool) -> Value {
    let srd = common::srd("adamantine").unwrap();
    let (_d, mut e) = open(seed, Some(srd.clone()));
    start(
        &mut e,
        vec![
            at(
                creature(
                    "Brute",
                    30,
                    12,
                    vec![melee("Claw", 20, "1d6+2", DamageType::Slashing)],
                ),
                Side::Enemy,
                0,
                0,
                20,
            ),
            at(creature("Dummy", 50, 12, vec![]), Side::Party, 1, 0, 10),
        ],
        TerrainSpec::default(),
    );
    if armor {
        wear(
            &mut e,
            &srd,
            "Dummy",
            "Adamantine Armor",
            tabletop_engine::inventory::Slot::Armor,
        );
    }
    condition(&mut e, "Dummy", Condition::Paralyzed);
    let a = attack(&mut e, "Brute", "Dummy");
    check_hp(&mut e, "Dummy", 50, &a);
    a
}

#[test]
fn adamantine_armor_turns_the_critical_hit_on_a_paralyzed_wearer_into_a_normal_hit() {
    if common::srd("adamantine").is_none() {
        return;
    }
    let plain = paralyzed_dummy_fight(5, false);
    assert_eq!(
        (plain["hit"].as_bool(), plain["critical"].as_bool()),
        (Some(true), Some(true))
    );
    let a = paralyzed_dummy_fight(5, true);
    assert_eq!(
        (a["hit"].as_bool(), a["critical"].as_bool()),
        (Some(true), Some(false))
    );
    assert!(
        strs(&a["lines"]).contains(
            &"Dummy's Adamantine Armor Chain Mail turns the critical hit into a normal hit."
                .to_string()
        ),
        "{a}"
    );
    // One d6 instead of two.
    assert_eq!(a["damageRoll"]["expression"], "(1d6 + 2)[slashing]", "{a}");
}

#[test]
fn a_vicious_weapon_adds_two_d6_on_a_natural_20() {
    let Some(srd) = common::srd("vicious") else {
        return;
    };
    // Seed 9: the first attack rolls a natural 20.
    let (_d, mut e) = open(9, Some(srd.clone()));
    start(
        &mut e,
        vec![
            at(creature("Brute", 30, 12, vec![]), Side::Enemy, 0, 0, 20),
            at(creature("Dummy", 80, 12, vec![]), Side::Party, 1, 0, 10),
        ],
        TerrainSpec::default(),
    );
    wear(
        &mut e,
        &srd,
        "Brute",
        "Vicious Weapon",
        tabletop_engine::inventory::Slot::Mainhand,
    );
    let out = act(
        &mut e,
        json!({"actor": {"name": "Brute"}, "actionType": "attack", "target": {"name": "Dummy"}, "weapon": "Vicious Weapon Longsword"}),
    )
    .unwrap();
    let a = first_attack(&out);
    assert_eq!(a["roll"]["natural20"], true, "{a}");
    assert!(
        strs(&a["lines"]).contains(
            &"Vicious Weapon Longsword: a natural 20 deals 2d6[slashing] extra damage.".to_string()
        ),
        "{a}"
    );
    // The longsword two-handed (1d10) and the extra 2d6, doubled by the critical hit.
    assert_eq!(
        a["damageRoll"]["expression"], "2d10[slashing] + 4d6[slashing]",
        "{a}"
    );
    assert_eq!(a["damage"]["total"], 29);
    check_hp(&mut e, "Dummy", 80, &a);
}

/// Issue 18: a bow spends an arrow per attack (refused with none, `force` says so), half the
/// arrows come back when the fight ends; a thrown javelin leaves the hand for the target's
/// square and comes back at the end; a dagger used in melee stays in the hand.
#[test]
fn arrows_are_spent_and_half_recovered_and_a_thrown_javelin_lands_by_the_target() {
    let Some(mut t) = fidelity::Table::new(
        3,
        &[fidelity::FIGHTER],
        vec![("ogre", "Ogre", vec![(8, 2)], 5)],
        (16, 16),
    ) else {
        return;
    };
    t.turn_of("Rook");
    t.arm("Rook", "Shortbow");
    t.give("Rook", "Arrow", 2);
    let shot = json!({"actorName": "Rook", "actionType": "attack", "targetName": "Ogre", "weapon": "Shortbow"});
    let o = t.act(shot.clone()).unwrap();
    assert_eq!(o.headline, "Hit! Ogre takes 3 piercing (59 → 56 HP).");
    assert_eq!(
        o.lines.last().unwrap(),
        "Rook fires one Arrow from the Shortbow (1 left)."
    );
    assert_eq!(t.count("Rook", "Arrow"), 1);
    let o = t.act(shot.clone()).unwrap();
    assert_eq!(o.headline, "Hit! Ogre takes 7 piercing (56 → 49 HP).");
    assert_eq!(
        o.lines.last().unwrap(),
        "Rook fires one Arrow from the Shortbow (0 left)."
    );
    assert_eq!(t.count("Rook", "Arrow"), 0);
    t.turn_of("Rook");
    assert_eq!(
        t.refused(shot.clone()),
        "Rook has no arrows left for the Shortbow; give some with manage_inventory (or pass force: true to fire anyway as the game master)"
    );
    assert_eq!(t.sheet("Ogre").hp, 49);
    let mut forced = shot.clone();
    forced["force"] = json!(true);
    let o = t.act(forced).unwrap();
    assert_eq!(o.headline, "Miss (10 vs AC 11).");
    assert_eq!(
        o.forced,
        vec!["Rook has no arrows for the Shortbow: fired anyway (forced, nothing spent)"]
    );
    t.arm("Rook", "Javelin");
    assert_eq!(t.count("Rook", "Javelin"), 1);
    let o = t
        .act(json!({"actorName": "Rook", "actionType": "attack", "targetName": "Ogre", "weapon": "Javelin"}))
        .unwrap();
    assert_eq!(o.headline, "Miss (8 vs AC 11).");
    assert_eq!(
        o.lines,
        vec![
            "Rook attack with Javelin: d20 [2] + 6 = 8 vs AC 11 — miss",
            "The Javelin leaves Rook's hands and lands at (8, 2) (prop thrown-2; it comes back to Rook when the fight ends, or give it back with manage_inventory).",
        ]
    );
    assert_eq!(t.count("Rook", "Javelin"), 0);
    let props: Vec<(String, i32, i32)> = t
        .enc()
        .map
        .props()
        .map(|p| (p.name.clone(), p.position.x, p.position.y))
        .collect();
    assert_eq!(props, vec![("Javelin (thrown by Rook)".to_string(), 8, 2)]);
    let s = t.end();
    assert_eq!(
        s.recovered,
        vec![
            "Rook recovers 1 Arrow of the 2 fired (half, rounded down)",
            "Rook picks up the thrown Javelin",
        ]
    );
    assert_eq!(t.count("Rook", "Arrow"), 1);
    assert_eq!(t.count("Rook", "Javelin"), 1);
}

/// Issue 18: one target per attack in one execute_action — a fighter's Extra Attack on two
/// goblins (a third target refused), an owlbear's Multiattack beak on one and claws on another.
#[test]
fn extra_attack_and_multiattack_take_a_target_per_attack() {
    let Some(mut t) = fidelity::Table::new(
        5,
        &[fidelity::FIGHTER, fidelity::ROGUE],
        vec![
            ("goblin", "Goblin", vec![(3, 1), (3, 2)], 6),
            ("owlbear", "Owlbear", vec![(0, 2)], 5),
        ],
        (16, 16),
    ) else {
        return;
    };
    t.arm("Rook", "Longsword");
    t.turn_of("Rook");
    let three = json!({"actorName": "Rook", "actionType": "attack", "targetNames": ["Goblin 1", "Goblin 2", "Goblin 1"]});
    assert_eq!(
        t.refused(three),
        "Rook has 2 attacks left in this Attack action and 3 targets were given (one attack per target); attack again next turn or pass fewer targets (pass force: true to override as the game master)"
    );
    let o = t
        .act(json!({"actorName": "Rook", "actionType": "attack", "targetNames": ["Goblin 1", "Goblin 2"]}))
        .unwrap();
    assert_eq!(
        o.headline,
        "Hit! Goblin 1 takes 8 slashing (7 → 0 HP) and dies. Hit! Goblin 2 takes 6 slashing (7 → 1 HP)."
    );
    let per: Vec<(String, String)> = o.details["attacks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["target"].as_str().unwrap().to_string(),
                a["headline"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        per,
        vec![
            (
                "Goblin 1".to_string(),
                "Hit! Goblin 1 takes 8 slashing (7 → 0 HP) and dies.".to_string()
            ),
            (
                "Goblin 2".to_string(),
                "Hit! Goblin 2 takes 6 slashing (7 → 1 HP).".to_string()
            ),
        ]
    );
    assert_eq!(
        o.lines[0],
        "— Longsword → Goblin 1: Hit! Goblin 1 takes 8 slashing (7 → 0 HP) and dies."
    );
    assert_eq!(
        o.lines[5],
        "— Longsword → Goblin 2: Hit! Goblin 2 takes 6 slashing (7 → 1 HP)."
    );
    assert!(t.sheet("Goblin 1").dead);
    assert_eq!(t.sheet("Goblin 2").hp, 1);
    let rid = t.ids["Rook"].clone();
    let econ = t.enc().combatant(&rid).unwrap().economy.clone();
    assert_eq!((econ.action, econ.attacks_left), (true, 0));
    // The action is spent: a third attack needs force.
    assert_eq!(
        t.refused(json!({"actorName": "Rook", "actionType": "attack", "targetName": "Goblin 2"})),
        "Rook has already used its action this turn (pass force: true to override as the game master)"
    );
    t.turn_of("Owlbear");
    let o = t
        .act(json!({"actorName": "Owlbear", "actionType": "attack", "weapon": "Multiattack", "targetNames": ["Rook", "Nim"]}))
        .unwrap();
    assert_eq!(
        o.headline,
        "Owlbear uses Multiattack. Hit! Rook takes 13 piercing (44 → 31 HP). Hit! Nim takes 13 slashing (21 → 8 HP)."
    );
    assert_eq!(
        o.lines[0],
        "— Beak → Rook: Hit! Rook takes 13 piercing (44 → 31 HP)."
    );
    assert_eq!(
        o.lines[4],
        "— Claws → Nim: Hit! Nim takes 13 slashing (21 → 8 HP)."
    );
    assert_eq!((t.sheet("Rook").hp, t.sheet("Nim").hp), (31, 8));
}
