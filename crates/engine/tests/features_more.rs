//! Class features the engine applies through the real tools (skipped without TABLETOP_SRD_DIR),
//! pinned seeds: Evasion (rogue 7) against a Fireball from a Wand of Fireballs — a saved DEX save
//! takes nothing and a failed one half, where a fighter beside it takes half and all.

mod common;

use std::sync::Arc;

use tabletop_engine::character::{Character, CharacterRef};
use tabletop_engine::combat::actions::Who;
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{AbilityMethod, CreateMode, CreateRequest, create_character};
use tabletop_engine::inventory::attune::attune;
use tabletop_engine::inventory::ops::{self, GiveRequest, ItemRef};
use tabletop_engine::magic::item_cast::{ItemSpellRequest, cast_from_item};
use tabletop_engine::magic::scroll::Targeting;
use tabletop_engine::{Engine, EngineOptions, SqliteStore};
use tabletop_rules::Ability;
use tabletop_srd::Compendium;

type E = Engine<SqliteStore>;

fn engine(dir: &tempfile::TempDir, srd: &Arc<Compendium>, seed: u64) -> E {
    Engine::open(
        SqliteStore::open(&dir.path().join("f.sqlite")).unwrap(),
        "c",
        EngineOptions {
            seed: Some(seed),
            compendium: CompendiumSource::ready(srd.clone()),
        },
    )
    .unwrap()
}

fn make(e: &mut E, name: &str, class: &str, level: u32) {
    let req = CreateRequest {
        name: name.into(),
        class: Some(class.into()),
        level: Some(level),
        method: AbilityMethod::Manual,
        // STR DEX CON INT WIS CHA.
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([10, 16, 14, 12, 10, 10])
                .collect(),
        ),
        mode: CreateMode::Create,
        ..Default::default()
    };
    e.write("create_character", &serde_json::json!({}), |call| {
        create_character(call, req)
    })
    .unwrap();
}

fn character(e: &mut E, name: &str) -> Character {
    e.read(|call| tabletop_engine::characters::resolve(call, CharacterRef::new(None, Some(name))))
        .unwrap()
}

fn who(n: &str) -> Who {
    Who {
        id: None,
        name: Some(n.into()),
    }
}

/// Fireball (DC 15) from a wand on Vex (rogue 7, Evasion) and Brom (fighter 7): the damage
/// each took, whether each saved, and the shared roll.
fn fireball(seed: u64) -> ((bool, u32), (bool, u32), i64) {
    let srd = common::srd("evasion").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, seed);
    make(&mut e, "Aria", "wizard", 5);
    make(&mut e, "Vex", "rogue", 7);
    make(&mut e, "Brom", "fighter", 7);
    e.write("manage_inventory", &serde_json::json!({}), |call| {
        ops::give(
            call,
            CharacterRef::new(None, Some("Aria")),
            GiveRequest {
                srd_name: Some("Wand of Fireballs".into()),
                ..Default::default()
            },
        )?;
        attune(
            call,
            CharacterRef::new(None, Some("Aria")),
            ItemRef {
                id: None,
                name: Some("Wand of Fireballs"),
            },
        )
    })
    .unwrap();
    let hp = (character(&mut e, "Vex").hp, character(&mut e, "Brom").hp);
    let out = e
        .write("manage_inventory", &serde_json::json!({}), |call| {
            cast_from_item(
                call,
                ItemSpellRequest {
                    caster: who("Aria"),
                    item_name: Some("Wand of Fireballs".into()),
                    targeting: Targeting {
                        targets: vec![who("Vex"), who("Brom")],
                        ..Default::default()
                    },
                    ..Default::default()
                },
            )
        })
        .unwrap();
    let t = out.details["targets"].as_array().unwrap().clone();
    let saved = |i: usize| t[i]["saved"].as_bool().unwrap();
    let rolled: i64 = out
        .lines
        .iter()
        .find(|l| l.starts_with("Fireball damage: 8d6"))
        .and_then(|l| l.rsplit("= ").next())
        .and_then(|x| x.split_whitespace().next())
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("{:#?}", out.lines));
    (
        (saved(0), hp.0 - character(&mut e, "Vex").hp),
        (saved(1), hp.1 - character(&mut e, "Brom").hp),
        rolled,
    )
}

