//! Helpers shared by the engine's integration tests.

#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;

use tabletop_engine::creation::{
    AbilityMethod, CreateMode, CreateRequest, CustomClass, create_character,
};
use tabletop_engine::{Engine, EngineOptions, SqliteStore};
use tabletop_rules::Ability;
use tabletop_srd::Compendium;

/// Opens the campaign `name` in the database at `path`.
pub fn open(path: &Path, name: &str, seed: Option<u64>) -> Engine<SqliteStore> {
    let store = SqliteStore::open(path).expect("open store");
    Engine::open(
        store,
        name,
        EngineOptions {
            seed,
            compendium: tabletop_engine::compendium::CompendiumSource::none(),
        },
    )
    .expect("open campaign")
}

/// The SRD compendium when TABLETOP_SRD_DIR is set; otherwise prints why a test is skipped.
pub fn srd(test: &str) -> Option<Arc<Compendium>> {
    match std::env::var_os("TABLETOP_SRD_DIR") {
        Some(dir) => Some(Arc::new(
            Compendium::load(Path::new(&dir)).expect("SRD loads"),
        )),
        None => {
            eprintln!(
                "skipped {test}: TABLETOP_SRD_DIR not set (point it at the 5e-database 2014 folder)"
            );
            None
        }
    }
}

/// A level-1 custom fighter with the given scores (STR, DEX, CON, INT, WIS, CHA).
pub fn fighter(name: &str, scores: [i64; 6]) -> CreateRequest {
    CreateRequest {
        name: name.into(),
        custom_class: Some(CustomClass {
            name: "Fighter".into(),
            hit_die: 10,
            saves: vec![Ability::Strength, Ability::Constitution],
            spellcasting_ability: None,
            skill_choices: None,
        }),
        method: AbilityMethod::Manual,
        scores: Some(Ability::ALL.iter().copied().zip(scores).collect()),
        mode: CreateMode::Create,
        ..Default::default()
    }
}

/// Creates a character and returns its id.
pub fn create(engine: &mut Engine<SqliteStore>, req: CreateRequest) -> String {
    engine
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(call, req)
        })
        .expect("create")
        .character
        .id
}
