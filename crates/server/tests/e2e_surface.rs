//! End to end: the real `tabletop` binary over stdio, spoken to by the rmcp client
//! (protocol 2026-07-28) and by raw JSON-RPC lines (the initialize-era protocol).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use tabletop_server::catalog::{Category, Profile, SchemaDetail, Surface, rare_fields};
use tabletop_server::client::Client;
use tabletop_server::surface::{measure, tool_names};

fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tabletop"))
}

fn args(dir: &Path, extra: &[&str]) -> Vec<String> {
    let mut v = vec!["--data-dir".to_string(), dir.display().to_string()];
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

#[tokio::test]
async fn the_advertised_surface_is_pinned() {
    let dir = tempfile::tempdir().unwrap();
    let client = Client::spawn(&exe(), &args(dir.path(), &[])).await.unwrap();
    let tools = client.tools().await.unwrap();
    let names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
    insta::assert_json_snapshot!("full_profile_tool_names", names);
    for t in &tools {
        let a = t
            .annotations
            .as_ref()
            .unwrap_or_else(|| panic!("{} has annotations", t.name));
        // Compact detail leaves the display title and the result cap to `--schemas full`.
        assert!(a.title.is_none(), "{}: no title in compact detail", t.name);
        assert!(
            t.meta
                .as_ref()
                .is_none_or(|m| m.0.get("anthropic/maxResultSizeChars").is_none())
        );
        // Only hints that differ from the MCP defaults are stated (readOnly false, destructive
        // true, idempotent false); destructive/idempotent only for tools that are not read-only.
        assert_ne!(a.read_only_hint, Some(false), "{}", t.name);
        assert_ne!(a.destructive_hint, Some(true), "{}", t.name);
        assert_ne!(a.idempotent_hint, Some(false), "{}", t.name);
        if a.read_only_hint == Some(true) {
            assert!(
                a.destructive_hint.is_none() && a.idempotent_hint.is_none(),
                "{}",
                t.name
            );
        }
        assert_eq!(a.open_world_hint, Some(false), "{}", t.name);
        let schema = serde_json::to_string(&*t.input_schema).unwrap();
        for banned in ["$schema", "$defs", "$ref", "uint32", "\"null\""] {
            assert!(
                !schema.contains(banned),
                "{} schema contains {banned}: {schema}",
                t.name
            );
        }
        assert!(
            t.description
                .as_ref()
                .is_some_and(|d| d.chars().count() <= 120),
            "{} has a one-sentence description",
            t.name
        );
        assert!(
            t.title.is_none(),
            "{}: the title is in annotations only",
            t.name
        );
    }
    client.close().await.unwrap();

    let client = Client::spawn(&exe(), &args(dir.path(), &["--profile", "core"]))
        .await
        .unwrap();
    let core: Vec<String> = client
        .tools()
        .await
        .unwrap()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    insta::assert_json_snapshot!("core_profile_tool_names", core);
    client.close().await.unwrap();

    // Full detail: every tool also has its display title and its result cap.
    let client = Client::spawn(&exe(), &args(dir.path(), &["--schemas", "full"]))
        .await
        .unwrap();
    for t in client.tools().await.unwrap() {
        let a = t.annotations.as_ref().unwrap();
        assert!(a.title.is_some(), "{} has a title", t.name);
        let cap = t
            .meta
            .as_ref()
            .and_then(|m| m.0.get("anthropic/maxResultSizeChars"))
            .and_then(Value::as_u64);
        assert!(
            cap.is_some_and(|c| c >= 1000),
            "{} has a result cap",
            t.name
        );
    }
    client.close().await.unwrap();
}

/// The budgets of issue 9 item 4: bytes and o200k tokens of the serialized `tools/list`.
const FULL_BYTES: usize = 24_000;
const FULL_TOKENS: usize = 6_000;
const CORE_TOKENS: usize = 2_000;
/// The full profile's tools (DESIGN §3).
const FULL_TOOLS: usize = 41;

#[test]
fn the_core_profile_fits_its_token_budget() {
    let (bytes, tokens) = measure(Profile::Core).unwrap();
    assert!(
        tokens <= CORE_TOKENS,
        "core tools/list is {bytes} bytes, {tokens} o200k tokens; budget {CORE_TOKENS}"
    );
}

/// The full profile (all 38 tools, compact schemas) fits its budget.
#[test]
fn the_full_profile_fits_its_budget() {
    let (bytes, tokens) = measure(Profile::Full).unwrap();
    assert_eq!(tool_names(Profile::Full).len(), FULL_TOOLS);
    assert!(bytes <= FULL_BYTES, "{bytes} bytes > {FULL_BYTES}");
    assert!(tokens <= FULL_TOKENS, "{tokens} tokens > {FULL_TOKENS}");
}

/// A core tool is advertised lean until its category is enabled, then with every field; the lean
/// schema is a subset of the full one.
#[test]
fn lean_core_schemas_are_subsets_and_give_way_to_the_full_ones() {
    let core = Surface::new(Profile::Core, &[]).with_detail(SchemaDetail::Full);
    let mut characters = core.clone();
    characters.enable(&[Category::Characters]);
    let mut leaned = 0;
    for t in core.tools() {
        let lean = core.schema_of(t);
        let full = (t.schema)();
        assert_eq!(
            characters.schema_of(t) == full,
            t.category == Category::Characters || !core.lean(t)
        );
        let full_props = full["properties"].as_object().unwrap();
        for k in lean["properties"].as_object().unwrap().keys() {
            assert!(
                full_props.contains_key(k),
                "{}: lean field {k} is not a real field",
                t.name
            );
        }
        leaned += usize::from(core.lean(t));
    }
    assert!(leaned >= 4);
    assert!(
        !Surface::new(Profile::Full, &[])
            .tools()
            .iter()
            .any(|t| Surface::new(Profile::Full, &[]).lean(t))
    );
}

/// By default every schema is advertised compact and lists every field of the full schema but
/// the ids that have a name beside them: common fields with their type (and a few words where the
/// shape is not obvious), rare ones as `{}`; the same `required`. `SchemaDetail::Full` advertises
/// the full schema.
#[test]
fn compact_schemas_list_every_field() {
    let compact = Surface::new(Profile::Full, &[]);
    let full = Surface::new(Profile::Full, &[]).with_detail(SchemaDetail::Full);
    let mut rare_listed = 0;
    for t in compact.tools() {
        let c = compact.schema_of(t);
        let f = full.schema_of(t);
        assert_eq!(f, (t.schema)(), "{}", t.name);
        let keys = |m: &serde_json::Map<String, Value>| -> Vec<String> {
            m.get("properties")
                .and_then(Value::as_object)
                .map(|p| p.keys().cloned().collect())
                .unwrap_or_default()
        };
        let (ck, fk) = (keys(&c), keys(&f));
        assert!(ck.iter().all(|k| fk.contains(k)), "{}", t.name);
        for k in fk.iter().filter(|k| !ck.contains(k)) {
            let paired = k
                .strip_suffix("Id")
                .is_some_and(|stem| ck.contains(&format!("{stem}Name")));
            assert!(paired, "{}.{k} is not listed", t.name);
        }
        let props = c["properties"].as_object().unwrap();
        for r in rare_fields(t.name) {
            assert!(
                fk.iter().any(|k| k == r),
                "{}: rare field {r} is not a field",
                t.name
            );
            assert_eq!(
                props.get(*r),
                Some(&json!({})),
                "{}.{r} listed as {{}}",
                t.name
            );
            rare_listed += 1;
        }
        assert_eq!(c.get("required"), f.get("required"), "{}", t.name);
        for (k, field) in props {
            if let Some(d) = field.get("description") {
                let d = d.as_str().unwrap();
                assert!(d.len() <= 60, "{}.{k}: a few words, not prose: {d}", t.name);
                assert!(
                    matches!(field["type"].as_str(), Some("object" | "array")),
                    "{}.{k}: words only where the shape is not obvious",
                    t.name
                );
            }
        }
    }
    assert!(rare_listed > 150, "{rare_listed}");
    // A field whose shape the name does not give carries its few words.
    let update = compact.schema_of(tabletop_server::catalog::find("update_character").unwrap());
    assert_eq!(
        update["properties"]["damage"],
        json!({"type": "array", "description": "[{amount, type}]"})
    );
    assert_eq!(update["properties"]["xp"], json!({}));
}

/// Speaks newline-delimited JSON-RPC to a child, as an initialize-era client would.
struct RawServer {
    child: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
    next_id: u64,
}

impl RawServer {
    /// Starts the server with `flags` before `serve`.
    fn start_with(dir: &Path, protocol: &str, flags: &[&str]) -> (Self, Value) {
        let mut serve: Vec<&str> = flags.to_vec();
        serve.push("serve");
        let mut child = Command::new(exe())
            .args(args(dir, &serve))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        let mut s = Self {
            child,
            out,
            next_id: 1,
        };
        let init = s.request(
            "initialize",
            json!({"protocolVersion": protocol, "capabilities": {}, "clientInfo": {"name": "raw-test", "version": "0"}}),
        );
        s.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        (s, init)
    }

    fn send(&mut self, v: Value) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{v}").unwrap();
        stdin.flush().unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            assert!(
                self.out.read_line(&mut line).unwrap() > 0,
                "server closed stdout"
            );
            let v: Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("stdout is not JSON-RPC ({e}): {line}"));
            if v["id"] == json!(id) {
                return v;
            }
        }
    }

    fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))["result"].clone()
    }
}

