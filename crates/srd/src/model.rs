//! The typed records of the compendium. All of them serialize as camelCase JSON.

use std::collections::BTreeMap;

use serde::Serialize;
use tabletop_rules::{Ability, Condition, DamageType, Size, Skill};

mod monster;
pub use monster::*;

/// A reference to another record: its `index` (slug) and display `name`.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ref {
    /// The slug of the referenced record ("fireball").
    pub index: String,
    /// Its display name ("Fireball").
    pub name: String,
}

/// A named piece of text (a race trait, a background feature, …).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NamedText {
    /// Display name.
    pub name: String,
    /// Paragraphs.
    pub desc: Vec<String>,
}

/// How a class casts spells, derived from its level table.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CasterKind {
    /// Slots from 1st level up to 9th-level spells (wizard, cleric, …).
    Full,
    /// Slots from 2nd level up to 5th-level spells (paladin, ranger).
    Half,
    /// Slots from 3rd level up to 4th-level spells (eldritch knight style).
    Third,
    /// Pact magic: all slots of one level, regained on a short rest (warlock).
    Pact,
    /// No spellcasting.
    None,
}

/// "Choose `choose` skills from `from`".
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SkillChoice {
    /// How many to pick.
    pub choose: u8,
    /// The skills to pick from.
    pub from: Vec<Skill>,
}

/// A character class.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Class {
    /// Slug ("wizard").
    pub index: String,
    /// Display name ("Wizard").
    pub name: String,
    /// Hit die faces (6 for a d6).
    pub hit_die: u8,
    /// Saving-throw proficiencies.
    pub saving_throws: Vec<Ability>,
    /// The skill proficiencies the class picks at 1st level.
    pub skill_choices: Option<SkillChoice>,
    /// The prose of every proficiency choice (skills, tools, instruments).
    pub proficiency_choices: Vec<String>,
    /// Armor proficiencies by name ("Light Armor", "Shields").
    pub armor_proficiencies: Vec<String>,
    /// Weapon proficiencies by name ("Simple Weapons", "Daggers").
    pub weapon_proficiencies: Vec<String>,
    /// Tool and other proficiencies by name.
    pub other_proficiencies: Vec<String>,
    /// The spellcasting ability, for casters.
    pub spellcasting_ability: Option<Ability>,
    /// The class level at which spellcasting starts, for casters.
    pub spellcasting_level: Option<u8>,
    /// Full, half, third or pact caster (or none), derived from the level table.
    pub caster_kind: CasterKind,
    /// The subclasses available in this compendium.
    pub subclasses: Vec<Ref>,
    /// Multiclassing prerequisites and proficiencies.
    pub multiclassing: crate::multiclassing::Multiclassing,
}

/// Pact-magic slots at one warlock level.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PactSlots {
    /// Number of slots.
    pub count: u8,
    /// The level of every slot (1–5).
    pub slot_level: u8,
}

/// One row of a class's (or subclass's) level table.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClassLevel {
    /// Slug ("wizard-5", "devotion-3").
    pub index: String,
    /// The class slug.
    pub class: String,
    /// The subclass slug for subclass rows.
    pub subclass: Option<String>,
    /// Class level 1–20.
    pub level: u8,
    /// Proficiency bonus (absent on subclass rows).
    pub prof_bonus: Option<u8>,
    /// Ability Score Improvements gained so far.
    pub ability_score_bonuses: Option<u8>,
    /// Spell slots per spell level 1–9 (pact slots appear at their level).
    pub spell_slots: [u8; 9],
    /// Pact-magic slots, for pact casters.
    pub pact_slots: Option<PactSlots>,
    /// Cantrips known.
    pub cantrips_known: Option<u8>,
    /// Spells known (or prepared, in 2024 tables).
    pub spells_known: Option<u8>,
    /// Features gained at this level.
    pub features: Vec<Ref>,
    /// Class-specific counters (rages, sneak attack dice, …) as in the data.
    pub class_specific: serde_json::Map<String, serde_json::Value>,
}

/// A subclass (archetype, domain, …).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Subclass {
    /// Slug ("evocation").
    pub index: String,
    /// Display name.
    pub name: String,
    /// The parent class.
    pub class: Ref,
    /// The kind of subclass ("Arcane Tradition").
    pub flavor: Option<String>,
    /// Paragraphs.
    pub desc: Vec<String>,
    /// Spells the subclass grants (domain, oath, patron), each from a class level on.
    pub spells: Vec<SubclassSpell>,
}

/// A spell a subclass grants from a class level on (a cleric domain's spells are always prepared).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SubclassSpell {
    /// The class level from which the spell is granted.
    pub level: u8,
    /// The spell.
    pub spell: Ref,
    /// Features it also needs (Circle of the Land: "circle-of-the-land-forest").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
}

