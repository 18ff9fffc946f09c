//! Spells whose range is "Self" yet whose attack or gaze falls on another creature (Vampiric
//! Touch, Produce Flame, Eyebite): cast at a named creature, they strike that creature, never
//! the caster, within the reach their SRD text gives; Eyebite's magical sleep does not take a
//! drow (Fey Ancestry). Each SRD fact is read from the SRD JSON at run time; seeds are pinned.

use super::common;

use common::{Session, srd_record};
use serde_json::{Value, json};

use common::srd_here as srd;

fn desc(index: &str) -> String {
    let s = srd_record("Spells", index);
    assert_eq!(s["range"], "Self", "{index}");
    assert!(s.get("area_of_effect").is_none(), "{index}");
    s["desc"].to_string()
}

async fn hp(s: &Session, name: &str) -> u64 {
    let c = s.ok("get_character", json!({"characterName": name})).await;
    c.structured["character"]["hp"].as_u64().unwrap()
}

async fn caster(s: &Session, name: &str, class: &str, level: u32, spells: &[&str]) {
    s.ok(
        "create_character",
        json!({"name": name, "race": "human", "class": class, "level": level,
               "stats": {"str": 8, "dex": 14, "con": 12, "int": 18, "wis": 18, "cha": 10},
               "spells": spells}),
    )
    .await;
}

fn fight(parts: &[(&str, &str, i64, i64)]) -> Value {
    let list: Vec<Value> = parts
        .iter()
        .enumerate()
        .map(|(i, (kind, name, x, y))| {
            let init = 30 - i64::try_from(i).unwrap() * 5;
            json!({*kind: name, "position": {"x": x, "y": y}, "initiative": init})
        })
        .collect();
    json!({ "participants": list })
}

#[tokio::test]
async fn vampiric_touch_and_produce_flame_strike_the_named_creature_not_the_caster() {
    if !srd() {
        return;
    }
    assert!(
        desc("vampiric-touch").contains("melee spell attack against a creature within your reach")
    );
    assert!(desc("produce-flame").contains("hurl the flame at a creature within 30 feet"));
    let s = Session::start(4).await;
    caster(&s, "Wiz", "wizard", 5, &["vampiric touch"]).await;
    caster(&s, "Dru", "druid", 5, &["produce flame"]).await;
    s.ok(
        "create_encounter",
        fight(&[
            ("characterName", "Wiz", 0, 0),
            ("characterName", "Dru", 0, 9),
            ("monster", "ogre", 1, 1),
        ]),
    )
    .await;
    let (wiz, dru, ogre) = (
        hp(&s, "Wiz").await,
        hp(&s, "Dru").await,
        hp(&s, "Ogre").await,
    );
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Wiz", "actionType": "cast_spell", "spell": "Vampiric Touch", "targetName": "Ogre"}),
        )
        .await;
    assert!(
        a.text.contains(
            "Wiz — Vampiric Touch spell attack vs Ogre: d20 [17] + 7 = 24 vs AC 11 — hit"
        ),
        "{}",
        a.text
    );
    assert!(
        a.text.contains("Ogre takes 9 (9 necrotic); 59 → 50 HP"),
        "{}",
        a.text
    );
    assert_eq!(hp(&s, "Wiz").await, wiz, "{}", a.text);
    assert_eq!(hp(&s, "Ogre").await, ogre - 9);
    s.ok("advance_turn", json!({})).await;
    // The druid stands 8 squares (40 ft) from the ogre: beyond the flame's 30 feet.
    s.err(
        "execute_action",
        json!({"actorName": "Dru", "actionType": "cast_spell", "spell": "Produce Flame", "targetName": "Ogre"}),
        &["Ogre is 35 ft from Dru; Produce Flame has a range of Self (reaching 30 feet)"],
    )
    .await;
    s.ok(
        "execute_action",
        json!({"actorName": "Dru", "actionType": "move", "to": {"x": 1, "y": 6}}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Dru", "actionType": "cast_spell", "spell": "Produce Flame", "targetName": "Ogre"}),
        )
        .await;
    assert!(
        a.text.contains(
            "Dru — Produce Flame spell attack vs Ogre: d20 [1] + 7 = 8 vs AC 11 — miss (natural 1)"
        ),
        "{}",
        a.text
    );
    assert_eq!(hp(&s, "Dru").await, dru, "{}", a.text);
}

/// A wizard 11 casts Eyebite at `target` (a drow and a goblin stand 25 and 15 feet away).
async fn eyebite(seed: u64, target: &str) -> (Session, String) {
    let s = Session::start(seed).await;
    caster(&s, "Vex", "wizard", 11, &["eyebite"]).await;
    s.ok(
        "create_encounter",
        fight(&[
            ("characterName", "Vex", 0, 0),
            ("monster", "drow", 5, 5),
            ("monster", "goblin", 3, 0),
        ]),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Vex", "actionType": "cast_spell", "spell": "Eyebite", "targetName": target}),
        )
        .await;
    (s, a.text)
}

async fn conditions(s: &Session, name: &str) -> String {
    let c = s.ok("get_character", json!({"characterName": name})).await;
    c.structured["character"]["conditions"].to_string()
}

#[tokio::test]
async fn eyebite_puts_the_named_creature_to_sleep_but_not_a_drow() {
    if !srd() {
        return;
    }
    let text = desc("eyebite");
    assert!(
        text.contains("One creature of your choice within 60 feet of you that you can see"),
        "{text}"
    );
    assert!(
        text.contains("***Asleep.*** The target falls unconscious"),
        "{text}"
    );
    // The drow fails its save (seed 7: 7 vs DC 16) and still does not sleep.
    let (s, text) = eyebite(7, "Drow").await;
    assert!(
        text.contains("Drow — Wisdom save vs Eyebite: d20 [7] = 7 vs DC 16 — fail"),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l == "Drow can't be put to sleep by magic (Fey Ancestry); unaffected"),
        "{text}"
    );
    assert!(!conditions(&s, "Drow").await.contains("unconscious"));
    assert!(!conditions(&s, "Vex").await.contains("unconscious"));
    // A goblin that fails falls asleep; the caster stays awake.
    let (s, text) = eyebite(7, "Goblin").await;
    assert!(
        text.starts_with("Eyebite (6th level): Goblin is unconscious; Goblin falls prone."),
        "{text}"
    );
    assert!(
        text.contains("Goblin — Wisdom save vs Eyebite: d20 [7] - 1 = 6 vs DC 16 — fail"),
        "{text}"
    );
    assert!(conditions(&s, "Goblin").await.contains("unconscious"));
    assert!(!conditions(&s, "Vex").await.contains("unconscious"));
}
