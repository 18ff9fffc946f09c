//! The creature sheet and the effective-stats pipeline.
//!
//! [`BaseStats`] is what the engine stores. [`effective_stats`] is the one function every consumer
//! uses to learn what the creature can actually do right now: it applies, in order,
//! base (with its permanent traits) → equipment → conditions → effects, and every number in the
//! resulting [`EffectiveStats`] carries the [`Contribution`]s that explain it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::abilities::{MAX_SCORE, MIN_SCORE, ProficiencyLevel, ability_modifier};
use crate::conditions::{ConditionSet, condition_modifiers};
use crate::defenses::{DamageDefenses, Defense};
pub use crate::explained::{
    AbilityValue, BonusDice, Contribution, RollMode, RollStat, Stat, explain_contributions,
};
use crate::modifiers::{Modifier, ModifierKind, RollTarget, skill_name};
use crate::vocab::{Ability, Condition, Size, Skill};

mod base;
pub use base::{
    ArmorClass, AttacksAgainst, BaseStats, DamageBonuses, ExtraDamage, RangedSource, SourcedNote,
};

/// What a creature can actually do right now; every number explains itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct EffectiveStats {
    /// Level (or hit dice for monsters).
    pub level: u32,
    /// Proficiency bonus.
    pub proficiency_bonus: i32,
    /// Size.
    pub size: Size,
    /// Effective ability scores.
    pub abilities: BTreeMap<Ability, AbilityValue>,
    /// Armor class.
    pub armor_class: Stat,
    /// Walking speed in feet.
    pub speed: Stat,
    /// Maximum hit points.
    pub max_hp: Stat,
    /// Saving throws by ability.
    pub saves: BTreeMap<Ability, RollStat>,
    /// Raw ability checks by ability.
    pub ability_checks: BTreeMap<Ability, RollStat>,
    /// Skill checks.
    pub skills: BTreeMap<Skill, RollStat>,
    /// Initiative (a DEX check).
    pub initiative: RollStat,
    /// Concentration saves (CON saves).
    pub concentration: RollStat,
    /// Death saves (no ability; "all saves" modifiers apply).
    pub death_save: RollStat,
    /// Passive Perception (10 + Perception, ±5 for advantage/disadvantage).
    pub passive_perception: Stat,
    /// What applies to every attack roll it makes (the weapon's ability and proficiency are added
    /// per attack).
    pub attack: RollStat,
    /// Sources of advantage on its melee weapon attacks that use Strength only (Reckless
    /// Attack); the attack adds them when it is one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub melee_strength_advantage: Vec<String>,
    /// Bonuses to its damage.
    pub damage: DamageBonuses,
    /// How attacks against it are affected.
    pub attacks_against: AttacksAgainst,
    /// Damage resistances, immunities and vulnerabilities with their sources.
    pub defenses: DamageDefenses,
    /// Condition immunities with their sources.
    pub condition_immunities: BTreeMap<Condition, Vec<String>>,
    /// Conditions in effect, implied ones labelled ("incapacitated (from stunned)").
    pub conditions: Vec<String>,
    /// Sources making it incapacitated (empty = it can act).
    pub incapacitated: Vec<String>,
    /// Sources making its speed 0.
    pub speed_zero: Vec<String>,
    /// Sources making it dead.
    pub dead: Vec<String>,
    /// Rules the numbers cannot express.
    pub notes: Vec<SourcedNote>,
}

impl EffectiveStats {
    /// The effective score of an ability.
    pub fn score(&self, ability: Ability) -> u8 {
        self.abilities.get(&ability).map_or(10, |a| a.value)
    }

    /// The effective modifier of an ability.
    pub fn modifier(&self, ability: Ability) -> i32 {
        self.abilities.get(&ability).map_or(0, |a| a.modifier)
    }

    /// Whether it can't take actions or reactions.
    pub fn is_incapacitated(&self) -> bool {
        !self.incapacitated.is_empty()
    }

    /// Whether its speed is 0.
    pub fn is_speed_zero(&self) -> bool {
        !self.speed_zero.is_empty()
    }

    /// Whether it is dead.
    pub fn is_dead(&self) -> bool {
        !self.dead.is_empty()
    }

