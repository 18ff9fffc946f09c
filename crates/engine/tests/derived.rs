//! Characters derived from their sources (DESIGN §4a, issue 16), through the real use cases
//! with the SRD configured: SRD-built characters, exact numbers, SRD facts read from the data.

use super::common;

use std::collections::BTreeMap;
use std::sync::Arc;

use tabletop_engine::character::CharacterRef;
use tabletop_engine::conditions::{ConditionOp, manage_condition};
use tabletop_engine::creation::{ClassRequest, CreateOutcome, CreateRequest, create_character};
use tabletop_engine::effects::DurationRequest;
use tabletop_engine::levelling::{LevelHpMethod, level_up, level_up_in};
use tabletop_engine::sheet::get_character;
use tabletop_engine::update::{CharacterPatch, UpdateRequest, update_character};
use tabletop_engine::{Engine, EngineOptions, SqliteStore};
use tabletop_rules::abilities::ProficiencyLevel;
use tabletop_rules::hp::HpMethod;
use tabletop_rules::{Ability, Condition, DamageType, Skill};
use tabletop_srd::Compendium;

fn engine(dir: &tempfile::TempDir, srd: Arc<Compendium>) -> Engine<SqliteStore> {
    let store = SqliteStore::open(&dir.path().join("t.sqlite")).unwrap();
    Engine::open(
        store,
        "main",
        EngineOptions {
            seed: Some(5),
            compendium: tabletop_engine::compendium::CompendiumSource::ready(srd),
        },
    )
    .unwrap()
}

fn scores(v: [i64; 6]) -> Option<BTreeMap<Ability, i64>> {
    Some(Ability::ALL.iter().copied().zip(v).collect())
}

fn create(e: &mut Engine<SqliteStore>, req: CreateRequest) -> CreateOutcome {
    e.write("create_character", &serde_json::json!({}), |call| {
        create_character(call, req)
    })
    .expect("create")
}

fn sheet(e: &mut Engine<SqliteStore>, name: &str) -> tabletop_engine::sheet::Sheet {
    e.read(|call| get_character(call, CharacterRef::new(None, Some(name))))
        .expect("get")
}

fn build(
    name: &str,
    race: Option<&str>,
    sub: Option<&str>,
    class: &str,
    level: u32,
) -> CreateRequest {
    CreateRequest {
        name: name.into(),
        race: race.map(str::to_string),
        subrace: sub.map(str::to_string),
        class: Some(class.into()),
        level: Some(level),
        ..Default::default()
    }
}

/// A Wisdom check `name` rolls now (the check reads the sheet kept with the stored character).
fn wis_check(e: &mut Engine<SqliteStore>, name: &str) -> tabletop_rules::d20::D20Outcome {
    use tabletop_engine::checks::{CheckOutcome, CheckRequest, roll_check};
    let req = CheckRequest::of(tabletop_rules::d20::D20Test::AbilityCheck {
        ability: Ability::Wisdom,
    });
    let who = CharacterRef::new(None, Some(name));
    match e.write("roll_check", &serde_json::json!({}), |call| {
        roll_check(call, who, &req)
    }) {
        Ok(CheckOutcome::Rolled { outcome, .. }) => outcome,
        other => panic!("{other:?}"),
    }
}

fn counter(srd: &Compendium, class: &str, level: u8, key: &str) -> i64 {
    srd.class_level(class, level).unwrap().class_specific[key]
        .as_i64()
        .unwrap()
}

