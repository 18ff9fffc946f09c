//! End to end: turns, death saves, managing and ending an encounter through the real server,
//! including the legacy `combat_manage` composite.

use serde_json::json;

use super::common;

use common::Session;

async fn hero(s: &Session, name: &str) {
    s.ok(
        "create_character",
        json!({"name": name, "customClass": {"name": "Fighter", "hitDie": 10}, "saves": ["str", "con"],
               "stats": {"str": 16, "dex": 12, "con": 14, "int": 10, "wis": 10, "cha": 8}}),
    )
    .await;
}

#[tokio::test]
async fn a_fight_from_first_turn_to_the_end() {
    let s = Session::start(41).await;
    hero(&s, "Aria").await;
    hero(&s, "Bram").await;
    s.ok(
        "create_encounter",
        json!({"name": "Bridge", "participants": [
            {"characterName": "Aria", "initiative": 18, "position": {"x": 1, "y": 1}},
            {"characterName": "Bram", "initiative": 12, "position": {"x": 1, "y": 3}},
            {"name": "Bandit", "hp": 11, "ac": 12, "cr": 0.125, "initiative": 15, "position": {"x": 8, "y": 8}}
        ]}),
    )
    .await;
    let a = s.ok("advance_turn", json!({})).await;
    assert!(a.text.starts_with("Round 1: Bandit's turn."), "{}", a.text);
    assert!(a.text.contains("End of Aria's turn"), "{}", a.text);
    // Aria drops to 0 HP; it is not her turn, so her death save waits unless forced.
    let a = s
        .ok(
            "update_character",
            json!({"characterName": "Aria", "damage": [{"amount": 12}]}),
        )
        .await;
    assert!(
        a.text.starts_with(
            "Aria takes 12 (12 untyped); 12 → 0 HP; falls unconscious and starts death saves."
        ),
        "{}",
        a.text
    );
    s.err(
        "roll_death_save",
        json!({"characterName": "Aria"}),
        &["Bandit's turn", "force"],
    )
    .await;
    let a = s
        .ok(
            "roll_death_save",
            json!({"characterName": "Aria", "force": true}),
        )
        .await;
    // Seed 41: the d20 shows 11; 10 or more is a success.
    assert!(
        a.text
            .contains("Aria — Death save: d20 [11] = 11 — success (1 successes, 0 failures)"),
        "{}",
        a.text
    );
    assert!(a.text.contains("Forced"), "{}", a.text);
    s.err(
        "roll_death_save",
        json!({"characterName": "Bram"}),
        &["0 HP"],
    )
    .await;
    // A wolf joins with a high initiative: the turn stays with the bandit.
    let a = s
        .ok(
            "manage_encounter",
            json!({"operation": "add_participant", "participant": {"name": "Wolf", "hp": 11, "ac": 13, "initiative": 25}}),
        )
        .await;
    assert!(a.text.contains("still Bandit's turn"), "{}", a.text);
    let a = s.ok("manage_encounter", json!({"operation": "list"})).await;
    assert!(
        a.text.contains("Bridge") && a.text.contains("4 combatants"),
        "{}",
        a.text
    );
    s.ok(
        "manage_encounter",
        json!({"operation": "remove_participant", "targetName": "Wolf"}),
    )
    .await;
    // A rest is refused mid-fight.
    s.err(
        "take_rest",
        json!({"characterName": "Bram", "type": "short"}),
        &["Bram is in active encounter enc1 and cannot rest"],
    )
    .await;
    // The legacy composite routes by action.
    let a = s.ok("combat_manage", json!({"action": "advance"})).await;
    assert!(a.text.starts_with("Round 1: Bram's turn."), "{}", a.text);
    s.err(
        "combat_manage",
        json!({"action": "fly"}),
        &["advance", "death_save"],
    )
    .await;
    // Next round: Aria's turn, with the reminder to roll.
    let a = s.ok("advance_turn", json!({})).await;
    assert!(
        a.text.starts_with("Round 2: Aria's turn (new round)."),
        "{}",
        a.text
    );
    assert!(a.text.contains("roll_death_save"), "{}", a.text);
    let a = s
        .ok(
            "combat_manage",
            json!({"action": "death_save", "characterName": "Aria"}),
        )
        .await;
    assert!(!a.text.contains("Forced"), "{}", a.text);
    let a = s
        .ok("manage_encounter", json!({"operation": "commit"}))
        .await;
    assert!(a.text.contains("Aria: HP"), "{}", a.text);
    // End: a dry run first, then for real.
    let a = s
        .ok(
            "end_encounter",
            json!({"outcome": "victory", "dryRun": true}),
        )
        .await;
    assert!(a.text.starts_with("Dry run"), "{}", a.text);
    assert!(
        a.text.contains("Would delete: ") && a.text.contains("Bandit (ch"),
        "{}",
        a.text
    );
    let a = s
        .ok(
            "end_encounter",
            json!({"outcome": "truce", "note": "the bandit surrenders"}),
        )
        .await;
    assert!(
        a.text
            .contains("ended after 2 rounds: truce: the bandit surrenders"),
        "{}",
        a.text
    );
    assert!(
        a.text.contains("Deleted: ") && a.text.contains("Bandit (ch"),
        "{}",
        a.text
    );
    s.err(
        "get_character",
        json!({"characterName": "Bandit"}),
        &["Bandit"],
    )
    .await;
    s.ok(
        "take_rest",
        json!({"characterName": "Bram", "type": "short"}),
    )
    .await;
    s.err("advance_turn", json!({}), &["no encounter is active"])
        .await;
    let a = s.ok("get_session_context", json!({})).await;
    assert!(
        a.structured["encounter"]["active"] == false,
        "{}",
        a.structured
    );
}