    /// Whether it is immune to a condition.
    pub fn is_immune_to(&self, condition: Condition) -> bool {
        self.condition_immunities.contains_key(&condition)
    }

    /// The flat parts of a weapon or spell attack's bonus: the ability modifier and, when
    /// proficient, the proficiency bonus (the sheet-wide attack bonuses are in [`Self::attack`]).
    pub fn attack_contributions(&self, ability: Ability, proficient: bool) -> Vec<Contribution> {
        let mut v = vec![Contribution::new(
            format!("{} modifier", ability.abbr()),
            self.modifier(ability),
        )];
        if proficient {
            v.push(Contribution::fixed("proficiency", self.proficiency_bonus));
        }
        v
    }

    /// A multi-line plain-text sheet: every number with its sources.
    pub fn explain(&self) -> String {
        let mut s = String::new();
        let abilities: Vec<String> = self
            .abilities
            .iter()
            .map(|(a, v)| {
                let mut t = format!("{} {} ({:+})", a.abbr(), v.value, v.modifier);
                if !v.sources.is_empty() {
                    let _ = write!(
                        t,
                        " [base {}; {}]",
                        v.base,
                        explain_contributions(&v.sources)
                    );
                }
                t
            })
            .collect();
        let _ = writeln!(s, "Abilities: {}", abilities.join(", "));
        let _ = writeln!(s, "AC {}", self.armor_class.explain());
        let _ = writeln!(s, "Speed (ft) {}", self.speed.explain());
        let _ = writeln!(s, "Max HP {}", self.max_hp.explain());
        let _ = writeln!(s, "Initiative {}", self.initiative.explain());
        let _ = writeln!(
            s,
            "Passive Perception {}",
            self.passive_perception.explain()
        );
        for (a, r) in &self.saves {
            let _ = writeln!(s, "{} save {}", a.abbr(), r.explain());
        }
        let mut plain = Vec::new();
        for (k, r) in &self.skills {
            if r.sources.len() <= 1
                && r.dice.is_empty()
                && r.advantage.is_empty()
                && r.disadvantage.is_empty()
            {
                plain.push(format!("{} {:+}", skill_name(*k), r.bonus));
            } else {
                let _ = writeln!(s, "{} {}", skill_name(*k), r.explain());
            }
        }
        if !plain.is_empty() {
            let _ = writeln!(
                s,
                "Other skills (ability modifier only): {}",
                plain.join(", ")
            );
        }
        if !self.attack.sources.is_empty()
            || !self.attack.dice.is_empty()
            || !self.attack.advantage.is_empty()
            || !self.attack.disadvantage.is_empty()
        {
            let _ = writeln!(s, "Attack rolls {}", self.attack.explain());
        }
        if self.damage.bonus != 0 || !self.damage.extra_dice.is_empty() {
            let mut t = format!("Damage {:+}", self.damage.bonus);
            for e in &self.damage.extra_dice {
                let _ = write!(t, "; +{} {} ({})", e.dice, e.damage_type, e.source);
            }
            let _ = writeln!(s, "{t}");
        }
        let ranged = |v: &[RangedSource]| {
            v.iter()
                .map(|r| format!("{}{}", r.source, r.range.suffix()))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !self.attacks_against.advantage.is_empty() {
            let _ = writeln!(
                s,
                "Attacks against it have advantage: {}",
                ranged(&self.attacks_against.advantage)
            );
        }
        if !self.attacks_against.disadvantage.is_empty() {
            let _ = writeln!(
                s,
                "Attacks against it have disadvantage: {}",
                ranged(&self.attacks_against.disadvantage)
            );
        }
        if !self.attacks_against.crit_within_5_ft.is_empty() {
            let _ = writeln!(
                s,
                "Hits from within 5 ft are critical: {}",
                self.attacks_against.crit_within_5_ft.join(", ")
            );
        }
        for (label, list) in [
            ("Resistances", &self.defenses.resistances),
            ("Immunities", &self.defenses.immunities),
            ("Vulnerabilities", &self.defenses.vulnerabilities),
        ] {
            if !list.is_empty() {
                let items: Vec<String> = list.iter().map(Defense::to_string).collect();
                let _ = writeln!(s, "{label}: {}", items.join(", "));
            }
        }
        if !self.condition_immunities.is_empty() {
            let items: Vec<String> = self
                .condition_immunities
                .iter()
                .map(|(c, src)| format!("{c} ({})", src.join(", ")))
                .collect();
            let _ = writeln!(s, "Condition immunities: {}", items.join(", "));
        }
        if !self.conditions.is_empty() {
            let _ = writeln!(s, "Conditions: {}", self.conditions.join(", "));
        }
        for (label, list) in [
            ("Dead", &self.dead),
            ("Incapacitated", &self.incapacitated),
            ("Speed 0", &self.speed_zero),
        ] {
            if !list.is_empty() {
                let _ = writeln!(s, "{label}: {}", list.join(", "));
            }
        }
        for n in &self.notes {
            let _ = writeln!(s, "Note ({}): {}", n.source, n.text);
        }
        s
    }
}

fn push_unique(v: &mut Vec<String>, s: &str) {
    if !v.iter().any(|x| x == s) {
        v.push(s.to_string());
    }
}

/// Builds a roll's stat from its fixed parts and every modifier touching one of `targets`
/// (`mods` are the roll modifiers only: bonuses, dice, advantage, disadvantage).
fn roll_stat(
    fixed: &[(&'static str, i32)],
    targets: &[RollTarget],
    mods: &[&Modifier],
) -> RollStat {
    let mut r = RollStat {
        sources: Vec::with_capacity(fixed.len()),
        ..RollStat::default()
    };
    for &(source, delta) in fixed {
        r.add_fixed(source, delta);
    }
    for m in mods {
        match &m.kind {
            ModifierKind::RollBonus { on, amount } if targets.contains(on) => {
                r.add(&m.source, *amount)
            }
            ModifierKind::RollDice { on, dice, subtract } if targets.contains(on) => {
                r.dice.push(BonusDice {
                    source: m.source.clone(),
                    dice: *dice,
                    subtract: *subtract,
                });
            }
            ModifierKind::Advantage { on } if targets.contains(on) => {
                push_unique(&mut r.advantage, &m.source)
            }
            ModifierKind::Disadvantage { on } if targets.contains(on) => {
                push_unique(&mut r.disadvantage, &m.source);
            }
            ModifierKind::RerollNaturalOne { on } if targets.contains(on) => {
                push_unique(&mut r.reroll_ones, &m.source);
            }
            _ => {}
        }
    }
    r
}

/// "STR modifier": the source of an ability's part in a roll (a constant, not formatted on
/// every derivation).
fn modifier_label(a: Ability) -> &'static str {
    match a {
        Ability::Strength => "STR modifier",
        Ability::Dexterity => "DEX modifier",
        Ability::Constitution => "CON modifier",
        Ability::Intelligence => "INT modifier",
        Ability::Wisdom => "WIS modifier",
        Ability::Charisma => "CHA modifier",
    }
}

fn clamp_score(v: i32) -> u8 {
    u8::try_from(v.clamp(i32::from(MIN_SCORE), i32::from(MAX_SCORE))).unwrap_or(MIN_SCORE)
}

/// An ability score through `layers` of modifiers: within a layer, bonuses apply before "becomes
/// N unless higher" settings. Unclamped; each change is recorded in `sources` when given.
/// One layer of modifiers, in order: up to two slices (the base layer is the caller's traits,
/// then the base sheet's own).
type Layer<'a> = [&'a [Modifier]; 2];

fn layered_score(
    base: u8,
    a: Ability,
    layers: &[Layer<'_>],
    mut sources: Option<&mut Vec<Contribution>>,
) -> i32 {
    let mut v = i32::from(base);
    for layer in layers {
        for m in layer[0].iter().chain(layer[1]) {
            if let ModifierKind::AbilityBonus { ability, amount } = m.kind
                && ability == a
                && amount != 0
            {
                v += amount;
                if let Some(s) = sources.as_deref_mut() {
                    s.push(Contribution::new(&m.source, amount));
                }
            }
        }
        for m in layer[0].iter().chain(layer[1]) {
            if let ModifierKind::AbilitySetTo { ability, score } = m.kind
                && ability == a
                && i32::from(score) > v
            {
                if let Some(s) = sources.as_deref_mut() {
                    s.push(Contribution::new(
                        format!("{} (becomes {score})", m.source),
                        i32::from(score) - v,
                    ));
                }
                v = i32::from(score);
            }
        }
    }
    v
}

/// One ability score after the base traits and `equipment` only (no conditions or effects),
/// exactly as [`effective_stats`] computes it for that layer: what armor rules (DEX to AC, a
/// Strength requirement) and carrying capacity read, without building a whole sheet.
pub fn equipped_score(base: &BaseStats, equipment: &[Modifier], ability: Ability) -> u8 {
    equipped_score_with_traits(&[], base, equipment, ability)
}

/// [`equipped_score`] with `traits` before the base sheet's own (see
/// [`effective_stats_with_traits`]).
pub fn equipped_score_with_traits(
    traits: &[Modifier],
    base: &BaseStats,
    equipment: &[Modifier],
    ability: Ability,
) -> u8 {
    clamp_score(layered_score(
        base.abilities.get(ability),
        ability,
        &[[traits, &base.traits], [equipment, &[]]],
        None,
    ))
}

/// Adds the condition immunities `mods` grant to `immune`, each source once.
fn add_immunities<'a>(
    immune: &mut BTreeMap<Condition, Vec<String>>,
    mods: impl Iterator<Item = &'a Modifier>,
) {
    for m in mods {
        if let ModifierKind::ConditionImmunity { condition } = m.kind {
            let e = immune.entry(condition).or_default();
            if !e.contains(&m.source) {
                e.push(m.source.clone());
            }
        }
    }
}

/// The condition immunities (with their sources) and the modifiers of the conditions in effect.
/// Conditions can grant condition immunity (petrified ⇒ poisoned): iterated to a fixed point.
fn immunities_and_condition_modifiers(
    traits: &[Modifier],
    base: &BaseStats,
    equipment: &[Modifier],
    conditions: &ConditionSet,
    effects: &[Modifier],
) -> (BTreeMap<Condition, Vec<String>>, Vec<Modifier>) {
    let mut immune: BTreeMap<Condition, Vec<String>> = BTreeMap::new();
    for c in &base.condition_immunities {
        immune.entry(*c).or_default().push("base".to_string());
    }
    add_immunities(
        &mut immune,
        traits
            .iter()
            .chain(&base.traits)
            .chain(equipment)
            .chain(effects),
    );
    let mut cond_mods = Vec::new();
    // No condition: no modifiers, whatever the immunities.
    if conditions.is_empty() {
        return (immune, cond_mods);
    }
    for _ in 0..4 {
        let set: BTreeSet<Condition> = immune.keys().copied().collect();
        cond_mods = condition_modifiers(conditions, &set);
        let before = immune.len();
        add_immunities(&mut immune, cond_mods.iter());
        if immune.len() == before {
            break;
        }
    }
    (immune, cond_mods)
}

/// The effective stats of a creature: base → equipment → conditions → effects → effective.
///
/// `equipment` are the modifiers of equipped (and attuned) items, `effects` those of spells and
/// other effects; condition effects come from `conditions` (implied conditions included,
/// conditions it is immune to suspended). Within a layer, ability bonuses apply before
/// "becomes N unless higher" settings; scores stay within 1–30.
pub fn effective_stats(
    base: &BaseStats,
    equipment: &[Modifier],
    conditions: &ConditionSet,
    effects: &[Modifier],
) -> EffectiveStats {
    effective_stats_with_traits(&[], base, equipment, conditions, effects)
}

/// [`effective_stats`] with `traits` as the first modifiers of the base layer, before
/// `base.traits`: the same result as with them copied to the front of `base.traits`, without
/// the copy (a derived sheet's traits are borrowed where they are kept).
pub fn effective_stats_with_traits(
    traits: &[Modifier],
    base: &BaseStats,
    equipment: &[Modifier],
    conditions: &ConditionSet,
    effects: &[Modifier],
) -> EffectiveStats {
    // Condition immunities first: they decide which conditions have effects.
    let (immune, cond_mods) =
        immunities_and_condition_modifiers(traits, base, equipment, conditions, effects);

    let layers: [Layer<'_>; 4] = [
        [traits, &base.traits],
        [equipment, &[]],
        [&cond_mods, &[]],
        [effects, &[]],
    ];
    // Every modifier in layer order, gathered once: the passes below read it a dozen times.
    let all_mods: Vec<&Modifier> = layers
        .iter()
        .flat_map(|l| l[0].iter().chain(l[1]))
        .collect();
    let all = || all_mods.iter().copied();

    // Abilities, layer by layer.
    let mut modifiers = [0i32; 6];
    let abilities: BTreeMap<Ability, AbilityValue> = Ability::ALL
        .iter()
        .map(|&a| {
            let b = base.abilities.get(a);
            let mut sources = Vec::new();
            let v = layered_score(b, a, &layers, Some(&mut sources));
            let value = clamp_score(v);
            if i32::from(value) != v {
                sources.push(Contribution::new("score limit 1–30", i32::from(value) - v));
            }
            let modifier = ability_modifier(value);
            modifiers[a as usize] = modifier;
            (
                a,
                AbilityValue {
                    base: b,
                    value,
                    modifier,
                    sources,
                },
            )
        })
        .collect();
    let modifier = |a: Ability| modifiers[a as usize];

    // AC.
    let mut armor_class = Stat::new(base.armor_class.value);
    armor_class.base_source = Some(base.armor_class.source.clone());
    for m in all() {
        if let ModifierKind::AcBonus { amount } = m.kind {
            armor_class.add(&m.source, amount);
        }
    }

    // Speed: bonuses, multipliers, halving, zero.
    let mut speed = Stat::new(i32::try_from(base.speed).unwrap_or(i32::MAX));
    let mut speed_zero = Vec::new();
    for m in all() {
        if let ModifierKind::SpeedBonus { feet } = m.kind {
            speed.add(&m.source, feet);
        }
    }
    if speed.value < 0 {
        speed.set("speed cannot be negative", 0);
    }
    for m in all() {
        match m.kind {
            ModifierKind::SpeedMultiplier { factor } => {
                let f = i32::try_from(factor).unwrap_or(1);
                speed.set(
                    format!("{} (×{factor})", m.source),
                    speed.value.saturating_mul(f),
                );
            }
            ModifierKind::SpeedHalved => {
                speed.set(format!("{} (halved)", m.source), speed.value / 2);
            }
            ModifierKind::SpeedZero => push_unique(&mut speed_zero, &m.source),
            _ => {}
        }
    }
    for m in all() {
        if let ModifierKind::SpeedAtMost { feet } = m.kind {
            let most = i32::try_from(feet).unwrap_or(i32::MAX);
            if speed.value > most {
                speed.set(format!("{} (at most {feet} ft)", m.source), most);
            }
        }
    }
    if !speed_zero.is_empty() {
        speed.set(format!("{} (speed 0)", speed_zero.join(", ")), 0);
    }

    // Max HP.
    let mut max_hp = Stat::new(i32::try_from(base.max_hp).unwrap_or(i32::MAX));
    let con_change =
        modifier(Ability::Constitution) - base.abilities.modifier(Ability::Constitution);
    if con_change != 0 {
        let levels = i32::try_from(base.level.max(1)).unwrap_or(1);
        max_hp.add(
            format!("CON modifier {con_change:+} × {levels} levels"),
            con_change * levels,
        );
    }
    for m in all() {
        if let ModifierKind::MaxHpBonus { amount } = m.kind {
            max_hp.add(&m.source, amount);
        }
    }
    for m in all() {
        if matches!(m.kind, ModifierKind::MaxHpHalved) {
            max_hp.set(format!("{} (halved)", m.source), max_hp.value / 2);
        }
    }
    if max_hp.value < 1 {
        max_hp.set("minimum 1", 1);
    }

    // The modifiers d20 rolls read (most sheets have few or none).
    let roll_mods: Vec<&Modifier> = all()
        .filter(|m| {
            matches!(
                m.kind,
                ModifierKind::RollBonus { .. }
                    | ModifierKind::RollDice { .. }
                    | ModifierKind::Advantage { .. }
                    | ModifierKind::Disadvantage { .. }
                    | ModifierKind::RerollNaturalOne { .. }
            )
        })
        .collect();
    let auto_fail = |a: Ability| -> Vec<String> {
        let mut v = Vec::new();
        for m in all() {
            if matches!(m.kind, ModifierKind::AutoFailSave { ability } if ability == a) {
                push_unique(&mut v, &m.source);
            }
        }
        v
    };
    let ability_part = |a: Ability| (modifier_label(a), modifier(a));
    let pb = base.proficiency_bonus;

    // Saves.
    let save_parts = |a: Ability| {
        let prof = base.save_proficiencies.contains(&a);
        (
            [ability_part(a), ("proficiency", pb)],
            if prof { 2 } else { 1 },
        )
    };
    let saves: BTreeMap<Ability, RollStat> = Ability::ALL
        .iter()
        .map(|&a| {
            let (fixed, n) = save_parts(a);
            let mut r = roll_stat(
                &fixed[..n],
                &[RollTarget::AllSaves, RollTarget::Save { ability: a }],
                &roll_mods,
            );
            r.auto_fail = auto_fail(a);
            (a, r)
        })
        .collect();
    let concentration = {
        let con = Ability::Constitution;
        let (fixed, n) = save_parts(con);
        let targets = [
            RollTarget::AllSaves,
            RollTarget::Save { ability: con },
            RollTarget::ConcentrationSaves,
        ];
        let mut r = roll_stat(&fixed[..n], &targets, &roll_mods);
        r.auto_fail = auto_fail(con);
        r
    };

    let death_save = roll_stat(
        &[],
        &[RollTarget::AllSaves, RollTarget::DeathSaves],
        &roll_mods,
    );

    // Checks. Half proficiency (Jack of All Trades) on a check of a listed ability.
    let half = (
        ProficiencyLevel::Half.label(),
        ProficiencyLevel::Half.bonus(pb),
    );
    let check_parts = |a: Ability| {
        let n = if base.half_proficiency.contains(&a) {
            2
        } else {
            1
        };
        ([ability_part(a), half], n)
    };
    let ability_checks: BTreeMap<Ability, RollStat> = Ability::ALL
        .iter()
        .map(|&a| {
            let targets = [
                RollTarget::AllChecks,
                RollTarget::AbilityChecks { ability: a },
            ];
            let (fixed, n) = check_parts(a);
            (a, roll_stat(&fixed[..n], &targets, &roll_mods))
        })
        .collect();
    let skills: BTreeMap<Skill, RollStat> = Skill::ALL
        .iter()
        .map(|&k| {
            let a = k.ability();
            let prof = match base.skill_proficiencies.get(&k).copied() {
                Some(p) if p != ProficiencyLevel::None => p,
                _ if base.half_proficiency.contains(&a) => ProficiencyLevel::Half,
                _ => ProficiencyLevel::None,
            };
            let fixed = [ability_part(a), (prof.label(), prof.bonus(pb))];
            let n = if prof == ProficiencyLevel::None { 1 } else { 2 };
            let targets = [
                RollTarget::AllChecks,
                RollTarget::AbilityChecks { ability: a },
                RollTarget::SkillChecks { skill: k },
            ];
            (k, roll_stat(&fixed[..n], &targets, &roll_mods))
        })
        .collect();
    let (fixed, n) = check_parts(Ability::Dexterity);
    let initiative = roll_stat(
        &fixed[..n],
        &[
            RollTarget::AllChecks,
            RollTarget::AbilityChecks {
                ability: Ability::Dexterity,
            },
            RollTarget::Initiative,
        ],
        &roll_mods,
    );

    // Passive Perception.
    let mut passive_perception = Stat::new(10);
    if let Some(perception) = skills.get(&Skill::Perception) {
        passive_perception.sources.reserve(perception.sources.len());
        for c in &perception.sources {
            passive_perception.add_contribution(c);
        }
        match perception.mode() {
            RollMode::Advantage => {
                passive_perception.add(format!("advantage: {}", perception.advantage.join(", ")), 5)
            }
            RollMode::Disadvantage => {
                passive_perception.add(
                    format!("disadvantage: {}", perception.disadvantage.join(", ")),
                    -5,
                );
            }
            RollMode::Normal => {}
        }
    }

    let attack = roll_stat(&[], &[RollTarget::AttackRolls], &roll_mods);

    // Damage, defenses, flags, notes.
    let mut damage = DamageBonuses::default();
    let mut attacks_against = AttacksAgainst::default();
    let mut defenses = DamageDefenses::default();
    for t in &base.resistances {
        defenses.resistances.push(Defense::new(Some(*t), "base"));
    }
    for t in &base.immunities {
        defenses.immunities.push(Defense::new(Some(*t), "base"));
    }
    for t in &base.vulnerabilities {
        defenses
            .vulnerabilities
            .push(Defense::new(Some(*t), "base"));
    }
    let mut incapacitated = Vec::new();
    let mut dead = Vec::new();
    let mut notes = Vec::new();
    let mut melee_strength_advantage = Vec::new();
    for m in all() {
        let src = || m.source.clone();
        match &m.kind {
            ModifierKind::DamageBonus { amount } => {
                damage.bonus += amount;
                damage.sources.push(Contribution::new(src(), *amount));
            }
            ModifierKind::ExtraDamage { dice, damage_type } => {
                damage.extra_dice.push(ExtraDamage {
                    source: src(),
                    dice: *dice,
                    damage_type: *damage_type,
                });
            }
            ModifierKind::AttackedWithAdvantage { range } => {
                attacks_against.advantage.push(RangedSource {
                    source: src(),
                    range: *range,
                });
            }
            ModifierKind::AttackedWithDisadvantage { range } => {
                attacks_against.disadvantage.push(RangedSource {
                    source: src(),
                    range: *range,
                });
            }
            ModifierKind::CritWithin5Ft => {
                push_unique(&mut attacks_against.crit_within_5_ft, &m.source)
            }
            ModifierKind::Resistance { damage_type } => {
                defenses.resistances.push(Defense::new(*damage_type, src()));
            }
            ModifierKind::Immunity { damage_type } => {
                defenses.immunities.push(Defense::new(*damage_type, src()));
            }
            ModifierKind::Vulnerability { damage_type } => {
                defenses
                    .vulnerabilities
                    .push(Defense::new(*damage_type, src()));
            }
            ModifierKind::Incapacitated => push_unique(&mut incapacitated, &m.source),
            ModifierKind::Dead => push_unique(&mut dead, &m.source),
            ModifierKind::MeleeStrengthAdvantage => {
                push_unique(&mut melee_strength_advantage, &m.source)
            }
            ModifierKind::Note { text } => notes.push(SourcedNote {
                source: src(),
                text: text.clone(),
            }),
            _ => {}
        }
    }

    let conditions_in_effect = if conditions.is_empty() {
        Vec::new()
    } else {
        let immune_set: BTreeSet<Condition> = immune.keys().copied().collect();
        conditions
            .without(&immune_set)
            .expanded()
            .into_iter()
            .filter(|(c, _)| !immune.contains_key(c))
            .map(|(_, label)| label)
            .collect()
    };

    let size_steps: i32 = all()
        .filter_map(|m| match m.kind {
            ModifierKind::SizeSteps { steps } => Some(steps),
            _ => None,
        })
        .fold(0i32, i32::saturating_add);

    EffectiveStats {
        level: base.level,
        proficiency_bonus: base.proficiency_bonus,
        size: base.size.stepped(size_steps),
        abilities,
        armor_class,
        speed,
        max_hp,
        saves,
        ability_checks,
        skills,
        initiative,
        concentration,
        death_save,
        passive_perception,
        attack,
        melee_strength_advantage,
        damage,
        attacks_against,
        defenses,
        condition_immunities: immune,
        conditions: conditions_in_effect,
        incapacitated,
        speed_zero,
        dead,
        notes,
    }
}

#[cfg(test)]
mod pins;
#[cfg(test)]
mod tests;
