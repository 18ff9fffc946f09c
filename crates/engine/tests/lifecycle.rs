//! The character lifecycle on a real SQLite file: effects and conditions on every roll,
//! concentration, rests, level-ups, spell slots and resources, and nothing lost across restarts.

use super::common;

use std::sync::Arc;

use tabletop_engine::character::{CharacterRef, Recharge};
use tabletop_engine::checks::{CheckOutcome, CheckRequest, roll_check};
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::concentration;
use tabletop_engine::conditions::{ConditionOp, manage_condition};
use tabletop_engine::creation::{CreateMode, CreateRequest, create_character};
use tabletop_engine::effects::{
    DurationRequest, EffectRequest, add_effect, remove_effect, tick_effects,
};
use tabletop_engine::levelling::{LevelHpMethod, level_up};
use tabletop_engine::rest::{RestKind, refuse_in_encounter, take_rest};
use tabletop_engine::sheet::get_character;
use tabletop_engine::slots::{SlotOp, manage_spell_slots};
use tabletop_engine::update::{HpChange, ResourcePatch, UpdateRequest, update_character};
use tabletop_engine::{Engine, EngineOptions, SqliteStore};
use tabletop_rules::d20::D20Test;
use tabletop_rules::hp::HpMethod;
use tabletop_rules::modifiers::{ModifierKind, RollTarget};
use tabletop_rules::{Ability, Condition, Skill};
use tabletop_srd::Compendium;

type E = Engine<SqliteStore>;

fn open(dir: &tempfile::TempDir, seed: Option<u64>, srd: Option<Arc<Compendium>>) -> E {
    let store = SqliteStore::open(&dir.path().join("t.sqlite")).unwrap();
    let compendium = match srd {
        Some(c) => CompendiumSource::ready(c),
        None => CompendiumSource::none(),
    };
    Engine::open(store, "main", EngineOptions { seed, compendium }).unwrap()
}

fn who(name: &str) -> CharacterRef<'_> {
    CharacterRef::new(None, Some(name))
}

