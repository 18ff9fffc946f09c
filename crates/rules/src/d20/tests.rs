use super::*;
use crate::abilities::{AbilityScores, ProficiencyLevel};
use crate::conditions::ConditionSet;
use crate::modifiers::{Modifier, ModifierKind, RollTarget};
use crate::roller::ScriptedRoller;
use crate::stats::{BaseStats, effective_stats};
use crate::vocab::Condition;

fn rogue() -> BaseStats {
    let mut b = BaseStats::character(3, AbilityScores::new([10, 16, 12, 10, 14, 8])).unwrap();
    b.skill_proficiencies
        .insert(Skill::Stealth, ProficiencyLevel::Proficient);
    b.save_proficiencies.insert(Ability::Dexterity);
    b
}

fn sheet(conds: &[Condition], effects: &[Modifier]) -> EffectiveStats {
    effective_stats(
        &rogue(),
        &[],
        &conds.iter().copied().collect::<ConditionSet>(),
        effects,
    )
}

fn stealth() -> D20Request {
    D20Request::new(D20Test::SkillCheck {
        skill: Skill::Stealth,
    })
}

#[test]
fn poisoned_check_keeps_the_lower() {
    let s = sheet(&[Condition::Poisoned], &[]);
    let mut roller = ScriptedRoller::new(vec![7, 15]);
    let o = roll_d20_test(&s, &stealth().dc(13), &mut roller);
    assert_eq!(o.mode, RollMode::Disadvantage);
    assert_eq!(o.rolls, vec![7, 15]);
    assert_eq!(o.kept, Some(7));
    assert_eq!(o.total, Some(12));
    assert_eq!(o.success, Some(false));
    assert_eq!(
        o.summary(),
        "Stealth check: d20 [7, ~~15~~] (disadvantage: poisoned) + 5 = 12 vs DC 13 — fail"
    );
}

#[test]
fn advantage_keeps_the_higher() {
    let s = sheet(&[], &[]);
    let mut roller = ScriptedRoller::new(vec![7, 15]);
    let o = roll_d20_test(
        &s,
        &stealth()
            .dc(13)
            .advantage("Pass without Trace? no: hiding in fog"),
        &mut roller,
    );
    assert_eq!(
        (o.kept, o.total, o.success),
        (Some(15), Some(20), Some(true))
    );
    assert!(
        o.summary()
            .starts_with("Stealth check: d20 [~~7~~, 15] (advantage:"),
        "{}",
        o.summary()
    );
}

#[test]
fn many_advantages_and_one_disadvantage_cancel() {
    let s = sheet(&[Condition::Poisoned, Condition::Frightened], &[]);
    let req = stealth()
        .dc(10)
        .advantage("help")
        .advantage("invisible to the watcher");
    let mut roller = ScriptedRoller::new(vec![4, 20]);
    let o = roll_d20_test(&s, &req, &mut roller);
    assert_eq!(o.mode, RollMode::Normal);
    assert_eq!(o.rolls, vec![4]);
    assert_eq!(roller.rolled(), 1);
    assert_eq!(o.disadvantage.len(), 2);
    assert!(o.summary().contains("— cancel)"), "{}", o.summary());
}

#[test]
fn paralyzed_auto_fails_dex_save_without_rolling() {
    let s = sheet(&[Condition::Paralyzed], &[]);
    let mut roller = ScriptedRoller::new(vec![20]);
    let o = roll_d20_test(
        &s,
        &D20Request::new(D20Test::Save {
            ability: Ability::Dexterity,
        })
        .dc(12),
        &mut roller,
    );
    assert_eq!(o.success, Some(false));
    assert!(o.rolls.is_empty());
    assert_eq!(roller.rolled(), 0);
    assert_eq!(
        o.summary(),
        "Dexterity save: automatic fail (paralyzed) vs DC 12 — fail"
    );
    // A WIS save still rolls.
    let o = roll_d20_test(
        &s,
        &D20Request::new(D20Test::Save {
            ability: Ability::Wisdom,
        })
        .dc(12),
        &mut roller,
    );
    assert_eq!(o.rolls, vec![20]);
}

#[test]
fn caller_auto_fail() {
    let s = sheet(&[Condition::Blinded], &[]);
    let req = D20Request::new(D20Test::SkillCheck {
        skill: Skill::Perception,
    })
    .dc(10)
    .auto_fails("blinded: the check requires sight");
    let mut roller = ScriptedRoller::new(vec![20]);
    let o = roll_d20_test(&s, &req, &mut roller);
    assert_eq!((o.success, o.rolls.len()), (Some(false), 0));
}

