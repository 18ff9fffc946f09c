//! End-to-end timings over stdio, the way a client feels them, in the real configuration: the
//! SRD configured (`TABLETOP_SRD_DIR`), an SRD-built hill-dwarf cleric 5 made through
//! `create_character`, spawn → `initialize` answered, per-call round trips of a read-only and
//! three mutating tools, the server's CPU time per call and its peak resident memory, and,
//! given `--peer`, the same calls against a peer MCP server SIDE BY SIDE in the same run.
//!
//! ```sh
//! cargo build --release -p tabletop-server --examples --bins
//! TABLETOP_SRD_DIR=../shared/srd/2014 target/release/examples/stdio_bench target/release/tabletop \
//!     [--peer "node PEER/dist/index.js"] [--power] [--calls 2000] [--rounds 5]
//! TABLETOP_SRD_DIR=../shared/srd/2014 target/release/examples/stdio_bench target/release/tabletop --scale
//! ```
//! Uses raw newline-delimited JSON-RPC so the figures are the servers', not a client library's:
//! a round trip runs from writing the request to the arrival of the answer's last byte (read in
//! 64 KiB chunks, as Node's and the Python SDK's clients read a pipe); the driver's parse of the
//! answer comes after and is not counted.
//! Beside wall-clock round trips it reports, per call, each server's own CPU time, its time
//! runnable but queued for a CPU (the machine's load; on 2 CPUs also the driver itself, which the
//! answer wakes on the server's CPU and which then runs while the server finishes the call's last
//! steps, mostly outside the round trip), both summed over its threads from
//! `/proc/<pid>/task/*/schedstat` in nanoseconds, and what is left of the round trip: "blocked",
//! the server waiting for input (the pipe, the driver's own work) or on anything else.
//!
//! Every series runs in `--rounds` slices that alternate between the servers (Tabletop, then
//! Tabletop with `--durability power` when `--power` is given, then the peer), so a burst of load
//! from elsewhere on the machine falls on all of them alike. The peer runs with `HOME` set to a
//! fresh temporary directory (ChatRPG keeps its characters under `~/.config`).
//!
//! `--scale` seeds a campaign with 10,000 characters and 1,000 notes through the real server
//! over stdio (one `create_character` or `manage_notes` add call each), then times
//! listing/filtering characters and full-text note search against it. `--data-dir DIR` keeps
//! the seeded campaign in DIR and reuses it on the next run.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

struct Server {
    child: Child,
    out: BufReader<ChildStdout>,
    id: u64,
}