/// A class or subclass feature.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Feature {
    /// Slug.
    pub index: String,
    /// Display name.
    pub name: String,
    /// The class that grants it.
    pub class: Ref,
    /// The subclass that grants it, if any.
    pub subclass: Option<Ref>,
    /// The class level at which it is gained.
    pub level: u8,
    /// Paragraphs.
    pub desc: Vec<String>,
}

/// "Choose `choose` of these ability bonuses" (half-elf).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AbilityBonusChoice {
    /// How many to pick.
    pub choose: u8,
    /// The options.
    pub from: Vec<(Ability, i32)>,
}

/// Languages a race lets the player choose.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LanguageChoice {
    /// How many to pick.
    pub choose: u8,
    /// The options by name.
    pub from: Vec<String>,
}

/// A race (2014) or species (2024).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Race {
    /// Slug ("dwarf").
    pub index: String,
    /// Display name.
    pub name: String,
    /// Walking speed in feet.
    pub speed: u32,
    /// Size (absent when the species lets you choose).
    pub size: Option<Size>,
    /// Fixed ability score increases.
    pub ability_bonuses: Vec<(Ability, i32)>,
    /// Ability score increases chosen by the player.
    pub ability_bonus_choice: Option<AbilityBonusChoice>,
    /// Alignment prose.
    pub alignment: String,
    /// Age prose.
    pub age: String,
    /// Size prose.
    pub size_description: String,
    /// Languages known.
    pub languages: Vec<String>,
    /// Language prose.
    pub language_desc: String,
    /// Languages of the player's choice ("one extra language": a human, a half-elf).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language_choice: Option<LanguageChoice>,
    /// Racial traits, resolved to their text.
    pub traits: Vec<NamedText>,
    /// Subraces.
    pub subraces: Vec<Ref>,
}

/// A subrace (2014) or subspecies (2024).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Subrace {
    /// Slug ("hill-dwarf").
    pub index: String,
    /// Display name.
    pub name: String,
    /// The parent race.
    pub race: Ref,
    /// Paragraphs.
    pub desc: Vec<String>,
    /// The subrace's own ability increases.
    pub ability_bonuses: Vec<(Ability, i32)>,
    /// Race plus subrace increases, summed per ability.
    pub total_ability_bonuses: Vec<(Ability, i32)>,
    /// The subrace's own traits, resolved to their text.
    pub traits: Vec<NamedText>,
}

/// A racial trait.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Trait {
    /// Slug.
    pub index: String,
    /// Display name.
    pub name: String,
    /// Paragraphs.
    pub desc: Vec<String>,
    /// Races that have it.
    pub races: Vec<Ref>,
    /// Subraces that have it.
    pub subraces: Vec<Ref>,
    /// Proficiencies it grants.
    pub proficiencies: Vec<Ref>,
    /// The breath weapon a draconic ancestry gives (2014 data).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub breath_weapon: Option<TraitBreath>,
}

/// A racial breath weapon: its area, save and damage by character level.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TraitBreath {
    /// Name ("Breath Weapon").
    pub name: String,
    /// Its area (a 15-ft cone, a 30-ft line).
    pub area: AreaOfEffect,
    /// The save's ability.
    pub save: Ability,
    /// What a success does.
    pub success: SaveEffect,
    /// The damage type.
    pub damage_type: DamageType,
    /// Dice by character level ("1" → "2d6", "6" → "3d6").
    pub at_character_level: BTreeMap<u8, String>,
}

impl TraitBreath {
    /// The dice at character `level`: the entry of the highest level reached.
    pub fn dice_at(&self, level: u32) -> Option<&str> {
        self.at_character_level
            .iter()
            .rev()
            .find(|(l, _)| u32::from(**l) <= level)
            .map(|(_, d)| d.as_str())
    }
}

/// A character background.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Background {
    /// Slug.
    pub index: String,
    /// Display name.
    pub name: String,
    /// Proficiencies it grants.
    pub proficiencies: Vec<Ref>,
    /// Its feature (2014).
    pub feature: Option<NamedText>,
    /// Ability scores it raises (2024).
    pub ability_scores: Vec<Ability>,
    /// The origin feat it grants (2024).
    pub feat: Option<Ref>,
    /// Paragraphs.
    pub desc: Vec<String>,
}

/// A minimum ability score, as a feat prerequisite.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AbilityMinimum {
    /// The ability.
    pub ability: Ability,
    /// The minimum score.
    pub minimum: u8,
}

