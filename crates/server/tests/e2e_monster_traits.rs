//! Stat-block traits that were listed but not applied (or applied wrongly), end to end over the
//! real tools with SRD monsters, each SRD fact read from the SRD JSON at run time: a troll's
//! Regeneration (not dead at 0 HP, back to 10 at its turn start, stopped by fire and then
//! dead), a boar's Relentless (1 HP instead of 0 from at most 7 damage, spent until a rest),
//! a drow's Fey Ancestry (Sleep skips it without spending the pool; advantage on a save against
//! being charmed) and a sahuagin's Blood Frenzy (advantage on melee attacks against a wounded
//! creature), a hobgoblin's Martial Advantage (2d6 once per turn beside an ally). Seeds are
//! pinned.

use super::common;

use common::{Session, srd_record};
use serde_json::{Value, json};

use common::srd_here as srd;

/// The text of `monster`'s special ability `name`, and the monster's SRD record.
fn ability(monster: &str, name: &str) -> (String, Value) {
    let m = srd_record("Monsters", monster);
    let a = m["special_abilities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == name)
        .unwrap_or_else(|| panic!("{monster} has no {name}"))
        .clone();
    (a["desc"].as_str().unwrap().to_string(), a)
}

async fn ana(s: &Session) {
    s.ok(
        "create_character",
        json!({"name": "Ana", "race": "human", "class": "fighter", "level": 1,
               "stats": {"str": 16, "dex": 14, "con": 14, "int": 10, "wis": 10, "cha": 10}}),
    )
    .await;
}

async fn sheet(s: &Session, name: &str) -> Value {
    s.ok("get_character", json!({"characterName": name}))
        .await
        .structured["character"]
        .clone()
}

fn hit(name: &str, n: u32, kind: &str) -> Value {
    json!({"characterName": name, "damage": {"amount": n, "type": kind}})
}

fn has_line(text: &str, want: &str) -> bool {
    text.lines()
        .flat_map(|l| l.split(". "))
        .any(|l| l.trim().trim_end_matches('.') == want.trim_end_matches('.'))
}

#[tokio::test]
async fn a_troll_at_zero_hp_regenerates_unless_fire_stopped_it_and_then_dies() {
    if !srd() {
        return;
    }
    let (text, _) = ability("troll", "Regeneration");
    assert_eq!(
        text,
        "The troll regains 10 hit points at the start of its turn. If the troll takes acid or \
         fire damage, this trait doesn't function at the start of the troll's next turn. The \
         troll dies only if it starts its turn with 0 hit points and doesn't regenerate."
    );
    let max = srd_record("Monsters", "troll")["hit_points"]
        .as_u64()
        .unwrap();
    assert_eq!(max, 84);
    let s = Session::start(5).await;
    ana(&s).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Ana", "position": {"x": 0, "y": 0}, "initiative": 30},
            {"monster": "troll", "position": {"x": 6, "y": 6}, "initiative": 1}]}),
    )
    .await;
    // Slashing to 0: not dead.
    let a = s.ok("update_character", hit("Troll", 84, "slashing")).await;
    for want in [
        "Troll is at 0 HP but not dead (Regeneration): it dies only if it starts its turn with \
         0 hit points and doesn't regenerate",
        "Troll takes 84 (84 slashing); 84 → 0 HP",
    ] {
        assert!(has_line(&a.text, want), "{want}\n{}", a.text);
    }
    let t = sheet(&s, "Troll").await;
    assert_eq!(
        (t["hp"].as_u64(), t["dead"].as_bool()),
        (Some(0), Some(false))
    );
    // Its turn: 10 hit points back.
    let a = s.ok("advance_turn", json!({})).await;
    assert!(
        a.text.contains("Regeneration: Troll"),
        "a Regeneration line\n{}",
        a.text
    );
    assert!(!a.text.contains("death save"), "{}", a.text);
    let t = sheet(&s, "Troll").await;
    assert_eq!(
        (t["hp"].as_u64(), t["dead"].as_bool()),
        (Some(10), Some(false))
    );
    // Fire to 0: Regeneration stops at its next turn start, and it dies then.
    s.ok("advance_turn", json!({})).await;
    let a = s.ok("update_character", hit("Troll", 10, "fire")).await;
    for want in [
        "Troll's Regeneration does not work at the start of its next turn (took fire damage)",
        "Troll is at 0 HP but not dead (Regeneration): it dies only if it starts its turn with \
         0 hit points and doesn't regenerate",
        "Troll takes 10 (10 fire); 10 → 0 HP",
    ] {
        assert!(has_line(&a.text, want), "{want}\n{}", a.text);
    }
    let t = sheet(&s, "Troll").await;
    assert_eq!(
        (t["hp"].as_u64(), t["dead"].as_bool()),
        (Some(0), Some(false))
    );
    let a = s.ok("advance_turn", json!({})).await;
    for want in [
        "Troll's Regeneration does not work this turn (took fire damage)",
        "Troll dies: it starts its turn with 0 hit points and doesn't regenerate",
    ] {
        assert!(a.text.contains(want), "{want}\n{}", a.text);
    }
    assert!(!a.text.contains("Regeneration: Troll"), "{}", a.text);
    let t = sheet(&s, "Troll").await;
    assert_eq!(
        (t["hp"].as_u64(), t["dead"].as_bool()),
        (Some(0), Some(true))
    );
}

