//! Fighting styles and Rage in combat through execute_action, with SRD-built characters and
//! pinned dice (issue 16): Archery, Dueling, Great Weapon Fighting, Defense, Two-Weapon
//! Fighting, Protection's note; Rage's damage only on Strength melee attacks, and a Rage that
//! ends when the barbarian's turn passes without attacking or taking damage.

use super::combat_support;
use super::common;

use std::collections::BTreeMap;

use combat_support::*;
use serde_json::{Value, json};
use tabletop_engine::character::CharacterRef;
use tabletop_engine::combat::Side;
use tabletop_engine::combat::create::TerrainSpec;
use tabletop_engine::combat::turn::{AdvanceRequest, advance_turn};
use tabletop_engine::creation::{CreateRequest, create_character};
use tabletop_engine::inventory::Slot;
use tabletop_engine::inventory::ops::{GiveRequest, ItemRef, equip, give};
use tabletop_rules::Ability;

fn pc(e: &mut E, name: &str, class: &str, style: Option<&str>, s: [i64; 6]) {
    let scores: BTreeMap<Ability, i64> = Ability::ALL.iter().copied().zip(s).collect();
    common::create(
        e,
        CreateRequest {
            name: name.into(),
            race: Some("human".into()),
            class: Some(class.into()),
            level: Some(1),
            scores: Some(scores),
            fighting_style: style.map(str::to_string),
            ..Default::default()
        },
    );
}

fn wield(e: &mut E, who: &str, srd_name: &str, slot: Option<Slot>) {
    let name = srd_name.to_string();
    e.write("give", &json!({}), |call| {
        let out = give(
            call,
            CharacterRef::new(None, Some(who)),
            GiveRequest {
                item: None,
                srd_name: Some(name.clone()),
                quantity: Some(1),
                currency: None,
                silvered: false,
            },
        )?;
        let id = out.item.unwrap().id;
        equip(
            call,
            CharacterRef::new(None, Some(who)),
            ItemRef {
                id: Some(&id),
                name: None,
            },
            slot,
        )
    })
    .unwrap();
}

fn fight(e: &mut E, who: &[&str]) {
    let mut parts: Vec<_> = who
        .iter()
        .enumerate()
        .map(|(i, n)| character(n, Side::Party, [0, 2, 0][i], [0, 0, 2][i], 20 - i as i32))
        .collect();
    parts.push(at(creature("Ogre", 300, 5, vec![]), Side::Enemy, 1, 1, 1));
    start(e, parts, TerrainSpec::default());
}

fn strike(e: &mut E, who: &str, weapon: &str) -> Value {
    let out = act(
        e,
        json!({"actor": {"name": who}, "actionType": "attack", "target": {"name": "Ogre"},
               "weapon": weapon, "force": true}),
    )
    .unwrap();
    out.details["attacks"][0].clone()
}