#[test]
fn hill_dwarf_fighter_gets_toughness_resilience_darkvision_and_heavy_armor_speed() {
    let Some(srd) = common::srd("hill_dwarf") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, srd.clone());
    let out = create(
        &mut e,
        CreateRequest {
            scores: scores([15, 12, 14, 10, 12, 8]),
            skills: vec![Skill::Athletics, Skill::Perception],
            ..build("Dain", Some("dwarf"), Some("hill dwarf"), "fighter", 1)
        },
    );
    let c = out.character;
    // CON 14 + 2 (dwarf) = 16 (+3): d10 max 10 + 3 + 1 (Dwarven Toughness) = 14.
    assert_eq!(c.abilities.get(Ability::Constitution), 16);
    assert_eq!(c.max_hp, 14);
    assert_eq!(c.hp, 14);
    assert_eq!(c.speed, 25, "the SRD dwarf's speed");
    let s = sheet(&mut e, "Dain");
    let eff = &s.effective;
    assert_eq!(eff.max_hp.value, 14);
    let poison: Vec<&str> = eff
        .defenses
        .resistances
        .iter()
        .filter(|d| d.damage_type == Some(DamageType::Poison))
        .map(|d| d.source.as_str())
        .collect();
    assert_eq!(poison, vec!["Dwarven Resilience (hill dwarf)"]);
    assert!(
        eff.notes
            .iter()
            .any(|n| n.source == "Dwarven Resilience (hill dwarf)"
                && n.text == "advantage on saving throws against poison"),
        "{:?}",
        eff.notes
    );
    let d = s.character.derived.as_ref().unwrap();
    assert_eq!(d.senses[0].value, ("darkvision".to_string(), 60));
    assert!(
        d.max_hp_sources
            .iter()
            .any(|x| x.source.starts_with("Dwarven Toughness") && x.delta == 1),
        "{:?}",
        d.max_hp_sources
    );
    // Dwarven Combat Training: proficiencies read from the SRD trait data.
    assert!(d.proficiencies.iter().any(|p| p.value == "battleaxes"));
    // Level 2 by average: d10 average 6 + CON 3 + 1 toughness = +10.
    let up = e
        .write("level_up", &serde_json::json!({}), |call| {
            level_up(
                call,
                CharacterRef::new(None, Some("Dain")),
                None,
                LevelHpMethod::Rules(HpMethod::Average),
            )
        })
        .unwrap();
    assert_eq!(up.to_level, 2);
    let s = sheet(&mut e, "Dain");
    assert_eq!(s.character.max_hp, 24);
    assert_eq!(s.character.hp, 24);
    // Action Surge at fighter 2: uses from the SRD level table.
    let surge = s
        .character
        .resources
        .iter()
        .find(|r| r.name == "Action Surge")
        .unwrap();
    assert_eq!(
        i64::from(surge.max),
        counter(&srd, "fighter", 2, "action_surges")
    );
    assert_eq!(surge.max, 1);
}

#[test]
fn elf_acolyte_half_elf_and_fighter_skills_come_from_their_sources() {
    let Some(srd) = common::srd("skills") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, srd);
    // Elf wizard acolyte: Perception (Keen Senses), Insight and Religion (acolyte).
    let out = create(
        &mut e,
        CreateRequest {
            background: Some("acolyte".into()),
            scores: scores([8, 14, 12, 15, 13, 10]),
            skills: vec![Skill::Arcana, Skill::History],
            ..build("Ilya", Some("elf"), Some("high elf"), "wizard", 1)
        },
    );
    let c = out.character;
    let d = c.derived.as_ref().unwrap();
    for (skill, source) in [
        (Skill::Perception, "Keen Senses (elf)"),
        (Skill::Insight, "background: Acolyte"),
        (Skill::Religion, "background: Acolyte"),
        (Skill::Arcana, "class: Wizard (chosen)"),
        (Skill::History, "class: Wizard (chosen)"),
    ] {
        assert_eq!(d.skills[&skill].source, source, "{skill:?}");
        assert_eq!(c.skills[&skill], ProficiencyLevel::Proficient);
    }
    assert_eq!(c.skills.len(), 5);
    // Wisdom 13, proficiency +2: Perception +3, passive 13.
    let s = sheet(&mut e, "Ilya");
    assert_eq!(s.effective.skills[&Skill::Perception].bonus, 3);
    assert_eq!(s.effective.passive_perception.value, 13);

    // Half-elf: +2 CHA and the two +1s chosen; two skills of free choice.
    let out = create(
        &mut e,
        CreateRequest {
            scores: scores([10, 14, 13, 10, 12, 15]),
            ability_choices: vec![Ability::Dexterity, Ability::Constitution],
            skills: vec![
                Skill::Persuasion,
                Skill::Deception,
                Skill::Stealth,
                Skill::Perception,
            ],
            ..build("Sela", Some("half-elf"), None, "sorcerer", 1)
        },
    );
    assert!(out.problems.is_empty(), "{:?}", out.problems);
    let c = out.character;
    assert_eq!(c.abilities.get(Ability::Charisma), 17);
    assert_eq!(c.abilities.get(Ability::Dexterity), 15);
    assert_eq!(c.abilities.get(Ability::Constitution), 14);
    assert_eq!(c.skills.len(), 4);
    // Without choices: chosen for the player, and the answer says so.
    let out = create(
        &mut e,
        CreateRequest {
            scores: scores([10, 14, 13, 10, 12, 15]),
            ..build("Tavi", Some("half-elf"), None, "fighter", 1)
        },
    );
    let c = &out.character;
    assert_eq!(c.abilities.get(Ability::Dexterity), 15);
    assert_eq!(c.abilities.get(Ability::Constitution), 14);
    assert!(
        out.derivations
            .iter()
            .any(|l| l
                == "Half-Elf: +1 to DEX and CON chosen for you (give abilityChoices to choose)"),
        "{:?}",
        out.derivations
    );
    // Fighter: 2 class skills + 2 free ones = 4, all said.
    assert_eq!(c.skills.len(), 4, "{:?}", c.skills);
    assert!(
        out.derivations
            .iter()
            .any(|l| l.starts_with("Fighter skills chosen for you: ")),
        "{:?}",
        out.derivations
    );
}

