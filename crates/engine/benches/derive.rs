//! Benchmark: deriving a character sheet from its sources (DESIGN §9 and issue 16: ≤ 50 µs per
//! derive of a level-20 multiclass sheet with 10 items and 10 effects), for an SRD cleric 5
//! (Life), a fighter 5 and a fighter 10 / cleric 10 carrying 10 SRD items (armour, shield and
//! weapon equipped) under 10 effects, all built through the engine's own use cases. Measures the whole
//! refresh a read or write runs (resolve the SRD sources, derive, apply to the sheet) and the
//! pure `derive` step alone. Skipped (with a note) when `TABLETOP_SRD_DIR` is unset.

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use tabletop_engine::catalog::Catalog;
use tabletop_engine::character::Character;
use tabletop_engine::character::CharacterRef;
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{
    AbilityMethod, ClassRequest, CreateMode, CreateRequest, create_character,
};
use tabletop_engine::derive::{derive, refresh_with, resolve};
use tabletop_engine::effects::{DurationRequest, EffectRequest, add_effect};
use tabletop_engine::inventory::equip::equip;
use tabletop_engine::inventory::locate::ItemRef;
use tabletop_engine::inventory::ops::{GiveRequest, give};
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
        race: Some("dwarf".into()),
        subrace: Some("hill dwarf".into()),
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
    let multi = CreateRequest {
        name: "Vala".into(),
        race: Some("human".into()),
        classes: vec![
            ClassRequest {
                class: "fighter".into(),
                level: 10,
                subclass: Some("champion".into()),
            },
            ClassRequest {
                class: "cleric".into(),
                level: 10,
                subclass: Some("life".into()),
            },
        ],
        fighting_style: Some("defense".into()),
        method: AbilityMethod::Manual,
        scores: Some(scores.iter().copied().collect()),
        mode: CreateMode::Create,
        ..Default::default()
    };
    let mut out: Vec<(&'static str, Character)> = [("cleric 5", cleric), ("fighter 5", fighter)]
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
        .collect();
    let args = serde_json::json!({});
    e.write("create_character", &args, |call| {
        create_character(call, multi)
    })
    .unwrap();
    let who = || CharacterRef::new(None, Some("Vala"));
    for item in [
        "Plate Armor",
        "Shield",
        "Longsword",
        "Dagger",
        "Light Crossbow",
        "Crossbow bolt",
        "Rope, hempen (50 feet)",
        "Torch",
        "Rations (1 day)",
        "Potion of Healing",
    ] {
        let req = GiveRequest {
            srd_name: Some(item.into()),
            ..Default::default()
        };
        e.write("manage_inventory", &args, |call| give(call, who(), req))
            .unwrap();
    }
    for item in ["Plate Armor", "Shield", "Longsword"] {
        let r = ItemRef {
            id: None,
            name: Some(item),
        };
        e.write("manage_inventory", &args, |call| {
            equip(call, who(), r, None)
        })
        .unwrap();
    }
    for name in [
        "Bless",
        "Shield of Faith",
        "Haste",
        "Heroism",
        "Longstrider",
        "Blur",
        "Stoneskin",
        "Foresight",
        "Resistance",
        "Guidance",
    ] {
        let req = EffectRequest {
            name: name.into(),
            duration: DurationRequest::UntilDispelled,
            ..Default::default()
        };
        e.write("manage_effect", &args, |call| add_effect(call, who(), req))
            .unwrap();
    }
    let c = e
        .read(|call| tabletop_engine::character::resolve(call, who()))
        .unwrap();
    assert_eq!(c.effects.len(), 10, "10 effects on the multiclass sheet");
    assert!(
        c.inventory.items.len() >= 10,
        "10 items on the multiclass sheet"
    );
    out.push(("fighter 10 / cleric 10, 10 items, 10 effects", c));
    out
}

fn bench(c: &mut Criterion) {
    let Some(dir) = std::env::var_os("TABLETOP_SRD_DIR").map(PathBuf::from) else {
        eprintln!("skipped: TABLETOP_SRD_DIR not set");
        return;
    };
    let srd = Arc::new(Compendium::load(&dir).expect("SRD loads"));
    let catalog = Catalog::get();
    for (label, ch) in built(&srd) {
        // The sheet to refresh is copied before each timed call and dropped after it: neither is
        // part of a refresh.
        c.bench_function(&format!("derive/refresh {label}"), |b| {
            b.iter_batched(
                || ch.clone(),
                |mut x| {
                    refresh_with(Some(&srd), &mut x);
                    x
                },
                BatchSize::SmallInput,
            )
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
