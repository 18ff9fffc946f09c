//! Wards and raised hit points through the real tools with the SRD configured (skipped without
//! TABLETOP_SRD_DIR) and seeded dice: Protection from Evil and Good gives disadvantage to an
//! undead's attacks (not a goblin's); Aid raises the maximum and current hit points by 5 per
//! slot above 1st; Darkvision appears among the sheet's senses; Sanctuary makes an attacker save
//! or lose the attack, and ends when the warded creature attacks; See Invisibility cancels an
//! invisible target's disadvantage; Banishment takes a failed saver off the map until the
//! caster's concentration ends; Globe of Invulnerability keeps out a Magic Missile cast from
//! outside until its concentration ends.

use super::common;
use super::spell_support;

use spell_support::*;
use tabletop_engine::combat::actions::{ActionRequest, ActionType};

#[test]
fn protection_from_evil_and_good_gives_undead_attackers_disadvantage_only() {
    let Some(srd) = common::srd("protection_evil") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 9);
    let bran = caster(
        &mut e,
        "Bran",
        "cleric",
        5,
        &["Protection from Evil and Good"],
    );
    let order = fight(
        &mut e,
        vec![
            pc(&bran, 5, 5, 20),
            monster("skeleton", 1, &[(6, 5)]),
            monster("goblin", 1, &[(4, 5)]),
        ],
    );
    let skeleton = id_of(&order, "Skeleton");
    let goblin = id_of(&order, "Goblin");
    let out = cast(&mut e, &bran, "Protection from Evil and Good", |r| {
        r.target = who(&bran)
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Protection from Evil and Good (1st level): Bran gains Protection from Evil and Good (attacks against it by aberration, celestial, elemental, fey, fiend, undead have disadvantage)."
    );
    advance(&mut e);
    let strike = |e: &mut E, who_id: &str, weapon: &str| {
        act(
            e,
            ActionRequest {
                actor: who(who_id),
                action_type: Some(ActionType::Attack),
                target: who(&bran),
                weapon: Some(weapon.into()),
                force: true,
                ..Default::default()
            },
        )
        .unwrap()
    };
    let out = strike(&mut e, &skeleton, "Shortsword");
    assert_eq!(
        out.lines[0],
        "Skeleton attack with Shortsword: d20 [8, ~~17~~] (disadvantage: Protection from Evil and Good wards Bran against undead creatures) + 4 = 12 vs AC 12 — hit"
    );
    let out = strike(&mut e, &goblin, "Scimitar");
    assert_eq!(
        out.lines[0],
        "Goblin attack with Scimitar: d20 [11] + 4 = 15 vs AC 12 — hit"
    );
}

#[test]
fn aid_raises_maximum_and_current_hp_by_five_per_slot_above_first() {
    let Some(srd) = common::srd("aid") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 2);
    let bran = caster(&mut e, "Bran", "cleric", 5, &["Aid"]);
    let tor = caster(&mut e, "Tor", "fighter", 5, &[]);
    let (b0, t0) = (sheet(&mut e, &bran), sheet(&mut e, &tor));
    let (bmax, tmax) = (b0.effective().max_hp.value, t0.effective().max_hp.value);
    let out = cast(&mut e, &bran, "Aid", |r| {
        r.targets = vec![who(&bran), who(&tor)];
        r.slot_level = Some(3);
    })
    .unwrap();
    assert_eq!(
        out.headline,
        format!(
            "Aid (3rd level): Bran gains Aid (+10 max HP, hit point maximum {} (+10), HP {} → {}); Tor gains Aid (+10 max HP, hit point maximum {} (+10), HP {} → {}).",
            bmax + 10,
            b0.hp,
            b0.hp + 10,
            tmax + 10,
            t0.hp,
            t0.hp + 10
        )
    );
    let t1 = sheet(&mut e, &tor);
    assert_eq!(
        (t1.hp, t1.effective().max_hp.value),
        (t0.hp + 10, tmax + 10)
    );
    assert_eq!((t0.hp, tmax), (44, 44));
}