#[test]
fn unarmored_defense_fast_movement_unarmored_movement_and_resources() {
    let Some(srd) = common::srd("unarmored") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, srd.clone());
    // Barbarian 1, DEX 14, CON 16: 10 + 2 + 3 = 15.
    create(
        &mut e,
        CreateRequest {
            scores: scores([16, 14, 16, 8, 10, 10]),
            ..build("Ugra", None, None, "barbarian", 1)
        },
    );
    let s = sheet(&mut e, "Ugra");
    assert_eq!(s.effective.armor_class.value, 15);
    assert_eq!(
        s.effective.armor_class.base_source.as_deref(),
        Some("Unarmored Defense (barbarian 1): 10 + DEX + CON")
    );
    let rage = s
        .character
        .resources
        .iter()
        .find(|r| r.name == "Rage")
        .unwrap();
    assert_eq!(
        i64::from(rage.max),
        counter(&srd, "barbarian", 1, "rage_count")
    );
    assert_eq!((rage.max, rage.current), (2, 2));
    assert_eq!(s.effective.speed.value, 30);
    // Barbarian 5: Fast Movement +10 without heavy armor.
    create(
        &mut e,
        CreateRequest {
            scores: scores([16, 14, 16, 8, 10, 10]),
            ..build("Brak", None, None, "barbarian", 5)
        },
    );
    let s = sheet(&mut e, "Brak");
    assert_eq!(s.effective.speed.value, 40);
    assert_eq!(
        s.character
            .resources
            .iter()
            .find(|r| r.name == "Rage")
            .unwrap()
            .max,
        3
    );
    // Monk 2, DEX 16, WIS 16: 10 + 3 + 3 = 16; Unarmored Movement +10; Ki 2 (short rest).
    create(
        &mut e,
        CreateRequest {
            scores: scores([10, 16, 12, 8, 16, 8]),
            ..build("Lin", None, None, "monk", 2)
        },
    );
    let s = sheet(&mut e, "Lin");
    assert_eq!(s.effective.armor_class.value, 16);
    assert_eq!(s.effective.speed.value, 40);
    let ki = s
        .character
        .resources
        .iter()
        .find(|r| r.name == "Ki")
        .unwrap();
    assert_eq!(i64::from(ki.max), counter(&srd, "monk", 2, "ki_points"));
    assert_eq!(ki.recharge, tabletop_engine::character::Recharge::Short);
    let d = s.character.derived.as_ref().unwrap();
    assert_eq!(d.martial_arts, Some((1, 4)));
    // Rogue 3: Sneak Attack 2d6 from the table; paladin 1: Lay on Hands 5.
    let c = create(
        &mut e,
        CreateRequest {
            scores: scores([10, 16, 12, 8, 14, 10]),
            ..build("Nim", None, None, "rogue", 3)
        },
    )
    .character;
    let sa = &c.derived.as_ref().unwrap().riders[0];
    assert_eq!(
        (sa.name.as_str(), sa.count, sa.faces),
        ("Sneak Attack", 2, 6)
    );
    assert_eq!(
        c.skills
            .values()
            .filter(|l| **l == ProficiencyLevel::Expertise)
            .count(),
        2
    );
    let c = create(
        &mut e,
        CreateRequest {
            scores: scores([16, 10, 14, 8, 10, 14]),
            ..build("Ser", None, None, "paladin", 1)
        },
    )
    .character;
    let loh = c
        .resources
        .iter()
        .find(|r| r.name == "Lay on Hands")
        .unwrap();
    assert_eq!(loh.max, 5);
}

