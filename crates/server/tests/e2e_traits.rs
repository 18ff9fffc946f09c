//! Race traits and class features a DM play-test found listed on the sheet but never applied,
//! end to end over the real binary with SRD-built characters, each SRD fact read from the SRD
//! JSON at run time: Halfling Lucky rerolls a natural 1 (attack rolls, checks, saves, death
//! saves), Half-Orc Relentless Endurance leaves 1 HP once per long rest, Danger Sense gives
//! advantage on DEX saves against what the barbarian sees, and Fey Ancestry keeps Sleep off an
//! elf or half-elf without spending the pool on it. Seeds are pinned: each natural 1 asserted is
//! the one that seed's dice give.

use super::common;

use common::{Session, srd_desc as desc};
use serde_json::json;

use common::srd_here as srd;

/// A lightfoot halfling rogue 3 with a shortsword in hand (21 HP).
async fn pip(s: &Session) {
    s.ok(
        "create_character",
        json!({"name": "Pip", "race": "halfling", "subrace": "lightfoot-halfling", "class": "rogue", "level": 3,
               "stats": {"str": 10, "dex": 16, "con": 12, "int": 10, "wis": 10, "cha": 12},
               "equipment": ["shortsword"]}),
    )
    .await;
    s.ok(
        "manage_inventory",
        json!({"operation": "equip", "characterName": "Pip", "itemName": "Shortsword"}),
    )
    .await;
}

fn lucky_oracle() {
    let lucky = desc("Traits", "lucky");
    assert!(
        lucky.contains(
            "when you roll a 1 on the d20 for an attack roll, ability check, or saving throw, \
             you can reroll the die and must use the new roll"
        ),
        "{lucky}"
    );
}

#[tokio::test]
async fn a_halfling_rerolls_a_natural_one_on_checks_and_saves() {
    if !srd() {
        return;
    }
    lucky_oracle();
    let s = Session::start(1).await;
    pip(&s).await;
    // Saves and Stealth checks in turn: seed 1's dice give natural 1s at rolls 9, 12 and 23.
    let mut lucky = Vec::new();
    for i in 0..24 {
        let args = if i % 2 == 0 {
            json!({"characterName": "Pip", "checkType": "save", "ability": "wis", "dc": 12})
        } else {
            json!({"characterName": "Pip", "checkType": "skill", "skill": "stealth", "dc": 12})
        };
        let a = s.ok("roll_check", args).await;
        assert!(!a.text.contains("natural 1"), "{i}: {}", a.text);
        if a.text.contains("→") {
            lucky.push((i, a.text.clone()));
        }
    }
    assert_eq!(
        lucky,
        vec![
            (
                9,
                "Pip — Stealth check: d20 [1→6] (Lucky) + 6 = 12 vs DC 12 — success".to_string()
            ),
            (
                12,
                "Pip — Wisdom save: d20 [1→11] (Lucky) = 11 vs DC 12 — fail".to_string()
            ),
            (
                23,
                "Pip — Stealth check: d20 [1→18] (Lucky) + 6 = 24 vs DC 12 — success".to_string()
            ),
        ]
    );
}

