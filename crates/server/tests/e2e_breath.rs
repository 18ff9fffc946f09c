//! A dragonborn's Breath Weapon, end to end over the real binary with SRD-built characters and
//! SRD monsters, checked against the SRD JSON (the oracle, read at run time): the sheet's line
//! (area, DC 8 + CON modifier + proficiency, dice by character level), a cone and a line aimed
//! in an encounter (each creature in the area saves; half damage on a success), the use spent
//! and refused until a short rest, and the answer outside any encounter.

use super::common;

use common::{Session, srd_record};
use serde_json::json;

use common::srd_here as srd;

/// What the SRD says of a colour's breath at a character level.
struct Oracle {
    /// "fire".
    kind: String,
    /// "15-ft cone", "30-ft line 5 ft wide".
    area: String,
    /// "DEX".
    save: String,
    /// "Dexterity".
    save_word: &'static str,
    /// "2d6".
    dice: String,
}

fn oracle(colour: &str, level: u64) -> Oracle {
    let t = srd_record("Traits", &format!("draconic-ancestry-{colour}"));
    let b = &t["trait_specific"]["breath_weapon"];
    assert_eq!(b["dc"]["success_type"], "half", "{b}");
    let size = b["area_of_effect"]["size"].as_u64().unwrap();
    let area = match b["area_of_effect"]["type"].as_str().unwrap() {
        "cone" => format!("{size}-ft cone"),
        "line" => format!("{size}-ft line 5 ft wide"),
        other => panic!("unexpected breath area {other}"),
    };
    let save = b["dc"]["dc_type"]["name"].as_str().unwrap().to_string();
    let save_word = match save.as_str() {
        "DEX" => "Dexterity",
        "CON" => "Constitution",
        other => panic!("unexpected breath save {other}"),
    };
    let damage = &b["damage"][0];
    let by_level = damage["damage_at_character_level"].as_object().unwrap();
    let dice = by_level
        .iter()
        .filter(|(l, _)| l.parse::<u64>().unwrap() <= level)
        .max_by_key(|(l, _)| l.parse::<u64>().unwrap())
        .map(|(_, d)| d.as_str().unwrap().to_string())
        .unwrap();
    Oracle {
        kind: damage["damage_type"]["index"].as_str().unwrap().to_string(),
        area,
        save,
        save_word,
        dice,
    }
}

/// The dragonborn's CON bonus from the SRD race (none in the 2014 data, read anyway).
fn dragonborn_con_bonus() -> i64 {
    srd_record("Races", "dragonborn")["ability_bonuses"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["ability_score"]["index"] == "con")
        .map(|b| b["bonus"].as_i64().unwrap())
        .sum()
}

/// 8 + CON modifier + proficiency bonus at `level`.
fn breath_dc(con: i64, level: i64) -> i64 {
    let score = con + dragonborn_con_bonus();
    let modifier = (score - 10).div_euclid(2);
    let prof = 2 + (level - 1) / 4;
    8 + modifier + prof
}

fn line_starting<'t>(text: &'t str, start: &str) -> &'t str {
    text.lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line starting '{start}': {text}"))
}

/// The total of the answer's "Damage roll: (2d6)[fire]: [3, 4] = 7" line.
fn damage_total(text: &str) -> u64 {
    let l = line_starting(text, "Damage roll: ");
    let after = l.rsplit("= ").next().unwrap();
    after
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("{l}"))
}

/// Each target's save verdict, read from its save line: (name, failed).
fn verdicts(text: &str, save_word: &str) -> Vec<(String, bool)> {
    let needle = format!(" {save_word} save vs Breath Weapon");
    text.lines()
        .filter(|l| l.contains(&needle))
        .map(|l| {
            let name = l.split(&needle).next().unwrap().to_string();
            (name, l.contains("— fail"))
        })
        .collect()
}

async fn hp(s: &Session, name: &str) -> u64 {
    let a = s.ok("get_character", json!({"characterName": name})).await;
    a.structured["character"]["hp"]
        .as_u64()
        .unwrap_or_else(|| panic!("no hp: {}", a.structured))
}

