use super::*;
use crate::abilities::AbilityScores;
use crate::modifiers::DiceCount;
use crate::vocab::DamageType;

fn fighter() -> BaseStats {
    let mut b = BaseStats::character(5, AbilityScores::new([16, 14, 14, 10, 12, 8])).unwrap();
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
    b
}

fn conds(cs: &[Condition]) -> ConditionSet {
    cs.iter().copied().collect()
}

#[test]
fn plain_sheet() {
    let e = effective_stats(&fighter(), &[], &ConditionSet::new(), &[]);
    assert_eq!(e.proficiency_bonus, 3);
    assert_eq!(e.saves[&Ability::Strength].bonus, 6);
    assert_eq!(e.saves[&Ability::Dexterity].bonus, 2);
    assert_eq!(e.skills[&Skill::Stealth].bonus, 2 + 6);
    assert_eq!(e.skills[&Skill::Athletics].bonus, 3);
    assert_eq!(e.initiative.bonus, 2);
    assert_eq!(e.passive_perception.value, 10 + 1 + 3);
    assert_eq!(e.armor_class.value, 16);
    assert_eq!(e.speed.value, 30);
    assert_eq!(e.max_hp.value, 44);
    assert!(!e.is_incapacitated() && !e.is_dead() && !e.is_speed_zero());
    let text = e.explain();
    assert!(text.contains("AC 16 = 16 (chain mail)"), "{text}");
    assert!(
        text.contains("Stealth +8 = 2 (DEX modifier) + 6 (expertise)"),
        "{text}"
    );
}

#[test]
fn belt_of_giant_strength_sets_unless_higher() {
    let belt = Modifier::new(
        "Belt of Hill Giant Strength",
        ModifierKind::AbilitySetTo {
            ability: Ability::Strength,
            score: 21,
        },
    );
    let e = effective_stats(
        &fighter(),
        std::slice::from_ref(&belt),
        &ConditionSet::new(),
        &[],
    );
    let s = &e.abilities[&Ability::Strength];
    assert_eq!((s.base, s.value, s.modifier), (16, 21, 5));
    assert_eq!(s.sources[0].delta, 5);
    assert_eq!(e.saves[&Ability::Strength].bonus, 5 + 3);

    let mut strong = fighter();
    strong.abilities.strength = 23;
    let e = effective_stats(&strong, &[belt], &ConditionSet::new(), &[]);
    assert_eq!(e.score(Ability::Strength), 23);
    assert!(e.abilities[&Ability::Strength].sources.is_empty());
}

#[test]
fn equipped_score_matches_the_full_pipeline() {
    let mut b = fighter();
    b.traits.push(Modifier::new(
        "racial",
        ModifierKind::AbilityBonus {
            ability: Ability::Dexterity,
            amount: 2,
        },
    ));
    let gear = [
        Modifier::new(
            "belt",
            ModifierKind::AbilitySetTo {
                ability: Ability::Strength,
                score: 21,
            },
        ),
        Modifier::new(
            "gloves",
            ModifierKind::AbilityBonus {
                ability: Ability::Dexterity,
                amount: 20,
            },
        ),
    ];
    let e = effective_stats(&b, &gear, &ConditionSet::new(), &[]);
    for &a in Ability::ALL {
        assert_eq!(equipped_score(&b, &gear, a), e.score(a), "{a:?}");
    }
    assert_eq!(equipped_score(&b, &gear, Ability::Dexterity), 30);
}

#[test]
fn ability_bonus_is_capped_at_30() {
    let mut b = fighter();
    b.abilities.strength = 29;
    let m = Modifier::new(
        "tome",
        ModifierKind::AbilityBonus {
            ability: Ability::Strength,
            amount: 4,
        },
    );
    let e = effective_stats(&b, &[m], &ConditionSet::new(), &[]);
    assert_eq!(e.score(Ability::Strength), 30);
}

#[test]
fn con_change_scales_max_hp() {
    let amulet = Modifier::new(
        "Amulet of Health",
        ModifierKind::AbilitySetTo {
            ability: Ability::Constitution,
            score: 19,
        },
    );
    let e = effective_stats(&fighter(), &[amulet], &ConditionSet::new(), &[]);
    // CON 14 (+2) → 19 (+4): +2 × 5 levels.
    assert_eq!(e.max_hp.value, 44 + 10);
}