#[tokio::test]
async fn a_fight_is_not_won_while_a_troll_at_zero_hp_will_regenerate() {
    if !srd() {
        return;
    }
    let (text, _) = ability("troll", "Regeneration");
    assert!(
        text.contains(
            "The troll dies only if it starts its turn with 0 hit points and doesn't regenerate."
        ),
        "{text}"
    );
    let s = Session::start(7).await;
    ana(&s).await;
    s.ok(
        "create_encounter",
        json!({"autoEnd": true, "participants": [
            {"characterName": "Ana", "position": {"x": 0, "y": 0}, "initiative": 30},
            {"monster": "troll", "position": {"x": 6, "y": 6}, "initiative": 1}]}),
    )
    .await;
    s.ok("update_character", hit("Troll", 84, "slashing")).await;
    // Ana's turn ends with the troll at 0 HP: the fight goes on, and the troll gets back up.
    let a = s.ok("advance_turn", json!({})).await;
    assert!(a.structured["encounterEnded"].is_null(), "{}", a.text);
    assert!(a.text.contains("Regeneration: Troll"), "{}", a.text);
    assert_eq!(sheet(&s, "Troll").await["hp"].as_u64(), Some(10));
    // Fire takes it to 0: it will not rise, and the fight is won when the turn passes.
    s.ok("advance_turn", json!({})).await;
    s.ok("update_character", hit("Troll", 10, "fire")).await;
    let a = s.ok("advance_turn", json!({})).await;
    assert_eq!(
        a.structured["encounterEnded"]["outcome"], "victory",
        "{}",
        a.text
    );
}

#[tokio::test]
async fn a_vampire_spawn_regenerates_and_the_answer_leaves_sunlight_to_the_dm() {
    if !srd() {
        return;
    }
    let (text, _) = ability("vampire-spawn", "Regeneration");
    assert!(
        text.starts_with(
            "The vampire regains 10 hit points at the start of its turn if it has at least 1 hit \
             point and isn't in sunlight or running water. If the vampire takes radiant damage"
        ),
        "{text}"
    );
    let s = Session::start(5).await;
    ana(&s).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Ana", "position": {"x": 0, "y": 0}, "initiative": 30},
            {"monster": "vampire-spawn", "position": {"x": 6, "y": 6}, "initiative": 1}]}),
    )
    .await;
    let max = sheet(&s, "Vampire Spawn").await["hp"].as_u64().unwrap();
    s.ok("update_character", hit("Vampire Spawn", 30, "slashing"))
        .await;
    let a = s.ok("advance_turn", json!({})).await;
    assert!(
        a.text.contains(
            "no automation for sunlight or running water: the DM withholds Vampire Spawn's \
             Regeneration there (take the hit points back with update_character)"
        ),
        "{}",
        a.text
    );
    assert_eq!(
        sheet(&s, "Vampire Spawn").await["hp"].as_u64(),
        Some(max - 20)
    );
    // Radiant damage stops it at the next turn start.
    s.ok("advance_turn", json!({})).await;
    let a = s
        .ok("update_character", hit("Vampire Spawn", 5, "radiant"))
        .await;
    assert!(
        has_line(
            &a.text,
            "Vampire Spawn's Regeneration does not work at the start of its next turn (took radiant damage)"
        ),
        "{}",
        a.text
    );
    let a = s.ok("advance_turn", json!({})).await;
    assert!(
        a.text
            .contains("Vampire Spawn's Regeneration does not work this turn (took radiant damage)"),
        "{}",
        a.text
    );
    assert_eq!(
        sheet(&s, "Vampire Spawn").await["hp"].as_u64(),
        Some(max - 25)
    );
}

