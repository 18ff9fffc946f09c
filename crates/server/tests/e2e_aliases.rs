//! Every hidden alias is callable through the real server, none is advertised, and retired names
//! answer with the nearest tool.

use std::path::PathBuf;

use serde_json::{Value, json};
use tabletop_server::aliases::ALIASES;
use tabletop_server::client::Client;

/// Arguments a legacy client would send to each alias.
fn sample(legacy: &str) -> Option<Value> {
    Some(match legacy {
        "quick_roll" | "dice_roll" | "damage_roll" => json!({"expression": "2d6+1"}),
        "math_manage" => json!({"action": "roll", "expression": "1d20"}),
        "roll_skill_check" => json!({"characterName": "Ada", "skill": "stealth"}),
        "roll_ability_check" => json!({"characterName": "Ada", "ability": "str"}),
        "roll_saving_throw" | "saving_throw" => {
            json!({"characterName": "Ada", "ability": "dex", "dc": 12})
        }
        "roll_initiative" | "initiative_roll" => json!({"characterName": "Ada"}),
        "list_characters" => json!({}),
        "list_npcs" => json!({}),
        "get_character_by_name" => json!({"name": "ada"}),
        "get_npc" => json!({"name": "Bob"}),
        "fetch_character_template" => json!({"name": "Template"}),
        "validate_character_build" => {
            json!({"name": "Check", "abilityMethod": "point_buy", "stats": {"str": 15, "dex": 15, "con": 15, "int": 8, "wis": 8, "cha": 8}})
        }
        "create_npc" => json!({"name": "Innkeeper"}),
        "update_npc" => json!({"name": "Bob", "notes": "owes the party"}),
        "remove_npc" => json!({"name": "Innkeeper"}),
        "apply_damage" => json!({"id": "ch1", "amount": 3, "damageType": "cold"}),
        "apply_healing" => json!({"characterName": "Ada", "amount": 2}),
        "give_item" => json!({"characterName": "Ada", "item": {"name": "Torch", "quantity": 3}}),
        "add_item" => json!({"id": "ch1", "name": "Rope", "weight": 10}),
        "create_item_template" => json!({
            "characterName": "Ada", "name": "Potion of Vigor", "type": "consumable",
            "effect": "Heal 1d4 HP"
        }),
        "batch_distribute_items" => json!({"distributions": [
            {"characterName": "Ada", "item": {"name": "Gold", "type": "treasure", "quantity": 10}},
            {"characterName": "Bob", "item": {"name": "Gold", "type": "treasure", "quantity": 10}}
        ]}),
        "get_inventory" | "get_inventory_detailed" | "list_items" => {
            json!({"characterName": "Ada"})
        }
        "equip_item" | "unequip_item" => json!({"characterName": "Ada", "itemName": "Torch"}),
        "transfer_item" => {
            json!({"fromCharacterName": "Ada", "toCharacterName": "Bob", "itemName": "Torch"})
        }
        "use_item" => {
            json!({"characterName": "Ada", "itemName": "Potion of Vigor", "targetCharacterName": "Bob"})
        }
        "remove_item" => json!({"characterName": "Ada", "itemName": "Rope"}),
        "delete_item" => json!({"characterName": "Bob", "name": "Torch"}),
        "inventory_manage" => json!({"action": "view", "characterName": "Bob"}),
        "item_manage" => json!({"action": "remove", "characterName": "Ada", "itemName": "Torch"}),
        _ => return None,
    })
}

#[tokio::test]
async fn every_alias_works_and_none_is_advertised() {
    let dir = tempfile::tempdir().unwrap();
    let args = vec!["--data-dir".to_string(), dir.path().display().to_string()];
    let c = Client::spawn(&PathBuf::from(env!("CARGO_BIN_EXE_tabletop")), &args)
        .await
        .unwrap();
    let advertised: Vec<String> = c
        .tools()
        .await
        .unwrap()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    for (name, extra) in [("Ada", json!({})), ("Bob", json!({"characterType": "npc"}))] {
        let mut a = json!({"name": name, "hp": 20});
        a.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        assert!(!c.call("create_character", a).await.unwrap().is_error);
    }
    for alias in ALIASES {
        assert!(
            !advertised.iter().any(|n| n == alias.legacy),
            "{} is advertised",
            alias.legacy
        );
        let args = sample(alias.legacy)
            .unwrap_or_else(|| panic!("add a sample call for alias {}", alias.legacy));
        let a = c.call(alias.legacy, args.clone()).await.unwrap();
        assert!(!a.is_error, "{} {args} failed: {}", alias.legacy, a.text);
    }
    // Spot checks that the operation was filled in.
    let a = c
        .call("fetch_character_template", json!({"name": "Nobody"}))
        .await
        .unwrap();
    assert!(a.text.starts_with("Preview (nothing stored)"), "{}", a.text);
    let a = c.call("list_npcs", json!({})).await.unwrap();
    assert_eq!(a.structured["total"], 1, "only Bob is an NPC: {}", a.text);
    let a = c
        .call("apply_damage", json!({"characterName": "Ada", "amount": 4}))
        .await
        .unwrap();
    assert!(a.text.contains("takes 4"), "{}", a.text);
    let a = c
        .call("get_inventory", json!({"characterName": "Bob"}))
        .await
        .unwrap();
    assert!(a.text.contains("10 gp"), "loot was distributed: {}", a.text);
    // Retired systems name the nearest tool; typos get a suggestion.
    let a = c.call("add_quest", json!({})).await.unwrap();
    assert!(
        a.is_error && a.text.contains("quest tracking") && a.text.contains("instead use"),
        "{}",
        a.text
    );
    let a = c.call("quick_rol", json!({})).await.unwrap();
    assert!(
        a.is_error && a.text.contains("did you mean 'quick_roll'"),
        "{}",
        a.text
    );
    c.close().await.unwrap();
}
