//! Every tool's `outputSchema` (advertised with `--schemas full`) against the real answers: a
//! session with SRD heroes and monsters calls every tool, each operation family, batches included,
//! and every `structuredContent` must validate against its tool's schema.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde_json::{Value, json};
use tabletop_server::client::Client;

struct Checked {
    client: Client,
    schemas: BTreeMap<String, jsonschema::Validator>,
    seen: BTreeSet<String>,
    calls: usize,
    failed: Vec<String>,
}

impl Checked {
    async fn ok(&mut self, tool: &str, args: Value) -> Value {
        let a = self.client.call(tool, args.clone()).await.unwrap();
        if a.is_error {
            self.failed.push(format!("{tool} {args}: {}", a.text));
            return Value::Null;
        }
        let v = self
            .schemas
            .get(tool)
            .unwrap_or_else(|| panic!("{tool} advertises an outputSchema"));
        let errors: Vec<String> = v
            .iter_errors(&a.structured)
            .map(|e| format!("{} at {}", e, e.instance_path))
            .take(5)
            .collect();
        assert!(
            errors.is_empty(),
            "{tool} {args}: structuredContent does not match the outputSchema: {errors:#?}\n{}",
            a.structured
        );
        self.seen.insert(tool.to_string());
        self.calls += 1;
        a.structured
    }
}