#[test]
fn evasion_takes_nothing_on_a_save_and_half_on_a_failure() {
    if common::srd("evasion").is_none() {
        return;
    }
    // Seed 3: 29 fire; Vex saves and takes nothing, Brom fails and takes 29.
    assert_eq!(fireball(3), ((true, 0), (false, 29), 29));
    // Seed 7: 33 fire; Vex fails and takes half (16), Brom saves and takes half (16).
    assert_eq!(fireball(7), ((false, 16), (true, 16), 33));
}

fn check(e: &mut E, who: &str, test: tabletop_rules::d20::D20Test, passive: bool) -> String {
    let req = tabletop_engine::checks::CheckRequest {
        test,
        passive,
        dc: Some(10),
        advantage: None,
        disadvantage: None,
        bonus: 0,
        reason: None,
        weapon: None,
        against: Default::default(),
    };
    e.write("roll_check", &serde_json::json!({}), |call| {
        tabletop_engine::checks::roll_check(call, CharacterRef::new(None, Some(who)), &req)
    })
    .unwrap()
    .summary()
}

/// Jack of All Trades (bard 2) adds half the proficiency bonus to every check it is not
/// proficient in, initiative included; Remarkable Athlete (champion 7) only to STR, DEX and
/// CON checks; a proficient skill keeps its full bonus.
#[test]
fn jack_of_all_trades_and_remarkable_athlete_add_half_proficiency() {
    use tabletop_rules::Skill;
    use tabletop_rules::d20::D20Test;
    let Some(srd) = common::srd("half_proficiency") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 5);
    make(&mut e, "Lark", "bard", 2);
    let req = CreateRequest {
        name: "Brom".into(),
        classes: vec![tabletop_engine::creation::ClassRequest {
            class: "fighter".into(),
            level: 7,
            subclass: Some("Champion".into()),
        }],
        method: AbilityMethod::Manual,
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([10, 16, 14, 12, 10, 10])
                .collect(),
        ),
        skills: vec![Skill::Athletics, Skill::Perception],
        ..Default::default()
    };
    e.write("create_character", &serde_json::json!({}), |call| {
        create_character(call, req)
    })
    .unwrap();
    let stealth = D20Test::SkillCheck {
        skill: Skill::Stealth,
    };
    let arcana = D20Test::SkillCheck {
        skill: Skill::Arcana,
    };
    let athletics = D20Test::SkillCheck {
        skill: Skill::Athletics,
    };
    // Bard 2 (proficiency +2): half is +1 on an unproficient skill, on a raw check and on
    // initiative.
    assert_eq!(
        check(&mut e, "Lark", arcana, true),
        "Lark — Passive Arcana: 10 + 1 + 1 = 12 vs DC 10 — success"
    );
    let strength = D20Test::AbilityCheck {
        ability: Ability::Strength,
    };
    assert_eq!(
        check(&mut e, "Lark", strength, true),
        "Lark — Passive Strength: 10 + 0 + 1 = 11 vs DC 10 — success"
    );
    assert_eq!(
        check(&mut e, "Lark", D20Test::Initiative, false),
        "Lark — Initiative: d20 [5] + 4 = 9 vs DC 10 — fail"
    );
    // Champion 7 (proficiency +3): +1 on Stealth (DEX), nothing on Arcana (INT); Athletics
    // keeps its full +3.
    assert_eq!(
        check(&mut e, "Brom", stealth, true),
        "Brom — Passive Stealth: 10 + 3 + 1 = 14 vs DC 10 — success"
    );
    assert_eq!(
        check(&mut e, "Brom", arcana, true),
        "Brom — Passive Arcana: 10 + 1 = 11 vs DC 10 — success"
    );
    assert_eq!(
        check(&mut e, "Brom", athletics, true),
        "Brom — Passive Athletics: 10 + 0 + 3 = 13 vs DC 10 — success"
    );
}