#[test]
fn tiefling_and_dragonborn_resistances() {
    let Some(srd) = common::srd("resist") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, srd);
    let c = create(&mut e, build("Ash", Some("tiefling"), None, "warlock", 1)).character;
    assert!(c.resistances.contains(&DamageType::Fire));
    let c = create(
        &mut e,
        CreateRequest {
            draconic_ancestry: Some("blue".into()),
            ..build("Vor", Some("dragonborn"), None, "fighter", 1)
        },
    )
    .character;
    assert_eq!(
        c.resistances.iter().copied().collect::<Vec<_>>(),
        vec![DamageType::Lightning]
    );
}

#[test]
fn con_change_at_level_3_changes_max_hp_and_exhaustion_4_clamps_hp() {
    let Some(srd) = common::srd("con") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, srd);
    // Fighter 3, CON 14: 10 + 2 + 2 × (6 + 2) = 28.
    let c = create(
        &mut e,
        CreateRequest {
            scores: scores([16, 12, 14, 10, 10, 8]),
            ..build("Rook", None, None, "fighter", 3)
        },
    )
    .character;
    assert_eq!(c.max_hp, 28);
    let out = e
        .write("update_character", &serde_json::json!({}), |call| {
            update_character(
                call,
                CharacterRef::new(None, Some("Rook")),
                UpdateRequest {
                    patch: CharacterPatch {
                        stats: Some([(Ability::Constitution, 18)].into_iter().collect()),
                        ..Default::default()
                    },
                    ..Default::default()
                },
            )
        })
        .unwrap();
    // CON 18: 10 + 4 + 2 × (6 + 4) = 34.
    assert_eq!(out.character.max_hp, 34);
    assert_eq!(out.character.hp, 34);
    assert!(
        out.changes.iter().any(|l| l.starts_with("max HP 28 → 34")),
        "{:?}",
        out.changes
    );
    let s = sheet(&mut e, "Rook");
    assert_eq!(s.effective.max_hp.value, 34);
    assert_eq!(
        s.character.build.as_ref().unwrap().ability_changes[&Ability::Constitution],
        4
    );
    // Exhaustion 4 halves max HP (17) and HP follows.
    e.write("manage_condition", &serde_json::json!({}), |call| {
        manage_condition(
            call,
            CharacterRef::new(None, Some("Rook")),
            ConditionOp::Add {
                condition: Condition::Exhaustion,
                level: Some(4),
                source: None,
                duration: DurationRequest::Default,
                caster: None,
            },
        )
    })
    .unwrap();
    let s = sheet(&mut e, "Rook");
    assert_eq!(s.effective.max_hp.value, 17);
    assert_eq!(s.character.hp, 17);
}

