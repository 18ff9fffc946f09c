//! Rules of a form worn by a spell, found applied wrongly by a play-test, end to end over the real
//! tools with SRD-built characters and SRD beasts, the SRD wording read from the JSON at run time:
//! when a Polymorph form drops to 0 HP the creature reverts, the excess damage carries over with
//! its type (so the normal form's resistance applies), the spell ends (the caster's concentration
//! with it) and the token returns to the normal form's size; by an attack's damage and by
//! `update_character` alike.

use super::common;

use common::{Session, srd_desc, srd_record};
use serde_json::json;

use common::srd_here as srd;

use common::has_line as has;

#[tokio::test]
async fn a_polymorph_form_at_0_hp_reverts_carries_typed_damage_and_ends_the_spell() {
    if !srd() {
        return;
    }
    let poly = srd_desc("Spells", "polymorph");
    for want in [
        "the transformation lasts for the duration, or until the target drops to 0 hit points or dies.",
        "if it reverts as a result of dropping to 0 hit points, any excess damage carries over to its normal form.",
    ] {
        assert!(poly.contains(want), "{poly}");
    }
    assert_eq!(
        srd_desc("Traits", "hellish-resistance"),
        "you have resistance to fire damage."
    );
    let tiefling = srd_record("Races", "tiefling");
    assert!(
        tiefling["traits"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["index"] == "hellish-resistance"),
        "{tiefling}"
    );
    for (beast, hp) in [("brown-bear", 34), ("dire-wolf", 37)] {
        let m = srd_record("Monsters", beast);
        assert_eq!(m["size"], "Large", "{m}");
        assert_eq!(m["hit_points"], hp, "{m}");
        assert_eq!(m["type"], "beast", "{m}");
        assert!(m["challenge_rating"].as_f64().unwrap() <= 5.0, "{m}");
    }
    let s = Session::start(5).await;
    s.ok(
        "create_character",
        json!({"name": "Wiz", "race": "human", "class": "wizard", "level": 9,
               "stats": {"str": 8, "dex": 14, "con": 14, "int": 18, "wis": 12, "cha": 10},
               "spells": ["fire bolt", "polymorph", "shield"]}),
    )
    .await;
    s.ok(
        "create_character",
        json!({"name": "Tef", "race": "tiefling", "class": "fighter", "level": 5,
               "stats": {"str": 16, "dex": 14, "con": 14, "int": 10, "wis": 12, "cha": 10}}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Wiz", "position": {"x": 2, "y": 5}, "initiative": 20},
            {"characterName": "Tef", "position": {"x": 4, "y": 5}, "initiative": 15},
            {"monster": "goblin", "position": {"x": 12, "y": 5}, "initiative": 5}],
               "terrain": {"width": 20, "height": 20}}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Wiz", "actionType": "cast_spell", "spell": "polymorph",
                   "targetName": "Tef", "creature": "brown bear"}),
        )
        .await;
    has(&a.text, "Wiz concentrates on Polymorph (up to 1 h)");
    has(
        &a.text,
        "Tef is large now: its token takes 2×2 squares from (4, 5)",
    );
    // 44 fire on a 34 HP bear: 10 fire carries over, halved by the tiefling's resistance.
    let a = s
        .ok(
            "execute_action",
            json!({"actionType": "damage", "targetName": "Tef", "amount": "44", "damageType": "fire"}),
        )
        .await;
    has(
        &a.text,
        "Tef (Brown Bear form) takes 44: the form drops to 0 HP (34 → 0)",
    );
    has(
        &a.text,
        "Tef reverts from Brown Bear form to its normal form (its form dropped to 0 HP): 44/44 HP",
    );
    has(
        &a.text,
        "10 damage carries over to Tef's normal form (10 fire)",
    );
    has(
        &a.text,
        "Tef takes 5 (fire 10 → 5, resisted: Hellish Resistance (tiefling)); 44 → 39 HP",
    );
    has(
        &a.text,
        "Wiz's concentration on Polymorph ends (the form it held has ended)",
    );
    has(
        &a.text,
        "Tef is medium now: its token takes 1×1 squares from (4, 5)",
    );
    let c = s
        .ok(
            "manage_concentration",
            json!({"operation": "get", "characterName": "Wiz"}),
        )
        .await;
    assert_eq!(c.text.trim(), "Wiz is not concentrating.", "{}", c.text);

    // Next round, another Large beast, and the damage through update_character: fire and cold
    // past the form's 37 HP carry over each with its type.
    for _ in 0..3 {
        s.ok("advance_turn", json!({})).await;
    }
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Wiz", "actionType": "cast_spell", "spell": "polymorph",
                   "targetName": "Tef", "creature": "dire wolf"}),
        )
        .await;
    has(
        &a.text,
        "Tef is large now: its token takes 2×2 squares from (4, 5)",
    );
    let u = s
        .ok(
            "update_character",
            json!({"characterName": "Tef",
                   "damage": [{"amount": 40, "type": "fire"}, {"amount": 4, "type": "cold"}]}),
        )
        .await;
    let first = u.text.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        "Tef (Dire Wolf form) takes 44: the form drops to 0 HP (37 → 0). \
         Tef reverts from Dire Wolf form to its normal form (its form dropped to 0 HP): 39/44 HP. \
         7 damage carries over to Tef's normal form (3 fire + 4 cold). \
         Tef takes 5 (fire 3 → 1, resisted: Hellish Resistance (tiefling); 4 cold); 39 → 34 HP. \
         Wiz's concentration on Polymorph ends (the form it held has ended). \
         Tef is medium now: its token takes 1×1 squares from (4, 5).",
        "{}",
        u.text
    );
    let c = s
        .ok(
            "manage_concentration",
            json!({"operation": "get", "characterName": "Wiz"}),
        )
        .await;
    assert_eq!(c.text.trim(), "Wiz is not concentrating.", "{}", c.text);
    // The square beside Tef's is free again: its token is one square.
    s.ok("advance_turn", json!({})).await;
    let m = s
        .ok(
            "execute_action",
            json!({"actorName": "Tef", "actionType": "move", "to": {"x": 5, "y": 6}}),
        )
        .await;
    assert!(m.text.starts_with("Tef moves"), "{}", m.text);
}