fn w<R>(
    e: &mut E,
    f: impl FnOnce(&mut tabletop_engine::Call<'_>) -> tabletop_engine::Result<R>,
) -> R {
    e.write("test", &serde_json::json!({}), f).unwrap()
}

fn effect(name: &str) -> EffectRequest {
    EffectRequest {
        name: name.into(),
        ..Default::default()
    }
}

/// A spell effect cast by `caster` (a preset links to the caster's concentration only when the
/// caster is named).
fn by(name: &str, caster: &str) -> EffectRequest {
    EffectRequest {
        caster: Some((None, Some(caster.into()))),
        ..effect(name)
    }
}

fn add_condition(c: Condition) -> ConditionOp {
    ConditionOp::Add {
        condition: c,
        level: None,
        source: None,
        duration: DurationRequest::Default,
        caster: None,
    }
}

fn check(e: &mut E, name: &str, test: D20Test) -> tabletop_rules::d20::D20Outcome {
    let req = CheckRequest::of(test);
    match w(e, |call| roll_check(call, who(name), &req)) {
        CheckOutcome::Rolled { outcome, .. } => outcome,
        CheckOutcome::Passive { .. } => panic!("rolled"),
    }
}

const ATTACK: D20Test = D20Test::Attack {
    ability: Some(Ability::Strength),
    proficient: true,
};

#[test]
fn effects_change_rolls_do_not_stack_and_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = open(&dir, Some(3), None);
    common::create(&mut e, common::fighter("Aria", [16, 12, 14, 10, 10, 8]));
    let out = w(&mut e, |call| {
        add_effect(call, who("Aria"), by("Bless", "Aria"))
    });
    assert_eq!(out.effects.len(), 1);
    let roll = check(&mut e, "Aria", ATTACK);
    assert_eq!(roll.dice.len(), 1, "Bless adds a d4: {roll:?}");
    assert_eq!(roll.dice[0].source, "Bless");
    assert!(roll.summary().contains("1d4"), "{}", roll.summary());
    // The same name again replaces, it does not stack.
    let out = w(&mut e, |call| {
        add_effect(call, who("Aria"), by("bless", "Aria"))
    });
    assert_eq!(out.effects.len(), 1);
    assert!(
        out.changes.iter().any(|c| c.contains("do not stack")),
        "{:?}",
        out.changes
    );
    // Shield of Faith and Haste: AC, speed, DEX-save advantage.
    w(&mut e, |call| {
        add_effect(call, who("Aria"), by("Shield of Faith", "Aria"))
    });
    let out = w(&mut e, |call| {
        add_effect(call, who("Aria"), by("Haste", "Aria"))
    });
    // Haste is a concentration spell of Aria's own: it ends her Bless and Shield of Faith.
    assert!(out.concentration_ended.is_some());
    let names: Vec<&str> = out.effects.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, vec!["Haste"]);
    let sheet = e.read(|call| get_character(call, who("Aria"))).unwrap();
    assert_eq!(sheet.effective.armor_class.value, 13);
    assert_eq!(sheet.effective.speed.value, 60);
    let save = check(
        &mut e,
        "Aria",
        D20Test::Save {
            ability: Ability::Dexterity,
        },
    );
    assert_eq!(save.advantage, vec!["Haste".to_string()]);
    // A curse: disadvantage on WIS saves, until a long rest.
    let curse = EffectRequest {
        name: "Curse of the Hag".into(),
        modifiers: vec![ModifierKind::Disadvantage {
            on: RollTarget::Save {
                ability: Ability::Wisdom,
            },
        }],
        duration: DurationRequest::UntilRest,
        ..Default::default()
    };
    w(&mut e, |call| add_effect(call, who("Aria"), curse));
    let save = check(
        &mut e,
        "Aria",
        D20Test::Save {
            ability: Ability::Wisdom,
        },
    );
    assert_eq!(save.disadvantage, vec!["Curse of the Hag".to_string()]);
    drop(e);

    let mut e = open(&dir, None, None);
    let sheet = e.read(|call| get_character(call, who("Aria"))).unwrap();
    assert_eq!(
        sheet.character.effects.len(),
        2,
        "effects survive a restart"
    );
    assert_eq!(
        sheet
            .character
            .concentration
            .as_ref()
            .map(|c| c.spell.as_str()),
        Some("Haste")
    );
    w(&mut e, |call| {
        take_rest(call, who("Aria"), RestKind::Long, 0)
    });
    let sheet = e.read(|call| get_character(call, who("Aria"))).unwrap();
    let names: Vec<&str> = sheet
        .character
        .effects
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    // The curse ends with the long rest; Haste ("Concentration, up to 1 minute") ran out during
    // its 8 hours, and Aria's concentration with it.
    assert_eq!(
        names,
        Vec::<&str>::new(),
        "until-rest effects end on a long rest"
    );
    assert_eq!(sheet.character.concentration, None);
    w(&mut e, |call| {
        add_effect(call, who("Aria"), by("Haste", "Aria"))
    });
    let out = w(&mut e, |call| remove_effect(call, who("Aria"), "haste"));
    assert!(out.effects.is_empty());
    let sheet = e.read(|call| get_character(call, who("Aria"))).unwrap();
    assert!(
        sheet.character.concentration.unwrap().links.is_empty(),
        "removing the effect unlinks it"
    );
}

#[test]
fn round_effects_tick_out() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = open(&dir, Some(3), None);
    common::create(&mut e, common::fighter("Aria", [16, 12, 14, 10, 10, 8]));
    let req = EffectRequest {
        name: "Shield".into(),
        duration: DurationRequest::Rounds(2),
        ..Default::default()
    };
    w(&mut e, |call| add_effect(call, who("Aria"), req));
    let out = w(&mut e, |call| tick_effects(call, who("Aria"), 1, None));
    assert_eq!(out.effects.len(), 1);
    let out = w(&mut e, |call| tick_effects(call, who("Aria"), 1, None));
    assert!(out.effects.is_empty(), "{:?}", out.changes);
    let err = e
        .write("t", &serde_json::json!({}), |call| {
            add_effect(call, who("Aria"), effect("Mystery"))
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("give modifiers"), "{err}");
}