#[test]
fn darkvision_shows_among_the_sheets_senses() {
    let Some(srd) = common::srd("darkvision_sheet") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 2);
    let dara = caster(&mut e, "Dara", "druid", 5, &["Darkvision"]);
    let get = |e: &mut E| {
        e.read(|call| {
            tabletop_engine::sheet::get_character(
                call,
                tabletop_engine::character::CharacterRef::new(Some(&dara), None),
            )
        })
        .unwrap()
    };
    assert!(get(&mut e).senses.is_empty());
    cast(&mut e, &dara, "Darkvision", |r| r.target = who(&dara)).unwrap();
    let s = get(&mut e);
    assert_eq!(s.senses, vec!["darkvision 60 ft".to_string()]);
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(json["senses"], serde_json::json!(["darkvision 60 ft"]));
}

#[test]
fn sanctuary_makes_an_attacker_save_or_lose_the_attack_and_ends_when_the_ward_attacks() {
    let Some(srd) = common::srd("sanctuary") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 9);
    let bran = caster(&mut e, "Bran", "cleric", 5, &["Sanctuary"]);
    let order = fight(
        &mut e,
        vec![pc(&bran, 5, 5, 20), monster("goblin", 2, &[(6, 5), (4, 5)])],
    );
    let g1 = id_of(&order, "Goblin 1");
    let out = cast(&mut e, &bran, "Sanctuary", |r| {
        r.target = who(&bran);
        r.action_cost = Some(tabletop_engine::model::encounter::ActionCost::BonusAction);
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Sanctuary (1st level): Bran gains Sanctuary (a creature attacking it first makes a DC 14 WIS save or must choose a new target)."
    );
    advance(&mut e);
    let hp = sheet(&mut e, &bran).hp;
    let out = act(
        &mut e,
        ActionRequest {
            actor: who(&g1),
            action_type: Some(ActionType::Attack),
            target: who(&bran),
            weapon: Some("Scimitar".into()),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(
        out.headline,
        "Goblin 1 fails its save against Sanctuary on Bran: it must choose a new target, and this attack is lost."
    );
    assert_eq!(
        out.lines,
        ["Goblin 1 WIS save vs Sanctuary on Bran: d20 [8] - 1 = 7 vs DC 14 — fail"]
    );
    assert_eq!(sheet(&mut e, &bran).hp, hp);
    // Bran attacks on its next turn: the ward ends.
    advance(&mut e);
    advance(&mut e);
    let out = act(
        &mut e,
        ActionRequest {
            actor: who(&bran),
            action_type: Some(ActionType::Attack),
            target: who(&g1),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(out.lines[1], "Bran attacks: its Sanctuary ends");
    assert!(sheet(&mut e, &bran).effects.is_empty());
}

#[test]
fn see_invisibility_cancels_an_invisible_targets_disadvantage() {
    let Some(srd) = common::srd("see_invisibility") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 6);
    let aria = caster(
        &mut e,
        "Aria",
        "wizard",
        5,
        &["Fire Bolt", "See Invisibility"],
    );
    let order = fight(
        &mut e,
        vec![pc(&aria, 0, 0, 20), monster("ogre", 1, &[(6, 0)])],
    );
    let goblin = id_of(&order, "Ogre");
    let mut g = sheet(&mut e, &goblin);
    g.conditions
        .push(tabletop_engine::character::ConditionEntry {
            by: None,
            ends_on: None,
            condition: tabletop_rules::Condition::Invisible,
            level: None,
            source: "Invisibility".into(),
            duration: None,
        });
    e.write("t", &serde_json::json!({}), |call| {
        tabletop_engine::combat::put_sheet(call, &g)
    })
    .unwrap();
    let out = cast(&mut e, &aria, "Fire Bolt", |r| r.target = who(&goblin)).unwrap();
    assert_eq!(
        out.lines[0],
        "Aria — Fire Bolt spell attack vs Ogre: d20 [10, ~~15~~] (disadvantage: target invisible) + 6 = 16 vs AC 11 — hit"
    );
    advance(&mut e);
    advance(&mut e);
    let out = cast(&mut e, &aria, "See Invisibility", |_| {}).unwrap();
    assert_eq!(
        out.headline,
        "See Invisibility (2nd level): Aria gains See Invisibility (sees invisible creatures)."
    );
    advance(&mut e);
    advance(&mut e);
    let out = cast(&mut e, &aria, "Fire Bolt", |r| r.target = who(&goblin)).unwrap();
    assert_eq!(
        out.lines[0],
        "Aria — Fire Bolt spell attack vs Ogre: d20 [15] + 6 = 21 vs AC 11 — hit"
    );
}

#[test]
fn banishment_takes_a_failed_saver_off_the_map_until_concentration_ends() {
    let Some(srd) = common::srd("banishment") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 14);
    let bran = caster(&mut e, "Bran", "cleric", 7, &["Banishment"]);
    let order = fight(
        &mut e,
        vec![pc(&bran, 5, 5, 20), monster("ogre", 1, &[(8, 5)])],
    );
    let ogre = id_of(&order, "Ogre");
    let out = cast(&mut e, &bran, "Banishment", |r| r.target = who(&ogre)).unwrap();
    assert_eq!(out.headline, "Bran casts Banishment: Ogre banished.");
    assert_eq!(
        out.lines[1..3],
        [
            "Ogre — CHA save vs Banishment: d20 [15] - 2 = 13 vs DC 14 — fail",
            "Ogre is banished from (8, 5): off the map and the initiative while Bran concentrates on Banishment"
        ]
    );
    let enc = encounter(&mut e);
    assert_eq!(enc.position_of(&ogre), None);
    assert!(enc.combatant(&ogre).unwrap().removed);
    let bran_id = bran.clone();
    e.write("concentration", &serde_json::json!({}), |call| {
        tabletop_engine::concentration::break_concentration(
            call,
            tabletop_engine::character::CharacterRef::new(Some(&bran_id), None),
            Some("hit"),
        )
    })
    .unwrap();
    let report = advance(&mut e);
    assert!(
        report
            .end_of_turn
            .iter()
            .any(|l| l == "Ogre returns at (8, 5): Bran's concentration on Banishment ended"),
        "{:?}",
        report.end_of_turn
    );
    let enc = encounter(&mut e);
    assert_eq!(
        enc.position_of(&ogre),
        Some(tabletop_grid::Position::new(8, 5))
    );
    assert!(!enc.combatant(&ogre).unwrap().removed);
}

#[test]
fn globe_of_invulnerability_keeps_out_spells_of_5th_level_or_lower_cast_from_outside() {
    let Some(srd) = common::srd("globe") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 4);
    let aria = caster(&mut e, "Aria", "wizard", 11, &["Globe of Invulnerability"]);
    let zed = caster(&mut e, "Zed", "wizard", 5, &["Fire Bolt", "Magic Missile"]);
    let mut zed_spec = pc(&zed, 12, 5, 15);
    zed_spec.side = Some(tabletop_engine::model::encounter::Side::Enemy);
    fight(&mut e, vec![pc(&aria, 5, 5, 20), zed_spec]);
    let out = cast(&mut e, &aria, "Globe of Invulnerability", |r| {
        r.force = true
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Aria casts Globe of Invulnerability: an immobile 10-ft barrier around (5, 5); spells of 5th level or lower cast from outside it have no effect on creatures inside."
    );
    advance(&mut e);
    let hp = sheet(&mut e, &aria).hp;
    let out = cast(&mut e, &zed, "Magic Missile", |r| r.target = who(&aria)).unwrap();
    assert!(
        out.lines.iter().any(|l| l
            == "Aria is inside Globe of Invulnerability (spells of 5th level or lower from outside have no effect): unaffected"),
        "{:?}",
        out.lines
    );
    assert_eq!(sheet(&mut e, &aria).hp, hp);
    // Its concentration broken, the globe falls at the next turn change.
    let aria_id = aria.clone();
    e.write("concentration", &serde_json::json!({}), |call| {
        tabletop_engine::concentration::break_concentration(
            call,
            tabletop_engine::character::CharacterRef::new(Some(&aria_id), None),
            Some("hit"),
        )
    })
    .unwrap();
    let report = advance(&mut e);
    assert!(
        report
            .end_of_turn
            .iter()
            .any(|l| l == "Globe of Invulnerability at (5, 5) ends"),
        "{:?}",
        report.end_of_turn
    );
    advance(&mut e);
    let out = cast(&mut e, &zed, "Magic Missile", |r| r.target = who(&aria)).unwrap();
    assert_eq!(
        out.headline,
        "Magic Missile (1st level): Aria takes 7 force (68 → 61 HP)."
    );
}

fn give_item(e: &mut E, to: &str, name: &str) {
    use tabletop_engine::inventory::ops::{self, GiveRequest};
    let to = to.to_string();
    e.write("manage_inventory", &serde_json::json!({}), |call| {
        ops::give(
            call,
            tabletop_engine::character::CharacterRef::new(Some(&to), None),
            GiveRequest {
                srd_name: Some(name.into()),
                ..Default::default()
            },
        )
    })
    .unwrap();
}

#[test]
fn divinations_answer_from_the_map_magic_items_creature_types_poison_and_identify() {
    let Some(srd) = common::srd("divinations") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 9);
    let wiz = caster(
        &mut e,
        "Aria",
        "wizard",
        5,
        &["Detect Magic", "Identify", "Locate Object", "Nondetection"],
    );
    let bran = caster(
        &mut e,
        "Bran",
        "cleric",
        7,
        &[
            "Detect Evil and Good",
            "Detect Poison and Disease",
            "Locate Creature",
        ],
    );
    give_item(&mut e, &bran, "Cloak of Protection");
    give_item(&mut e, &bran, "Wand of Magic Missiles");
    // Identify (1 minute, outside the fight) the wand Bran carries: its catalog properties.
    let out = cast(&mut e, &wiz, "Identify", |r| {
        r.target = who(&bran);
        r.item = Some("wand".into());
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Aria casts Identify on Wand of Magic Missiles: Wand of Magic Missiles: magic, uncommon; charges: 7 of 7 (regained: dawn, 1d6+1)."
    );
    assert_eq!(out.details["identified"]["charges"]["max"], 7);
    let order = fight(
        &mut e,
        vec![
            pc(&wiz, 5, 5, 20),
            pc(&bran, 4, 5, 19),
            monster("skeleton", 1, &[(7, 5)]),
            monster("giant-spider", 1, &[(5, 9)]),
            monster("zombie", 1, &[(5, 14)]),
        ],
    );
    let zombie = id_of(&order, "Zombie");
    let out = cast(&mut e, &wiz, "Detect Magic", |_| {}).unwrap();
    assert_eq!(
        out.headline,
        "Aria casts Detect Magic: Bran: Cloak of Protection (an item) at 5 ft; Bran: Wand of Magic Missiles (an item) at 5 ft."
    );
    assert_eq!(
        sheet(&mut e, &wiz).concentration.unwrap().spell,
        "Detect Magic"
    );
    advance(&mut e);
    // Undead within 30 ft: the skeleton (15 ft), not the zombie (45 ft); the spider is a beast.
    let out = cast(&mut e, &bran, "Detect Evil and Good", |_| {}).unwrap();
    assert_eq!(
        out.headline,
        "Bran casts Detect Evil and Good: Skeleton: undead at 15 ft."
    );
    advance(&mut e);
    advance(&mut e);
    advance(&mut e);
    advance(&mut e);
    advance(&mut e);
    let out = cast(&mut e, &bran, "Detect Poison and Disease", |_| {}).unwrap();
    assert_eq!(
        out.headline,
        "Bran casts Detect Poison and Disease: Giant Spider: a poisonous creature at 20 ft."
    );
    advance(&mut e);
    advance(&mut e);
    advance(&mut e);
    advance(&mut e);
    advance(&mut e);
    let out = cast(&mut e, &bran, "Locate Creature", |r| {
        r.target = who(&zombie)
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Bran casts Locate Creature: Zombie: south at 45 ft."
    );
    assert_eq!(out.details["detected"][0]["distanceFt"], 45);
    // Nondetection on Bran: Detect Magic no longer senses him or what he carries.
    for _ in 0..4 {
        advance(&mut e);
    }
    cast(&mut e, &wiz, "Nondetection", |r| r.target = who(&bran)).unwrap();
    for _ in 0..5 {
        advance(&mut e);
    }
    let out = cast(&mut e, &wiz, "Detect Magic", |_| {}).unwrap();
    assert_eq!(
        out.headline,
        "Aria casts Detect Magic: nothing within 30 ft."
    );
}

fn walk(e: &mut E, id: &str, x: i32, y: i32) -> tabletop_engine::combat::actions::ActionOutcome {
    act(
        e,
        ActionRequest {
            actor: who(id),
            action_type: Some(ActionType::Move),
            to: Some(tabletop_grid::Position::new(x, y)),
            ..Default::default()
        },
    )
    .unwrap()
}

#[test]
fn alarm_reports_a_creature_entering_and_a_glyph_of_warding_bursts_once_then_ends() {
    let Some(srd) = common::srd("alarm_glyph") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 9);
    let wiz = caster(&mut e, "Aria", "wizard", 5, &["Alarm", "Glyph of Warding"]);
    let order = fight(
        &mut e,
        vec![pc(&wiz, 2, 7, 20), monster("goblin", 1, &[(12, 5)])],
    );
    let gob = id_of(&order, "Goblin");
    // Both take longer than a round to cast: the DM sets the wards with force.
    let out = cast(&mut e, &wiz, "Alarm", |r| {
        r.to = Some(tabletop_grid::Position::new(6, 3));
        r.direction = Some("se".into());
        r.force = true;
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Aria casts Alarm: a zone (au1) on 16 squares from (6, 3); a creature that enters it alerts Aria."
    );
    let err = cast(&mut e, &wiz, "Glyph of Warding", |r| {
        r.to = Some(tabletop_grid::Position::new(3, 6));
        r.force = true;
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains(
            "Glyph of Warding needs damageType, one of acid, cold, fire, lightning, thunder"
        ),
        "{err}"
    );
    let out = cast(&mut e, &wiz, "Glyph of Warding", |r| {
        r.to = Some(tabletop_grid::Position::new(3, 6));
        r.damage_type = Some(tabletop_rules::DamageType::Thunder);
        r.force = true;
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Aria casts Glyph of Warding: a zone (au2) on 9 squares from (3, 6); it strikes a creature that enters it for the first time on a turn: 5d8 thunder (dex save DC 14 for half), bursting 20 ft around its origin, once: then it ends."
    );
    advance(&mut e);
    let out = walk(&mut e, &gob, 8, 5);
    assert_eq!(
        out.lines,
        ["Alarm (au1): Goblin enters the warded area; Aria is alerted"]
    );
    advance(&mut e);
    advance(&mut e);
    // Into the glyph: it bursts 20 ft around its square, catching Aria (5 ft away) too.
    let out = walk(&mut e, &gob, 4, 5);
    assert_eq!(
        out.lines,
        [
            "Glyph of Warding (au2) is triggered: it bursts 20 ft around (3, 6)",
            "Aria — Dexterity save (Glyph of Warding): d20 [20] + 2 = 22 vs DC 14 — success (natural 20)",
            "Glyph of Warding (5d8: [4, 1, 7, 5, 7] = 24): Aria takes 12 (12 thunder); 32 → 20 HP (half)",
            "Goblin — Dexterity save (Glyph of Warding): d20 [11] + 2 = 13 vs DC 14 — fail",
            "Glyph of Warding (5d8: [8, 2, 1, 7, 8] = 26): Goblin takes 26 (26 thunder); 7 → 0 HP; dies",
            "Goblin is dead; the body lies at (4, 5) (out of the initiative; revival brings it back there).",
            "Glyph of Warding (au2) is spent and ends",
        ]
    );
    assert_eq!(sheet(&mut e, &gob).hp, 0);
    let names: Vec<String> = encounter(&mut e)
        .auras
        .iter()
        .map(|a| a.name.clone())
        .collect();
    assert_eq!(names, ["Alarm"]);
}

#[test]
fn mirror_image_duplicates_take_attacks_on_the_d20_and_end_when_all_are_destroyed() {
    let Some(srd) = common::srd("mirror_image") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 9);
    let wiz = caster(&mut e, "Aria", "wizard", 5, &["Mirror Image"]);
    let order = fight(
        &mut e,
        vec![pc(&wiz, 5, 5, 20), monster("goblin", 1, &[(6, 5)])],
    );
    let gob = id_of(&order, "Goblin");
    let out = cast(&mut e, &wiz, "Mirror Image", |r| r.target = who(&wiz)).unwrap();
    assert_eq!(
        out.headline,
        "Mirror Image (2nd level): Aria gains Mirror Image (3 illusory duplicates: an attack against it may strike one instead (a d20))."
    );
    let images = |e: &mut E| {
        sheet(e, &wiz)
            .effects
            .iter()
            .find_map(|x| x.grant.as_ref()?.mirror_images)
    };
    assert_eq!(images(&mut e), Some(3));
    let mut seen = Vec::new();
    for _ in 0..8 {
        advance(&mut e);
        let out = act(
            &mut e,
            ActionRequest {
                actor: who(&gob),
                action_type: Some(ActionType::Attack),
                target: who(&wiz),
                weapon: Some("Scimitar".into()),
                ..Default::default()
            },
        )
        .unwrap();
        seen.push((out.headline.clone(), images(&mut e)));
        advance(&mut e);
    }
    let dup =
        "Goblin strikes a duplicate of Aria (AC 12): the illusion is destroyed, Aria is unharmed.";
    let want: Vec<(&str, Option<u32>)> = vec![
        (dup, Some(2)),
        (dup, Some(1)),
        // With one duplicate the d20 needs 11: these go to Aria herself.
        ("Hit! Aria takes 5 slashing (32 → 27 HP).", Some(1)),
        ("Hit! Aria takes 3 slashing (27 → 24 HP).", Some(1)),
        // The last duplicate destroyed: the spell ends, every attack is Aria's.
        (dup, None),
        ("Hit! Aria takes 3 slashing (24 → 21 HP).", None),
        ("Hit! Aria takes 3 slashing (21 → 18 HP).", None),
        ("Miss (8 vs AC 12).", None),
    ];
    let seen: Vec<(&str, Option<u32>)> = seen.iter().map(|(h, n)| (h.as_str(), *n)).collect();
    assert_eq!(seen, want);
    assert!(
        !sheet(&mut e, &wiz)
            .effects
            .iter()
            .any(|x| x.name == "Mirror Image")
    );
}

#[test]
fn maze_banishes_without_a_save_while_concentrating_and_imprisonment_holds_after_a_failed_wis_save()
{
    let Some(srd) = common::srd("maze_imprisonment") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 9);
    let wiz = caster(&mut e, "Aria", "wizard", 17, &["Maze", "Imprisonment"]);
    let order = fight(
        &mut e,
        vec![
            pc(&wiz, 5, 5, 20),
            monster("ogre", 1, &[(8, 5)]),
            monster("goblin", 1, &[(5, 8)]),
        ],
    );
    let ogre = id_of(&order, "Ogre");
    let goblin = id_of(&order, "Goblin");
    let out = cast(&mut e, &wiz, "Maze", |r| r.target = who(&goblin)).unwrap();
    assert_eq!(out.headline, "Aria casts Maze: Goblin banished.");
    assert_eq!(
        out.lines[..2],
        [
            "Aria concentrates on Maze (up to 10 min)",
            "Goblin is banished from (5, 8): off the map and the initiative while Aria concentrates on Maze"
        ]
    );
    advance(&mut e);
    advance(&mut e);
    // Imprisonment (no concentration): the ogre (WIS 7) saves or is held until dispelled.
    // A 1-minute casting: the DM allows it in the fight with force.
    let out = cast(&mut e, &wiz, "Imprisonment", |r| {
        r.target = who(&ogre);
        r.force = true;
    })
    .unwrap();
    assert_eq!(out.headline, "Aria casts Imprisonment: Ogre banished.");
    assert_eq!(
        out.lines[..2],
        [
            "Ogre — WIS save vs Imprisonment: d20 [8] - 2 = 6 vs DC 17 — fail",
            "Ogre is banished from (8, 5): off the map and the initiative until Imprisonment is dispelled"
        ]
    );
    // Aria's concentration on Maze is untouched by Imprisonment; breaking it frees the goblin
    // only.
    let id = wiz.clone();
    e.write("concentration", &serde_json::json!({}), |call| {
        tabletop_engine::concentration::break_concentration(
            call,
            tabletop_engine::character::CharacterRef::new(Some(&id), None),
            Some("hit"),
        )
    })
    .unwrap();
    advance(&mut e);
    let enc = encounter(&mut e);
    assert_eq!(
        enc.position_of(&goblin),
        Some(tabletop_grid::Position::new(5, 8))
    );
    assert_eq!(enc.position_of(&ogre), None);
    assert!(enc.combatant(&ogre).unwrap().removed);
}

// ---------------------------------------------------------------------------------------------
// Spells part B: communication on the sheet, doors, wards by creature type, plane shift.

#[test]
fn tongues_and_detect_thoughts_show_on_the_sheet_until_they_end() {
    let Some(srd) = common::srd("tongues") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 4);
    let aria = caster(&mut e, "Aria", "wizard", 5, &["Tongues", "Detect Thoughts"]);
    let bran = caster(&mut e, "Bran", "fighter", 5, &[]);
    let comm = |e: &mut E, id: &str| tabletop_engine::sheet::Sheet::of(sheet(e, id)).communication;
    assert!(comm(&mut e, &bran).is_empty());
    let out = cast(&mut e, &aria, "Tongues", |r| r.target = who(&bran)).unwrap();
    assert_eq!(
        comm(&mut e, &bran),
        vec![
            "understands any spoken language it hears; any creature that knows a language understands what it says (Tongues)"
                .to_string()
        ],
        "{:?}",
        out.lines
    );
    let fx = sheet(&mut e, &bran);
    let fx = fx.effects.iter().find(|x| x.name == "Tongues").unwrap();
    assert_eq!(
        fx.duration,
        tabletop_engine::effects::Duration::Rounds { remaining: 600 }
    );
    assert_eq!(sheet(&mut e, &aria).spell_slots.used[2], 1);
    // Detect Thoughts is held by concentration: breaking it ends the reading.
    cast(&mut e, &aria, "Detect Thoughts", |r| r.target = who(&aria)).unwrap();
    assert_eq!(
        comm(&mut e, &aria),
        vec![
            "reads the surface thoughts of a creature within 30 ft it can see (Detect Thoughts)"
                .to_string()
        ]
    );
    let id = aria.clone();
    e.write("manage_concentration", &serde_json::json!({}), |call| {
        tabletop_engine::concentration::break_concentration(
            call,
            tabletop_engine::character::CharacterRef::new(Some(&id), None),
            None,
        )
    })
    .unwrap();
    assert!(comm(&mut e, &aria).is_empty());
    assert_eq!(comm(&mut e, &bran).len(), 1);
}

fn edit_map(e: &mut E, f: impl FnOnce(&mut tabletop_engine::combat::Encounter)) {
    let mut enc = encounter(e);
    f(&mut enc);
    e.write("test", &serde_json::json!({}), |call| {
        tabletop_engine::combat::save(call, &enc)
    })
    .unwrap();
}

#[test]
fn knock_unlocks_a_locked_door_and_arcane_lock_locks_a_closed_one() {
    use tabletop_grid::{DoorState, Position};
    let Some(srd) = common::srd("knock") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 4);
    let aria = caster(&mut e, "Aria", "wizard", 5, &["Knock", "Arcane Lock"]);
    fight(
        &mut e,
        vec![pc(&aria, 5, 5, 20), monster("goblin", 1, &[(15, 15)])],
    );
    edit_map(&mut e, |enc| {
        enc.map
            .set_door(Position::new(9, 5), DoorState::Locked)
            .unwrap();
        enc.map
            .set_door(Position::new(5, 6), DoorState::Closed)
            .unwrap();
        enc.map
            .set_door(Position::new(4, 5), DoorState::Open)
            .unwrap();
    });
    let err = cast(&mut e, &aria, "Knock", |r| {
        r.to = Some(Position::new(19, 19))
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "the door at (19, 19) is 70 ft from Aria; Knock has a range of 60 feet"
    );
    let err = cast(&mut e, &aria, "Knock", |r| r.to = Some(Position::new(5, 6)))
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "the door at (5, 6) is closed, not locked: Knock has nothing to open"
    );
    let out = cast(&mut e, &aria, "Knock", |r| r.to = Some(Position::new(9, 5))).unwrap();
    assert_eq!(
        out.headline,
        "Aria casts Knock: the door at (9, 5) unlocks (closed, no longer locked); a loud knock audible 300 ft away."
    );
    assert_eq!(
        encounter(&mut e).map.door(Position::new(9, 5)),
        Some(DoorState::Closed)
    );
    assert_eq!(sheet(&mut e, &aria).spell_slots.used[1], 1);
    // Arcane Lock: touch, a closed door only.
    let err = cast(&mut e, &aria, "Arcane Lock", |r| {
        r.to = Some(Position::new(9, 5));
        r.force = true;
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "the door at (9, 5) is 20 ft from Aria; Arcane Lock has a range of Touch"
    );
    let err = cast(&mut e, &aria, "Arcane Lock", |r| {
        r.to = Some(Position::new(4, 5));
        r.force = true;
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "the door at (4, 5) is open; close it first (Arcane Lock locks a closed door)"
    );
    cast(&mut e, &aria, "Arcane Lock", |r| {
        r.to = Some(Position::new(5, 6));
        r.force = true;
    })
    .unwrap();
    assert_eq!(
        encounter(&mut e).map.door(Position::new(5, 6)),
        Some(DoorState::Locked)
    );
    assert_eq!(sheet(&mut e, &aria).spell_slots.used[1], 2);
    // The locked door now refuses to open.
    let err = act(
        &mut e,
        ActionRequest {
            actor: who(&aria),
            action_type: Some(ActionType::UseObject),
            to: Some(Position::new(5, 6)),
            ..Default::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("the door at (5, 6) is locked"), "{err}");
}

#[test]
fn forbiddance_burns_undead_that_start_their_turn_in_it_and_spares_the_living() {
    let Some(srd) = common::srd("forbiddance") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 6);
    let bran = caster(&mut e, "Bran", "cleric", 11, &["Forbiddance"]);
    let order = fight(
        &mut e,
        vec![
            pc(&bran, 5, 5, 20),
            monster("zombie", 1, &[(8, 7)]),
            monster("goblin", 1, &[(7, 8)]),
        ],
    );
    let zombie = id_of(&order, "Zombie");
    let goblin = id_of(&order, "Goblin");
    let err = cast(&mut e, &bran, "Forbiddance", |r| {
        r.to = Some(tabletop_grid::Position::new(5, 5));
        r.direction = Some("se".into());
        r.force = true;
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "damageType: Forbiddance needs damageType, one of radiant, necrotic"
    );
    let out = cast(&mut e, &bran, "Forbiddance", |r| {
        r.to = Some(tabletop_grid::Position::new(5, 5));
        r.direction = Some("se".into());
        r.force = true;
        r.damage_type = Some(tabletop_rules::DamageType::Radiant);
    })
    .unwrap();
    assert!(
        out.headline
            .starts_with("Bran casts Forbiddance: a zone (au1)"),
        "{}",
        out.headline
    );
    let z_hp = sheet(&mut e, &zombie).hp;
    let g_hp = sheet(&mut e, &goblin).hp;
    // Bran ends his turn; the zombie and goblin start theirs inside.
    let r1 = advance(&mut e);
    let r2 = advance(&mut e);
    let lines: Vec<String> = [r1, r2]
        .iter()
        .flat_map(|r| r.start_of_turn.iter().chain(r.end_of_turn.iter()))
        .cloned()
        .collect();
    assert_eq!(sheet(&mut e, &goblin).hp, g_hp);
    assert!(
        lines.iter().any(|l| l == "Goblin is unaffected by Forbiddance: it harms only celestial, elemental, fey, fiend, undead (Goblin is humanoid)"),
        "{lines:?}"
    );
    assert_eq!(
        lines[1],
        "Forbiddance (5d10: [5, 3, 5, 5, 10] = 28): Zombie takes 28 (28 radiant); 22 → 0 HP; dies"
    );
    assert_eq!(z_hp, 22);
    assert!(sheet(&mut e, &zombie).dead);
}

#[test]
fn plane_shift_sends_a_failed_saver_away_for_good() {
    let Some(srd) = common::srd("plane_shift") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 6);
    let aria = caster(&mut e, "Aria", "wizard", 13, &["Plane Shift"]);
    let order = fight(
        &mut e,
        vec![pc(&aria, 5, 5, 20), monster("ogre", 1, &[(6, 5)])],
    );
    let ogre = id_of(&order, "Ogre");
    let out = cast(&mut e, &aria, "Plane Shift", |r| r.target = who(&ogre)).unwrap();
    assert_eq!(out.headline, "Aria casts Plane Shift: Ogre banished.");
    assert_eq!(
        out.lines[..2],
        [
            "Ogre — CHA save vs Plane Shift: d20 [10] - 2 = 8 vs DC 16 — fail".to_string(),
            "Ogre is sent to another plane from (6, 5): off the map and the initiative for good (it must find its own way back)".to_string()
        ]
    );
    assert_eq!(position(&mut e, &ogre), None);
    advance(&mut e);
    advance(&mut e);
    assert_eq!(position(&mut e, &ogre), None);
}
