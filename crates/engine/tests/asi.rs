//! Ability Score Improvements as recorded choices, through create_character and level_up with
//! the SRD configured (skipped without TABLETOP_SRD_DIR): +2 to one ability, +1 to two or the
//! SRD's feat (Grappler), stored on the build (the rolled base scores untouched) and included in
//! the derived scores, capped at 20; missing choices are open choices, bad ones refused, and
//! validateOnly lists them.

use super::common;

use std::collections::BTreeMap;
use std::sync::Arc;

use tabletop_engine::character::{Character, CharacterRef};
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{
    AbilityMethod, CreateMode, CreateOutcome, CreateRequest, create_character,
};
use tabletop_engine::derive::asi::AsiChoice;
use tabletop_engine::levelling::{LevelHpMethod, level_up_choosing};
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_rules::Ability;
use tabletop_rules::hp::HpMethod;
use tabletop_srd::Compendium;

type E = Engine<SqliteStore>;

fn engine(dir: &tempfile::TempDir, srd: &Arc<Compendium>) -> E {
    Engine::open(
        SqliteStore::open(&dir.path().join("asi.sqlite")).unwrap(),
        "c",
        EngineOptions {
            seed: Some(2),
            compendium: CompendiumSource::ready(srd.clone()),
        },
    )
    .unwrap()
}

fn plus(pairs: &[(Ability, u8)]) -> AsiChoice {
    AsiChoice {
        abilities: pairs.iter().copied().collect::<BTreeMap<_, _>>(),
        feat: None,
    }
}

fn feat(f: &str) -> AsiChoice {
    AsiChoice {
        abilities: BTreeMap::new(),
        feat: Some(f.into()),
    }
}

fn fighter(
    name: &str,
    level: u32,
    str_score: i64,
    asi: Vec<AsiChoice>,
    mode: CreateMode,
) -> CreateRequest {
    CreateRequest {
        name: name.into(),
        class: Some("fighter".into()),
        level: Some(level),
        method: AbilityMethod::Manual,
        // STR DEX CON INT WIS CHA.
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([str_score, 12, 14, 10, 10, 8])
                .collect(),
        ),
        asi,
        mode,
        ..Default::default()
    }
}

fn create(e: &mut E, req: CreateRequest) -> Result<CreateOutcome, EngineError> {
    e.write("create_character", &serde_json::json!({}), |call| {
        create_character(call, req)
    })
}

fn character(e: &mut E, name: &str) -> Character {
    e.read(|call| tabletop_engine::characters::resolve(call, CharacterRef::new(None, Some(name))))
        .unwrap()
}

fn scores(c: &Character) -> Vec<u8> {
    let eff = c.effective();
    Ability::ALL.iter().map(|a| eff.score(*a)).collect()
}

#[test]
fn a_fighters_three_improvements_raise_the_derived_scores_and_take_a_feat() {
    let Some(srd) = common::srd("asi_fighter") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    // Fighter 8: improvements at 4 and 6 and 8.
    let out = create(
        &mut e,
        fighter(
            "Brakka",
            8,
            15,
            vec![
                plus(&[(Ability::Strength, 2)]),
                plus(&[(Ability::Dexterity, 1), (Ability::Constitution, 1)]),
                feat("Grappler"),
            ],
            CreateMode::Create,
        ),
    )
    .unwrap();
    assert!(out.problems.is_empty(), "{:?}", out.problems);
    assert!(
        !out.derivations
            .iter()
            .any(|l| l.contains("Ability Score Improvement")),
        "nothing open: {:#?}",
        out.derivations
    );
    let c = character(&mut e, "Brakka");
    assert_eq!(scores(&c), [17, 13, 15, 10, 10, 8]);
    let b = c.build.as_ref().unwrap();
    assert_eq!(
        Ability::ALL
            .iter()
            .map(|a| b.base_scores.get(*a))
            .collect::<Vec<_>>(),
        [15, 12, 14, 10, 10, 8],
        "the rolled scores stay as they were"
    );
    assert_eq!(b.choices.asi.len(), 3);
    let d = c.derived.as_ref().unwrap();
    let str_sources: Vec<(String, i32)> = d.ability_sources[&Ability::Strength]
        .iter()
        .map(|x| (x.source.to_string(), x.delta))
        .collect();
    assert_eq!(
        str_sources,
        [("Ability Score Improvement 1 (fighter)".to_string(), 2)]
    );
    assert!(
        d.features.iter().any(|f| f == "Feat: Grappler"),
        "{:?}",
        d.features
    );
    // CON 14 → 15 keeps the +2 modifier.
    assert_eq!(c.effective().modifier(Ability::Constitution), 2);
}