/// A cleric concentrating on Bless (on itself and an ally) takes 22 damage: DC 11. The seed pins
/// the save: `(seed, d20, d4)`. Returns the check, the ally's effect count and the update answer.
fn bless_concentration_after_22_damage(
    seed: u64,
) -> (
    tabletop_engine::concentration::ConcentrationCheck,
    usize,
    tabletop_engine::update::UpdateOutcome,
) {
    let dir = tempfile::tempdir().unwrap();
    let mut e = open(&dir, Some(seed), None);
    common::create(&mut e, common::fighter("Cleo", [10, 10, 10, 10, 16, 10]));
    w(&mut e, |call| {
        update_character(
            call,
            who("Cleo"),
            UpdateRequest {
                patch: tabletop_engine::update::CharacterPatch {
                    max_hp: Some(40),
                    ..Default::default()
                },
                hp: Some(HpChange::Set(40)),
                ..Default::default()
            },
        )
    });
    common::create(&mut e, common::fighter("Bran", [10, 10, 10, 10, 10, 10]));
    w(&mut e, |call| {
        add_effect(call, who("Cleo"), by("Bless", "Cleo"))
    });
    let ally = EffectRequest {
        caster: Some((None, Some("Cleo".into()))),
        ..effect("Bless")
    };
    w(&mut e, |call| add_effect(call, who("Bran"), ally));
    let out = w(&mut e, |call| {
        update_character(
            call,
            who("Cleo"),
            UpdateRequest {
                hp: Some(HpChange::Damage(22)),
                ..Default::default()
            },
        )
    });
    assert_eq!(
        out.concentration.len(),
        1,
        "one save per damage application"
    );
    let k = out.concentration[0].clone();
    assert_eq!(k.dc, 11, "max(10, 22 / 2)");
    // A fighter's CON save: +0 CON, +2 proficiency; Bless adds a d4.
    assert_eq!(k.save.modifier_total, 2);
    assert_eq!(k.save.dice.len(), 1, "Bless's d4 helps the save");
    let bran = e.read(|call| get_character(call, who("Bran"))).unwrap();
    (k, bran.character.effects.len(), out)
}

/// Seed 5: d20 5 + 2 + Bless 4 = 11, exactly the DC: concentration holds (Bless made the
/// difference) and both Bless effects stay.
#[test]
fn a_concentration_save_that_meets_the_dc_keeps_the_spell() {
    let (k, bran_effects, out) = bless_concentration_after_22_damage(5);
    assert_eq!(k.save.rolls, vec![5]);
    assert_eq!(k.save.dice[0].rolls, vec![4]);
    assert_eq!(k.save.total, Some(11));
    assert!(k.kept);
    assert!(out.concentration_ended.is_empty());
    assert_eq!(bran_effects, 1);
    assert_eq!(out.character.effects.len(), 1);
    assert_eq!(
        out.character
            .concentration
            .as_ref()
            .map(|c| c.spell.as_str()),
        Some("Bless")
    );
}

/// Seed 1: d20 3 + 2 + Bless 2 = 7 < 11: concentration is lost and Bless ends on both.
#[test]
fn a_failed_concentration_save_ends_every_linked_effect() {
    let (k, bran_effects, out) = bless_concentration_after_22_damage(1);
    assert_eq!(k.save.rolls, vec![3]);
    assert_eq!(k.save.dice[0].rolls, vec![2]);
    assert_eq!(k.save.total, Some(7));
    assert!(!k.kept);
    let ended = out.concentration_ended.first().expect("ended");
    assert_eq!(ended.removed.len(), 2, "{ended:?}");
    assert_eq!(bran_effects, 0);
    assert!(out.character.effects.is_empty());
    assert!(out.character.concentration.is_none());
}