#[tokio::test]
async fn a_halfling_rerolls_a_natural_one_on_attacks_and_death_saves() {
    if !srd() {
        return;
    }
    lucky_oracle();
    let s = Session::start(1).await;
    pip(&s).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Pip", "position": {"x": 2, "y": 2}, "initiative": 30},
            {"monster": "adult-red-dragon", "position": {"x": 3, "y": 2}, "initiative": 1}]}),
    )
    .await;
    let mut lucky = Vec::new();
    for i in 0..16 {
        let a = s
            .ok(
                "execute_action",
                json!({"actorName": "Pip", "actionType": "attack", "targetName": "Adult Red Dragon", "weapon": "Shortsword"}),
            )
            .await;
        assert!(!a.text.contains("natural 1"), "{i}: {}", a.text);
        lucky.extend(
            a.text
                .lines()
                .filter(|l| l.starts_with("Pip attack") && l.contains("→"))
                .map(|l| (i, l.to_string())),
        );
        s.ok("advance_turn", json!({})).await;
        s.ok("advance_turn", json!({})).await;
    }
    let line = |n: u32, total: u32, verdict: &str| {
        format!(
            "Pip attack with Shortsword: d20 [1→{n}] (Lucky) + 6 = {total} vs AC 19 — {verdict}"
        )
    };
    assert_eq!(
        lucky,
        vec![
            (5, line(6, 12, "miss")),
            (7, line(11, 17, "miss")),
            (15, line(18, 24, "hit")),
        ]
    );
    s.ok("end_encounter", json!({"outcome": "truce"})).await;

    // Death saves are saving throws: a fresh session, Pip dropped to 0 and healed each time.
    let s = Session::start(1).await;
    pip(&s).await;
    let mut lucky = Vec::new();
    for i in 0..24 {
        s.ok(
            "update_character",
            json!({"characterName": "Pip", "damage": {"amount": 21, "type": "bludgeoning"}}),
        )
        .await;
        let a = s
            .ok("roll_death_save", json!({"characterName": "Pip"}))
            .await;
        assert!(!a.text.contains("natural 1"), "{i}: {}", a.text);
        if a.text.contains("→") {
            lucky.push((i, a.text.clone()));
        }
        s.ok(
            "update_character",
            json!({"characterName": "Pip", "healing": 100}),
        )
        .await;
    }
    assert_eq!(
        lucky,
        vec![
            (
                9,
                "Pip — Death save: d20 [1→6] (Lucky) = 6 — failure (0 successes, 1 failures)"
                    .to_string()
            ),
            (
                12,
                "Pip — Death save: d20 [1→11] (Lucky) = 11 — success (1 successes, 0 failures)"
                    .to_string()
            ),
            (
                23,
                "Pip — Death save: d20 [1→18] (Lucky) = 18 — success (1 successes, 0 failures)"
                    .to_string()
            ),
        ]
    );
}

async fn half_orc(s: &Session, name: &str) {
    s.ok(
        "create_character",
        json!({"name": name, "race": "half-orc", "class": "fighter", "level": 5,
               "stats": {"str": 16, "dex": 12, "con": 14, "int": 8, "wis": 10, "cha": 10}}),
    )
    .await;
}

#[tokio::test]
async fn relentless_endurance_leaves_a_half_orc_at_one_hp_once_per_long_rest() {
    if !srd() {
        return;
    }
    let rule = desc("Traits", "relentless-endurance");
    assert!(
        rule.contains(
            "when you are reduced to 0 hit points but not killed outright, you can drop to 1 hit \
             point instead"
        ) && rule.contains("until you finish a long rest"),
        "{rule}"
    );
    let s = Session::start(3).await;
    half_orc(&s, "Grom").await;
    let sheet = s
        .ok("get_character", json!({"characterName": "Grom"}))
        .await;
    assert_eq!(sheet.structured["character"]["hp"], 44);
    assert!(
        sheet.text.contains("Relentless Endurance 1/1 (long rest)"),
        "{}",
        sheet.text
    );
    let hit =
        |n: u32| json!({"characterName": "Grom", "damage": {"amount": n, "type": "slashing"}});
    let a = s.ok("update_character", hit(49)).await;
    let endured = "Grom drops to 1 HP instead (Relentless Endurance, used automatically since \
                   it is always the better choice; it returns after a long rest)";
    assert_eq!(
        a.text.lines().next().unwrap(),
        format!("{endured}. Grom takes 49 (49 slashing); 44 → 1 HP."),
        "{}",
        a.text
    );
    let sheet = s
        .ok("get_character", json!({"characterName": "Grom"}))
        .await;
    assert!(
        sheet.text.contains("Relentless Endurance 0/1 (long rest)"),
        "{}",
        sheet.text
    );
    // Spent: the next drop to 0 stands.
    let a = s.ok("update_character", hit(3)).await;
    assert_eq!(
        a.text.lines().next().unwrap(),
        "Grom takes 3 (3 slashing); 1 → 0 HP; falls unconscious and starts death saves.",
        "{}",
        a.text
    );
    // A long rest gives it back; killed outright (massive damage) it does nothing.
    s.ok(
        "update_character",
        json!({"characterName": "Grom", "healing": 100}),
    )
    .await;
    let a = s
        .ok(
            "take_rest",
            json!({"characterName": "Grom", "type": "long"}),
        )
        .await;
    assert!(
        a.text.contains("Relentless Endurance restored to 1"),
        "{}",
        a.text
    );
    let a = s.ok("update_character", hit(88)).await;
    assert_eq!(
        a.text.lines().next().unwrap(),
        "Grom takes 88 (88 slashing); 44 → 0 HP; dies (massive damage).",
        "{}",
        a.text
    );

    // A spell's damage in a fight: Fireball drops Orsk (2 HP) to 1 instead of 0.
    half_orc(&s, "Orsk").await;
    s.ok(
        "update_character",
        json!({"characterName": "Orsk", "hp": 2}),
    )
    .await;
    wren(&s).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Wren", "position": {"x": 0, "y": 0}, "initiative": 30},
            {"characterName": "Orsk", "position": {"x": 9, "y": 8}, "initiative": 9}]}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Wren", "actionType": "cast_spell", "spell": "Fireball", "to": {"x": 9, "y": 9}}),
        )
        .await;
    let lines: Vec<&str> = a.text.lines().collect();
    let endured = endured.replace("Grom", "Orsk");
    let at = lines
        .iter()
        .position(|l| *l == endured)
        .unwrap_or_else(|| panic!("{}", a.text));
    assert!(
        lines[at + 1].starts_with("Orsk takes ") && lines[at + 1].ends_with("; 2 → 1 HP"),
        "{}",
        a.text
    );
}

