//! End to end over the real binary: manage_inventory and weapon attacks through roll_check.

use serde_json::{Value, json};
use tabletop_server::client::Answer;

use super::common;

use common::Session;

impl Session {
    async fn inv(&self, args: Value) -> Answer {
        self.ok("manage_inventory", args).await
    }

    async fn strong_hero(&self, name: &str, str_score: i64) {
        self.ok(
            "create_character",
            json!({"name": name, "customClass": {"name": "Fighter", "hitDie": 10}, "hp": 20,
                   "stats": {"str": str_score, "dex": 14, "con": 14, "int": 10, "wis": 10, "cha": 8}}),
        )
        .await;
    }
}

fn modifier_total(a: &Answer) -> i64 {
    a.structured["outcome"]["modifierTotal"].as_i64().unwrap()
}

#[tokio::test]
async fn custom_items_change_the_sheet_and_the_attack() {
    let s = Session::start(9).await;
    s.strong_hero("Thorin", 12).await;
    s.strong_hero("Elara", 10).await;
    s.inv(
        json!({"characterName": "Thorin", "operation": "give", "item": {
        "name": "Longsword +1", "type": "weapon", "rarity": "uncommon", "equipped": true,
        "weaponStats": {"damageDice": "1d8", "damageType": "slashing", "category": "martial_melee",
                        "properties": ["versatile"], "versatileDamage": "1d10"},
        "mechanicalEffects": {"attackBonus": 1, "damageBonus": 1}}}),
    )
    .await;
    let a = s
        .ok(
            "roll_check",
            json!({"characterName": "Thorin", "checkType": "attack", "weapon": "longsword +1"}),
        )
        .await;
    assert_eq!(modifier_total(&a), 1 + 2 + 1, "{}", a.text);
    assert_eq!(a.structured["damage"]["applied"], false, "{}", a.text);
    assert!(
        a.text.contains("Damage") && a.text.contains("not applied"),
        "{}",
        a.text
    );

    let a = s
        .inv(
            json!({"characterName": "Thorin", "operation": "give", "item": {
            "name": "Belt of Hill Giant Strength", "type": "wondrous", "rarity": "rare",
            "requiresAttunement": true, "mechanicalEffects": {"abilitySet": {"str": 21}}}}),
        )
        .await;
    assert!(a.text.contains("received Belt"), "{}", a.text);
    let a = s
        .inv(json!({"characterName": "Thorin", "operation": "equip", "itemName": "belt"}))
        .await;
    assert!(
        !a.text.contains("STR 12 → 21") && a.text.contains("requires attunement"),
        "{}",
        a.text
    );
    let a = s
        .inv(json!({"characterName": "Thorin", "operation": "attune", "itemName": "belt"}))
        .await;
    assert!(
        a.text.contains("STR 12 → 21") && a.text.contains("Thorin attunes to Belt"),
        "{}",
        a.text
    );
    let sheet = s
        .ok("get_character", json!({"characterName": "Thorin"}))
        .await;
    assert_eq!(
        sheet.structured["effective"]["abilities"]["str"]["value"],
        21
    );
    let a = s
        .ok(
            "roll_check",
            json!({"characterName": "Thorin", "checkType": "attack", "weapon": "longsword +1"}),
        )
        .await;
    assert_eq!(modifier_total(&a), 5 + 2 + 1, "{}", a.text);

    // Armor and a shield.
    s.inv(json!({"characterName": "Elara", "operation": "give", "item": {"name": "Chain Mail", "weight": 55,
        "armorStats": {"baseAc": 16, "category": "heavy", "stealthDisadvantage": true, "strengthRequirement": 13}}}))
        .await;
    let a = s
        .inv(json!({"characterName": "Elara", "operation": "equip", "itemName": "chain mail"}))
        .await;
    assert!(
        a.text.contains("AC 12 → 16") && a.text.contains("speed 30 → 20 ft"),
        "{}",
        a.text
    );
    s.inv(json!({"characterName": "Elara", "operation": "give", "item": {"name": "Shield", "slot": "offhand",
        "armorStats": {"baseAc": 2, "category": "shield"}}}))
        .await;
    let v = s
        .inv(json!({"characterName": "Elara", "operation": "view"}))
        .await;
    assert_eq!(v.structured["armorClass"]["value"], 18, "{}", v.text);
    assert!(v.text.contains("disadvantage on Stealth"), "{}", v.text);
    let chk = s
        .ok(
            "roll_check",
            json!({"characterName": "Elara", "checkType": "skill", "skill": "stealth"}),
        )
        .await;
    assert!(chk.text.contains("disadvantage"), "{}", chk.text);

    // A fourth attunement is refused, naming the three.
    for n in ["Ring A", "Ring B", "Cloak C", "Boots D"] {
        s.inv(json!({"characterName": "Thorin", "operation": "give",
                     "item": {"name": n, "type": "wondrous", "requiresAttunement": true}}))
            .await;
    }
    s.inv(json!({"characterName": "Thorin", "operation": "attune", "itemName": "Ring A"}))
        .await;
    s.inv(json!({"characterName": "Thorin", "operation": "attune", "itemName": "Ring B"}))
        .await;
    s.err(
        "manage_inventory",
        json!({"characterName": "Thorin", "operation": "attune", "itemName": "Cloak C"}),
        &[
            "Belt of Hill Giant Strength",
            "Ring A",
            "Ring B",
            "already attuned to 3",
        ],
    )
    .await;

    // A healing potion on an ally, from its effect text.
    s.ok(
        "update_character",
        json!({"characterName": "Elara", "hp": 3}),
    )
    .await;
    s.inv(json!({"characterName": "Thorin", "operation": "give",
                 "item": {"name": "Healing Potion", "type": "consumable", "effect": "Heal 2d4+2 HP"}}))
        .await;
    let a = s
        .inv(json!({"characterName": "Thorin", "operation": "use", "itemName": "healing potion", "targetName": "Elara"}))
        .await;
    let healed = a.structured["healing"]["hpAfter"].as_u64().unwrap();
    assert!((7..=13).contains(&healed), "{}", a.text);
    let e = s
        .ok("get_character", json!({"characterName": "Elara"}))
        .await;
    assert_eq!(e.structured["character"]["hp"].as_u64(), Some(healed));

    // Coins, transfer, batch loot.
    let a = s
        .ok("manage_inventory", json!({"batch": [
            {"characterName": "Thorin", "operation": "give", "item": {"name": "Gold", "type": "treasure", "quantity": 150}},
            {"characterName": "Elara", "operation": "give", "currency": {"pp": 1}},
            {"characterName": "Elara", "operation": "remove", "currency": {"gp": 2, "sp": 5}}
        ]}))
        .await;
    assert!(a.text.starts_with("Batch: 3 of 3"), "{}", a.text);
    let a = s
        .inv(
            json!({"characterName": "Thorin", "operation": "transfer", "toCharacterName": "Elara",
                    "itemName": "Longsword +1", "currency": {"gp": 50}}),
        )
        .await;
    assert!(
        a.text.contains("Thorin → Elara: Longsword +1"),
        "{}",
        a.text
    );
    let v = s
        .inv(json!({"characterName": "Elara", "operation": "view", "showStats": false}))
        .await;
    assert_eq!(v.structured["currency"]["gp"], 57, "{}", v.text);
    assert_eq!(v.structured["currency"]["sp"], 5, "{}", v.text);
    s.client.close().await.unwrap();
}

