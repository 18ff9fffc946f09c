//! Typed modifiers: everything equipment, conditions, effects and traits can do to a creature's
//! numbers and rolls. Each [`Modifier`] carries the `source` that explains it on the sheet.
//!
//! The shapes make wrong states unrepresentable: a bonus names the exact [`RollTarget`] it touches
//! (a save bonus is "all saves" or "one ability's saves", never both), dice have a count and faces,
//! and "attacks against this creature" carry the range band they apply in.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::vocab::{Ability, Condition, DamageType, Skill};

/// The d20 rolls a modifier can touch.
///
/// Narrower targets are included in broader ones when rolls are built: a Dexterity check is also
/// an ability check, a Stealth check is a Dexterity check, initiative is a Dexterity check and a
/// concentration save is a Constitution save.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "roll", rename_all = "snake_case")]
pub enum RollTarget {
    /// Every attack roll the creature makes.
    AttackRolls,
    /// Every saving throw.
    AllSaves,
    /// Saving throws of one ability.
    Save {
        /// The ability.
        ability: Ability,
    },
    /// Every ability check (skills, initiative and raw ability checks).
    AllChecks,
    /// Ability checks of one ability, including the skills based on it.
    AbilityChecks {
        /// The ability.
        ability: Ability,
    },
    /// Checks with one skill.
    SkillChecks {
        /// The skill.
        skill: Skill,
    },
    /// Initiative rolls.
    Initiative,
    /// Constitution saves to keep concentration.
    ConcentrationSaves,
    /// Death saving throws (also touched by "all saves").
    DeathSaves,
}

impl fmt::Display for RollTarget {
    /// "attack rolls", "DEX saves", "Stealth checks", …
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RollTarget::AttackRolls => f.write_str("attack rolls"),
            RollTarget::AllSaves => f.write_str("saving throws"),
            RollTarget::Save { ability } => write!(f, "{} saves", ability.abbr()),
            RollTarget::AllChecks => f.write_str("ability checks"),
            RollTarget::AbilityChecks { ability } => write!(f, "{} checks", ability.abbr()),
            RollTarget::SkillChecks { skill } => write!(f, "{} checks", skill_name(*skill)),
            RollTarget::Initiative => f.write_str("initiative"),
            RollTarget::ConcentrationSaves => f.write_str("concentration saves"),
            RollTarget::DeathSaves => f.write_str("death saves"),
        }
    }
}

/// The title-case name of a skill ("Sleight of Hand").
pub fn skill_name(skill: Skill) -> String {
    skill
        .key()
        .split('_')
        .map(|w| {
            if w == "of" {
                return w.to_string();
            }
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where an attacker stands for "attacks against this creature" modifiers (prone cares).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RangeBand {
    /// Any attacker.
    Any,
    /// Attackers within 5 feet.
    Within5Ft,
    /// Attackers more than 5 feet away.
    Beyond5Ft,
}

impl RangeBand {
    /// Whether an attacker within (or beyond) 5 ft is in this band.
    pub fn applies(self, within_5_ft: bool) -> bool {
        match self {
            RangeBand::Any => true,
            RangeBand::Within5Ft => within_5_ft,
            RangeBand::Beyond5Ft => !within_5_ft,
        }
    }

    /// A suffix for explanations ("", " within 5 ft", " beyond 5 ft").
    pub fn suffix(self) -> &'static str {
        match self {
            RangeBand::Any => "",
            RangeBand::Within5Ft => " within 5 ft",
            RangeBand::Beyond5Ft => " beyond 5 ft",
        }
    }
}

/// A number of dice of one size (e.g. 1d4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DiceCount {
    /// How many dice (≥ 1).
    pub count: u32,
    /// Faces per die (≥ 1).
    pub faces: u32,
}

impl DiceCount {
    /// `count`d`faces`.
    pub fn new(count: u32, faces: u32) -> Self {
        Self { count, faces }
    }
}

impl fmt::Display for DiceCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.faces)
    }
}

