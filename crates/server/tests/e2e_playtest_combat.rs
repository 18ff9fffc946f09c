//! Combat rules a DM play-test found wrong or only displayed, end to end over the real binary
//! with SRD-built characters and SRD monsters, SRD facts read from the JSON at run time: a stat
//! block weapon with a choice of damage, Sneak Attack beside an incapacitated ally, Lay on Hands
//! on a named creature, Reckless Attack and Patient Defense lasting until the next turn,
//! Improved Divine Smite, Stunning Strike after a hit only, and Enlarge's token on the map.

use super::common;

use common::{Session, srd_record};
use serde_json::{Value, json};

use common::srd_here as srd;

fn stats(str_: u8, dex: u8) -> Value {
    json!({"str": str_, "dex": dex, "con": 14, "int": 10, "wis": 16, "cha": 14})
}

async fn pc(s: &Session, name: &str, race: &str, class: &str, level: u32, st: Value) {
    s.ok(
        "create_character",
        json!({"name": name, "race": race, "class": class, "level": level, "stats": st}),
    )
    .await;
}

/// Attacks (forced) until one hits; the hit's answer.
async fn hit(s: &Session, args: Value) -> String {
    for _ in 0..12 {
        let a = s.ok("execute_action", args.clone()).await;
        if a.text.starts_with("Hit!") || a.text.starts_with("Critical hit!") {
            return a.text;
        }
    }
    panic!("no hit in 12 tries: {args}");
}

#[tokio::test]
async fn a_stat_block_weapon_with_a_choice_of_damage_strikes_with_its_first_option() {
    if !srd() {
        return;
    }
    let s = Session::start(21).await;
    let sword = srd_record("Monsters", "hobgoblin")["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "Longsword")
        .cloned()
        .unwrap();
    let first = &sword["damage"][0]["from"]["options"][0];
    let dice = first["damage_dice"].as_str().unwrap().replace('+', " + ");
    let grip = first["notes"].as_str().unwrap().to_lowercase();
    pc(&s, "Tank", "human", "fighter", 5, stats(16, 10)).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Tank", "position": {"x": 5, "y": 5}, "initiative": 1},
            {"monster": "hobgoblin", "position": {"x": 6, "y": 5}, "initiative": 30}
        ]}),
    )
    .await;
    let text = hit(
        &s,
        json!({"actorName": "Hobgoblin", "actionType": "attack", "targetName": "Tank", "force": true}),
    )
    .await;
    assert!(
        text.contains(&format!("Hobgoblin attack with Longsword ({grip}):")),
        "{text}"
    );
    assert!(
        text.contains(&format!("Damage: ({dice})[slashing]")),
        "{text}"
    );
}

#[tokio::test]
async fn sneak_attack_needs_an_ally_beside_the_target_that_is_not_incapacitated() {
    if !srd() {
        return;
    }
    let s = Session::start(13).await;
    let sa = srd_record("Features", "sneak-attack")["desc"][1]
        .as_str()
        .unwrap()
        .to_string();
    assert!(sa.contains("that enemy isn't incapacitated"), "{sa}");
    pc(&s, "Rogue", "human", "rogue", 3, stats(10, 16)).await;
    pc(&s, "Pal", "human", "fighter", 3, stats(16, 10)).await;
    s.ok(
        "manage_inventory",
        json!({"operation": "give", "characterName": "Rogue", "itemName": "Rapier"}),
    )
    .await;
    s.ok(
        "manage_inventory",
        json!({"operation": "equip", "characterName": "Rogue", "itemName": "Rapier"}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Rogue", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"characterName": "Pal", "position": {"x": 7, "y": 5}, "initiative": 20},
            {"monster": "thug", "position": {"x": 6, "y": 5}, "initiative": 1}
        ]}),
    )
    .await;
    s.ok(
        "manage_condition",
        json!({"operation": "add", "characterName": "Pal", "condition": "unconscious"}),
    )
    .await;
    let text = hit(
        &s,
        json!({"actorName": "Rogue", "actionType": "attack", "targetName": "Thug", "weapon": "Rapier", "force": true}),
    )
    .await;
    assert!(
        text.contains("No Sneak Attack: it needs advantage, or an ally within 5 ft of the target that is not incapacitated, and no disadvantage."),
        "{text}"
    );
    assert!(!text.contains("Sneak Attack: +"), "{text}");
    // Awake, the same ally makes it count.
    s.ok(
        "manage_condition",
        json!({"operation": "remove", "characterName": "Pal", "condition": "unconscious"}),
    )
    .await;
    let text = hit(
        &s,
        json!({"actorName": "Rogue", "actionType": "attack", "targetName": "Thug", "weapon": "Rapier", "force": true}),
    )
    .await;
    assert!(
        text.contains("Sneak Attack: +2d6 (Pal is within 5 ft of Thug; once per turn)"),
        "{text}"
    );
}