#[tokio::test]
async fn bad_inventory_inputs_name_the_fix() {
    let s = Session::start(9).await;
    s.strong_hero("Vex", 14).await;
    s.inv(json!({"characterName": "Vex", "operation": "give", "item": {"name": "Shield", "equipped": true,
        "armorStats": {"baseAc": 2, "category": "shield"}}}))
        .await;
    s.inv(
        json!({"characterName": "Vex", "operation": "give", "item": {"name": "Greatsword",
        "weaponStats": {"damageDice": "2d6", "damageType": "slashing", "category": "martial_melee",
                        "properties": ["heavy", "two_handed"]}}}),
    )
    .await;
    s.err(
        "manage_inventory",
        json!({"characterName": "Vex", "operation": "equip", "itemName": "greatsword"}),
        &["two-handed", "unequip Shield"],
    )
    .await;
    s.inv(
        json!({"characterName": "Vex", "operation": "give", "item": {"name": "Wand of Sparks",
        "mechanicalEffects": {"charges": 0, "maxCharges": 3, "rechargeOn": "dawn"}}}),
    )
    .await;
    s.err(
        "manage_inventory",
        json!({"characterName": "Vex", "operation": "use", "itemName": "wand"}),
        &["0/3 charges", "dawn"],
    )
    .await;
    s.err(
        "manage_inventory",
        json!({"characterName": "Vex", "operation": "equip", "itemName": "Rope"}),
        &["carries nothing called 'Rope'", "Shield"],
    )
    .await;
    s.err(
        "manage_inventory",
        json!({"characterName": "Vex", "operation": "equp", "itemName": "Rope"}),
        &["did you mean 'equip'"],
    )
    .await;
    s.err(
        "manage_inventory",
        json!({"characterName": "Vex", "operation": "view", "slot": "head"}),
        &["slot", "not used by view"],
    )
    .await;
    s.err(
        "manage_inventory",
        json!({"characterName": "Vex", "operation": "remove", "currency": {"gp": 5}}),
        &["not enough"],
    )
    .await;
    s.err(
        "roll_check",
        json!({"characterName": "Vex", "checkType": "attack", "weapon": "greatsword"}),
        &["equip it first"],
    )
    .await;
    s.err(
        "roll_check",
        json!({"characterName": "Vex", "checkType": "skill", "skill": "stealth", "weapon": "greatsword"}),
        &["checkType attack"],
    )
    .await;
    if !common::srd("the SRD part of the inventory errors test") {
        s.client.close().await.unwrap();
        return;
    }
    s.err(
        "manage_inventory",
        json!({"characterName": "Vex", "operation": "give", "itemName": "Healing Draught"}),
        &["no SRD item", "did you mean", "Potion of Healing"],
    )
    .await;
    s.client.close().await.unwrap();
}