/// What a modifier does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum ModifierKind {
    /// Adds to armor class.
    AcBonus {
        /// Points of AC (may be negative).
        amount: i32,
    },
    /// Adds to an ability score.
    AbilityBonus {
        /// The ability.
        ability: Ability,
        /// Points (may be negative).
        amount: i32,
    },
    /// The score becomes `score` unless it is already higher (Belt of Giant Strength).
    AbilitySetTo {
        /// The ability.
        ability: Ability,
        /// The minimum score.
        score: u8,
    },
    /// Adds feet to walking speed.
    SpeedBonus {
        /// Feet (may be negative).
        feet: i32,
    },
    /// Multiplies walking speed (Haste ×2).
    SpeedMultiplier {
        /// The factor.
        factor: u32,
    },
    /// Halves walking speed (rounded down).
    SpeedHalved,
    /// Speed becomes 0 and cannot be raised by bonuses.
    SpeedZero,
    /// The size grows (positive) or shrinks (negative) by this many categories (Enlarge +1,
    /// Reduce −1), between Tiny and Gargantuan.
    SizeSteps {
        /// Categories.
        steps: i32,
    },
    /// Speed is at most `feet`, whatever else applies (over carrying capacity: 5 ft).
    SpeedAtMost {
        /// The most it can be.
        feet: u32,
    },
    /// Adds to d20 rolls of a kind (attack bonus, save bonus, check bonus, initiative bonus).
    RollBonus {
        /// Which rolls.
        on: RollTarget,
        /// Points (may be negative).
        amount: i32,
    },
    /// Adds (or subtracts) dice to d20 rolls of a kind (Bless +1d4, Bane −1d4).
    RollDice {
        /// Which rolls.
        on: RollTarget,
        /// The dice.
        dice: DiceCount,
        /// Subtract instead of add.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        subtract: bool,
    },
    /// Advantage on rolls of a kind.
    Advantage {
        /// Which rolls.
        on: RollTarget,
    },
    /// Advantage on its melee weapon attack rolls that use Strength (Reckless Attack); a
    /// ranged or finesse-with-DEX attack gets none.
    MeleeStrengthAdvantage,
    /// Disadvantage on rolls of a kind.
    Disadvantage {
        /// Which rolls.
        on: RollTarget,
    },
    /// A natural 1 on rolls of a kind is rerolled once and the new roll must be used (Halfling
    /// Lucky).
    RerollNaturalOne {
        /// Which rolls.
        on: RollTarget,
    },
    /// Saving throws of this ability fail automatically.
    AutoFailSave {
        /// The ability.
        ability: Ability,
    },
    /// Flat bonus to damage rolls of its attacks.
    DamageBonus {
        /// Points (may be negative).
        amount: i32,
    },
    /// Extra damage dice of a type on its hits (Flame Tongue 2d6 fire).
    ExtraDamage {
        /// The dice.
        dice: DiceCount,
        /// The damage type.
        damage_type: DamageType,
    },
    /// Attack rolls against this creature have advantage.
    AttackedWithAdvantage {
        /// Which attackers.
        #[serde(default = "range_any")]
        range: RangeBand,
    },
    /// Attack rolls against this creature have disadvantage.
    AttackedWithDisadvantage {
        /// Which attackers.
        #[serde(default = "range_any")]
        range: RangeBand,
    },
    /// Any hit from an attacker within 5 ft is a critical hit.
    CritWithin5Ft,
    /// Resistance to a damage type (none = all damage).
    Resistance {
        /// The damage type; absent means every type.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        damage_type: Option<DamageType>,
    },
    /// Immunity to a damage type (none = all damage).
    Immunity {
        /// The damage type; absent means every type.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        damage_type: Option<DamageType>,
    },
    /// Vulnerability to a damage type (none = all damage).
    Vulnerability {
        /// The damage type; absent means every type.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        damage_type: Option<DamageType>,
    },
    /// Immunity to a condition.
    ConditionImmunity {
        /// The condition.
        condition: Condition,
    },
    /// Adds to maximum hit points.
    MaxHpBonus {
        /// Points (may be negative).
        amount: i32,
    },
    /// Halves maximum hit points (rounded down, at least 1).
    MaxHpHalved,
    /// Can't take actions or reactions.
    Incapacitated,
    /// The creature is dead.
    Dead,
    /// A rule the engine cannot apply by numbers (e.g. "can't see"); shown on the sheet.
    Note {
        /// The text.
        text: String,
    },
}