#[tokio::test]
async fn a_boar_shrugs_off_seven_damage_once_until_a_rest() {
    if !srd() {
        return;
    }
    let (text, raw) = ability("boar", "Relentless");
    assert_eq!(
        text,
        "If the boar takes 7 damage or less that would reduce it to 0 hit points, it is reduced \
         to 1 hit point instead."
    );
    assert_eq!(raw["usage"]["type"], "recharge after rest");
    let (giant, _) = ability("giant-boar", "Relentless");
    assert!(
        giant.starts_with("If the boar takes 10 damage or less"),
        "{giant}"
    );
    assert_eq!(srd_record("Monsters", "boar")["hit_points"], 11);
    let s = Session::start(5).await;
    ana(&s).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Ana", "position": {"x": 0, "y": 0}, "initiative": 30},
            {"monster": "boar", "position": {"x": 6, "y": 6}, "initiative": 2},
            {"monster": "giant-boar", "position": {"x": 9, "y": 9}, "initiative": 1}]}),
    )
    .await;
    s.ok("update_character", hit("Boar", 4, "piercing")).await;
    let a = s.ok("update_character", hit("Boar", 7, "piercing")).await;
    for want in [
        "Boar drops to 1 HP instead (Relentless: 7 damage, at most 7; it recharges after a short \
         or long rest)",
        "Boar takes 7 (7 piercing); 7 → 1 HP",
    ] {
        assert!(has_line(&a.text, want), "{want}\n{}", a.text);
    }
    let b = sheet(&s, "Boar").await;
    assert_eq!(
        (b["hp"].as_u64(), b["dead"].as_bool()),
        (Some(1), Some(false))
    );
    // Spent: the next drop to 0 stands.
    let a = s.ok("update_character", hit("Boar", 1, "piercing")).await;
    assert!(
        has_line(
            &a.text,
            "Boar's Relentless is spent (it recharges after a short or long rest)"
        ),
        "{}",
        a.text
    );
    let b = sheet(&s, "Boar").await;
    assert_eq!(
        (b["hp"].as_u64(), b["dead"].as_bool()),
        (Some(0), Some(true))
    );
    // More than its threshold: it does not hold.
    s.ok(
        "update_character",
        json!({"characterName": "Giant Boar", "hp": 11}),
    )
    .await;
    let a = s
        .ok("update_character", hit("Giant Boar", 11, "slashing"))
        .await;
    assert!(
        has_line(
            &a.text,
            "Giant Boar's Relentless does not hold: 11 damage is more than 10"
        ),
        "{}",
        a.text
    );
    let b = sheet(&s, "Giant Boar").await;
    assert_eq!(
        (b["hp"].as_u64(), b["dead"].as_bool()),
        (Some(0), Some(true))
    );
}