#[test]
fn bless_die_is_rolled_and_shown() {
    let bless = Modifier::new(
        "Bless",
        ModifierKind::RollDice {
            on: RollTarget::AllSaves,
            dice: DiceCount::new(1, 4),
            subtract: false,
        },
    );
    let s = sheet(&[], &[bless]);
    let mut roller = ScriptedRoller::new(vec![10, 3]);
    let o = roll_d20_test(
        &s,
        &D20Request::new(D20Test::Save {
            ability: Ability::Dexterity,
        })
        .dc(18),
        &mut roller,
    );
    // 10 + 3 (DEX) + 2 (proficiency) + 3 (Bless).
    assert_eq!(o.total, Some(18));
    assert_eq!(o.success, Some(true));
    assert_eq!(
        o.summary(),
        "Dexterity save: d20 [10] + 5 + 1d4 [3] (Bless) = 18 vs DC 18 — success"
    );
}

#[test]
fn natural_rolls_on_checks_are_only_reported() {
    let s = sheet(&[], &[]);
    let mut roller = ScriptedRoller::new(vec![20]);
    let o = roll_d20_test(
        &s,
        &D20Request::new(D20Test::AbilityCheck {
            ability: Ability::Strength,
        })
        .dc(25),
        &mut roller,
    );
    assert!(o.natural_20);
    assert_eq!(o.success, Some(false));
    assert!(
        o.summary().ends_with("— fail (natural 20)"),
        "{}",
        o.summary()
    );
    let mut roller = ScriptedRoller::new(vec![1]);
    let o = roll_d20_test(&s, &stealth().dc(5), &mut roller);
    assert!(o.natural_1);
    assert_eq!(o.success, Some(true));
}

#[test]
fn attacks_crit_on_20_and_miss_on_1() {
    let s = sheet(&[], &[]);
    let atk = D20Request::new(D20Test::Attack {
        ability: Some(Ability::Dexterity),
        proficient: true,
    })
    .dc(30);
    let mut roller = ScriptedRoller::new(vec![20]);
    let o = roll_d20_test(&s, &atk, &mut roller);
    assert_eq!((o.success, o.critical), (Some(true), true));
    assert_eq!(
        o.summary(),
        "Attack roll: d20 [20] + 5 = 25 vs AC 30 — critical hit"
    );
    let atk = D20Request::new(D20Test::Attack {
        ability: Some(Ability::Dexterity),
        proficient: true,
    })
    .dc(2);
    let mut roller = ScriptedRoller::new(vec![1]);
    let o = roll_d20_test(&s, &atk, &mut roller);
    assert_eq!(o.success, Some(false));
    assert!(o.summary().ends_with("— miss (natural 1)"));
    // Stat-block to-hit given by the caller.
    let atk = D20Request::new(D20Test::Attack {
        ability: None,
        proficient: false,
    })
    .bonus("stat block", 4)
    .dc(13);
    let mut roller = ScriptedRoller::new(vec![9]);
    let o = roll_d20_test(&s, &atk, &mut roller);
    assert_eq!(
        (o.total, o.success, o.critical),
        (Some(13), Some(true), false)
    );
}

#[test]
fn attack_against_paralyzed_target_within_5_ft() {
    let attacker = sheet(&[], &[]);
    let target = sheet(&[Condition::Paralyzed], &[]);
    let atk = D20Request::new(D20Test::Attack {
        ability: Some(Ability::Dexterity),
        proficient: true,
    })
    .dc(12)
    .against(&target, true);
    let mut roller = ScriptedRoller::new(vec![3, 11]);
    let o = roll_d20_test(&attacker, &atk, &mut roller);
    assert_eq!(o.mode, RollMode::Advantage);
    assert_eq!(o.kept, Some(11));
    assert!(o.critical);
    assert_eq!(o.critical_reasons, vec!["target paralyzed".to_string()]);
    assert!(
        o.summary().ends_with("— critical hit (target paralyzed)"),
        "{}",
        o.summary()
    );
    // From range: advantage but no auto-crit.
    let atk = D20Request::new(D20Test::Attack {
        ability: Some(Ability::Dexterity),
        proficient: true,
    })
    .dc(12)
    .against(&target, false);
    let mut roller = ScriptedRoller::new(vec![3, 11]);
    let o = roll_d20_test(&attacker, &atk, &mut roller);
    assert!(!o.critical && o.success == Some(true));
}

