//! End-to-end timings over stdio, the way a client feels them: spawn → `initialize` answered,
//! and per-call round trips of a read-only and two mutating tools, with peak resident memory.
//!
//! ```sh
//! cargo build --release -p tabletop-server --bin tabletop --examples
//! TABLETOP_SRD_DIR=../shared/srd/2014 target/release/examples/stdio_bench target/release/tabletop
//! TABLETOP_SRD_DIR=../shared/srd/2014 target/release/examples/stdio_bench target/release/tabletop --scale
//! ```
//! Uses raw newline-delimited JSON-RPC so the figures are the server's, not a client library's.
//! Beside wall-clock round trips it reports the server's own CPU time per call (user + system,
//! from `/proc`), which a loaded machine disturbs far less than the round trip.
//!
//! `--scale` seeds a campaign with 10,000 characters and 1,000 notes through the real server
//! over stdio (one `create_character` or `manage_notes` add call each), then times
//! listing/filtering characters and full-text note search against it. `--data-dir DIR` keeps
//! the seeded campaign in DIR and reuses it on the next run.

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

    /// The server's CPU time so far (user + system), from `/proc/<pid>/stat` (Linux).
    fn cpu_time(&self) -> Option<Duration> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).ok()?;
        // Fields after the parenthesised command name; utime and stime are the 14th and 15th.
        let rest = stat.rsplit_once(')')?.1;
        let f: Vec<&str> = rest.split_whitespace().collect();
        let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
        // The kernel's USER_HZ is 100 on Linux.
        Some(Duration::from_millis(ticks * 10))
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

/// Prints one series: round-trip percentiles, calls per second and the server's CPU per call.
fn report(name: &str, t: Vec<Duration>, cpu: Option<Duration>) {
    let n = t.len();
    let total: f64 = t.iter().map(Duration::as_secs_f64).sum();
    let (p50, p90, p99) = percentiles(t);
    let cpu = cpu
        .map(|c| {
            format!(
                "  server CPU {:.3} ms/call",
                c.as_secs_f64() * 1000.0 / n as f64
            )
        })
        .unwrap_or_default();
    println!(
        "{name:<44} n={n:<5} median {p50:.3} ms  p90 {p90:.3} ms  p99 {p99:.3} ms  ({:.0} calls/s){cpu}",
        n as f64 / total
    );
}

/// Runs `f` `n` times on `s`, reporting round trips and the server's CPU time.
fn series(s: &mut Server, name: &str, n: usize, mut f: impl FnMut(&mut Server, usize)) {
    let before = s.cpu_time();
    let t = timed(n, |i| f(s, i));
    let cpu = s.cpu_time().zip(before).map(|(a, b)| a.saturating_sub(b));
    report(name, t, cpu);
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut exe = "target/release/tabletop".to_string();
    let mut scale = false;
    let mut keep: Option<std::path::PathBuf> = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--scale" => scale = true,
            "--data-dir" => keep = args.next().map(Into::into),
            _ => exe = a,
        }
    }
    let dir = tempfile::tempdir().expect("temp dir");
    println!(
        "server: {exe}; SRD: {}",
        std::env::var("TABLETOP_SRD_DIR").unwrap_or_else(|_| "not configured".into())
    );
    if scale {
        scale_mode(&exe, keep.as_deref().unwrap_or(dir.path()));
        return;
    }

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
    series(&mut s, "get_character (read-only)", 2000, |s, _| {
        s.call("get_character", json!({"characterName": "Bench"}));
    });
    series(
        &mut s,
        "roll_dice 4d6kh3 (mutating: stream + event)",
        2000,
        |s, _| {
            s.call("roll_dice", json!({"expression": "4d6kh3"}));
        },
    );
    series(
        &mut s,
        "update_character hp ±1 (mutating, committed)",
        2000,
        |s, i| {
            let hp = if i % 2 == 0 { "-1" } else { "+1" };
            s.call(
                "update_character",
                json!({"characterName": "Bench", "hp": hp}),
            );
        },
    );
    series(&mut s, "roll_check skill (mutating)", 2000, |s, _| {
        s.call(
            "roll_check",
            json!({"characterName": "Bench", "checkType": "skill", "skill": "stealth", "dc": 12}),
        );
    });
    if let Some(kb) = s.peak_rss_kb() {
        println!(
            "peak resident memory of the server: {:.1} MB",
            kb as f64 / 1024.0
        );
    }
    let _ = s.child.kill();
    let _ = s.child.wait();
}