fn modifiers(a: &Value) -> Vec<(String, i64)> {
    a["roll"]["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["source"].as_str().unwrap().to_string(),
                m["delta"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn mine(e: &mut E, name: &str) -> Vec<(String, i64)> {
    sheet(e, name)
        .effective()
        .armor_class
        .sources
        .iter()
        .map(|c| (c.source.to_string(), i64::from(c.delta)))
        .collect()
}

#[test]
fn archery_dueling_and_great_weapon_fighting_change_the_attack() {
    let Some(srd) = common::srd("styles_attack") else {
        return;
    };
    let (_d, mut e) = open(11, Some(srd));
    pc(
        &mut e,
        "Ash",
        "fighter",
        Some("archery"),
        [10, 16, 14, 10, 12, 10],
    );
    pc(
        &mut e,
        "Duel",
        "fighter",
        Some("dueling"),
        [16, 10, 14, 10, 12, 10],
    );
    pc(
        &mut e,
        "Gus",
        "fighter",
        Some("great weapon fighting"),
        [16, 10, 14, 10, 12, 10],
    );
    wield(&mut e, "Ash", "Longbow", None);
    wield(&mut e, "Duel", "Longsword", Some(Slot::Mainhand));
    wield(&mut e, "Duel", "Shield", None);
    wield(&mut e, "Gus", "Greatsword", None);
    fight(&mut e, &["Ash", "Duel", "Gus"]);
    let a = strike(&mut e, "Ash", "Longbow");
    assert_eq!(
        modifiers(&a),
        vec![
            ("DEX modifier".to_string(), 3),
            ("proficiency".to_string(), 2),
            ("Fighting Style: Archery".to_string(), 2)
        ]
    );
    edit_encounter(&mut e, |enc| enc.turn = 1);
    let a = strike(&mut e, "Duel", "Longsword");
    assert_eq!(
        a["damageRoll"]["expression"].as_str().unwrap(),
        if a["critical"].as_bool().unwrap() {
            "2d8[slashing] + 5[slashing]"
        } else {
            "1d8[slashing] + 5[slashing]"
        },
        "{a}"
    );
    edit_encounter(&mut e, |enc| enc.turn = 2);
    let a = strike(&mut e, "Gus", "Greatsword");
    assert_eq!(
        a["damageRoll"]["expression"].as_str().unwrap(),
        if a["critical"].as_bool().unwrap() {
            "4d6r<=2[slashing] + 3[slashing]"
        } else {
            "2d6r<=2[slashing] + 3[slashing]"
        },
        "{a}"
    );
    // A Dueling fighter with the off hand free holds the longsword in one hand: the style's +2
    // beats the versatile d10 (which a fighter without the style gets).
    let (_d2, mut e2) = open(11, common::srd("styles_attack"));
    pc(
        &mut e2,
        "Duel",
        "fighter",
        Some("dueling"),
        [16, 10, 14, 10, 12, 10],
    );
    pc(
        &mut e2,
        "Gus",
        "fighter",
        Some("great weapon fighting"),
        [16, 10, 14, 10, 12, 10],
    );
    wield(&mut e2, "Duel", "Longsword", Some(Slot::Mainhand));
    wield(&mut e2, "Gus", "Longsword", Some(Slot::Mainhand));
    fight(&mut e2, &["Duel", "Gus"]);
    let a = strike(&mut e2, "Duel", "Longsword");
    let expr = a["damageRoll"]["expression"].as_str().unwrap();
    assert!(
        expr == "1d8[slashing] + 5[slashing]" || expr == "2d8[slashing] + 5[slashing]",
        "{a}"
    );
    edit_encounter(&mut e2, |enc| enc.turn = 1);
    let a = strike(&mut e2, "Gus", "Longsword");
    let expr = a["damageRoll"]["expression"].as_str().unwrap();
    assert!(
        expr == "1d10r<=2[slashing] + 3[slashing]" || expr == "2d10r<=2[slashing] + 3[slashing]",
        "{a}"
    );
}

#[test]
fn defense_adds_one_ac_only_in_armor_and_protection_is_a_note() {
    let Some(srd) = common::srd("styles_defense") else {
        return;
    };
    let (_d, mut e) = open(3, Some(srd));
    pc(
        &mut e,
        "Dee",
        "fighter",
        Some("defense"),
        [16, 12, 14, 10, 12, 10],
    );
    pc(
        &mut e,
        "Pro",
        "fighter",
        Some("protection"),
        [16, 12, 14, 10, 12, 10],
    );
    // Unarmored: 10 + DEX 1, no Defense.
    assert_eq!(sheet(&mut e, "Dee").effective().armor_class.value, 11);
    wield(&mut e, "Dee", "Chain Mail", None);
    let eff = sheet(&mut e, "Dee").effective();
    assert_eq!(eff.armor_class.value, 17);
    assert_eq!(eff.armor_class.base, 16);
    assert_eq!(eff.armor_class.base_source.as_deref(), Some("chain mail"));
    assert_eq!(
        mine(&mut e, "Dee"),
        vec![("Fighting Style: Defense (wearing armor)".to_string(), 1)]
    );
    let c = sheet(&mut e, "Pro");
    assert!(
        c.features
            .contains(&"Fighting Style: Protection".to_string())
    );
    let notes: Vec<String> = c.effective().notes.iter().map(|n| n.text.clone()).collect();
    assert!(
        notes.iter().any(|n| n
            .starts_with("Protection: with a shield, a reaction imposes disadvantage")
            && n.contains("no automation, the DM adds the disadvantage")),
        "{notes:?}"
    );
    // A style the class does not offer (yet) is refused, naming the rule and the classes.
    let refuse = |e: &mut E, name: &str, class: &str, level: u32| -> String {
        e.write("create_character", &json!({}), |call| {
            create_character(
                call,
                CreateRequest {
                    name: name.into(),
                    race: Some("human".into()),
                    class: Some(class.into()),
                    level: Some(level),
                    fighting_style: Some("archery".into()),
                    ..Default::default()
                },
            )
        })
        .unwrap_err()
        .to_string()
    };
    assert_eq!(
        refuse(&mut e, "Pal", "paladin", 1),
        "the build breaks 1 rule(s): fightingStyle 'archery': no class here has the Fighting Style feature at its level (fighter 1, paladin 2, ranger 2). Fix them, or check a build first with validateOnly"
    );
    assert_eq!(
        refuse(&mut e, "Pal2", "paladin", 2),
        "the build breaks 1 rule(s): fighting style 'archery' is not a Paladin option (fightingStyle); choose: defense, dueling, great-weapon-fighting, protection. Fix them, or check a build first with validateOnly"
    );
}

#[test]
fn two_weapon_fighting_style_adds_the_modifier_to_the_off_hand() {
    let Some(srd) = common::srd("styles_twf") else {
        return;
    };
    let (_d, mut e) = open(21, Some(srd));
    pc(
        &mut e,
        "Twin",
        "fighter",
        Some("two-weapon fighting"),
        [10, 16, 12, 10, 10, 10],
    );
    wield(&mut e, "Twin", "Shortsword", Some(Slot::Mainhand));
    wield(&mut e, "Twin", "Dagger", Some(Slot::Offhand));
    fight(&mut e, &["Twin"]);
    strike(&mut e, "Twin", "Shortsword");
    let out = act(
        &mut e,
        json!({"actor": {"name": "Twin"}, "actionType": "two_weapon_attack", "target": {"name": "Ogre"}}),
    )
    .unwrap();
    let a = &out.details["attacks"][0];
    assert_eq!(a["weapon"], "Dagger");
    let expr = a["damageRoll"]["expression"].as_str().unwrap();
    assert!(
        expr == "1d4[piercing] + 3[piercing]" || expr == "2d4[piercing] + 3[piercing]",
        "{a}"
    );
}

#[test]
fn rage_damage_only_on_strength_melee_and_it_lapses_without_fighting() {
    let Some(srd) = common::srd("rage_rules") else {
        return;
    };
    let (_d, mut e) = open(5, Some(srd));
    pc(&mut e, "Ugra", "barbarian", None, [16, 14, 16, 8, 10, 10]);
    wield(&mut e, "Ugra", "Greataxe", None);
    fight(&mut e, &["Ugra"]);
    act(
        &mut e,
        json!({"actor": {"name": "Ugra"}, "actionType": "use_special_ability", "abilityName": "Rage"}),
    )
    .unwrap();
    let a = strike(&mut e, "Ugra", "Greataxe");
    let expr = a["damageRoll"]["expression"].as_str().unwrap();
    assert!(
        expr == "1d12[slashing] + 5[slashing]" || expr == "2d12[slashing] + 5[slashing]",
        "STR 3 + Rage 2: {a}"
    );
    // The bow: DEX, ranged, no Rage damage.
    wield(&mut e, "Ugra", "Shortbow", None);
    edit_encounter(&mut e, |enc| {
        for c in &mut enc.order {
            c.economy = Default::default();
        }
    });
    let a = strike(&mut e, "Ugra", "Shortbow");
    let expr = a["damageRoll"]["expression"].as_str().unwrap();
    assert!(
        expr == "1d6[piercing] + 2[piercing]" || expr == "2d6[piercing] + 2[piercing]",
        "DEX 2 only: {a}"
    );
    // It attacked this turn: the rage goes on into the next round.
    let r = e
        .write("advance_turn", &json!({}), |call| {
            advance_turn(call, &AdvanceRequest::default())
        })
        .unwrap();
    assert_eq!(
        r.end_of_turn,
        vec!["Rage on Ugra: 9 round(s) left".to_string()]
    );
    assert!(
        sheet(&mut e, "Ugra")
            .effects
            .iter()
            .any(|x| x.name == "Rage")
    );
    // The ogre's turn passes; Ugra's next turn ends with no attack and no damage taken.
    let advance = |e: &mut E| {
        e.write("advance_turn", &json!({}), |call| {
            advance_turn(call, &AdvanceRequest::default())
        })
        .unwrap()
    };
    let r = advance(&mut e);
    assert_eq!(r.current.as_deref(), Some("Ugra"));
    let r = advance(&mut e);
    assert_eq!(r.ended.as_deref(), Some("Ugra"));
    assert_eq!(
        r.end_of_turn,
        vec![
            "Rage on Ugra: 8 round(s) left".to_string(),
            "Ugra's Rage ends: no attack on a hostile creature and no damage taken since its last turn".to_string()
        ]
    );
    let ugra = sheet(&mut e, "Ugra");
    assert!(
        !ugra.effects.iter().any(|x| x.name == "Rage"),
        "{:?}",
        ugra.effects
    );
}

#[test]
fn sneak_attack_can_be_declined_and_used_later_that_turn() {
    let Some(srd) = common::srd("sneak_decline") else {
        return;
    };
    let (_d, mut e) = open(9, Some(srd));
    pc(&mut e, "Nim", "rogue", None, [10, 16, 12, 10, 12, 10]);
    pc(&mut e, "Rook", "fighter", None, [16, 12, 14, 10, 10, 8]);
    wield(&mut e, "Nim", "Shortsword", None);
    fight(&mut e, &["Nim", "Rook"]);
    let hit = |e: &mut E, sneak: Option<bool>| -> Value {
        let mut req = json!({"actor": {"name": "Nim"}, "actionType": "attack",
            "target": {"name": "Ogre"}, "weapon": "Shortsword", "bonus": 20, "force": true});
        if let Some(s) = sneak {
            req["sneakAttack"] = json!(s);
        }
        act(e, req).unwrap().details["attacks"][0].clone()
    };
    let a = hit(&mut e, Some(false));
    assert!(a["hit"].as_bool().unwrap(), "{a}");
    let lines: Vec<&str> = a["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(
        lines.contains(&"Sneak Attack declined (sneakAttack: false); still unused this turn."),
        "{lines:?}"
    );
    assert!(
        !a["damageRoll"]["expression"]
            .as_str()
            .unwrap()
            .contains("+ 1d6"),
        "{a}"
    );
    let a = hit(&mut e, None);
    let lines: Vec<&str> = a["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(
        lines.contains(&"Sneak Attack: +1d6 (Rook is within 5 ft of Ogre; once per turn)."),
        "{lines:?}"
    );
}
