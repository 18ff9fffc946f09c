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

#[path = "../../../../test-support/srd_env.rs"]
pub mod srd_env;

/// The SRD compendium (see `srd_env` for where it is found); `None` only outside CI when the data
/// is absent, after reporting `test` as skipped where cargo shows it.
pub fn srd(test: &str) -> Option<Arc<Compendium>> {
    let dir = srd_env::srd_dir(test)?;
    Some(Arc::new(Compendium::load(&dir).expect("SRD loads")))
}

/// A value the rules fix at `correct` where the engine is known (see `reason`, naming its issue)
/// to give `known_wrong` instead. Passes only on `known_wrong`; fails on `correct` (the gap is
/// closed: assert the correct value plainly) and on anything else.
pub fn known_gap<T: PartialEq + std::fmt::Debug>(
    what: &str,
    actual: T,
    correct: T,
    known_wrong: T,
    reason: &str,
) {
    assert!(
        actual != correct,
        "{what}: now {correct:?} as the rules say; the known gap ({reason}) is closed — assert \
         it plainly and drop the known_gap call"
    );
    assert_eq!(
        actual, known_wrong,
        "{what}: neither the correct {correct:?} nor the known gap's {known_wrong:?} ({reason})"
    );
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

/// The game master lists every spell of the character's SRD class list up to the highest level
/// its slots reach as known/prepared (`update_character spells` with `force`; a wizard's book
/// follows): a test casting spells from an SRD-built caster lists them first, since a caster
/// with no list is asked to choose or prepare.
pub fn learn_class_list(e: &mut Engine<SqliteStore>, id: &str) {
    use tabletop_engine::character::CharacterRef;
    use tabletop_engine::update::{CharacterPatch, UpdateRequest, update_character};
    let id = id.to_string();
    e.write("update_character", &serde_json::json!({}), |call| {
        let c = tabletop_engine::character::resolve(call, CharacterRef::new(Some(&id), None))?;
        let srd = call.compendium().expect("SRD configured");
        let top = tabletop_engine::magic::spellcasting::highest_castable(&c);
        let classes: Vec<String> = match &c.build {
            Some(b) if !b.classes.is_empty() => b
                .classes
                .iter()
                .filter_map(|k| srd.class(&k.class).map(|x| x.index.clone()))
                .collect(),
            _ => c
                .class
                .iter()
                .filter_map(|k| srd.class(k).map(|x| x.index.clone()))
                .collect(),
        };
        let spells: Vec<String> = srd
            .spells()
            .iter()
            .filter(|s| s.level <= top && s.classes.iter().any(|k| classes.contains(&k.index)))
            .map(|s| s.name.clone())
            .collect();
        update_character(
            call,
            CharacterRef::new(Some(&id), None),
            UpdateRequest {
                patch: CharacterPatch {
                    spells: Some(spells),
                    ..Default::default()
                },
                force: true,
                ..Default::default()
            },
        )
    })
    .expect("list the class's spells");
}

/// Adds `condition` to the character named `name` through `manage_condition` (no source, its
/// default duration).
pub fn add_condition(
    engine: &mut Engine<SqliteStore>,
    name: &str,
    condition: tabletop_rules::Condition,
) {
    engine
        .write("manage_condition", &serde_json::json!({}), |call| {
            tabletop_engine::conditions::manage_condition(
                call,
                tabletop_engine::character::CharacterRef::new(None, Some(name)),
                tabletop_engine::conditions::ConditionOp::Add {
                    condition,
                    level: None,
                    source: None,
                    duration: tabletop_engine::effects::DurationRequest::Default,
                    caster: None,
                },
            )
        })
        .expect("add condition");
}
