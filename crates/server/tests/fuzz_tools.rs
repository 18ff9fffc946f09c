//! Schema-driven fuzzing of every tool, in process through the one entry point every transport
//! uses (`mcp::call_spec`): arguments generated from each tool's advertised input schema, then
//! hostile mutations (huge text, out-of-range and wrongly typed numbers, unknown fields, deep
//! nesting, control characters). No call may panic or hang; every error must be a plain sentence
//! in the schema's words that names a field, never a Rust type, a raw database error or more than
//! a short prefix of a long value.
//!
//! `cargo test -p tabletop-server --test fuzz_tools` runs 3,000 seeded cases (well under a minute);
//! the long mode runs `TABLETOP_FUZZ_CASES` (default 1,000,000):
//! `cargo test --release -p tabletop-server --test fuzz_tools -- --ignored fuzz_long`.

use super::common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::{Engine, EngineOptions, SqliteStore};
use tabletop_server::catalog::CATALOG;
use tabletop_server::mcp::call_spec;
use tabletop_server::tools::EngineT;

/// A small seeded generator (xorshift64*), so a failing case is replayed from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

const NAMES: &[&str] = &[
    "Aria", "Borin", "goblin", "ch1", "ch2", "enc1", "pt1", "Fireball", "",
];
const DICE: &[&str] = &[
    "1d20+5",
    "2d6+3",
    "1d8[fire]",
    "8d6",
    "1d1rr1",
    "-5",
    "1d4-10",
    "d%",
];

fn hostile_string(rng: &mut Rng) -> String {
    match rng.below(9) {
        0 => "x".repeat(1 + rng.below(20_000)),
        1 => String::new(),
        2 => "\u{0}\u{7}\r\n\t".into(),
        3 => "🐉".repeat(1 + rng.below(300)),
        4 => "'; DROP TABLE characters; --".into(),
        5 => "9".repeat(1 + rng.below(400)),
        6 => "\u{202e}admin\u{200b}".into(),
        7 => rng.pick(DICE).to_string(),
        _ => rng.pick(NAMES).to_string(),
    }
}

fn hostile_value(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(12) {
        0 => json!(i64::MAX),
        1 => json!(i64::MIN),
        2 => json!(2_147_483_647),
        3 => json!(-1),
        4 => json!(1e300),
        5 => json!(-0.5),
        6 => Value::Null,
        7 => json!([hostile_string(rng), 3]),
        8 => json!({"x": hostile_string(rng)}),
        9 => json!(true),
        10 if depth < 3 => {
            // Deep nesting.
            let mut v = json!(1);
            for _ in 0..(5 + rng.below(60)) {
                v = json!([v]);
            }
            v
        }
        _ => Value::String(hostile_string(rng)),
    }
}

/// A value of `schema`'s shape (best effort: enums, types, objects, arrays, unions).
fn generate(rng: &mut Rng, schema: &Value, depth: usize) -> Value {
    let Some(s) = schema.as_object() else {
        return hostile_value(rng, depth);
    };
    if let Some(Value::Array(values)) = s.get("enum")
        && !values.is_empty()
    {
        return rng.pick(values).clone();
    }
    if let Some(c) = s.get("const") {
        return c.clone();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(alts)) = s.get(key)
            && !alts.is_empty()
        {
            let alt = rng.pick(alts).clone();
            return generate(rng, &alt, depth + 1);
        }
    }
    let ty = match s.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) if !ts.is_empty() => {
            rng.pick(ts).as_str().unwrap_or("string").to_string()
        }
        _ if s.contains_key("properties") => "object".into(),
        _ => "string".into(),
    };
    match ty.as_str() {
        "object" => {
            let mut m = Map::new();
            let required: Vec<&str> = s
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if let Some(Value::Object(props)) = s.get("properties")
                && depth < 6
            {
                for (k, sub) in props {
                    if k == "batch" && !rng.chance(10) {
                        continue;
                    }
                    if required.contains(&k.as_str()) || rng.chance(35) {
                        m.insert(k.clone(), generate(rng, sub, depth + 1));
                    }
                }
            }
            Value::Object(m)
        }
        "array" => {
            let n = rng.below(4);
            let items = s.get("items").cloned().unwrap_or(Value::Null);
            Value::Array((0..n).map(|_| generate(rng, &items, depth + 1)).collect())
        }
        "integer" => {
            let lo = s.get("minimum").and_then(Value::as_i64).unwrap_or(-5);
            let hi = s
                .get("maximum")
                .and_then(Value::as_i64)
                .unwrap_or(lo.saturating_add(40));
            let span = hi.saturating_sub(lo).clamp(0, 1_000) as usize;
            json!(lo.saturating_add(rng.below(span + 1) as i64))
        }
        "number" => json!(rng.below(100) as f64 / 4.0),
        "boolean" => json!(rng.chance(50)),
        "null" => Value::Null,
        _ => {
            if rng.chance(50) {
                json!(rng.pick(NAMES))
            } else {
                json!(rng.pick(DICE))
            }
        }
    }
}

