//! Benchmarks for the rules hot paths: dice parse + roll (a simple and a heavy expression),
//! effective stats with equipment, conditions and effects, and an attack resolved end to end
//! (d20 attack test, damage dice, damage pipeline).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tabletop_rules::d20::D20Test;
use tabletop_rules::damage::{AtZeroHp, DamageTarget, Vitals};
use tabletop_rules::dice::{self, DiceRng};
use tabletop_rules::modifiers::{DiceCount, RollTarget};
use tabletop_rules::stats::ArmorClass;
use tabletop_rules::{
    Ability, AbilityScores, BaseStats, Condition, ConditionSet, D20Request, DamagePart, DamageType,
    Modifier, ModifierKind, ProficiencyLevel, Skill, apply_damage, effective_stats, roll_d20_test,
};

/// A level-5 fighter in chain mail with two proficient saves and two skills.
fn fighter() -> BaseStats {
    let mut b =
        BaseStats::character(5, AbilityScores::new([16, 14, 14, 10, 12, 8])).expect("valid level");
    b.save_proficiencies = [Ability::Strength, Ability::Constitution]
        .into_iter()
        .collect();
    b.skill_proficiencies
        .insert(Skill::Perception, ProficiencyLevel::Proficient);
    b.skill_proficiencies
        .insert(Skill::Stealth, ProficiencyLevel::Expertise);
    b.armor_class = ArmorClass {
        value: 16,
        source: "chain mail".into(),
    };
    b.max_hp = 44;
    b.resistances.insert(DamageType::Fire);
    b
}

/// Three equipped items: a shield, a belt of giant strength, a ring of protection.
fn equipment() -> Vec<Modifier> {
    vec![
        Modifier::new("Shield", ModifierKind::AcBonus { amount: 2 }),
        Modifier::new(
            "Belt of Hill Giant Strength",
            ModifierKind::AbilitySetTo {
                ability: Ability::Strength,
                score: 21,
            },
        ),
        Modifier::new("Ring of Protection", ModifierKind::AcBonus { amount: 1 }),
        Modifier::new(
            "Ring of Protection",
            ModifierKind::RollBonus {
                on: RollTarget::AllSaves,
                amount: 1,
            },
        ),
    ]
}

/// Two spell effects: Bless and Haste.
fn effects() -> Vec<Modifier> {
    vec![
        Modifier::new(
            "Bless",
            ModifierKind::RollDice {
                on: RollTarget::AttackRolls,
                dice: DiceCount::new(1, 4),
                subtract: false,
            },
        ),
        Modifier::new(
            "Bless",
            ModifierKind::RollDice {
                on: RollTarget::AllSaves,
                dice: DiceCount::new(1, 4),
                subtract: false,
            },
        ),
        Modifier::new("Haste", ModifierKind::AcBonus { amount: 2 }),
        Modifier::new("Haste", ModifierKind::SpeedMultiplier { factor: 2 }),
        Modifier::new(
            "Haste",
            ModifierKind::Advantage {
                on: RollTarget::Save {
                    ability: Ability::Dexterity,
                },
            },
        ),
    ]
}

fn conditions() -> ConditionSet {
    [Condition::Poisoned, Condition::Prone]
        .into_iter()
        .collect()
}

fn benches(c: &mut Criterion) {
    let mut rng = DiceRng::from_seed(7);
    c.bench_function("dice parse+roll 1d20+5", |b| {
        b.iter(|| dice::roll(black_box("1d20+5"), &mut rng).expect("valid"))
    });
    let heavy = "4d6kh3+2d8!+10d10r1";
    c.bench_function("dice parse+roll 4d6kh3+2d8!+10d10r1", |b| {
        b.iter(|| dice::roll(black_box(heavy), &mut rng).expect("valid"))
    });
    let parsed = dice::parse(heavy).expect("valid");
    c.bench_function("dice roll only 4d6kh3+2d8!+10d10r1", |b| {
        b.iter(|| black_box(&parsed).roll(&mut rng).expect("valid"))
    });

    let (base, eq, conds, fx) = (fighter(), equipment(), conditions(), effects());
    c.bench_function("effective_stats plain", |b| {
        b.iter(|| effective_stats(black_box(&base), &[], &ConditionSet::new(), &[]))
    });
    c.bench_function("effective_stats 3 items, 2 conditions, 2 effects", |b| {
        b.iter(|| effective_stats(black_box(&base), &eq, &conds, &fx))
    });

    // An attack end to end: attacker's and target's effective stats are computed once per
    // call, as the engine does, then the d20 test, the damage dice and the damage pipeline.
    let target_base = fighter();
    c.bench_function(
        "attack: effective stats ×2 + d20 + damage roll + pipeline",
        |b| {
            b.iter(|| {
                let attacker = effective_stats(&base, &eq, &ConditionSet::new(), &fx);
                let target = effective_stats(&target_base, &[], &conds, &[]);
                let request = D20Request::new(D20Test::Attack {
                    ability: Some(Ability::Strength),
                    proficient: true,
                })
                .dc(target.armor_class.value)
                .against(&target, true);
                let outcome = roll_d20_test(&attacker, &request, &mut rng);
                if outcome.success != Some(true) {
                    return None;
                }
                let expr = if outcome.critical {
                    "2d8[slashing]+1d6[fire]+5"
                } else {
                    "1d8[slashing]+1d6[fire]+5"
                };
                let dmg = dice::roll(expr, &mut rng).expect("valid");
                let parts: Vec<DamagePart> = dmg
                    .terms
                    .iter()
                    .map(|t| DamagePart::new(t.damage_type, t.value.max(0) as u32))
                    .collect();
                let victim = DamageTarget {
                    vitals: Vitals {
                        hp: 30,
                        max_hp: target.max_hp.value.max(1) as u32,
                        ..Default::default()
                    },
                    defenses: target.defenses.clone(),
                    at_zero: AtZeroHp::DeathSaves,
                };
                Some(apply_damage(&victim, &parts, outcome.critical).expect("alive"))
            })
        },
    );
    let attacker = effective_stats(&base, &eq, &ConditionSet::new(), &fx);
    let target = effective_stats(&target_base, &[], &conds, &[]);
    let request = D20Request::new(D20Test::Attack {
        ability: Some(Ability::Strength),
        proficient: true,
    })
    .dc(target.armor_class.value)
    .against(&target, true);
    c.bench_function("attack: d20 test only (stats precomputed)", |b| {
        b.iter(|| roll_d20_test(black_box(&attacker), black_box(&request), &mut rng))
    });
    let victim = DamageTarget {
        vitals: Vitals {
            hp: 30,
            max_hp: 44,
            ..Default::default()
        },
        defenses: target.defenses.clone(),
        at_zero: AtZeroHp::DeathSaves,
    };
    let parts = [
        DamagePart::new(Some(DamageType::Slashing), 9),
        DamagePart::new(Some(DamageType::Fire), 4),
    ];
    c.bench_function("damage pipeline 2 types (resistance)", |b| {
        b.iter(|| apply_damage(black_box(&victim), black_box(&parts), false).expect("alive"))
    });
}

criterion_group!(rules, benches);
criterion_main!(rules);
