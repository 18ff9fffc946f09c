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
        "search_spells" => json!({"query": "fire", "class": "wizard"}),
        "get_spell_details" => json!({"spell_name": "fireball"}),
        "get_spell_info" => json!({"spellName": "magic missle"}),
        "get_spell_by_level" => json!({"level": 3}),
        "get_spells_by_class" => json!({"class_name": "cleric"}),
        "get_spells_by_school" => json!({"school": "necromancy"}),
        "search_races" => json!({"query": "elf"}),
        "get_race_details" => json!({"race_name": "dwarf"}),
        "get_race_list" => json!({}),
        "search_classes" => json!({}),
        "get_class_details" => json!({"class_name": "wizard"}),
        "get_subclass_list" => json!({"class_name": "cleric"}),
        "get_class_features" => json!({"class_name": "fighter", "level": 1}),
        "search_backgrounds" => json!({"query": "acolyte"}),
        "get_background_details" => json!({"background_name": "acolyte"}),
        "search_feats" => json!({}),
        "get_feat_details" => json!({"feat_name": "grappler"}),
        "get_weapon_list" => json!({"category": "Martial Weapons"}),
        "get_armor_list" => json!({"type": "light"}),
        "get_magic_items" => json!({"rarity": "legendary", "type": "ring"}),
        "get_adventuring_gear" => json!({}),
        "search_equipment" => json!({"query": "rope"}),
        "search_content" => json!({"query": "dragon", "content_type": "monsters"}),
        "get_random_content" => json!({"content_type": "spell", "filters": {"level": 1}}),
        "search_monsters" => json!({"cr": "1/4", "type": "humanoid"}),
        "get_monster_details" => json!({"monster_name": "goblin"}),
        "search_conditions" => json!({}),
        "get_condition_details" => json!({"condition_name": "prone"}),
        "search_rules" => json!({"query": "cover"}),
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
    let srd = std::env::var_os("TABLETOP_SRD_DIR").is_some();
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
        if !srd && compendium(alias.tool) {
            assert!(
                a.is_error && a.text.contains("srd install"),
                "{} without the SRD: {}",
                alias.legacy,
                a.text
            );
            continue;
        }
        assert!(!a.is_error, "{} {args} failed: {}", alias.legacy, a.text);
        if compendium(alias.tool) {
            assert!(
                a.structured["provenance"]["document"] == "srd-5.1",
                "{}: {}",
                alias.legacy,
                a.structured
            );
        }
    }
    if srd {
        compendium_spot_checks(&c).await;
    } else {
        println!("skipped: compendium alias checks need TABLETOP_SRD_DIR");
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

fn compendium(tool: &str) -> bool {
    matches!(tool, "search_compendium" | "get_compendium_entry")
}

/// The filters each compendium alias fills in really narrow the answer.
async fn compendium_spot_checks(c: &Client) {
    let a = c
        .call("get_spell_details", json!({"spell_name": "fireball"}))
        .await
        .unwrap();
    assert!(
        a.text.starts_with("Fireball — 3rd-level evocation"),
        "{}",
        a.text
    );
    let a = c
        .call(
            "get_spells_by_class",
            json!({"class_name": "paladin", "perPage": 100}),
        )
        .await
        .unwrap();
    assert!(
        a.text.contains("Bless") && !a.text.contains("Fireball"),
        "{}",
        a.text
    );
    let a = c
        .call("get_weapon_list", json!({"category": "martial-weapons"}))
        .await
        .unwrap();
    assert!(
        a.text.contains("Longsword") && !a.text.contains("Club"),
        "{}",
        a.text
    );
    let a = c
        .call("get_armor_list", json!({"type": "heavy"}))
        .await
        .unwrap();
    assert!(
        a.text.contains("Plate") && !a.text.contains("Leather"),
        "{}",
        a.text
    );
    let a = c
        .call("get_subclass_list", json!({"class_name": "wizard"}))
        .await
        .unwrap();
    assert_eq!(a.structured["total"], 1, "{}", a.text);
    let a = c
        .call("search_monsters", json!({"cr": "1/4", "type": "humanoid"}))
        .await
        .unwrap();
    assert!(
        a.text.contains("Goblin") && !a.text.contains("Orc:"),
        "{}",
        a.text
    );
    let a = c
        .call(
            "get_random_content",
            json!({"content_type": "spells", "count": 3}),
        )
        .await
        .unwrap();
    assert_eq!(
        a.structured["hits"].as_array().unwrap().len(),
        3,
        "{}",
        a.text
    );
    let a = c
        .call("get_magic_items", json!({"rarity": "mythic"}))
        .await
        .unwrap();
    assert!(a.is_error && a.text.contains("very_rare"), "{}", a.text);
}
