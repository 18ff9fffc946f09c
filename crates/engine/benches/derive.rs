//! Benchmark: deriving a character sheet from its sources (DESIGN §9: ≤ 50 µs per derive), for
//! an SRD cleric 5 (Life) and fighter 5 built through `create_character`. Measures the whole
//! refresh a read or write runs (resolve the SRD sources, derive, apply to the sheet) and the
//! pure `derive` step alone. Skipped (with a note) when `TABLETOP_SRD_DIR` is unset.

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use tabletop_engine::catalog::Catalog;
use tabletop_engine::character::Character;
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{
    AbilityMethod, ClassRequest, CreateMode, CreateRequest, create_character,
};
use tabletop_engine::derive::{derive, refresh_with, resolve};
use tabletop_engine::{Engine, EngineOptions, SqliteStore};
use tabletop_rules::Ability;
use tabletop_srd::Compendium;

fn built(srd: &Arc<Compendium>) -> Vec<(&'static str, Character)> {
    let dir = tempfile::tempdir().unwrap();
    let mut e = Engine::open(
        SqliteStore::open(&dir.path().join("bench.sqlite")).unwrap(),
        "bench",
        EngineOptions {
            seed: Some(1),
            compendium: CompendiumSource::ready(srd.clone()),
        },
    )
    .unwrap();
    let scores: Vec<(Ability, i64)> = Ability::ALL
        .iter()
        .copied()
        .zip([15, 12, 14, 10, 16, 8])
        .collect();
    let cleric = CreateRequest {
        name: "Bran".into(),
        race: Some("Hill Dwarf".into()),
        classes: vec![ClassRequest {
            class: "cleric".into(),
            level: 5,
            subclass: Some("life".into()),
        }],
        background: Some("Acolyte".into()),
        method: AbilityMethod::Manual,
        scores: Some(scores.iter().copied().collect()),
        mode: CreateMode::Create,
        ..Default::default()
    };
    let fighter = CreateRequest {
        name: "Kell".into(),
        race: Some("Human".into()),
        class: Some("fighter".into()),
        level: Some(5),
        fighting_style: Some("defense".into()),
        method: AbilityMethod::Manual,
        scores: Some(scores.iter().copied().collect()),
        mode: CreateMode::Create,
        ..Default::default()
    };
    [("cleric 5", cleric), ("fighter 5", fighter)]
        .into_iter()
        .map(|(label, req)| {
            let c = e
                .write("create_character", &serde_json::json!({}), |call| {
                    create_character(call, req)
                })
                .unwrap()
                .character;
            (label, c)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let Some(dir) = std::env::var_os("TABLETOP_SRD_DIR").map(PathBuf::from) else {
        eprintln!("skipped: TABLETOP_SRD_DIR not set");
        return;
    };
    let srd = Arc::new(Compendium::load(&dir).expect("SRD loads"));
    let catalog = Catalog::get();
    for (label, ch) in built(&srd) {
        c.bench_function(&format!("derive/refresh {label}"), |b| {
            b.iter(|| {
                let mut x = ch.clone();
                refresh_with(Some(&srd), &mut x);
                black_box(x.max_hp)
            })
        });
        let build = ch.build.clone().expect("an SRD build");
        c.bench_function(&format!("derive/pipeline {label}"), |b| {
            b.iter(|| {
                let r = resolve(black_box(&build), Some(&srd));
                black_box(derive(&build, &r, catalog))
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