#[tokio::test]
async fn srd_items_by_name() {
    if !common::srd("srd_items_by_name") {
        return;
    }
    let s = Session::start(9).await;
    s.strong_hero("Tor", 12).await;
    for n in [
        "Chain Mail",
        "Shield",
        "Longsword +1",
        "Belt of Hill Giant Strength",
    ] {
        s.inv(json!({"characterName": "Tor", "operation": "give", "itemName": n}))
            .await;
        s.inv(json!({"characterName": "Tor", "operation": "equip", "itemName": n}))
            .await;
    }
    // The belt's magic needs attunement, its own operation.
    let v = s
        .inv(json!({"characterName": "Tor", "operation": "view"}))
        .await;
    assert_eq!(
        v.structured["speed"]["value"], 20,
        "STR 12 < 13: {}",
        v.text
    );
    s.inv(json!({"characterName": "Tor", "operation": "attune", "itemName": "Belt of Hill Giant Strength"}))
        .await;
    let v = s
        .inv(json!({"characterName": "Tor", "operation": "view"}))
        .await;
    assert_eq!(v.structured["armorClass"]["value"], 18, "{}", v.text);
    assert_eq!(v.structured["speed"]["value"], 30, "{}", v.text);
    assert_eq!(v.structured["attacks"][0]["toHit"], 8, "{}", v.text);
    let a = s
        .ok(
            "roll_check",
            json!({"characterName": "Tor", "checkType": "attack", "weapon": "longsword"}),
        )
        .await;
    assert_eq!(modifier_total(&a), 8, "{}", a.text);
    s.client.close().await.unwrap();
}

