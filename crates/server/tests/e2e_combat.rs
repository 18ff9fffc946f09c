//! End to end over the real binary: a fight through create_encounter and execute_action, with
//! the engine rolling and applying attacks, movement and the game master's damage.

use serde_json::json;

use super::common;

use common::Session;

#[tokio::test]
async fn attack_move_and_damage_through_the_server() {
    let s = Session::start(17).await;
    s.ok(
        "create_encounter",
        json!({"name": "Bridge", "participants": [
            {"name": "Hero", "hp": 30, "ac": 14, "side": "party", "initiative": 20,
             "position": {"x": 2, "y": 2},
             "attacks": [{"name": "Sword", "bonus": 20, "damage": "50", "damageType": "slashing"}]},
            {"name": "Goblin", "hp": 7, "ac": 5, "side": "enemy", "initiative": 10,
             "position": {"x": 3, "y": 2},
             "attacks": [{"name": "Scimitar", "bonus": 4, "damage": "1d6+2", "damageType": "slashing"}]},
            {"name": "Orc", "hp": 15, "ac": 13, "side": "enemy", "initiative": 5,
             "position": {"x": 8, "y": 2}}
        ]}),
    )
    .await;
    // Out of turn: refused with the fix.
    s.err(
        "execute_action",
        json!({"actorName": "Goblin", "actionType": "attack", "targetName": "Hero"}),
        &["Hero's turn", "advance_turn"],
    )
    .await;
    // Unknown weapon: the choices are in the error.
    s.err(
        "execute_action",
        json!({"actorName": "Hero", "actionType": "attack", "targetName": "Goblin", "weapon": "Halberd"}),
        &["Sword", "unarmed strike"],
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Hero", "actionType": "attack", "targetName": "Goblin"}),
        )
        .await;
    // Seeded: no natural 20, a plain hit.
    assert!(
        a.text
            .starts_with("Hit! Goblin takes 50 slashing (7 → 0 HP) and dies."),
        "{}",
        a.text
    );
    let strike = &a.structured["details"]["attacks"][0];
    assert_eq!(strike["targetStatus"], "dead", "{}", a.structured);
    assert_eq!(strike["damage"]["hpAfter"], 0);
    assert_eq!(a.structured["economy"]["action"], true);
    // The dead goblin no longer blocks: the hero walks through its square.
    let m = s
        .ok(
            "execute_action",
            json!({"actorName": "Hero", "actionType": "move", "to": {"x": 7, "y": 2}}),
        )
        .await;
    assert!(
        m.text.starts_with("Hero moves 25 ft to (7, 2)"),
        "{}",
        m.text
    );
    assert_eq!(m.structured["details"]["costFt"], 25);
    assert_eq!(m.structured["details"]["leftFt"], 5);
    s.err(
        "execute_action",
        json!({"actorName": "Hero", "actionType": "move", "to": {"x": 12, "y": 2}}),
        &["costs", "5 ft of movement left", "dash"],
    )
    .await;
    // The game master's damage: no actor, rolled once, through the pipeline.
    let d = s
        .ok(
            "execute_action",
            json!({"actionType": "damage", "targetName": "Orc", "amount": "4", "damageType": "fire"}),
        )
        .await;
    assert!(
        d.text.starts_with("Orc takes 4 fire (15 → 11 HP)."),
        "{}",
        d.text
    );
    let enc = s
        .ok("get_encounter", json!({"verbosity": "standard"}))
        .await;
    assert!(enc.text.contains("Orc"), "{}", enc.text);
}
