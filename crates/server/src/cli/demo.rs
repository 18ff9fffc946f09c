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
    outln!(
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
        outln!("(TABLETOP_SRD_DIR is not set: the heroes use custom classes and races.)\n");
        (
            json!({"name": "Thorin", "customRace": {"name": "Mountain folk", "abilityBonuses": {"con": 2}}, "speed": 25,
                   "customClass": {"name": "Warrior", "hitDie": 10}, "saves": ["str", "con"], "level": 3,
                   "abilityMethod": "standard_array", "skills": ["athletics", "perception"], "ac": 16}),
            json!({"name": "Elara", "customClass": {"name": "Mage", "hitDie": 6, "spellcastingAbility": "int"}, "saves": ["int", "wis"],
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
        step(&client, tool, args).await?;
    }
    outln!("## A fight: Thorin and Elara against goblins\n");
    fight(&client, srd).await?;
    client.close().await?;
    outln!(
        "The scene was played through the real server; every roll came from the campaign's seeded dice stream."
    );
    Ok(ExitCode::SUCCESS)
}

/// Calls a tool and prints the exchange.
async fn step(
    client: &Client,
    tool: &str,
    args: Value,
) -> anyhow::Result<tabletop_server::client::Answer> {
    outln!("→ {tool} {args}");
    let a = client.call(tool, args).await?;
    let mark = if a.is_error { "✗ tool error: " } else { "" };
    for (i, line) in a.text.lines().enumerate() {
        outln!(
            "{}{}{line}",
            if i == 0 { "← " } else { "  " },
            if i == 0 { mark } else { "" }
        );
    }
    outln!();
    Ok(a)
}

/// A combatant as `get_encounter` reports it.
struct Fighter {
    id: String,
    name: String,
    side: String,
    status: String,
    x: i64,
    y: i64,
    current: bool,
}

fn fighters(view: &Value) -> Vec<Fighter> {
    view["combatants"]
        .as_array()
        .map(|cs| {
            cs.iter()
                .map(|c| Fighter {
                    id: c["id"].as_str().unwrap_or_default().to_string(),
                    name: c["name"].as_str().unwrap_or_default().to_string(),
                    side: c["side"].as_str().unwrap_or_default().to_string(),
                    status: c["status"].as_str().unwrap_or_default().to_string(),
                    x: c["position"]["x"].as_i64().unwrap_or(0),
                    y: c["position"]["y"].as_i64().unwrap_or(0),
                    current: c["current"].as_bool().unwrap_or(false),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The agent's side of a short fight: it only chooses actions; the server rolls and applies
/// every rule (hits, damage, opportunity attacks, death saves).
async fn fight(client: &Client, srd: bool) -> anyhow::Result<()> {
    // Gear for Thorin, a spell for Elara.
    let sword = if srd {
        json!({"characterName": "Thorin", "operation": "give", "itemName": "longsword"})
    } else {
        json!({"characterName": "Thorin", "operation": "give", "item": {"name": "Longsword", "type": "weapon",
               "weaponStats": {"damageDice": "1d8", "damageType": "slashing", "category": "martial_melee", "properties": ["versatile"], "versatileDamage": "1d10"}}})
    };
    step(client, "manage_inventory", sword).await?;
    step(
        client,
        "manage_inventory",
        json!({"characterName": "Thorin", "operation": "equip", "itemName": "Longsword"}),
    )
    .await?;
    let goblin = |name: &str, x: i32, y: i32| {
        json!({"name": name, "hp": 7, "ac": 15, "stats": {"dex": 14}, "cr": 0.25, "position": {"x": x, "y": y},
               "attacks": [{"name": "Scimitar", "bonus": 4, "damage": "1d6+2", "damageType": "slashing"}]})
    };
    let mut participants = vec![
        json!({"characterName": "Thorin", "position": {"x": 1, "y": 2}}),
        json!({"characterName": "Elara", "position": {"x": 0, "y": 4}}),
    ];
    if srd {
        participants.push(json!({"monster": "goblin", "count": 3,
                                 "positions": [{"x": 8, "y": 2}, {"x": 9, "y": 4}, {"x": 10, "y": 3}]}));
    } else {
        participants.extend([
            goblin("Goblin 1", 8, 2),
            goblin("Goblin 2", 9, 4),
            goblin("Goblin 3", 10, 3),
        ]);
    }
    let created = step(
        client,
        "create_encounter",
        json!({"name": "Goblin ambush", "autoEnd": true,
               "participants": participants,
               "terrain": {"width": 11, "height": 7, "walls": [{"x": 5, "y": 0}, {"x": 5, "y": 1}],
                           "difficult": [{"x": 4, "y": 3}, {"x": 4, "y": 4}]}}),
    )
    .await?;
    if created.is_error {
        return Ok(());
    }
    let id = created.structured["encounterId"].clone();
    let this = json!({ "encounterId": id });
    step(client, "render_battlefield", this.clone()).await?;
    for _ in 0..40 {
        let v = client.call("get_encounter", this.clone()).await?;
        if v.is_error || v.structured["status"] == "ended" {
            break;
        }
        let all = fighters(&v.structured);
        let Some(me) = all.iter().find(|f| f.current) else {
            break;
        };
        if me.status == "dying" {
            step(client, "roll_death_save", json!({"characterId": me.id})).await?;
        } else if me.status == "ok" {
            let hostile = |f: &Fighter| {
                (me.side == "enemy") != (f.side == "enemy")
                    && !matches!(f.status.as_str(), "dead" | "removed")
            };
            let foe = all
                .iter()
                .filter(|f| hostile(f))
                .min_by_key(|f| (f.x - me.x).abs().max((f.y - me.y).abs()));
            if let Some(foe) = foe {
                let gap = (foe.x - me.x).abs().max((foe.y - me.y).abs());
                if me.name == "Elara" {
                    let cast = json!({"actorId": me.id, "actionType": "cast_spell", "spell": "Fire Bolt", "targetId": foe.id});
                    if step(client, "execute_action", cast).await?.is_error {
                        step(
                            client,
                            "execute_action",
                            json!({"actorId": me.id, "actionType": "dodge"}),
                        )
                        .await?;
                    }
                } else {
                    if gap > 1 {
                        // Walk to the free square beside the foe that is nearest.
                        let mut squares: Vec<(i64, i64)> = (-1..=1)
                            .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
                            .filter(|d| *d != (0, 0))
                            .map(|(dx, dy)| (foe.x + dx, foe.y + dy))
                            .filter(|(x, y)| {
                                !all.iter()
                                    .any(|f| f.x == *x && f.y == *y && f.status != "dead")
                            })
                            .collect();
                        squares.sort_by_key(|(x, y)| (x - me.x).abs().max((y - me.y).abs()));
                        for (x, y) in squares.into_iter().take(3) {
                            // Plan with calculate_movement; walk the whole way or as far as the
                            // movement left reaches.
                            let plan = step(
                                client,
                                "calculate_movement",
                                json!({"encounterId": id, "moverId": me.id, "to": {"x": x, "y": y}}),
                            )
                            .await?;
                            let dest = if plan.structured["withinBudget"] == true {
                                json!({"x": x, "y": y})
                            } else {
                                plan.structured["stopsAt"].clone()
                            };
                            if plan.is_error || dest.is_null() {
                                continue;
                            }
                            let mv = json!({"actorId": me.id, "actionType": "move", "to": dest});
                            if !step(client, "execute_action", mv).await?.is_error {
                                break;
                            }
                        }
                    }
                    let v = client.call("get_encounter", this.clone()).await?;
                    let now = fighters(&v.structured);
                    let (Some(a), Some(b)) = (
                        now.iter().find(|f| f.id == me.id),
                        now.iter().find(|f| f.id == foe.id),
                    ) else {
                        continue;
                    };
                    if (a.x - b.x).abs().max((a.y - b.y).abs()) > 1 {
                        step(
                            client,
                            "execute_action",
                            json!({"actorId": me.id, "actionType": "dash"}),
                        )
                        .await?;
                        let next = step(client, "advance_turn", this.clone()).await?;
                        if next.is_error {
                            break;
                        }
                        continue;
                    }
                    step(
                        client,
                        "execute_action",
                        json!({"actorId": me.id, "actionType": "attack", "targetId": foe.id}),
                    )
                    .await?;
                }
            }
        }
        let next = step(client, "advance_turn", this.clone()).await?;
        if next.is_error {
            break;
        }
    }
    step(client, "render_battlefield", this.clone()).await?;
    let v = client.call("get_encounter", this.clone()).await?;
    if !v.is_error && v.structured["status"] != "ended" {
        step(
            client,
            "end_encounter",
            json!({"encounterId": id, "outcome": "fled"}),
        )
        .await?;
    }
    step(client, "get_character", json!({"characterName": "Thorin"})).await?;
    Ok(())
}