#[test]
fn missing_and_bad_choices_are_reported_and_the_cap_is_twenty() {
    let Some(srd) = common::srd("asi_problems") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    // validateOnly lists every bad choice.
    let out = create(
        &mut e,
        fighter(
            "Bad",
            8,
            15,
            vec![
                plus(&[(Ability::Strength, 3)]),
                plus(&[
                    (Ability::Strength, 1),
                    (Ability::Dexterity, 1),
                    (Ability::Wisdom, 1),
                ]),
                feat("Toughness"),
                plus(&[(Ability::Strength, 2)]),
            ],
            CreateMode::Validate,
        ),
    )
    .unwrap();
    assert_eq!(
        out.problems,
        [
            "asi 1: +3 STR is not +2 to one ability or +1 to two",
            "asi 2: +1 STR, +1 DEX, +1 WIS is not +2 to one ability or +1 to two",
            "asi 3: 'Toughness' is not a feat of the SRD (known: grappler)",
            "asi: 4 choice(s) for the 3 Ability Score Improvement(s) this build reaches",
        ]
    );
    // Create refuses them.
    let err = create(
        &mut e,
        fighter(
            "Bad",
            4,
            15,
            vec![plus(&[(Ability::Strength, 3)])],
            CreateMode::Create,
        ),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("asi 1: +3 STR is not +2 to one ability or +1 to two"),
        "{err}"
    );
    // One choice of three: the other two are open choices, said so.
    let out = create(
        &mut e,
        fighter(
            "Open",
            8,
            15,
            vec![plus(&[(Ability::Strength, 2)])],
            CreateMode::Create,
        ),
    )
    .unwrap();
    let open: Vec<&String> = out
        .derivations
        .iter()
        .filter(|l| l.contains("Ability Score Improvement"))
        .collect();
    assert_eq!(
        open,
        [
            "open choice: Ability Score Improvement 2 (fighter): choose it (asi: +2 to one ability, +1 to two, or a feat)",
            "open choice: Ability Score Improvement 3 (fighter): choose it (asi: +2 to one ability, +1 to two, or a feat)",
        ]
    );
    assert_eq!(scores(&character(&mut e, "Open"))[0], 17);
    // STR 19 + 2 stops at 20.
    let out = create(
        &mut e,
        fighter(
            "Strong",
            4,
            19,
            vec![plus(&[(Ability::Strength, 2)])],
            CreateMode::Create,
        ),
    )
    .unwrap();
    assert!(
        out.derivations
            .iter()
            .any(|l| l == "open choice: Ability Score Improvement 1 (fighter): +2 STR stops at 20 (+1 applied)"),
        "{:#?}",
        out.derivations
    );
    assert_eq!(scores(&character(&mut e, "Strong"))[0], 20);
}

#[test]
fn level_up_takes_the_choice_for_the_improvement_it_reaches() {
    let Some(srd) = common::srd("asi_level_up") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    create(&mut e, fighter("Ila", 3, 15, vec![], CreateMode::Create)).unwrap();
    let up = |e: &mut E, asi: Vec<AsiChoice>| {
        e.write("level_up", &serde_json::json!({}), |call| {
            level_up_choosing(
                call,
                CharacterRef::new(None, Some("Ila")),
                None,
                None,
                LevelHpMethod::Rules(HpMethod::Average),
                asi,
            )
        })
    };
    // 3 → 4 reaches an improvement: +1 STR +1 CON.
    let out = up(
        &mut e,
        vec![plus(&[(Ability::Strength, 1), (Ability::Constitution, 1)])],
    )
    .unwrap();
    assert_eq!(out.asi_levels, [4]);
    assert!(
        out.changes
            .iter()
            .any(|l| l == "Ability Score Improvement at level 4: +1 STR, +1 CON"),
        "{:#?}",
        out.changes
    );
    let c = character(&mut e, "Ila");
    assert_eq!(scores(&c), [16, 12, 15, 10, 10, 8]);
    // 4 → 5 reaches none: a choice is refused and nothing changes.
    let err = up(&mut e, vec![plus(&[(Ability::Strength, 2)])])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("1 choice(s) given, but the new levels reach only 0 Ability Score Improvement(s) without one"),
        "{err}"
    );
    assert_eq!(character(&mut e, "Ila").level, 4);
    // 4 → 5, then 5 → 6 without a choice: open, said so.
    up(&mut e, vec![]).unwrap();
    let out = up(&mut e, vec![]).unwrap();
    assert!(
        out.changes.iter().any(|l| l
            == "Ability Score Improvement at level 6: choose it with asi (+2 to one ability, +1 to two, or a feat); open until then"),
        "{:#?}",
        out.changes
    );
    let c = character(&mut e, "Ila");
    assert!(
        c.derived.as_ref().unwrap().choices.iter().any(|l| l
            == "Ability Score Improvement 2 (fighter): choose it (asi: +2 to one ability, +1 to two, or a feat)"),
        "{:?}",
        c.derived.as_ref().unwrap().choices
    );
}