/// A human wizard 5 with Fireball.
async fn wren(s: &Session) {
    s.ok(
        "create_character",
        json!({"name": "Wren", "race": "human", "class": "wizard", "level": 5,
               "stats": {"str": 8, "dex": 14, "con": 14, "int": 16, "wis": 12, "cha": 10},
               "spells": ["Fire Bolt", "Fireball", "Magic Missile", "Shield"]}),
    )
    .await;
}

#[tokio::test]
async fn danger_sense_gives_advantage_on_dex_saves_unless_blinded() {
    if !srd() {
        return;
    }
    let rule = desc("Features", "danger-sense");
    assert!(
        rule.contains(
            "advantage on dexterity saving throws against effects that you can see, such as \
             traps and spells"
        ) && rule.contains("you can't be blinded, deafened, or incapacitated"),
        "{rule}"
    );
    let s = Session::start(3).await;
    s.ok(
        "create_character",
        json!({"name": "Bruna", "race": "human", "class": "barbarian", "level": 5,
               "stats": {"str": 16, "dex": 14, "con": 14, "int": 8, "wis": 10, "cha": 10}}),
    )
    .await;
    wren(&s).await;
    let adv = "(advantage: Danger Sense (barbarian 5): DEX effects it can see)";
    let trap = json!({"characterName": "Bruna", "checkType": "save", "ability": "dex", "dc": 15, "reason": "a falling-block trap"});
    let a = s.ok("roll_check", trap.clone()).await;
    assert_eq!(
        a.text,
        format!(
            "Bruna — Dexterity save (a falling-block trap): d20 [4, ~~3~~] {adv} + 2 = 6 vs DC 15 — fail"
        )
    );
    // Not on other saves.
    let a = s
        .ok(
            "roll_check",
            json!({"characterName": "Bruna", "checkType": "save", "ability": "con", "dc": 15}),
        )
        .await;
    assert!(!a.text.contains("advantage"), "{}", a.text);
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Wren", "position": {"x": 0, "y": 0}, "initiative": 30},
            {"characterName": "Bruna", "position": {"x": 8, "y": 8}, "initiative": 10}]}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Wren", "actionType": "cast_spell", "spell": "Fireball", "to": {"x": 9, "y": 9}}),
        )
        .await;
    let save = a
        .text
        .lines()
        .find(|l| l.starts_with("Bruna — Dexterity save vs Fireball"))
        .unwrap_or_else(|| panic!("{}", a.text));
    assert!(save.contains(&format!("] {adv} + 2 = ")), "{}", a.text);
    // Blinded, it can't see the danger.
    s.ok(
        "manage_condition",
        json!({"operation": "add", "characterName": "Bruna", "condition": "blinded"}),
    )
    .await;
    let a = s.ok("roll_check", trap).await;
    assert!(!a.text.contains("advantage"), "{}", a.text);
    assert!(
        a.text
            .starts_with("Bruna — Dexterity save (a falling-block trap): d20 ["),
        "{}",
        a.text
    );
}

