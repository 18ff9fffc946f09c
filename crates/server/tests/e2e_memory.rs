//! End to end over the real binary, SRD configured, SRD-built characters: campaign memory
//! (issue 24). A quest whose last objective pays XP, gold and items to the party; NPCs who
//! remember and rank what they remember, with attitudes per PC and ties to factions; secrets
//! with a leak check; the world clock moved by move_party wait (and its legacy name
//! advance_time), travel, rests and combat rounds,
//! ending Longstrider after an hour; and all of it still there after a restart.

use super::common;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use tabletop_server::client::{Answer, Client};

async fn spawn(dir: &Path, seed: bool) -> Client {
    let mut args = vec!["--data-dir".to_string(), dir.display().to_string()];
    args.extend(common::srd_args());
    if seed {
        args.extend(["--seed".to_string(), "24".to_string()]);
    }
    Client::spawn(&PathBuf::from(env!("CARGO_BIN_EXE_tabletop")), &args)
        .await
        .unwrap()
}

async fn ok(c: &Client, tool: &str, args: Value) -> Answer {
    let a = c.call(tool, args.clone()).await.unwrap();
    assert!(!a.is_error, "{tool} {args} failed: {}", a.text);
    a
}

async fn err(c: &Client, tool: &str, args: Value, needle: &str) {
    let a = c.call(tool, args.clone()).await.unwrap();
    assert!(a.is_error, "{tool} {args} should fail: {}", a.text);
    assert!(a.text.contains(needle), "{tool} {args}: {}", a.text);
}

use common::srd_here as srd;

/// Brom (dwarf fighter), Sera (human cleric), Ivo (elf wizard), all level 3, in party Lanterns.
async fn party(c: &Client) {
    for (name, class, race) in [
        ("Brom", "fighter", "dwarf"),
        ("Sera", "cleric", "human"),
        ("Ivo", "wizard", "elf"),
    ] {
        ok(
            c,
            "create_character",
            json!({"name": name, "class": class, "race": race, "level": 3, "abilityMethod": "standard_array"}),
        )
        .await;
    }
    ok(
        c,
        "manage_party",
        json!({"operation": "create", "name": "Lanterns", "characterName": "Brom"}),
    )
    .await;
    for n in ["Sera", "Ivo"] {
        ok(
            c,
            "manage_party",
            json!({"operation": "add_member", "characterName": n}),
        )
        .await;
    }
}

async fn sheet(c: &Client, name: &str) -> Value {
    ok(c, "get_character", json!({"characterName": name}))
        .await
        .structured
}