#[test]
fn prone_target_from_range_gives_disadvantage() {
    let attacker = sheet(&[], &[]);
    let target = sheet(&[Condition::Prone], &[]);
    let atk = D20Request::new(D20Test::Attack {
        ability: Some(Ability::Dexterity),
        proficient: true,
    })
    .against(&target, false);
    let mut roller = ScriptedRoller::new(vec![15, 4]);
    let o = roll_d20_test(&attacker, &atk, &mut roller);
    assert_eq!((o.mode, o.kept), (RollMode::Disadvantage, Some(4)));
    assert_eq!(o.success, None);
}

#[test]
fn initiative_and_concentration_use_their_stats() {
    let alert = Modifier::new(
        "Alert",
        ModifierKind::RollBonus {
            on: RollTarget::Initiative,
            amount: 5,
        },
    );
    let warcaster = Modifier::new(
        "War Caster",
        ModifierKind::Advantage {
            on: RollTarget::ConcentrationSaves,
        },
    );
    let s = sheet(&[], &[alert, warcaster]);
    let mut roller = ScriptedRoller::new(vec![10, 4, 12]);
    let o = roll_d20_test(&s, &D20Request::new(D20Test::Initiative), &mut roller);
    assert_eq!(o.total, Some(18));
    let o = roll_d20_test(
        &s,
        &D20Request::new(D20Test::Concentration).dc(11),
        &mut roller,
    );
    assert_eq!(
        (o.mode, o.kept, o.total, o.success),
        (RollMode::Advantage, Some(12), Some(13), Some(true))
    );
}

#[test]
fn passive_scores() {
    let s = sheet(&[], &[]);
    let req = D20Request::new(D20Test::SkillCheck {
        skill: Skill::Perception,
    });
    assert_eq!(passive_score(&s, &req).value, 12);
    let p = passive_score(&s, &req.clone().advantage("keen senses").dc(15));
    assert_eq!((p.value, p.success), (17, Some(true)));
    let s = sheet(&[Condition::Poisoned], &[]);
    let p = passive_score(&s, &req.clone().dc(10));
    assert_eq!(p.value, 7);
    assert_eq!(
        p.summary(),
        "Passive Perception: 10 + 2 - 5 (disadvantage: poisoned) = 7 vs DC 10 — fail"
    );
    assert_eq!(s.passive_perception.value, 7);
}

#[test]
fn contests_and_ties() {
    let a = sheet(&[], &[]);
    let b = sheet(&[], &[]);
    let ath = D20Request::new(D20Test::SkillCheck {
        skill: Skill::Athletics,
    });
    let acro = D20Request::new(D20Test::SkillCheck {
        skill: Skill::Acrobatics,
    });
    let mut roller = ScriptedRoller::new(vec![15, 10]);
    let c = roll_contest((&a, &ath), (&b, &acro), &mut roller);
    // 15 + 0 vs 10 + 3.
    assert_eq!(c.winner, ContestWinner::First);
    let mut roller = ScriptedRoller::new(vec![13, 10]);
    let c = roll_contest((&a, &ath), (&b, &acro), &mut roller);
    assert_eq!(c.winner, ContestWinner::Tie);
    assert!(
        c.summary()
            .starts_with("Athletics check 13 vs Acrobatics check 13 — tie"),
        "{}",
        c.summary()
    );
}

#[test]
fn group_checks_need_half() {
    let s = sheet(&[], &[]);
    let mut roller = ScriptedRoller::new(vec![2, 18, 3, 19]);
    let outcomes: Vec<_> = (0..4)
        .map(|_| roll_d20_test(&s, &stealth().dc(12), &mut roller))
        .collect();
    let g = group_check(outcomes.clone());
    assert_eq!((g.successes, g.success), (2, true));
    let g = group_check(outcomes[..3].to_vec());
    assert_eq!((g.successes, g.success), (1, false));
    assert!(!group_check(Vec::new()).success);
    assert!(
        g.summary()
            .starts_with("Group check: 1 of 3 succeed — fail")
    );
}

#[test]
fn request_and_outcome_serialize() {
    let req: D20Request = serde_json::from_str(
            r#"{"test":{"check":"skill_check","skill":"stealth"},"dc":13,"disadvantage":["heavy armor"]}"#,
        )
        .unwrap();
    assert_eq!(
        req.test,
        D20Test::SkillCheck {
            skill: Skill::Stealth
        }
    );
    let s = sheet(&[], &[]);
    let mut roller = ScriptedRoller::new(vec![5, 6]);
    let o = roll_d20_test(&s, &req, &mut roller);
    let json = serde_json::to_value(&o).unwrap();
    assert_eq!(json["mode"], "disadvantage");
    assert_eq!(json["kept"], 5);
    assert_eq!(json["natural20"], false);
}
