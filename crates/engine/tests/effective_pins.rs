//! The effective stats of SRD-built characters in the real configuration, pinned whole: every
//! value, source (and its order) and explanation of `Character::effective` as the sheet tool
//! returns it. A rewrite of the pipeline for speed must change none of it. The expected output is
//! `effective_pins.json` beside this file, generated from the pipeline before the rewrite; an
//! intended change of the output regenerates it with `TABLETOP_UPDATE_PINS=1`.

use super::common;
use super::spell_support as ss;

use std::collections::BTreeMap;

use tabletop_engine::character::CharacterRef;
use tabletop_engine::combat::actions::{ActionRequest, ActionType};
use tabletop_engine::conditions::{ConditionOp, manage_condition};
use tabletop_engine::creation::{AbilityMethod, CreateMode, CreateRequest, create_character};
use tabletop_engine::effects::{DurationRequest, EffectRequest, add_effect};
use tabletop_engine::inventory::ops::{self, GiveRequest, ItemRef};
use tabletop_engine::model::sheet::CharacterSummary;
use tabletop_engine::sheet::get_character;
use tabletop_rules::modifiers::{ModifierKind, RollTarget};
use tabletop_rules::{Ability, Condition, Skill};

fn who(name: &str) -> CharacterRef<'_> {
    CharacterRef::new(None, Some(name))
}