#[tokio::test]
async fn a_quest_pays_the_party_when_its_last_objective_is_done() {
    if !srd() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let c = spawn(dir.path(), true).await;
    party(&c).await;
    let a = ok(
        &c,
        "manage_quest",
        json!({"operation": "create", "title": "Rats in the Cellar", "giver": "Mara the innkeeper",
               "places": ["Cellar"], "objectives": ["Find the nest", "Burn it"],
               "rewards": {"xp": 301, "gp": 25, "items": ["Potion of Healing", "Silver Idol"]}}),
    )
    .await;
    assert_eq!(a.structured["quest"]["id"], "qu1");
    assert!(
        a.text
            .contains("Rewards: 301 XP, 25 gp, Potion of Healing, Silver Idol"),
        "{}",
        a.text
    );
    // The first objective: progress, nothing paid yet.
    let a = ok(
        &c,
        "manage_quest",
        json!({"operation": "complete_objective", "questId": "qu1", "objective": "1"}),
    )
    .await;
    assert!(
        a.text.contains("objective 1 done: Find the nest (1/2)"),
        "{}",
        a.text
    );
    assert_eq!(a.structured["quest"]["status"], "active");
    assert_eq!(sheet(&c, "Brom").await["character"].get("xp"), None);
    // Twice is refused; an unknown objective names the real ones.
    err(
        &c,
        "manage_quest",
        json!({"operation": "complete_objective", "questId": "qu1", "objective": "1"}),
        "already done",
    )
    .await;
    err(
        &c,
        "manage_quest",
        json!({"operation": "complete_objective", "questId": "qu1", "objective": "slay"}),
        "1 Find the nest; 2 Burn it",
    )
    .await;
    // The last one, by its text and the quest's title: completed and paid.
    let a = ok(
        &c,
        "manage_quest",
        json!({"operation": "complete_objective", "questId": "rats in the cellar", "objective": "burn it"}),
    )
    .await;
    assert_eq!(a.structured["quest"]["status"], "completed");
    assert_eq!(
        a.structured["rewarded"],
        json!([
            "Brom: 100 XP (now 100), 8 gp, 3 sp, 4 cp, Potion of Healing, Silver Idol",
            "Sera: 100 XP (now 100), 8 gp, 3 sp, 3 cp",
            "Ivo: 100 XP (now 100), 8 gp, 3 sp, 3 cp",
            "1 XP left over after an even split (100 each)"
        ]),
        "{}",
        a.text
    );
    let brom = sheet(&c, "Brom").await;
    assert_eq!(brom["character"]["xp"], 100);
    let items: Vec<&str> = brom["character"]["inventory"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert!(
        items.contains(&"Potion of Healing") && items.contains(&"Silver Idol"),
        "{items:?}"
    );
    let sera = sheet(&c, "Sera").await;
    assert_eq!(sera["character"]["xp"], 100);
    let inv = ok(
        &c,
        "manage_inventory",
        json!({"operation": "view", "characterName": "Sera"}),
    )
    .await;
    assert!(inv.text.contains("8 gp, 3 sp, 3 cp"), "{}", inv.text);
    // A completed quest no longer changes; listing by status.
    err(
        &c,
        "manage_quest",
        json!({"operation": "add_objective", "questId": "qu1", "objective": "Celebrate"}),
        "is completed",
    )
    .await;
    ok(
        &c,
        "manage_quest",
        json!({"operation": "create", "title": "The Lost Ring", "objectives": ["Search the well"]}),
    )
    .await;
    let a = ok(
        &c,
        "manage_quest",
        json!({"operation": "fail", "questId": "qu2", "reason": "the ring was sold"}),
    )
    .await;
    assert_eq!(a.structured["quest"]["outcome"], "the ring was sold");
    let a = ok(
        &c,
        "manage_quest",
        json!({"operation": "list", "status": "completed"}),
    )
    .await;
    assert_eq!(a.structured["quests"].as_array().unwrap().len(), 1);
    assert_eq!(a.structured["quests"][0]["title"], "Rats in the Cellar");
    ok(
        &c,
        "manage_quest",
        json!({"operation": "delete", "questId": "qu2"}),
    )
    .await;
    let a = ok(&c, "manage_quest", json!({"operation": "list"})).await;
    assert_eq!(a.structured["quests"].as_array().unwrap().len(), 1);
    // Another quest, active, shows in the session context.
    ok(
        &c,
        "manage_quest",
        json!({"operation": "create", "title": "Escort the Caravan", "objectives": ["Reach Millbrook"]}),
    )
    .await;
    let a = ok(&c, "get_session_context", json!({})).await;
    assert!(
        a.text
            .contains("**Quests** qu3 Escort the Caravan (0/1 objectives)"),
        "{}",
        a.text
    );
    assert!(
        a.text.contains("**Time** Day 1, 08:00 (morning)"),
        "{}",
        a.text
    );
}

#[tokio::test]
async fn npcs_remember_rank_and_keep_attitudes_across_a_restart() {
    if !srd() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    {
        let c = spawn(dir.path(), true).await;
        party(&c).await;
        ok(
            &c,
            "manage_npc",
            json!({"operation": "create", "name": "Mara", "description": "Innkeeper of the Gilded Goose",
                   "location": "Millbrook", "factions": ["Millbrook Council"], "attitude": "indifferent"}),
        )
        .await;
        ok(
            &c,
            "manage_npc",
            json!({"operation": "create", "name": "Tobin", "location": "Millbrook"}),
        )
        .await;
        for (about, memory, importance) in [
            ("Brom", "Brom broke a chair in the common room", 2),
            ("party", "The party cleared the rats from her cellar", 4),
            ("Sera", "Sera healed her sick daughter", 5),
            ("Tobin", "Tobin owes her three months of rent", 3),
            ("Brom", "Brom paid for the chair", 3),
        ] {
            ok(
                &c,
                "manage_npc",
                json!({"operation": "remember", "npcId": "Mara", "about": about, "memory": memory, "importance": importance}),
            )
            .await;
            // Time passes between memories.
            ok(&c, "move_party", json!({"operation": "wait", "hours": 1})).await;
        }
        err(
            &c,
            "manage_npc",
            json!({"operation": "remember", "npcId": "Mara", "about": "Zed", "memory": "x"}),
            "is not \"party\", a character or an NPC",
        )
        .await;
        err(
            &c,
            "manage_npc",
            json!({"operation": "remember", "npcId": "Mara", "memory": "x", "importance": 9}),
            "1 (trivia) to 5",
        )
        .await;
        let a = ok(
            &c,
            "manage_npc",
            json!({"operation": "attitude", "npcId": "Mara", "toward": "Sera", "attitude": "helpful"}),
        )
        .await;
        assert!(
            a.text
                .contains("Mara's attitude toward Sera: indifferent → helpful"),
            "{}",
            a.text
        );
        ok(
            &c,
            "manage_npc",
            json!({"operation": "attitude", "npcId": "Mara", "toward": "Brom", "attitude": "unfriendly"}),
        )
        .await;
        let a = ok(
            &c,
            "manage_npc",
            json!({"operation": "relate", "npcId": "Mara", "with": "Tobin", "relation": "landlady"}),
        )
        .await;
        assert!(a.text.contains("Mara → Tobin: landlady"), "{}", a.text);
        ok(
            &c,
            "manage_npc",
            json!({"operation": "relate", "npcId": "Tobin", "with": "Thieves of the Reed", "relation": "informant", "faction": true}),
        )
        .await;
    }
    // A restart: the engine alone remembers.
    let c = spawn(dir.path(), false).await;
    let a = ok(
        &c,
        "manage_npc",
        json!({"operation": "recall", "npcId": "Mara"}),
    )
    .await;
    let texts: Vec<&str> = a.structured["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    // Importance first, then the most recent.
    assert_eq!(
        texts,
        vec![
            "Sera healed her sick daughter",
            "The party cleared the rats from her cellar",
            "Brom paid for the chair",
            "Tobin owes her three months of rent",
            "Brom broke a chair in the common room",
        ]
    );
    // About Brom: his memories and the party's, and the attitude kept for him.
    let a = ok(
        &c,
        "manage_npc",
        json!({"operation": "recall", "npcId": "Mara", "about": "Brom", "limit": 2}),
    )
    .await;
    assert_eq!(a.structured["attitude"], "unfriendly");
    assert_eq!(a.structured["total"], 3);
    let texts: Vec<&str> = a.structured["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        vec![
            "The party cleared the rats from her cellar",
            "Brom paid for the chair"
        ]
    );
    assert!(a.text.contains("(Day 1, 12:00)"), "{}", a.text);
    // Ivo has no attitude of his own: the party's (indifferent).
    let a = ok(
        &c,
        "manage_npc",
        json!({"operation": "attitude", "npcId": "Mara", "toward": "Ivo"}),
    )
    .await;
    assert!(
        a.text.contains("Mara is indifferent toward Ivo"),
        "{}",
        a.text
    );
    let a = ok(
        &c,
        "manage_npc",
        json!({"operation": "get", "name": "tobin"}),
    )
    .await;
    assert!(
        a.text
            .contains("Ties: Mara (landlady (of Mara)), Thieves of the Reed (informant)"),
        "{}",
        a.text
    );
    assert_eq!(a.structured["factions"], json!(["Thieves of the Reed"]));
    let a = ok(
        &c,
        "manage_npc",
        json!({"operation": "list", "factions": ["Millbrook Council"]}),
    )
    .await;
    assert_eq!(a.structured["npcs"].as_array().unwrap().len(), 1);
    // Linking an existing sheet.
    ok(
        &c,
        "create_character",
        json!({"name": "Captain Hale", "class": "fighter", "race": "human", "level": 2, "characterType": "npc", "abilityMethod": "standard_array"}),
    )
    .await;
    let a = ok(
        &c,
        "manage_npc",
        json!({"operation": "create", "characterId": "Captain Hale"}),
    )
    .await;
    assert_eq!(a.structured["npc"]["name"], "Captain Hale");
    assert_eq!(a.structured["npc"]["characterId"], "ch4");
}

#[tokio::test]
async fn secrets_are_checked_for_leaks_and_revealed_explicitly() {
    if !srd() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let c = spawn(dir.path(), true).await;
    ok(
        &c,
        "manage_secret",
        json!({"operation": "create", "title": "The mayor is a doppelganger",
               "content": "Mayor Halvard was replaced by a doppelganger last winter.",
               "revealCondition": "a detect thoughts on the mayor, or his journal found",
               "keyTerms": ["doppelganger", "shapechanger", "real mayor"]}),
    )
    .await;
    ok(
        &c,
        "manage_secret",
        json!({"operation": "create", "title": "Smugglers' tunnel",
               "content": "A tunnel runs from the chapel crypt to the harbour warehouse."}),
    )
    .await;
    let a = ok(
        &c,
        "manage_secret",
        json!({"operation": "check_leaks", "text": "The mayor smiles; you wonder if he is the real mayor at all."}),
    )
    .await;
    assert_eq!(a.structured["checked"], 2);
    assert_eq!(a.structured["leaks"].as_array().unwrap().len(), 1);
    assert_eq!(a.structured["leaks"][0]["secretId"], "se1");
    assert_eq!(a.structured["leaks"][0]["matched"], json!(["real mayor"]));
    assert!(
        a.text.contains("se1 'The mayor is a doppelganger': the text says 'real mayor' (key term of this secret)"),
        "{}",
        a.text
    );
    // Without key terms: two distinctive words of the secret.
    let a = ok(
        &c,
        "manage_secret",
        json!({"operation": "check_leaks", "text": "Cold air rises from the crypt; far off, the harbour bell."}),
    )
    .await;
    assert_eq!(a.structured["leaks"][0]["secretId"], "se2");
    assert_eq!(
        a.structured["leaks"][0]["matched"],
        json!(["crypt", "harbour"])
    );
    let a = ok(
        &c,
        "manage_secret",
        json!({"operation": "check_leaks", "text": "The chapel is quiet."}),
    )
    .await;
    assert_eq!(a.structured["leaks"], json!([]));
    // Revealed: no longer a leak.
    let a = ok(
        &c,
        "manage_secret",
        json!({"operation": "reveal", "secretId": "se1", "how": "Ivo read the journal"}),
    )
    .await;
    assert_eq!(a.structured["secret"]["revealed"], true);
    err(
        &c,
        "manage_secret",
        json!({"operation": "reveal", "secretId": "se1"}),
        "already revealed (Ivo read the journal)",
    )
    .await;
    let a = ok(
        &c,
        "manage_secret",
        json!({"operation": "check_leaks", "text": "The real mayor's body lies in the crypt."}),
    )
    .await;
    assert_eq!(a.structured["checked"], 1);
    assert_eq!(a.structured["leaks"], json!([]));
    let a = ok(
        &c,
        "manage_secret",
        json!({"operation": "list", "revealed": false}),
    )
    .await;
    assert_eq!(a.structured["secrets"].as_array().unwrap().len(), 1);
    assert_eq!(a.structured["secrets"][0]["id"], "se2");
}

#[tokio::test]
async fn the_clock_moves_with_time_travel_rests_and_rounds_and_ends_durations() {
    if !srd() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let c = spawn(dir.path(), true).await;
    party(&c).await;
    // Longstrider: 1 hour (600 rounds).
    let a = ok(
        &c,
        "manage_effect",
        json!({"characterName": "Brom", "operation": "add", "name": "Longstrider"}),
    )
    .await;
    assert!(a.text.contains("600 rounds"), "{}", a.text);
    let a = ok(
        &c,
        "move_party",
        json!({"operation": "wait", "minutes": 59}),
    )
    .await;
    assert_eq!(a.text, "Time passes: Day 1, 08:00 → Day 1, 08:59 (59 min).");
    assert_eq!(a.structured["expired"], json!([]));
    let a = ok(
        &c,
        "manage_effect",
        json!({"characterName": "Brom", "operation": "list"}),
    )
    .await;
    assert!(
        a.text.contains("Longstrider") && a.text.contains("10 rounds"),
        "{}",
        a.text
    );
    let a = ok(&c, "advance_time", json!({"minutes": 1})).await;
    assert_eq!(
        a.text,
        "Time passes: Day 1, 08:59 → Day 1, 09:00 (1 min). Ended: Longstrider on Brom."
    );
    assert_eq!(
        a.structured["expired"],
        json!([{"characterId": "ch1", "character": "Brom", "ended": "Longstrider"}])
    );
    assert_eq!(sheet(&c, "Brom").await["character"].get("effects"), None);
    // A condition with a duration in rounds (1 minute) ends too.
    ok(
        &c,
        "manage_condition",
        json!({"characterName": "Ivo", "operation": "add", "condition": "frightened", "duration": "rounds", "rounds": 10}),
    )
    .await;
    // Until: the next dusk (18:00), then the next dawn (06:00 the next day).
    let a = ok(
        &c,
        "move_party",
        json!({"operation": "wait", "until": "dusk"}),
    )
    .await;
    assert!(
        a.text.starts_with(
            "Time passes: Day 1, 09:00 → Day 1, 18:00 (9 h). Ended: frightened on Ivo."
        ),
        "{}",
        a.text
    );
    let a = ok(&c, "advance_time", json!({"hours": 1, "until": "dawn"})).await;
    assert!(
        a.text
            .starts_with("Time passes: Day 1, 18:00 → Day 2, 06:00 (12 h)"),
        "{}",
        a.text
    );
    err(
        &c,
        "move_party",
        json!({"operation": "wait"}),
        "say how long",
    )
    .await;
    err(&c, "advance_time", json!({"days": 400}), "at most a year").await;
    // Rests: a short rest is an hour, shared by everyone who rests at that moment.
    let a = ok(
        &c,
        "take_rest",
        json!({"characterName": "Brom", "type": "short"}),
    )
    .await;
    assert!(
        a.text.contains("Day 2, 06:00 → Day 2, 07:00 (1 h)"),
        "{}",
        a.text
    );
    let a = ok(
        &c,
        "take_rest",
        json!({"characterName": "Sera", "type": "short"}),
    )
    .await;
    assert!(!a.text.contains("clock"), "{}", a.text);
    let a = ok(
        &c,
        "take_rest",
        json!({"characterName": "Ivo", "type": "long"}),
    )
    .await;
    assert!(
        a.text.contains("Day 2, 07:00 → Day 2, 15:00 (8 h)"),
        "{}",
        a.text
    );
    // Travel: the way's minutes.
    for name in ["Gate", "Market"] {
        ok(
            &c,
            "manage_location",
            json!({"operation": "create", "name": name}),
        )
        .await;
    }
    ok(
        &c,
        "manage_location",
        json!({"operation": "link", "fromLocationId": "Gate", "toLocationId": "Market", "travelMinutes": 20}),
    )
    .await;
    ok(
        &c,
        "manage_party",
        json!({"operation": "update", "partyId": "Lanterns", "locationId": "Gate"}),
    )
    .await;
    let a = ok(
        &c,
        "move_party",
        json!({"operation": "move", "to": "Market"}),
    )
    .await;
    assert!(
        a.text
            .contains("Clock: Day 2, 15:00 → Day 2, 15:20 (20 min)."),
        "{}",
        a.text
    );
    // Combat rounds: six seconds each.
    ok(
        &c,
        "create_encounter",
        json!({"name": "Market brawl", "participants": [
            {"characterName": "Brom", "initiative": 18, "position": {"x": 1, "y": 1}},
            {"characterName": "Sera", "initiative": 12, "position": {"x": 1, "y": 3}}
        ]}),
    )
    .await;
    for _ in 0..4 {
        ok(&c, "advance_turn", json!({})).await;
    }
    let a = ok(&c, "get_session_context", json!({})).await;
    assert_eq!(
        a.structured["clock"]["seconds"],
        86_400 + 15 * 3_600 + 20 * 60 + 12
    );
    assert!(
        a.text.contains("**Time** Day 2, 15:20 (afternoon)"),
        "{}",
        a.text
    );
}

fn cli(dir: &Path, args: &[&str]) -> String {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .env_remove("TABLETOP_DATA_DIR")
        .env_remove("TABLETOP_CAMPAIGN")
        .arg("--data-dir")
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stderr).trim().to_string()
}