/// Creates 10,000 characters and 1,000 notes through the server, one call each.
fn seed(s: &mut Server, rng: &mut Lcg) {
    let started = Instant::now();
    for i in 0..10_000 {
        let name = format!(
            "{}{}{} {i}",
            SYLLABLES[rng.next(16)].to_uppercase(),
            SYLLABLES[rng.next(16)],
            SYLLABLES[rng.next(16)]
        );
        s.call(
            "create_character",
            json!({
                "name": name,
                "characterType": TYPES[rng.next(4)],
                "class": CLASSES[rng.next(12)],
                "level": 1 + rng.next(20),
                "stats": {"str": 10 + rng.next(8), "dex": 10 + rng.next(8), "con": 12, "int": 10, "wis": 11, "cha": 9},
            }),
        );
    }
    let characters = started.elapsed();
    let started = Instant::now();
    for _ in 0..1_000 {
        let importance = ["low", "medium", "high", "critical"][rng.next(4)];
        let words: Vec<&str> = (0..12 + rng.next(30))
            .map(|_| WORDS[rng.next(24)])
            .collect();
        s.call(
            "manage_notes",
            json!({
                "operation": "add",
                "content": format!("The {} of the {}.", words.join(" "), WORDS[rng.next(24)]),
                "tags": [WORDS[rng.next(24)]],
                "importance": importance,
            }),
        );
    }
    println!(
        "seeded over stdio: 10,000 create_character calls in {:.1} s, 1,000 manage_notes add calls in {:.1} s",
        characters.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
}

const CLASSES: [&str; 12] = [
    "barbarian",
    "bard",
    "cleric",
    "druid",
    "fighter",
    "monk",
    "paladin",
    "ranger",
    "rogue",
    "sorcerer",
    "warlock",
    "wizard",
];
const TYPES: [&str; 4] = ["pc", "npc", "enemy", "neutral"];
const SYLLABLES: [&str; 16] = [
    "ar", "bel", "cor", "dun", "el", "fa", "gor", "hal", "ith", "jor", "ka", "lor", "mir", "nor",
    "ol", "per",
];
const WORDS: [&str; 24] = [
    "dragon", "tavern", "merchant", "ruins", "crypt", "amulet", "prophecy", "bandit", "river",
    "tower", "goblin", "oath", "map", "storm", "harbor", "queen", "lich", "forest", "debt",
    "festival", "smuggler", "bridge", "ghost", "lantern",
];

/// A deterministic pseudo-random stream (no dependency needed for test data).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

fn scale_mode(exe: &str, dir: &std::path::Path) {
    let (mut s, _) = Server::spawn(exe, dir);
    let mut rng = Lcg(42);
    let marker = dir.join("scale-seeded");
    if marker.exists() {
        println!("reusing the campaign seeded in {}", dir.display());
    } else {
        seed(&mut s, &mut rng);
        std::fs::write(&marker, "10000 characters, 1000 notes\n").expect("write marker");
    }
    let queries: [(&str, &str, Value); 9] = [
        (
            "get_character",
            "listAll (first page of 50)",
            json!({"listAll": true}),
        ),
        (
            "get_character",
            "listAll page 150 of 50",
            json!({"listAll": true, "page": 150}),
        ),
        (
            "get_character",
            "filter type npc",
            json!({"filter": {"type": "npc"}}),
        ),
        (
            "get_character",
            "filter class wizard",
            json!({"filter": {"class": "wizard"}}),
        ),
        (
            "get_character",
            "filter minLevel 18",
            json!({"filter": {"minLevel": 18}}),
        ),
        (
            "get_character",
            "filter name contains 'mir'",
            json!({"filter": {"name": "mir"}}),
        ),
        (
            "get_character",
            "filter type+class+minLevel",
            json!({"filter": {"type": "pc", "class": "rogue", "minLevel": 10}}),
        ),
        (
            "manage_notes",
            "search 'dragon' (full text)",
            json!({"operation": "search", "query": "dragon"}),
        ),
        (
            "manage_notes",
            "search 'lich tower' (full text)",
            json!({"operation": "search", "query": "lich tower"}),
        ),
    ];
    for (tool, label, args) in queries {
        let r = s.call(tool, args.clone());
        let bytes = r.to_string().len();
        series(
            &mut s,
            &format!("{label} ({} KB)", bytes / 1024),
            300,
            |s, _| {
                s.call(tool, args.clone());
            },
        );
    }
    if let Some(kb) = s.peak_rss_kb() {
        println!(
            "peak resident memory of the server: {:.1} MB",
            kb as f64 / 1024.0
        );
    }
    let _ = s.child.kill();
    let _ = s.child.wait();
}
