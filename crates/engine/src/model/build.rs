//! A character's sources ([`Build`]) and the values derived from them ([`Derived`]), each with
//! its sources: the data of DESIGN §4a. The pipeline that turns one into the other is
//! [`crate::derive`] (a use-case layer); the sheet only reads these types.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use tabletop_rules::abilities::{AbilityScores, ProficiencyLevel};
use tabletop_rules::modifiers::Modifier;
use tabletop_rules::stats::Contribution;
use tabletop_rules::{Ability, Condition, DamageType, Size, Skill};

use crate::catalog::Recharge;
use crate::catalog::{ActionCost, RiderWhen, Use};

/// A character's sources: what it is made of. Nothing derivable is kept here.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Build {
    /// Ability scores before racial bonuses.
    pub base_scores: AbilityScores,
    /// How they were made ("manual", "standard_array", "point_buy", "roll", "legacy sheet").
    pub method: String,
    /// Race (SRD name, or a custom race's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub race: Option<String>,
    /// Subrace (SRD).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subrace: Option<String>,
    /// A race not in the SRD.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_race: Option<CustomRaceSource>,
    /// Class levels, in the order taken (the first is the starting class).
    pub classes: Vec<ClassLevels>,
    /// Character level when it has no class.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub classless_level: Option<u32>,
    /// Background.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background: Option<String>,
    /// Choices the sources ask for.
    pub choices: Choices,
    /// Ability changes after creation (Ability Score Improvements, DM edits), per ability.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub ability_changes: BTreeMap<Ability, i32>,
    /// Manual overrides: explicit, visible sources.
    pub overrides: Overrides,
    /// Experience points earned.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub xp: u32,
}

/// Levels in one class.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ClassLevels {
    /// The class (SRD name, or a custom class's).
    pub class: String,
    /// Levels in it.
    pub level: u32,
    /// Subclass (SRD name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subclass: Option<String>,
    /// A class not in the SRD.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom: Option<CustomClassSource>,
    /// Hit-die values recorded per class level (rolled or manual); a level without one takes
    /// the average (the first character level takes the maximum).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub hp: BTreeMap<u32, u32>,
    /// This class's hit dice spent since the last long rest (state kept with its class; the
    /// sheet's total left is the sum over classes).
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub hit_dice_spent: u32,
}

fn is_zero_u32(n: &u32) -> bool {
    *n == 0
}

/// A custom class as given.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CustomClassSource {
    /// Hit die faces.
    pub hit_die: u32,
    /// Saving throws.
    pub saves: Vec<Ability>,
    /// Spellcasting ability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spellcasting_ability: Option<Ability>,
    /// Skills it chooses: how many and from which (empty = any).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill_choices: Option<(u8, Vec<Skill>)>,
}

/// A custom race as given.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CustomRaceSource {
    /// Ability bonuses.
    pub ability_bonuses: BTreeMap<Ability, i32>,
    /// Walking speed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<u32>,
    /// Size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<Size>,
    /// Trait names.
    pub traits: Vec<String>,
}

/// The choices sources ask for.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Choices {
    /// Skills chosen (class skill choice, half-elf Skill Versatility, extra ones the DM gave).
    pub skills: Vec<Skill>,
    /// Skills with expertise.
    pub expertise: Vec<Skill>,
    /// Languages chosen (or given).
    pub languages: Vec<String>,
    /// Half-elf: the two abilities that get +1.
    pub ability_choices: Vec<Ability>,
    /// Fighting style ("defense").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fighting_style: Option<String>,
    /// Dragonborn ancestry colour ("red").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draconic_ancestry: Option<String>,
    /// Ability Score Improvements, in the order the levels reach them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub asi: Vec<AsiChoice>,
    /// Feature options chosen, by catalog key: hunter options ("hunters-prey-colossus-slayer"),
    /// eldritch invocations ("eldritch-invocation-devils-sight"), the dragon ancestor
    /// ("dragon-ancestor-red---fire-damage"), the land ("circle-of-the-land-forest"), the pact
    /// boon ("pact-of-the-blade").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
}

/// One Ability Score Improvement's choice.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct AsiChoice {
    /// {"str": 2} or {"str": 1, "con": 1}.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub abilities: BTreeMap<Ability, u8>,
    /// Or a feat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feat: Option<String>,
}