#[tokio::test]
async fn sleep_leaves_elves_and_half_elves_awake_and_spends_no_pool_on_them() {
    if !srd() {
        return;
    }
    let fey = desc("Traits", "fey-ancestry");
    assert!(fey.contains("magic cannot put you to sleep"), "{fey}");
    let sleep = desc("Spells", "sleep");
    assert!(
        sleep.contains("magical slumber")
            && sleep.contains("affected in ascending order of their current hit points"),
        "{sleep}"
    );
    let s = Session::start(3).await;
    s.ok(
        "create_character",
        json!({"name": "Lyra", "race": "human", "class": "bard", "level": 5,
               "stats": {"str": 8, "dex": 14, "con": 12, "int": 10, "wis": 10, "cha": 16},
               "spells": ["vicious mockery", "sleep"]}),
    )
    .await;
    s.ok(
        "create_character",
        json!({"name": "Elowen", "race": "elf", "subrace": "high-elf", "class": "wizard", "level": 3,
               "stats": {"str": 8, "dex": 14, "con": 12, "int": 16, "wis": 10, "cha": 10}}),
    )
    .await;
    s.ok(
        "create_character",
        json!({"name": "Sera", "race": "half-elf", "class": "rogue", "level": 1,
               "stats": {"str": 8, "dex": 14, "con": 12, "int": 10, "wis": 10, "cha": 14}}),
    )
    .await;
    for (name, level) in [("Hal", 1), ("Tam", 2)] {
        s.ok(
            "create_character",
            json!({"name": name, "race": "human", "class": "wizard", "level": level,
                   "stats": {"str": 8, "dex": 14, "con": 12, "int": 16, "wis": 10, "cha": 10}}),
        )
        .await;
    }
    // The elves lowest: counted first, they would use up the pool (22) before Tam.
    // Hal is at his maximum, 7.
    for (name, hp) in [("Sera", 3), ("Elowen", 5), ("Tam", 10)] {
        s.ok("update_character", json!({"characterName": name, "hp": hp}))
            .await;
    }
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Lyra", "position": {"x": 0, "y": 0}, "initiative": 30},
            {"characterName": "Elowen", "position": {"x": 5, "y": 5}, "initiative": 10},
            {"characterName": "Sera", "position": {"x": 6, "y": 5}, "initiative": 9},
            {"characterName": "Hal", "position": {"x": 5, "y": 6}, "initiative": 8},
            {"characterName": "Tam", "position": {"x": 6, "y": 6}, "initiative": 7}]}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Lyra", "actionType": "cast_spell", "spell": "Sleep", "to": {"x": 5, "y": 5}}),
        )
        .await;
    let lines: Vec<&str> = a.text.lines().collect();
    for want in [
        "Sleep affects 22 hit points of creatures: 5d8: [3, 1, 6, 5, 7] = 22",
        "Elowen can't be put to sleep by magic (Fey Ancestry); unaffected",
        "Sera can't be put to sleep by magic (Fey Ancestry); unaffected",
        "Hal (7 HP) is unconscious, no damage (15 HP of the pool left); Hal falls prone",
        "Tam (10 HP) is unconscious, no damage (5 HP of the pool left); Tam falls prone",
    ] {
        assert!(lines.contains(&want), "{want}\n{}", a.text);
    }
    for (name, asleep) in [
        ("Elowen", false),
        ("Sera", false),
        ("Hal", true),
        ("Tam", true),
    ] {
        let sheet = s.ok("get_character", json!({"characterName": name})).await;
        let conditions = sheet.structured["character"]["conditions"].to_string();
        assert_eq!(
            conditions.contains("unconscious"),
            asleep,
            "{name}: {conditions}"
        );
    }
}
