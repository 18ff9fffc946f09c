//! Combat spells carried out where they bite (the `spells6a` work), through the real tools with
//! the SRD configured (skipped without TABLETOP_SRD_DIR) and seeded dice.

use super::common;
use super::spell_support;

use spell_support::*;
use tabletop_engine::combat::actions::{ActionOutcome, ActionRequest, ActionType};
use tabletop_engine::error::EngineError;
use tabletop_grid::Position;

fn strike(e: &mut E, by: &str, at: &str, weapon: &str) -> Result<ActionOutcome, EngineError> {
    act(
        e,
        ActionRequest {
            actor: who(by),
            action_type: Some(ActionType::Attack),
            target: who(at),
            weapon: Some(weapon.into()),
            ..Default::default()
        },
    )
}

fn names(e: &mut E, id: &str) -> Vec<String> {
    sheet(e, id)
        .effects
        .iter()
        .map(|x| x.name.clone())
        .collect()
}

/// The lines of an answer that are not the usual bookkeeping (components, slots, DM notes).
fn told(out: &ActionOutcome) -> Vec<String> {
    out.lines
        .iter()
        .filter(|l| {
            !l.starts_with("components")
                && !l.contains("slot spent")
                && !l.starts_with("left to the DM")
        })
        .cloned()
        .collect()
}

#[test]
fn suggestion_ends_when_its_target_takes_damage_and_charm_immune_creatures_ignore_it() {
    let Some(srd) = common::srd("c6_suggestion") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 1);
    let wiz = caster(&mut e, "Wren", "wizard", 5, &["Suggestion"]);
    let tor = caster(&mut e, "Tor", "fighter", 5, &[]);
    let order = fight(
        &mut e,
        vec![
            pc(&wiz, 5, 5, 20),
            pc(&tor, 7, 5, 15),
            monster("goblin", 1, &[(8, 5)]),
            monster("ghoul", 1, &[(5, 8)]),
        ],
    );
    let gob = id_of(&order, "Goblin");
    let ghoul = id_of(&order, "Ghoul");
    let out = cast(&mut e, &wiz, "Suggestion", |r| r.target = who(&ghoul)).unwrap();
    assert_eq!(
        told(&out),
        vec![
            "Wren concentrates on Suggestion (up to 8 h)",
            "Ghoul is unaffected: it can't be charmed, so Suggestion has no hold on it",
            // Nothing held: the concentration ends rather than hold on no one.
            "Wren's concentration on Suggestion ends (no target was affected, so it holds nothing)"
        ]
    );
    advance(&mut e);
    advance(&mut e);
    advance(&mut e);
    advance(&mut e);
    let out = cast(&mut e, &wiz, "Suggestion", |r| r.target = who(&gob)).unwrap();
    assert_eq!(
        told(&out),
        vec![
            // The first casting held nothing, so this one begins the concentration anew.
            "Wren concentrates on Suggestion (up to 8 h)",
            "Goblin — Wisdom save vs Suggestion: d20 [3] - 1 = 2 vs DC 14 — fail",
            "Goblin gains Suggestion (pursues the suggested course of activity; ends if it takes damage)"
        ]
    );
    assert_eq!(names(&mut e, &gob), vec!["Suggestion"]);
    advance(&mut e);
    let out = strike(&mut e, &tor, &gob, "unarmed strike").unwrap();
    assert_eq!(
        out.lines,
        vec![
            "Tor attack with Unarmed strike: d20 [15] + 3 = 18 vs AC 15 — hit",
            "Damage: 1[bludgeoning]: 1 bludgeoning = 1 (bludgeoning 1)",
            "Goblin's Suggestion ends: it took damage",
            "Goblin takes 1 (1 bludgeoning); 7 → 6 HP"
        ]
    );
    assert!(names(&mut e, &gob).is_empty());
}