#[tokio::test]
async fn export_and_import_carry_quests_npcs_secrets_and_the_clock() {
    if !srd() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let reads = [
        ("manage_quest", json!({"operation": "list"})),
        (
            "manage_quest",
            json!({"operation": "get", "questId": "qu1"}),
        ),
        (
            "manage_npc",
            json!({"operation": "recall", "npcId": "Mara"}),
        ),
        ("manage_npc", json!({"operation": "get", "npcId": "Mara"})),
        ("manage_secret", json!({"operation": "list"})),
        ("get_session_context", json!({})),
    ];
    let mut before = Vec::new();
    {
        let c = spawn(dir.path(), true).await;
        party(&c).await;
        ok(
            &c,
            "manage_quest",
            json!({"operation": "create", "title": "Rats in the Cellar", "objectives": ["Clear the cellar", "Find the nest"],
                   "rewards": {"xp": 300, "gp": 30}}),
        )
        .await;
        ok(
            &c,
            "manage_quest",
            json!({"operation": "complete_objective", "questId": "qu1", "objective": "1"}),
        )
        .await;
        ok(
            &c,
            "manage_npc",
            json!({"operation": "create", "name": "Mara", "location": "Millbrook", "attitude": "indifferent"}),
        )
        .await;
        ok(
            &c,
            "manage_npc",
            json!({"operation": "remember", "npcId": "Mara", "about": "Sera", "memory": "Sera healed her daughter", "importance": 5}),
        )
        .await;
        ok(
            &c,
            "manage_npc",
            json!({"operation": "attitude", "npcId": "Mara", "toward": "Sera", "attitude": "friendly"}),
        )
        .await;
        ok(
            &c,
            "manage_secret",
            json!({"operation": "create", "title": "Smugglers' tunnel",
                   "content": "A tunnel runs from the chapel crypt to the harbour warehouse."}),
        )
        .await;
        ok(&c, "move_party", json!({"operation": "wait", "hours": 30})).await;
        for (tool, args) in &reads {
            before.push(ok(&c, tool, args.clone()).await.structured);
        }
    }
    let outside = tempfile::tempdir().unwrap();
    let file = outside.path().join("saga.json");
    assert_eq!(
        cli(
            dir.path(),
            &[
                "campaign",
                "export",
                "default",
                "--out",
                file.to_str().unwrap()
            ]
        ),
        format!("exported 'default' to {}", file.display())
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        (
            doc["quests"].as_array().unwrap().len(),
            doc["npcs"].as_array().unwrap().len(),
            doc["secrets"].as_array().unwrap().len(),
            doc["clock"]["seconds"].as_u64()
        ),
        // The clock starts on day 1 at 08:00.
        (1, 1, 1, Some((8 + 30) * 3_600))
    );
    cli(
        dir.path(),
        &[
            "campaign",
            "import",
            file.to_str().unwrap(),
            "--name",
            "copy",
        ],
    );
    let mut args = vec![
        "--data-dir".to_string(),
        dir.path().display().to_string(),
        "--campaign".to_string(),
        "copy".to_string(),
    ];
    args.extend(["--seed".to_string(), "24".to_string()]);
    args.extend(common::srd_args());
    let c = Client::spawn(&PathBuf::from(env!("CARGO_BIN_EXE_tabletop")), &args)
        .await
        .unwrap();
    for ((tool, a), b) in reads.iter().zip(&before) {
        let mut got = ok(&c, tool, a.clone()).await.structured;
        let mut want = b.clone();
        if *tool == "get_session_context" {
            // The campaign's name and its event log differ; the world in it does not.
            for v in [&mut got, &mut want] {
                if let Some(o) = v.as_object_mut() {
                    o.remove("campaign");
                    o.remove("recentEvents");
                    o.remove("events");
                }
            }
        }
        assert_eq!(&got, &want, "{tool} {a}");
    }
    // New records do not take imported ids.
    let a = ok(
        &c,
        "manage_quest",
        json!({"operation": "create", "title": "Escort the Caravan", "objectives": ["Reach Millbrook"]}),
    )
    .await;
    assert_eq!(a.structured["quest"]["id"], "qu2", "{}", a.text);
    let a = ok(
        &c,
        "manage_npc",
        json!({"operation": "create", "name": "Tobin"}),
    )
    .await;
    assert_eq!(a.structured["npc"]["id"], "np2", "{}", a.text);
}

