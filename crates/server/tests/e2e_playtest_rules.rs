//! Rules the last play-test left as notes, end to end over the real binary with SRD-built
//! characters, each SRD fact read from the SRD JSON at run time: Flurry of Blows makes its two
//! unarmed strikes itself (after the Attack action only), a wizard casts a ritual from its
//! spellbook without preparing it (a cleric does not), an item named by its SRD index is found
//! in the pack, and a dead creature gets no temporary hit points.

use super::common;

use common::{Session, srd_desc as desc, srd_record};
use serde_json::{Value, json};

use common::srd_here as srd;

fn ki(sheet: &Value) -> u64 {
    let res = sheet["character"]["resources"].as_array().unwrap();
    let k = res.iter().find(|r| r["name"] == "Ki").unwrap();
    k["current"].as_u64().unwrap()
}

#[tokio::test]
async fn flurry_of_blows_makes_two_unarmed_strikes_after_the_attack_action() {
    if !srd() {
        return;
    }
    let flurry = desc("Features", "flurry-of-blows");
    assert!(
        flurry.contains("immediately after you take the attack action on your turn, you can spend 1 ki point to make two unarmed strikes as a bonus action"),
        "{flurry}"
    );
    let s = Session::start(31).await;
    s.ok(
        "create_character",
        json!({"name": "Monk", "race": "human", "class": "monk", "level": 2,
               "stats": {"str": 10, "dex": 16, "con": 14, "int": 10, "wis": 14, "cha": 8}}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Monk", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "ogre", "position": {"x": 6, "y": 5}, "initiative": 10}
        ]}),
    )
    .await;
    let before = ki(&s
        .ok("get_character", json!({"characterName": "Monk"}))
        .await
        .structured);
    // Before the Attack action: refused, and no ki spent.
    s.err(
        "execute_action",
        json!({"actorName": "Monk", "actionType": "use_special_ability", "abilityName": "Flurry of Blows",
               "targetName": "Ogre"}),
        &["Flurry of Blows follows the Attack action, and Monk has not taken it this turn"],
    )
    .await;
    let sheet = s
        .ok("get_character", json!({"characterName": "Monk"}))
        .await;
    assert_eq!(ki(&sheet.structured), before);
    s.ok(
        "execute_action",
        json!({"actorName": "Monk", "actionType": "attack", "targetName": "Ogre", "weapon": "Unarmed Strike"}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Monk", "actionType": "use_special_ability", "abilityName": "Flurry of Blows",
                   "targetName": "Ogre"}),
        )
        .await;
    assert!(a.text.contains("— Unarmed Strike 1 → Ogre: "), "{}", a.text);
    assert!(a.text.contains("— Unarmed Strike 2 → Ogre: "), "{}", a.text);
    assert_eq!(
        a.text.matches("Monk attack with Unarmed strike").count(),
        2,
        "{}",
        a.text
    );
    let sheet = s
        .ok("get_character", json!({"characterName": "Monk"}))
        .await;
    assert_eq!(ki(&sheet.structured), before - 1);
}

#[tokio::test]
async fn a_wizard_casts_a_ritual_from_its_spellbook_without_preparing_it() {
    if !srd() {
        return;
    }
    let info = srd_record("Classes", "wizard")["spellcasting"]["info"].clone();
    let rc = info
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "Ritual Casting")
        .map(|i| i["desc"].to_string().to_lowercase())
        .unwrap();
    assert!(
        rc.contains("you can cast a wizard spell as a ritual if that spell has the ritual tag and you have the spell in your spellbook. you don't need to have the spell prepared"),
        "{rc}"
    );
    let dm = srd_record("Spells", "detect-magic");
    assert_eq!(dm["ritual"], true);
    let dm_name = dm["name"].as_str().unwrap();
    let s = Session::start(33).await;
    s.ok(
        "create_character",
        json!({"name": "Wiz", "race": "elf", "subrace": "high-elf", "class": "wizard", "level": 3,
               "stats": {"str": 8, "dex": 14, "con": 12, "int": 16, "wis": 10, "cha": 10},
               "languages": ["Sylvan"],
               "spells": ["magic-missile", "shield", "fire-bolt"],
               "spellbook": ["magic-missile", "shield", "detect-magic"]}),
    )
    .await;
    let slots = |v: &Value| v["character"]["spellSlots"].to_string();
    let before = s.ok("get_character", json!({"characterName": "Wiz"})).await;
    // With a slot it must be prepared; as a ritual, the spellbook is enough.
    s.err(
        "cast_spell",
        json!({"casterName": "Wiz", "spell": dm_name}),
        &["Wiz does not have prepared Detect Magic"],
    )
    .await;
    let a = s
        .ok(
            "cast_spell",
            json!({"casterName": "Wiz", "spell": dm_name, "ritual": true}),
        )
        .await;
    assert!(
        a.text
            .contains("cast as a ritual (1 action + 10 minutes), no slot spent"),
        "{}",
        a.text
    );
    let after = s.ok("get_character", json!({"characterName": "Wiz"})).await;
    assert_eq!(slots(&after.structured), slots(&before.structured));
    // A cleric casts only the rituals it has prepared.
    s.ok(
        "create_character",
        json!({"name": "Cleric", "race": "human", "class": "cleric", "level": 3,
               "stats": {"str": 10, "dex": 10, "con": 14, "int": 10, "wis": 16, "cha": 12},
               "spells": ["cure-wounds", "bless", "guidance"]}),
    )
    .await;
    s.err(
        "cast_spell",
        json!({"casterName": "Cleric", "spell": dm_name, "ritual": true}),
        &["Cleric does not have prepared Detect Magic"],
    )
    .await;
}