#[test]
fn equipment_and_effects_stack_with_sources() {
    let equipment = [
        Modifier::new("Ring of Protection", ModifierKind::AcBonus { amount: 1 }),
        Modifier::new(
            "Ring of Protection",
            ModifierKind::RollBonus {
                on: RollTarget::AllSaves,
                amount: 1,
            },
        ),
        Modifier::new("+1 longsword", ModifierKind::DamageBonus { amount: 1 }),
        Modifier::new(
            "Flame Tongue",
            ModifierKind::ExtraDamage {
                dice: DiceCount::new(2, 6),
                damage_type: DamageType::Fire,
            },
        ),
        Modifier::new(
            "Cloak of Elvenkind",
            ModifierKind::Advantage {
                on: RollTarget::SkillChecks {
                    skill: Skill::Stealth,
                },
            },
        ),
    ];
    let effects = [
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
        Modifier::new("Longstrider", ModifierKind::SpeedBonus { feet: 10 }),
        Modifier::new("Aid", ModifierKind::MaxHpBonus { amount: 5 }),
        Modifier::new(
            "Stoneskin",
            ModifierKind::Resistance {
                damage_type: Some(DamageType::Slashing),
            },
        ),
        Modifier::new(
            "Hunter's Mark",
            ModifierKind::ExtraDamage {
                dice: DiceCount::new(1, 6),
                damage_type: DamageType::Force,
            },
        ),
    ];
    let e = effective_stats(&fighter(), &equipment, &ConditionSet::new(), &effects);
    assert_eq!(e.armor_class.value, 19);
    assert_eq!(e.armor_class.sources.len(), 2);
    assert_eq!(e.speed.value, 80); // (30 + 10) × 2
    assert_eq!(e.max_hp.value, 49);
    assert_eq!(e.saves[&Ability::Wisdom].bonus, 1 + 1);
    assert_eq!(e.saves[&Ability::Wisdom].dice.len(), 1);
    assert_eq!(e.saves[&Ability::Dexterity].mode(), RollMode::Advantage);
    assert_eq!(e.concentration.dice.len(), 1);
    assert_eq!(
        e.skills[&Skill::Stealth].advantage,
        vec!["Cloak of Elvenkind".to_string()]
    );
    assert_eq!(e.attack.dice[0].source, "Bless");
    assert_eq!(e.damage.bonus, 1);
    assert_eq!(e.damage.extra_dice.len(), 2);
    assert_eq!(
        e.defenses
            .resistance(Some(DamageType::Slashing))
            .map(|d| d.source.as_str()),
        Some("Stoneskin")
    );
    let text = e.explain();
    assert!(
        text.contains("AC 19 = 16 (chain mail) + 1 (Ring of Protection) + 2 (Haste)"),
        "{text}"
    );
    assert!(
        text.contains("Speed (ft) 80 = 30 base + 10 (Longstrider) + 40 (Haste (×2))"),
        "{text}"
    );
}

#[test]
fn poisoned_and_frightened_impose_disadvantage() {
    let e = effective_stats(&fighter(), &[], &conds(&[Condition::Poisoned]), &[]);
    assert_eq!(
        e.skills[&Skill::Stealth].disadvantage,
        vec!["poisoned".to_string()]
    );
    assert_eq!(e.initiative.mode(), RollMode::Disadvantage);
    assert_eq!(e.attack.mode(), RollMode::Disadvantage);
    assert_eq!(e.saves[&Ability::Wisdom].mode(), RollMode::Normal);
    // Passive Perception −5.
    assert_eq!(e.passive_perception.value, 14 - 5);
}

