//! The harness of the HTTP end-to-end tests (`e2e_http`, `e2e_table`): the real binary serving
//! `serve --http` on a free loopback port, tokens made by its own CLI, and a small MCP client
//! over Streamable HTTP. Included with `#[path]` by the tests that need it (the other tests do
//! not pull in an HTTP client).

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

pub use super::srd_env;

pub fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_tabletop")
}

/// Runs the CLI on the data dir `dir`; its stdout (asserts success).
pub fn cli(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(exe())
        .env("TABLETOP_DATA_DIR", dir)
        .env("TABLETOP_SRD_DIR", srd_env::srd_path())
        .env_remove("TABLETOP_CAMPAIGN")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A new bearer token for `campaign` (the CLI prints it as its last line).
pub fn token(dir: &Path, campaign: &str, role: &str, character: Option<&str>) -> String {
    let mut a = vec!["--campaign", campaign, "token", "create", "--role", role];
    if let Some(c) = character {
        a.extend(["--character", c]);
    }
    cli(dir, &a).lines().last().unwrap().trim().to_string()
}

/// A running `tabletop serve --http`, killed when dropped.
pub struct Server {
    child: Child,
    /// The MCP endpoint (`http://127.0.0.1:PORT/mcp`).
    pub url: String,
    /// The server's root (`http://127.0.0.1:PORT`).
    pub base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Serves the data dir `dir` over HTTP on a free port (dice seeded with 7, SRD configured).
pub fn serve(dir: &Path) -> Server {
    let mut child = Command::new(exe())
        .env("TABLETOP_DATA_DIR", dir)
        .env("TABLETOP_SRD_DIR", srd_env::srd_path())
        .args(["--seed", "7", "serve", "--http", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let url = loop {
        let l = lines.next().expect("server exited").unwrap();
        if let Some(rest) = l.split("MCP over HTTP at ").nth(1) {
            break rest.split_whitespace().next().unwrap().to_string();
        }
    };
    std::thread::spawn(move || for _ in lines {});
    let base = url.trim_end_matches("/mcp").to_string();
    Server { child, url, base }
}

/// The JSON-RPC answer in a body: plain JSON, or the first SSE `data:` event with an id.
pub fn body_json(text: &str) -> Value {
    if let Ok(v) = serde_json::from_str(text) {
        return v;
    }
    text.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str::<Value>(d).ok())
        .find(|v| v.get("id").is_some())
        .unwrap_or(Value::Null)
}

/// An initialized MCP session over Streamable HTTP with one bearer token.
pub struct Mcp {
    http: reqwest::Client,
    url: String,
    token: String,
    pub session: Option<String>,
    next: u64,
}

impl Mcp {
    pub async fn new(url: &str, token: &str) -> Self {
        let mut m = Self {
            http: reqwest::Client::new(),
            url: url.into(),
            token: token.into(),
            session: None,
            next: 1,
        };
        let (status, v) = m
            .rpc(
                "initialize",
                json!({"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "e2e", "version": "1"}}),
            )
            .await;
        assert_eq!(status, 200, "{v}");
        m.post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        m
    }

    /// Posts one JSON-RPC message: (status, headers, body).
    pub async fn post(&mut self, body: Value) -> (u16, reqwest::header::HeaderMap, String) {
        let mut r = self
            .http
            .post(&self.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .bearer_auth(&self.token)
            .body(body.to_string());
        if let Some(s) = &self.session {
            r = r.header("Mcp-Session-Id", s);
        }
        let resp = r.send().await.unwrap();
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        if let Some(s) = headers.get("mcp-session-id") {
            self.session = Some(s.to_str().unwrap().to_string());
        }
        (status, headers, resp.text().await.unwrap())
    }

    /// A request: (HTTP status, the JSON-RPC answer).
    pub async fn rpc(&mut self, method: &str, params: Value) -> (u16, Value) {
        self.next += 1;
        let (s, _, text) = self
            .post(json!({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params}))
            .await;
        (s, body_json(&text))
    }

    /// A tool call: (is_error, text, structured).
    pub async fn call(&mut self, tool: &str, args: Value) -> (bool, String, Value) {
        let (s, v) = self
            .rpc("tools/call", json!({"name": tool, "arguments": args}))
            .await;
        assert_eq!(s, 200, "{tool}: {v}");
        let r = &v["result"];
        if r.is_null() {
            return (true, v["error"].to_string(), Value::Null);
        }
        let text = r["content"][0]["text"].as_str().unwrap_or("").to_string();
        (
            r["isError"].as_bool().unwrap_or(false),
            text,
            r["structuredContent"].clone(),
        )
    }

    /// A tool call that must succeed: its text.
    pub async fn ok(&mut self, tool: &str, args: Value) -> String {
        let (err, text, _) = self.call(tool, args.clone()).await;
        assert!(!err, "{tool} {args}: {text}");
        text
    }

    /// A tool call that must succeed: the whole result (content, structuredContent, _meta).
    pub async fn result(&mut self, tool: &str, args: Value) -> Value {
        let (_, v) = self
            .rpc("tools/call", json!({"name": tool, "arguments": args}))
            .await;
        let r = v["result"].clone();
        assert!(r.is_object() && r["isError"] != true, "{tool} {args}: {v}");
        r
    }

    /// The names `tools/list` shows this session.
    pub async fn tool_names(&mut self) -> Vec<String> {
        let (_, v) = self.rpc("tools/list", json!({})).await;
        v["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()
    }
}
