//! Load driver for `tabletop serve --http`: N concurrent MCP sessions calling a read tool as fast
//! as they can for a fixed time; prints calls/s, p50/p99 latency and errors.
//!
//! `cargo run --release -p tabletop-server --example http_load -- URL TOKEN [SESSIONS] [SECONDS] [TOOL] [ARGS-JSON]`

use std::time::{Duration, Instant};

use serde_json::{Value, json};

async fn post(
    http: &reqwest::Client,
    url: &str,
    token: &str,
    session: Option<&str>,
    body: Value,
) -> Result<(Option<String>, String), String> {
    let mut r = http
        .post(url)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .bearer_auth(token)
        .body(body.to_string());
    if let Some(s) = session {
        r = r.header("Mcp-Session-Id", s);
    }
    let resp = r.send().await.map_err(|e| e.to_string())?;
    if !resp.status().is_success() {
        return Err(format!("HTTP {}", resp.status()));
    }
    let sid = resp
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(String::from);
    Ok((sid, resp.text().await.map_err(|e| e.to_string())?))
}

async fn session(
    url: String,
    token: String,
    tool: String,
    args: Value,
    until: Instant,
) -> (Vec<Duration>, u64) {
    let http = reqwest::Client::new();
    let (sid, _) = post(
        &http,
        &url,
        &token,
        None,
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "load", "version": "1"}}}),
    )
    .await
    .expect("initialize");
    let sid = sid.expect("a session id");
    let _ = post(
        &http,
        &url,
        &token,
        Some(&sid),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    let mut lat = Vec::new();
    let mut errors = 0;
    let mut id = 1u64;
    while Instant::now() < until {
        id += 1;
        let t = Instant::now();
        let r = post(
            &http,
            &url,
            &token,
            Some(&sid),
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                   "params": {"name": tool, "arguments": args}}),
        )
        .await;
        let ok = matches!(&r, Ok((_, body)) if body.contains("\"result\"") && !body.contains("\"isError\":true"));
        if ok {
            lat.push(t.elapsed());
        } else {
            errors += 1;
        }
    }
    (lat, errors)
}

#[tokio::main]
async fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 3 {
        eprintln!(
            "usage: http_load URL TOKEN [SESSIONS=32] [SECONDS=10] [TOOL=get_character] [ARGS={{}}]"
        );
        std::process::exit(2);
    }
    let sessions: usize = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(32);
    let secs: u64 = a.get(4).and_then(|s| s.parse().ok()).unwrap_or(10);
    let tool = a.get(5).cloned().unwrap_or_else(|| "get_character".into());
    let args: Value = a
        .get(6)
        .map(|s| serde_json::from_str(s).expect("ARGS is JSON"))
        .unwrap_or(json!({}));
    let start = Instant::now();
    let until = start + Duration::from_secs(secs);
    let tasks: Vec<_> = (0..sessions)
        .map(|_| {
            tokio::spawn(session(
                a[1].clone(),
                a[2].clone(),
                tool.clone(),
                args.clone(),
                until,
            ))
        })
        .collect();
    let mut all = Vec::new();
    let mut errors = 0;
    for t in tasks {
        let (l, e) = t.await.expect("session task");
        all.extend(l);
        errors += e;
    }
    let elapsed = start.elapsed().as_secs_f64();
    all.sort();
    let pct = |p: f64| {
        all.get(((all.len() as f64 * p) as usize).min(all.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "{sessions} sessions, {secs} s, {tool}: {} calls, {:.0} calls/s, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, {errors} errors",
        all.len(),
        all.len() as f64 / elapsed,
        pct(0.50),
        pct(0.99),
        all.last().map_or(0.0, |d| d.as_secs_f64() * 1000.0),
    );
}
