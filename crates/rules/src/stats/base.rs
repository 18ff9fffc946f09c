//! The inputs of the effective-stats pipeline besides modifiers: a creature's base sheet as
//! stored ([`BaseStats`], with its [`ArmorClass`]), and the small records the resulting sheet
//! carries about attacks (damage bonuses, extra dice, how attacks against it are affected) and
//! rules the numbers cannot express.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::abilities::{AbilityError, AbilityScores, ProficiencyLevel, proficiency_bonus};
use crate::explained::Contribution;
use crate::modifiers::{DiceCount, Modifier, RangeBand};
use crate::vocab::{Ability, Condition, DamageType, Size, Skill};

/// A base armor class and what it comes from ("chain mail", "natural armor", "10 + DEX").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ArmorClass {
    /// The AC before bonuses.
    pub value: i32,
    /// What gives it.
    pub source: String,
}

impl Default for ArmorClass {
    /// 10, unarmored.
    fn default() -> Self {
        Self {
            value: 10,
            source: "unarmored".to_string(),
        }
    }
}

/// A creature's base sheet, as stored: what it is before equipment, conditions and effects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct BaseStats {
    /// Character level (for a monster, its number of hit dice); scales CON changes to max HP.
    pub level: u32,
    /// Ability scores, racial bonuses included.
    pub abilities: AbilityScores,
    /// Proficiency bonus (by level for characters, by CR for monsters).
    pub proficiency_bonus: i32,
    /// Saving throws the creature is proficient in.
    pub save_proficiencies: BTreeSet<Ability>,
    /// Skill proficiencies (absent = not proficient).
    pub skill_proficiencies: BTreeMap<Skill, ProficiencyLevel>,
    /// Abilities whose checks without proficiency add half the proficiency bonus (Jack of All
    /// Trades: every ability; Remarkable Athlete: STR, DEX, CON), initiative included.
    #[serde(skip_serializing_if = "BTreeSet::is_empty")]
    pub half_proficiency: BTreeSet<Ability>,
    /// Base armor class with its source.
    pub armor_class: ArmorClass,
    /// Walking speed in feet.
    pub speed: u32,
    /// Maximum hit points before modifiers.
    pub max_hp: u32,
    /// Size.
    pub size: Size,
    /// Damage resistances.
    pub resistances: BTreeSet<DamageType>,
    /// Damage immunities.
    pub immunities: BTreeSet<DamageType>,
    /// Damage vulnerabilities.
    pub vulnerabilities: BTreeSet<DamageType>,
    /// Condition immunities.
    pub condition_immunities: BTreeSet<Condition>,
    /// Permanent modifiers from race, class, feats or the stat block, each with its source.
    pub traits: Vec<Modifier>,
}

impl Default for BaseStats {
    /// A level-1 medium creature with all 10s, AC 10, speed 30 and 1 HP.
    fn default() -> Self {
        Self {
            level: 1,
            abilities: AbilityScores::default(),
            proficiency_bonus: 2,
            save_proficiencies: BTreeSet::new(),
            skill_proficiencies: BTreeMap::new(),
            half_proficiency: BTreeSet::new(),
            armor_class: ArmorClass::default(),
            speed: 30,
            max_hp: 1,
            size: Size::Medium,
            resistances: BTreeSet::new(),
            immunities: BTreeSet::new(),
            vulnerabilities: BTreeSet::new(),
            condition_immunities: BTreeSet::new(),
            traits: Vec::new(),
        }
    }
}

impl BaseStats {
    /// A character of `level` with these scores and the level's proficiency bonus; other fields
    /// default (see [`Default`]).
    pub fn character(level: u32, abilities: AbilityScores) -> Result<Self, AbilityError> {
        Ok(Self {
            level,
            abilities,
            proficiency_bonus: proficiency_bonus(level)?,
            ..Self::default()
        })
    }
}

/// Extra damage dice of a type on the creature's hits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ExtraDamage {
    /// What grants them.
    pub source: String,
    /// The dice.
    pub dice: DiceCount,
    /// The damage type.
    pub damage_type: DamageType,
}

/// Bonuses to the damage of the creature's attacks.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DamageBonuses {
    /// Flat bonus.
    pub bonus: i32,
    /// Its parts.
    pub sources: Vec<Contribution>,
    /// Extra typed dice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra_dice: Vec<ExtraDamage>,
}

/// A source of advantage or disadvantage for attackers, with the range band it applies in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RangedSource {
    /// What causes it.
    pub source: String,
    /// Which attackers it applies to.
    pub range: RangeBand,
}

/// How attacks against this creature are affected.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AttacksAgainst {
    /// Sources giving attackers advantage.
    pub advantage: Vec<RangedSource>,
    /// Sources giving attackers disadvantage.
    pub disadvantage: Vec<RangedSource>,
    /// Sources making hits from within 5 ft critical.
    pub crit_within_5_ft: Vec<String>,
}

impl AttacksAgainst {
    /// (advantage sources, disadvantage sources, auto-crit sources) for an attacker within or
    /// beyond 5 ft.
    pub fn for_attacker(&self, within_5_ft: bool) -> (Vec<String>, Vec<String>, Vec<String>) {
        let pick = |v: &[RangedSource]| {
            v.iter()
                .filter(|r| r.range.applies(within_5_ft))
                .map(|r| r.source.clone())
                .collect()
        };
        let crit = if within_5_ft {
            self.crit_within_5_ft.clone()
        } else {
            Vec::new()
        };
        (pick(&self.advantage), pick(&self.disadvantage), crit)
    }
}

/// A note a rule the numbers cannot express, with its source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SourcedNote {
    /// What causes it.
    pub source: String,
    /// The rule.
    pub text: String,
}