/// Manual overrides: each is shown as the source of the value it sets.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Overrides {
    /// Maximum HP as set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_hp: Option<u32>,
    /// A manual adjustment to the derived maximum HP (a converted old sheet's difference).
    #[serde(skip_serializing_if = "is_zero")]
    pub max_hp_adjust: i32,
    /// Base armor class as set (replaces every formula).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub armor_class: Option<i32>,
    /// Speed as set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<u32>,
    /// Size as set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<Size>,
    /// Saving-throw proficiencies as set (replace the class's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saves: Option<BTreeSet<Ability>>,
    /// Skill proficiencies as set (replace every source's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skills: Option<BTreeMap<Skill, ProficiencyLevel>>,
    /// Languages as set (replace every source's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub languages: Option<Vec<String>>,
    /// Extra damage resistances given by hand.
    #[serde(skip_serializing_if = "BTreeSet::is_empty")]
    pub resistances: BTreeSet<DamageType>,
    /// Extra damage immunities given by hand.
    #[serde(skip_serializing_if = "BTreeSet::is_empty")]
    pub immunities: BTreeSet<DamageType>,
    /// Damage vulnerabilities given by hand.
    #[serde(skip_serializing_if = "BTreeSet::is_empty")]
    pub vulnerabilities: BTreeSet<DamageType>,
    /// Condition immunities given by hand.
    #[serde(skip_serializing_if = "BTreeSet::is_empty")]
    pub condition_immunities: BTreeSet<Condition>,
    /// Resistances the sources grant that the DM removed.
    #[serde(skip_serializing_if = "BTreeSet::is_empty")]
    pub removed_resistances: BTreeSet<DamageType>,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

/// A value and where it comes from.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Sourced<T> {
    /// The value.
    pub value: T,
    /// Its source ("race: Dwarf (Dwarven Resilience)").
    pub source: String,
}

/// An armor-class formula a source grants.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AcFormula {
    /// Its source ("Unarmored Defense (barbarian)").
    pub source: String,
    /// The base.
    pub base: i32,
    /// Abilities whose modifiers add.
    pub abilities: Vec<Ability>,
    /// Whether a shield may be used with it.
    pub shield: bool,
}

/// A speed bonus that depends on what is worn.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpeedRule {
    /// Its source.
    pub source: String,
    /// Feet.
    pub feet: i32,
    /// Only without armor or a shield.
    pub unarmored: bool,
    /// Only without heavy armor.
    pub no_heavy_armor: bool,
}

/// A resource with its derived maximum.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceSpec {
    /// Name.
    pub name: String,
    /// Maximum.
    pub max: u32,
    /// When it comes back.
    pub recharge: Recharge,
    /// Its source.
    pub source: String,
}

/// A class rule in play: the rule, the granting class's level, the source.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CasterRuleSpec {
    /// The rule.
    pub rule: crate::catalog::caster_rules::CasterRule,
    /// The granting class's level.
    pub level: u32,
    /// Its source.
    pub source: String,
}

/// A damage rider with its dice at the current level.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RiderSpec {
    /// Name ("Sneak Attack").
    pub name: String,
    /// Dice count.
    pub count: u32,
    /// Dice faces.
    pub faces: u32,
    /// When it applies.
    pub when: RiderWhen,
    /// Its source.
    pub source: String,
}

/// A spell a feature lets its bearer cast (see `catalog::Grant::FeatureSpell`).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FeatureSpellSpec {
    /// The spell's SRD index, when fixed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spell: Option<String>,
    /// The level it is cast at (with no spell: the chosen spell's level).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// The resource a cast spends; none: at will.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    /// A warlock slot is spent.
    #[serde(default)]
    pub pact_slot: bool,
    /// Only on the caster.
    #[serde(default)]
    pub self_only: bool,
    /// Its source ("Eldritch Invocations: Mask Of Many Faces (warlock 2)").
    pub source: String,
}

/// A rider on one spell, resolved at the current level.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpellRiderSpec {
    /// The spell's SRD index.
    pub spell: String,
    /// Added to each hit's damage.
    #[serde(default)]
    pub damage: i64,
    /// Feet each hit pushes.
    #[serde(default)]
    pub push_ft: u32,
    /// The range it gives (feet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range_ft: Option<u32>,
    /// Its source.
    pub source: String,
}

