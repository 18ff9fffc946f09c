//! End to end over the real binary: tactics actions through execute_action and their legacy
//! names (dodge, hide refused in plain sight, grapple, ready and its release, lair actions).

use serde_json::{Value, json};
use tabletop_server::client::Answer;

use super::common;

use common::Session;

impl Session {
    async fn act(&self, args: Value) -> Answer {
        self.ok("execute_action", args).await
    }

    async fn setup(&self) {
        self.ok(
            "create_character",
            json!({"name": "Thorn", "customClass": {"name": "Fighter", "hitDie": 10}, "hp": 20,
                   "stats": {"str": 16, "dex": 12, "con": 14, "int": 10, "wis": 12, "cha": 8}}),
        )
        .await;
        self.ok(
            "create_encounter",
            json!({"name": "Bridge", "terrain": {"width": 10, "height": 10},
                   "participants": [
                {"characterName": "Thorn", "position": {"x": 2, "y": 2}, "initiative": 20},
                {"name": "Gob", "hp": 30, "ac": 12, "position": {"x": 3, "y": 2}, "initiative": 10,
                 "attacks": [{"name": "Scimitar", "bonus": 4, "damage": "1d6+2", "damageType": "slashing"}]}
            ]}),
        )
        .await;
    }
}

#[tokio::test]
async fn tactics_over_mcp() {
    let s = Session::start(17).await;
    s.setup().await;
    s.err(
        "execute_action",
        json!({"actorName": "Thorn", "actionType": "hide"}),
        &["cannot hide", "Gob", "force"],
    )
    .await;
    let a = s
        .act(json!({"actorName": "Thorn", "actionType": "grapple", "targetName": "Gob", "bonus": 40}))
        .await;
    assert!(a.text.contains("grapples Gob"), "{}", a.text);
    let c = s.ok("get_character", json!({"characterName": "Gob"})).await;
    assert!(c.text.to_lowercase().contains("grappled"), "{}", c.text);
    // The action is spent: Dodge now needs force.
    s.err(
        "execute_action",
        json!({"actorName": "Thorn", "actionType": "dodge"}),
        &["already used its action"],
    )
    .await;
    let a = s
        .act(
            json!({"actionType": "lair_action", "description": "The bridge shakes",
                    "dc": 30, "ability": "dex", "amount": "1d4", "damageType": "bludgeoning",
                    "targets": [{"name": "Gob"}]}),
        )
        .await;
    assert!(a.text.starts_with("Lair action"), "{}", a.text);
    assert_eq!(
        a.structured["details"]["targets"][0]["failed"], true,
        "{}",
        a.text
    );
}

#[tokio::test]
async fn ready_then_release_as_a_reaction() {
    let s = Session::start(18).await;
    s.setup().await;
    let a = s
        .act(
            json!({"actorName": "Thorn", "actionType": "ready", "trigger": "when Gob moves",
                    "readiedAction": {"actionType": "attack", "targetName": "Gob"}}),
        )
        .await;
    assert!(a.text.contains("readies attack"), "{}", a.text);
    let a = s
        .act(json!({"actorName": "Thorn", "actionType": "ready", "actionCost": "reaction"}))
        .await;
    assert!(a.text.contains("when Gob moves"), "{}", a.text);
    assert_eq!(a.structured["actionType"], "attack", "{}", a.text);
    assert_eq!(a.structured["economy"]["reaction"], true, "{}", a.text);
}

#[tokio::test]
async fn legacy_tactics_names_route_to_execute_action() {
    let s = Session::start(19).await;
    s.setup().await;
    let a = s
        .ok(
            "combat_action",
            json!({"action": "dodge", "actorName": "Thorn"}),
        )
        .await;
    assert!(a.text.contains("Dodge"), "{}", a.text);
    let a = s
        .ok(
            "execute_lair_action",
            json!({"description": "Smoke fills the hall"}),
        )
        .await;
    assert!(a.text.contains("Smoke"), "{}", a.text);
}
