//! End to end, what an MCP client relies on beyond the calls themselves: honest annotations.

use std::path::PathBuf;

use serde_json::Value;
use tabletop_server::client::Client;

fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tabletop"))
}

/// Operations that remove or overwrite state: a tool offering any of them is destructive.
const REMOVING: &[&str] = &[
    "remove",
    "clear",
    "delete",
    "unlink",
    "remove_participant",
    "remove_member",
    "update",
    "set",
    "set_leader",
    "set_active",
    "break",
    "expend",
    "restore",
    "unequip",
    "transfer",
    "use",
    "tick",
    "move",
    "damage",
    "heal",
];

/// The tools that change state only by adding to it (a roll in the log, a new character, a new
/// encounter): the only non-read-only tools that are not destructive.
const ADDITIVE: &[&str] = &[
    "roll_dice",
    "create_character",
    "roll_check",
    "create_encounter",
];

#[tokio::test]
async fn a_tool_that_can_remove_or_overwrite_is_destructive() {
    let dir = tempfile::tempdir().unwrap();
    let args: Vec<String> = [
        "--data-dir",
        dir.path().to_str().unwrap(),
        "--schemas",
        "full",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let client = Client::spawn(&exe(), &args).await.unwrap();
    let tools = client.tools().await.unwrap();
    assert_eq!(tools.len(), 41);
    let mut removing = Vec::new();
    for t in &tools {
        let a = t.annotations.as_ref().unwrap();
        // Unstated hints take the MCP defaults (read-only false, destructive true).
        let read_only = a.read_only_hint.unwrap_or(false);
        // Not stated for read-only tools (meaningless there per the MCP spec): not destructive.
        let destructive = a.destructive_hint.unwrap_or(!read_only);
        let schema = Value::Object((*t.input_schema).clone());
        let ops: Vec<&str> = ["operation", "actionType"]
            .iter()
            .filter_map(|k| schema["properties"][k]["enum"].as_array())
            .flatten()
            .filter_map(Value::as_str)
            .filter(|op| REMOVING.contains(op))
            .collect();
        let overwrites = t.name.starts_with("update_")
            || t.name.starts_with("delete_")
            || t.name.starts_with("end_");
        if !ops.is_empty() || overwrites {
            assert!(
                destructive,
                "{} can {ops:?}: destructiveHint must be true",
                t.name
            );
            assert!(!read_only, "{} can {ops:?}: it is not read-only", t.name);
            removing.push(t.name.to_string());
        }
        if read_only {
            assert_eq!(a.destructive_hint, None, "{} is read-only", t.name);
            assert_eq!(a.idempotent_hint, None, "{} is read-only", t.name);
        } else {
            assert_eq!(
                destructive,
                !ADDITIVE.contains(&t.name.as_ref()),
                "{}: only purely additive tools are not destructive",
                t.name
            );
        }
    }
    // The rule bites on these (from their schemas alone).
    assert_eq!(
        removing,
        [
            "update_character",
            "delete_character",
            "manage_effect",
            "manage_condition",
            "execute_action",
            "end_encounter",
            "manage_encounter",
            "modify_terrain",
            "place_prop",
            "manage_concentration",
            "manage_spell_slots",
            "use_scroll",
            "manage_aura",
            "manage_location",
            "move_party",
            "manage_party",
            "manage_notes",
            "manage_quest",
            "manage_npc",
            "manage_secret",
            "manage_inventory",
        ]
    );
    client.close().await.unwrap();
}

/// `tabletop … | head`: the reader closes the pipe early; the command stops quietly with exit 0.
#[test]
fn a_closed_stdout_pipe_ends_commands_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    for args in [
        vec!["tools", "--json"],
        vec!["tools"],
        vec!["call", "roll_dice", r#"{"expression":"2d6"}"#],
        vec![
            "call",
            "roll_dice",
            r#"{"expression":"2d6"}"#,
            "--json-output",
        ],
        vec!["campaign", "list"],
    ] {
        let mut child = std::process::Command::new(exe())
            .args(["--data-dir", data])
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Close the read end before the command writes anything: every write fails with EPIPE.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}: nothing on stderr either");
    }
}

/// The help names the flag that exists.
#[test]
fn call_help_names_json_output() {
    let out = std::process::Command::new(exe())
        .args(["call", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.starts_with(
        "Run one tool call and print its text result (the structured result with --json-output)\n"
    ), "{help}");
    assert!(
        !help.replace("--json-output", "").contains("--json"),
        "{help}"
    );
}

/// Compact schemas (the default) say what is required, batch form included: a tool with a batch
/// field requires its single form's fields or `batch`, and `batch` lists object items.
#[tokio::test]
async fn compact_schemas_state_required_fields_and_batch_items() {
    let dir = tempfile::tempdir().unwrap();
    let args = vec!["--data-dir".to_string(), dir.path().display().to_string()];
    let client = Client::spawn(&exe(), &args).await.unwrap();
    let tools = client.tools().await.unwrap();
    let schema = |name: &str| {
        let t = tools.iter().find(|t| t.name == name).unwrap();
        Value::Object((*t.input_schema).clone())
    };
    assert_eq!(
        schema("roll_dice"),
        serde_json::json!({
            "type": "object",
            "properties": {
                "advantage": {"type": "boolean"},
                "batch": {"type": "array", "items": {"type": "object"}},
                "disadvantage": {"type": "boolean"},
                "expression": {"type": "string"},
                "reason": {"type": "string"},
                // A rare field, listed by name (its shape is in tabletop://tools/roll_dice).
                "seed": {}
            },
            "anyOf": [{"required": ["expression"]}, {"required": ["batch"]}]
        })
    );
    let mut batched = Vec::new();
    for t in &tools {
        let s = Value::Object((*t.input_schema).clone());
        if let Some(b) = s["properties"].get("batch") {
            assert_eq!(
                b["items"],
                serde_json::json!({"type": "object"}),
                "{}",
                t.name
            );
            batched.push(t.name.to_string());
            if let Some(any) = s.get("anyOf") {
                assert_eq!(
                    any[1],
                    serde_json::json!({"required": ["batch"]}),
                    "{}",
                    t.name
                );
            }
        }
    }
    assert_eq!(batched.len(), 13, "{batched:?}");
    client.close().await.unwrap();
}
