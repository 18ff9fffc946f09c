//! The typed records of SRD monsters (stat blocks, their actions and spellcasting).

use std::collections::BTreeMap;

use serde::Serialize;
use tabletop_rules::{Ability, Condition, DamageType, Size, Skill};

use super::*;

/// One armor-class entry of a monster.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArmorClass {
    /// AC value.
    pub value: i32,
    /// Source ("natural", "armor", "dex", "spell", "condition").
    pub kind: String,
    /// Armor worn, spell or condition, by name.
    pub source: Vec<String>,
    /// Extra prose.
    pub desc: Option<String>,
}

/// Monster speeds in feet.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Speed {
    /// Walking speed.
    pub walk: Option<u32>,
    /// Flying speed.
    pub fly: Option<u32>,
    /// Swimming speed.
    pub swim: Option<u32>,
    /// Climbing speed.
    pub climb: Option<u32>,
    /// Burrowing speed.
    pub burrow: Option<u32>,
    /// Can hover.
    pub hover: bool,
}

/// Monster senses (ranges keep their prose, e.g. "60 ft. (blind beyond this radius)").
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Senses {
    /// Blindsight.
    pub blindsight: Option<String>,
    /// Darkvision.
    pub darkvision: Option<String>,
    /// Tremorsense.
    pub tremorsense: Option<String>,
    /// Truesight.
    pub truesight: Option<String>,
    /// Passive Wisdom (Perception).
    pub passive_perception: i32,
}

/// The six ability scores.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AbilityScores {
    /// Strength.
    pub strength: i32,
    /// Dexterity.
    pub dexterity: i32,
    /// Constitution.
    pub constitution: i32,
    /// Intelligence.
    pub intelligence: i32,
    /// Wisdom.
    pub wisdom: i32,
    /// Charisma.
    pub charisma: i32,
}

impl AbilityScores {
    /// The score for one ability.
    pub fn get(&self, a: Ability) -> i32 {
        match a {
            Ability::Strength => self.strength,
            Ability::Dexterity => self.dexterity,
            Ability::Constitution => self.constitution,
            Ability::Intelligence => self.intelligence,
            Ability::Wisdom => self.wisdom,
            Ability::Charisma => self.charisma,
        }
    }

    /// The modifier for one ability (`floor((score − 10) / 2)`).
    pub fn modifier(&self, a: Ability) -> i32 {
        (self.get(a) - 10).div_euclid(2)
    }
}

/// A saving throw or check DC.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SaveDc {
    /// The ability of the save.
    pub ability: Ability,
    /// The DC.
    pub value: i32,
    /// What a success does.
    pub success: SaveEffect,
}

/// Damage dealt by a monster action.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActionDamage {
    /// Damage type (absent for untyped effects).
    pub damage_type: Option<DamageType>,
    /// Dice expression ("1d6+2").
    pub damage_dice: String,
    /// A save that applies to this damage only.
    pub dc: Option<SaveDc>,
    /// Notes ("One handed", "Two handed").
    pub notes: Option<String>,
}

/// "Choose `choose` of these damage entries" (versatile weapons, alternate forms).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DamageChoice {
    /// How many apply.
    pub choose: u8,
    /// The alternatives.
    pub options: Vec<ActionDamage>,
}

/// How often an action or ability can be used.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    /// "per day", "recharge on roll", "recharge after rest", "at will".
    pub kind: String,
    /// Uses per day.
    pub times: Option<u32>,
    /// Recharge die ("1d6").
    pub dice: Option<String>,
    /// Minimum roll to recharge.
    pub min_value: Option<u32>,
    /// Rests that recharge it.
    pub rest_types: Vec<String>,
}

/// One step of a multiattack ("two claws").
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MultiattackStep {
    /// The action used.
    pub action_name: String,
    /// How many times (0 when the count is prose, see `count_text`).
    pub count: u32,
    /// The count when it is not a number ("Number of Heads").
    pub count_text: Option<String>,
    /// "melee", "ranged", "ability", "magic".
    pub kind: Option<String>,
}

/// A multiattack: a fixed sequence or a choice between sequences.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Multiattack {
    /// The fixed sequence (when `options` is empty).
    pub actions: Vec<MultiattackStep>,
    /// Alternative sequences, of which `choose` are used.
    pub options: Vec<Vec<MultiattackStep>>,
    /// How many option sequences are used.
    pub choose: u8,
}

/// A named alternative effect of an action (breath weapons).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActionOption {
    /// Name ("Fire Breath").
    pub name: String,
    /// Save.
    pub dc: Option<SaveDc>,
    /// Damage.
    pub damage: Vec<ActionDamage>,
}