impl Server {
    /// Spawns `cmd` with piped stdio and completes the MCP handshake; returns the time from
    /// spawn to the `initialize` answer.
    fn spawn(mut cmd: Command) -> (Self, Duration) {
        let started = Instant::now();
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn the server");
        // 64 KiB reads, as Node's and the Python SDK's stdio clients do.
        let out = BufReader::with_capacity(1 << 16, child.stdout.take().expect("stdout"));
        let mut s = Self { child, out, id: 0 };
        s.request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}),
        );
        let cold = started.elapsed();
        s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        (s, cold)
    }

    /// Tabletop serving the campaign in `data_dir`, with `extra` flags before `serve`.
    fn tabletop(exe: &str, data_dir: &Path, extra: &[&str]) -> (Self, Duration) {
        let mut cmd = Command::new(exe);
        cmd.arg("--data-dir")
            .arg(data_dir)
            .args(["--seed", "1"])
            .args(extra)
            .arg("serve");
        Self::spawn(cmd)
    }

    /// The peer: `command` split on whitespace, with `HOME` at `home`.
    fn peer(command: &str, home: &Path) -> (Self, Duration) {
        let mut words = command.split_whitespace();
        let mut cmd = Command::new(words.next().expect("--peer names a command"));
        cmd.args(words).env("HOME", home).current_dir(home);
        Self::spawn(cmd)
    }

    fn send(&mut self, v: &Value) {
        // One write per message, as a client's buffered writer does: `writeln!` straight into the
        // unbuffered pipe would send every JSON token as its own write and wake the server ~50
        // times per request.
        let mut line = v.to_string();
        line.push('\n');
        let stdin = self.child.stdin.as_mut().expect("stdin");
        stdin.write_all(line.as_bytes()).expect("write");
        stdin.flush().expect("flush");
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.timed_request(method, params).0
    }

    /// Sends a request and returns its answer with the round trip: from the send to the arrival
    /// of the answer's last byte. Parsing the answer is the client's own work (the same for any
    /// server) and is not counted.
    fn timed_request(&mut self, method: &str, params: Value) -> (Value, Duration) {
        self.id += 1;
        let id = self.id;
        let started = Instant::now();
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.out.read_line(&mut line).expect("read") > 0,
                "server exited"
            );
            let arrived = started.elapsed();
            // A line that is not JSON-RPC (a peer's stray log line) is skipped.
            let Ok(v) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if v["id"] == json!(id) {
                return (v, arrived);
            }
        }
    }

    fn call(&mut self, tool: &str, args: &Value) -> Value {
        self.timed_call(tool, args).0
    }

    /// A tool call that must succeed, with its round trip (see [`Server::timed_request`]).
    fn timed_call(&mut self, tool: &str, args: &Value) -> (Value, Duration) {
        let (r, took) = self.timed_request("tools/call", json!({"name": tool, "arguments": args}));
        assert!(
            r["result"].is_object() && r["result"]["isError"] != json!(true),
            "{tool} failed: {r}"
        );
        (r, took)
    }

    /// The server's time on a CPU and its time runnable but waiting for one (the machine's
    /// load), so far, all threads, from `/proc/<pid>/task/*/schedstat` (Linux).
    fn cpu_time(&self) -> Option<Sched> {
        let tasks = std::fs::read_dir(format!("/proc/{}/task", self.child.id())).ok()?;
        let mut s = Sched::default();
        for t in tasks.flatten() {
            let text = std::fs::read_to_string(t.path().join("schedstat")).ok()?;
            let mut f = text.split_whitespace();
            s.run += Duration::from_nanos(f.next()?.parse().ok()?);
            s.wait += Duration::from_nanos(f.next()?.parse().ok()?);
        }
        Some(s)
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

    fn stop(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Scheduler times of a process: on a CPU, and runnable but waiting for a CPU.
#[derive(Clone, Copy, Default)]
struct Sched {
    run: Duration,
    wait: Duration,
}

impl Sched {
    fn since(self, before: Sched) -> Sched {
        Sched {
            run: self.run.saturating_sub(before.run),
            wait: self.wait.saturating_sub(before.wait),
        }
    }

    fn add(self, o: Sched) -> Sched {
        Sched {
            run: self.run + o.run,
            wait: self.wait + o.wait,
        }
    }
}

fn percentiles(mut v: Vec<Duration>) -> (f64, f64, f64) {
    v.sort();
    let at = |q: f64| v[((v.len() as f64 - 1.0) * q).round() as usize].as_secs_f64() * 1000.0;
    (at(0.5), at(0.9), at(0.99))
}

/// One server's figures for one series.
#[derive(Default)]
struct Figures {
    times: Vec<Duration>,
    cpu: Option<Sched>,
}

impl Figures {
    fn run(
        &mut self,
        s: &mut Server,
        n: usize,
        offset: usize,
        call: impl Fn(usize) -> (String, Value),
    ) {
        let before = s.cpu_time();
        for i in offset..offset + n {
            let (tool, args) = call(i);
            let (_, took) = s.timed_call(&tool, &args);
            self.times.push(took);
        }
        if let Some(spent) = s.cpu_time().zip(before).map(|(a, b)| a.since(b)) {
            self.cpu = Some(self.cpu.unwrap_or_default().add(spent));
        }
    }

    /// Prints one line and returns the percentiles.
    fn report(&self, label: &str) -> (f64, f64, f64) {
        let n = self.times.len();
        let wall: f64 = self.times.iter().map(Duration::as_secs_f64).sum::<f64>() * 1000.0;
        let (p50, p90, p99) = percentiles(self.times.clone());
        let cpu = self
            .cpu
            .map(|c| {
                let per = |d: Duration| d.as_secs_f64() * 1000.0 / n as f64;
                let (run, queued) = (per(c.run), per(c.wait));
                format!(
                    "  CPU {run:.3}, queued {queued:.3}, blocked {:.3} ms/call",
                    (wall / n as f64 - run - queued).max(0.0)
                )
            })
            .unwrap_or_default();
        println!(
            "  {label:<18} n={n:<5} p50 {p50:.3} ms  p90 {p90:.3} ms  p99 {p99:.3} ms  ({:.0} calls/s){cpu}",
            n as f64 * 1000.0 / wall
        );
        (p50, p90, p99)
    }
}

/// One workload: a label and the call each server makes for the i-th repetition.
struct Workload {
    label: &'static str,
    call: fn(usize) -> (String, Value),
    /// What each server needs first (the fight's creatures), given whether it is the peer.
    setup: Option<fn(&mut Server, bool)>,
}

/// How many creatures the fight has: each has 48 HP, and the warm-up and 1,000 calls take 1 HP
/// a call, so every call makes a new stored text.
const FIGHTERS: usize = 26;

/// The fight's creatures: `Bench` and `Bench1` … `Bench25`, the same SRD-built cleric.
fn create_fighters(s: &mut Server, peer: bool) {
    for j in 1..FIGHTERS {
        create_cleric(s, peer, &format!("Bench{j}"));
    }
}

fn workloads() -> Vec<Workload> {
    // ChatRPG names these four tools and their arguments the same way; each closure gives the
    // call for both servers.
    vec![
        Workload {
            label: "get_character (read-only, SRD-built cleric 5)",
            call: |_| ("get_character".into(), json!({"characterName": "Bench"})),
            setup: None,
        },
        Workload {
            label: "roll_dice 4d6kh3 (mutating)",
            call: |_| ("roll_dice".into(), json!({"expression": "4d6kh3"})),
            setup: None,
        },
        Workload {
            label: "update_character hp ±1 (mutating)",
            call: |i| {
                let hp = if i % 2 == 0 { "-1" } else { "+1" };
                (
                    "update_character".into(),
                    json!({"characterName": "Bench", "hp": hp}),
                )
            },
            setup: None,
        },
        Workload {
            label: "roll_check stealth DC 12 (mutating)",
            call: |_| {
                (
                    "roll_check".into(),
                    json!({"characterName": "Bench", "checkType": "skill", "skill": "stealth", "dc": 12}),
                )
            },
            setup: None,
        },
        Workload {
            label: "update_character in a fight: 26 clerics lose 1 HP each in turn (mutating)",
            call: |i| {
                let j = i % FIGHTERS;
                let name = if j == 0 {
                    "Bench".to_string()
                } else {
                    format!("Bench{j}")
                };
                (
                    "update_character".into(),
                    json!({"characterName": name, "hp": "-1"}),
                )
            },
            setup: Some(create_fighters),
        },
    ]
}

const STATS: fn() -> Value =
    || json!({"str": 14, "dex": 10, "con": 14, "int": 10, "wis": 15, "cha": 8});

/// Creates the hill-dwarf cleric 5 called `name`, each server in its own arguments: Tabletop
/// builds it from the SRD (race, subrace, class), and says so.
fn create_cleric(s: &mut Server, peer: bool, name: &str) {
    if peer {
        s.call(
            "create_character",
            &json!({"name": name, "race": "Hill Dwarf", "class": "Cleric", "level": 5,
                    "stats": STATS()}),
        );
        return;
    }
    let r = s.call(
        "create_character",
        &json!({"name": name, "race": "dwarf", "subrace": "hill dwarf", "class": "cleric",
                "level": 5, "stats": STATS()}),
    );
    let c = &r["result"]["structuredContent"]["character"];
    assert!(
        c["race"]
            .as_str()
            .is_some_and(|x| x.to_lowercase().contains("dwarf")),
        "not an SRD-built dwarf: {c}"
    );
}

fn cold_starts(n: usize, mut spawn: impl FnMut() -> (Server, Duration)) -> (f64, f64, f64) {
    let colds: Vec<Duration> = (0..n)
        .map(|_| {
            let (s, cold) = spawn();
            s.stop();
            cold
        })
        .collect();
    percentiles(colds)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut exe = "target/release/tabletop".to_string();
    let mut scale = false;
    let mut keep: Option<std::path::PathBuf> = None;
    let mut peer: Option<String> = None;
    let mut power = false;
    let mut calls = 2000usize;
    let mut rounds = 5usize;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--scale" => scale = true,
            "--data-dir" => keep = args.next().map(Into::into),
            "--peer" => peer = args.next(),
            "--power" => power = true,
            "--calls" => calls = args.next().and_then(|n| n.parse().ok()).expect("--calls N"),
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--rounds N")
            }
            _ => exe = a,
        }
    }
    let rounds = rounds.clamp(1, calls.max(1));
    println!(
        "server: {exe}; SRD: {}; peer: {}",
        std::env::var("TABLETOP_SRD_DIR").unwrap_or_else(|_| "not configured".into()),
        peer.as_deref().unwrap_or("none")
    );
    if scale {
        let dir = tempfile::tempdir().expect("temp dir");
        scale_mode(&exe, keep.as_deref().unwrap_or(dir.path()));
        return;
    }

    let dir = tempfile::tempdir().expect("temp dir");
    let (p50, p90, p99) = cold_starts(30, || Server::tabletop(&exe, dir.path(), &[]));
    println!(
        "spawn → initialize answered, tabletop (30 runs): p50 {p50:.2} ms, p90 {p90:.2} ms, max≈p99 {p99:.2} ms"
    );
    let peer_home = tempfile::tempdir().expect("temp dir");
    if let Some(cmd) = &peer {
        let (p50, p90, p99) = cold_starts(10, || Server::peer(cmd, peer_home.path()));
        println!(
            "spawn → initialize answered, peer (10 runs):     p50 {p50:.2} ms, p90 {p90:.2} ms, max {p99:.2} ms"
        );
    }

    // The contestants, in the order each round runs them.
    let mut servers: Vec<(&str, Server)> = Vec::new();
    let fresh = tempfile::tempdir().expect("temp dir");
    let (mut t, _) = Server::tabletop(&exe, &fresh.path().join("default"), &[]);
    create_cleric(&mut t, false, "Bench");
    servers.push(("tabletop", t));
    if power {
        let (mut t, _) = Server::tabletop(
            &exe,
            &fresh.path().join("power"),
            &["--durability", "power"],
        );
        create_cleric(&mut t, false, "Bench");
        servers.push(("tabletop power", t));
    }
    if let Some(cmd) = &peer {
        let (mut p, _) = Server::peer(cmd, peer_home.path());
        create_cleric(&mut p, true, "Bench");
        servers.push(("peer", p));
    }
    for (name, s) in &mut servers {
        let r = s.call("get_character", &json!({"characterName": "Bench"}));
        println!("{name}: get_character answer {} bytes", r.to_string().len());
    }

    for w in workloads() {
        if let Some(setup) = w.setup {
            for (name, s) in &mut servers {
                setup(s, *name == "peer");
            }
        }
        // Warm-up: caches, the SRD's background load, the peer's JIT.
        for (_, s) in &mut servers {
            for i in 0..200 {
                let (tool, args) = (w.call)(i);
                s.call(&tool, &args);
            }
        }
        let mut figures: Vec<Figures> = servers.iter().map(|_| Figures::default()).collect();
        let per_round = calls / rounds;
        for r in 0..rounds {
            for ((_, s), f) in servers.iter_mut().zip(&mut figures) {
                f.run(s, per_round, r * per_round, w.call);
            }
        }
        println!("{}", w.label);
        let stats: Vec<(f64, f64, f64)> = servers
            .iter()
            .zip(&figures)
            .map(|((name, _), f)| f.report(name))
            .collect();
        if let (Some(ours), Some(theirs)) = (stats.first(), peer.as_ref().and(stats.last())) {
            println!(
                "  peer ÷ tabletop: p50 ×{:.1}  p90 ×{:.1}  p99 ×{:.1}",
                theirs.0 / ours.0,
                theirs.1 / ours.1,
                theirs.2 / ours.2
            );
        }
    }
    for (name, s) in servers {
        if let Some(kb) = s.peak_rss_kb() {
            println!("peak resident memory, {name}: {:.1} MB", kb as f64 / 1024.0);
        }
        s.stop();
    }
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
            &json!({
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
            &json!({
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
    let (mut s, _) = Server::tabletop(exe, dir, &[]);
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
        let r = s.call(tool, &args);
        let bytes = r.to_string().len();
        let mut f = Figures::default();
        f.run(&mut s, 300, 0, |_| (tool.to_string(), args.clone()));
        println!("{label} ({} KB)", bytes / 1024);
        f.report("tabletop");
    }
    if let Some(kb) = s.peak_rss_kb() {
        println!(
            "peak resident memory of the server: {:.1} MB",
            kb as f64 / 1024.0
        );
    }
    s.stop();
}
