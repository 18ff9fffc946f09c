//! The on-disk shape of the 5e-database JSON (2014 and, where it agrees, 2024).
//!
//! These types only mirror the files; [`crate::load`] turns them into the public records.
//! Unknown fields are ignored (the upstream format grows), missing required fields are errors.
//! 2024 spellings are accepted through serde aliases (`description` for `desc`, `species` for
//! `race`, …).

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};

/// Text that is either a string or an array of paragraphs (or null/absent).
pub(crate) fn text<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    struct TextVisitor;
    impl<'de> Visitor<'de> for TextVisitor {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string or an array of strings")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(vec![v.to_string()])
        }
        fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
            Ok(vec![v])
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(TextVisitor)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(1));
            while let Some(s) = seq.next_element::<String>()? {
                out.push(s);
            }
            Ok(out)
        }
    }
    d.deserialize_any(TextVisitor)
}

/// A count that is usually a number but sometimes prose ("Number of Heads", "1d4").
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub(crate) enum IntOrText {
    Int(u32),
    Text(String),
}

/// `{index, name, url}`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct RawRef {
    pub index: String,
    pub name: String,
}

/// Records that are only a name and text (conditions, damage types, schools, …).
#[derive(Debug, Deserialize)]
pub(crate) struct RawLore {
    pub index: String,
    pub name: String,
    #[serde(default, alias = "description", deserialize_with = "text")]
    pub desc: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawAlignment {
    pub index: String,
    pub name: String,
    #[serde(default)]
    pub abbreviation: String,
    #[serde(default, alias = "description", deserialize_with = "text")]
    pub desc: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawLanguage {
    pub index: String,
    pub name: String,
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
    #[serde(default)]
    pub typical_speakers: Vec<String>,
    #[serde(default)]
    pub script: Option<String>,
    #[serde(
        default,
        alias = "description",
        alias = "note",
        deserialize_with = "text"
    )]
    pub desc: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawAbilityScore {
    pub index: String,
    pub full_name: String,
    #[serde(default, alias = "description", deserialize_with = "text")]
    pub desc: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawEquipmentCategory {
    pub index: String,
    pub name: String,
    #[serde(default)]
    pub equipment: Vec<RawRef>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawRule {
    pub index: String,
    pub name: String,
    #[serde(default, alias = "description", deserialize_with = "text")]
    pub desc: Vec<String>,
    #[serde(default)]
    pub subsections: Vec<RawRef>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawSkill {
    pub index: String,
    pub name: String,
    #[serde(default, alias = "description", deserialize_with = "text")]
    pub desc: Vec<String>,
    pub ability_score: RawRef,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawProficiency {
    pub index: String,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub classes: Vec<RawRef>,
    #[serde(default)]
    pub races: Vec<RawRef>,
    #[serde(default)]
    pub reference: Option<RawRef>,
}

// ---------------------------------------------------------------------------------------------
// Classes and levels

#[derive(Debug, Deserialize)]
pub(crate) struct RawClass {
    pub index: String,
    pub name: String,
    pub hit_die: u8,
    #[serde(default)]
    pub proficiency_choices: Vec<RawChoice>,
    #[serde(default)]
    pub proficiencies: Vec<RawRef>,
    #[serde(default)]
    pub saving_throws: Vec<RawRef>,
    #[serde(default)]
    pub subclasses: Vec<RawRef>,
    #[serde(default)]
    pub spellcasting: Option<RawClassSpellcasting>,
    #[serde(default)]
    pub multi_classing: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawChoice {
    #[serde(default)]
    pub desc: Option<String>,
    #[serde(default)]
    pub choose: u8,
    #[serde(default)]
    pub from: Option<RawOptionSet>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawOptionSet {
    #[serde(default)]
    pub options: Vec<RawOption>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawOption {
    #[serde(default)]
    pub item: Option<RawRef>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawClassSpellcasting {
    #[serde(default)]
    pub level: Option<u8>,
    pub spellcasting_ability: RawRef,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawLevel {
    pub index: String,
    pub level: u8,
    #[serde(default)]
    pub prof_bonus: Option<u8>,
    #[serde(default)]
    pub ability_score_bonuses: Option<u8>,
    #[serde(default)]
    pub features: Vec<RawRef>,
    #[serde(default)]
    pub spellcasting: Option<RawLevelSpellcasting>,
    #[serde(default)]
    pub class_specific: Option<serde_json::Map<String, serde_json::Value>>,
    #[serde(default)]
    pub subclass_specific: Option<serde_json::Map<String, serde_json::Value>>,
    pub class: RawRef,
    #[serde(default)]
    pub subclass: Option<RawRef>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct RawLevelSpellcasting {
    pub cantrips_known: Option<u8>,
    pub spells_known: Option<u8>,
    pub prepared_spells: Option<u8>,
    pub spell_slots_level_1: u8,
    pub spell_slots_level_2: u8,
    pub spell_slots_level_3: u8,
    pub spell_slots_level_4: u8,
    pub spell_slots_level_5: u8,
    pub spell_slots_level_6: u8,
    pub spell_slots_level_7: u8,
    pub spell_slots_level_8: u8,
    pub spell_slots_level_9: u8,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawSubclass {
    pub index: String,
    pub name: String,
    pub class: RawRef,
    #[serde(default, alias = "summary")]
    pub subclass_flavor: Option<String>,
    #[serde(default, alias = "description", deserialize_with = "text")]
    pub desc: Vec<String>,
    /// Domain/oath/patron spells: each with the class level that grants it.
    #[serde(default)]
    pub spells: Vec<RawSubclassSpell>,
}

/// `{prerequisites: [{index: "cleric-3", type: "level"}], spell: {index, name}}`.
#[derive(Debug, Deserialize)]
pub(crate) struct RawSubclassSpell {
    #[serde(default)]
    pub prerequisites: Vec<RawRefIndex>,
    pub spell: RawRef,
}

/// A reference of which only the index is read.
#[derive(Debug, Deserialize)]
pub(crate) struct RawRefIndex {
    pub index: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawFeature {
    pub index: String,
    pub name: String,
    pub class: RawRef,
    #[serde(default)]
    pub subclass: Option<RawRef>,
    pub level: RawFeatureLevel,
    #[serde(default, alias = "description", deserialize_with = "text")]
    pub desc: Vec<String>,
}

/// A feature's level: a number (2014) or a reference to the level row (2024, "barbarian-1").
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum RawFeatureLevel {
    Number(u8),
    Row(RawRef),
}

impl RawFeatureLevel {
    /// The level number (the trailing `-N` of a row slug).
    pub fn number(&self) -> Option<u8> {
        match self {
            RawFeatureLevel::Number(n) => Some(*n),
            RawFeatureLevel::Row(r) => r.index.rsplit('-').next()?.parse().ok(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Races

#[derive(Debug, Deserialize)]
pub(crate) struct RawAbilityBonus {
    pub ability_score: RawRef,
    pub bonus: i32,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawBonusChoice {
    pub choose: u8,
    pub from: RawBonusOptions,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawBonusOptions {
    #[serde(default)]
    pub options: Vec<RawAbilityBonus>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawRace {
    pub index: String,
    pub name: String,
    pub speed: u32,
    #[serde(default)]
    pub ability_bonuses: Vec<RawAbilityBonus>,
    #[serde(default)]
    pub ability_bonus_options: Option<RawBonusChoice>,
    #[serde(default)]
    pub alignment: String,
    #[serde(default)]
    pub age: String,
    #[serde(default)]
    pub size: Option<String>,
    #[serde(default)]
    pub size_description: String,
    #[serde(default)]
    pub languages: Vec<RawRef>,
    #[serde(default)]
    pub language_desc: String,
    #[serde(default)]
    pub language_options: Option<RawChoice>,
    #[serde(default)]
    pub traits: Vec<RawRef>,
    #[serde(default, alias = "subspecies")]
    pub subraces: Vec<RawRef>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawSubrace {
    pub index: String,
    pub name: String,
    #[serde(alias = "species")]
    pub race: RawRef,
    #[serde(default, alias = "description", deserialize_with = "text")]
    pub desc: Vec<String>,
    #[serde(default)]
    pub ability_bonuses: Vec<RawAbilityBonus>,
    #[serde(default, alias = "traits")]
    pub racial_traits: Vec<RawRef>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawTrait {
    pub index: String,
    pub name: String,
    #[serde(default, alias = "description", deserialize_with = "text")]
    pub desc: Vec<String>,
    #[serde(default, alias = "species")]
    pub races: Vec<RawRef>,
    #[serde(default, alias = "subspecies")]
    pub subraces: Vec<RawRef>,
    #[serde(default)]
    pub proficiencies: Vec<RawRef>,
    #[serde(default)]
    pub trait_specific: Option<RawTraitSpecific>,
}

/// The structured part of a trait (2014 data); only the breath weapon is read.
#[derive(Debug, Deserialize)]
pub(crate) struct RawTraitSpecific {
    #[serde(default)]
    pub breath_weapon: Option<RawBreath>,
}

/// A draconic ancestry's breath weapon.
#[derive(Debug, Deserialize)]
pub(crate) struct RawBreath {
    pub name: String,
    #[serde(default)]
    pub area_of_effect: Option<RawArea>,
    #[serde(default)]
    pub dc: Option<RawBreathDc>,
    #[serde(default)]
    pub damage: Vec<RawSpellDamage>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawBreathDc {
    pub dc_type: RawRef,
    #[serde(default)]
    pub success_type: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawBackground {
    pub index: String,
    pub name: String,
    #[serde(default, alias = "proficiencies")]
    pub starting_proficiencies: Vec<RawRef>,
    #[serde(default)]
    pub feature: Option<RawNamedText>,
    #[serde(default)]
    pub ability_scores: Vec<RawRef>,
    #[serde(default)]
    pub feat: Option<RawRef>,
    #[serde(default, alias = "description", deserialize_with = "text")]
    pub desc: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawNamedText {
    pub name: String,
    #[serde(default, alias = "description", deserialize_with = "text")]
    pub desc: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawFeat {
    pub index: String,
    pub name: String,
    #[serde(default, alias = "description", deserialize_with = "text")]
    pub desc: Vec<String>,
    #[serde(default)]
    pub prerequisites: serde_json::Value,
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// Spells

#[derive(Debug, Deserialize)]
pub(crate) struct RawSpell {
    pub index: String,
    pub name: String,
    #[serde(default, alias = "description", deserialize_with = "text")]
    pub desc: Vec<String>,
    #[serde(default, deserialize_with = "text")]
    pub higher_level: Vec<String>,
    pub range: String,
    #[serde(default)]
    pub components: Vec<String>,
    #[serde(default)]
    pub material: Option<String>,
    #[serde(default)]
    pub ritual: bool,
    pub duration: String,
    #[serde(default)]
    pub concentration: bool,
    pub casting_time: String,
    pub level: u8,
    #[serde(default)]
    pub attack_type: Option<String>,
    #[serde(default)]
    pub damage: Option<RawSpellDamage>,
    #[serde(default)]
    pub heal_at_slot_level: BTreeMap<u8, String>,
    #[serde(default)]
    pub dc: Option<RawSpellDc>,
    #[serde(default)]
    pub area_of_effect: Option<RawArea>,
    pub school: RawRef,
    #[serde(default)]
    pub classes: Vec<RawRef>,
    #[serde(default)]
    pub subclasses: Vec<RawRef>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawSpellDamage {
    #[serde(default)]
    pub damage_type: Option<RawRef>,
    #[serde(default)]
    pub damage_at_slot_level: BTreeMap<u8, String>,
    #[serde(default)]
    pub damage_at_character_level: BTreeMap<u8, String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawSpellDc {
    pub dc_type: RawRef,
    pub dc_success: String,
    #[serde(default)]
    pub desc: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawArea {
    #[serde(rename = "type")]
    pub kind: String,
    pub size: u32,
}

// ---------------------------------------------------------------------------------------------
// Monsters

#[derive(Debug, Deserialize)]
pub(crate) struct RawMonster {
    pub index: String,
    pub name: String,
    pub size: String,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub subtype: Option<String>,
    pub alignment: String,
    pub armor_class: Vec<RawArmorClass>,
    pub hit_points: i32,
    pub hit_dice: String,
    #[serde(default)]
    pub hit_points_roll: String,
    pub speed: RawSpeed,
    pub strength: i32,
    pub dexterity: i32,
    pub constitution: i32,
    pub intelligence: i32,
    pub wisdom: i32,
    pub charisma: i32,
    #[serde(default)]
    pub proficiencies: Vec<RawMonsterProficiency>,
    #[serde(default)]
    pub damage_vulnerabilities: Vec<String>,
    #[serde(default)]
    pub damage_resistances: Vec<String>,
    #[serde(default)]
    pub damage_immunities: Vec<String>,
    #[serde(default)]
    pub condition_immunities: Vec<RawRef>,
    pub senses: RawSenses,
    #[serde(default)]
    pub languages: String,
    pub challenge_rating: f32,
    #[serde(default)]
    pub proficiency_bonus: i32,
    pub xp: u32,
    #[serde(default)]
    pub special_abilities: Vec<RawAction>,
    #[serde(default)]
    pub actions: Vec<RawAction>,
    #[serde(default)]
    pub legendary_actions: Vec<RawAction>,
    #[serde(default)]
    pub reactions: Vec<RawAction>,
    #[serde(default, alias = "description", deserialize_with = "text")]
    pub desc: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawArmorClass {
    #[serde(rename = "type")]
    pub kind: String,
    pub value: i32,
    #[serde(default)]
    pub desc: Option<String>,
    #[serde(default)]
    pub armor: Vec<RawRef>,
    #[serde(default)]
    pub spell: Option<RawRef>,
    #[serde(default)]
    pub condition: Option<RawRef>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct RawSpeed {
    pub walk: Option<String>,
    pub fly: Option<String>,
    pub swim: Option<String>,
    pub climb: Option<String>,
    pub burrow: Option<String>,
    pub hover: bool,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawMonsterProficiency {
    pub value: i32,
    pub proficiency: RawRef,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct RawSenses {
    pub blindsight: Option<String>,
    pub darkvision: Option<String>,
    pub tremorsense: Option<String>,
    pub truesight: Option<String>,
    pub passive_perception: i32,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawAction {
    pub name: String,
    #[serde(default, alias = "description", deserialize_with = "text")]
    pub desc: Vec<String>,
    #[serde(default)]
    pub attack_bonus: Option<i32>,
    #[serde(default)]
    pub damage: Vec<RawDamage>,
    #[serde(default)]
    pub dc: Option<RawDc>,
    #[serde(default)]
    pub usage: Option<RawUsage>,
    #[serde(default)]
    pub multiattack_type: Option<String>,
    #[serde(default)]
    pub actions: Vec<RawMultiStep>,
    #[serde(default)]
    pub action_options: Option<RawMultiOptions>,
    #[serde(default)]
    pub options: Option<RawActionOptions>,
    #[serde(default)]
    pub attacks: Vec<RawActionOption>,
    #[serde(default)]
    pub spellcasting: Option<RawMonsterSpellcasting>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawDamage {
    #[serde(default)]
    pub damage_type: Option<RawRef>,
    #[serde(default)]
    pub damage_dice: Option<String>,
    #[serde(default)]
    pub dc: Option<RawDc>,
    #[serde(default)]
    pub notes: Option<String>,
    #[serde(default)]
    pub choose: Option<u8>,
    #[serde(default)]
    pub from: Option<RawDamageOptions>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawDamageOptions {
    #[serde(default)]
    pub options: Vec<RawDamage>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawDc {
    pub dc_type: RawRef,
    pub dc_value: i32,
    #[serde(default)]
    pub success_type: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawUsage {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub times: Option<u32>,
    #[serde(default)]
    pub dice: Option<String>,
    #[serde(default)]
    pub min_value: Option<u32>,
    #[serde(default)]
    pub rest_types: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawMultiStep {
    pub action_name: String,
    pub count: IntOrText,
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawMultiOptions {
    pub choose: u8,
    pub from: RawMultiOptionSet,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawMultiOptionSet {
    #[serde(default)]
    pub options: Vec<RawMultiOption>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawMultiOption {
    #[serde(default)]
    pub action_name: Option<String>,
    #[serde(default)]
    pub count: Option<IntOrText>,
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
    #[serde(default)]
    pub items: Vec<RawMultiStep>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawActionOptions {
    pub choose: u8,
    pub from: RawActionOptionSet,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawActionOptionSet {
    #[serde(default)]
    pub options: Vec<RawActionOption>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawActionOption {
    pub name: String,
    #[serde(default)]
    pub dc: Option<RawDc>,
    #[serde(default)]
    pub damage: Vec<RawDamage>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawMonsterSpellcasting {
    pub ability: RawRef,
    #[serde(default)]
    pub dc: Option<i32>,
    #[serde(default)]
    pub modifier: Option<i32>,
    #[serde(default)]
    pub level: Option<u8>,
    #[serde(default)]
    pub slots: BTreeMap<u8, u8>,
    #[serde(default)]
    pub spells: Vec<RawMonsterSpell>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawMonsterSpell {
    pub name: String,
    pub level: u8,
    #[serde(default)]
    pub usage: Option<RawUsage>,
    #[serde(default)]
    pub notes: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// Equipment

#[derive(Debug, Deserialize)]
pub(crate) struct RawCost {
    pub quantity: f64,
    pub unit: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawDice {
    pub damage_dice: String,
    #[serde(default)]
    pub damage_type: Option<RawRef>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawRange {
    #[serde(default)]
    pub normal: Option<u32>,
    #[serde(default)]
    pub long: Option<u32>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawArmor {
    pub base: i32,
    #[serde(default)]
    pub dex_bonus: bool,
    #[serde(default)]
    pub max_bonus: Option<i32>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawContent {
    pub item: RawRef,
    #[serde(default)]
    pub quantity: u32,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawEquipment {
    pub index: String,
    pub name: String,
    #[serde(default)]
    pub equipment_category: Option<RawRef>,
    #[serde(default)]
    pub equipment_categories: Vec<RawRef>,
    #[serde(default)]
    pub weapon_category: Option<String>,
    #[serde(default)]
    pub weapon_range: Option<String>,
    #[serde(default)]
    pub cost: Option<RawCost>,
    #[serde(default)]
    pub damage: Option<RawDice>,
    #[serde(default)]
    pub two_handed_damage: Option<RawDice>,
    #[serde(default)]
    pub range: Option<RawRange>,
    #[serde(default)]
    pub throw_range: Option<RawRange>,
    #[serde(default)]
    pub weight: Option<f64>,
    #[serde(default)]
    pub properties: Vec<RawRef>,
    #[serde(default, deserialize_with = "text")]
    pub special: Vec<String>,
    #[serde(default)]
    pub armor_category: Option<String>,
    #[serde(default)]
    pub armor_class: Option<RawArmor>,
    #[serde(default)]
    pub str_minimum: Option<u32>,
    #[serde(default)]
    pub stealth_disadvantage: Option<bool>,
    #[serde(default)]
    pub gear_category: Option<RawRef>,
    #[serde(default)]
    pub tool_category: Option<String>,
    #[serde(default)]
    pub vehicle_category: Option<String>,
    #[serde(default, alias = "description", deserialize_with = "text")]
    pub desc: Vec<String>,
    #[serde(default)]
    pub quantity: Option<u32>,
    #[serde(default)]
    pub contents: Vec<RawContent>,
    #[serde(default)]
    pub mastery: Option<RawRef>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawRarity {
    pub name: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawMagicItem {
    pub index: String,
    pub name: String,
    pub equipment_category: RawRef,
    pub rarity: RawRarity,
    #[serde(default)]
    pub variants: Vec<RawRef>,
    #[serde(default)]
    pub variant: bool,
    #[serde(default, alias = "description", deserialize_with = "text")]
    pub desc: Vec<String>,
    #[serde(default)]
    pub attunement: Option<bool>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct T {
        #[serde(default, deserialize_with = "text")]
        desc: Vec<String>,
    }

    #[test]
    fn text_accepts_string_array_null_and_absent() {
        let a: T = serde_json::from_str(r#"{"desc":"one"}"#).unwrap();
        assert_eq!(a.desc, vec!["one"]);
        let b: T = serde_json::from_str(r#"{"desc":["a","b"]}"#).unwrap();
        assert_eq!(b.desc, vec!["a", "b"]);
        let c: T = serde_json::from_str(r#"{"desc":null}"#).unwrap();
        assert!(c.desc.is_empty());
        let d: T = serde_json::from_str("{}").unwrap();
        assert!(d.desc.is_empty());
        assert!(serde_json::from_str::<T>(r#"{"desc":5}"#).is_err());
    }

    #[test]
    fn spell_level_maps_accept_string_keys() {
        let d: RawSpellDamage =
            serde_json::from_str(r#"{"damage_at_slot_level":{"3":"8d6","4":"9d6"}}"#).unwrap();
        assert_eq!(
            d.damage_at_slot_level.get(&4).map(String::as_str),
            Some("9d6")
        );
    }
}