/// A feat.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Feat {
    /// Slug.
    pub index: String,
    /// Display name.
    pub name: String,
    /// Ability-score prerequisites.
    pub prerequisites: Vec<AbilityMinimum>,
    /// The feat category (2024: origin, general, …).
    pub category: Option<String>,
    /// Paragraphs.
    pub desc: Vec<String>,
}

/// A condition's rules text.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConditionInfo {
    /// Slug.
    pub index: String,
    /// Display name.
    pub name: String,
    /// The rules vocabulary value.
    pub condition: Option<Condition>,
    /// Paragraphs.
    pub desc: Vec<String>,
}

/// A damage type's description.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DamageTypeInfo {
    /// Slug.
    pub index: String,
    /// Display name.
    pub name: String,
    /// The rules vocabulary value.
    pub damage_type: Option<DamageType>,
    /// Paragraphs.
    pub desc: Vec<String>,
}

/// A skill's description.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SkillInfo {
    /// Slug.
    pub index: String,
    /// Display name.
    pub name: String,
    /// The rules vocabulary value.
    pub skill: Option<Skill>,
    /// The ability the skill uses.
    pub ability: Ability,
    /// Paragraphs.
    pub desc: Vec<String>,
}

/// Records that are a name and text: magic schools, weapon properties, rule sections.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Lore {
    /// Slug.
    pub index: String,
    /// Display name.
    pub name: String,
    /// Paragraphs.
    pub desc: Vec<String>,
}

/// A school of magic.
pub type MagicSchool = Lore;
/// A weapon property (finesse, heavy, …).
pub type WeaponProperty = Lore;
/// A section of the rules chapter text.
pub type RuleSection = Lore;

/// A rules chapter, with its sections.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rule {
    /// Slug.
    pub index: String,
    /// Display name.
    pub name: String,
    /// Paragraphs.
    pub desc: Vec<String>,
    /// Its sections.
    pub subsections: Vec<Ref>,
}

/// A proficiency (armor, weapon, tool, skill, saving throw).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Proficiency {
    /// Slug ("skill-stealth").
    pub index: String,
    /// Display name ("Skill: Stealth").
    pub name: String,
    /// Its type as in the data ("Armor", "Weapons", "Skills", …).
    pub category: String,
    /// Classes that start with it.
    pub classes: Vec<Ref>,
    /// Races that start with it.
    pub races: Vec<Ref>,
    /// The thing it refers to (an equipment category, a skill, …).
    pub reference: Option<Ref>,
}

/// A language.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Language {
    /// Slug.
    pub index: String,
    /// Display name.
    pub name: String,
    /// "Standard" or "Exotic".
    pub category: Option<String>,
    /// Typical speakers.
    pub typical_speakers: Vec<String>,
    /// Script.
    pub script: Option<String>,
    /// Paragraphs.
    pub desc: Vec<String>,
}

/// An alignment.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Alignment {
    /// Slug.
    pub index: String,
    /// Display name.
    pub name: String,
    /// Abbreviation ("LG").
    pub abbreviation: String,
    /// Paragraphs.
    pub desc: Vec<String>,
}

// ---------------------------------------------------------------------------------------------
// Spells

/// What a successful save does to a spell's or action's effect.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SaveEffect {
    /// Half damage on a success.
    Half,
    /// No effect on a success.
    None,
    /// Something else, described in the text.
    Other,
}

/// A spell's saving throw.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpellSave {
    /// The ability of the save.
    pub ability: Ability,
    /// What a success does.
    pub success: SaveEffect,
    /// Extra prose, when the data has it.
    pub desc: Option<String>,
}

/// Shape of an area of effect.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AreaShape {
    /// Sphere (radius).
    Sphere,
    /// Cone (length).
    Cone,
    /// Cube (side).
    Cube,
    /// Cylinder (radius).
    Cylinder,
    /// Line (length).
    Line,
}

/// An area of effect.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AreaOfEffect {
    /// Shape.
    pub shape: AreaShape,
    /// Size in feet.
    pub size: u32,
}

/// Melee or ranged (spell attacks, weapons).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackRange {
    /// Melee.
    Melee,
    /// Ranged.
    Ranged,
}

/// A spell's damage by slot level or by caster level.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpellDamage {
    /// The damage type, when fixed.
    pub damage_type: Option<DamageType>,
    /// Dice by slot level ("3" → "8d6").
    pub at_slot_level: BTreeMap<u8, String>,
    /// Dice by character level, for cantrips.
    pub at_character_level: BTreeMap<u8, String>,
}