/// One hostile change to generated arguments; returns the field it touched.
fn mutate(rng: &mut Rng, args: &mut Value, schema: &Value) -> Option<String> {
    let props: Vec<String> = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    let obj = args.as_object_mut()?;
    match rng.below(4) {
        0 => {
            let k = format!("bogus{}", rng.below(9));
            obj.insert(k.clone(), hostile_value(rng, 0));
            Some(k)
        }
        _ if !props.is_empty() => {
            let k = rng.pick(&props).clone();
            obj.insert(k.clone(), hostile_value(rng, 0));
            Some(k)
        }
        _ => None,
    }
}

/// Words that must never reach an agent.
const LEAKS: &[&str] = &[
    "expected struct",
    "expected enum",
    "untagged enum",
    "expected u8",
    "expected u16",
    "expected u32",
    "expected u64",
    "expected i32",
    "expected i64",
    "expected usize",
    "expected f64",
    "database error",
    "database is locked",
    "FOREIGN KEY",
    "panicked",
];

fn field_names(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.push(k.clone());
                field_names(x, out);
            }
        }
        Value::Array(xs) => xs.iter().for_each(|x| field_names(x, out)),
        _ => {}
    }
}

/// Checks one answer; returns a complaint.
fn judge(
    tool: &str,
    args: &Value,
    schema: &Value,
    result: &Result<String, String>,
) -> Option<String> {
    let Err(e) = result else { return None };
    if e.trim().is_empty() {
        return Some("empty error".into());
    }
    if let Some(l) = LEAKS.iter().find(|l| e.contains(*l)) {
        return Some(format!("leaks '{l}'"));
    }
    if e.chars().count() > 4_100 {
        return Some(format!("error of {} characters", e.chars().count()));
    }
    if e.contains(&"x".repeat(41)) || e.contains(&"9".repeat(41)) || e.contains(&"🐉".repeat(41))
    {
        return Some("quotes more than 40 characters of a value".into());
    }
    // An argument error names the field: one the caller sent or one the schema has.
    let argument_error =
        e.starts_with("invalid arguments for") || e.starts_with(&format!("{tool}: "));
    if argument_error {
        let mut names = Vec::new();
        field_names(args, &mut names);
        if let Some(p) = schema.get("properties").and_then(Value::as_object) {
            names.extend(p.keys().cloned());
        }
        let names_one = names
            .iter()
            .any(|n| !n.is_empty() && e.contains(n.as_str()))
            || e.contains("the arguments")
            || e.contains("field name");
        if !names_one {
            return Some("an argument error that names no field".into());
        }
    }
    None
}

fn engine(dir: &std::path::Path) -> EngineT {
    let store = SqliteStore::open(&dir.join("fuzz.sqlite")).unwrap();
    let srd = common::srd_env::srd_path();
    let compendium = if srd.join("5e-SRD-Monsters.json").is_file() {
        CompendiumSource::deferred(srd)
    } else {
        CompendiumSource::none()
    };
    Engine::open(
        store.into(),
        "fuzz",
        EngineOptions {
            seed: Some(7),
            compendium,
        },
    )
    .unwrap()
}

/// Seeds a campaign the generated names can hit: two characters, a party, an encounter.
fn seed_world(engine: &Mutex<EngineT>) {
    let calls = [
        (
            "create_character",
            json!({"name": "Aria", "class": "wizard", "race": "elf", "level": 3}),
        ),
        (
            "create_character",
            json!({"name": "Borin", "customClass": {"name": "Fighter", "hitDie": 10},
                   "stats": {"str": 16, "dex": 12, "con": 14, "int": 10, "wis": 10, "cha": 8}}),
        ),
        (
            "manage_party",
            json!({"operation": "create", "name": "Heroes"}),
        ),
        (
            "create_encounter",
            json!({"name": "Bridge", "participants": [
                {"characterName": "Borin", "position": {"x": 2, "y": 2}},
                {"name": "Goblin", "hp": 7, "ac": 13, "side": "enemy", "position": {"x": 3, "y": 2},
                 "attacks": [{"name": "Scimitar", "bonus": 4, "damage": "1d6+2", "damageType": "slashing"}]}
            ]}),
        ),
    ];
    for (tool, args) in calls {
        // Some of these may be refused by a tool's own rules; the fuzzing goes on either way.
        let _ = call_spec(engine, tool, &args);
    }
}

