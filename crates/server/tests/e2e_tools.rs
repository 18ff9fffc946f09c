//! End to end, tool by tool: the happy path, and the bad inputs an agent will send, each
//! answered by a tool error that names the fix (never a crash, never a silent default).

use serde_json::json;

use super::common;

use common::Session;

impl Session {
    async fn hero(&self, name: &str) {
        self.ok(
            "create_character",
            json!({"name": name, "customClass": {"name": "Fighter", "hitDie": 10}, "saves": ["str", "con"],
                   "stats": {"str": 16, "dex": 12, "con": 14, "int": 10, "wis": 10, "cha": 8}, "skills": ["athletics"]}),
        )
        .await;
    }
}

#[tokio::test]
async fn roll_dice() {
    let s = Session::start(77).await;
    let a = s
        .ok(
            "roll_dice",
            json!({"expression": "1d8[slashing]+2d6[fire]+3", "reason": "flame tongue"}),
        )
        .await;
    assert!(a.text.starts_with("flame tongue: "), "{}", a.text);
    assert!(a.structured["byType"]["fire"].is_i64());
    let a = s
        .ok(
            "roll_dice",
            json!({"expression": "1d20+5", "advantage": true}),
        )
        .await;
    assert!(
        a.structured["expression"]
            .as_str()
            .unwrap()
            .starts_with("2d20kh1"),
        "{}",
        a.structured
    );
    let a = s
        .ok(
            "roll_dice",
            json!({"batch": [{"expression": "1d4"}, {"expression": "nope"}]}),
        )
        .await;
    assert!(a.text.starts_with("Batch: 1 of 2 succeeded."), "{}", a.text);
    assert_eq!(a.structured["results"][1]["ok"], false);
    s.err("roll_dice", json!({"expression": "1001d6"}), &["1000"])
        .await;
    s.err("roll_dice", json!({"expression": "1d10001"}), &["10000"])
        .await;
    s.err("roll_dice", json!({"expression": "2d6x"}), &["position"])
        .await;
    s.err(
        "roll_dice",
        json!({"expression": 7}),
        &["expression", "string"],
    )
    .await;
    s.err("roll_dice", json!({}), &["missing field `expression`"])
        .await;
    s.err(
        "roll_dice",
        json!({"expresion": "1d6"}),
        &["did you mean `expression`"],
    )
    .await;
    // A field named by one word of the real one: the word's field, not the nearest spelling.
    s.err(
        "get_character",
        json!({"name": "Bench"}),
        &["unknown field `name`", "(did you mean `characterName`?)"],
    )
    .await;
    s.err(
        "get_character",
        json!({"character_name": "Bench"}),
        &["(did you mean `characterName`?)"],
    )
    .await;
    s.err(
        "roll_dice",
        json!({"expression": "1d6", "advantage": "yes"}),
        &["advantage"],
    )
    .await;
    s.err("roll_dice", json!({"batch": []}), &["1–20"]).await;
    s.err(
        "roll_dice",
        json!({"expression": "1d6[fiery]"}),
        &["unknown damage type 'fiery' (did you mean 'fire'?)"],
    )
    .await;
    s.err(
        "roll_dice",
        json!({"expression": "2d6", "advantage": true}),
        &["d20"],
    )
    .await;
    s.client.close().await.unwrap();
}