/// An SRD hill dwarf cleric 5 (CON 14 + 2, WIS 15 + 1), as a user creates one.
fn dwarf_cleric(e: &mut ss::E, name: &str) {
    let req = CreateRequest {
        name: name.into(),
        race: Some("dwarf".into()),
        subrace: Some("hill dwarf".into()),
        class: Some("cleric".into()),
        level: Some(5),
        method: AbilityMethod::Manual,
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([10, 12, 14, 10, 15, 8])
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

fn condition(e: &mut ss::E, name: &str, condition: Condition, level: Option<u8>) {
    e.write("manage_condition", &serde_json::json!({}), |call| {
        manage_condition(
            call,
            who(name),
            ConditionOp::Add {
                condition,
                level,
                source: None,
                duration: DurationRequest::Default,
                caster: None,
            },
        )
    })
    .unwrap();
}

fn effect(e: &mut ss::E, on: &str, req: EffectRequest) {
    e.write("add_effect", &serde_json::json!({}), |call| {
        add_effect(call, who(on), req)
    })
    .unwrap();
}

/// A spell's preset effect, cast by `caster`.
fn spell(name: &str, caster: &str) -> EffectRequest {
    EffectRequest {
        name: name.into(),
        caster: Some((None, Some(caster.into()))),
        ..Default::default()
    }
}

fn inventory(e: &mut ss::E, on: &str, item: &str) {
    e.write("manage_inventory", &serde_json::json!({}), |call| {
        ops::give(
            call,
            who(on),
            GiveRequest {
                srd_name: Some(item.into()),
                ..Default::default()
            },
        )
    })
    .unwrap();
    let named = ItemRef {
        id: None,
        name: Some(item),
    };
    e.write("manage_inventory", &serde_json::json!({}), |call| {
        ops::equip(call, who(on), named, None)
    })
    .unwrap();
}

fn attune(e: &mut ss::E, on: &str, item: &str) {
    let named = ItemRef {
        id: None,
        name: Some(item),
    };
    e.write("manage_inventory", &serde_json::json!({}), |call| {
        tabletop_engine::inventory::attune::attune(call, who(on), named)
    })
    .unwrap();
}

/// What is pinned of one character: its effective stats (as the sheet serializes them), their
/// plain-text explanation, and its roster row.
fn pinned(e: &mut ss::E, name: &str) -> serde_json::Value {
    let sheet = e.read(|call| get_character(call, who(name))).unwrap();
    let direct = sheet.character.effective();
    assert_eq!(
        direct, sheet.effective,
        "{name}: the sheet is Character::effective"
    );
    serde_json::json!({
        "effective": sheet.effective,
        "explain": sheet.effective.explain(),
        "summary": CharacterSummary::of(&sheet.character),
    })
}

#[test]
fn effective_stats_of_srd_characters_are_pinned() {
    let Some(srd) = common::srd("effective_pins") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = ss::engine(&dir, &srd, 7);
    let mut got = BTreeMap::new();

    // The benchmark's character, as created.
    dwarf_cleric(&mut e, "Vell");
    got.insert("cleric", pinned(&mut e, "Vell"));

    // Poisoned (Dwarven Resilience gives advantage against poison, not against the condition),
    // restrained and exhausted 2; then stunned (implies incapacitated) on another.
    dwarf_cleric(&mut e, "Bruna");
    condition(&mut e, "Bruna", Condition::Poisoned, None);
    condition(&mut e, "Bruna", Condition::Restrained, None);
    condition(&mut e, "Bruna", Condition::Exhaustion, Some(2));
    got.insert(
        "cleric_poisoned_restrained_exhausted",
        pinned(&mut e, "Bruna"),
    );
    dwarf_cleric(&mut e, "Stone");
    // Poisoned first: petrified then suspends it (its condition immunity).
    condition(&mut e, "Stone", Condition::Poisoned, None);
    condition(&mut e, "Stone", Condition::Prone, None);
    condition(&mut e, "Stone", Condition::Petrified, None);
    got.insert("cleric_petrified_poisoned_prone", pinned(&mut e, "Stone"));

    // Spells on it: Bless (its own), Shield of Faith (Vell's), Haste (Bruna's), and a custom
    // curse with a flat penalty and disadvantage.
    dwarf_cleric(&mut e, "Oska");
    effect(&mut e, "Oska", spell("Bless", "Oska"));
    effect(&mut e, "Oska", spell("Shield of Faith", "Vell"));
    effect(&mut e, "Oska", spell("Haste", "Bruna"));
    effect(
        &mut e,
        "Oska",
        EffectRequest {
            name: "Curse of the Hag".into(),
            modifiers: vec![
                ModifierKind::Disadvantage {
                    on: RollTarget::Save {
                        ability: Ability::Wisdom,
                    },
                },
                ModifierKind::RollBonus {
                    on: RollTarget::SkillChecks {
                        skill: Skill::Perception,
                    },
                    amount: -2,
                },
                ModifierKind::AbilityBonus {
                    ability: Ability::Strength,
                    amount: -4,
                },
            ],
            duration: DurationRequest::UntilRest,
            ..Default::default()
        },
    );
    got.insert(
        "cleric_blessed_shielded_hasted_cursed",
        pinned(&mut e, "Oska"),
    );

    // Armor, a shield and magic items: a breastplate, a shield, a Ring of Protection and a Belt
    // of Hill Giant Strength (both attuned).
    dwarf_cleric(&mut e, "Garm");
    for item in [
        "Breastplate",
        "Shield",
        "Ring of Protection",
        "Belt of Hill Giant Strength",
    ] {
        inventory(&mut e, "Garm", item);
    }
    attune(&mut e, "Garm", "Ring of Protection");
    attune(&mut e, "Garm", "Belt of Hill Giant Strength");
    got.insert("cleric_armored_ring_belt", pinned(&mut e, "Garm"));

    // A druid in wolf form (Wild Shape, in a fight).
    let ash = ss::caster(&mut e, "Ash", "druid", 2, &[]);
    ss::fight(
        &mut e,
        vec![ss::pc(&ash, 0, 0, 20), ss::monster("goblin", 1, &[(1, 0)])],
    );
    ss::act(
        &mut e,
        ActionRequest {
            actor: ss::who(&ash),
            action_type: Some(ActionType::UseSpecialAbility),
            ability_name: Some("Wild Shape".into()),
            creature: Some("wolf".into()),
            ..Default::default()
        },
    )
    .unwrap();
    let wolf = pinned(&mut e, "Ash");
    assert_eq!(wolf["effective"]["speed"]["value"], 40, "in wolf form");
    got.insert("druid_wild_shaped_wolf", wolf);

    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/effective_pins.json");
    let got = serde_json::to_value(&got).unwrap();
    if std::env::var_os("TABLETOP_UPDATE_PINS").is_some() {
        std::fs::write(path, serde_json::to_string_pretty(&got).unwrap() + "\n").unwrap();
        return;
    }
    let want: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("effective_pins.json")).unwrap();
    let (want, got) = (want.as_object().unwrap(), got.as_object().unwrap());
    assert_eq!(
        want.keys().collect::<Vec<_>>(),
        got.keys().collect::<Vec<_>>()
    );
    for (name, w) in want {
        assert_eq!(
            serde_json::to_string_pretty(&got[name]).unwrap(),
            serde_json::to_string_pretty(w).unwrap(),
            "{name} changed"
        );
    }
}