#[test]
fn zero_hp_incapacitation_and_a_new_spell_end_concentration() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = open(&dir, Some(9), None);
    common::create(&mut e, common::fighter("Cleo", [10, 10, 14, 10, 16, 10]));
    common::create(&mut e, common::fighter("Orc", [16, 10, 10, 10, 10, 10]));
    // Hold Person on the orc: paralyzed while Cleo concentrates.
    let hold = ConditionOp::Add {
        condition: Condition::Paralyzed,
        level: None,
        source: Some("Hold Person".into()),
        duration: DurationRequest::Concentration,
        caster: Some((None, Some("Cleo".into()))),
    };
    w(&mut e, |call| manage_condition(call, who("Orc"), hold));
    let orc = e.read(|call| get_character(call, who("Orc"))).unwrap();
    assert!(orc.effective.is_incapacitated());
    // A new concentration spell ends Hold Person and frees the orc.
    let out = w(&mut e, |call| {
        concentration::set(call, who("Cleo"), "Bless")
    });
    let ended = out.ended.expect("old spell ended");
    assert_eq!(ended.spell, "Hold Person");
    assert_eq!(ended.removed, vec!["paralyzed on Orc".to_string()]);
    let orc = e.read(|call| get_character(call, who("Orc"))).unwrap();
    assert!(orc.character.conditions.is_empty());
    // Deleting a caster ends what its concentration held up.
    common::create(&mut e, common::fighter("Hag", [10, 10, 10, 10, 10, 10]));
    let curse = EffectRequest {
        caster: Some((None, Some("Hag".into()))),
        ..effect("Bane")
    };
    w(&mut e, |call| add_effect(call, who("Orc"), curse));
    let gone = w(&mut e, |call| {
        tabletop_engine::character::delete_character(call, who("Hag"))
    });
    assert_eq!(gone.cascaded, vec!["Bane on Orc".to_string()]);
    let orc = e.read(|call| get_character(call, who("Orc"))).unwrap();
    assert!(orc.character.effects.is_empty());
    // Stunned: incapacitated ends concentration.
    let out = w(&mut e, |call| {
        manage_condition(call, who("Cleo"), add_condition(Condition::Stunned))
    });
    assert_eq!(out.concentration_ended.len(), 1);
    w(&mut e, |call| {
        manage_condition(
            call,
            who("Cleo"),
            ConditionOp::Remove {
                condition: Condition::Stunned,
                level: None,
            },
        )
    });
    // 0 HP ends it, without a save.
    w(&mut e, |call| {
        concentration::set(call, who("Cleo"), "Bless")
    });
    let out = w(&mut e, |call| {
        update_character(
            call,
            who("Cleo"),
            UpdateRequest {
                hp: Some(HpChange::Damage(500)),
                ..Default::default()
            },
        )
    });
    assert!(out.concentration.is_empty());
    assert_eq!(out.concentration_ended.len(), 1);
    // Nobody concentrates at 0 HP.
    let err = e
        .write("t", &serde_json::json!({}), |call| {
            concentration::set(call, who("Cleo"), "Bless")
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("cannot concentrate"), "{err}");
}