#[tokio::test]
async fn every_answer_matches_its_output_schema() {
    if std::env::var_os("TABLETOP_SRD_DIR").is_none() {
        eprintln!("skipped: set TABLETOP_SRD_DIR to the SRD 2014 data");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // The client runs `serve` with these flags: full schema detail advertises output schemas.
    let args: Vec<String> = [
        "--data-dir",
        dir.path().to_str().unwrap(),
        "--seed",
        "5",
        "--schemas",
        "full",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let client = Client::spawn(&PathBuf::from(env!("CARGO_BIN_EXE_tabletop")), &args)
        .await
        .unwrap();
    let tools = client.tools().await.unwrap();
    let mut schemas = BTreeMap::new();
    for t in &tools {
        let s = t
            .output_schema
            .as_ref()
            .unwrap_or_else(|| panic!("{} has an outputSchema", t.name));
        let s = Value::Object((**s).clone());
        assert_eq!(s["type"], "object", "{}", t.name);
        let v = jsonschema::validator_for(&s)
            .unwrap_or_else(|e| panic!("{}: the outputSchema is not a valid schema: {e}", t.name));
        schemas.insert(t.name.to_string(), v);
    }
    assert_eq!(schemas.len(), 41);
    let mut s = Checked {
        client,
        schemas,
        seen: BTreeSet::new(),
        calls: 0,
        failed: Vec::new(),
    };

    // Dice and characters.
    s.ok("roll_dice", json!({"expression": "4d6kh3"})).await;
    s.ok(
        "roll_dice",
        json!({"batch": [{"expression": "d20"}, {"expression": "1001d6"}]}),
    )
    .await;
    for (name, class, race) in [
        ("Brom", "fighter", "dwarf"),
        ("Sera", "cleric", "human"),
        ("Ivo", "wizard", "elf"),
    ] {
        let mut c = json!({"name": name, "class": class, "race": race, "level": 3, "abilityMethod": "standard_array"});
        if class == "wizard" {
            c["spells"] = json!(["fire bolt", "magic missile"]);
        }
        if class == "cleric" {
            c["spells"] = json!(["sacred flame", "cure wounds", "bless"]);
        }
        s.ok("create_character", c).await;
    }
    s.ok(
        "create_character",
        json!({"name": "Grik", "fromMonster": "goblin"}),
    )
    .await;
    s.ok("get_character", json!({"characterName": "Brom"}))
        .await;
    s.ok("get_character", json!({"listAll": true})).await;
    s.ok(
        "get_character",
        json!({"batch": [{"characterName": "Brom"}, {"characterName": "Nobody"}]}),
    )
    .await;
    s.ok(
        "update_character",
        json!({"characterName": "Brom", "damage": {"amount": 5, "type": "slashing"}}),
    )
    .await;
    s.ok(
        "update_character",
        json!({"characterName": "Brom", "hp": "+2"}),
    )
    .await;
    s.ok(
        "roll_check",
        json!({"characterName": "Brom", "checkType": "skill", "skill": "athletics", "dc": 12}),
    )
    .await;
    s.ok("roll_check", json!({"characterName": "Brom", "checkType": "skill", "skill": "athletics", "contestedBy": {"characterName": "Ivo", "skill": "acrobatics"}})).await;
    s.ok(
        "roll_check",
        json!({"group": true, "batch": [
        {"characterName": "Brom", "checkType": "skill", "skill": "stealth", "dc": 10},
        {"characterName": "Ivo", "checkType": "skill", "skill": "stealth", "dc": 10}]}),
    )
    .await;
    s.ok(
        "manage_effect",
        json!({"characterName": "Brom", "operation": "add", "name": "Bless"}),
    )
    .await;
    s.ok(
        "manage_effect",
        json!({"characterName": "Brom", "operation": "list"}),
    )
    .await;
    s.ok(
        "manage_condition",
        json!({"characterName": "Ivo", "operation": "add", "condition": "prone"}),
    )
    .await;
    s.ok(
        "manage_condition",
        json!({"characterName": "Ivo", "operation": "remove", "condition": "prone"}),
    )
    .await;
    s.ok(
        "take_rest",
        json!({"characterName": "Sera", "type": "short"}),
    )
    .await;
    s.ok(
        "level_up",
        json!({"characterName": "Sera", "targetLevel": 4, "hpMethod": "average"}),
    )
    .await;
    s.ok(
        "manage_spell_slots",
        json!({"characterName": "Sera", "operation": "view"}),
    )
    .await;
    s.ok(
        "manage_concentration",
        json!({"characterName": "Sera", "operation": "get"}),
    )
    .await;

    // World.
    s.ok(
        "manage_location",
        json!({"operation": "create", "name": "Gate", "type": "building"}),
    )
    .await;
    s.ok(
        "manage_location",
        json!({"operation": "create", "name": "Yard", "type": "outdoor"}),
    )
    .await;
    s.ok("manage_location", json!({"operation": "link", "fromLocationId": "Gate", "toLocationId": "Yard", "connectionType": "door"})).await;
    s.ok("manage_location", json!({"operation": "list"})).await;
    s.ok(
        "manage_party",
        json!({"operation": "create", "name": "Wardens"}),
    )
    .await;
    s.ok(
        "manage_party",
        json!({"operation": "add_member", "partyName": "Wardens", "characterName": "Brom"}),
    )
    .await;
    s.ok("manage_party", json!({"operation": "list"})).await;
    s.ok("move_party", json!({"operation": "status"})).await;
    s.ok(
        "manage_notes",
        json!({"operation": "add", "content": "The gate is warded.", "type": "clue"}),
    )
    .await;
    s.ok(
        "manage_notes",
        json!({"operation": "search", "query": "gate"}),
    )
    .await;
    s.ok("manage_notes", json!({"operation": "list"})).await;
    // Campaign memory: every answer shape of the quest, NPC, secret and clock tools.
    for args in [
        json!({"operation": "create", "title": "Wards", "objectives": ["Find them", "Break them"],
               "rewards": {"xp": 90, "gp": 3, "items": ["torch"]}}),
        json!({"operation": "get", "questId": "qu1"}),
        json!({"operation": "list"}),
        json!({"operation": "complete_objective", "questId": "qu1", "objective": "1"}),
        json!({"operation": "complete_objective", "questId": "qu1", "objective": "2"}),
    ] {
        s.ok("manage_quest", args).await;
    }
    for args in [
        json!({"operation": "create", "name": "Warden Ysolde", "attitude": "friendly"}),
        json!({"operation": "remember", "npcId": "np1", "about": "Brom", "memory": "Brom kept watch", "importance": 4}),
        json!({"operation": "recall", "npcId": "np1", "about": "Brom"}),
        json!({"operation": "attitude", "npcId": "np1", "toward": "Brom", "attitude": "helpful"}),
        json!({"operation": "get", "npcId": "np1"}),
        json!({"operation": "list"}),
    ] {
        s.ok("manage_npc", args).await;
    }
    for args in [
        json!({"operation": "create", "title": "Ysolde's debt", "content": "She owes the cult", "keyTerms": ["cult"]}),
        json!({"operation": "check_leaks", "text": "The cult's mark is on her door."}),
        json!({"operation": "get", "secretId": "se1"}),
        json!({"operation": "list"}),
        json!({"operation": "reveal", "secretId": "se1"}),
    ] {
        s.ok("manage_secret", args).await;
    }
    s.ok("move_party", json!({"operation": "wait", "hours": 2}))
        .await;
    s.ok(
        "manage_inventory",
        json!({"characterName": "Brom", "operation": "give", "itemName": "longsword"}),
    )
    .await;
    s.ok(
        "manage_inventory",
        json!({"characterName": "Brom", "operation": "equip", "itemName": "longsword"}),
    )
    .await;
    s.ok(
        "manage_inventory",
        json!({"characterName": "Brom", "operation": "view"}),
    )
    .await;
    s.ok("get_session_context", json!({})).await;
    s.ok(
        "search_compendium",
        json!({"query": "fire", "type": "spell"}),
    )
    .await;
    s.ok("get_compendium_entry", json!({"name": "goblin"}))
        .await;
    s.ok("get_compendium_entry", json!({"name": "fireball"}))
        .await;

    // A fight.
    let created = s
        .ok(
            "create_encounter",
            json!({"name": "Yard fight", "participants": [
                {"characterName": "Brom", "position": {"x": 2, "y": 2}},
                {"characterName": "Sera", "position": {"x": 1, "y": 3}},
                {"characterName": "Ivo", "position": {"x": 0, "y": 2}},
                {"monster": "goblin", "count": 2, "positions": [{"x": 6, "y": 2}, {"x": 6, "y": 4}]}
            ], "terrain": {"width": 10, "height": 8, "walls": [{"x": 4, "y": 0}]}}),
        )
        .await;
    let enc = created["encounterId"].clone();
    s.ok(
        "get_encounter",
        json!({"encounterId": enc, "verbosity": "detailed"}),
    )
    .await;
    s.ok("render_battlefield", json!({"encounterId": enc}))
        .await;
    s.ok(
        "render_battlefield",
        json!({"encounterId": enc, "format": "png"}),
    )
    .await;
    s.ok(
        "measure_distance",
        json!({"encounterId": enc, "fromName": "Brom", "toName": "Goblin 1"}),
    )
    .await;
    s.ok(
        "calculate_aoe",
        json!({"encounterId": enc, "shape": "sphere", "origin": {"x": 6, "y": 3}, "sizeFt": 10}),
    )
    .await;
    s.ok(
        "check_line_of_sight",
        json!({"encounterId": enc, "fromName": "Ivo", "toName": "Goblin 1"}),
    )
    .await;
    s.ok(
        "check_cover",
        json!({"encounterId": enc, "fromName": "Ivo", "toName": "Goblin 2"}),
    )
    .await;
    s.ok(
        "calculate_movement",
        json!({"encounterId": enc, "moverName": "Brom", "mode": "reach"}),
    )
    .await;
    s.ok("modify_terrain", json!({"encounterId": enc, "operation": "add", "terrain": "difficult", "squares": [{"x": 3, "y": 5}]})).await;
    s.ok("place_prop", json!({"encounterId": enc, "operation": "place", "name": "Crate", "position": {"x": 3, "y": 6}})).await;
    s.ok(
        "manage_aura",
        json!({"encounterId": enc, "operation": "list"}),
    )
    .await;
    s.ok("manage_encounter", json!({"operation": "list"})).await;
    let forced = json!({"encounterId": enc, "actorName": "Ivo", "actionType": "cast_spell", "spell": "fire bolt", "targetName": "Goblin 1", "force": true});
    s.ok("execute_action", forced).await;
    s.ok(
        "execute_action",
        json!({"batch": [
        {"encounterId": enc, "actorName": "Brom", "actionType": "dodge", "force": true},
        {"encounterId": enc, "actorName": "Nobody", "actionType": "dodge"}]}),
    )
    .await;
    s.ok("advance_turn", json!({"encounterId": enc})).await;
    s.ok(
        "update_character",
        json!({"characterName": "Ivo", "damage": {"amount": 25, "type": "fire"}}),
    )
    .await;
    s.ok(
        "roll_death_save",
        json!({"characterName": "Ivo", "force": true}),
    )
    .await;
    s.ok(
        "use_scroll",
        json!({"characterName": "Ivo", "spell": "fire bolt", "operation": "check"}),
    )
    .await;
    s.ok(
        "synthesize_spell",
        json!({"characterName": "Ivo", "operation": "spellbook"}),
    )
    .await;
    s.ok(
        "end_encounter",
        json!({"encounterId": enc, "outcome": "truce", "dryRun": true}),
    )
    .await;
    s.ok(
        "end_encounter",
        json!({"encounterId": enc, "outcome": "truce"}),
    )
    .await;
    s.ok("delete_character", json!({"characterName": "Grik"}))
        .await;

    assert!(s.failed.is_empty(), "calls failed: {:#?}", s.failed);
    let all: BTreeSet<String> = s.schemas.keys().cloned().collect();
    let missing: Vec<&String> = all.difference(&s.seen).collect();
    assert!(missing.is_empty(), "tools never validated: {missing:?}");
    assert_eq!(s.calls, 80);
    s.client.close().await.unwrap();
}
