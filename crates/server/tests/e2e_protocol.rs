//! End to end, raw JSON-RPC lines to the real `tabletop serve` on both protocol families: every
//! unreadable line and every bad `params` is answered (-32700, -32602), the server keeps serving,
//! the declared capabilities are the ones served, `logging/setLevel` changes the log filter at run
//! time, and piped logs carry no ANSI codes.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

const LEGACY: &str = "2025-11-25";
const MODERN: &str = "2026-07-28";

fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tabletop"))
}

struct Raw {
    child: Child,
    out: BufReader<ChildStdout>,
    stderr: PathBuf,
    modern: bool,
    next_id: u64,
    _dir: tempfile::TempDir,
}

impl Raw {
    /// Starts `tabletop serve` (seed 11) and opens the session of `protocol`'s family.
    fn start(protocol: &str) -> (Self, Value) {
        let dir = tempfile::tempdir().unwrap();
        let stderr = dir.path().join("stderr.txt");
        let mut child = Command::new(exe())
            .args(["--data-dir", dir.path().to_str().unwrap(), "--seed", "11"])
            .args(crate::common::srd_args())
            .arg("serve")
            .env_remove("TABLETOP_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        let mut s = Self {
            child,
            out,
            stderr,
            modern: protocol == MODERN,
            next_id: 1,
            _dir: dir,
        };
        let hello = if s.modern {
            s.request("server/discover", json!({}))
        } else {
            let init = s.request(
                "initialize",
                json!({"protocolVersion": protocol, "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}),
            );
            s.line(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
            init
        };
        (s, hello)
    }

    /// Adds the 2026-07-28 per-request metadata to `params`.
    fn params(&self, mut params: Value) -> Value {
        if self.modern && params.is_object() {
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"}
            });
        }
        params
    }

    fn line(&mut self, bytes: &[u8]) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends one line and returns the next line on stdout as it was written.
    fn raw(&mut self, line: &str) -> String {
        self.line(line.as_bytes());
        let mut out = String::new();
        assert!(
            self.out.read_line(&mut out).unwrap() > 0,
            "server closed stdout"
        );
        out
    }

    fn next(&mut self) -> Value {
        let mut line = String::new();
        assert!(
            self.out.read_line(&mut line).unwrap() > 0,
            "server closed stdout"
        );
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {line}"))
    }

    /// Sends raw bytes as one line and returns the answer (the next message on stdout).
    fn answer_to(&mut self, bytes: &[u8]) -> Value {
        self.line(bytes);
        self.next()
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let params = self.params(params);
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let v = self.answer_to(msg.to_string().as_bytes());
        assert_eq!(v["id"], json!(id), "{v}");
        v
    }

    fn stop(mut self) -> String {
        drop(self.child.stdin.take());
        self.child.wait().unwrap();
        let mut s = String::new();
        std::fs::File::open(&self.stderr)
            .unwrap()
            .read_to_string(&mut s)
            .unwrap();
        s
    }
}

fn error(v: &Value) -> (i64, &str) {
    (
        v["error"]["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("not an error: {v}")),
        v["error"]["message"].as_str().unwrap(),
    )
}

const PARSE_HINT: &str = "; send one JSON-RPC object per message (no NaN or Infinity, numbers within the double range, paired surrogates)";

fn unreadable_lines_are_answered_and_the_server_goes_on(protocol: &str) {
    let (mut s, _) = Raw::start(protocol);
    let cases: Vec<(Vec<u8>, String)> = vec![
        (b"{not json".to_vec(), format!("Parse error: key must be a string at line 1 column 2{PARSE_HINT}")),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"ping","x":NaN}"#.to_vec(),
            format!("Parse error: expected value at line 1 column 45{PARSE_HINT}"),
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"ping","x":1e400}"#.to_vec(),
            format!("Parse error: number out of range at line 1 column 49{PARSE_HINT}"),
        ),
        (
            // A plain tools/call too (the transport's direct path leaves it to this answer).
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"roll_dice","arguments":{"n":1e400}}}"#.to_vec(),
            format!("Parse error: number out of range at line 1 column 97{PARSE_HINT}"),
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"ping","x":"\ud800"}"#.to_vec(),
            format!("Parse error: unexpected end of hex escape at line 1 column 52{PARSE_HINT}"),
        ),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\xffng\"}".to_vec(),
            "Parse error: the message is not valid UTF-8 (bad byte at offset 36); send UTF-8 JSON".to_string(),
        ),
        (
            vec![b'a'; 16 * 1024 * 1024 + 10],
            "Parse error: the message is longer than 16 MiB and was discarded; send smaller requests".to_string(),
        ),
    ];
    for (line, message) in cases {
        let a = s.answer_to(&line);
        assert_eq!(a["id"], Value::Null, "{a}");
        assert_eq!(error(&a), (-32700, message.as_str()), "{protocol}");
    }
    // A JSON-RPC batch is not MCP.
    let a = s.answer_to(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#);
    assert_eq!(error(&a).0, -32600, "{a}");

    // Bad `params` of tools/call: -32602 naming the field and the fix, with the request's id.
    for (params, message) in [
        (
            json!({"name": "roll_dice", "arguments": [1, 2]}),
            "Invalid params for tools/call: `params.arguments` must be a JSON object of the tool's fields (got an array), e.g. {\"expression\":\"2d6\"}; omit it or send {} for none",
        ),
        (
            json!({"name": "roll_dice", "arguments": "expression=2d6"}),
            "Invalid params for tools/call: `params.arguments` must be a JSON object of the tool's fields (got a string), e.g. {\"expression\":\"2d6\"}; omit it or send {} for none",
        ),
        (
            json!({"arguments": {"expression": "2d6"}}),
            "Invalid params for tools/call: `params.name` is missing: give the tool's name, e.g. {\"name\":\"roll_dice\",\"arguments\":{\"expression\":\"2d6\"}}",
        ),
        (
            json!({"name": 5}),
            "Invalid params for tools/call: `params.name` must be a string (got a number): the tool's name, e.g. \"roll_dice\"",
        ),
    ] {
        let a = s.request("tools/call", params);
        assert_eq!(error(&a), (-32602, message), "{protocol}");
    }
    // A cursor this server never gave is refused, on every list.
    for method in [
        "tools/list",
        "resources/list",
        "resources/templates/list",
        "prompts/list",
    ] {
        let a = s.request(method, json!({"cursor": "bogus"}));
        assert_eq!(
            error(&a),
            (
                -32602,
                format!("Invalid params for {method}: unknown cursor 'bogus'; this server answers {method} in one page and gives no nextCursor: call it without `cursor`").as_str()
            ),
            "{protocol}"
        );
    }
    // Still serving, with the seeded stream untouched by all of the above.
    let a = s.request(
        "tools/call",
        json!({"name": "roll_dice", "arguments": {"expression": "3d6"}}),
    );
    assert_eq!(a["result"]["isError"], false, "{a}");
    assert_eq!(
        a["result"]["content"][0]["text"], "3d6: [3, 5, 6] = 14",
        "{a}"
    );
    s.stop();
}

