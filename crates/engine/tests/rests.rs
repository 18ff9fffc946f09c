//! Rests and experience through the real tools with SRD-built characters and pinned dice
//! (issue 16): hit dice per class for a multiclass character, no dice spent at full HP, a long
//! rest regaining half the total, XP kept on the sheet with the level it reaches.

use super::common;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::json;
use tabletop_engine::character::CharacterRef;
use tabletop_engine::creation::{ClassRequest, CreateRequest, create_character};
use tabletop_engine::rest::{RestKind, take_rest};
use tabletop_engine::update::{CharacterPatch, UpdateRequest, XpChange, update_character};
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_rules::Ability;
use tabletop_srd::Compendium;

fn engine(srd: Arc<Compendium>, dir: &tempfile::TempDir) -> Engine<SqliteStore> {
    let store = SqliteStore::open(&dir.path().join("t.sqlite")).unwrap();
    Engine::open(
        store,
        "main",
        EngineOptions {
            seed: Some(4),
            compendium: tabletop_engine::compendium::CompendiumSource::ready(srd),
        },
    )
    .unwrap()
}

fn scores(v: [i64; 6]) -> Option<BTreeMap<Ability, i64>> {
    Some(Ability::ALL.iter().copied().zip(v).collect())
}

fn rest(
    e: &mut Engine<SqliteStore>,
    id: &str,
    kind: RestKind,
    dice: u32,
) -> Result<tabletop_engine::rest::RestOutcome, EngineError> {
    e.write("take_rest", &json!({}), |call| {
        take_rest(call, CharacterRef::new(Some(id), None), kind, dice)
    })
}

fn set_hp(e: &mut Engine<SqliteStore>, id: &str, hp: u32) {
    e.write("update_character", &json!({}), |call| {
        update_character(
            call,
            CharacterRef::new(Some(id), None),
            UpdateRequest {
                hp: Some(tabletop_engine::update::HpChange::Set(hp)),
                ..Default::default()
            },
        )
    })
    .unwrap();
}

fn xp(e: &mut Engine<SqliteStore>, id: &str, x: XpChange) -> Vec<String> {
    e.write("update_character", &json!({}), |call| {
        update_character(
            call,
            CharacterRef::new(Some(id), None),
            UpdateRequest {
                patch: CharacterPatch {
                    xp: Some(x),
                    ..Default::default()
                },
                ..Default::default()
            },
        )
    })
    .unwrap()
    .changes
}

fn multiclass(e: &mut Engine<SqliteStore>) -> String {
    e.write("create_character", &json!({}), |call| {
        create_character(
            call,
            CreateRequest {
                name: "Vex".into(),
                race: Some("human".into()),
                scores: scores([15, 10, 14, 10, 14, 8]),
                classes: vec![
                    ClassRequest {
                        class: "fighter".into(),
                        level: 3,
                        subclass: None,
                    },
                    ClassRequest {
                        class: "cleric".into(),
                        level: 2,
                        subclass: None,
                    },
                ],
                ..Default::default()
            },
        )
    })
    .unwrap()
    .character
    .id
}

