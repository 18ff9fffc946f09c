//! Benchmarks: load + index the SRD folder of `TABLETOP_SRD_DIR`, fuzzy name lookup, filtered
//! search. Skipped (with a note) when the variable is unset.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use tabletop_srd::{Compendium, EntryKind, SearchFilters, SearchQuery};

fn dir() -> Option<PathBuf> {
    let d = std::env::var_os("TABLETOP_SRD_DIR").map(PathBuf::from);
    if d.is_none() {
        eprintln!("skipped: TABLETOP_SRD_DIR not set");
    }
    d
}

fn benches(c: &mut Criterion) {
    let Some(dir) = dir() else { return };
    c.bench_function("load_and_index", |b| {
        b.iter(|| Compendium::load(black_box(&dir)).unwrap())
    });
    let srd = Compendium::load(&dir).unwrap();
    c.bench_function("fuzzy_get_typo", |b| {
        b.iter(|| srd.get(None, black_box("magic missle")))
    });
    c.bench_function("fuzzy_search_all", |b| {
        let q = SearchQuery {
            query: Some("firebal".into()),
            ..Default::default()
        };
        b.iter(|| srd.search(black_box(&q)).unwrap())
    });
    c.bench_function("filtered_search", |b| {
        let q = SearchQuery {
            kind: Some(EntryKind::Spell),
            filters: SearchFilters {
                class: Some("wizard".into()),
                level: Some(3),
                ..Default::default()
            },
            ..Default::default()
        };
        b.iter(|| srd.search(black_box(&q)).unwrap())
    });
    c.bench_function("full_text_search", |b| {
        let q = SearchQuery {
            query: Some("frightened condition".into()),
            ..Default::default()
        };
        b.iter(|| srd.search(black_box(&q)).unwrap())
    });
}

criterion_group!(srd_benches, benches);
criterion_main!(srd_benches);
