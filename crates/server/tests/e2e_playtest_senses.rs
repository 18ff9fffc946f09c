//! Senses against invisibility, found applied wrongly by a play-test, end to end over the real
//! tools with an SRD-built fighter and SRD monsters whose senses are read from the SRD JSON at
//! run time: an invisible creature is "impossible to see without the aid of magic or a special
//! sense", and blindsight and truesight are such senses within their range. A giant spider
//! (blindsight 10 ft) and a couatl (truesight 120 ft) next to an invisible fighter attack it
//! without disadvantage and are attacked without advantage; the spider's blindsight also lets it
//! spoil the fighter's ranged attack from 5 ft; a giant spider 30 ft away, beyond its blindsight,
//! is attacked with the invisibility's advantage; an ankheg's tremorsense does not see.

use super::common;

use common::{Session, srd_desc, srd_record};
use serde_json::json;

use common::srd_here as srd;

fn line<'a>(text: &'a str, start: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line starting '{start}'\n---\n{text}"))
}

use common::has_line as has;

#[tokio::test]
async fn blindsight_and_truesight_perceive_an_invisible_fighter_within_their_range() {
    if !srd() {
        return;
    }
    let invisible = srd_desc("Conditions", "invisible");
    for want in [
        "an invisible creature is impossible to see without the aid of magic or a special sense.",
        "attack rolls against the creature have disadvantage, and the creature's attack rolls have advantage.",
    ] {
        assert!(invisible.contains(want), "{invisible}");
    }
    let env = srd_record("Rule-Sections", "the-environment")["desc"]
        .as_str()
        .unwrap()
        .to_string();
    for want in [
        "A creature with blindsight can perceive its surroundings without relying on sight, within a specific radius.",
        "A creature with truesight can, out to a specific range, see in normal and magical darkness, see invisible creatures and objects",
    ] {
        assert!(env.contains(want), "{env}");
    }
    assert_eq!(
        srd_record("Monsters", "giant-spider")["senses"]["blindsight"],
        "10 ft."
    );
    assert_eq!(
        srd_record("Monsters", "couatl")["senses"]["truesight"],
        "120 ft."
    );
    let ankheg = srd_record("Monsters", "ankheg")["senses"].clone();
    assert_eq!(ankheg["tremorsense"], "60 ft.", "{ankheg}");
    assert!(ankheg.get("blindsight").is_none() && ankheg.get("truesight").is_none());

    let s = Session::start(7).await;
    s.ok(
        "create_character",
        json!({"name": "Bram", "race": "human", "class": "fighter", "level": 10,
               "stats": {"str": 16, "dex": 14, "con": 14, "int": 10, "wis": 12, "cha": 10}}),
    )
    .await;
    for (item, n) in [("Longsword", 1), ("Javelin", 2)] {
        s.ok(
            "manage_inventory",
            json!({"operation": "give", "characterName": "Bram", "itemName": item, "quantity": n}),
        )
        .await;
    }
    for (item, slot) in [("Longsword", "mainhand"), ("Javelin", "offhand")] {
        s.ok(
            "manage_inventory",
            json!({"operation": "equip", "characterName": "Bram", "itemName": item, "slot": slot}),
        )
        .await;
    }
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Bram", "position": {"x": 5, "y": 5}, "initiative": 20},
            {"monster": "giant-spider", "position": {"x": 6, "y": 5}, "initiative": 15},
            {"monster": "giant-spider", "position": {"x": 5, "y": 11}, "initiative": 14},
            {"monster": "ankheg", "position": {"x": 5, "y": 3}, "initiative": 10},
            {"monster": "couatl", "position": {"x": 4, "y": 5}, "initiative": 5}],
               "terrain": {"width": 20, "height": 20}}),
    )
    .await;
    s.ok(
        "manage_condition",
        json!({"operation": "add", "characterName": "Bram", "condition": "invisible"}),
    )
    .await;
    // The spider beside Bram perceives it by blindsight: Bram's sword has no advantage.
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Bram", "actionType": "attack", "targetName": "Giant Spider", "weapon": "Longsword"}),
        )
        .await;
    assert_eq!(
        line(&a.text, "Bram attack with Longsword:"),
        "Bram attack with Longsword: d20 [20] + 7 = 27 vs AC 14 — critical hit"
    );
    has(
        &a.text,
        "Giant Spider perceives the invisible Bram (blindsight 10 ft): no advantage from its invisibility",
    );
    // The javelin at the spider 30 ft away, beyond its blindsight: the invisibility's advantage,
    // and the disadvantage of a hostile within 5 ft that perceives Bram.
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Bram", "actionType": "attack", "targetName": "Giant Spider 1", "weapon": "Javelin"}),
        )
        .await;
    assert_eq!(
        line(&a.text, "Bram attack with Javelin:"),
        "Bram attack with Javelin: d20 [3] (advantage: invisible; disadvantage: ranged attack with a hostile within 5 ft (Giant Spider) — cancel) + 7 = 10 vs AC 14 — miss"
    );
    assert!(!a.text.contains("perceives"), "{}", a.text);
    s.ok("advance_turn", json!({})).await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Giant Spider", "actionType": "attack", "targetName": "Bram", "weapon": "Bite"}),
        )
        .await;
    assert_eq!(
        line(&a.text, "Giant Spider attack with Bite:"),
        "Giant Spider attack with Bite: d20 [13] + 5 = 18 vs AC 12 — hit"
    );
    has(
        &a.text,
        "Giant Spider perceives the invisible Bram (blindsight 10 ft): no disadvantage from its invisibility",
    );
    s.ok("advance_turn", json!({})).await;
    s.ok("advance_turn", json!({})).await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Ankheg", "actionType": "attack", "targetName": "Bram", "weapon": "Bite"}),
        )
        .await;
    assert_eq!(
        line(&a.text, "Ankheg attack with Bite:"),
        "Ankheg attack with Bite: d20 [16, ~~17~~] (disadvantage: target invisible) + 5 = 21 vs AC 12 — hit"
    );
    has(
        &a.text,
        "Ankheg's tremorsense (60 ft) does not see Bram: its invisibility still applies",
    );
    s.ok("advance_turn", json!({})).await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Couatl", "actionType": "attack", "targetName": "Bram", "weapon": "Bite"}),
        )
        .await;
    assert_eq!(
        line(&a.text, "Couatl attack with Bite:"),
        "Couatl attack with Bite: d20 [7] + 8 = 15 vs AC 12 — hit"
    );
    has(
        &a.text,
        "Couatl perceives the invisible Bram (truesight 120 ft): no disadvantage from its invisibility",
    );
}