#[tokio::test]
async fn lay_on_hands_heals_the_creature_named_by_target_name() {
    if !srd() {
        return;
    }
    let s = Session::start(5).await;
    pc(&s, "Pal", "human", "paladin", 5, stats(16, 10)).await;
    pc(&s, "Cleric", "human", "cleric", 5, stats(10, 10)).await;
    s.ok(
        "update_character",
        json!({"characterName": "Cleric", "damage": [{"amount": 20, "type": "slashing"}]}),
    )
    .await;
    let before = s
        .ok("get_character", json!({"characterName": "Cleric"}))
        .await;
    let hp = before.structured["character"]["hp"].as_u64().unwrap();
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Pal", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"characterName": "Cleric", "position": {"x": 6, "y": 5}, "initiative": 20}
        ]}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Pal", "actionType": "use_special_ability", "abilityName": "Lay on Hands",
                   "targetName": "Cleric", "amount": "12"}),
        )
        .await;
    assert!(
        a.text
            .contains(&format!("Cleric regains 12 HP ({hp} → {})", hp + 12)),
        "{}",
        a.text
    );
}

#[tokio::test]
async fn reckless_attack_and_patient_defense_last_until_the_users_next_turn() {
    if !srd() {
        return;
    }
    let s = Session::start(17).await;
    for (index, text) in [
        ("reckless-attack", "until your next turn"),
        ("patient-defense", "Dodge action"),
    ] {
        let desc = srd_record("Features", index)["desc"].to_string();
        assert!(desc.contains(text), "{index}: {desc}");
    }
    pc(&s, "Barb", "human", "barbarian", 5, stats(16, 14)).await;
    pc(&s, "Monk", "human", "monk", 5, stats(10, 16)).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Barb", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"characterName": "Monk", "position": {"x": 9, "y": 5}, "initiative": 25},
            {"monster": "ogre", "position": {"x": 6, "y": 5}, "initiative": 10},
            {"monster": "thug", "position": {"x": 10, "y": 5}, "initiative": 5}
        ]}),
    )
    .await;
    s.ok(
        "execute_action",
        json!({"actorName": "Barb", "actionType": "use_special_ability", "abilityName": "Reckless Attack"}),
    )
    .await;
    s.ok("advance_turn", json!({})).await;
    s.ok(
        "execute_action",
        json!({"actorName": "Monk", "actionType": "use_special_ability", "abilityName": "Patient Defense"}),
    )
    .await;
    s.ok("advance_turn", json!({})).await;
    // The ogre's turn: the barbarian's recklessness still holds.
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Ogre", "actionType": "attack", "targetName": "Barb"}),
        )
        .await;
    assert!(
        a.text.contains("(advantage: target Reckless Attack)"),
        "{}",
        a.text
    );
    s.ok("advance_turn", json!({})).await;
    // The thug's turn: the monk still dodges.
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Thug", "actionType": "attack", "targetName": "Monk"}),
        )
        .await;
    assert!(a.text.contains("disadvantage"), "{}", a.text);
    assert!(a.text.contains("Patient Defense"), "{}", a.text);
    // The barbarian's next turn begins: its recklessness ends.
    let a = s.ok("advance_turn", json!({})).await;
    assert!(
        a.text
            .contains("Reckless Attack on Barb ends (duration over)"),
        "{}",
        a.text
    );
}

