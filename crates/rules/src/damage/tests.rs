use super::*;
use crate::roller::ScriptedRoller;

fn target(hp: u32, max_hp: u32, at_zero: AtZeroHp) -> DamageTarget {
    DamageTarget {
        vitals: Vitals {
            hp,
            max_hp,
            ..Vitals::default()
        },
        defenses: DamageDefenses::default(),
        at_zero,
    }
}

fn fire(n: u32) -> DamagePart {
    DamagePart::new(Some(DamageType::Fire), n)
}

#[test]
fn plain_damage() {
    let r = apply_damage(&target(20, 20, AtZeroHp::Dies), &[fire(7)], false).unwrap();
    assert_eq!((r.hp_before, r.hp_after, r.total), (20, 13, 7));
    assert_eq!(r.outcome, DamageOutcome::Damaged);
    assert_eq!(r.concentration_dc, Some(10));
    assert!(!r.concentration_ends);
    assert_eq!(
        r.summary(),
        "takes 7 (7 fire); 20 → 13 HP; concentration save DC 10"
    );
}

#[test]
fn resistance_halves_rounding_down() {
    let mut t = target(20, 20, AtZeroHp::Dies);
    t.defenses
        .resistances
        .push(Defense::new(Some(DamageType::Fire), "Stoneskin"));
    let r = apply_damage(
        &t,
        &[fire(7), DamagePart::new(Some(DamageType::Slashing), 4)],
        false,
    )
    .unwrap();
    assert_eq!(r.by_type[0].taken, 3);
    assert_eq!(r.by_type[0].adjustments[0].kind, AdjustmentKind::Resisted);
    assert_eq!(r.by_type[1].taken, 4);
    assert_eq!(r.total, 7);
    assert!(
        r.summary().contains("fire 7 → 3, resisted: Stoneskin"),
        "{}",
        r.summary()
    );
}

#[test]
fn same_type_parts_combine_before_halving() {
    let mut t = target(20, 20, AtZeroHp::Dies);
    t.defenses
        .resistances
        .push(Defense::new(Some(DamageType::Fire), "ring"));
    let r = apply_damage(&t, &[fire(3), fire(3)], false).unwrap();
    assert_eq!(r.by_type.len(), 1);
    assert_eq!(r.total, 3);
}

#[test]
fn immunity_and_vulnerability() {
    let mut t = target(30, 30, AtZeroHp::Dies);
    t.defenses
        .immunities
        .push(Defense::new(Some(DamageType::Poison), "base"));
    t.defenses
        .vulnerabilities
        .push(Defense::new(Some(DamageType::Radiant), "base"));
    t.defenses
        .resistances
        .push(Defense::new(Some(DamageType::Cold), "base"));
    t.defenses
        .vulnerabilities
        .push(Defense::new(Some(DamageType::Cold), "curse"));
    let parts = [
        DamagePart::new(Some(DamageType::Poison), 10),
        DamagePart::new(Some(DamageType::Radiant), 5),
        DamagePart::new(Some(DamageType::Cold), 7),
    ];
    let r = apply_damage(&t, &parts, false).unwrap();
    let taken: Vec<u32> = r.by_type.iter().map(|t| t.taken).collect();
    // Cold: halved (3) then doubled (6).
    assert_eq!(taken, [0, 10, 6]);
    assert_eq!(r.by_type[2].adjustments.len(), 2);
    let r = apply_damage(&t, &[DamagePart::new(Some(DamageType::Poison), 10)], false).unwrap();
    assert_eq!(r.outcome, DamageOutcome::NoDamage);
    assert_eq!(r.concentration_dc, None);
}

#[test]
fn resistance_to_all_covers_untyped() {
    let mut t = target(30, 30, AtZeroHp::Dies);
    t.defenses.resistances.push(Defense::new(None, "petrified"));
    let r = apply_damage(&t, &[DamagePart::new(None, 9), fire(9)], false).unwrap();
    assert_eq!(r.total, 8);
    let mut t = target(30, 30, AtZeroHp::Dies);
    t.defenses
        .resistances
        .push(Defense::new(Some(DamageType::Fire), "x"));
    assert_eq!(
        apply_damage(&t, &[DamagePart::new(None, 9)], false)
            .unwrap()
            .total,
        9
    );
}

#[test]
fn temp_hp_absorbs_first() {
    let mut t = target(10, 10, AtZeroHp::Dies);
    t.vitals.temp_hp = 5;
    let r = apply_damage(&t, &[fire(3)], false).unwrap();
    assert_eq!(r.outcome, DamageOutcome::Absorbed);
    assert_eq!((r.temp_hp_after, r.hp_after), (2, 10));
    assert_eq!(r.concentration_dc, Some(10));
    let r = apply_damage(&t, &[fire(8)], false).unwrap();
    assert_eq!((r.temp_absorbed, r.temp_hp_after, r.hp_after), (5, 0, 7));
}

