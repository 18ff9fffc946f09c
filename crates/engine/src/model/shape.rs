//! A shape a creature takes over its own sheet (Wild Shape, Polymorph, Animal Shapes,
//! Shapechange, True Polymorph): an SRD stat block worn as a form. The form's hit points are a
//! pool on top of the creature's own (damage past them carries over to the normal form when it
//! reverts), and its AC, speeds, size, physical scores (all scores when the form replaces the
//! mind too) and attacks replace the creature's own while it lasts.
//!
//! A shape is held by an active effect of the same name on its bearer (`source`): it lasts as
//! long as that effect (rounds, concentration, dismissal), so every way an effect ends also ends
//! the shape. Taking it on and reverting is the `shape` use case; this module is data and the
//! pure overlay on the sheet.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use tabletop_rules::abilities::{AbilityScores, ProficiencyLevel};
use tabletop_rules::stats::{ArmorClass, BaseStats};
use tabletop_rules::{Ability, Condition, DamageType, Size, Skill};

use crate::model::character::{Character, StatBlock};
use crate::model::names::name_key;

/// A form worn over a creature's own statistics.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Shape {
    /// The form's name ("Brown Bear").
    pub form: String,
    /// What holds it: the name of the effect on the bearer ("Wild Shape", "Polymorph").
    pub source: String,
    /// The form's current hit points (the pool damage takes first).
    pub hp: u32,
    /// The form's hit point maximum.
    pub max_hp: u32,
    /// The form's armor class and where it comes from.
    pub armor_class: i32,
    /// "natural armor", "11 (Wolf's Dexterity)".
    pub armor_source: String,
    /// The form's walking speed.
    pub speed: u32,
    /// The form's size.
    pub size: Size,
    /// The form's ability scores.
    pub abilities: AbilityScores,
    /// The bearer keeps its INT, WIS and CHA and its proficiencies, gaining the form's (Wild
    /// Shape, Shapechange, Animal Shapes); otherwise every statistic is the form's (Polymorph).
    pub keeps_mind: bool,
    /// The form's proficiency bonus.
    pub proficiency_bonus: i32,
    /// The form's saving-throw proficiencies.
    #[serde(default)]
    pub save_proficiencies: BTreeSet<Ability>,
    /// The form's skill proficiencies.
    #[serde(default)]
    pub skills: BTreeMap<Skill, ProficiencyLevel>,
    /// The form's damage resistances.
    #[serde(default)]
    pub resistances: BTreeSet<DamageType>,
    /// The form's damage immunities.
    #[serde(default)]
    pub immunities: BTreeSet<DamageType>,
    /// The form's damage vulnerabilities.
    #[serde(default)]
    pub vulnerabilities: BTreeSet<DamageType>,
    /// The form's condition immunities.
    #[serde(default)]
    pub condition_immunities: BTreeSet<Condition>,
    /// The form's stat block: its attacks, traits and other speeds.
    pub block: StatBlock,
    /// The bearer can't cast spells in this form (a beast's shape without Beast Spells).
    #[serde(default)]
    pub no_spells: bool,
}

impl Character {
    /// The level a cantrip scales by: the character's level, or for a stat-block caster its
    /// spellcaster level ("The mage is a 9th-level spellcaster"; 1 when its block gives none).
    pub fn cantrip_level(&self) -> u32 {
        let Some(block) = self.stat_block.as_ref() else {
            return self.level;
        };
        block
            .special_abilities
            .iter()
            .find_map(|a| {
                let d = a.desc.to_lowercase();
                let i = d.find("-level spellcaster")?;
                let word = d[..i].split_whitespace().last()?;
                word.trim_end_matches(|ch: char| ch.is_ascii_alphabetic())
                    .parse::<u32>()
                    .ok()
            })
            .unwrap_or(self.level)
            .clamp(1, 20)
    }

    /// The shape the character wears, while the effect that holds it lasts.
    pub fn active_shape(&self) -> Option<&Shape> {
        self.shape
            .as_ref()
            .filter(|s| self.effects.iter().any(|e| same(&e.name, &s.source)))
    }

    /// The stat block whose actions the character uses: its form's while shaped, else its own.
    pub fn action_block(&self) -> Option<&StatBlock> {
        match self.active_shape() {
            Some(s) => Some(&s.block),
            None => self.stat_block.as_ref(),
        }
    }

    /// Drops a shape whose holding effect has ended; says so.
    pub fn drop_stale_shape(&mut self) -> Option<String> {
        if self.shape.is_some() && self.active_shape().is_none() {
            let s = self.shape.take()?;
            return Some(format!(
                "{} reverts from {} form to its normal form ({} ended)",
                self.name, s.form, s.source
            ));
        }
        None
    }

    /// Ends the shape and the effect that holds it; says so.
    pub fn revert_shape(&mut self, why: &str) -> Option<String> {
        let s = self.shape.take()?;
        self.effects.retain(|e| !same(&e.name, &s.source));
        Some(format!(
            "{} reverts from {} form to its normal form ({why}): {}/{} HP",
            self.name, s.form, self.hp, self.max_hp
        ))
    }
}

fn same(a: &str, b: &str) -> bool {
    name_key(a) == name_key(b)
}

/// The form's overlay on the base stats the rules pipeline starts from.
pub fn overlay(s: &Shape, base: &mut BaseStats) {
    for &a in Ability::ALL {
        let physical = matches!(
            a,
            Ability::Strength | Ability::Dexterity | Ability::Constitution
        );
        if physical || !s.keeps_mind {
            let _ = base.abilities.set(a, i64::from(s.abilities.get(a)));
        }
    }
    if s.keeps_mind {
        base.save_proficiencies
            .extend(s.save_proficiencies.iter().copied());
        for (k, v) in &s.skills {
            let e = base.skill_proficiencies.entry(*k).or_insert(*v);
            *e = (*e).max(*v);
        }
        base.proficiency_bonus = base.proficiency_bonus.max(s.proficiency_bonus);
        base.resistances.extend(s.resistances.iter().copied());
        base.immunities.extend(s.immunities.iter().copied());
        base.vulnerabilities
            .extend(s.vulnerabilities.iter().copied());
        base.condition_immunities
            .extend(s.condition_immunities.iter().copied());
    } else {
        base.proficiency_bonus = s.proficiency_bonus;
        base.save_proficiencies = s.save_proficiencies.clone();
        base.skill_proficiencies = s.skills.clone();
        base.half_proficiency = Default::default();
        base.resistances = s.resistances.clone();
        base.immunities = s.immunities.clone();
        base.vulnerabilities = s.vulnerabilities.clone();
        base.condition_immunities = s.condition_immunities.clone();
    }
    base.armor_class = ArmorClass {
        value: s.armor_class,
        source: format!("{} form: {}", s.form, s.armor_source),
    };
    base.speed = s.speed;
    base.size = s.size;
}