#[test]
fn short_rest_spends_hit_dice_per_class_and_none_at_full_hp() {
    let Some(srd) = common::srd("rest_hit_dice_per_class") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(srd, &dir);
    let id = multiclass(&mut e);
    let c = e
        .read(|call| tabletop_engine::combat::sheet(call, &id))
        .unwrap();
    // Human CON 14 + 1 = 15 (+2): fighter 3 (10 + 6 + 6) + cleric 2 (5 + 5) + CON 2 × 5.
    assert_eq!(c.max_hp, 42);
    assert_eq!(c.hit_dice, 5);
    // At full HP nothing is spent, and the answer says so.
    let out = rest(&mut e, &id, RestKind::Short, 2).unwrap();
    assert!(out.hit_dice_rolls.is_empty());
    assert_eq!(out.hit_dice_left, 5);
    assert!(
        out.changes
            .contains(&"Vex is at full HP (42/42): 2 hit dice not spent".to_string()),
        "{:?}",
        out.changes
    );
    // Hurt: the d10s go first, then the d8s.
    set_hp(&mut e, &id, 1);
    let out = rest(&mut e, &id, RestKind::Short, 4).unwrap();
    assert_eq!(out.hit_dice_rolls.len(), 4);
    let line = out
        .changes
        .iter()
        .find(|l| l.starts_with("Vex spends 4 hit dice"))
        .unwrap();
    let faces: Vec<&str> = line
        .split(": ")
        .nth(1)
        .unwrap()
        .split(", ")
        .map(|p| p.split(' ').next().unwrap())
        .collect();
    assert_eq!(faces, vec!["d10", "d10", "d10", "d8"], "{line}");
    let healed: u32 = out.hit_dice_rolls.iter().map(|r| r.healing).sum();
    assert_eq!(out.hp_after, 1 + healed);
    assert_eq!(out.hit_dice_left, 1);
    assert!(
        out.changes
            .contains(&"hit dice: 3d10 fighter (0 left), 2d8 cleric (1 left)".to_string()),
        "{:?}",
        out.changes
    );
    // The last d8 goes; then none are left.
    set_hp(&mut e, &id, 1);
    let out = rest(&mut e, &id, RestKind::Short, 1).unwrap();
    assert_eq!(out.hit_dice_left, 0);
    let hp = out.hp_after;
    let err = rest(&mut e, &id, RestKind::Short, 1)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("Vex has 0 hit dice (d10) left, not 1"),
        "{err}"
    );
    // A long rest regains half the total (5 / 2 = 2), the largest dice first.
    let out = rest(&mut e, &id, RestKind::Long, 0).unwrap();
    assert_eq!(out.hit_dice_left, 2);
    assert!(
        out.changes.iter().any(|l| *l
            == format!("HP {hp} → 42; regains 2d10 fighter hit dice (2/5 left: 3d10 fighter (2 left), 2d8 cleric (0 left))")),
        "{:?}",
        out.changes
    );
}

#[test]
fn xp_is_kept_on_the_sheet_and_says_when_the_character_can_level() {
    let Some(srd) = common::srd("xp_on_sheet") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(srd, &dir);
    let id = e
        .write("create_character", &json!({}), |call| {
            create_character(
                call,
                CreateRequest {
                    name: "Ada".into(),
                    class: Some("wizard".into()),
                    level: Some(2),
                    scores: scores([8, 14, 12, 16, 12, 10]),
                    ..Default::default()
                },
            )
        })
        .unwrap()
        .character
        .id;
    assert_eq!(xp(&mut e, &id, XpChange::Add(450)), vec!["XP 0 → 450"]);
    let d = e
        .read(|call| tabletop_engine::combat::sheet(call, &id))
        .unwrap()
        .derived
        .unwrap();
    assert_eq!(
        (d.xp, d.next_level_xp, d.can_level_to),
        (450, Some(900), None)
    );
    assert_eq!(xp(&mut e, &id, XpChange::Add(2_300)), vec!["XP 450 → 2750"]);
    let d = e
        .read(|call| tabletop_engine::combat::sheet(call, &id))
        .unwrap()
        .derived
        .unwrap();
    assert_eq!(d.can_level_to, Some(4));
    assert!(
        d.choices.contains(
            &"XP 2750 reaches level 4: level up with level_up (2 levels to gain)".to_string()
        ),
        "{:?}",
        d.choices
    );
    // Kept across reads and level-ups.
    e.write("level_up", &json!({}), |call| {
        tabletop_engine::levelling::level_up(
            call,
            CharacterRef::new(Some(&id), None),
            Some(4),
            tabletop_engine::levelling::LevelHpMethod::Rules(tabletop_rules::hp::HpMethod::Average),
        )
    })
    .unwrap();
    let d = e
        .read(|call| tabletop_engine::combat::sheet(call, &id))
        .unwrap()
        .derived
        .unwrap();
    assert_eq!(
        (d.xp, d.next_level_xp, d.can_level_to),
        (2_750, Some(6_500), None)
    );
    assert_eq!(xp(&mut e, &id, XpChange::Set(100)), vec!["XP 2750 → 100"]);
}
