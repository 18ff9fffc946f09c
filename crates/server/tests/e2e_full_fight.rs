//! The combat issue's "done when": four SRD heroes against an SRD encounter, from
//! create_encounter to the end, with the test playing only the agent's part (choosing moves,
//! attacks and spells); every roll, hit, damage, death save and opportunity attack is the
//! server's. Afterwards the sheets hold what the fight did.

use serde_json::{Value, json};

use super::common;

use common::Session;

struct F {
    id: String,
    name: String,
    side: String,
    status: String,
    x: i64,
    y: i64,
    current: bool,
}

fn fighters(v: &Value) -> Vec<F> {
    v["combatants"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| F {
            id: c["id"].as_str().unwrap_or_default().into(),
            name: c["name"].as_str().unwrap_or_default().into(),
            side: c["side"].as_str().unwrap_or_default().into(),
            status: c["status"].as_str().unwrap_or_default().into(),
            x: c["position"]["x"].as_i64().unwrap_or(-99),
            y: c["position"]["y"].as_i64().unwrap_or(-99),
            current: c["current"].as_bool().unwrap_or(false),
        })
        .collect()
}

fn gap(a: &F, b: &F) -> i64 {
    (a.x - b.x).abs().max((a.y - b.y).abs())
}

/// Walks `me` next to `foe` (as far as its movement goes), planning with calculate_movement.
async fn approach(s: &Session, enc: &Value, me: &F, foe: &F, all: &[F]) {
    let mut squares: Vec<(i64, i64)> = (-1..=1)
        .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
        .filter(|d| *d != (0, 0))
        .map(|(dx, dy)| (foe.x + dx, foe.y + dy))
        .filter(|(x, y)| *x >= 0 && *y >= 0 && !all.iter().any(|f| f.x == *x && f.y == *y))
        .collect();
    squares.sort_by_key(|(x, y)| (x - me.x).abs().max((y - me.y).abs()));
    for (x, y) in squares.into_iter().take(3) {
        let plan = s
            .client
            .call(
                "calculate_movement",
                json!({"encounterId": enc, "moverId": me.id, "to": {"x": x, "y": y}}),
            )
            .await
            .unwrap();
        if plan.is_error {
            continue;
        }
        let dest = if plan.structured["withinBudget"] == true {
            json!({"x": x, "y": y})
        } else {
            plan.structured["stopsAt"].clone()
        };
        if dest.is_null() {
            continue;
        }
        let mv = s
            .client
            .call(
                "execute_action",
                json!({"encounterId": enc, "actorId": me.id, "actionType": "move", "to": dest}),
            )
            .await
            .unwrap();
        if !mv.is_error {
            return;
        }
    }
}