#[tokio::test]
async fn create_character() {
    let s = Session::start(77).await;
    let a = s
        .ok(
            "create_character",
            json!({"name": "Vex", "characterType": "NPC", "abilityMethod": "point_buy",
             "stats": {"str": 8, "dex": 15, "con": 14, "int": 10, "wis": 12, "cha": 13}, "ac": 13}),
        )
        .await;
    assert!(a.text.starts_with("Created Vex (ch1)"), "{}", a.text);
    assert_eq!(a.structured["character"]["kind"], "npc");
    let a = s
        .ok(
            "create_character",
            json!({"name": "Dry", "previewTemplate": true}),
        )
        .await;
    assert!(a.text.starts_with("Preview (nothing stored)"), "{}", a.text);
    let a = s
        .ok(
            "create_character",
            json!({"name": "Bad", "abilityMethod": "point_buy", "validateOnly": true,
             "stats": {"str": 17, "dex": 15, "con": 15, "int": 15, "wis": 8, "cha": 8}}),
        )
        .await;
    assert!(a.text.starts_with("Invalid build:"), "{}", a.text);
    assert!(a.text.contains("STR 17"), "{}", a.text);
    s.err(
        "get_character",
        json!({"characterName": "Dry"}),
        &["no character 'Dry'"],
    )
    .await;
    s.err(
        "create_character",
        json!({"name": "X", "characterType": "villain"}),
        &["allowed: pc, npc, enemy, neutral"],
    )
    .await;
    s.err(
        "create_character",
        json!({"name": "X", "abilityMethod": "pointbuy"}),
        &["did you mean 'point_buy'"],
    )
    .await;
    s.err(
        "create_character",
        json!({"name": "X", "level": 21}),
        &["level", "1–20"],
    )
    .await;
    s.err(
        "create_character",
        json!({"name": "X", "level": -1}),
        &["level"],
    )
    .await;
    s.err("create_character", json!({"name": ""}), &["name", "1–80"])
        .await;
    s.err(
        "create_character",
        json!({"name": "X", "skills": ["stelth"]}),
        &["did you mean 'stealth'"],
    )
    .await;
    s.err(
        "create_character",
        json!({"name": "X", "customClass": {"name": "Odd", "hitDie": 7}}),
        &["6, 8, 10 or 12"],
    )
    .await;
    s.err(
        "create_character",
        json!({"name": "X", "stats": {"str": 31}}),
        &["30"],
    )
    .await;
    s.err(
        "create_character",
        json!({"name": "X", "abilityMethod": "point_buy"}),
        &["stats", "27"],
    )
    .await;
    s.client.close().await.unwrap();
}

#[tokio::test]
async fn get_character() {
    let s = Session::start(77).await;
    s.hero("Aria").await;
    s.hero("Bran").await;
    let a = s
        .ok("get_character", json!({"characterName": "ARIA"}))
        .await;
    assert!(
        a.text.starts_with("Aria (ch1): level 1 Fighter pc"),
        "{}",
        a.text
    );
    assert!(
        a.text.contains("Saves (* proficient): STR* +5"),
        "{}",
        a.text
    );
    assert_eq!(a.structured["effective"]["armorClass"]["value"], 11);
    let a = s.ok("get_character", json!({"listAll": true})).await;
    assert!(a.text.starts_with("2 characters match"), "{}", a.text);
    let a = s
        .ok("get_character", json!({"filter": {"name": "br"}}))
        .await;
    assert_eq!(a.structured["total"], 1);
    let a = s
        .ok(
            "get_character",
            json!({"listAll": true, "perPage": 1, "page": 2}),
        )
        .await;
    assert_eq!(a.structured["characters"][0]["name"], "Bran");
    let a = s
        .ok(
            "get_character",
            json!({"batch": [{"characterId": "ch2"}, {"characterName": "Nobody"}]}),
        )
        .await;
    assert!(a.text.starts_with("Batch: 1 of 2 succeeded."), "{}", a.text);
    s.err("get_character", json!({}), &["characterId", "listAll"])
        .await;
    s.err(
        "get_character",
        json!({"characterName": "Arya"}),
        &["did you mean 'Aria (ch1)'"],
    )
    .await;
    s.err(
        "get_character",
        json!({"filter": {"type": "monster_thing"}}),
        &["allowed: pc, npc, enemy, neutral"],
    )
    .await;
    s.err(
        "get_character",
        json!({"filter": {"hasCondition": "sleepy"}}),
        &["allowed: blinded"],
    )
    .await;
    s.err(
        "get_character",
        json!({"filter": {"minLevel": 5, "maxLevel": 2}}),
        &["minLevel"],
    )
    .await;
    s.err(
        "get_character",
        json!({"filter": {"colour": "red"}}),
        &["unknown field `colour`"],
    )
    .await;
    s.err(
        "get_character",
        json!({"listAll": true, "perPage": 500}),
        &["1–100"],
    )
    .await;
    s.hero("Aria").await;
    s.err(
        "get_character",
        json!({"characterName": "aria"}),
        &["matches 2 characters", "characterId"],
    )
    .await;
    s.client.close().await.unwrap();
}