/// A monk's quarterstaff through the tools (play-test): Martial Arts lets a monk weapon use DEX.
#[tokio::test]
async fn a_monk_attacks_with_dex_and_a_quarterstaff() {
    if !common::srd("a_monk_attacks_with_dex_and_a_quarterstaff") {
        return;
    }
    let s = Session::start(7).await;
    // Monk 5, STR 12 (+1), DEX 16 (+3), proficiency +3: DEX to hit and damage, the staff's
    // versatile d8 (larger than the d6 of Martial Arts at 5th level).
    s.ok(
        "create_character",
        json!({"name": "Mo", "class": "monk", "level": 5,
               "stats": {"str": 12, "dex": 16, "con": 12, "int": 10, "wis": 14, "cha": 10}}),
    )
    .await;
    for op in ["give", "equip"] {
        s.inv(json!({"characterName": "Mo", "operation": op, "itemName": "Quarterstaff"}))
            .await;
    }
    let a = s
        .ok(
            "roll_check",
            json!({"characterName": "Mo", "checkType": "attack", "weapon": "Quarterstaff"}),
        )
        .await;
    assert_eq!(modifier_total(&a), 6, "{}", a.text);
    let v = s
        .inv(json!({"characterName": "Mo", "operation": "view"}))
        .await;
    assert_eq!(
        v.structured["attacks"][0]["damage"], "1d8[bludgeoning] + 3[bludgeoning]",
        "{}",
        v.text
    );
    s.client.close().await.unwrap();
}

/// Bracers of Defense through the tools (play-test): +2 AC only with no armor and no shield.
#[tokio::test]
async fn bracers_of_defense_need_no_armor_and_no_shield() {
    if !common::srd("bracers_of_defense_need_no_armor_and_no_shield") {
        return;
    }
    let s = Session::start(7).await;
    // A fighter with DEX 14 (AC 12): bracers +2 unarmored, nothing with a shield or chain mail.
    s.ok(
        "create_character",
        json!({"name": "Bram", "class": "fighter",
               "stats": {"str": 15, "dex": 14, "con": 14, "int": 10, "wis": 10, "cha": 10}}),
    )
    .await;
    for n in ["Bracers of Defense", "Shield", "Chain Mail"] {
        s.inv(json!({"characterName": "Bram", "operation": "give", "itemName": n}))
            .await;
    }
    let mut seen = Vec::new();
    for (op, n) in [
        ("equip", "Bracers of Defense"),
        ("attune", "Bracers of Defense"),
        ("equip", "Shield"),
        ("equip", "Chain Mail"),
        ("unequip", "Shield"),
        ("unequip", "Chain Mail"),
    ] {
        s.inv(json!({"characterName": "Bram", "operation": op, "itemName": n}))
            .await;
        let v = s
            .inv(json!({"characterName": "Bram", "operation": "view"}))
            .await;
        seen.push(v.structured["armorClass"]["value"].as_i64().unwrap());
    }
    // Worn (not attuned) 12; attuned 14; a shield 12 + 2; chain mail 16 + 2; chain mail 16;
    // nothing but the bracers 14.
    assert_eq!(seen, vec![12, 14, 14, 18, 16, 14]);
    s.client.close().await.unwrap();
}

/// Elven Chain through the tools (play-test): its wearer is proficient with it.
#[tokio::test]
async fn elven_chain_needs_no_medium_armor_proficiency() {
    if !common::srd("elven_chain_needs_no_medium_armor_proficiency") {
        return;
    }
    let s = Session::start(7).await;
    // A wizard in Elven Chain: no disadvantage on a DEX save.
    s.ok(
        "create_character",
        json!({"name": "Wz", "class": "wizard",
               "stats": {"str": 8, "dex": 14, "con": 12, "int": 15, "wis": 10, "cha": 10}}),
    )
    .await;
    for op in ["give", "equip"] {
        s.inv(json!({"characterName": "Wz", "operation": op, "itemName": "Elven Chain"}))
            .await;
    }
    let a = s
        .ok(
            "roll_check",
            json!({"characterName": "Wz", "checkType": "save", "ability": "dex"}),
        )
        .await;
    assert!(
        !a.text.contains("disadvantage") && !a.text.contains("without proficiency"),
        "{}",
        a.text
    );
    s.client.close().await.unwrap();
}