#[test]
fn an_old_sheet_is_converted_on_read_and_keeps_its_numbers() {
    let Some(srd) = common::srd("legacy") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, srd);
    let mut c = create(
        &mut e,
        CreateRequest {
            scores: scores([15, 12, 13, 10, 12, 8]),
            skills: vec![Skill::Athletics, Skill::Survival],
            ..build("Old", Some("dwarf"), Some("hill dwarf"), "fighter", 3)
        },
    )
    .character;
    // As the earlier code stored it: racial bonuses in the scores, 12 + 2 × 7 = 26 HP without
    // Dwarven Toughness, a hand-set AC, no build.
    c.build = None;
    c.derived = None;
    c.max_hp = 26;
    c.hp = 20;
    c.armor_class = 16;
    c.armor_source = "as given".into();
    c.resistances.clear();
    c.resources.clear();
    e.write("seed", &serde_json::json!({}), |call| {
        let campaign = call.campaign();
        Ok(call.tx().put_character(campaign, &c)?)
    })
    .unwrap();
    let s = sheet(&mut e, "Old");
    let b = s.character.build.as_ref().expect("converted");
    assert_eq!(
        b.base_scores.get(Ability::Constitution),
        13,
        "racial +2 taken out"
    );
    assert_eq!(s.character.abilities.get(Ability::Constitution), 15);
    // 26 kept, + 3 for Dwarven Toughness the old code never added.
    assert_eq!(s.character.max_hp, 29);
    assert_eq!(s.character.hp, 20);
    assert_eq!(s.effective.armor_class.value, 16);
    assert!(s.character.resistances.contains(&DamageType::Poison));
    assert!(s.character.skills.contains_key(&Skill::Survival));
    // A source change still follows: CON 15 → 17 adds 3 × 1.
    let out = e
        .write("update_character", &serde_json::json!({}), |call| {
            update_character(
                call,
                CharacterRef::new(None, Some("Old")),
                UpdateRequest {
                    patch: CharacterPatch {
                        stats: Some([(Ability::Constitution, 17)].into_iter().collect()),
                        ..Default::default()
                    },
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(out.character.max_hp, 32);
}

#[test]
fn level_up_refuses_stat_block_creatures() {
    let Some(srd) = common::srd("statblock") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, srd);
    create(
        &mut e,
        CreateRequest {
            name: "Gob".into(),
            from_monster: Some("goblin".into()),
            ..Default::default()
        },
    );
    let err = e
        .write("level_up", &serde_json::json!({}), |call| {
            level_up(
                call,
                CharacterRef::new(None, Some("Gob")),
                None,
                LevelHpMethod::Rules(HpMethod::Average),
            )
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("stat-block creature (goblin)"), "{err}");
}

#[test]
fn multiclass_by_the_srd_rules() {
    let Some(srd) = common::srd("multiclass") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, srd.clone());
    let classes = |w_int: i64| CreateRequest {
        name: format!("Mara{w_int}"),
        classes: vec![
            ClassRequest {
                class: "fighter".into(),
                level: 1,
                subclass: None,
            },
            ClassRequest {
                class: "wizard".into(),
                level: 2,
                subclass: None,
            },
        ],
        scores: scores([14, 13, 14, w_int, 10, 8]),
        ..Default::default()
    };
    // INT 10 misses the wizard's prerequisite (read from the SRD's multiclassing data).
    let wiz = srd.class("wizard").unwrap();
    assert_eq!(wiz.multiclassing.prerequisites[0].minimum, 13);
    let out = e
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(
                call,
                CreateRequest {
                    mode: tabletop_engine::creation::CreateMode::Validate,
                    ..classes(10)
                },
            )
        })
        .unwrap();
    assert_eq!(
        out.problems,
        vec!["Wizard needs INT 13 (has 10)".to_string()]
    );
    let c = create(&mut e, classes(14)).character;
    assert_eq!(c.level, 3);
    // d10 max 10 + two wizard levels at the d6 average 4, CON +2 × 3 = 24.
    assert_eq!(c.max_hp, 24);
    assert_eq!(
        c.save_proficiencies.iter().copied().collect::<Vec<_>>(),
        vec![Ability::Strength, Ability::Constitution],
        "only the first class gives saves"
    );
    // Caster level 2 on the full-caster table: three 1st-level slots.
    assert_eq!(c.spell_slots.max[0], 3);
    let d = c.derived.as_ref().unwrap();
    assert_eq!(
        d.hit_dice.iter().map(|h| h.value).collect::<Vec<_>>(),
        vec![(10, 1), (6, 2)]
    );
    // A level in rogue: DEX 13 met; d8 average 5 + CON 2; rogue multiclass proficiencies.
    let up = e
        .write("level_up", &serde_json::json!({}), |call| {
            level_up_in(
                call,
                CharacterRef::new(None, Some("Mara14")),
                Some("rogue"),
                None,
                LevelHpMethod::Rules(HpMethod::Average),
            )
        })
        .unwrap();
    assert!(
        up.changes
            .iter()
            .any(|l| l == "classes: Fighter 1 / Wizard 2 / Rogue 1"),
        "{:?}",
        up.changes
    );
    assert!(
        up.features_gained.contains(&"Sneak Attack".to_string()),
        "{:?}",
        up.features_gained
    );
    let s = sheet(&mut e, "Mara14");
    assert_eq!(s.character.max_hp, 31);
    assert_eq!(s.character.level, 4);
    let d = s.character.derived.as_ref().unwrap();
    assert!(
        d.proficiencies
            .iter()
            .any(|p| p.value == "Thieves' Tools" && p.source == "class: Rogue (multiclass)"),
        "{:?}",
        d.proficiencies
    );
    // STR 14, DEX 13: no barbarian without... barbarian needs STR 13: fine; monk needs WIS 13.
    let err = e
        .write("level_up", &serde_json::json!({}), |call| {
            level_up_in(
                call,
                CharacterRef::new(None, Some("Mara14")),
                Some("monk"),
                None,
                LevelHpMethod::Rules(HpMethod::Average),
            )
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("Monk needs WIS 13 (has 10)"), "{err}");
}

#[test]
fn the_catalog_covers_every_srd_trait_feature_background_and_feat() {
    let Some(srd) = common::srd("catalog") else {
        return;
    };
    let cat = tabletop_engine::catalog::Catalog::get();
    let mut missing = Vec::new();
    for t in srd.traits() {
        if !cat.traits.contains_key(&t.index) {
            missing.push(format!("trait {}", t.index));
        }
    }
    for f in srd.features() {
        if !cat.features.contains_key(&f.index) {
            missing.push(format!("feature {}", f.index));
        }
    }
    for b in srd.backgrounds() {
        if !cat.backgrounds.contains_key(&b.index) {
            missing.push(format!("background {}", b.index));
        }
    }
    for f in srd.feats() {
        if !cat.feats.contains_key(&f.index) {
            missing.push(format!("feat {}", f.index));
        }
    }
    assert!(
        missing.is_empty(),
        "not encoded nor marked narrative: {missing:?}"
    );
    // And nothing in the catalog names an index the SRD does not have (a typo would be silent).
    let mut unknown = Vec::new();
    for k in cat.traits.keys() {
        if !srd.traits().iter().any(|t| &t.index == k) {
            unknown.push(format!("trait {k}"));
        }
    }
    for k in cat.features.keys() {
        if !srd.features().iter().any(|t| &t.index == k) {
            unknown.push(format!("feature {k}"));
        }
    }
    for k in cat.races.keys() {
        if !srd.races().iter().any(|t| &t.index == k) {
            unknown.push(format!("race {k}"));
        }
    }
    assert!(
        unknown.is_empty(),
        "catalog keys the SRD lacks: {unknown:?}"
    );
    let total = cat.traits.len() + cat.features.len() + cat.backgrounds.len() + cat.feats.len();
    let narrative = cat
        .traits
        .values()
        .chain(cat.features.values())
        .chain(cat.backgrounds.values())
        .chain(cat.feats.values())
        .filter(|e| e.narrative.is_some())
        .count();
    eprintln!(
        "catalog: {total} entries, {} mechanical, {narrative} narrative",
        total - narrative
    );
}

#[test]
fn every_class_at_levels_1_5_11_matches_the_srd_tables() {
    let Some(srd) = common::srd("levels") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, srd.clone());
    for class in srd.classes() {
        for level in [1u32, 5, 11] {
            let name = format!("{} {level}", class.name);
            let c = create(
                &mut e,
                CreateRequest {
                    scores: scores([14, 14, 14, 14, 14, 14]),
                    ..build(&name, None, None, &class.index, level)
                },
            )
            .character;
            let row = srd.class_level(&class.index, level as u8).unwrap();
            // Proficiency bonus, hit points (max at 1st, the SRD average after, CON +2), saves
            // and slots from the SRD tables.
            assert_eq!(
                c.proficiency_bonus,
                i32::from(row.prof_bonus.unwrap()),
                "{name}"
            );
            let die = u32::from(class.hit_die);
            assert_eq!(
                c.max_hp,
                die + 2 + (level - 1) * (die / 2 + 1 + 2),
                "{name}"
            );
            assert_eq!(
                c.save_proficiencies.iter().copied().collect::<Vec<_>>(),
                {
                    let mut v = class.saving_throws.clone();
                    v.sort();
                    v
                },
                "{name}"
            );
            if class.caster_kind != tabletop_srd::model::CasterKind::Pact {
                assert_eq!(c.spell_slots.max, row.spell_slots, "{name}");
            }
            assert_eq!(c.hit_dice, level, "{name}");
            let d = c.derived.as_ref().unwrap();
            // Every resource a class-table counter names has its table value.
            for (res, key) in [
                ("Rage", "rage_count"),
                ("Ki", "ki_points"),
                ("Action Surge", "action_surges"),
                ("Sorcery Points", "sorcery_points"),
                ("Channel Divinity", "channel_divinity_charges"),
                ("Indomitable", "indomitable_uses"),
            ] {
                if let Some(r) = d.resource(res)
                    && class.index != "paladin"
                {
                    assert_eq!(
                        i64::from(r.max),
                        row.class_specific[key].as_i64().unwrap(),
                        "{name} {res}"
                    );
                }
            }
        }
    }
}