/// A spell a monster can cast.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MonsterSpell {
    /// Spell name.
    pub name: String,
    /// Spell level.
    pub level: u8,
    /// Usage limit, for innate spellcasting.
    pub usage: Option<Usage>,
    /// Notes.
    pub notes: Option<String>,
}

/// Monster spellcasting.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MonsterSpellcasting {
    /// Casting ability.
    pub ability: Ability,
    /// Save DC.
    pub dc: Option<i32>,
    /// Spell attack modifier.
    pub modifier: Option<i32>,
    /// Caster level.
    pub level: Option<u8>,
    /// Slots per spell level.
    pub slots: BTreeMap<u8, u8>,
    /// Spells.
    pub spells: Vec<MonsterSpell>,
}

/// A monster's special ability, action, legendary action or reaction.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MonsterAction {
    /// Name ("Scimitar").
    pub name: String,
    /// Rules text.
    pub desc: String,
    /// Attack bonus, for attacks.
    pub attack_bonus: Option<i32>,
    /// Damage on a hit.
    pub damage: Vec<ActionDamage>,
    /// Alternatives among damage entries.
    pub damage_choices: Vec<DamageChoice>,
    /// Save.
    pub dc: Option<SaveDc>,
    /// Usage limit or recharge.
    pub usage: Option<Usage>,
    /// Multiattack sequence.
    pub multiattack: Option<Multiattack>,
    /// Alternative effects, of which `options_choose` apply.
    pub options: Vec<ActionOption>,
    /// How many `options` apply.
    pub options_choose: u8,
    /// Spellcasting, for "Spellcasting" abilities.
    pub spellcasting: Option<MonsterSpellcasting>,
}

/// A monster stat block.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Monster {
    /// Slug ("goblin").
    pub index: String,
    /// Display name.
    pub name: String,
    /// Size.
    pub size: Size,
    /// Creature type ("humanoid").
    pub creature_type: String,
    /// Subtype ("goblinoid").
    pub subtype: Option<String>,
    /// Alignment prose.
    pub alignment: String,
    /// Armor class entries (the first is the usual one).
    pub armor_class: Vec<ArmorClass>,
    /// Average hit points.
    pub hit_points: i32,
    /// Hit dice ("2d6").
    pub hit_dice: String,
    /// Full roll ("2d6+4").
    pub hit_points_roll: String,
    /// Speeds.
    pub speed: Speed,
    /// Ability scores.
    pub scores: AbilityScores,
    /// Saving-throw bonuses.
    pub saving_throws: Vec<(Ability, i32)>,
    /// Skill bonuses.
    pub skills: Vec<(Skill, i32)>,
    /// Vulnerabilities as written.
    pub damage_vulnerabilities: Vec<String>,
    /// Resistances as written.
    pub damage_resistances: Vec<String>,
    /// Immunities as written.
    pub damage_immunities: Vec<String>,
    /// Vulnerabilities that are plain damage types.
    pub vulnerable_to: Vec<DamageType>,
    /// Resistances that are plain damage types.
    pub resistant_to: Vec<DamageType>,
    /// Immunities that are plain damage types.
    pub immune_to: Vec<DamageType>,
    /// Condition immunities.
    pub condition_immunities: Vec<Condition>,
    /// Senses.
    pub senses: Senses,
    /// Languages prose.
    pub languages: String,
    /// Challenge rating (0.125, 0.25, 0.5, 1, …).
    pub challenge_rating: f32,
    /// Proficiency bonus.
    pub proficiency_bonus: i32,
    /// XP value.
    pub xp: u32,
    /// Traits.
    pub special_abilities: Vec<MonsterAction>,
    /// Actions.
    pub actions: Vec<MonsterAction>,
    /// Legendary actions.
    pub legendary_actions: Vec<MonsterAction>,
    /// Reactions.
    pub reactions: Vec<MonsterAction>,
    /// Paragraphs of lore, when present.
    pub desc: Vec<String>,
}

impl Monster {
    /// The usual armor class (the first entry), 10 if the data has none.
    pub fn ac(&self) -> i32 {
        self.armor_class.first().map_or(10, |a| a.value)
    }

    /// An action, special ability, legendary action or reaction by name (case-insensitive).
    pub fn action(&self, name: &str) -> Option<&MonsterAction> {
        self.actions
            .iter()
            .chain(&self.special_abilities)
            .chain(&self.legendary_actions)
            .chain(&self.reactions)
            .find(|a| a.name.eq_ignore_ascii_case(name))
    }
}