#[test]
fn an_initialize_era_client_works_and_a_kill_loses_nothing_answered() {
    // The default durability (process: WAL, synchronous=NORMAL), then power (FULL).
    for flags in [&[][..], &["--durability", "power"][..]] {
        let dir = tempfile::tempdir().unwrap();
        let (mut s, init) = RawServer::start_with(dir.path(), "2025-06-18", flags);
        assert_eq!(init["result"]["protocolVersion"], "2025-06-18");
        assert!(
            init["result"]["instructions"]
                .as_str()
                .unwrap()
                .contains("CC-BY-4.0")
        );
        let listed = s.request("tools/list", json!({}));
        assert!(listed["result"]["tools"].as_array().unwrap().len() >= 6);
        let r = s.call(
            "create_character",
            json!({"name": "Survivor", "hp": 20, "ac": 14}),
        );
        assert_eq!(r["isError"], false, "{r}");
        // Many answered commits in a row, the last one answered just before the kill.
        for i in 0..30 {
            let hp = if i % 2 == 0 { "-1" } else { "+1" };
            let r = s.call(
                "update_character",
                json!({"characterName": "Survivor", "hp": hp}),
            );
            assert_eq!(r["isError"], false, "{r}");
        }
        let r = s.call(
            "update_character",
            json!({"characterName": "Survivor", "hp": "-6"}),
        );
        assert_eq!(r["isError"], false, "{r}");
        let before = s.call("get_character", json!({"characterName": "Survivor"}));
        s.child.kill().unwrap(); // SIGKILL: no shutdown path runs.
        s.child.wait().unwrap();

        let (mut s, init) = RawServer::start_with(dir.path(), "2025-11-25", flags);
        assert_eq!(init["result"]["protocolVersion"], "2025-11-25");
        let after = s.call("get_character", json!({"characterName": "survivor"}));
        assert_eq!(
            before["structuredContent"], after["structuredContent"],
            "{flags:?}"
        );
        assert_eq!(
            after["structuredContent"]["character"]["hp"], 14,
            "{flags:?}"
        );
        s.child.kill().unwrap();
        s.child.wait().unwrap();
    }
}