/// Asserts an in-encounter breath answer against the oracle: the area, the DC on every save,
/// the dice, exactly the creatures `expected` saving, each one's HP after (the full roll on a
/// failure, half on a success) and the use spent. Returns the damage total.
async fn assert_breath(
    s: &Session,
    text: &str,
    who: &str,
    o: &Oracle,
    dc: i64,
    expected: &[(&str, u64)],
) -> u64 {
    assert_eq!(
        line_starting(text, "Area: "),
        format!("Area: {}", o.area),
        "{text}"
    );
    assert!(
        line_starting(text, "Damage roll: ")
            .starts_with(&format!("Damage roll: {}[{}]: ", o.dice, o.kind)),
        "{text}"
    );
    let total = damage_total(text);
    let v = verdicts(text, o.save_word);
    let mut names: Vec<&str> = v.iter().map(|(n, _)| n.as_str()).collect();
    names.sort_unstable();
    let mut want: Vec<&str> = expected.iter().map(|(n, _)| *n).collect();
    want.sort_unstable();
    assert_eq!(names, want, "{text}");
    for l in text
        .lines()
        .filter(|l| l.contains(" save vs Breath Weapon"))
    {
        assert!(l.contains(&format!("vs DC {dc} — ")), "{l}");
    }
    let fails: Vec<&str> = v.iter().filter(|x| x.1).map(|x| x.0.as_str()).collect();
    let saves: Vec<&str> = v.iter().filter(|x| !x.1).map(|x| x.0.as_str()).collect();
    let list = |l: &[&str]| {
        if l.is_empty() {
            "no one".to_string()
        } else {
            l.join(", ")
        }
    };
    assert_eq!(
        text.lines().next().unwrap(),
        format!(
            "{who} uses Breath Weapon (DC {dc} {} save, {} {}): {} fail, {} succeed.",
            o.save,
            o.dice,
            o.kind,
            list(&fails),
            list(&saves)
        ),
        "{text}"
    );
    for (name, failed) in &v {
        let before = expected.iter().find(|x| x.0 == name).unwrap().1;
        let taken = if *failed { total } else { total / 2 };
        assert_eq!(
            hp(s, name).await,
            before.saturating_sub(taken),
            "{name}: {text}"
        );
    }
    assert!(
        text.lines().any(|l| l == "Breath Weapon: 0/1 left"),
        "{text}"
    );
    total
}