#[test]
fn conditions_durations_immunities_and_exhaustion() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = open(&dir, Some(5), None);
    let mut golem = common::fighter("Golem", [18, 8, 18, 3, 10, 1]);
    golem.condition_immunities = vec![Condition::Poisoned];
    common::create(&mut e, golem);
    common::create(&mut e, common::fighter("Aria", [10, 14, 10, 10, 10, 10]));
    let err = e
        .write("t", &serde_json::json!({}), |call| {
            manage_condition(call, who("Golem"), add_condition(Condition::Poisoned))
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("immune to poisoned"), "{err}");
    // Poisoned: disadvantage on the check.
    w(&mut e, |call| {
        manage_condition(call, who("Aria"), add_condition(Condition::Poisoned))
    });
    let roll = check(
        &mut e,
        "Aria",
        D20Test::SkillCheck {
            skill: Skill::Stealth,
        },
    );
    assert_eq!(roll.disadvantage, vec!["poisoned".to_string()]);
    // Rounds tick out; save_ends rolls.
    let timed = ConditionOp::Add {
        condition: Condition::Frightened,
        level: None,
        source: Some("Cause Fear".into()),
        duration: DurationRequest::Rounds(1),
        caster: None,
    };
    w(&mut e, |call| manage_condition(call, who("Aria"), timed));
    let saved = ConditionOp::Add {
        condition: Condition::Restrained,
        level: None,
        source: Some("Web".into()),
        duration: DurationRequest::SaveEnds {
            dc: 1,
            ability: Ability::Strength,
        },
        caster: None,
    };
    w(&mut e, |call| manage_condition(call, who("Aria"), saved));
    let out = w(&mut e, |call| {
        manage_condition(call, who("Aria"), ConditionOp::Tick { rounds: 1 })
    });
    let left: Vec<Condition> = out.conditions.iter().map(|c| c.condition).collect();
    assert_eq!(left, vec![Condition::Poisoned], "{:?}", out.changes);
    // Exhaustion 2 → a long rest → 1.
    let ex = ConditionOp::Add {
        condition: Condition::Exhaustion,
        level: Some(2),
        source: None,
        duration: DurationRequest::Default,
        caster: None,
    };
    w(&mut e, |call| manage_condition(call, who("Aria"), ex));
    let sheet = e.read(|call| get_character(call, who("Aria"))).unwrap();
    assert_eq!(sheet.effective.speed.value, 15, "exhaustion 2 halves speed");
    w(&mut e, |call| {
        take_rest(call, who("Aria"), RestKind::Long, 0)
    });
    let sheet = e.read(|call| get_character(call, who("Aria"))).unwrap();
    let level = sheet
        .character
        .conditions
        .iter()
        .find(|c| c.condition == Condition::Exhaustion)
        .and_then(|c| c.level);
    assert_eq!(level, Some(1));
    let bad = ConditionOp::Add {
        condition: Condition::Exhaustion,
        level: Some(7),
        source: None,
        duration: DurationRequest::Default,
        caster: None,
    };
    let err = e
        .write("t", &serde_json::json!({}), |call| {
            manage_condition(call, who("Aria"), bad)
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("1–6"), "{err}");
}

#[test]
fn short_rests_spend_hit_dice_and_restore_short_resources() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = open(&dir, Some(5), None);
    common::create(&mut e, common::fighter("Monk", [10, 16, 14, 10, 14, 10]));
    let ki = ResourcePatch {
        name: "Ki".into(),
        max: Some(3),
        current: Some(0),
        recharge: Some(Recharge::Short),
    };
    let rage = ResourcePatch {
        name: "Rage".into(),
        max: Some(2),
        current: Some(1),
        recharge: None,
    };
    w(&mut e, |call| {
        update_character(
            call,
            who("Monk"),
            UpdateRequest {
                patch: tabletop_engine::update::CharacterPatch {
                    resources: vec![ki, rage],
                    ..Default::default()
                },
                hp: Some(HpChange::Damage(8)),
                ..Default::default()
            },
        )
    });
    let out = w(&mut e, |call| {
        take_rest(call, who("Monk"), RestKind::Short, 1)
    });
    assert_eq!(out.hit_dice_rolls.len(), 1);
    let r = out.hit_dice_rolls[0];
    assert_eq!(r.healing, r.roll + 2, "roll + CON");
    assert_eq!(out.hp_after, out.hp_before + r.healing);
    assert_eq!(out.hit_dice_left, 0);
    let sheet = e.read(|call| get_character(call, who("Monk"))).unwrap();
    let res: Vec<(u32, u32)> = sheet
        .character
        .resources
        .iter()
        .map(|r| (r.current, r.max))
        .collect();
    assert_eq!(
        res,
        vec![(3, 3), (1, 2)],
        "Ki back on a short rest, Rage not"
    );
    let err = e
        .write("t", &serde_json::json!({}), |call| {
            take_rest(call, who("Monk"), RestKind::Short, 1)
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("0 hit dice"), "{err}");
    w(&mut e, |call| {
        take_rest(call, who("Monk"), RestKind::Long, 0)
    });
    let sheet = e.read(|call| get_character(call, who("Monk"))).unwrap();
    assert_eq!(sheet.character.hit_dice, 1, "half of 1 rounds up to one");
    assert_eq!(sheet.character.resources[1].current, 2);
    // The encounter hook refuses with the fix.
    let err = refuse_in_encounter(&sheet.character, Some("en1"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("end the encounter first"), "{err}");
}

#[test]
fn level_ups_without_the_srd_never_give_less_than_one_hp_per_level() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = open(&dir, Some(5), None);
    common::create(&mut e, common::fighter("Frail", [10, 10, 1, 10, 10, 10]));
    let out = w(&mut e, |call| {
        level_up(
            call,
            who("Frail"),
            Some(4),
            LevelHpMethod::Rules(HpMethod::Roll),
        )
    });
    assert_eq!(out.hp_gains.len(), 3);
    assert!(out.hp_gains.iter().all(|g| g.gained == 1));
    assert_eq!(out.asi_levels, vec![4]);
    assert_eq!(out.proficiency_bonus, (2, 2));
    let out = w(&mut e, |call| {
        level_up(
            call,
            who("Frail"),
            Some(5),
            LevelHpMethod::Rules(HpMethod::Average),
        )
    });
    assert_eq!(out.proficiency_bonus, (2, 3));
    let err = e
        .write("t", &serde_json::json!({}), |call| {
            level_up(call, who("Frail"), Some(7), LevelHpMethod::Manual(1))
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("at least 1 per level"), "{err}");
    let err = e
        .write("t", &serde_json::json!({}), |call| {
            level_up(
                call,
                who("Frail"),
                Some(3),
                LevelHpMethod::Rules(HpMethod::Average),
            )
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("6–20"), "{err}");
}

fn srd_caster(e: &mut E, name: &str, class: &str, level: u32) {
    w(e, |call| {
        create_character(
            call,
            CreateRequest {
                name: name.into(),
                class: Some(class.into()),
                level: Some(level),
                scores: Some(Ability::ALL.iter().map(|a| (*a, 12)).collect()),
                mode: CreateMode::Create,
                ..Default::default()
            },
        )
    });
}

#[test]
fn srd_slots_level_up_pact_magic_and_restarts() {
    let Some(srd) = common::srd("srd_slots_level_up_pact_magic_and_restarts") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = open(&dir, Some(5), Some(srd.clone()));
    srd_caster(&mut e, "Wiz", "wizard", 4);
    let view = w(&mut e, |call| {
        manage_spell_slots(call, who("Wiz"), SlotOp::View)
    });
    assert_eq!(&view.slots.max[..3], &[4, 3, 0]);
    let err = e
        .write("t", &serde_json::json!({}), |call| {
            manage_spell_slots(
                call,
                who("Wiz"),
                SlotOp::Expend {
                    level: Some(3),
                    count: 1,
                    pact: false,
                },
            )
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("no 3rd-level slots"), "{err}");
    w(&mut e, |call| {
        manage_spell_slots(
            call,
            who("Wiz"),
            SlotOp::Expend {
                level: Some(2),
                count: 2,
                pact: false,
            },
        )
    });
    let out = w(&mut e, |call| {
        level_up(
            call,
            who("Wiz"),
            None,
            LevelHpMethod::Rules(HpMethod::Average),
        )
    });
    assert_eq!(out.to_level, 5);
    assert_eq!(out.spell_slots, "1st 4/4, 2nd 1/3, 3rd 2/2");
    assert_eq!(out.proficiency_bonus, (2, 3));
    // Warlock: pact slots apart, back on a short rest.
    srd_caster(&mut e, "Lock", "WARLOCK", 3);
    let view = w(&mut e, |call| {
        manage_spell_slots(
            call,
            who("Lock"),
            SlotOp::Expend {
                level: None,
                count: 2,
                pact: false,
            },
        )
    });
    let pact = view.slots.pact.expect("pact slots");
    assert_eq!((pact.level, pact.max, pact.used), (2, 2, 2));
    assert!(view.slots.max.iter().all(|m| *m == 0));
    drop(e);
    let mut e = open(&dir, None, Some(srd));
    let sheet = e.read(|call| get_character(call, who("Wiz"))).unwrap();
    assert_eq!(
        sheet.character.spell_slots.used[1], 2,
        "slots survive a restart"
    );
    w(&mut e, |call| {
        take_rest(call, who("Lock"), RestKind::Short, 0)
    });
    let view = w(&mut e, |call| {
        manage_spell_slots(call, who("Lock"), SlotOp::View)
    });
    assert_eq!(view.slots.pact.unwrap().used, 0);
    w(&mut e, |call| {
        take_rest(call, who("Wiz"), RestKind::Long, 0)
    });
    let view = w(&mut e, |call| {
        manage_spell_slots(call, who("Wiz"), SlotOp::View)
    });
    assert!(view.slots.used.iter().all(|u| *u == 0));
}
