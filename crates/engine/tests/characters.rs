//! Character use cases on a real SQLite file: creation rules, damage and healing, checks.

use super::common;

use std::collections::BTreeMap;

use tabletop_engine::character::{CharacterRef, ConditionEntry};
use tabletop_engine::checks::{CheckOutcome, CheckRequest, roll_check, roll_contest};
use tabletop_engine::creation::{AbilityMethod, CreateMode, CreateRequest, create_character};
use tabletop_engine::sheet::get_character;
use tabletop_engine::update::{HpChange, UpdateRequest, update_character};
use tabletop_engine::{Engine, EngineOptions, SqliteStore};
use tabletop_rules::d20::D20Test;
use tabletop_rules::damage::DamagePart;
use tabletop_rules::{Ability, CharacterType, Condition, DamageType, Skill};

fn engine(dir: &tempfile::TempDir) -> Engine<SqliteStore> {
    common::open(&dir.path().join("t.sqlite"), "main", Some(11))
}

fn scores(v: [i64; 6]) -> Option<BTreeMap<Ability, i64>> {
    Some(Ability::ALL.iter().copied().zip(v).collect())
}

fn update(
    e: &mut Engine<SqliteStore>,
    name: &str,
    req: UpdateRequest,
) -> tabletop_engine::update::UpdateOutcome {
    e.write("update_character", &serde_json::json!({}), |call| {
        update_character(call, CharacterRef::new(None, Some(name)), req)
    })
    .expect("update")
}

#[test]
fn point_buy_over_budget_is_refused_and_validate_lists_every_problem() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir);
    let req = CreateRequest {
        name: "Greedy".into(),
        method: AbilityMethod::PointBuy,
        scores: scores([16, 15, 15, 8, 8, 8]),
        level: Some(1),
        mode: CreateMode::Validate,
        ..Default::default()
    };
    let out = e
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(call, req.clone())
        })
        .unwrap();
    assert!(!out.stored);
    let all = out.problems.join(" | ");
    assert!(
        all.contains("STR 16 is above the point-buy maximum 15"),
        "{all}"
    );
    assert!(all.contains("of 27 points"), "{all}");
    let err = e
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(
                call,
                CreateRequest {
                    mode: CreateMode::Create,
                    ..req
                },
            )
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("validateOnly"), "{err}");
}

#[test]
fn standard_array_must_be_the_array_and_is_assigned_when_omitted() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir);
    let bad = CreateRequest {
        name: "Cheat".into(),
        method: AbilityMethod::StandardArray,
        scores: scores([15, 15, 13, 12, 10, 8]),
        mode: CreateMode::Validate,
        ..Default::default()
    };
    let out = e
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(call, bad)
        })
        .unwrap();
    assert!(
        !out.problems.is_empty(),
        "two 15s are not the standard array"
    );
    let auto = CreateRequest {
        name: "Auto".into(),
        method: AbilityMethod::StandardArray,
        ..Default::default()
    };
    let c = e
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(call, auto)
        })
        .unwrap()
        .character;
    let mut got = c.abilities.to_array().to_vec();
    got.sort_unstable();
    assert_eq!(got, vec![8, 10, 12, 13, 14, 15]);
}

#[test]
fn rolled_scores_are_4d6_drop_lowest_and_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir);
    let req = CreateRequest {
        name: "Lucky".into(),
        method: AbilityMethod::Roll,
        ..Default::default()
    };
    let out = e
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(call, req)
        })
        .unwrap();
    let rolled = out.rolled.expect("rolls reported");
    assert_eq!(rolled.rolls.len(), 6);
    for r in &rolled.rolls {
        let mut kept: Vec<u32> = r.dice.to_vec();
        kept.remove(r.dropped);
        assert!(
            r.dice.iter().all(|d| *d >= r.dice[r.dropped]),
            "the dropped die is a lowest one"
        );
        assert_eq!(u32::from(r.score), kept.iter().sum::<u32>());
    }
}

#[test]
fn preview_stores_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir);
    let req = CreateRequest {
        name: "Ghost".into(),
        mode: CreateMode::Preview,
        ..Default::default()
    };
    let out = e
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(call, req)
        })
        .unwrap();
    assert!(!out.stored);
    assert!(
        e.read(|call| get_character(call, CharacterRef::new(None, Some("Ghost"))))
            .is_err()
    );
}