#[test]
fn mass_suggestion_holds_twelve_creatures_for_a_day_without_concentration() {
    let Some(srd) = common::srd("c6_mass_suggestion") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 8);
    let wiz = caster(&mut e, "Wren", "wizard", 11, &["Mass Suggestion"]);
    let order = fight(
        &mut e,
        vec![pc(&wiz, 5, 5, 20), monster("goblin", 2, &[(8, 5), (9, 5)])],
    );
    let (g1, g2) = (id_of(&order, "Goblin 1"), id_of(&order, "Goblin 2"));
    let out = cast(&mut e, &wiz, "Mass Suggestion", |r| {
        r.targets = vec![who(&g1), who(&g2)]
    })
    .unwrap();
    assert_eq!(
        told(&out),
        vec![
            "Goblin 1 — Wisdom save vs Mass Suggestion: d20 [13] - 1 = 12 vs DC 15 — fail",
            "Goblin 1 gains Mass Suggestion (pursues the suggested course of activity; ends if it takes damage)",
            "Goblin 2 — Wisdom save vs Mass Suggestion: d20 [3] - 1 = 2 vs DC 15 — fail",
            "Goblin 2 gains Mass Suggestion (pursues the suggested course of activity; ends if it takes damage)"
        ]
    );
    let g = sheet(&mut e, &g1);
    assert_eq!(
        format!("{:?}", g.effects[0].duration),
        "Rounds { remaining: 14400 }"
    );
    assert!(sheet(&mut e, &wiz).concentration.is_none());
}

#[test]
fn blink_rolls_at_the_end_of_the_casters_turn_and_the_ethereal_caster_cannot_be_attacked() {
    let Some(srd) = common::srd("c6_blink") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 2);
    let wiz = caster(&mut e, "Wren", "wizard", 5, &["Blink"]);
    let order = fight(
        &mut e,
        vec![pc(&wiz, 5, 5, 20), monster("goblin", 1, &[(6, 5)])],
    );
    let gob = id_of(&order, "Goblin");
    let out = cast(&mut e, &wiz, "Blink", |_| {}).unwrap();
    assert_eq!(
        out.headline,
        "Blink (3rd level): Wren gains Blink (a d20 at the end of each of its turns: on 11+ it is on the Ethereal Plane until the start of its next turn)."
    );
    let r = advance(&mut e);
    assert_eq!(
        r.end_of_turn,
        vec![
            "Blink on Wren: 9 round(s) left",
            "Blink: Wren rolls 1d20: [13] = 13 — it vanishes to the Ethereal Plane until the start of its next turn"
        ]
    );
    let err = strike(&mut e, &gob, &wiz, "Scimitar")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "Wren is on the Ethereal Plane (Blink) until the start of its next turn: it cannot be attacked or affected from here (pass force: true to override as the game master)"
    );
    let r = advance(&mut e);
    assert_eq!(
        r.start_of_turn,
        vec!["Ethereal (Blink) on Wren ends (duration over)"]
    );
    assert_eq!(names(&mut e, &wiz), vec!["Blink"]);
    let r = advance(&mut e);
    assert_eq!(
        r.end_of_turn,
        vec![
            "Blink on Wren: 8 round(s) left",
            "Blink: Wren rolls 1d20: [1] = 1 (natural 1) — it stays on this plane"
        ]
    );
}

#[test]
fn confusion_rolls_a_d10_at_the_start_of_each_turn_and_spends_the_turn_to_match() {
    let Some(srd) = common::srd("c6_confusion") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let wiz = caster(&mut e, "Wren", "wizard", 9, &["Confusion"]);
    let order = fight(
        &mut e,
        vec![
            pc(&wiz, 5, 5, 20),
            monster("goblin", 2, &[(12, 12), (13, 12)]),
        ],
    );
    let (g1, g2) = (id_of(&order, "Goblin 1"), id_of(&order, "Goblin 2"));
    let out = cast(&mut e, &wiz, "Confusion", |r| {
        r.to = Some(Position::new(12, 12))
    })
    .unwrap();
    assert_eq!(
        told(&out),
        vec![
            "Wren concentrates on Confusion (up to 1 min)",
            "Goblin 1 — Wisdom save vs Confusion: d20 [1] - 1 = 0 vs DC 15 — fail (natural 1)",
            "Goblin 1 gains Confusion (a d10 at the start of each of its turns decides what it does; it can't take reactions)",
            "Goblin 2 — Wisdom save vs Confusion: d20 [8] - 1 = 7 vs DC 15 — fail",
            "Goblin 2 gains Confusion (a d10 at the start of each of its turns decides what it does; it can't take reactions)"
        ]
    );
    let r = advance(&mut e);
    assert_eq!(
        r.start_of_turn,
        vec![
            "Confusion: Goblin 1 rolls 1d10: [7] = 7 — it must use its action to make a melee attack against Goblin 2 (random among those within its reach) and doesn't move; it can't take reactions"
        ]
    );
    let enc = encounter(&mut e);
    let ec = &enc.combatant(&g1).unwrap().economy;
    assert_eq!(
        (ec.action, ec.bonus_action, ec.reaction, ec.movement_used_ft),
        (false, true, true, 30)
    );
    let r = advance(&mut e);
    assert_eq!(
        r.end_of_turn,
        vec!["Goblin 1 — Wisdom save (ends Confusion): d20 [2] - 1 = 1 vs DC 15 — fail"]
    );
    assert_eq!(
        r.start_of_turn,
        vec![
            "Confusion: Goblin 2 rolls 1d10: [9] = 9 — it can act and move normally this turn; it can't take reactions"
        ]
    );
    let enc = encounter(&mut e);
    let ec = &enc.combatant(&g2).unwrap().economy;
    assert_eq!(
        (ec.action, ec.bonus_action, ec.reaction, ec.movement_used_ft),
        (false, false, true, 0)
    );
}