#[tokio::test]
async fn update_character() {
    let s = Session::start(77).await;
    s.hero("Kael").await;
    let a = s
        .ok(
            "update_character",
            json!({"characterName": "Kael",
             "defenses": [{"kind": "resistance", "against": "fire"}], "tempHp": 3}),
        )
        .await;
    assert!(a.text.contains("temp HP 0 → 3"), "{}", a.text);
    let a = s
        .ok("update_character", json!({"characterName": "Kael", "damage": [{"amount": 10, "type": "fire"}, {"amount": 2, "type": "piercing"}]}))
        .await;
    // 10 fire halved to 5, 2 piercing: 7; 3 absorbed; 12 → 8.
    assert_eq!(a.structured["character"]["hp"], 8, "{}", a.text);
    assert!(a.text.contains("resist"), "{}", a.text);
    let a = s
        .ok(
            "update_character",
            json!({"characterName": "Kael", "hp": "+100"}),
        )
        .await;
    assert_eq!(a.structured["character"]["hp"], 12, "healing stops at max");
    let a = s
        .ok(
            "update_character",
            json!({"characterName": "Kael", "hp": "-12"}),
        )
        .await;
    assert!(
        a.text.starts_with(
            "Kael takes 12 (12 untyped); 12 → 0 HP; falls unconscious and starts death saves."
        ),
        "{}",
        a.text
    );
    let a = s
        .ok(
            "update_character",
            json!({"characterName": "Kael", "hp": 5}),
        )
        .await;
    assert_eq!(a.structured["character"]["hp"], 5);
    let a = s.ok("update_character", json!({"batch": [{"characterName": "Kael", "ac": 18}, {"characterName": "Ghost", "ac": 1}]})).await;
    assert!(a.text.starts_with("Batch: 1 of 2 succeeded."), "{}", a.text);
    s.err(
        "update_character",
        json!({"characterName": "Kael"}),
        &["nothing to change"],
    )
    .await;
    s.err(
        "update_character",
        json!({"characterName": "Kael", "hp": "-x"}),
        &["\"+5\" to heal"],
    )
    .await;
    s.err(
        "update_character",
        json!({"characterName": "Kael", "damage": [{"amount": 3, "type": "fyre"}]}),
        &["unknown damage type 'fyre' (did you mean 'fire'?)"],
    )
    .await;
    s.err(
        "update_character",
        json!({"characterName": "Kael", "ac": 99}),
        &["1–40"],
    )
    .await;
    s.err(
        "update_character",
        json!({"characterName": "Kael", "defenses": [{"kind": "resistance", "against": "prone"}]}),
        &["condition_immunity"],
    )
    .await;
    s.err(
        "update_character",
        json!({"ac": 12}),
        &["characterId or characterName"],
    )
    .await;
    s.err(
        "update_character",
        json!({"characterName": "Kael", "healing": -4}),
        &["healing"],
    )
    .await;
    s.client.close().await.unwrap();
}

#[tokio::test]
async fn delete_character() {
    let s = Session::start(77).await;
    s.hero("Temp").await;
    let a = s
        .ok("delete_character", json!({"characterName": "temp"}))
        .await;
    assert!(a.text.starts_with("Deleted Temp (ch1)."), "{}", a.text);
    s.err(
        "delete_character",
        json!({"characterName": "Temp"}),
        &["no character 'Temp'"],
    )
    .await;
    s.err(
        "delete_character",
        json!({}),
        &["characterId or characterName"],
    )
    .await;
    s.err(
        "delete_character",
        json!({"characterId": 5}),
        &["characterId"],
    )
    .await;
    s.client.close().await.unwrap();
}