#[test]
fn concentration_dcs() {
    assert_eq!(concentration_dc(22), 11);
    assert_eq!(concentration_dc(30), 15);
    assert_eq!(concentration_dc(5), 10);
    let r = apply_damage(&target(100, 100, AtZeroHp::Dies), &[fire(22)], false).unwrap();
    assert_eq!(r.concentration_dc, Some(11));
    let r = apply_damage(&target(100, 100, AtZeroHp::Dies), &[fire(30)], false).unwrap();
    assert_eq!(r.concentration_dc, Some(15));
}

#[test]
fn monsters_die_at_zero() {
    let r = apply_damage(&target(7, 7, AtZeroHp::Dies), &[fire(9)], false).unwrap();
    assert_eq!(r.outcome, DamageOutcome::Killed);
    assert!(r.dead && r.concentration_ends);
    assert_eq!((r.hp_after, r.overflow), (0, 2));
    assert!(r.summary().ends_with("7 → 0 HP; dies"), "{}", r.summary());
    assert_eq!(
        AtZeroHp::for_character_type(CharacterType::Enemy),
        AtZeroHp::Dies
    );
    assert_eq!(
        AtZeroHp::for_character_type(CharacterType::Pc),
        AtZeroHp::DeathSaves
    );
}

#[test]
fn pc_falls_unconscious_or_dies_of_massive_damage() {
    let r = apply_damage(&target(10, 20, AtZeroHp::DeathSaves), &[fire(25)], false).unwrap();
    assert_eq!(r.outcome, DamageOutcome::Unconscious);
    assert_eq!(r.add_conditions, vec![Condition::Unconscious]);
    assert!(!r.dead);
    assert!(r.concentration_ends);
    // 10 HP, 30 damage: 20 left over ≥ max 20.
    let r = apply_damage(&target(10, 20, AtZeroHp::DeathSaves), &[fire(30)], false).unwrap();
    assert_eq!(
        r.outcome,
        DamageOutcome::Dead {
            reason: DeathReason::MassiveDamage
        }
    );
    assert!(r.dead);
}

#[test]
fn damage_at_zero_adds_failures() {
    let mut t = target(0, 20, AtZeroHp::DeathSaves);
    t.vitals.death_saves = DeathSaves {
        successes: 2,
        failures: 0,
        stable: false,
    };
    let r = apply_damage(&t, &[fire(3)], false).unwrap();
    assert_eq!(
        r.outcome,
        DamageOutcome::DeathSaveFailures { added: 1, total: 1 }
    );
    let r = apply_damage(&t, &[fire(3)], true).unwrap();
    assert_eq!(
        r.outcome,
        DamageOutcome::DeathSaveFailures { added: 2, total: 2 }
    );
    assert_eq!(r.death_saves.successes, 2);
    t.vitals.death_saves.failures = 2;
    let r = apply_damage(&t, &[fire(3)], false).unwrap();
    assert_eq!(
        r.outcome,
        DamageOutcome::Dead {
            reason: DeathReason::DeathSaveFailures
        }
    );
    // Massive damage at 0 HP.
    let r = apply_damage(&target(0, 20, AtZeroHp::DeathSaves), &[fire(20)], false).unwrap();
    assert_eq!(
        r.outcome,
        DamageOutcome::Dead {
            reason: DeathReason::MassiveDamage
        }
    );
    // A stable creature hit again starts dying.
    let mut t = target(0, 20, AtZeroHp::DeathSaves);
    t.vitals.death_saves.stable = true;
    let r = apply_damage(&t, &[fire(1)], false).unwrap();
    assert!(!r.death_saves.stable);
    assert_eq!(r.death_saves.failures, 1);
}

#[test]
fn dead_cannot_be_damaged_or_healed() {
    let mut t = target(0, 20, AtZeroHp::DeathSaves);
    t.vitals.dead = true;
    assert_eq!(apply_damage(&t, &[fire(1)], false), Err(DamageError::Dead));
    assert_eq!(apply_healing(&t.vitals, 5), Err(DamageError::Dead));
}

#[test]
fn healing() {
    let v = Vitals {
        hp: 3,
        max_hp: 10,
        ..Vitals::default()
    };
    let r = apply_healing(&v, 20).unwrap();
    assert_eq!(
        (r.healed, r.hp_after, r.regains_consciousness),
        (7, 10, false)
    );
    let v = Vitals {
        hp: 0,
        max_hp: 10,
        death_saves: DeathSaves {
            successes: 1,
            failures: 2,
            stable: false,
        },
        ..Vitals::default()
    };
    let r = apply_healing(&v, 4).unwrap();
    assert!(r.regains_consciousness);
    assert_eq!(r.death_saves, DeathSaves::default());
    assert_eq!(r.summary(), "heals 4 (0 → 4 HP); regains consciousness");
}