#[test]
fn ray_of_enfeeblement_halves_the_targets_strength_weapon_damage_until_a_con_save() {
    let Some(srd) = common::srd("c6_ray") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 9);
    let wiz = caster(&mut e, "Wren", "wizard", 5, &["Ray of Enfeeblement"]);
    let tor = caster(&mut e, "Tor", "fighter", 5, &[]);
    let order = fight(
        &mut e,
        vec![
            pc(&wiz, 5, 5, 20),
            pc(&tor, 7, 5, 15),
            monster("ogre", 1, &[(8, 5)]),
        ],
    );
    let ogre = id_of(&order, "Ogre");
    let out = cast(&mut e, &wiz, "Ray of Enfeeblement", |r| {
        r.target = who(&ogre)
    })
    .unwrap();
    assert_eq!(
        told(&out),
        vec![
            "Wren concentrates on Ray of Enfeeblement (up to 1 min)",
            "Wren — Ray of Enfeeblement spell attack vs Ogre: d20 [8] + 6 = 14 vs AC 11 — hit",
            "Ogre gains Ray of Enfeeblement (its weapon attacks that use Strength deal half damage)"
        ]
    );
    advance(&mut e);
    advance(&mut e);
    let out = act(
        &mut e,
        ActionRequest {
            actor: who(&ogre),
            action_type: Some(ActionType::Attack),
            target: who(&tor),
            weapon: Some("Greatclub".into()),
            advantage: true,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(
        out.lines,
        vec![
            "Ogre attack with Greatclub: d20 [17, ~~15~~] (advantage: granted by the game master) + 6 = 23 vs AC 12 — hit",
            "Damage: (2d8 + 4)[bludgeoning]: ([5, 7] + 4) bludgeoning = 16 (bludgeoning 16)",
            "Ray of Enfeeblement: Ogre's Strength weapon attack deals half damage (16 → 8)",
            "Tor takes 8 (8 bludgeoning); 44 → 36 HP"
        ]
    );
    let r = advance(&mut e);
    assert_eq!(
        r.end_of_turn,
        vec![
            "Ogre — Constitution save (ends Ray of Enfeeblement): d20 [11] + 3 = 14 vs DC 14 — success; Ray of Enfeeblement ends",
            // The spell has ended on its only target: the caster concentrates on nothing.
            "Wren's concentration on Ray of Enfeeblement ends (the spell has ended on every creature it held)"
        ]
    );
}

#[test]
fn enlarge_adds_a_d4_to_an_allys_hits_without_a_save_and_reduce_takes_one_off_a_foes() {
    let Some(srd) = common::srd("c6_enlarge") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 9);
    let wiz = caster(&mut e, "Wren", "wizard", 9, &["Enlarge/Reduce"]);
    let tor = caster(&mut e, "Tor", "fighter", 5, &[]);
    let order = fight(
        &mut e,
        vec![
            pc(&wiz, 5, 5, 20),
            pc(&tor, 7, 5, 15),
            monster("ogre", 1, &[(8, 5)]),
        ],
    );
    let ogre = id_of(&order, "Ogre");
    let out = cast(&mut e, &wiz, "Enlarge/Reduce", |r| r.target = who(&tor)).unwrap();
    assert_eq!(
        told(&out),
        vec![
            "Wren concentrates on Enlarge/Reduce (up to 1 min)",
            "Tor gains Enlarge/Reduce (advantage on STR checks, advantage on STR saves, size +1 category, enlarged: one size larger, weapon hits deal 1d4 more)",
            // The ogre stands where Tor would grow: the token says so.
            "Tor is large now but its token stays medium: no room where it stands (cannot place large creature 'ch2' at (8, 5): the square is occupied by 'ch3'; choose a free square (only tiny creatures may share)); move it to open ground"
        ]
    );
    advance(&mut e);
    let out = act(
        &mut e,
        ActionRequest {
            actor: who(&tor),
            action_type: Some(ActionType::Attack),
            target: who(&ogre),
            weapon: Some("unarmed strike".into()),
            advantage: true,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(
        out.lines,
        vec![
            "Tor attack with Unarmed strike: d20 [~~8~~, 17] (advantage: granted by the game master) + 3 = 20 vs AC 11 — hit",
            "Enlarge/Reduce: +1d4 on this hit.",
            "Damage: 1[bludgeoning] + 1d4[bludgeoning]: 1 bludgeoning + [3] bludgeoning = 4 (bludgeoning 4)",
            "Ogre takes 4 (4 bludgeoning); 59 → 55 HP"
        ]
    );
    advance(&mut e);
    advance(&mut e);
    let out = cast(&mut e, &wiz, "Enlarge/Reduce", |r| {
        r.target = who(&ogre);
        r.description = Some("reduce".into());
    })
    .unwrap();
    assert_eq!(
        told(&out),
        vec![
            "Ogre — Constitution save vs Enlarge/Reduce: d20 [5] + 3 = 8 vs DC 15 — fail",
            "Ogre gains Enlarge/Reduce (disadvantage on STR checks, disadvantage on STR saves, size -1 category, reduced: one size smaller, weapon hits deal 1d4 less (not below 1))",
            "Ogre is medium now: its token takes 1×1 squares from (8, 5)"
        ]
    );
    advance(&mut e);
    advance(&mut e);
    let out = strike(&mut e, &ogre, &tor, "Greatclub").unwrap();
    assert_eq!(
        out.lines,
        vec![
            "Ogre attack with Greatclub: d20 [11] + 6 = 17 vs AC 12 — hit",
            "Damage: (2d8 + 4)[bludgeoning]: ([7, 8] + 4) bludgeoning = 19 (bludgeoning 19)",
            "Enlarge/Reduce: Ogre is reduced, its weapon deals 2 less (1d4: [2] = 2)",
            "Tor takes 17 (17 bludgeoning); 44 → 27 HP"
        ]
    );
}

#[test]
fn resilient_sphere_refuses_attacks_into_and_out_of_it_and_halves_the_speed() {
    let Some(srd) = common::srd("c6_sphere") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 1);
    let wiz = caster(&mut e, "Wren", "wizard", 9, &["Resilient Sphere"]);
    let tor = caster(&mut e, "Tor", "fighter", 5, &[]);
    let order = fight(
        &mut e,
        vec![
            pc(&wiz, 5, 5, 20),
            pc(&tor, 7, 5, 15),
            monster("goblin", 1, &[(6, 6)]),
        ],
    );
    let gob = id_of(&order, "Goblin");
    let speed = sheet(&mut e, &gob).effective().speed.value;
    let out = cast(&mut e, &wiz, "Resilient Sphere", |r| r.target = who(&gob)).unwrap();
    assert_eq!(
        told(&out),
        vec![
            "Wren concentrates on Resilient Sphere (up to 1 min)",
            "Goblin — Dexterity save vs Resilient Sphere: d20 [6] + 2 = 8 vs DC 15 — fail",
            "Goblin gains Resilient Sphere (speed halved, enclosed in a sphere of force: no attack or spell passes in or out)"
        ]
    );
    assert_eq!(
        (speed, sheet(&mut e, &gob).effective().speed.value),
        (30, 15)
    );
    advance(&mut e);
    let err = strike(&mut e, &tor, &gob, "unarmed strike")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "Goblin is enclosed in a Resilient Sphere: nothing passes into the sphere (pass force: true to override as the game master)"
    );
    advance(&mut e);
    let err = strike(&mut e, &gob, &wiz, "Scimitar")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "Goblin is enclosed in a Resilient Sphere: nothing passes out of the sphere (pass force: true to override as the game master)"
    );
}

