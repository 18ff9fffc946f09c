//! Benchmarks: load + index the SRD folder of `TABLETOP_SRD_DIR`, fuzzy name lookup, filtered
//! search, full-text search. Also prints p50/p99 of single calls and the process memory.
//! Skipped (with a note) when the variable is unset.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use tabletop_srd::{Compendium, EntryKind, SearchFilters, SearchQuery};

fn dir() -> Option<PathBuf> {
    let d = std::env::var_os("TABLETOP_SRD_DIR").map(PathBuf::from);
    if d.is_none() {
        eprintln!("skipped: TABLETOP_SRD_DIR not set");
    }
    d
}

/// Resident and peak memory of this process (Linux only), for the report.
fn memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .map(|s| {
            s.lines()
                .filter(|l| l.starts_with("VmRSS") || l.starts_with("VmHWM"))
                .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default()
}

/// p50/p99 of single calls, which criterion's mean does not show.
fn percentiles(label: &str, n: usize, mut f: impl FnMut()) {
    let mut t: Vec<Duration> = (0..n)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed()
        })
        .collect();
    t.sort();
    eprintln!(
        "{label}: p50 {:?}, p99 {:?}, max {:?}",
        t[t.len() / 2],
        t[t.len() * 99 / 100],
        t[t.len() - 1]
    );
}

fn benches(c: &mut Criterion) {
    let Some(dir) = dir() else { return };
    eprintln!("before load: {}", memory());
    let srd = Compendium::load(&dir).unwrap();
    eprintln!("after load: {}", memory());
    percentiles("load+index", 30, || {
        black_box(Compendium::load(black_box(&dir)).unwrap());
    });
    percentiles("get(None, 'magic missle')", 5_000, || {
        black_box(srd.get(None, black_box("magic missle")));
    });
    let fuzzy = SearchQuery {
        query: Some("firebal".into()),
        ..Default::default()
    };
    percentiles("search 'firebal' (names + text, all kinds)", 5_000, || {
        black_box(srd.search(black_box(&fuzzy)).unwrap());
    });
    let filtered = SearchQuery {
        kind: Some(EntryKind::Spell),
        filters: SearchFilters {
            class: Some("wizard".into()),
            level: Some(3),
            ..Default::default()
        },
        ..Default::default()
    };
    percentiles("search spell wizard level 3", 5_000, || {
        black_box(srd.search(black_box(&filtered)).unwrap());
    });
    let text = SearchQuery {
        query: Some("low roar".into()),
        ..Default::default()
    };
    percentiles("search 'low roar' (full text)", 5_000, || {
        black_box(srd.search(black_box(&text)).unwrap());
    });

    c.bench_function("load_and_index", |b| {
        b.iter(|| Compendium::load(black_box(&dir)).unwrap())
    });
    c.bench_function("fuzzy_get_typo", |b| {
        b.iter(|| srd.get(None, black_box("magic missle")))
    });
    c.bench_function("fuzzy_search_all", |b| {
        b.iter(|| srd.search(black_box(&fuzzy)).unwrap())
    });
    c.bench_function("filtered_search", |b| {
        b.iter(|| srd.search(black_box(&filtered)).unwrap())
    });
    c.bench_function("full_text_search", |b| {
        b.iter(|| srd.search(black_box(&text)).unwrap())
    });
}

criterion_group!(srd_benches, benches);
criterion_main!(srd_benches);