#[tokio::test]
async fn the_rmcp_client_works_in_the_initialize_era_too() {
    let dir = tempfile::tempdir().unwrap();
    let c = Client::spawn_legacy(&exe(), &args(dir.path(), &[]))
        .await
        .unwrap();
    assert!(c.tools().await.unwrap().len() >= 6);
    let a = c
        .call("roll_dice", json!({"expression": "2d6"}))
        .await
        .unwrap();
    assert!(!a.is_error, "{}", a.text);
    c.close().await.unwrap();
}

#[tokio::test]
async fn the_same_seed_gives_the_same_rolls() {
    let mut totals = Vec::new();
    for _ in 0..2 {
        let dir = tempfile::tempdir().unwrap();
        let c = Client::spawn(&exe(), &args(dir.path(), &["--seed", "1234"]))
            .await
            .unwrap();
        let a = c
            .call("roll_dice", json!({"expression": "10d20"}))
            .await
            .unwrap();
        totals.push(a.structured["terms"].clone());
        c.close().await.unwrap();
    }
    assert_eq!(totals[0], totals[1]);
}

#[test]
fn the_call_command_shows_the_dropped_die() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(exe())
        .args(args(
            dir.path(),
            &["call", "roll_dice", r#"{"expression":"4d6kh3"}"#],
        ))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("4d6kh3: ["), "{text}");
    assert_eq!(
        text.matches("~~").count(),
        2,
        "exactly one die struck through: {text}"
    );
    let out = Command::new(exe())
        .args(args(
            dir.path(),
            &["call", "roll_dice", r#"{"expression":"1001d6"}"#],
        ))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("1000"),
        "limit named"
    );
}