/// An action a feature offers, its numbers resolved at the current level.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActionSpec {
    /// Name ("Second Wind").
    pub name: String,
    /// What it costs.
    pub cost: ActionCost,
    /// The resource one use spends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    /// What it does.
    pub does: Use,
    /// The flat part of a heal, resolved (Second Wind: the fighter level).
    #[serde(default)]
    pub heal_plus: i64,
    /// A damage bonus while its effect lasts, resolved (Rage).
    #[serde(default)]
    pub damage_bonus: i64,
    /// A save-for-half area, resolved at the current level (Breath Weapon).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area_save: Option<AreaSave>,
    /// Its source.
    pub source: String,
}

impl ActionSpec {
    /// A compact line: "Second Wind", "Breath Weapon (fire, 15-ft cone) DC 13 DEX half, 2d6 fire".
    pub fn summary(&self) -> String {
        match &self.area_save {
            Some(a) => format!(
                "{} ({}, {}) DC {} {} {}, {} {}",
                self.name,
                a.damage_type,
                a.area_text(),
                a.dc,
                a.save.abbr(),
                if a.half { "half" } else { "negates" },
                a.dice,
                a.damage_type
            ),
            None => match self.does {
                crate::catalog::Use::Inspire { .. } => {
                    format!("{} (d{})", self.name, self.heal_plus)
                }
                _ => self.name.clone(),
            },
        }
    }
}

/// Damage to each creature in an area that saves against it (a dragonborn's breath).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AreaSave {
    /// The area's shape (cone, line…).
    pub shape: tabletop_srd::AreaShape,
    /// Its size in feet (a cone's length, a line's length).
    pub size_ft: u32,
    /// The save's ability.
    pub save: Ability,
    /// The ability whose modifier sets the DC (8 + it + proficiency).
    pub dc_ability: Ability,
    /// The DC with the derived scores.
    pub dc: i32,
    /// A success halves the damage (else it negates it).
    pub half: bool,
    /// The dice at the current level ("2d6").
    pub dice: String,
    /// The damage type.
    pub damage_type: DamageType,
}

impl AreaSave {
    /// "15-ft cone", "30-ft line 5 ft wide".
    pub fn area_text(&self) -> String {
        use tabletop_srd::AreaShape as S;
        match self.shape {
            S::Cone => format!("{}-ft cone", self.size_ft),
            S::Line => format!("{}-ft line 5 ft wide", self.size_ft),
            S::Sphere => format!("{}-ft radius", self.size_ft),
            S::Cube => format!("{}-ft cube", self.size_ft),
            S::Cylinder => format!("{}-ft cylinder", self.size_ft),
        }
    }
}