#[tokio::test]
async fn concentration_lasts_as_long_as_its_spell_on_the_clock_and_in_a_fight() {
    if !srd() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let c = spawn(dir.path(), true).await;
    party(&c).await;
    // Shield of Faith: "Concentration, up to 10 minutes". Sera concentrates, Brom bears it.
    let a = ok(
        &c,
        "manage_effect",
        json!({"characterName": "Brom", "operation": "add", "name": "Shield of Faith", "caster": "Sera"}),
    )
    .await;
    assert!(
        a.text
            .contains("Sera concentrates on Shield of Faith (up to 10 min)"),
        "{}",
        a.text
    );
    let a = ok(&c, "advance_time", json!({"minutes": 9})).await;
    assert_eq!(a.structured["expired"], json!([]), "{}", a.text);
    let a = ok(&c, "advance_time", json!({"minutes": 1})).await;
    assert_eq!(
        a.structured["expired"],
        json!([{"characterId": "ch2", "character": "Sera",
                "ended": "concentration on Shield of Faith (with it: Shield of Faith on Brom)"}]),
        "{}",
        a.text
    );
    assert_eq!(sheet(&c, "Brom").await["character"].get("effects"), None);
    assert_eq!(
        sheet(&c, "Sera").await["character"].get("concentration"),
        None
    );
    // In a fight the caster's rounds pass on its own turns: ten of Sera's turns end Bless.
    ok(
        &c,
        "manage_effect",
        json!({"characterName": "Brom", "operation": "add", "name": "Bless", "caster": "Sera"}),
    )
    .await;
    ok(
        &c,
        "create_encounter",
        json!({"name": "Drill", "participants": [
            {"characterName": "Sera", "initiative": 18, "position": {"x": 1, "y": 1}},
            {"characterName": "Brom", "initiative": 12, "position": {"x": 1, "y": 3}}
        ]}),
    )
    .await;
    // Sera's turn is first: 19 advances end 10 of her turns.
    let mut last = String::new();
    for i in 0..19 {
        let a = ok(&c, "advance_turn", json!({})).await;
        if i < 18 {
            assert!(
                !a.text.contains("concentration on Bless ends"),
                "{i}: {}",
                a.text
            );
        }
        last = a.text;
    }
    assert!(
        last.contains(
            "Sera's concentration on Bless ends (its duration ran out); removed: Bless on Brom"
        ),
        "{last}"
    );
}