#[tokio::test]
async fn improved_divine_smite_adds_a_radiant_d8_to_every_melee_weapon_hit() {
    if !srd() {
        return;
    }
    let s = Session::start(19).await;
    let ids = srd_record("Features", "improved-divine-smite");
    let level = ids["level"].as_u64().unwrap();
    assert!(ids["desc"].to_string().contains("1d8 radiant"), "{ids}");
    pc(&s, "Pal", "human", "paladin", level as u32, stats(16, 10)).await;
    pc(
        &s,
        "Pal2",
        "human",
        "paladin",
        level as u32 - 1,
        stats(16, 10),
    )
    .await;
    for p in ["Pal", "Pal2"] {
        s.ok(
            "manage_inventory",
            json!({"operation": "give", "characterName": p, "itemName": "Longsword"}),
        )
        .await;
        s.ok(
            "manage_inventory",
            json!({"operation": "equip", "characterName": p, "itemName": "Longsword"}),
        )
        .await;
    }
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Pal", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"characterName": "Pal2", "position": {"x": 7, "y": 5}, "initiative": 20},
            {"monster": "ogre", "position": {"x": 5, "y": 6}, "initiative": 1}
        ]}),
    )
    .await;
    let text = hit(
        &s,
        json!({"actorName": "Pal", "actionType": "attack", "targetName": "Ogre", "weapon": "Longsword", "force": true}),
    )
    .await;
    assert!(
        text.contains("Improved Divine Smite: +1d8 radiant (melee weapon hit)."),
        "{text}"
    );
    assert!(text.contains("1d8[radiant]"), "{text}");
    let text = hit(
        &s,
        json!({"actorName": "Pal2", "actionType": "attack", "targetName": "Ogre", "weapon": "Longsword", "force": true}),
    )
    .await;
    assert!(!text.contains("Improved Divine Smite"), "{text}");
}

#[tokio::test]
async fn stunning_strike_follows_a_melee_hit_on_that_creature_this_turn() {
    if !srd() {
        return;
    }
    let s = Session::start(23).await;
    let desc = srd_record("Features", "stunning-strike")["desc"].to_string();
    assert!(
        desc.contains("When you hit another creature with a melee weapon attack"),
        "{desc}"
    );
    pc(&s, "Monk", "human", "monk", 5, stats(10, 16)).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Monk", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "thug", "name": "T1", "position": {"x": 6, "y": 5}, "initiative": 1},
            {"monster": "thug", "name": "T2", "position": {"x": 5, "y": 6}, "initiative": 2}
        ]}),
    )
    .await;
    let stun = |t: &str| json!({"actorName": "Monk", "actionType": "use_special_ability", "abilityName": "Stunning Strike", "targetName": t});
    s.err(
        "execute_action",
        stun("T1"),
        &["Stunning Strike follows a melee weapon hit, and Monk has not hit T1 with one this turn"],
    )
    .await;
    hit(
        &s,
        json!({"actorName": "Monk", "actionType": "attack", "targetName": "T1", "weapon": "unarmed strike", "force": true}),
    )
    .await;
    s.err(
        "execute_action",
        stun("T2"),
        &["Monk has not hit T2 with one this turn"],
    )
    .await;
    let sheet = s
        .ok("get_character", json!({"characterName": "Monk"}))
        .await;
    assert!(sheet.text.contains("Ki 5/5"), "{}", sheet.text);
    let a = s.ok("execute_action", stun("T1")).await;
    assert!(a.text.contains("Ki: 4/5 left"), "{}", a.text);
    assert!(
        a.text.contains("T1 — Constitution save (Stunning Strike)"),
        "{}",
        a.text
    );
}

