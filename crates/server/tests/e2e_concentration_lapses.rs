//! Concentration that can no longer be held ends, whatever path took it away: a caster a spell
//! held (Hold Person) or put to sleep is incapacitated and stops concentrating, and what it held
//! up ends with it; a spell whose only target has saved against it holds nothing and ends.
//! SRD facts are read from the SRD JSON at run time; seeds are pinned.

use super::common;

use common::{Session, srd_desc, srd_record};
use serde_json::{Value, json};

use common::srd_here as srd;

async fn sheet(s: &Session, name: &str) -> Value {
    s.ok("get_character", json!({"characterName": name}))
        .await
        .structured["character"]
        .clone()
}

#[tokio::test]
async fn a_held_caster_stops_concentrating_and_its_heroism_ends() {
    if !srd() {
        return;
    }
    let rule = srd_record("Rule-Sections", "casting-a-spell")["desc"]
        .as_str()
        .unwrap()
        .to_lowercase();
    assert!(
        rule.contains("you lose concentration on a spell if you are incapacitated or if you die"),
        "{rule}"
    );
    let s = Session::start(4).await;
    s.ok(
        "create_character",
        json!({"name": "Lyra", "race": "half-elf", "classes": [{"class": "bard", "level": 4, "subclass": "lore"}],
               "stats": {"str": 8, "dex": 14, "con": 14, "int": 10, "wis": 12, "cha": 15},
               "abilityChoices": ["dex", "con"], "spells": ["heroism", "hold-person"]}),
    )
    .await;
    s.ok(
        "create_character",
        json!({"name": "Thorin", "race": "dwarf", "subrace": "hill-dwarf",
               "classes": [{"class": "cleric", "level": 5, "subclass": "life"}],
               "stats": {"str": 14, "dex": 10, "con": 14, "int": 10, "wis": 15, "cha": 8},
               "spells": ["hold-person"]}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Lyra", "position": {"x": 2, "y": 2}, "initiative": 25},
            {"characterName": "Thorin", "side": "enemy", "position": {"x": 3, "y": 2}, "initiative": 20}]}),
    )
    .await;
    s.ok(
        "manage_encounter",
        json!({"operation": "set_reaction_policy", "reactionPolicy": "never", "targetName": "Lyra"}),
    )
    .await;
    s.ok(
        "execute_action",
        json!({"actorName": "Lyra", "actionType": "cast_spell", "spell": "Heroism", "targetName": "Lyra"}),
    )
    .await;
    s.ok("advance_turn", json!({})).await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Thorin", "actionType": "cast_spell", "spell": "Hold Person", "targetName": "Lyra"}),
        )
        .await;
    assert!(
        a.text
            .contains("Lyra — Wisdom save vs Hold Person: d20 [6] + 1 = 7 vs DC 14 — fail"),
        "{}",
        a.text
    );
    assert!(
        a.text.lines().any(|l| l
            == "Lyra's concentration on Heroism ends (incapacitated (paralyzed)); removed: Heroism on Lyra"),
        "{}",
        a.text
    );
    let lyra = sheet(&s, "Lyra").await;
    assert!(lyra["concentration"].is_null(), "{lyra}");
    assert!(!lyra["effects"].to_string().contains("Heroism"), "{lyra}");
    // Her turn starts paralyzed, and Heroism no longer grants temporary hit points.
    let a = s.ok("advance_turn", json!({})).await;
    assert!(
        a.text
            .contains("! Lyra is incapacitated and can take no actions or reactions this turn"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("temporary HP (Heroism)"), "{}", a.text);
    assert_eq!(sheet(&s, "Lyra").await["tempHp"], 0);
}

#[tokio::test]
async fn hold_person_ends_once_its_only_target_has_saved() {
    if !srd() {
        return;
    }
    let text = srd_desc("Spells", "hold-person");
    assert!(
        text.contains("on a success, the spell ends on the target"),
        "{text}"
    );
    let s = Session::start(7).await;
    s.ok(
        "create_character",
        json!({"name": "Mal", "race": "tiefling", "classes": [{"class": "warlock", "level": 5, "subclass": "fiend"}],
               "stats": {"str": 8, "dex": 14, "con": 14, "int": 10, "wis": 12, "cha": 15},
               "spells": ["eldritch-blast", "hold-person"]}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Mal", "position": {"x": 2, "y": 2}, "initiative": 25},
            {"monster": "bandit-captain", "position": {"x": 6, "y": 6}, "initiative": 9}]}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Mal", "actionType": "cast_spell", "spell": "Hold Person", "targetName": "Bandit Captain"}),
        )
        .await;
    assert!(
        a.text.contains(
            "Bandit Captain — Wisdom save vs Hold Person: d20 [5] + 2 = 7 vs DC 14 — fail"
        ),
        "{}",
        a.text
    );
    // The captain fails its first repeated save and makes the second (round 2).
    let mut ends = String::new();
    for _ in 0..4 {
        let a = s.ok("advance_turn", json!({})).await;
        if a.text.contains("paralyzed ends") {
            ends = a.text;
            break;
        }
        // While it is held, the warlock still concentrates.
        assert!(!sheet(&s, "Mal").await["concentration"].is_null());
    }
    assert!(
        ends.contains("- Bandit Captain — Wisdom save (ends paralyzed): d20 [19] + 2 = 21 vs DC 14 — success; paralyzed ends"),
        "{ends}"
    );
    assert!(
        ends.lines().any(|l| l
            == "- Mal's concentration on Hold Person ends (the spell has ended on every creature it held)"),
        "{ends}"
    );
    assert!(sheet(&s, "Mal").await["concentration"].is_null());
}