/// A spell.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Spell {
    /// Slug ("fireball").
    pub index: String,
    /// Display name.
    pub name: String,
    /// Spell level, 0 for cantrips.
    pub level: u8,
    /// School of magic.
    pub school: Ref,
    /// Casting time ("1 action").
    pub casting_time: String,
    /// Range ("150 feet").
    pub range: String,
    /// Components ("V", "S", "M").
    pub components: Vec<String>,
    /// Material component text.
    pub material: Option<String>,
    /// Duration ("Instantaneous").
    pub duration: String,
    /// Requires concentration.
    pub concentration: bool,
    /// Can be cast as a ritual.
    pub ritual: bool,
    /// Classes with the spell on their list.
    pub classes: Vec<Ref>,
    /// Subclasses that add it.
    pub subclasses: Vec<Ref>,
    /// Paragraphs.
    pub desc: Vec<String>,
    /// "At higher levels" paragraphs.
    pub higher_level: Vec<String>,
    /// Damage, for damaging spells.
    pub damage: Option<SpellDamage>,
    /// Healing dice by slot level.
    pub heal_at_slot_level: BTreeMap<u8, String>,
    /// Saving throw.
    pub dc: Option<SpellSave>,
    /// Area of effect.
    pub area_of_effect: Option<AreaOfEffect>,
    /// Spell attack kind.
    pub attack_type: Option<AttackRange>,
}

// ---------------------------------------------------------------------------------------------
// Equipment

/// A price.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cost {
    /// Amount.
    pub quantity: f64,
    /// Coin ("gp").
    pub unit: String,
}

/// Damage dice and type.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Dice {
    /// Dice expression ("1d8").
    pub dice: String,
    /// Damage type.
    pub damage_type: Option<DamageType>,
}

/// Simple or martial.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponCategory {
    /// Simple weapon.
    Simple,
    /// Martial weapon.
    Martial,
}

/// Weapon data of an equipment item.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Weapon {
    /// Simple or martial.
    pub category: WeaponCategory,
    /// Melee or ranged.
    pub range_kind: AttackRange,
    /// Normal range (reach 5 for melee).
    pub normal_range: u32,
    /// Long range, for ranged weapons.
    pub long_range: Option<u32>,
    /// Thrown normal/long range.
    pub throw_range: Option<(u32, u32)>,
    /// One-handed damage.
    pub damage: Option<Dice>,
    /// Two-handed (versatile) damage.
    pub two_handed_damage: Option<Dice>,
    /// Properties ("Finesse", "Light").
    pub properties: Vec<Ref>,
    /// Weapon mastery (2024).
    pub mastery: Option<Ref>,
    /// Special rules.
    pub special: Vec<String>,
}

/// Armor weight class.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ArmorCategory {
    /// Light armor.
    Light,
    /// Medium armor.
    Medium,
    /// Heavy armor.
    Heavy,
    /// A shield.
    Shield,
}

/// Armor data of an equipment item.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Armor {
    /// Weight class.
    pub category: ArmorCategory,
    /// Base AC (the bonus, for shields).
    pub base_ac: i32,
    /// Adds the Dexterity modifier.
    pub dex_bonus: bool,
    /// Cap on the Dexterity modifier.
    pub max_dex_bonus: Option<i32>,
    /// Strength needed to avoid the speed penalty (0 for none).
    pub str_minimum: u32,
    /// Disadvantage on Stealth checks.
    pub stealth_disadvantage: bool,
}

/// A piece of mundane equipment.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Equipment {
    /// Slug ("longsword").
    pub index: String,
    /// Display name.
    pub name: String,
    /// Top-level category ("Weapon", "Armor", "Adventuring Gear").
    pub category: Ref,
    /// Finer category (gear, tool or vehicle category).
    pub subcategory: Option<String>,
    /// Price.
    pub cost: Option<Cost>,
    /// Weight in pounds.
    pub weight: Option<f64>,
    /// Weapon data.
    pub weapon: Option<Weapon>,
    /// Armor data.
    pub armor: Option<Armor>,
    /// Number of items per purchase (arrows: 20).
    pub quantity: Option<u32>,
    /// Contents of packs.
    pub contents: Vec<(Ref, u32)>,
    /// Paragraphs.
    pub desc: Vec<String>,
}

/// A magic item.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MagicItem {
    /// Slug.
    pub index: String,
    /// Display name.
    pub name: String,
    /// Category ("Wondrous Items", "Ring").
    pub category: Ref,
    /// Rarity as written ("Very Rare", "Varies").
    pub rarity: String,
    /// Requires attunement.
    pub requires_attunement: bool,
    /// Who may attune ("by a cleric, druid, or paladin").
    pub attunement_note: Option<String>,
    /// Variant items (for generic entries like "Armor, +1, +2, or +3").
    pub variants: Vec<Ref>,
    /// This is a variant of a generic entry.
    pub is_variant: bool,
    /// Paragraphs.
    pub desc: Vec<String>,
}