#[tokio::test]
async fn enlarge_gives_its_target_a_large_token() {
    if !srd() {
        return;
    }
    let s = Session::start(3).await;
    let desc = srd_record("Spells", "enlarge-reduce")["desc"].to_string();
    assert!(desc.contains("one category"), "{desc}");
    s.ok(
        "create_character",
        json!({"name": "Wz", "race": "human", "class": "wizard", "level": 5, "stats": stats(8, 14),
               "spells": ["enlarge-reduce"]}),
    )
    .await;
    pc(&s, "Fi", "human", "fighter", 5, stats(16, 10)).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Wz", "position": {"x": 2, "y": 2}, "initiative": 30},
            {"characterName": "Fi", "position": {"x": 4, "y": 2}, "initiative": 20}
        ]}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Wz", "actionType": "cast_spell", "spell": "Enlarge/Reduce", "targetName": "Fi"}),
        )
        .await;
    assert!(
        a.text
            .lines()
            .any(|l| l == "Fi is large now: its token takes 2×2 squares from (4, 2)"),
        "{}",
        a.text
    );
    let sheet = s.ok("get_character", json!({"characterName": "Fi"})).await;
    assert_eq!(sheet.structured["effective"]["size"], "large");
    // Its concentration broken, the token goes back to one square.
    let a = s
        .ok(
            "manage_concentration",
            json!({"operation": "break", "characterName": "Wz"}),
        )
        .await;
    let _ = a;
    let a = s.ok("advance_turn", json!({})).await;
    assert!(
        a.text
            .contains("Fi is medium now: its token takes 1×1 squares from (4, 2)"),
        "{}",
        a.text
    );
}

#[tokio::test]
async fn reckless_attack_is_melee_strength_only_and_decided_before_the_first_attack() {
    if !srd() {
        return;
    }
    let desc = srd_record("Features", "reckless-attack")["desc"].to_string();
    for text in [
        "when you make your first attack on your turn",
        "advantage on melee weapon attack rolls using strength during this turn",
    ] {
        assert!(desc.to_lowercase().contains(text), "{text}: {desc}");
    }
    let s = Session::start(23).await;
    s.ok(
        "create_character",
        json!({"name": "Barb", "race": "human", "class": "barbarian", "level": 5,
               "stats": stats(16, 14), "equipment": ["longsword", "javelin"]}),
    )
    .await;
    for (item, slot) in [("Longsword", "mainhand"), ("Javelin", "offhand")] {
        s.ok(
            "manage_inventory",
            json!({"operation": "equip", "characterName": "Barb", "itemName": item, "slot": slot}),
        )
        .await;
    }
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Barb", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "ogre", "position": {"x": 6, "y": 5}, "initiative": 10},
            {"monster": "goblin", "position": {"x": 5, "y": 9}, "initiative": 5}
        ]}),
    )
    .await;
    let r = s
        .ok(
            "execute_action",
            json!({"actorName": "Barb", "actionType": "use_special_ability", "abilityName": "Reckless Attack"}),
        )
        .await;
    assert!(
        r.text.contains(
            "advantage on melee weapon attacks using STR; attacks against it have advantage"
        ),
        "{}",
        r.text
    );
    // The longsword swung with STR has the advantage.
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Barb", "actionType": "attack", "targetName": "Ogre", "weapon": "Longsword"}),
        )
        .await;
    assert!(
        a.text.contains("(advantage: Reckless Attack)"),
        "{}",
        a.text
    );
    // Once it has attacked, recklessness can no longer be decided this turn.
    s.err(
        "execute_action",
        json!({"actorName": "Barb", "actionType": "use_special_ability", "abilityName": "Reckless Attack"}),
        &["Reckless Attack is decided with the first attack of the turn, and Barb has already attacked this turn"],
    )
    .await;
    // Extra Attack with a thrown javelin, a ranged attack: no advantage from recklessness.
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Barb", "actionType": "attack", "targetName": "Goblin", "weapon": "Javelin"}),
        )
        .await;
    assert!(a.text.contains("Barb attack with Javelin"), "{}", a.text);
    assert!(!a.text.contains("Reckless Attack"), "{}", a.text);
    // On the ogre's turn, its attack has advantage against the barbarian.
    s.ok("advance_turn", json!({})).await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Ogre", "actionType": "attack", "targetName": "Barb"}),
        )
        .await;
    assert!(
        a.text.contains("(advantage: target Reckless Attack)"),
        "{}",
        a.text
    );
}

