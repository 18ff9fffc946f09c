//! End-to-end timings over stdio, the way a client feels them: spawn → `initialize` answered,
//! and per-call round trips of a read-only and two mutating tools, with peak resident memory.
//!
//! ```sh
//! cargo build --release -p tabletop-server --examples
//! TABLETOP_SRD_DIR=../shared/srd/2014 target/release/examples/stdio_bench target/release/tabletop
//! ```
//! Uses raw newline-delimited JSON-RPC so the figures are the server's, not a client library's.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

struct Server {
    child: Child,
    out: BufReader<ChildStdout>,
    id: u64,
}

impl Server {
    fn spawn(exe: &str, data_dir: &std::path::Path) -> (Self, Duration) {
        let started = Instant::now();
        let mut child = Command::new(exe)
            .args([
                "--data-dir",
                &data_dir.display().to_string(),
                "--seed",
                "1",
                "serve",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn tabletop");
        let out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut s = Self { child, out, id: 0 };
        s.request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}),
        );
        let cold = started.elapsed();
        s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        (s, cold)
    }

    fn send(&mut self, v: &Value) {
        let stdin = self.child.stdin.as_mut().expect("stdin");
        writeln!(stdin, "{v}").expect("write");
        stdin.flush().expect("flush");
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.id += 1;
        let id = self.id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.out.read_line(&mut line).expect("read") > 0,
                "server exited"
            );
            let v: Value = serde_json::from_str(&line).expect("JSON-RPC");
            if v["id"] == json!(id) {
                return v;
            }
        }
    }

    fn call(&mut self, tool: &str, args: Value) -> Value {
        let r = self.request("tools/call", json!({"name": tool, "arguments": args}));
        assert_eq!(r["result"]["isError"], json!(false), "{tool} failed: {r}");
        r
    }

    fn peak_rss_kb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        status
            .lines()
            .find(|l| l.starts_with("VmHWM:"))?
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()
    }
}

fn percentiles(mut v: Vec<Duration>) -> (f64, f64, f64) {
    v.sort();
    let at = |q: f64| v[((v.len() as f64 - 1.0) * q).round() as usize].as_secs_f64() * 1000.0;
    (at(0.5), at(0.9), at(0.99))
}

fn timed(n: usize, mut f: impl FnMut(usize)) -> Vec<Duration> {
    (0..n)
        .map(|i| {
            let t = Instant::now();
            f(i);
            t.elapsed()
        })
        .collect()
}

fn main() {
    let exe = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/release/tabletop".into());
    let dir = tempfile::tempdir().expect("temp dir");
    println!(
        "server: {exe}; SRD: {}",
        std::env::var("TABLETOP_SRD_DIR").unwrap_or_else(|_| "not configured".into())
    );

    let colds: Vec<Duration> = (0..30)
        .map(|_| {
            let (mut s, cold) = Server::spawn(&exe, dir.path());
            let _ = s.child.kill();
            let _ = s.child.wait();
            cold
        })
        .collect();
    let (p50, p90, p99) = percentiles(colds);
    println!(
        "spawn → initialize answered (30 runs): median {p50:.2} ms, p90 {p90:.2} ms, max≈p99 {p99:.2} ms"
    );

    let (mut s, _) = Server::spawn(&exe, dir.path());
    s.call(
        "create_character",
        json!({"name": "Bench", "hp": 500, "ac": 15}),
    );
    for _ in 0..200 {
        s.call("roll_dice", json!({"expression": "1d20"}));
    }
    let report = |name: &str, t: Vec<Duration>| {
        let n = t.len();
        let total: f64 = t.iter().map(Duration::as_secs_f64).sum();
        let (p50, p90, p99) = percentiles(t);
        println!(
            "{name:<44} n={n:<5} median {p50:.3} ms  p90 {p90:.3} ms  p99 {p99:.3} ms  ({:.0} calls/s)",
            n as f64 / total
        );
    };
    report(
        "get_character (read-only)",
        timed(2000, |_| {
            s.call("get_character", json!({"characterName": "Bench"}));
        }),
    );
    report(
        "roll_dice 4d6kh3 (mutating: stream + event)",
        timed(2000, |_| {
            s.call("roll_dice", json!({"expression": "4d6kh3"}));
        }),
    );
    report(
        "update_character hp ±1 (mutating, committed)",
        timed(2000, |i| {
            let hp = if i % 2 == 0 { "-1" } else { "+1" };
            s.call(
                "update_character",
                json!({"characterName": "Bench", "hp": hp}),
            );
        }),
    );
    report(
        "roll_check skill (mutating)",
        timed(2000, |_| {
            s.call("roll_check", json!({"characterName": "Bench", "checkType": "skill", "skill": "stealth", "dc": 12}));
        }),
    );
    if let Some(kb) = s.peak_rss_kb() {
        println!(
            "peak resident memory of the server: {:.1} MB",
            kb as f64 / 1024.0
        );
    }
    let _ = s.child.kill();
    let _ = s.child.wait();
}