#[tokio::test]
async fn roll_check() {
    let s = Session::start(77).await;
    s.hero("Rook").await;
    s.hero("Wren").await;
    let a = s
        .ok(
            "roll_check",
            json!({"characterName": "Rook", "checkType": "skill", "skill": "athletics", "dc": 10}),
        )
        .await;
    assert!(a.text.starts_with("Rook — Athletics check"), "{}", a.text);
    // Athletics: STR +3 and proficiency +2; against DC 10 the d20 shown decides.
    assert_eq!(
        a.structured["outcome"]["modifierTotal"], 5,
        "{}",
        a.structured
    );
    let d20 = a.structured["outcome"]["rolls"][0].as_i64().unwrap();
    assert_eq!(a.structured["outcome"]["total"], d20 + 5);
    assert_eq!(a.structured["outcome"]["success"], d20 + 5 >= 10);
    let a = s.ok("roll_check", json!({"characterName": "Rook", "checkType": "save", "ability": "con", "advantage": true})).await;
    assert_eq!(
        a.structured["outcome"]["rolls"].as_array().unwrap().len(),
        2
    );
    let a = s
        .ok(
            "roll_check",
            json!({"characterName": "Rook", "checkType": "passive", "skill": "perception"}),
        )
        .await;
    assert_eq!(a.structured["outcome"]["value"], 10);
    let a = s
        .ok(
            "roll_check",
            json!({"characterName": "Rook", "checkType": "initiative"}),
        )
        .await;
    assert_eq!(a.structured["outcome"]["modifierTotal"], 1);
    let a = s
        .ok(
            "roll_check",
            json!({"characterName": "Rook", "checkType": "skill", "skill": "athletics",
             "contestedBy": {"characterName": "Wren", "skill": "acrobatics"}}),
        )
        .await;
    // Seeded: 23 against 12.
    assert!(
        a.text
            .starts_with("Rook Athletics check 23 vs Wren Acrobatics check 12 — first wins"),
        "{}",
        a.text
    );
    assert_eq!(a.structured["winner"], "first", "{}", a.structured);
    let a = s
        .ok(
            "roll_check",
            json!({"group": true, "batch": [
            {"characterName": "Rook", "checkType": "skill", "skill": "stealth", "dc": 10},
            {"characterName": "Wren", "checkType": "skill", "skill": "stealth", "dc": 10}]}),
        )
        .await;
    assert!(a.text.starts_with("Group check:"), "{}", a.text);
    s.err(
        "roll_check",
        json!({"characterName": "Rook", "checkType": "skil"}),
        &["did you mean 'skill'"],
    )
    .await;
    s.err(
        "roll_check",
        json!({"characterName": "Rook", "checkType": "skill"}),
        &["needs skill"],
    )
    .await;
    s.err(
        "roll_check",
        json!({"characterName": "Rook", "checkType": "save"}),
        &["ability"],
    )
    .await;
    s.err(
        "roll_check",
        json!({"characterName": "Rook", "checkType": "skill", "skill": "arcana", "dc": 99}),
        &["0–60"],
    )
    .await;
    s.err(
        "roll_check",
        json!({"checkType": "initiative"}),
        &["characterId or characterName"],
    )
    .await;
    s.err("roll_check", json!({"group": true, "batch": [{"characterName": "Rook", "checkType": "skill", "skill": "stealth"}]}), &["every member of a group check needs the DC"]).await;
    s.client.close().await.unwrap();
}

#[tokio::test]
async fn unknown_tools_and_bad_argument_shapes() {
    let s = Session::start(77).await;
    s.err("roll_dise", json!({}), &["did you mean 'roll_dice'"])
        .await;
    s.client.close().await.unwrap();
}

#[tokio::test]
async fn effects_and_conditions_change_rolls() {
    let s = Session::start(77).await;
    s.hero("Aria").await;
    s.ok(
        "manage_effect",
        json!({"characterName": "Aria", "operation": "add", "name": "Bless"}),
    )
    .await;
    let a = s
        .ok(
            "roll_check",
            json!({"characterName": "Aria", "checkType": "attack"}),
        )
        .await;
    assert!(
        a.text.contains("1d4") && a.text.contains("(Bless)"),
        "{}",
        a.text
    );
    let a = s
        .ok(
            "manage_effect",
            json!({"characterName": "Aria", "operation": "add", "name": "Curse", "duration": "until_rest",
                   "modifiers": [{"type": "disadvantage", "on": {"roll": "save", "ability": "wis"}}]}),
        )
        .await;
    assert_eq!(a.structured["effects"].as_array().unwrap().len(), 2);
    let a = s
        .ok("get_character", json!({"characterName": "Aria"}))
        .await;
    assert!(
        a.text.contains("Effect Bless") && a.text.contains("disadvantage: Curse"),
        "{}",
        a.text
    );
    s.ok(
        "manage_condition",
        json!({"characterName": "Aria", "operation": "add", "condition": "poisoned"}),
    )
    .await;
    let a = s
        .ok(
            "roll_check",
            json!({"characterName": "Aria", "checkType": "skill", "skill": "athletics"}),
        )
        .await;
    assert!(a.text.contains("disadvantage: poisoned"), "{}", a.text);
    assert_eq!(a.structured["outcome"]["mode"], "disadvantage");
    // Exhaustion 2 → a long rest → 1.
    s.ok(
        "manage_condition",
        json!({"characterName": "Aria", "operation": "add", "condition": "exhaustion", "level": 2}),
    )
    .await;
    let a = s
        .ok(
            "take_rest",
            json!({"characterName": "Aria", "type": "long"}),
        )
        .await;
    assert!(a.text.contains("exhaustion 2 → 1"), "{}", a.text);
    assert!(a.text.contains("ends: Curse"), "{}", a.text);
    // Bad inputs name the fix.
    s.err(
        "manage_condition",
        json!({"characterName": "Aria", "operation": "add", "condition": "poisnd"}),
        &["did you mean 'poisoned'", "allowed:"],
    )
    .await;
    s.err(
        "manage_condition",
        json!({"characterName": "Aria", "operation": "add"}),
        &["needs condition"],
    )
    .await;
    s.err(
        "manage_condition",
        json!({"characterName": "Aria", "operation": "add", "condition": "stunned", "duration": "save_ends"}),
        &["saveDC", "saveAbility"],
    )
    .await;
    s.ok(
        "update_character",
        json!({"characterName": "Aria", "defenses": [{"kind": "condition_immunity", "against": "charmed"}]}),
    )
    .await;
    s.err(
        "manage_condition",
        json!({"characterName": "Aria", "operation": "add", "condition": "charmed"}),
        &["immune to charmed", "not added"],
    )
    .await;
    s.err(
        "manage_effect",
        json!({"characterName": "Aria", "operation": "add", "name": "Bless", "modifiers": [{"type": "ac_bonuss"}]}),
        &["modifiers", "ac_bonus"],
    )
    .await;
    s.err(
        "manage_effect",
        json!({"characterName": "Aria", "operation": "remove", "name": "Nope"}),
        // Bless (1 minute) ran out during the long rest's 8 hours on the world clock.
        &["no effect 'Nope' on 'Aria'"],
    )
    .await;
    s.err(
        "take_rest",
        json!({"characterName": "Aria", "type": "nap"}),
        &["short, long"],
    )
    .await;
    s.client.close().await.unwrap();
}