fn range_any() -> RangeBand {
    RangeBand::Any
}

impl fmt::Display for ModifierKind {
    /// A short description ("+1 AC", "advantage on DEX saves", …).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let types = |t: &Option<DamageType>| t.map_or("all damage".to_string(), |t| t.to_string());
        match self {
            ModifierKind::AcBonus { amount } => write!(f, "{amount:+} AC"),
            ModifierKind::AbilityBonus { ability, amount } => {
                write!(f, "{amount:+} {}", ability.abbr())
            }
            ModifierKind::AbilitySetTo { ability, score } => {
                write!(f, "{} becomes {score} unless higher", ability.abbr())
            }
            ModifierKind::SpeedBonus { feet } => write!(f, "{feet:+} ft speed"),
            ModifierKind::SpeedMultiplier { factor } => write!(f, "speed ×{factor}"),
            ModifierKind::SpeedHalved => f.write_str("speed halved"),
            ModifierKind::SpeedZero => f.write_str("speed 0"),
            ModifierKind::SpeedAtMost { feet } => write!(f, "speed at most {feet} ft"),
            ModifierKind::SizeSteps { steps } => write!(
                f,
                "size {steps:+} {}",
                if steps.abs() == 1 {
                    "category"
                } else {
                    "categories"
                }
            ),
            ModifierKind::RollBonus { on, amount } => write!(f, "{amount:+} to {on}"),
            ModifierKind::RollDice { on, dice, subtract } => {
                write!(f, "{}{dice} to {on}", if *subtract { "−" } else { "+" })
            }
            ModifierKind::Advantage { on } => write!(f, "advantage on {on}"),
            ModifierKind::MeleeStrengthAdvantage => {
                f.write_str("advantage on melee weapon attacks using STR")
            }
            ModifierKind::Disadvantage { on } => write!(f, "disadvantage on {on}"),
            ModifierKind::RerollNaturalOne { on } => write!(f, "rerolls a natural 1 on {on}"),
            ModifierKind::AutoFailSave { ability } => {
                write!(f, "automatically fails {} saves", ability.abbr())
            }
            ModifierKind::DamageBonus { amount } => write!(f, "{amount:+} damage"),
            ModifierKind::ExtraDamage { dice, damage_type } => {
                write!(f, "+{dice} {damage_type} damage")
            }
            ModifierKind::AttackedWithAdvantage { range } => {
                write!(f, "attacks against it{} have advantage", range.suffix())
            }
            ModifierKind::AttackedWithDisadvantage { range } => {
                write!(f, "attacks against it{} have disadvantage", range.suffix())
            }
            ModifierKind::CritWithin5Ft => f.write_str("hits from within 5 ft are critical"),
            ModifierKind::Resistance { damage_type } => {
                write!(f, "resistance to {}", types(damage_type))
            }
            ModifierKind::Immunity { damage_type } => {
                write!(f, "immunity to {}", types(damage_type))
            }
            ModifierKind::Vulnerability { damage_type } => {
                write!(f, "vulnerability to {}", types(damage_type))
            }
            ModifierKind::ConditionImmunity { condition } => write!(f, "immune to {condition}"),
            ModifierKind::MaxHpBonus { amount } => write!(f, "{amount:+} max HP"),
            ModifierKind::MaxHpHalved => f.write_str("max HP halved"),
            ModifierKind::Incapacitated => f.write_str("can't take actions or reactions"),
            ModifierKind::Dead => f.write_str("dead"),
            ModifierKind::Note { text } => f.write_str(text),
        }
    }
}

