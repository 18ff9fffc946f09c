//! `tabletop demo`: a short scene played through the real server over MCP.

use std::process::ExitCode;

use anyhow::Context;
use serde_json::{Value, json};
use tabletop_server::client::Client;

/// Plays the scene and prints the transcript.
pub fn run(seed: u64) -> anyhow::Result<ExitCode> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(play(seed))
}

async fn play(seed: u64) -> anyhow::Result<ExitCode> {
    let exe = std::env::current_exe().context("cannot find the tabletop executable")?;
    let dir = tempfile::tempdir().context("cannot create a temporary data dir")?;
    let args = vec![
        "--data-dir".to_string(),
        dir.path().display().to_string(),
        "--campaign".into(),
        "demo".into(),
        "--seed".into(),
        seed.to_string(),
    ];
    let client = Client::spawn(&exe, &args).await?;
    let tools = client.tools().await?;
    println!(
        "# Tabletop demo (seed {seed})\nConnected over MCP (stdio); the server offers {} tools.\n",
        tools.len()
    );

    let srd = std::env::var_os("TABLETOP_SRD_DIR").is_some();
    let (thorin, elara) = if srd {
        (
            json!({"name": "Thorin", "race": "dwarf", "subrace": "hill dwarf", "class": "fighter", "level": 3,
                   "abilityMethod": "standard_array", "skills": ["athletics", "perception"], "ac": 16}),
            json!({"name": "Elara", "race": "elf", "subrace": "high elf", "class": "wizard", "level": 3,
                   "abilityMethod": "point_buy", "stats": {"str": 8, "dex": 14, "con": 13, "int": 15, "wis": 12, "cha": 10},
                   "skills": ["arcana", "investigation"]}),
        )
    } else {
        println!("(TABLETOP_SRD_DIR is not set: the heroes use custom classes and races.)\n");
        (
            json!({"name": "Thorin", "customRace": {"name": "Mountain folk", "abilityBonuses": {"con": 2}, "speed": 25},
                   "customClass": {"name": "Warrior", "hitDie": 10, "saves": ["str", "con"]}, "level": 3,
                   "abilityMethod": "standard_array", "skills": ["athletics", "perception"], "ac": 16}),
            json!({"name": "Elara", "customClass": {"name": "Mage", "hitDie": 6, "saves": ["int", "wis"], "spellcastingAbility": "int"},
                   "level": 3, "abilityMethod": "point_buy", "stats": {"str": 8, "dex": 14, "con": 13, "int": 15, "wis": 12, "cha": 10},
                   "skills": ["arcana", "investigation"]}),
        )
    };
    let script: Vec<(&str, Value)> = vec![
        ("create_character", thorin),
        ("create_character", elara),
        (
            "roll_dice",
            json!({"expression": "4d6kh3", "reason": "a stat for a new NPC"}),
        ),
        (
            "roll_check",
            json!({"characterName": "Elara", "checkType": "skill", "skill": "arcana", "dc": 12, "reason": "read the runes"}),
        ),
        (
            "roll_check",
            json!({"characterName": "thorin", "checkType": "skill", "skill": "athletics",
                               "contestedBy": {"characterName": "Elara", "skill": "acrobatics"}, "reason": "shove contest"}),
        ),
        (
            "roll_check",
            json!({"group": true, "batch": [
            {"characterName": "Thorin", "checkType": "skill", "skill": "stealth", "dc": 12},
            {"characterName": "Elara", "checkType": "skill", "skill": "stealth", "dc": 12}]}),
        ),
        (
            "update_character",
            json!({"characterName": "Thorin", "damage": [{"amount": 9, "type": "slashing"}, {"amount": 4, "type": "fire"}]}),
        ),
        (
            "update_character",
            json!({"characterName": "Thorin", "tempHp": 5}),
        ),
        (
            "update_character",
            json!({"characterName": "Thorin", "hp": "+6"}),
        ),
        (
            "roll_check",
            json!({"characterName": "Elara", "checkType": "skill", "skill": "stelth"}),
        ),
        ("get_character", json!({"characterName": "Thorin"})),
        ("get_character", json!({"listAll": true})),
    ];
    for (tool, args) in script {
        println!("→ {tool} {args}");
        let a = client.call(tool, args).await?;
        let mark = if a.is_error { "✗ tool error: " } else { "" };
        for (i, line) in a.text.lines().enumerate() {
            println!(
                "{}{}{line}",
                if i == 0 { "← " } else { "  " },
                if i == 0 { mark } else { "" }
            );
        }
        println!();
    }
    client.close().await?;
    println!(
        "The scene was played through the real server; every roll came from the campaign's seeded dice stream."
    );
    Ok(ExitCode::SUCCESS)
}