#[test]
fn srd_class_and_race_feed_the_sheet() {
    let Some(srd) = common::srd("srd_class_and_race_feed_the_sheet") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("t.sqlite")).unwrap();
    let mut e = Engine::open(
        store,
        "main",
        EngineOptions {
            seed: Some(1),
            compendium: tabletop_engine::compendium::CompendiumSource::ready(srd),
        },
    )
    .unwrap();
    let req = CreateRequest {
        name: "Dain".into(),
        race: Some("Dwarf".into()),
        subrace: Some("hill dwarf".into()),
        class: Some("fighter".into()),
        level: Some(1),
        scores: scores([15, 14, 13, 12, 10, 8]),
        skills: vec![Skill::Athletics, Skill::Perception],
        ..Default::default()
    };
    let c = e
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(call, req)
        })
        .unwrap()
        .character;
    // Hill Dwarf: +2 CON (dwarf) and +1 WIS (hill dwarf).
    assert_eq!(c.abilities.get(Ability::Constitution), 15);
    assert_eq!(c.abilities.get(Ability::Wisdom), 11);
    assert_eq!(c.hit_die, 10);
    // Was 12 (a rules bug): Dwarven Toughness adds 1 per level.
    assert_eq!(
        c.max_hp,
        10 + 2 + 1,
        "d10 max + CON +2 + Dwarven Toughness 1"
    );
    assert_eq!(c.speed, 25);
    assert!(
        c.save_proficiencies.contains(&Ability::Strength)
            && c.save_proficiencies.contains(&Ability::Constitution)
    );
    // Wizard skills are checked against the class list.
    let bad = CreateRequest {
        name: "Wiz".into(),
        class: Some("wizard".into()),
        skills: vec![Skill::Stealth],
        mode: CreateMode::Validate,
        ..Default::default()
    };
    let out = e
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(call, bad)
        })
        .unwrap();
    assert!(
        out.problems
            .iter()
            .any(|p| p.contains("cannot choose stealth")),
        "{:?}",
        out.problems
    );
    // An unknown class suggests the closest.
    let typo = CreateRequest {
        name: "X".into(),
        class: Some("wizzard".into()),
        ..Default::default()
    };
    let err = e
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(call, typo)
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("Wizard"), "{err}");
}

#[test]
fn a_class_needs_the_compendium_or_a_custom_class() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir);
    let req = CreateRequest {
        name: "X".into(),
        class: Some("wizard".into()),
        ..Default::default()
    };
    let err = e
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(call, req)
        })
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("tabletop srd install") && err.contains("customClass"),
        "{err}"
    );
}

#[test]
fn damage_goes_through_resistance_and_temp_hp() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir);
    common::create(&mut e, common::fighter("Ember", [10, 10, 10, 10, 10, 10]));
    update(
        &mut e,
        "Ember",
        UpdateRequest {
            patch: tabletop_engine::update::CharacterPatch {
                resistances: Some(vec![DamageType::Fire]),
                max_hp: Some(30),
                ..Default::default()
            },
            hp: Some(HpChange::Set(30)),
            temp_hp: Some(4),
            ..Default::default()
        },
    );
    let out = update(
        &mut e,
        "Ember",
        UpdateRequest {
            damage: vec![
                DamagePart::new(Some(DamageType::Fire), 13),
                DamagePart::new(Some(DamageType::Slashing), 5),
            ],
            ..Default::default()
        },
    );
    // Fire 13 halved to 6, slashing 5: 11 total; 4 absorbed by temp HP; 30 → 23.
    let d = &out.damage[0];
    assert_eq!(d.total, 11);
    assert_eq!(d.temp_absorbed, 4);
    assert_eq!(out.character.hp, 23);
    assert_eq!(out.character.temp_hp, 0);
    // Temporary HP do not stack.
    let t = update(
        &mut e,
        "Ember",
        UpdateRequest {
            temp_hp: Some(5),
            ..Default::default()
        },
    );
    assert_eq!(t.character.temp_hp, 5);
    let t = update(
        &mut e,
        "Ember",
        UpdateRequest {
            temp_hp: Some(3),
            ..Default::default()
        },
    );
    assert_eq!(t.character.temp_hp, 5);
}