#[tokio::test]
async fn reckless_attack_is_refused_after_a_bonus_action_attack_made_first() {
    if !srd() {
        return;
    }
    let frenzy = srd_record("Features", "frenzy")["desc"].to_string();
    assert!(
        frenzy.contains("single melee weapon attack as a bonus action"),
        "{frenzy}"
    );
    let s = Session::start(29).await;
    s.ok(
        "create_character",
        json!({"name": "Berserk", "race": "human",
               "classes": [{"class": "barbarian", "level": 5, "subclass": "berserker"}],
               "stats": stats(16, 14), "equipment": ["greataxe"]}),
    )
    .await;
    s.ok(
        "manage_inventory",
        json!({"operation": "equip", "characterName": "Berserk", "itemName": "Greataxe", "slot": "mainhand"}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Berserk", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "ogre", "position": {"x": 6, "y": 5}, "initiative": 10}
        ]}),
    )
    .await;
    s.ok(
        "execute_action",
        json!({"actorName": "Berserk", "actionType": "use_special_ability", "abilityName": "Rage"}),
    )
    .await;
    s.ok(
        "execute_action",
        json!({"actorName": "Berserk", "actionType": "attack", "targetName": "Ogre", "weapon": "Greataxe"}),
    )
    .await;
    s.ok("advance_turn", json!({})).await;
    s.ok("advance_turn", json!({})).await;
    // The frenzied barbarian's bonus-action attack comes first this turn: it is the first attack.
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Berserk", "actionType": "attack", "targetName": "Ogre",
                   "weapon": "Greataxe", "actionCost": "bonus_action"}),
        )
        .await;
    assert!(
        a.text.contains("Berserk attack with Greataxe"),
        "{}",
        a.text
    );
    s.err(
        "execute_action",
        json!({"actorName": "Berserk", "actionType": "use_special_ability", "abilityName": "Reckless Attack"}),
        &["Reckless Attack is decided with the first attack of the turn, and Berserk has already attacked this turn"],
    )
    .await;
    // Next turn, decided before any attack, it is taken.
    s.ok("advance_turn", json!({})).await;
    s.ok("advance_turn", json!({})).await;
    let r = s
        .ok(
            "execute_action",
            json!({"actorName": "Berserk", "actionType": "use_special_ability", "abilityName": "Reckless Attack"}),
        )
        .await;
    assert!(
        r.text.contains("attacks against it have advantage"),
        "{}",
        r.text
    );
}

#[tokio::test]
async fn a_prone_creature_is_told_the_movement_left_after_standing_up() {
    if !srd() {
        return;
    }
    let prone = srd_record("Conditions", "prone")["desc"].to_string();
    assert!(
        prone.contains("only movement option is to crawl"),
        "{prone}"
    );
    let s = Session::start(1).await;
    s.ok(
        "create_character",
        json!({"name": "Pip", "race": "halfling", "subrace": "lightfoot halfling", "class": "rogue", "level": 3,
               "stats": {"str": 8, "dex": 16, "con": 14, "int": 12, "wis": 10, "cha": 14}}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Pip", "position": {"x": 5, "y": 5}, "initiative": 20},
            {"monster": "orc", "position": {"x": 12, "y": 5}, "initiative": 5}]}),
    )
    .await;
    s.ok(
        "manage_condition",
        json!({"characterName": "Pip", "operation": "add", "condition": "prone"}),
    )
    .await;
    // Speed 25: standing up costs 12 ft (half, rounded down), which leaves 13.
    s.err(
        "execute_action",
        json!({"actorName": "Pip", "actionType": "move", "to": {"x": 2, "y": 5}}),
        &["moving Pip to (2, 5) costs 15 ft after standing up but it has 13 ft of movement left (speed 25, used 12)"],
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Pip", "actionType": "move", "to": {"x": 4, "y": 5}}),
        )
        .await;
    assert!(
        a.text.lines().any(|l| l
            == "Pip stands up from prone first (costs 12 ft; no automation for crawling instead, 1 extra foot per foot: the DM decides, e.g. with force)."),
        "{}",
        a.text
    );
    assert!(
        a.text
            .contains("Pip moves 5 ft to (4, 5) (8 ft of movement left)"),
        "{}",
        a.text
    );
}