#[test]
fn temp_hp_keeps_the_higher() {
    assert_eq!(
        grant_temp_hp(5, 8),
        TempHpResult {
            before: 5,
            offered: 8,
            after: 8,
            replaced: true
        }
    );
    let r = grant_temp_hp(8, 5);
    assert_eq!((r.after, r.replaced), (8, false));
}

#[test]
fn death_saves() {
    let dying = Vitals {
        hp: 0,
        max_hp: 10,
        ..Vitals::default()
    };
    let r = resolve_death_save(&dying, 10, 0).unwrap();
    assert_eq!(r.outcome, DeathSaveOutcome::Success);
    let r = resolve_death_save(&dying, 9, 0).unwrap();
    assert_eq!(
        (r.outcome, r.death_saves.failures),
        (DeathSaveOutcome::Failure, 1)
    );
    let r = resolve_death_save(&dying, 1, 5).unwrap();
    assert_eq!(
        (r.outcome, r.death_saves.failures),
        (DeathSaveOutcome::TwoFailures, 2)
    );
    let r = resolve_death_save(&dying, 20, 0).unwrap();
    assert_eq!(
        (r.outcome, r.hp_after),
        (DeathSaveOutcome::RegainsConsciousness, 1)
    );
    assert_eq!(r.death_saves, DeathSaves::default());

    let mut v = dying;
    v.death_saves = DeathSaves {
        successes: 2,
        failures: 2,
        stable: false,
    };
    let r = resolve_death_save(&v, 15, 0).unwrap();
    assert_eq!(r.outcome, DeathSaveOutcome::Stable);
    assert!(r.death_saves.stable);
    let r = resolve_death_save(&v, 4, 0).unwrap();
    assert_eq!(r.outcome, DeathSaveOutcome::Dead);
    assert!(r.dead);
    assert!(r.summary().contains("third failure"), "{}", r.summary());

    let plain = sheet(&[], 0);
    let mut roller = ScriptedRoller::new(vec![12]);
    let r = roll_death_save(&dying, &plain, &mut roller).unwrap();
    assert_eq!((r.roll, r.outcome), (12, DeathSaveOutcome::Success));
    assert_eq!(
        r.summary(),
        "Death save: d20 [12] = 12 — success (1 successes, 0 failures)"
    );

    let mut roller = ScriptedRoller::new(vec![12]);
    let up = Vitals {
        hp: 3,
        max_hp: 10,
        ..Vitals::default()
    };
    assert_eq!(
        roll_death_save(&up, &plain, &mut roller),
        Err(DamageError::NotAtZeroHp { hp: 3 })
    );
    assert_eq!(roller.rolled(), 0);
    let mut stable = dying;
    stable.death_saves.stable = true;
    assert_eq!(resolve_death_save(&stable, 12, 0), Err(DamageError::Stable));
}

fn sheet(effects: &[crate::modifiers::Modifier], exhaustion: u32) -> EffectiveStats {
    let mut c = crate::conditions::ConditionSet::new();
    c.set_exhaustion(exhaustion).unwrap();
    crate::stats::effective_stats(&crate::stats::BaseStats::default(), &[], &c, effects)
}

#[test]
fn death_saves_use_the_sheet() {
    use crate::modifiers::{DiceCount, Modifier, ModifierKind, RollTarget};
    let dying = Vitals {
        hp: 0,
        max_hp: 10,
        ..Vitals::default()
    };
    // Bless turns a 8 into a success.
    let bless = Modifier::new(
        "Bless",
        ModifierKind::RollDice {
            on: RollTarget::AllSaves,
            dice: DiceCount::new(1, 4),
            subtract: false,
        },
    );
    let mut roller = ScriptedRoller::new(vec![8, 3]);
    let r = roll_death_save(&dying, &sheet(&[bless], 0), &mut roller).unwrap();
    assert_eq!(
        (r.roll, r.modifier, r.total, r.outcome),
        (8, 3, 11, DeathSaveOutcome::Success)
    );
    assert!(
        r.summary().contains("+ 1d4 [3] (Bless) = 11 — success"),
        "{}",
        r.summary()
    );
    // Exhaustion 3: disadvantage on saves, so a 20 and a 1 keep the 1.
    let mut roller = ScriptedRoller::new(vec![20, 1]);
    let r = roll_death_save(&dying, &sheet(&[], 3), &mut roller).unwrap();
    assert_eq!((r.roll, r.outcome), (1, DeathSaveOutcome::TwoFailures));
}

#[test]
fn result_serializes() {
    let r = apply_damage(&target(0, 20, AtZeroHp::DeathSaves), &[fire(3)], true).unwrap();
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(
        json["outcome"],
        serde_json::json!({"result": "death_save_failures", "added": 2, "total": 2})
    );
    assert_eq!(json["hpAfter"], 0);
}