/// One modifier and where it comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Modifier {
    /// What grants it ("Bless", "Ring of Protection", "poisoned").
    pub source: String,
    /// What it does.
    #[serde(flatten)]
    pub kind: ModifierKind,
}

impl Modifier {
    /// A modifier from `source`.
    pub fn new(source: impl Into<String>, kind: ModifierKind) -> Self {
        Self {
            source: source.into(),
            kind,
        }
    }
}

impl fmt::Display for Modifier {
    /// "Bless: +1d4 to attack rolls".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.source, self.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_shape_is_flat_and_tagged() {
        let m = Modifier::new(
            "Bless",
            ModifierKind::RollDice {
                on: RollTarget::AllSaves,
                dice: DiceCount::new(1, 4),
                subtract: false,
            },
        );
        let json = serde_json::to_value(&m).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "source": "Bless", "type": "roll_dice",
                "on": {"roll": "all_saves"}, "dice": {"count": 1, "faces": 4}
            })
        );
        let back: Modifier = serde_json::from_value(json).unwrap();
        assert_eq!(back, m);

        let m: Modifier = serde_json::from_str(
            r#"{"source":"Flame Tongue","type":"extra_damage","dice":{"count":2,"faces":6},"damageType":"fire"}"#,
        )
        .unwrap();
        assert_eq!(
            m.kind,
            ModifierKind::ExtraDamage {
                dice: DiceCount::new(2, 6),
                damage_type: DamageType::Fire
            }
        );
        let m: Modifier =
            serde_json::from_str(r#"{"source":"Cloak","type":"advantage","on":{"roll":"skill_checks","skill":"stealth"}}"#)
                .unwrap();
        assert_eq!(
            m.kind,
            ModifierKind::Advantage {
                on: RollTarget::SkillChecks {
                    skill: Skill::Stealth
                }
            }
        );
        assert!(serde_json::from_str::<Modifier>(r#"{"source":"x","type":"ac_bonus"}"#).is_err());
    }

    #[test]
    fn display_explains() {
        let m = Modifier::new("Ring of Protection", ModifierKind::AcBonus { amount: 1 });
        assert_eq!(m.to_string(), "Ring of Protection: +1 AC");
        let k = ModifierKind::Advantage {
            on: RollTarget::SkillChecks {
                skill: Skill::SleightOfHand,
            },
        };
        assert_eq!(k.to_string(), "advantage on Sleight of Hand checks");
        let k = ModifierKind::AttackedWithAdvantage {
            range: RangeBand::Within5Ft,
        };
        assert_eq!(
            k.to_string(),
            "attacks against it within 5 ft have advantage"
        );
    }

    #[cfg(feature = "schema")]
    #[test]
    fn schemas_generate() {
        let schema = schemars::schema_for!(Modifier);
        let text = serde_json::to_string(&schema).unwrap();
        assert!(
            text.contains("roll_dice") && text.contains("source"),
            "{text}"
        );
        let text = serde_json::to_string(&schemars::schema_for!(crate::d20::D20Request)).unwrap();
        assert!(text.contains("skill_check"), "{text}");
        let text =
            serde_json::to_string(&schemars::schema_for!(crate::conditions::ConditionSet)).unwrap();
        assert!(text.contains("exhaustion"), "{text}");
        let _ = schemars::schema_for!(crate::stats::EffectiveStats);
        let _ = schemars::schema_for!(crate::stats::BaseStats);
        let _ = schemars::schema_for!(crate::damage::DamageResult);
    }

    #[test]
    fn range_bands() {
        assert!(RangeBand::Any.applies(false));
        assert!(RangeBand::Within5Ft.applies(true) && !RangeBand::Within5Ft.applies(false));
        assert!(RangeBand::Beyond5Ft.applies(false) && !RangeBand::Beyond5Ft.applies(true));
    }
}