#[test]
fn unreadable_lines_are_answered_in_the_initialize_era() {
    unreadable_lines_are_answered_and_the_server_goes_on(LEGACY);
}

#[test]
fn unreadable_lines_are_answered_in_2026_07_28() {
    unreadable_lines_are_answered_and_the_server_goes_on(MODERN);
}

fn capabilities_and_log_level(protocol: &str) {
    let (mut s, hello) = Raw::start(protocol);
    // `initialize` (initialize era) and `server/discover` (2026-07-28) both answer them.
    let caps = hello["result"]["capabilities"].clone();
    assert_eq!(
        caps,
        json!({"logging": {}, "prompts": {}, "resources": {}, "tools": {"listChanged": true}}),
        "{hello}"
    );
    // What is declared is served.
    assert!(s.request("resources/list", json!({}))["result"]["resources"].is_array());
    assert!(s.request("prompts/list", json!({}))["result"]["prompts"].is_array());
    // Before setLevel the default filter (warn) hides debug lines; after it they appear.
    let a = s.request(
        "tools/call",
        json!({"name": "roll_dice", "arguments": {"expression": "d4"}}),
    );
    assert_eq!(a["result"]["isError"], false);
    let a = s.request("logging/setLevel", json!({"level": "debug"}));
    assert_eq!(a["result"], json!({}), "{a}");
    let a = s.request(
        "tools/call",
        json!({"name": "roll_dice", "arguments": {"expression": "d6"}}),
    );
    assert_eq!(a["result"]["isError"], false);
    let a = s.request("logging/setLevel", json!({"level": "error"}));
    assert_eq!(a["result"], json!({}), "{a}");
    let a = s.request(
        "tools/call",
        json!({"name": "roll_dice", "arguments": {"expression": "d8"}}),
    );
    assert_eq!(a["result"]["isError"], false);
    let a = s.request("logging/setLevel", json!({"level": "loud"}));
    assert_eq!(error(&a).0, -32602, "{a}");
    let log = s.stop();
    let calls: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("tabletop_server::mcp: call tool=roll_dice"))
        .collect();
    assert_eq!(
        calls.len(),
        1,
        "only the call between debug and error is logged: {log}"
    );
    assert!(calls[0].contains("DEBUG"), "{log}");
    assert!(log.contains("log level changed filter=\"debug\""), "{log}");
    assert!(
        !log.contains('\x1b'),
        "piped logs carry no ANSI codes: {log:?}"
    );
}