#[tokio::test]
async fn sleep_skips_a_drow_and_it_saves_against_charm_with_advantage() {
    if !srd() {
        return;
    }
    let (text, _) = ability("drow", "Fey Ancestry");
    assert_eq!(
        text,
        "The drow has advantage on saving throws against being charmed, and magic can't put the \
         drow to sleep."
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
        "create_encounter",
        json!({"participants": [
            {"characterName": "Lyra", "position": {"x": 0, "y": 0}, "initiative": 30},
            {"monster": "drow", "position": {"x": 5, "y": 5}, "initiative": 10}]}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Lyra", "actionType": "cast_spell", "spell": "Sleep", "to": {"x": 5, "y": 5}}),
        )
        .await;
    assert!(
        a.text
            .lines()
            .any(|l| l == "Drow can't be put to sleep by magic (Fey Ancestry); unaffected"),
        "{}",
        a.text
    );
    let conditions = sheet(&s, "Drow").await["conditions"].to_string();
    assert!(!conditions.contains("unconscious"), "{conditions}");
    let a = s
        .ok(
            "roll_check",
            json!({"characterName": "Drow", "checkType": "save", "ability": "wis", "dc": 12, "reason": "charm"}),
        )
        .await;
    assert!(
        a.text.contains("(advantage: Fey Ancestry: charmed)"),
        "{}",
        a.text
    );
    let a = s
        .ok(
            "roll_check",
            json!({"characterName": "Drow", "checkType": "save", "ability": "wis", "dc": 12, "reason": "fear"}),
        )
        .await;
    assert!(!a.text.contains("advantage"), "{}", a.text);
}

#[tokio::test]
async fn a_sahuagin_has_advantage_on_melee_attacks_against_the_wounded() {
    if !srd() {
        return;
    }
    let (text, _) = ability("sahuagin", "Blood Frenzy");
    assert_eq!(
        text,
        "The sahuagin has advantage on melee attack rolls against any creature that doesn't have \
         all its hit points."
    );
    let s = Session::start(7).await;
    ana(&s).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"monster": "sahuagin", "position": {"x": 1, "y": 0}, "initiative": 30},
            {"characterName": "Ana", "position": {"x": 0, "y": 0}, "initiative": 1}]}),
    )
    .await;
    let claws = json!({"actorName": "Sahuagin", "actionType": "attack", "targetName": "Ana", "weapon": "Claws"});
    let a = s.ok("execute_action", claws.clone()).await;
    assert!(!a.text.contains("Blood Frenzy"), "{}", a.text);
    assert!(!a.text.contains("advantage"), "{}", a.text);
    let max = srd_record("Classes", "fighter")["hit_die"]
        .as_u64()
        .unwrap()
        + 2;
    s.ok(
        "update_character",
        json!({"characterName": "Ana", "hp": max - 1}),
    )
    .await;
    s.ok("advance_turn", json!({})).await;
    s.ok("advance_turn", json!({})).await;
    let a = s.ok("execute_action", claws).await;
    let want = format!(
        "(advantage: Blood Frenzy (Ana is wounded: {}/{max} HP))",
        max - 1
    );
    assert!(a.text.contains(&want), "{want}\n{}", a.text);
}

#[tokio::test]
async fn a_hobgoblin_adds_martial_advantage_once_per_turn_beside_an_ally() {
    if !srd() {
        return;
    }
    let (text, _) = ability("hobgoblin", "Martial Advantage");
    assert!(
        text.contains("Once per turn, the hobgoblin can deal an extra 7 (2d6) damage to a creature it hits with a weapon attack if that creature is within 5 ft. of an ally of the hobgoblin that isn't incapacitated."),
        "{text}"
    );
    let s = Session::start(8).await;
    s.ok(
        "create_character",
        json!({"name": "Bors", "race": "human", "class": "fighter", "level": 5,
               "stats": {"str": 16, "dex": 14, "con": 14, "int": 10, "wis": 10, "cha": 10}}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"monster": "hobgoblin", "name": "Hob", "position": {"x": 5, "y": 4}, "initiative": 30},
            {"monster": "hobgoblin", "name": "Pal", "position": {"x": 6, "y": 5}, "initiative": 25},
            {"characterName": "Bors", "position": {"x": 5, "y": 5}, "initiative": 10}]}),
    )
    .await;
    let attack = |who: &str| json!({"actorName": who, "actionType": "attack", "targetName": "Bors", "weapon": "Longsword", "force": true});
    let a = s.ok("execute_action", attack("Hob")).await;
    for line in [
        "Hob attack with Longsword (one handed): d20 [13] + 3 = 16 vs AC 12 — hit",
        "Martial Advantage: +2d6 (Pal is within 5 ft of Bors; once per turn).",
        "Damage: (1d8 + 1)[slashing] + 2d6[slashing]: ([3] + 1) slashing + [3, 4] slashing = 11 (slashing 11)",
    ] {
        assert!(a.text.lines().any(|l| l == line), "{line}: {}", a.text);
    }
    // A second hit in the same turn (forced) adds nothing.
    let mut again = String::new();
    for _ in 0..4 {
        let a = s.ok("execute_action", attack("Hob")).await;
        if a.text.starts_with("Hit!") {
            again = a.text;
            break;
        }
    }
    assert!(
        again
            .lines()
            .any(|l| l == "Martial Advantage already used this turn."),
        "{again}"
    );
    // Pal's turn: Hob is beside Bors, so Pal's hit gets its Martial Advantage too.
    s.ok("advance_turn", json!({})).await;
    let mut pal = String::new();
    for _ in 0..4 {
        let a = s.ok("execute_action", attack("Pal")).await;
        if a.text.starts_with("Hit!") {
            pal = a.text;
            break;
        }
    }
    assert!(
        pal.contains("Martial Advantage: +2d6 (Hob is within 5 ft of Bors; once per turn)."),
        "{pal}"
    );
}