#[test]
fn a_pc_at_zero_falls_unconscious_and_healing_wakes_it_while_a_monster_dies() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir);
    common::create(&mut e, common::fighter("Hero", [10; 6]));
    let mut orc = common::fighter("Orc", [10; 6]);
    orc.kind = Some(CharacterType::Enemy);
    common::create(&mut e, orc);
    let out = update(
        &mut e,
        "Hero",
        UpdateRequest {
            hp: Some(HpChange::Damage(12)),
            ..Default::default()
        },
    );
    assert_eq!(out.character.hp, 0);
    assert!(out.character.has_condition(Condition::Unconscious));
    assert!(!out.character.dead);
    // The answer's sheet is the one after the change: unconscious, speed 0.
    assert_eq!((out.shown.speed, out.shown.max_hp), (0, 10));
    assert_eq!(out.shown.speed, out.character.effective().speed.value);
    // Damage at 0 HP from a critical hit: two failures.
    let out = update(
        &mut e,
        "Hero",
        UpdateRequest {
            hp: Some(HpChange::Damage(1)),
            critical: true,
            ..Default::default()
        },
    );
    assert_eq!(out.character.death_saves.failures, 2);
    let out = update(
        &mut e,
        "Hero",
        UpdateRequest {
            healing: Some(4),
            ..Default::default()
        },
    );
    assert_eq!(out.character.hp, 4);
    assert!(!out.character.has_condition(Condition::Unconscious));
    let speed = out.character.effective().speed.value;
    assert!(speed > 0);
    assert_eq!((out.shown.speed, out.shown.armor_class), (speed, 10));
    assert_eq!(out.character.death_saves.failures, 0);
    // Massive damage: 4 HP, 10 max, 14 damage leaves 10 over → dead.
    let out = update(
        &mut e,
        "Hero",
        UpdateRequest {
            hp: Some(HpChange::Damage(14)),
            ..Default::default()
        },
    );
    assert!(out.character.dead);
    let err = e
        .write("update_character", &serde_json::json!({}), |call| {
            update_character(
                call,
                CharacterRef::new(None, Some("Hero")),
                UpdateRequest {
                    healing: Some(5),
                    ..Default::default()
                },
            )
        })
        .unwrap_err()
        .to_string();
    assert!(err.to_lowercase().contains("dead"), "{err}");
    let orc = update(
        &mut e,
        "Orc",
        UpdateRequest {
            hp: Some(HpChange::Damage(12)),
            ..Default::default()
        },
    );
    assert!(orc.character.dead, "monsters and NPCs die at 0 HP");
}

#[test]
fn a_poisoned_character_rolls_checks_with_disadvantage_and_advantage_cancels_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir);
    let id = common::create(&mut e, common::fighter("Sick", [10, 14, 10, 10, 10, 10]));
    // Conditions are managed by their own tool; here the sheet is edited directly.
    e.write("test", &serde_json::json!({}), |call| {
        let campaign = call.campaign();
        let mut c = call.tx_ref().character(campaign, &id)?.expect("exists");
        c.conditions.push(ConditionEntry {
            by: None,
            ends_on: None,
            condition: Condition::Poisoned,
            level: None,
            source: "spider bite".into(),
            duration: None,
        });
        call.tx().put_character(campaign, &c)?;
        Ok(())
    })
    .unwrap();
    let check = |adv: Option<&str>| CheckRequest {
        dc: Some(12),
        advantage: adv.map(str::to_string),
        ..CheckRequest::of(D20Test::SkillCheck {
            skill: Skill::Acrobatics,
        })
    };
    let out = e
        .write("roll_check", &serde_json::json!({}), |call| {
            roll_check(call, CharacterRef::new(None, Some("sick")), &check(None))
        })
        .unwrap();
    let CheckOutcome::Rolled { outcome, .. } = out else {
        panic!("rolled")
    };
    assert_eq!(outcome.rolls.len(), 2, "disadvantage rolls two d20");
    assert_eq!(
        outcome.kept,
        outcome.rolls.iter().copied().min(),
        "and keeps the lower"
    );
    assert_eq!(outcome.total, outcome.kept.map(|k| k as i32 + 2));
    let out = e
        .write("roll_check", &serde_json::json!({}), |call| {
            roll_check(
                call,
                CharacterRef::new(None, Some("sick")),
                &check(Some("help")),
            )
        })
        .unwrap();
    let CheckOutcome::Rolled { outcome, .. } = out else {
        panic!("rolled")
    };
    assert_eq!(
        outcome.rolls.len(),
        1,
        "advantage and disadvantage cancel to one d20"
    );
}

#[test]
fn contests_and_ambiguous_names() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir);
    common::create(&mut e, common::fighter("Twin", [10; 6]));
    common::create(&mut e, common::fighter("Twin", [10; 6]));
    common::create(&mut e, common::fighter("Solo", [18, 10, 10, 10, 10, 10]));
    let err = e
        .read(|call| get_character(call, CharacterRef::new(None, Some("twin"))))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("matches 2 characters") && err.contains("characterId"),
        "{err}"
    );
    let err = e
        .read(|call| get_character(call, CharacterRef::new(None, Some("Sollo"))))
        .unwrap_err()
        .to_string();
    assert!(err.contains("did you mean 'Solo (ch3)'"), "{err}");
    let req = CheckRequest::of(D20Test::SkillCheck {
        skill: Skill::Athletics,
    });
    let out = e
        .write("roll_check", &serde_json::json!({}), |call| {
            roll_contest(
                call,
                (CharacterRef::new(None, Some("Solo")), &req),
                (CharacterRef::new(Some("ch1"), None), &req),
            )
        })
        .unwrap();
    let (a, b) = (out.first.total.unwrap(), out.second.total.unwrap());
    use tabletop_rules::d20::ContestWinner::*;
    let expected = if a > b {
        First
    } else if b > a {
        Second
    } else {
        Tie
    };
    assert_eq!(out.winner, expected);
}