#[test]
fn capabilities_are_served_and_set_level_works_in_the_initialize_era() {
    capabilities_and_log_level(LEGACY);
}

#[test]
fn capabilities_are_served_and_set_level_works_in_2026_07_28() {
    capabilities_and_log_level(MODERN);
}

/// A repeated read is answered by the transport from the memo: the same bytes as the full path
/// (bar the id), string ids included, and never ahead of a write sent before it without waiting.
#[test]
fn kept_reads_are_the_full_answer_and_never_overtake_a_write() {
    if !crate::common::srd("kept_reads_are_the_full_answer_and_never_overtake_a_write") {
        return;
    }
    let (mut s, _) = Raw::start(LEGACY);
    let create = s.request(
        "tools/call",
        json!({"name": "create_character", "arguments": {"name": "Ona", "class": "fighter", "level": 3, "hp": 28}}),
    );
    assert_eq!(create["result"]["isError"], json!(false), "{create}");
    let get = |id: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"get_character","arguments":{{"characterName":"Ona"}}}}}}"#
        )
    };
    let raw_line = |s: &mut Raw, line: &str| {
        s.line(line.as_bytes());
        let mut out = String::new();
        s.out.read_line(&mut out).unwrap();
        out
    };
    let first = raw_line(&mut s, &get("100"));
    let kept = raw_line(&mut s, &get("101"));
    let kept_str = raw_line(&mut s, &get(r#""r-1""#));
    assert_eq!(kept, first.replacen(r#""id":100"#, r#""id":101"#, 1));
    assert_eq!(kept_str, first.replacen(r#""id":100"#, r#""id":"r-1""#, 1));
    let v: Value = serde_json::from_str(&kept).unwrap();
    assert_eq!(
        v["result"]["structuredContent"]["character"]["hp"],
        json!(28)
    );

    // A write and the same read sent together: the read must see the write.
    let write = r#"{"jsonrpc":"2.0","id":102,"method":"tools/call","params":{"name":"update_character","arguments":{"characterName":"Ona","hp":"-5"}}}"#;
    let both = format!("{write}\n{}", get("103"));
    s.line(both.as_bytes());
    let mut answers = [s.next(), s.next()];
    answers.sort_by_key(|a| a["id"].as_u64());
    assert_eq!(answers[0]["id"], json!(102), "{:?}", answers);
    assert_eq!(answers[0]["result"]["isError"], json!(false));
    assert_eq!(
        answers[1]["result"]["structuredContent"]["character"]["hp"],
        json!(23),
        "the read sent after the write shows it"
    );

    // The same with the write taking the SDK path (a progress token): the plain read sent right
    // behind it waits for it (it is not answered by the transport while the write is in
    // flight), and then shows it.
    s.request("logging/setLevel", json!({"level": "debug"}));
    let write = r#"{"jsonrpc":"2.0","id":104,"method":"tools/call","params":{"name":"update_character","arguments":{"characterName":"Ona","hp":"-4"},"_meta":{"progressToken":"w"}}}"#;
    let both = format!("{write}\n{}", get("105"));
    s.line(both.as_bytes());
    let lines = [(); 2].map(|_| {
        let mut out = String::new();
        s.out.read_line(&mut out).unwrap();
        out
    });
    let answers = lines
        .clone()
        .map(|l| serde_json::from_str::<Value>(&l).unwrap());
    assert_eq!(
        answers[0]["id"],
        json!(104),
        "the write is answered first: {answers:?}"
    );
    assert_eq!(answers[0]["result"]["isError"], json!(false));
    assert_eq!(answers[1]["id"], json!(105), "{answers:?}");
    assert_eq!(
        answers[1]["result"]["structuredContent"]["character"]["hp"],
        json!(19),
        "the read sent after the write shows it"
    );
    // Nothing in flight again: the next plain read is answered directly.
    let again = raw_line(&mut s, &get("106"));
    assert_eq!(again, lines[1].replacen(r#""id":105"#, r#""id":106"#, 1));
    let log = s.stop();
    let direct: Vec<&str> = log
        .lines()
        .filter_map(|l| l.split("tabletop_server::stdio: direct call id=").nth(1))
        .collect();
    // The read behind the write is answered by the transport only once the write is answered:
    // when the transport reads its line after the SDK has already answered the write (the
    // scheduler decides), it may take the direct path, never before.
    let line_of = |needle: &str| log.lines().position(|l| l.contains(needle));
    if let Some(read) = line_of("stdio: direct call id=105 ") {
        let write = line_of("response message id=104 ").expect("the write's answer is logged");
        assert!(write < read, "the read overtook the write: {log}");
        assert_eq!(
            direct,
            ["105 tool=get_character", "106 tool=get_character"],
            "{log}"
        );
    } else {
        assert_eq!(direct, ["106 tool=get_character"], "{log}");
    }
}

/// The calls [`direct_and_sdk_paths_answer_the_same_bytes`] makes: a write that builds the SRD
/// hill-dwarf cleric, reads (fresh, kept, after a write), seeded rolls, a legacy alias, tool
/// errors (bad arguments, a misspelled and a retired name, no arguments at all), and the
/// table-view tools whose results carry the table state in `_meta` (one with an image).
fn same_answer_calls() -> Vec<(&'static str, Value)> {
    let bench = json!({"characterName": "Bench"});
    vec![
        (
            "create_character",
            json!({"name": "Bench", "race": "dwarf", "subrace": "hill dwarf", "class": "cleric", "level": 5,
                   "stats": {"str": 14, "dex": 10, "con": 14, "int": 10, "wis": 15, "cha": 8}}),
        ),
        ("get_character", bench.clone()),
        ("get_character", bench.clone()),
        ("roll_dice", json!({"expression": "4d6kh3"})),
        (
            "update_character",
            json!({"characterName": "Bench", "hp": "-3"}),
        ),
        ("get_character", bench.clone()),
        (
            "roll_check",
            json!({"characterName": "Bench", "checkType": "skill", "skill": "stealth", "dc": 12}),
        ),
        ("get_npc", json!({"name": "Bench"})),
        ("roll_dice", json!({"expression": "2d"})),
        ("roll_dce", json!({"expression": "d6"})),
        ("add_xp", json!({"amount": 50})),
        ("roll_dice", Value::Null),
        (
            "create_encounter",
            json!({"name": "Ford", "terrain": {"width": 6, "height": 4},
                   "participants": [
                       {"characterName": "Bench", "initiative": 20, "position": {"x": 1, "y": 1}},
                       {"monster": "goblin", "initiative": 10, "position": {"x": 4, "y": 2}}]}),
        ),
        ("get_encounter", json!({})),
        ("render_battlefield", json!({})),
        ("render_battlefield", json!({"format": "png"})),
        ("get_encounter", json!({})),
    ]
}

/// A plain `tools/call` line is answered by the transport's direct path, the same call with a
/// `_meta` by the SDK: on two servers with the same seed the answers are the same bytes, for
/// every kind of call, integer and string ids alike; and the log shows which path answered.
#[test]
fn direct_and_sdk_paths_answer_the_same_bytes() {
    if !crate::common::srd("direct_and_sdk_paths_answer_the_same_bytes") {
        return;
    }
    let (mut direct, _) = Raw::start(LEGACY);
    let (mut sdk, _) = Raw::start(LEGACY);
    for s in [&mut direct, &mut sdk] {
        s.request("logging/setLevel", json!({"level": "debug"}));
    }
    let calls = same_answer_calls();
    for (i, (tool, args)) in calls.iter().enumerate() {
        let id = if i % 3 == 2 {
            json!(format!("call \"{i}\""))
        } else {
            json!(1000 + i)
        };
        let mut params = json!({"name": tool});
        if !args.is_null() {
            params["arguments"] = args.clone();
        }
        let plain = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
        let mut meta = plain.clone();
        meta["params"]["_meta"] = json!({"progressToken": format!("p{i}")});
        let a = direct.raw(&plain.to_string());
        let b = sdk.raw(&meta.to_string());
        assert_eq!(a, b, "{tool} {args}");
        let v: Value = serde_json::from_str(&a).unwrap();
        assert_eq!(v["id"], id, "{a}");
        let error = v["result"]["isError"].as_bool().unwrap();
        let text = v["result"]["content"][0]["text"].as_str().unwrap();
        match (i, *tool) {
            (3, _) => assert_eq!(text, "4d6kh3: [3, 5, 6, ~~3~~] = 14"),
            (4 | 5 | 7, _) => assert!(!error, "{a}"),
            (8..=11, _) => assert!(error, "{a}"),
            (_, "get_encounter" | "render_battlefield") => {
                assert!(!error, "{a}");
                assert_eq!(
                    v["result"]["_meta"]["tabletop/table"]["role"],
                    json!("dm"),
                    "{a}"
                );
            }
            _ => assert!(!error, "{a}"),
        }
        if i == 15 {
            assert_eq!(v["result"]["content"][1]["type"], json!("image"), "{a}");
        }
    }
    // The alias answers what get_character answers.
    let alias = direct.raw(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "get_npc", "arguments": {"name": "Bench"}}})
        .to_string(),
    );
    let get = direct.raw(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "get_character", "arguments": {"characterName": "Bench"}}})
        .to_string(),
    );
    assert_eq!(alias, get);
    let count = |log: &str| log.matches("tabletop_server::stdio: direct call").count();
    let direct_log = direct.stop();
    let sdk_log = sdk.stop();
    assert_eq!(count(&direct_log), calls.len() + 2, "{direct_log}");
    assert_eq!(count(&sdk_log), 0, "{sdk_log}");
}