fn arm(e: &mut E, id: &str, srd_name: &str) {
    use tabletop_engine::character::CharacterRef;
    use tabletop_engine::inventory::ops::{GiveRequest, ItemRef, equip, give};
    e.write("give", &serde_json::json!({}), |call| {
        give(
            call,
            CharacterRef::new(Some(id), None),
            GiveRequest {
                item: None,
                srd_name: Some(srd_name.into()),
                quantity: Some(1),
                currency: None,
                silvered: false,
            },
        )?;
        equip(
            call,
            CharacterRef::new(Some(id), None),
            ItemRef {
                id: None,
                name: Some(srd_name),
            },
            None,
        )
    })
    .unwrap();
}

#[test]
fn shillelagh_makes_the_club_attack_with_wisdom_for_a_d8_and_magical() {
    let Some(srd) = common::srd("c6_shillelagh") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 5);
    let dara = caster(&mut e, "Dara", "druid", 5, &["Shillelagh"]);
    arm(&mut e, &dara, "Club");
    let order = fight(
        &mut e,
        vec![pc(&dara, 5, 5, 20), monster("wight", 1, &[(6, 5)])],
    );
    let wight = id_of(&order, "Wight");
    let out = strike(&mut e, &dara, &wight, "Club").unwrap();
    assert_eq!(
        out.lines,
        vec![
            "Dara attack with Club: d20 [11] + 3 = 14 vs AC 14 — hit",
            "Damage: 1d4[bludgeoning]: [3] bludgeoning = 3 (bludgeoning 3)",
            "Wight is resistant to nonmagical bludgeoning (3 → 1)",
            "Wight takes 1 (1 bludgeoning); 45 → 44 HP"
        ]
    );
    advance(&mut e);
    advance(&mut e);
    let out = cast(&mut e, &dara, "Shillelagh", |r| r.target = who(&dara)).unwrap();
    assert_eq!(
        out.headline,
        "Shillelagh (cantrip): Dara gains Shillelagh (its club or quarterstaff attacks with its spellcasting ability, deals 1d8 and is magical)."
    );
    let out = strike(&mut e, &dara, &wight, "Club").unwrap();
    assert_eq!(
        out.lines,
        vec![
            "Dara attack with Club: d20 [18] + 6 = 24 vs AC 14 — hit",
            "Damage: 1d8[bludgeoning] + 3[bludgeoning]: [7] bludgeoning + 3 bludgeoning = 10 (bludgeoning 10)",
            "Wight takes 10 (10 bludgeoning); 44 → 34 HP"
        ]
    );
}