#[tokio::test]
async fn an_item_named_by_its_srd_index_is_found_and_the_dead_get_no_temporary_hp() {
    if !srd() {
        return;
    }
    let armor = srd_record("Equipment", "leather-armor");
    let name = armor["name"].as_str().unwrap();
    let base = armor["armor_class"]["base"].as_i64().unwrap();
    let s = Session::start(35).await;
    s.ok(
        "create_character",
        json!({"name": "Rogue", "race": "human", "class": "rogue", "level": 1,
               "stats": {"str": 10, "dex": 14, "con": 12, "int": 10, "wis": 10, "cha": 10},
               "equipment": ["leather-armor"]}),
    )
    .await;
    let a = s
        .ok(
            "manage_inventory",
            json!({"operation": "equip", "characterName": "Rogue", "itemName": "leather-armor"}),
        )
        .await;
    // Unarmored 10 + DEX 2, then the armor's base + DEX 2.
    assert!(
        a.text.contains(&format!("AC 12 → {}", base + 2)),
        "{}",
        a.text
    );
    assert!(a.text.contains(name), "{}", a.text);
    // Killed outright (damage past 0 of at least its maximum): no temporary hit points.
    let a = s
        .ok(
            "update_character",
            json!({"characterName": "Rogue", "damage": [{"amount": 100, "type": "slashing"}]}),
        )
        .await;
    assert!(a.text.contains("dies"), "{}", a.text);
    s.err(
        "update_character",
        json!({"characterName": "Rogue", "tempHp": 5}),
        &["Rogue is dead; temporary hit points do nothing for the dead"],
    )
    .await;
}

#[tokio::test]
async fn levelling_up_adds_the_hit_points_the_effective_constitution_gives() {
    if !srd() {
        return;
    }
    let amulet = desc("Magic-Items", "amulet-of-health");
    assert!(amulet.contains("your constitution score is 19"), "{amulet}");
    let s = Session::start(1).await;
    // CON 14 + 2 (hill dwarf) = 16; the amulet makes it 19 (+4).
    s.ok(
        "create_character",
        json!({"name": "Thorin", "race": "dwarf", "subrace": "hill-dwarf",
               "classes": [{"class": "cleric", "level": 5, "subclass": "life"}],
               "stats": {"str": 14, "dex": 10, "con": 14, "int": 10, "wis": 15, "cha": 8}}),
    )
    .await;
    for op in ["give", "equip", "attune"] {
        s.ok(
            "manage_inventory",
            json!({"characterName": "Thorin", "operation": op, "itemName": "Amulet of Health"}),
        )
        .await;
    }
    s.ok(
        "take_rest",
        json!({"characterName": "Thorin", "restType": "long"}),
    )
    .await;
    let before = s
        .ok("get_character", json!({"characterName": "Thorin"}))
        .await;
    // 8 + 4 × 5 (d8 average) + 5 × 4 (CON 19) + 5 (Dwarven Toughness) = 53.
    assert!(before.text.contains("\nHP 53/53, "), "{}", before.text);
    let up = s.ok("level_up", json!({"characterName": "Thorin"})).await;
    // Level 6: 5 (average) + 4 (CON 19) + 1 (Dwarven Toughness) = 10.
    assert!(
        up.text
            .contains("max HP 53 → 63 (L6 +8; +2 from the sheet's other sources at the new level)"),
        "{}",
        up.text
    );
    let after = s
        .ok("get_character", json!({"characterName": "Thorin"}))
        .await;
    assert!(after.text.contains("\nHP 63/63, "), "{}", after.text);
}