#[tokio::test]
async fn four_heroes_fight_srd_goblins_to_the_end_and_the_sheets_match() {
    if !common::srd("four_heroes_fight_srd_goblins_to_the_end_and_the_sheets_match") {
        return;
    }
    let s = Session::start(2026).await;
    let heroes = [
        ("Brom", "fighter", "dwarf", json!(["longsword"])),
        ("Lia", "rogue", "halfling", json!(["shortsword"])),
        ("Sera", "cleric", "human", json!(["mace"])),
        ("Ivo", "wizard", "elf", json!([])),
    ];
    for (name, class, race, gear) in &heroes {
        let mut c = json!({"name": name, "class": class, "race": race, "level": 3, "abilityMethod": "standard_array"});
        if *class == "wizard" {
            c["spells"] = json!(["fire bolt", "magic missile"]);
        }
        if *class == "cleric" {
            c["spells"] = json!(["sacred flame", "cure wounds"]);
        }
        s.ok("create_character", c).await;
        for item in gear.as_array().unwrap() {
            s.ok(
                "manage_inventory",
                json!({"characterName": name, "operation": "give", "itemName": item}),
            )
            .await;
            s.ok(
                "manage_inventory",
                json!({"characterName": name, "operation": "equip", "itemName": item}),
            )
            .await;
        }
    }
    let created = s
        .ok(
            "create_encounter",
            json!({"name": "Goblin warren", "autoEnd": true, "participants": [
                {"characterName": "Brom", "position": {"x": 2, "y": 3}},
                {"characterName": "Lia", "position": {"x": 2, "y": 5}},
                {"characterName": "Sera", "position": {"x": 1, "y": 4}},
                {"characterName": "Ivo", "position": {"x": 0, "y": 4}},
                {"monster": "goblin", "count": 4,
                 "positions": [{"x": 9, "y": 2}, {"x": 9, "y": 4}, {"x": 10, "y": 6}, {"x": 11, "y": 3}]}
            ], "terrain": {"width": 14, "height": 9, "walls": [{"x": 6, "y": 0}, {"x": 6, "y": 1}]}}),
        )
        .await;
    let enc = created.structured["encounterId"].clone();
    assert!(created.text.contains("Difficulty:"), "{}", created.text);
    let mut last_view = Value::Null;
    let mut summary = Value::Null;
    let mut ended = false;
    for _ in 0..200 {
        let v = s.ok("get_encounter", json!({"encounterId": enc})).await;
        if v.structured["status"] == "ended" {
            ended = true;
            break;
        }
        last_view = v.structured.clone();
        let all = fighters(&v.structured);
        let me = all.iter().find(|f| f.current).expect("someone's turn");
        if me.status == "dying" {
            s.ok("roll_death_save", json!({"characterId": me.id})).await;
        } else if me.status == "ok" {
            let foe = all
                .iter()
                .filter(|f| (me.side == "enemy") != (f.side == "enemy"))
                .filter(|f| !matches!(f.status.as_str(), "dead" | "removed" | "gone"))
                .min_by_key(|f| gap(me, f));
            if let Some(foe) = foe {
                match me.name.as_str() {
                    "Ivo" => {
                        s.ok(
                            "execute_action",
                            json!({"encounterId": enc, "actorId": me.id, "actionType": "cast_spell",
                                                      "spell": "Fire Bolt", "targetId": foe.id}),
                        )
                        .await;
                    }
                    "Sera" => {
                        s.ok(
                            "execute_action",
                            json!({"encounterId": enc, "actorId": me.id, "actionType": "cast_spell",
                                                      "spell": "Sacred Flame", "targetId": foe.id}),
                        )
                        .await;
                    }
                    _ => {
                        if gap(me, foe) > 1 {
                            approach(&s, &enc, me, foe, &all).await;
                        }
                        let now = fighters(
                            &s.ok("get_encounter", json!({"encounterId": enc}))
                                .await
                                .structured,
                        );
                        let (a, b) = (
                            now.iter().find(|f| f.id == me.id).unwrap(),
                            now.iter().find(|f| f.id == foe.id).unwrap(),
                        );
                        if gap(a, b) <= 1 {
                            s.ok("execute_action", json!({"encounterId": enc, "actorId": me.id,
                                                          "actionType": "attack", "targetId": foe.id})).await;
                        }
                    }
                }
            }
        }
        let a = s.ok("advance_turn", json!({"encounterId": enc})).await;
        if !a.structured["encounterEnded"].is_null() {
            summary = a.structured["encounterEnded"].clone();
            ended = true;
            break;
        }
    }
    assert!(ended, "the fight did not end: {last_view}");
    if summary.is_null() {
        summary = s
            .ok(
                "end_encounter",
                json!({"encounterId": enc, "outcome": "other"}),
            )
            .await
            .structured;
    }
    // The sheets hold what the fight did: the end summary's per-hero diff runs from a full sheet
    // at the start to the sheet as it is now, the winners get XP, and no goblin is left behind.
    eprintln!("end of the fight: {summary}");
    let outcome = summary["outcome"].as_str().unwrap_or_default().to_string();
    // Pinned by the seed: the heroes win in 3 rounds.
    assert_eq!(outcome, "victory", "{summary}");
    assert_eq!(summary["rounds"], 3, "{summary}");
    let diffs = summary["diffs"].as_array().expect("diffs");
    assert_eq!(diffs.len(), 4, "{summary}");
    let mut hurt = 0;
    for d in diffs {
        let sheet = s.ok("get_character", json!({"characterId": d["id"]})).await;
        let c = &sheet.structured["character"];
        assert_eq!(d["hp"]["after"], c["hp"], "{}: {summary}", d["name"]);
        assert_eq!(
            d["hp"]["before"], c["maxHp"],
            "{} began at full HP",
            d["name"]
        );
        hurt += usize::from(d["hp"]["after"].as_u64() < d["hp"]["before"].as_u64());
    }
    // Four SRD goblins (CR 1/4, 50 XP each) shared by four heroes: 50 each.
    assert_eq!(summary["xp"]["total"], 4 * 50, "{summary}");
    assert_eq!(summary["xp"]["perMember"], 4 * 50 / 4, "{summary}");
    let fallen = summary["fallen"].to_string();
    assert_eq!(fallen.matches("Goblin").count(), 4, "{fallen}");
    // Seed 2026: only Brom is hurt (31 → 3).
    assert_eq!(hurt, 1, "{summary}");
    assert_eq!(diffs[0]["name"], "Brom");
    assert_eq!(
        (
            diffs[0]["hp"]["before"].as_u64(),
            diffs[0]["hp"]["after"].as_u64()
        ),
        (Some(31), Some(3))
    );
    let roster = s.ok("get_character", json!({"listAll": true})).await;
    assert!(
        !roster.text.contains("Goblin"),
        "spawned goblins are removed: {}",
        roster.text
    );
}
