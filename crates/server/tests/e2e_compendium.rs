//! The compendium tools end to end over the real binary: SRD facts through the tools, fuzzy
//! names, filters, pagination edges, provenance on every answer, and the no-SRD error.
//! SRD-dependent tests find the data as `srd_env` says (a failure under CI without it).

use std::path::PathBuf;

use serde_json::{Value, json};
use tabletop_server::client::{Answer, Client};

struct Session {
    client: Client,
    _dir: tempfile::TempDir,
}

use super::common::srd_env;

/// The SRD folder for the running test (panics under CI without it; see `srd_env`).
fn srd_dir() -> Option<PathBuf> {
    srd_env::srd_dir(std::thread::current().name().unwrap_or("an SRD test"))
}

impl Session {
    async fn start(extra: &[&str]) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let mut args = vec![
            "--data-dir".to_string(),
            dir.path().display().to_string(),
            "--seed".into(),
            "5".into(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        if !extra.contains(&"--srd") {
            // Absolute: the server runs in the crate's folder.
            args.extend([
                "--srd".to_string(),
                srd_env::srd_path().display().to_string(),
            ]);
        }
        let client = Client::spawn(&PathBuf::from(env!("CARGO_BIN_EXE_tabletop")), &args)
            .await
            .unwrap();
        Self { client, _dir: dir }
    }

    /// A successful compendium answer, which must carry the provenance.
    async fn ok(&self, tool: &str, args: Value) -> Answer {
        let a = self.client.call(tool, args.clone()).await.unwrap();
        assert!(!a.is_error, "{tool} {args} failed: {}", a.text);
        if tool != "create_character" && tool != "get_character" {
            assert_eq!(
                a.structured["provenance"],
                json!({"document": "srd-5.1", "license": "CC-BY-4.0"}),
                "{tool} {args}"
            );
            assert!(a.text.contains("SRD 5.1, CC-BY-4.0"), "{}", a.text);
        }
        a
    }

    async fn err(&self, tool: &str, args: Value, needles: &[&str]) {
        let a = self.client.call(tool, args.clone()).await.unwrap();
        assert!(a.is_error, "{tool} {args} should fail: {}", a.text);
        for n in needles {
            assert!(a.text.contains(n), "{tool} {args}: lacks '{n}': {}", a.text);
        }
    }
}

fn names(a: &Answer) -> Vec<String> {
    a.structured["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["name"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn spell_cards_searches_and_fuzzy_names() {
    let Some(dir) = srd_dir() else { return };
    let s = Session::start(&[]).await;
    // "firebal" is corrected to Fireball's card.
    let a = s
        .ok("get_compendium_entry", json!({"name": "firebal"}))
        .await;
    for fact in [
        "Fireball — 3rd-level evocation",
        "150 ft",
        "8d6 fire",
        "slot 4: 9d6",
        "DEX save, half",
        "20-ft sphere",
    ] {
        assert!(a.text.contains(fact), "{fact}: {}", a.text);
    }
    assert_eq!(a.structured["result"], "found");
    assert_eq!(a.structured["exact"], false);
    assert_eq!(a.structured["entry"]["name"], "Fireball");
    assert_eq!(a.structured["entry"]["level"], 3);
    // Every SRD wizard 3rd-level spell and nothing else, checked against the raw JSON.
    let raw: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("5e-SRD-Spells.json")).unwrap())
            .unwrap();
    let mut want: Vec<String> = raw
        .iter()
        .filter(|s| {
            s["level"] == 3
                && s["classes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|c| c["index"] == "wizard")
        })
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    want.sort();
    let a = s
        .ok(
            "search_compendium",
            json!({"type": "spell", "class": "wizard", "level": 3}),
        )
        .await;
    let mut got = names(&a);
    got.sort();
    assert_eq!(got, want);
    assert_eq!(a.structured["total"], want.len());
    assert_eq!(a.structured["hasMore"], false);
    // Pagination edges.
    let n = want.len();
    let a = s
        .ok(
            "search_compendium",
            json!({"type": "spell", "class": "wizard", "level": 3, "perPage": 10, "page": 3}),
        )
        .await;
    assert_eq!(names(&a).len(), n - 20);
    assert_eq!(a.structured["hasMore"], false);
    let a = s
        .ok(
            "search_compendium",
            json!({"type": "spell", "class": "wizard", "level": 3, "perPage": 10, "page": 1}),
        )
        .await;
    assert_eq!(names(&a).len(), 10);
    assert_eq!(a.structured["hasMore"], true);
    assert!(a.text.contains("More: page 2."), "{}", a.text);
    let a = s
        .ok(
            "search_compendium",
            json!({"type": "spell", "class": "wizard", "level": 3, "perPage": 10, "page": 9}),
        )
        .await;
    assert!(names(&a).is_empty());
    assert!(a.text.contains("past the end"), "{}", a.text);
    let a = s
        .ok(
            "search_compendium",
            json!({"type": "spell", "class": "wizard", "level": 3, "perPage": n}),
        )
        .await;
    assert_eq!(a.structured["hasMore"], false);
    // Random picks come from the filtered set.
    let a = s
        .ok(
            "search_compendium",
            json!({"type": "spell", "class": "wizard", "level": 3, "random": 4}),
        )
        .await;
    let picks = names(&a);
    assert_eq!(picks.len(), 4);
    assert_eq!(a.structured["total"], n);
    assert!(a.text.starts_with("4 random pick(s) of"), "{}", a.text);
    assert!(picks.iter().all(|p| want.contains(p)), "{picks:?}");
    // Combined filters (AND), fuzzy query, no matches.
    let a = s
        .ok(
            "search_compendium",
            json!({"type": "spell", "school": "evocation", "save": "dex", "damageType": "fire"}),
        )
        .await;
    assert!(names(&a).contains(&"Fireball".to_string()));
    assert!(!names(&a).contains(&"Fire Bolt".to_string()), "{}", a.text);
    let a = s
        .ok("search_compendium", json!({"query": "magic missle"}))
        .await;
    assert_eq!(names(&a)[0], "Magic Missile", "{}", a.text);
    let a = s
        .ok(
            "search_compendium",
            json!({"type": "monster", "crMin": "1/4", "crMax": 0.25, "monsterType": "humanoid", "size": "small"}),
        )
        .await;
    assert!(names(&a).contains(&"Goblin".to_string()), "{}", a.text);
    let a = s
        .ok(
            "search_compendium",
            json!({"type": "magic_item", "rarity": "very rare", "attunement": true}),
        )
        .await;
    assert!(a.structured["total"].as_u64().unwrap() > 0);
    let a = s.ok("search_compendium", json!({"query": "qqqzzzx"})).await;
    assert!(a.text.starts_with("No entries match"), "{}", a.text);
    // Several close names: the closest ones, not a guess.
    let a = s
        .ok("get_compendium_entry", json!({"name": "red dragon"}))
        .await;
    assert_eq!(a.structured["result"], "closest", "{}", a.text);
    assert!(a.text.contains("Adult Red Dragon"), "{}", a.text);
    let a = s
        .ok(
            "get_compendium_entry",
            json!({"name": "prone", "type": "condition"}),
        )
        .await;
    assert_eq!(a.structured["exact"], true);
    s.client.close().await.unwrap();
}

#[tokio::test]
async fn bad_filters_are_errors_naming_the_fix() {
    if srd_dir().is_none() {
        return;
    }
    let s = Session::start(&[]).await;
    let sc = "search_compendium";
    s.err(
        sc,
        json!({"school": "evocaton"}),
        &["did you mean 'evocation'", "abjuration"],
    )
    .await;
    s.err(sc, json!({"type": "monstr"}), &["did you mean 'monster'"])
        .await;
    s.err(
        sc,
        json!({"type": "monster", "school": "evocation"}),
        &["school", "applies to: spell"],
    )
    .await;
    s.err(
        sc,
        json!({"type": "spell", "class": "wizzard"}),
        &["did you mean 'wizard'"],
    )
    .await;
    s.err(sc, json!({"rarity": "mythic"}), &["very_rare"]).await;
    s.err(sc, json!({"size": "titanic"}), &["gargantuan"]).await;
    s.err(sc, json!({"type": "spell", "level": 10}), &["0–9"])
        .await;
    s.err(sc, json!({"perPage": 0}), &["perPage", "1 and 100"])
        .await;
    s.err(
        sc,
        json!({"perPage": 101}),
        &["perPage must be between 1 and 100, got 101"],
    )
    .await;
    s.err(sc, json!({"page": 0}), &["page: page starts at 1"])
        .await;
    s.err(sc, json!({"random": 0}), &["random must be at least 1"])
        .await;
    s.err(
        sc,
        json!({"crMin": 5, "crMax": 1}),
        &["crMin 5 is greater than crMax 1"],
    )
    .await;
    s.err(sc, json!({"crMin": "lots"}), &["1/4"]).await;
    s.err(
        sc,
        json!({"schoool": "evocation"}),
        &["did you mean `school`"],
    )
    .await;
    s.err(
        sc,
        json!({"category": "spaceships"}),
        &["unknown category 'spaceships'; allowed: adventuring-gear, ammunition,"],
    )
    .await;
    s.err("get_compendium_entry", json!({}), &["missing field `name`"])
        .await;
    s.err(
        "get_compendium_entry",
        json!({"name": "  "}),
        &["name: give the name of an entry, e.g. \"fireball\""],
    )
    .await;
    s.err(
        "get_compendium_entry",
        json!({"name": "qqqzzzx", "type": "spell"}),
        &["no SRD spell", "search_compendium"],
    )
    .await;
    s.client.close().await.unwrap();
}

#[tokio::test]
async fn a_goblin_from_the_compendium_attacks_with_plus_4_and_1d6_plus_2() {
    if srd_dir().is_none() {
        return;
    }
    let s = Session::start(&[]).await;
    let a = s
        .ok(
            "get_compendium_entry",
            json!({"name": "goblin", "type": "monster"}),
        )
        .await;
    assert!(
        a.text.contains("AC 15") && a.text.contains("HP 7"),
        "{}",
        a.text
    );
    assert!(a.text.contains("+4 to hit"), "{}", a.text);
    let scimitar = &a.structured["entry"]["actions"][0];
    assert_eq!(scimitar["name"], "Scimitar");
    assert_eq!(scimitar["attackBonus"], 4);
    assert_eq!(scimitar["damage"][0]["damageDice"], "1d6+2");
    assert_eq!(scimitar["damage"][0]["damageType"], "slashing");

    let a = s
        .ok("create_character", json!({"fromMonster": "goblin"}))
        .await;
    let c = &a.structured["character"];
    assert_eq!(c["name"], "Goblin");
    assert_eq!(c["kind"], "enemy");
    assert_eq!(c["armorClass"], 15);
    assert_eq!(c["maxHp"], 7);
    assert_eq!(c["speed"], 30);
    assert_eq!(c["size"], "small");
    assert_eq!(c["skills"]["stealth"], "expertise", "+6 = DEX +2 + 2×PB 2");
    let block = &c["statBlock"];
    assert_eq!(block["challengeRating"], 0.25);
    assert_eq!(block["xp"], 50);
    assert_eq!(
        block["actions"][0],
        json!({"name": "Scimitar", "desc": block["actions"][0]["desc"], "attackBonus": 4,
               "damage": [{"dice": "1d6+2", "damageType": "slashing"}]})
    );
    assert!(
        a.text.contains("Actions: Scimitar +4, 1d6+2 slashing"),
        "{}",
        a.text
    );
    let a = s
        .ok("get_character", json!({"characterName": "goblin"}))
        .await;
    assert!(a.text.contains("Scimitar +4, 1d6+2 slashing"), "{}", a.text);
    assert!(a.text.contains("CR 1/4 (50 XP)"), "{}", a.text);
    // And it attacks with its stat block: +4 to hit, 1d6+2 slashing on a hit (dice doubled on a
    // crit), with its own sheet's conditions and effects applied.
    for _ in 0..12 {
        let a = s
            .client
            .call(
                "roll_check",
                json!({"characterName": "Goblin", "checkType": "attack", "weapon": "scimitar", "dc": 12}),
            )
            .await
            .unwrap();
        assert!(!a.is_error, "{}", a.text);
        let o = &a.structured["outcome"];
        assert_eq!(o["modifierTotal"], 4, "{}", a.structured);
        let kept = o["kept"].as_i64().unwrap();
        assert_eq!(o["total"].as_i64().unwrap(), kept + 4);
        let d = &a.structured["damage"];
        if o["success"] == json!(false) {
            assert!(d.is_null(), "no damage on a miss");
            continue;
        }
        assert_eq!(d["byType"][0]["damageType"], "slashing", "{d}");
        let total = d["total"].as_i64().unwrap();
        if d["critical"] == json!(true) {
            assert!((4..=14).contains(&total), "2d6+2 on a crit: {total}");
        } else {
            assert!((3..=8).contains(&total), "1d6+2: {total}");
        }
    }
    s.err(
        "roll_check",
        json!({"characterName": "Goblin", "checkType": "attack", "weapon": "longsword"}),
        &["Scimitar, Shortbow"],
    )
    .await;
    // Fuzzy names, a chosen name and type; a dragon's resistances and legendary actions.
    let a = s
        .ok(
            "create_character",
            json!({"fromMonster": "adult red dragn", "name": "Ember", "characterType": "npc"}),
        )
        .await;
    let c = &a.structured["character"];
    assert_eq!(c["name"], "Ember");
    assert_eq!(c["kind"], "npc");
    assert_eq!(c["immunities"], json!(["fire"]));
    assert!(
        c["saveProficiencies"]
            .as_array()
            .unwrap()
            .contains(&json!("dex"))
    );
    assert!(a.text.contains("Legendary:"), "{}", a.text);
    assert!(
        a.text.contains("read as the SRD monster Adult Red Dragon"),
        "{}",
        a.text
    );
    // Bad inputs.
    s.err(
        "create_character",
        json!({"fromMonster": "qqqzzzx"}),
        &["fromMonster", "no SRD monster"],
    )
    .await;
    s.err(
        "create_character",
        json!({"fromMonster": "red dragon"}),
        &["did you mean one of"],
    )
    .await;
    s.err(
        "create_character",
        json!({"fromMonster": "goblin", "class": "wizard", "hp": 3}),
        &["class, hp", "update_character"],
    )
    .await;
    s.err("create_character", json!({}), &["name", "fromMonster"])
        .await;
    s.client.close().await.unwrap();
}

#[tokio::test]
async fn without_the_srd_compendium_tools_say_how_to_install_it() {
    let missing = tempfile::tempdir().unwrap();
    let srd = missing.path().join("no-srd-here").display().to_string();
    let s = Session::start(&["--srd", &srd]).await;
    for (tool, args) in [
        ("search_compendium", json!({"query": "fireball"})),
        ("get_compendium_entry", json!({"name": "fireball"})),
        ("create_character", json!({"fromMonster": "goblin"})),
        ("get_spell_details", json!({"spell_name": "fireball"})),
    ] {
        s.err(tool, args, &["srd install --from", "TABLETOP_SRD_DIR"])
            .await;
    }
    // Everything else still works.
    let a = s
        .client
        .call("roll_dice", json!({"expression": "1d20"}))
        .await
        .unwrap();
    assert!(!a.is_error);
    s.client.close().await.unwrap();
}