#[test]
fn equipment_strings_become_inventory_items_one_list() {
    let Some(srd) = common::srd("one_list") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, srd);
    let c = create(
        &mut e,
        CreateRequest {
            equipment: vec!["Thieves' Tools".into(), "rusty iron key".into()],
            ..build("Pip", None, None, "rogue", 1)
        },
    )
    .character;
    assert!(c.equipment.is_empty());
    let names: Vec<&str> = c.inventory.items.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, vec!["Thieves' Tools", "rusty iron key"]);
    assert_eq!(c.carried_names().collect::<Vec<_>>(), names);
}

/// The stored document and derived sheet of the character named `name`, read from the database
/// file by a connection of its own.
fn stored(dir: &tempfile::TempDir, name: &str) -> (String, Option<String>) {
    let conn = rusqlite::Connection::open(dir.path().join("t.sqlite")).unwrap();
    conn.query_row(
        "SELECT c.doc, s.derived FROM characters c
         LEFT JOIN character_sheets s ON s.campaign_id = c.campaign_id AND s.id = c.id
         WHERE c.name = ?1",
        [name],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .unwrap()
}

fn hp_change(e: &mut Engine<SqliteStore>, name: &str, hp: tabletop_engine::update::HpChange) {
    e.write("update_character", &serde_json::json!({}), |call| {
        update_character(
            call,
            CharacterRef::new(None, Some(name)),
            UpdateRequest {
                hp: Some(hp),
                ..Default::default()
            },
        )
    })
    .unwrap();
}

/// Every read derives the sheet from the stored character; the store keeps what a read made of a
/// stored text (with the compendium it was made against) and hands it out while that text is
/// stored. Each change of a source is a new text: the next read derives again, exactly. The
/// derived sheet is stored apart from the document and written only when it changes.
#[test]
fn a_kept_sheet_follows_every_change_of_its_sources() {
    use tabletop_engine::update::HpChange;
    let Some(srd) = common::srd("kept_sheet") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, srd.clone());
    // Hill dwarf cleric 5, CON 14 + 2 = 16 (+3), WIS 15 + 1 = 16 (+3): the d8's 8 at level 1
    // and its average 5 at four more, + 3 CON and + 1 Dwarven Toughness per level = 28 + 20 = 48.
    create(
        &mut e,
        CreateRequest {
            scores: scores([10, 12, 14, 10, 15, 8]),
            ..build("Vell", Some("dwarf"), Some("hill dwarf"), "cleric", 5)
        },
    );
    let first = sheet(&mut e, "Vell");
    assert_eq!(first.character.max_hp, 48);
    assert_eq!(first.effective.saves[&Ability::Wisdom].bonus, 6);
    let again = sheet(&mut e, "Vell");
    assert_eq!(
        (
            wis_check(&mut e, "Vell").modifier_total,
            wis_check(&mut e, "Vell").modifier_total
        ),
        (3, 3)
    );
    assert_eq!(
        serde_json::to_value(&again).unwrap(),
        serde_json::to_value(&first).unwrap(),
        "an unchanged character reads the same"
    );
    // Stored as two texts: the document without the derived sheet, and the sheet apart.
    let (doc, created_sheet) = stored(&dir, "Vell");
    assert!(
        !doc.contains("\"derived\"") && doc.contains("\"hp\":48"),
        "{doc}"
    );
    let created_sheet = created_sheet.expect("a sheet row");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&created_sheet).unwrap(),
        serde_json::to_value(first.character.derived.as_deref().unwrap()).unwrap()
    );
    // Hit points: the sheet is the same but for them.
    hp_change(&mut e, "Vell", HpChange::Damage(5));
    let hurt = sheet(&mut e, "Vell");
    assert_eq!(hurt.character.hp, 43);
    let mut expected = first.character.clone();
    expected.hp = 43;
    assert_eq!(hurt.character, expected);
    assert_eq!(wis_check(&mut e, "Vell").modifier_total, 3);
    // Only the document was written again; a server opened afresh reads the same character
    // from the two texts.
    let (doc, sheet_row) = stored(&dir, "Vell");
    assert!(doc.contains("\"hp\":43"), "{doc}");
    assert_eq!(sheet_row.as_deref(), Some(created_sheet.as_str()));
    assert_eq!(
        serde_json::to_value(sheet(&mut engine(&dir, srd.clone()), "Vell")).unwrap(),
        serde_json::to_value(&hurt).unwrap()
    );
    // An ability edit: WIS 18 (+4) raises the Wisdom save by one.
    e.write("update_character", &serde_json::json!({}), |call| {
        update_character(
            call,
            CharacterRef::new(None, Some("Vell")),
            UpdateRequest {
                patch: CharacterPatch {
                    stats: Some([(Ability::Wisdom, 18)].into_iter().collect()),
                    ..Default::default()
                },
                ..Default::default()
            },
        )
    })
    .unwrap();
    let wiser = sheet(&mut e, "Vell");
    assert_eq!(wiser.character.abilities.get(Ability::Wisdom), 18);
    assert_eq!(wiser.effective.saves[&Ability::Wisdom].bonus, 7);
    assert_eq!(
        wis_check(&mut e, "Vell").modifier_total,
        4,
        "a check after an edit"
    );
    let (_, sheet_row) = stored(&dir, "Vell");
    assert_ne!(
        sheet_row.as_deref(),
        Some(created_sheet.as_str()),
        "a new derivation is stored"
    );
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&sheet_row.unwrap()).unwrap(),
        serde_json::to_value(wiser.character.derived.as_deref().unwrap()).unwrap()
    );
    // A level: cleric 6, d8 average 5 + 3 + 1 = 9 more HP (and the same again healed in).
    e.write("level_up", &serde_json::json!({}), |call| {
        level_up(
            call,
            CharacterRef::new(None, Some("Vell")),
            None,
            LevelHpMethod::Rules(HpMethod::Average),
        )
    })
    .unwrap();
    let up = sheet(&mut e, "Vell");
    assert_eq!((up.character.level, up.character.max_hp), (6, 57));
    assert_eq!(up.effective.max_hp.value, 57);
    // A condition: poisoned gives disadvantage on ability checks.
    common::add_condition(&mut e, "Vell", Condition::Poisoned);
    let sick = sheet(&mut e, "Vell");
    assert_eq!(
        sick.effective.skills[&Skill::Stealth].disadvantage,
        vec!["poisoned".to_string()]
    );
    let poisoned = wis_check(&mut e, "Vell");
    assert_eq!(
        (poisoned.disadvantage, poisoned.rolls.len()),
        (vec!["poisoned".to_string()], 2)
    );
    // Back to the first hit points: the sheet of the new sources, not the first one kept.
    hp_change(&mut e, "Vell", HpChange::Set(48));
    let back = sheet(&mut e, "Vell");
    assert_eq!((back.character.hp, back.character.max_hp), (48, 57));
    // Proficiency +3 at level 6 and WIS +4.
    assert_eq!(back.effective.saves[&Ability::Wisdom].bonus, 7);
    let check = wis_check(&mut e, "Vell");
    assert_eq!((check.modifier_total, check.rolls.len()), (4, 2));
}