#[tokio::test]
async fn concentration_saves_after_damage_and_failure_ends_it() {
    let s = Session::start(77).await;
    s.ok(
        "create_character",
        json!({"name": "Cleo", "hp": 60, "customClass": {"name": "Cleric", "hitDie": 8},
               "stats": {"str": 10, "dex": 10, "con": 10, "int": 10, "wis": 16, "cha": 10}}),
    )
    .await;
    s.hero("Bran").await;
    let mut failed = false;
    for _ in 0..20 {
        s.ok(
            "manage_effect",
            json!({"characterName": "Bran", "operation": "add", "name": "Bless", "caster": "Cleo"}),
        )
        .await;
        let a = s
            .ok(
                "update_character",
                json!({"characterName": "Cleo", "damage": [{"amount": 22, "type": "slashing"}]}),
            )
            .await;
        assert!(a.text.contains("DC 11"), "{}", a.text);
        assert_eq!(a.structured["concentration"][0]["dc"], 11);
        s.ok(
            "update_character",
            json!({"characterName": "Cleo", "hp": 60}),
        )
        .await;
        if a.structured["concentration"][0]["kept"] == false {
            assert!(
                a.text.contains("concentration on Bless ends") && a.text.contains("Bless on Bran"),
                "{}",
                a.text
            );
            let b = s
                .ok(
                    "manage_effect",
                    json!({"characterName": "Bran", "operation": "list"}),
                )
                .await;
            assert!(b.text.contains("has no effects"), "{}", b.text);
            failed = true;
            break;
        }
    }
    assert!(failed, "20 saves at DC 11 with +0 all succeeded");
    let a = s
        .ok(
            "manage_concentration",
            json!({"characterName": "Cleo", "operation": "set", "spellName": "Hold Person"}),
        )
        .await;
    assert!(a.text.contains("concentrates on Hold Person"), "{}", a.text);
    let a = s
        .ok(
            "manage_concentration",
            json!({"characterName": "Cleo", "operation": "check", "damageAmount": 30}),
        )
        .await;
    assert_eq!(a.structured["check"]["dc"], 15);
    s.err(
        "manage_concentration",
        json!({"characterName": "Cleo", "operation": "check"}),
        &["damageAmount"],
    )
    .await;
    s.err(
        "manage_concentration",
        json!({"characterName": "Cleo", "operation": "set"}),
        &["spellName"],
    )
    .await;
    s.client.close().await.unwrap();
}