#[test]
fn heat_metal_burns_on_the_cast_and_again_as_a_bonus_action_without_a_slot() {
    let Some(srd) = common::srd("c6_heat_metal") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 5);
    let dara = caster(&mut e, "Dara", "druid", 5, &["Heat Metal"]);
    let order = fight(
        &mut e,
        vec![pc(&dara, 5, 5, 20), monster("ogre", 1, &[(8, 5)])],
    );
    let ogre = id_of(&order, "Ogre");
    let out = cast(&mut e, &dara, "Heat Metal", |r| r.target = who(&ogre)).unwrap();
    assert_eq!(
        out.headline,
        "Heat Metal (2nd level): Ogre takes 14 fire (59 → 45 HP)."
    );
    assert_eq!(
        told(&out),
        vec![
            "Dara concentrates on Heat Metal (up to 1 min)",
            "Heat Metal lasts up to 1 minute: on later turns cast_spell Heat Metal again attacks as a bonus action without a slot",
            "Heat Metal damage: 2d8: [7, 7] = 14",
            "Ogre takes 14 (14 fire); 59 → 45 HP"
        ]
    );
    advance(&mut e);
    advance(&mut e);
    let out = cast(&mut e, &dara, "Heat Metal", |r| r.target = who(&ogre)).unwrap();
    assert_eq!(
        (out.headline.as_str(), out.cost),
        (
            "Heat Metal (again) (2nd level): Ogre takes 9 fire (45 → 36 HP).",
            Some(tabletop_engine::model::encounter::ActionCost::BonusAction)
        )
    );
    assert_eq!(sheet(&mut e, &dara).spell_slots.used[1], 1);
}