/// Everything the pipeline derives from a build, each value with its sources.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Derived {
    /// Ability scores (race, choices and changes applied).
    pub abilities: AbilityScores,
    /// Where each score's changes come from.
    pub ability_sources: BTreeMap<Ability, Vec<Contribution>>,
    /// Character level (sum of class levels).
    pub level: u32,
    /// Proficiency bonus.
    pub proficiency_bonus: i32,
    /// Maximum hit points.
    pub max_hp: u32,
    /// Its parts.
    pub max_hp_sources: Vec<Contribution>,
    /// The part of max HP from per-level grants (Dwarven Toughness).
    pub hp_grants: i32,
    /// Hit dice: die faces and how many, per class.
    pub hit_dice: Vec<Sourced<(u32, u32)>>,
    /// Unarmored AC formulas (the best applies when no armor is worn).
    pub ac_formulas: Vec<AcFormula>,
    /// Base armor class as set by hand (replaces every formula).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub armor_class_override: Option<i32>,
    /// Walking speed before armor-dependent rules.
    pub speed: u32,
    /// Its parts.
    pub speed_sources: Vec<Contribution>,
    /// Speed bonuses that depend on armor.
    pub speed_rules: Vec<SpeedRule>,
    /// Sources that keep heavy armor's Strength rule from reducing speed.
    pub ignore_heavy_armor_speed: Vec<String>,
    /// Sources that let it move through the space of larger creatures (Halfling Nimbleness).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub move_through_larger: Vec<String>,
    /// Sources that let it hide behind a creature one size larger (Naturally Stealthy).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hide_behind_larger: Vec<String>,
    /// Double proficiency on a skill's checks about some topics (Stonecunning, Artificer's
    /// Lore): the skill and the words naming the topic in a check's reason.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub topic_expertise: Vec<Sourced<(Skill, Vec<String>)>>,
    /// Size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<Size>,
    /// Senses.
    pub senses: Vec<Sourced<(String, u32)>>,
    /// Saving-throw proficiencies and their sources.
    pub saves: BTreeMap<Ability, String>,
    /// Skill proficiencies with their sources.
    pub skills: BTreeMap<Skill, Sourced<ProficiencyLevel>>,
    /// Armor, weapon and tool proficiencies.
    pub proficiencies: Vec<Sourced<String>>,
    /// Languages.
    pub languages: Vec<Sourced<String>>,
    /// Damage resistances.
    pub resistances: Vec<Sourced<DamageType>>,
    /// Damage immunities.
    pub immunities: Vec<Sourced<DamageType>>,
    /// Damage vulnerabilities.
    pub vulnerabilities: Vec<Sourced<DamageType>>,
    /// Condition immunities.
    pub condition_immunities: Vec<Sourced<Condition>>,
    /// Permanent modifiers (the traits layer of the effective-stats pipeline).
    pub modifiers: Vec<Modifier>,
    /// Limited-use resources.
    pub resources: Vec<ResourceSpec>,
    /// Damage riders.
    pub riders: Vec<RiderSpec>,
    /// Actions features offer (use_special_ability by name).
    pub actions: Vec<ActionSpec>,
    /// Spells features let it cast without the usual rules (invocations, Mystic Arcanum).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub feature_spells: Vec<FeatureSpellSpec>,
    /// Riders on spells it casts (Agonizing Blast), amounts resolved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spell_riders: Vec<SpellRiderSpec>,
    /// Rules shaping its spells (Sculpt Spells, Potent Cantrip…), with their sources.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spell_shaping: Vec<Sourced<crate::catalog::SpellShaping>>,
    /// Temporary HP when it drops a hostile creature to 0 HP (Dark One's Blessing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kill_temp_hp: Option<Sourced<i64>>,
    /// Class rules in play (Metamagic options, Song of Rest, Disciple of Life…), with the
    /// granting class's level.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub class_rules: Vec<CasterRuleSpec>,
    /// Attacks per Attack action (Extra Attack; 0 = no feature, one attack).
    pub attacks_per_action: u32,
    /// The lowest natural roll a weapon attack crits on (Improved Critical), when below 20.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crit_min: Option<u32>,
    /// Extra weapon dice on a melee critical hit (Brutal Critical).
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub brutal_critical: u32,
    /// One more weapon die on a melee critical hit (Savage Attacks).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub savage_attacks: bool,
    /// Turn Undead destroys failing undead up to this CR (Destroy Undead).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destroy_undead_cr: Option<f32>,
    /// Abilities whose checks without proficiency add half the bonus, with the source (Jack of
    /// All Trades, Remarkable Athlete).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub half_proficiency: BTreeMap<Ability, String>,
    /// No attack roll has advantage against it while it is not incapacitated (Elusive): the
    /// source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_advantage_against: Option<String>,
    /// Martial Arts die (monk).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub martial_arts: Option<(u32, u32)>,
    /// Spellcasting ability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spellcasting_ability: Option<Ability>,
    /// Advantage on saves against a condition, damage type or magic ("poison", "charmed").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub save_advantages: Vec<Sourced<String>>,
    /// Fighting styles in play ("archery", "defense", "great-weapon-fighting", …).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fighting_styles: Vec<String>,
    /// Class-feature rules applied in play (Relentless Rage, Aura of Protection…), each with
    /// its source.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<Sourced<crate::catalog::class_rules::ClassRule>>,
    /// Feature and trait names.
    pub features: Vec<String>,
    /// What the engine does not automate, one line each.
    pub narrative: Vec<String>,
    /// Choices the pipeline made for the player, or that are still open, one line each.
    pub choices: Vec<String>,
    /// Experience points, and the XP the next level needs (none at 20th).
    pub xp: u32,
    /// XP for the next character level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_level_xp: Option<u32>,
    /// The level the XP reaches, when above the character's: it can level up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub can_level_to: Option<u32>,
}

impl Derived {
    /// Whether a feature gives the sheet `rule`.
    pub fn has_rule(&self, rule: crate::catalog::class_rules::ClassRule) -> bool {
        self.rules.iter().any(|r| r.value == rule)
    }

    /// The resource spec named `name` (case-insensitive).
    pub fn resource(&self, name: &str) -> Option<&ResourceSpec> {
        let k = crate::model::names::name_key(name);
        self.resources
            .iter()
            .find(|r| crate::model::names::name_key(&r.name) == k)
    }
}