/// Runs `cases` seeded cases; returns (calls, errors, slowest call) or the first failure.
fn campaign(seed: u64, cases: u64) -> Result<(u64, u64, Duration), String> {
    let dir = tempfile::tempdir().unwrap();
    let engine = Mutex::new(engine(dir.path()));
    seed_world(&engine);
    let specs: Vec<(&str, Value)> = CATALOG
        .iter()
        .map(|t| (t.name, Value::Object((t.schema)())))
        .collect();
    let mut rng = Rng(seed | 1);
    let mut errors = 0;
    let mut slowest = Duration::ZERO;
    for case in 0..cases {
        let (tool, schema) = &specs[rng.below(specs.len())];
        let mut args = generate(&mut rng, schema, 0);
        if rng.chance(60) {
            for _ in 0..(1 + rng.below(2)) {
                mutate(&mut rng, &mut args, schema);
            }
        }
        if rng.chance(2) {
            args = hostile_value(&mut rng, 0);
        }
        let started = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            call_spec(&engine, tool, &args)
                .map(|r| r.text)
                .map_err(|e| e.0)
        }));
        let took = started.elapsed();
        slowest = slowest.max(took);
        let shown = {
            let s = args.to_string();
            s.chars().take(300).collect::<String>()
        };
        let result = outcome
            .map_err(|_| format!("case {case} (seed {seed}): {tool} panicked on {shown}"))?;
        if took > Duration::from_secs(10) {
            return Err(format!("case {case}: {tool} took {took:?} on {shown}"));
        }
        if result.is_err() {
            errors += 1;
        }
        if let Some(complaint) = judge(tool, &args, schema, &result) {
            return Err(format!(
                "case {case} (seed {seed}): {tool} {shown}: {complaint}: {}",
                result
                    .err()
                    .unwrap_or_default()
                    .chars()
                    .take(600)
                    .collect::<String>()
            ));
        }
    }
    Ok((cases, errors, slowest))
}

/// Runs a campaign on a thread with a watchdog, so a hang fails the test instead of stalling it.
fn watched(seed: u64, cases: u64, limit: Duration) -> (u64, u64, Duration) {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(campaign(seed, cases));
    });
    match rx.recv_timeout(limit) {
        Ok(Ok(figures)) => figures,
        Ok(Err(failure)) => panic!("{failure}"),
        Err(_) => {
            panic!("fuzz campaign (seed {seed}) did not finish within {limit:?}: a call hangs")
        }
    }
}

#[test]
fn every_tool_survives_schema_driven_and_hostile_arguments() {
    let (calls, errors, slowest) = watched(20_261_125, 3_000, Duration::from_secs(300));
    eprintln!("fuzz: {calls} calls, {errors} errors, slowest {slowest:?}");
    // The generator reaches past argument checking: some calls succeed, some are refused.
    assert!(errors > 0 && errors < calls, "{errors} of {calls}");
}

#[test]
#[ignore = "long mode: TABLETOP_FUZZ_CASES calls (default 1,000,000)"]
fn fuzz_long() {
    let cases = std::env::var("TABLETOP_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000u64);
    let started = Instant::now();
    let mut total = (0, 0);
    let mut slowest = Duration::ZERO;
    // Several seeds, each a fresh campaign, so the store does not grow without end.
    let per = 50_000.min(cases).max(1);
    let mut seed = 1;
    while total.0 < cases {
        let n = per.min(cases - total.0);
        let (c, e, s) = watched(seed, n, Duration::from_secs(3_600));
        total = (total.0 + c, total.1 + e);
        slowest = slowest.max(s);
        seed += 1;
    }
    eprintln!(
        "fuzz long: {} calls ({} errors, {} seeds), slowest call {slowest:?}, {:?} in all",
        total.0,
        total.1,
        seed - 1,
        started.elapsed()
    );
}