#[tokio::test]
async fn slots_levels_and_rests() {
    let s = Session::start(77).await;
    s.hero("Aria").await;
    s.err(
        "manage_spell_slots",
        json!({"characterName": "Aria", "operation": "expend", "level": 1}),
        &["no 1st-level slots", "operation set"],
    )
    .await;
    s.ok(
        "manage_spell_slots",
        json!({"characterName": "Aria", "operation": "set", "level": 1, "max": 2}),
    )
    .await;
    let a = s
        .ok(
            "manage_spell_slots",
            json!({"batch": [{"characterName": "Aria", "operation": "expend", "level": 1},
                             {"characterName": "Aria", "operation": "expend", "level": 1, "count": 2}]}),
        )
        .await;
    assert!(a.text.starts_with("Batch: 1 of 2 succeeded."), "{}", a.text);
    let a = s
        .ok(
            "level_up",
            json!({"characterName": "Aria", "targetLevel": 4, "hpMethod": "max"}),
        )
        .await;
    assert!(a.text.contains("level 1 to 4"), "{}", a.text);
    assert_eq!(a.structured["asiLevels"], json!([4]));
    assert_eq!(a.structured["maxHp"][1], 12 + 3 * 12);
    s.err(
        "level_up",
        json!({"characterName": "Aria", "targetLevel": 2}),
        &["targetLevel", "5–20"],
    )
    .await;
    s.err(
        "level_up",
        json!({"characterName": "Aria", "hpMethod": "manual"}),
        &["hpMethod manual needs hp: the total HP gained"],
    )
    .await;
    s.ok("update_character", json!({"characterName": "Aria", "hp": "-10", "resources": [{"name": "Second Wind", "max": 1, "current": 0, "recharge": "short"}]}))
        .await;
    let a = s
        .ok(
            "take_rest",
            json!({"characterName": "Aria", "type": "short", "hitDice": 2}),
        )
        .await;
    assert_eq!(
        a.structured["hitDiceRolls"].as_array().unwrap().len(),
        2,
        "{}",
        a.text
    );
    assert!(a.text.contains("Second Wind restored"), "{}", a.text);
    s.err(
        "take_rest",
        json!({"characterName": "Aria", "type": "short", "hitDice": 9}),
        &["hit dice", "left"],
    )
    .await;
    if !common::srd("the SRD half of slots_levels_and_rests") {
        s.client.close().await.unwrap();
        return;
    }
    s.ok(
        "create_character",
        json!({"name": "Wiz", "class": "wizard", "level": 4,
               "stats": {"str": 8, "dex": 14, "con": 12, "int": 16, "wis": 12, "cha": 10}}),
    )
    .await;
    let a = s
        .ok(
            "level_up",
            json!({"characterName": "Wiz", "targetLevel": 5}),
        )
        .await;
    assert!(a.text.contains("3rd 2/2"), "{}", a.text);
    let a = s
        .ok(
            "manage_spell_slots",
            json!({"characterName": "Wiz", "operation": "expend", "level": 3}),
        )
        .await;
    assert!(a.text.contains("3rd 1/2"), "{}", a.text);
    s.client.close().await.unwrap();
}

/// A repeated read is answered from the server's memo while nothing changes, and follows every
/// change: a write through the same connection, and a write by another process on the same
/// campaign (`tabletop call` on the data dir). The kept answer is the answer, byte for byte.
#[tokio::test]
async fn repeated_reads_follow_every_change() {
    let s = Session::start(5).await;
    s.hero("Mira").await;
    let get = json!({"characterName": "Mira"});
    let first = s.ok("get_character", get.clone()).await;
    let again = s.ok("get_character", get.clone()).await;
    assert_eq!(first.text, again.text);
    assert_eq!(first.structured, again.structured);
    let max = first.structured["character"]["maxHp"].as_i64().unwrap();
    assert_eq!(first.structured["character"]["hp"].as_i64(), Some(max));

    // A write through this connection.
    s.ok(
        "update_character",
        json!({"characterName": "Mira", "hp": "-3"}),
    )
    .await;
    let after = s.ok("get_character", get.clone()).await;
    assert_eq!(after.structured["character"]["hp"].as_i64(), Some(max - 3));
    assert_ne!(after.text, first.text);

    // A write by another process on the same store.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .arg("--data-dir")
        .arg(s.data_dir())
        .args([
            "call",
            "update_character",
            r#"{"characterName":"Mira","hp":"+1"}"#,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seen = s.ok("get_character", get.clone()).await;
    assert_eq!(seen.structured["character"]["hp"].as_i64(), Some(max - 2));
    // And a kept answer that is still right is given again.
    let kept = s.ok("get_character", get).await;
    assert_eq!(kept.structured, seen.structured);
    assert_eq!(kept.text, seen.text);
}