#[test]
fn paralyzed_sheet() {
    let e = effective_stats(&fighter(), &[], &conds(&[Condition::Paralyzed]), &[]);
    assert!(e.is_incapacitated());
    assert_eq!(
        e.incapacitated,
        vec!["incapacitated (from paralyzed)".to_string()]
    );
    assert_eq!(e.speed.value, 0);
    assert_eq!(
        e.saves[&Ability::Dexterity].auto_fail,
        vec!["paralyzed".to_string()]
    );
    assert!(e.saves[&Ability::Wisdom].auto_fail.is_empty());
    let (adv, dis, crit) = e.attacks_against.for_attacker(true);
    assert_eq!((adv.len(), dis.len(), crit.len()), (1, 0, 1));
    let (_, _, crit) = e.attacks_against.for_attacker(false);
    assert!(crit.is_empty());
}

#[test]
fn grappled_speed_zero_beats_bonuses() {
    let haste = Modifier::new("Haste", ModifierKind::SpeedMultiplier { factor: 2 });
    let e = effective_stats(&fighter(), &[], &conds(&[Condition::Grappled]), &[haste]);
    assert_eq!(e.speed.value, 0);
    assert_eq!(e.speed_zero, vec!["grappled".to_string()]);
}

#[test]
fn exhaustion_levels() {
    let mut c = ConditionSet::new();
    c.set_exhaustion(4).unwrap();
    let e = effective_stats(&fighter(), &[], &c, &[]);
    assert_eq!(e.max_hp.value, 22);
    assert_eq!(e.speed.value, 15);
    assert_eq!(
        e.saves[&Ability::Wisdom].disadvantage,
        vec!["exhaustion level 3".to_string()]
    );
    assert_eq!(
        e.skills[&Skill::Arcana].disadvantage,
        vec!["exhaustion level 1".to_string()]
    );
    assert!(!e.is_dead());
    assert_eq!(e.conditions, vec!["exhaustion level 4".to_string()]);
    c.set_exhaustion(6).unwrap();
    let e = effective_stats(&fighter(), &[], &c, &[]);
    assert!(e.is_dead() && e.is_speed_zero());
}

#[test]
fn unconscious_prone_cancels_at_range() {
    let e = effective_stats(&fighter(), &[], &conds(&[Condition::Unconscious]), &[]);
    let (adv, dis, _) = e.attacks_against.for_attacker(false);
    assert_eq!(adv, vec!["unconscious".to_string()]);
    assert_eq!(dis, vec!["prone (from unconscious)".to_string()]);
    let (adv, dis, crit) = e.attacks_against.for_attacker(true);
    assert_eq!((adv.len(), dis.len(), crit.len()), (2, 0, 1));
}

#[test]
fn condition_immunity_suspends_effects() {
    let mut b = fighter();
    b.condition_immunities.insert(Condition::Poisoned);
    let e = effective_stats(&b, &[], &conds(&[Condition::Poisoned]), &[]);
    assert_eq!(e.attack.mode(), RollMode::Normal);
    assert!(e.conditions.is_empty());
    assert!(e.is_immune_to(Condition::Poisoned));
    // Petrified suspends poison.
    let e = effective_stats(
        &fighter(),
        &[],
        &conds(&[Condition::Poisoned, Condition::Petrified]),
        &[],
    );
    assert_eq!(e.skills[&Skill::Arcana].mode(), RollMode::Normal);
    assert_eq!(
        e.condition_immunities[&Condition::Poisoned],
        vec!["petrified".to_string()]
    );
    assert!(e.defenses.resistance(Some(DamageType::Fire)).is_some());
    assert!(e.defenses.immunity(Some(DamageType::Poison)).is_some());
}

#[test]
fn serializes_camel_case() {
    let e = effective_stats(&fighter(), &[], &conds(&[Condition::Prone]), &[]);
    let json = serde_json::to_value(&e).unwrap();
    assert!(json.get("armorClass").is_some());
    assert!(json.get("passivePerception").is_some());
    assert_eq!(json["saves"]["dex"]["bonus"], 2);
    let back: EffectiveStats = serde_json::from_value(json).unwrap();
    assert_eq!(back, e);
    let base_json = serde_json::to_string(&fighter()).unwrap();
    let back: BaseStats = serde_json::from_str(&base_json).unwrap();
    assert_eq!(back, fighter());
    let minimal: BaseStats = serde_json::from_str(r#"{"level": 3, "maxHp": 20}"#).unwrap();
    assert_eq!(minimal.speed, 30);
}