#[tokio::test]
async fn a_red_dragonborn_breathes_a_cone_each_creature_saving_for_half_once_per_short_rest() {
    if !srd() {
        return;
    }
    let o = oracle("red", 5);
    let dc = breath_dc(14, 5);
    let s = Session::start(11).await;
    s.ok(
        "create_character",
        json!({"name": "Drak", "race": "dragonborn", "draconicAncestry": "red",
               "class": "fighter", "level": 5,
               "stats": {"str": 14, "dex": 10, "con": 14, "int": 10, "wis": 10, "cha": 10}}),
    )
    .await;
    let sheet = s
        .ok("get_character", json!({"characterName": "Drak"}))
        .await;
    let summary = format!(
        "Breath Weapon ({}, {}) DC {dc} {} half, {} {}",
        o.kind, o.area, o.save, o.dice, o.kind
    );
    assert_eq!(
        line_starting(&sheet.text, "Feature actions: "),
        format!("Feature actions: {summary}; Second Wind; Action Surge"),
        "{}",
        sheet.text
    );
    let enc = s
        .ok(
            "create_encounter",
            json!({"participants": [
                {"characterName": "Drak", "position": {"x": 5, "y": 5}, "initiative": 30},
                {"monster": "orc", "position": {"x": 6, "y": 5}, "initiative": 3},
                {"monster": "orc", "position": {"x": 7, "y": 5}, "initiative": 2},
                {"monster": "orc", "position": {"x": 2, "y": 5}, "initiative": 1}
            ]}),
        )
        .await;
    eprintln!("{}", enc.text);
    // East over the two orcs beside it; the one behind it (west) is out of the cone.
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Drak", "actionType": "use_special_ability",
                   "abilityName": "Breath Weapon", "to": {"x": 8, "y": 5}}),
        )
        .await;
    eprintln!("{}", a.text);
    assert_breath(&s, &a.text, "Drak", &o, dc, &[("Orc", 15), ("Orc 1", 15)]).await;
    assert_eq!(hp(&s, "Orc 2").await, 15);
    // Its next turn: the use is spent until a rest.
    for _ in 0..4 {
        s.ok("advance_turn", json!({})).await;
    }
    let again = json!({"actorName": "Drak", "actionType": "use_special_ability",
                       "abilityName": "Breath Weapon", "to": {"x": 8, "y": 5}});
    s.err(
        "execute_action",
        again.clone(),
        &["Drak has 0/1 Breath Weapon left and needs 1; it returns on a short or long rest"],
    )
    .await;
    s.ok("end_encounter", json!({"outcome": "other"})).await;
    s.ok(
        "take_rest",
        json!({"characterName": "Drak", "type": "short"}),
    )
    .await;
    let sheet = s
        .ok("get_character", json!({"characterName": "Drak"}))
        .await;
    assert!(
        line_starting(&sheet.text, "Resources: ").contains("Breath Weapon 1/1 (short rest)"),
        "{}",
        sheet.text
    );
    // Outside any encounter: spent, rolled, and the numbers said for the DM to apply.
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Drak", "actionType": "use_special_ability",
                   "abilityName": "Breath Weapon"}),
        )
        .await;
    eprintln!("{}", a.text);
    let total = damage_total(&a.text);
    let lines: Vec<&str> = a.text.lines().collect();
    assert_eq!(
        lines[..2],
        [
            format!(
                "Drak uses Breath Weapon ({}, {}): DC {dc} {} save, {} {} damage, half on a success.",
                o.kind, o.area, o.save, o.dice, o.kind
            )
            .as_str(),
            "Breath Weapon: 0/1 left"
        ],
        "{}",
        a.text
    );
    assert_eq!(
        line_starting(&a.text, "No encounter: "),
        format!(
            "No encounter: the engine does not place the {} nor roll the saves. Each creature in it makes a DC {dc} {} save: {total} {} damage on a failure, {} on a success (apply it with update_character damage, or breathe in an encounter).",
            o.area,
            o.save,
            o.kind,
            total / 2
        )
    );
    s.err(
        "execute_action",
        json!({"actorName": "Drak", "actionType": "use_special_ability",
               "abilityName": "Breath Weapon"}),
        &["Drak has 0/1 Breath Weapon left and needs 1; it returns on a short or long rest"],
    )
    .await;
}

#[tokio::test]
async fn an_eleventh_level_blue_dragonborn_breathes_a_line_of_four_dice() {
    if !srd() {
        return;
    }
    let o = oracle("blue", 11);
    let dc = breath_dc(16, 11);
    let s = Session::start(5).await;
    s.ok(
        "create_character",
        json!({"name": "Vyth", "race": "dragonborn", "draconicAncestry": "blue",
               "class": "sorcerer", "level": 11,
               "stats": {"str": 10, "dex": 12, "con": 16, "int": 10, "wis": 10, "cha": 16}}),
    )
    .await;
    let sheet = s
        .ok("get_character", json!({"characterName": "Vyth"}))
        .await;
    assert_eq!(
        line_starting(&sheet.text, "Feature actions: "),
        format!(
            "Feature actions: Breath Weapon ({}, {}) DC {dc} {} half, {} {}",
            o.kind, o.area, o.save, o.dice, o.kind
        ),
        "{}",
        sheet.text
    );
    let enc = s
        .ok(
            "create_encounter",
            json!({"participants": [
                {"characterName": "Vyth", "position": {"x": 2, "y": 5}, "initiative": 30},
                {"monster": "veteran", "position": {"x": 4, "y": 5}, "initiative": 3},
                {"monster": "veteran", "position": {"x": 7, "y": 5}, "initiative": 2},
                {"monster": "veteran", "position": {"x": 9, "y": 5}, "initiative": 1},
                {"monster": "veteran", "position": {"x": 4, "y": 7}, "initiative": 1}
            ]}),
        )
        .await;
    eprintln!("{}", enc.text);
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Vyth", "actionType": "use_special_ability",
                   "abilityName": "breath weapon", "direction": "east"}),
        )
        .await;
    eprintln!("{}", a.text);
    assert_breath(
        &s,
        &a.text,
        "Vyth",
        &o,
        dc,
        &[("Veteran", 58), ("Veteran 1", 58)],
    )
    .await;
}
