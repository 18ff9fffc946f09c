//! Characters as stored: the sheet (base values only), stat blocks, resources, conditions, filters
//! and how a call names a character. Finding one by id or name is [`crate::characters::resolve`].

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use tabletop_rules::abilities::{AbilityScores, ProficiencyLevel};
use tabletop_rules::damage::DeathSaves;
use tabletop_rules::{Ability, CharacterType, Condition, DamageType, Size, Skill};

use crate::model::concentration::Concentration;
use crate::model::effects::{ActiveEffect, Duration};
use crate::model::inventory::Inventory;
use crate::model::slots::SpellSlots;

/// Re-exported from [`crate::model::names`] so `character::name_key` keeps working.
pub use crate::model::names::name_key;

thread_local! {
    /// Set while [`serialize_without_derived`] runs on this thread.
    static WITHOUT_DERIVED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn skip_derived(d: &Option<std::sync::Arc<crate::model::build::Derived>>) -> bool {
    d.is_none() || WITHOUT_DERIVED.with(std::cell::Cell::get)
}

/// The character without its derived sheet as compact JSON: the document a store keeps (the
/// sheet is stored apart, see `store::character_text`) and what an update's answer shows.
pub fn document_text(c: &Character) -> Result<String, serde_json::Error> {
    document_raw(c).map(|raw| Box::<str>::from(raw).into_string())
}

/// [`document_text`] as raw JSON, to embed in an answer as it is (made by serde_json, so
/// nothing parses it again).
pub fn document_raw(c: &Character) -> Result<Box<serde_json::value::RawValue>, serde_json::Error> {
    struct WithoutDerived<'a>(&'a Character);
    impl Serialize for WithoutDerived<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            serialize_without_derived(self.0, s)
        }
    }
    serde_json::value::to_raw_value(&WithoutDerived(c))
}

/// Serializes `c` without its `derived` block (every derived value with its sources, most of a
/// character's text): for answers that report a change, where the sheet's values are there
/// and a sheet read (`get_character`) explains them. Storage always keeps the whole character.
pub fn serialize_without_derived<S: serde::Serializer>(
    c: &Character,
    s: S,
) -> Result<S::Ok, S::Error> {
    /// Puts the flag back as it was, even if serializing panics.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            WITHOUT_DERIVED.with(|f| f.set(self.0));
        }
    }
    let _restore = Restore(WITHOUT_DERIVED.with(|f| f.replace(true)));
    c.serialize(s)
}

/// A character sheet as stored: base values only. Effective values (conditions, effects,
/// equipment) are computed from it on demand, never stored.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Character {
    /// Stable id within the campaign ("ch3").
    pub id: String,
    /// Display name; unique names make name lookups unambiguous.
    pub name: String,
    /// pc, npc, enemy or neutral.
    pub kind: CharacterType,
    /// Race (SRD or custom).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub race: Option<String>,
    /// Subrace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subrace: Option<String>,
    /// Class (SRD or custom).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// Background.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background: Option<String>,
    /// Character level, 1–20.
    pub level: u32,
    /// Experience points earned (quest rewards, add_xp); levelling up stays the DM's call.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub xp: u32,
    /// Base ability scores (racial bonuses included).
    pub abilities: AbilityScores,
    /// Proficiency bonus (from level, or a stat block's CR).
    pub proficiency_bonus: i32,
    /// Saving throws the character is proficient in.
    #[serde(default)]
    pub save_proficiencies: BTreeSet<Ability>,
    /// Skill proficiencies and expertise.
    #[serde(default)]
    pub skills: BTreeMap<Skill, ProficiencyLevel>,
    /// Base armor class.
    pub armor_class: i32,
    /// Where the base AC comes from ("unarmored: 10 + DEX", "chain mail", …).
    pub armor_source: String,
    /// Walking speed in feet.
    pub speed: u32,
    /// Size.
    pub size: Size,
    /// Base maximum hit points.
    pub max_hp: u32,
    /// Hit die size (6, 8, 10, 12).
    pub hit_die: u32,
    /// Damage resistances.
    #[serde(default)]
    pub resistances: BTreeSet<DamageType>,
    /// Damage immunities.
    #[serde(default)]
    pub immunities: BTreeSet<DamageType>,
    /// Damage vulnerabilities.
    #[serde(default)]
    pub vulnerabilities: BTreeSet<DamageType>,
    /// Conditions the character cannot suffer.
    #[serde(default)]
    pub condition_immunities: BTreeSet<Condition>,
    /// Spellcasting ability, for casters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spellcasting_ability: Option<Ability>,
    /// Spells known or prepared (cantrips included).
    #[serde(default)]
    pub spells: Vec<String>,
    /// A wizard's spellbook: the spells of 1st level and higher it may prepare from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spellbook: Vec<String>,
    /// A multiclassed caster's spells by the class each was learned with (spell → class): it
    /// counts against that class and is cast with its ability.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub spell_classes: BTreeMap<String, String>,
    /// Equipment names given at creation or by update_character; the inventory adopts them as
    /// plain (or SRD) items on its next use and empties this list.
    #[serde(default)]
    pub equipment: Vec<String>,
    /// Items, equipment slots, attunement and coins.
    #[serde(default, skip_serializing_if = "Inventory::is_empty")]
    pub inventory: Inventory,
    /// Languages.
    #[serde(default)]
    pub languages: Vec<String>,
    /// Class features and racial traits, by name.
    #[serde(default)]
    pub features: Vec<String>,
    /// Free-form notes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// The SRD stat block the character was made from (`fromMonster`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stat_block: Option<StatBlock>,
    /// A form worn over this sheet (Wild Shape, Polymorph): see [`crate::model::shape`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<crate::model::shape::Shape>,
    /// Improvised spells mastered with synthesize_spell (castable by name with cast_spell).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mastered_spells: Vec<crate::model::spell::SpellDef>,
    /// What the character is made of (DESIGN §4a): the sources its sheet is derived from.
    /// Absent on stat-block creatures; an old sheet gets one on first read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<crate::model::build::Build>,
    // The state part: what play changes from call to call. These fields come last, in this
    // order, so a stored document ends with them and an update that changes nothing else
    // rewrites only them (`model::doc_state`).
    /// Current hit points (0 ..= max).
    pub hp: u32,
    /// Temporary hit points (absorbed first; do not stack).
    #[serde(default)]
    pub temp_hp: u32,
    /// Hit dice left to spend (the total equals the level).
    pub hit_dice: u32,
    /// Death-save tally while at 0 HP.
    #[serde(default)]
    pub death_saves: DeathSaves,
    /// True once the character has died.
    #[serde(default)]
    pub dead: bool,
    /// When it died, in world-clock seconds (combat rounds move the clock 6 s each); set when
    /// a dead sheet is stored, cleared when it lives again. Revival spells' time limits read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub died_at: Option<u64>,
    /// Active conditions.
    #[serde(default)]
    pub conditions: Vec<ConditionEntry>,
    /// Active effects (boons, curses, spells) with their typed modifiers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<ActiveEffect>,
    /// The spell the character is concentrating on, and what it holds up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concentration: Option<Concentration>,
    /// Spell slots (and pact slots).
    #[serde(default, skip_serializing_if = "SpellSlots::is_empty")]
    pub spell_slots: SpellSlots,
    /// Limited-use resources (Ki, Rage, Channel Divinity, custom).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<Resource>,
    /// The values last derived from the build, each with its sources (recomputed on every
    /// read and write by the derive pipeline).
    #[serde(default, skip_serializing_if = "skip_derived")]
    pub derived: Option<std::sync::Arc<crate::model::build::Derived>>,
    /// The effective sheet of the stored text this character was read from, shared by every
    /// read of that text (`store::decoded`); only [`crate::characters::Read`] uses it. Not part
    /// of the character: never stored, never compared.
    #[serde(skip)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub(crate) read_sheet: ReadSheet,
    /// The stored document this character was read from, kept so a write that changes only
    /// the state part reuses the rest of its text (`model::doc_state`). Not part of the
    /// character: never stored, never compared.
    #[serde(skip)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub(crate) read_doc: ReadDoc,
}

/// See [`Character::read_sheet`].
#[derive(Clone, Default)]
pub(crate) struct ReadSheet(
    pub(crate) Option<std::sync::Arc<std::sync::OnceLock<tabletop_rules::stats::EffectiveStats>>>,
);

impl ReadSheet {
    /// A sheet not derived yet, for a new stored text.
    pub(crate) fn new() -> Self {
        Self(Some(Default::default()))
    }

    /// This sheet when there is one, else a new one (not derived yet).
    pub(crate) fn or_new(self) -> Self {
        if self.0.is_some() { self } else { Self::new() }
    }
}

impl std::fmt::Debug for ReadSheet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ReadSheet")
    }
}

impl PartialEq for ReadSheet {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// The stored document a character was read from (see `model::doc_state`); empty for a
/// character not read from a store.
#[derive(Clone, Default)]
pub(crate) struct ReadDoc(pub(crate) Option<std::sync::Arc<AsRead>>);

/// A stored document and the character decoded from it.
pub(crate) struct AsRead {
    pub(crate) doc: std::sync::Arc<str>,
    pub(crate) decoded: std::sync::Arc<Character>,
    /// Where the state part begins (the comma before it), once looked for.
    pub(crate) base_end: std::sync::OnceLock<Option<usize>>,
    /// The key of the compendium under which resolving `decoded` on read changed nothing
    /// (`store::decoded`), when the read was such a resolution.
    pub(crate) fixed_under: Option<u64>,
}

impl ReadDoc {
    /// `doc` as read, what it decoded to (before anything made of it on read), where its state
    /// part begins when known, and the compendium key under which resolving it changed nothing.
    pub(crate) fn new(
        doc: std::sync::Arc<str>,
        decoded: std::sync::Arc<Character>,
        base_end: Option<usize>,
        fixed_under: Option<u64>,
    ) -> Self {
        Self(Some(std::sync::Arc::new(AsRead {
            doc,
            decoded,
            base_end: match base_end {
                Some(at) => std::sync::OnceLock::from(Some(at)),
                None => std::sync::OnceLock::new(),
            },
            fixed_under,
        })))
    }
}

impl std::fmt::Debug for ReadDoc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ReadDoc")
    }
}

impl PartialEq for ReadDoc {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

pub use crate::catalog::Recharge;

/// A limited-use resource with its maximum and what is left.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// Name ("Ki").
    pub name: String,
    /// Maximum.
    pub max: u32,
    /// Left.
    pub current: u32,
    /// When it comes back.
    #[serde(default)]
    pub recharge: Recharge,
}

impl Resource {
    /// Whether its uses are unlimited: the SRD's class tables write "unlimited" as 9999 (a
    /// barbarian 20's rages).
    pub fn unlimited(&self) -> bool {
        self.max >= 9999
    }

    /// The DC of the next save when this resource counts uses of a save whose DC rises with
    /// each (Relentless Rage: 10, +5 for each use since the last rest); `None` for others.
    pub fn rising_dc(&self) -> Option<i32> {
        (crate::model::names::name_key(&self.name) == "relentless rage").then(|| {
            let used = i32::try_from(self.max.saturating_sub(self.current)).unwrap_or(i32::MAX);
            used.saturating_mul(5).saturating_add(10)
        })
    }

    /// "Ki 3/5 (short rest)", "Rage unlimited", "Relentless Rage: next save DC 15 (short
    /// rest resets it)".
    pub fn summary(&self) -> String {
        let rest = match self.recharge {
            Recharge::Short => "short",
            Recharge::Long => "long",
        };
        if self.unlimited() {
            return format!("{} unlimited", self.name);
        }
        if let Some(dc) = self.rising_dc() {
            return format!("{}: next save DC {dc} ({rest} rest resets it)", self.name);
        }
        format!("{} {}/{} ({rest} rest)", self.name, self.current, self.max)
    }
}

/// A monster's stat block as kept on a character made from it: what the sheet's fields do not
/// hold (CR, XP, senses, actions, …).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatBlock {
    /// The SRD monster's slug ("goblin").
    pub monster: String,
    /// Creature type ("humanoid").
    pub creature_type: String,
    /// Subtype ("goblinoid").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtype: Option<String>,
    /// Alignment.
    pub alignment: String,
    /// Challenge rating (0.125, 0.25, 0.5, 1, …).
    pub challenge_rating: f32,
    /// XP for defeating it.
    pub xp: u32,
    /// Proficiency bonus (from CR).
    pub proficiency_bonus: i32,
    /// Hit dice ("2d6").
    pub hit_dice: String,
    /// Speeds other than walking, e.g. {"fly": 60}.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub other_speeds: BTreeMap<String, u32>,
    /// Hovers while flying.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hover: bool,
    /// Senses ("darkvision 60 ft.", "passive Perception 9").
    #[serde(default)]
    pub senses: Vec<String>,
    /// Languages as written.
    #[serde(default)]
    pub languages: String,
    /// Damage defenses as written where they are qualified ("… from nonmagical attacks").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub qualified_defenses: Vec<String>,
    /// Traits (special abilities).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_abilities: Vec<StatAction>,
    /// Actions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<StatAction>,
    /// Legendary actions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub legendary_actions: Vec<StatAction>,
    /// Reactions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reactions: Vec<StatAction>,
}

/// One action, trait, legendary action or reaction of a stat block.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatAction {
    /// Name ("Scimitar").
    pub name: String,
    /// Rules text.
    pub desc: String,
    /// Attack bonus, for attacks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack_bonus: Option<i32>,
    /// Damage on a hit (or on a failed save).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub damage: Vec<StatDamage>,
    /// A saving throw it calls for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dc: Option<StatDc>,
    /// Usage limit: "Recharge 5–6", "3/Day", "Recharges after a Short or Long Rest".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recharge: Option<String>,
    /// Multiattack: the actions it makes, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub multiattack: Vec<MultiattackPart>,
    /// Alternative effects, one of which applies (versatile grips, breath options).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<StatAlternative>,
}

/// Damage dice and type.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatDamage {
    /// Dice expression ("1d6+2").
    pub dice: String,
    /// Damage type (absent when the data leaves it open).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<DamageType>,
}

/// A saving throw: ability, DC and what a success does.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatDc {
    /// The save's ability.
    pub ability: Ability,
    /// The DC.
    pub value: i32,
    /// "half", "none" or "other".
    pub success: String,
}

/// One part of a multiattack.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MultiattackPart {
    /// The action used.
    pub action: String,
    /// How many times ("1" … or prose such as "Number of Heads", or dice: "1d4").
    pub count: String,
    /// 0: made in every case; N: part of the N-th alternative set ("or two ranged attacks").
    #[serde(default, skip_serializing_if = "is_no_option")]
    pub option: u8,
}

fn is_no_option(n: &u8) -> bool {
    *n == 0
}

/// One alternative effect of an action.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatAlternative {
    /// Name ("Fire Breath", "two handed").
    pub name: String,
    /// Damage.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub damage: Vec<StatDamage>,
    /// Save.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dc: Option<StatDc>,
}

impl StatDamage {
    /// "1d6+2 slashing".
    pub fn text(&self) -> String {
        match self.damage_type {
            Some(t) => format!("{} {t}", self.dice),
            None => self.dice.clone(),
        }
    }
}

impl StatAction {
    /// A multiattack's choosable sequences: the parts made in every case, then each
    /// alternative set's (one sequence when it has no alternatives).
    pub fn multiattack_sets(&self) -> Vec<Vec<MultiattackPart>> {
        let options = self.multiattack.iter().map(|p| p.option).max().unwrap_or(0);
        let fixed = self.multiattack.iter().filter(|p| p.option == 0);
        if options == 0 {
            return vec![fixed.cloned().collect()];
        }
        (1..=options)
            .map(|k| {
                fixed
                    .clone()
                    .chain(self.multiattack.iter().filter(|p| p.option == k))
                    .cloned()
                    .collect()
            })
            .collect()
    }

    /// A compact line: "Scimitar +4, 1d6+2 slashing", "Fire Breath (Recharge 5–6) DC 21 DEX half, 18d6 fire".
    pub fn summary(&self) -> String {
        let mut s = self.name.clone();
        if let Some(r) = &self.recharge {
            s.push_str(&format!(" ({r})"));
        }
        if let Some(b) = self.attack_bonus {
            s.push_str(&format!(" {b:+}"));
        }
        if let Some(dc) = &self.dc {
            s.push_str(&format!(" DC {} {}", dc.value, dc.ability.abbr()));
            if dc.success == "half" {
                s.push_str(" half");
            }
        }
        if !self.damage.is_empty() {
            let d: Vec<String> = self.damage.iter().map(StatDamage::text).collect();
            s.push_str(&format!(", {}", d.join(" + ")));
        }
        if !self.multiattack.is_empty() {
            let sets = self.multiattack_sets();
            for (i, set) in sets.iter().enumerate() {
                let m: Vec<String> = set
                    .iter()
                    .map(|p| format!("{}× {}", p.count, p.action))
                    .collect();
                if i == 0 {
                    s.push_str(&format!(": {}", m.join(", ")));
                } else {
                    s.push_str(&format!(" | {} {}: {}", self.name, i + 1, m.join(", ")));
                }
            }
        }
        for a in &self.alternatives {
            let d: Vec<String> = a.damage.iter().map(StatDamage::text).collect();
            let dc =
                a.dc.as_ref()
                    .map(|dc| format!(" DC {} {}", dc.value, dc.ability.abbr()))
                    .unwrap_or_default();
            s.push_str(&format!(" | {}{dc} {}", a.name, d.join(" + ")));
        }
        s
    }
}

/// A condition on a character, with where it came from.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConditionEntry {
    /// The condition.
    pub condition: Condition,
    /// Exhaustion level (exhaustion only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// What imposed it.
    pub source: String,
    /// How long it lasts (absent: until removed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<Duration>,
    /// The creature that imposed it (its id), when one did: the charmer of a Charm Person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// What ends it early besides its duration (absent: nothing but its duration or removal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ends_on: Option<ConditionEnds>,
}

pub use super::condition_ends::ConditionEnds;

impl Character {
    /// Whether a class feature gives this creature `rule` (its derived sheet lists it).
    pub fn has_rule(&self, rule: crate::catalog::class_rules::ClassRule) -> bool {
        self.derived.as_ref().is_some_and(|d| d.has_rule(rule))
    }
}

impl Character {
    /// Whether the character has `condition`.
    pub fn has_condition(&self, condition: Condition) -> bool {
        self.conditions.iter().any(|c| c.condition == condition)
    }

    /// A short status word: dead, dying, stable, unconscious or ok.
    pub fn status(&self) -> &'static str {
        if self.dead {
            "dead"
        } else if self.hp == 0 && self.death_saves.stable {
            "stable"
        } else if self.hp == 0 {
            "dying"
        } else if self.has_condition(Condition::Unconscious) {
            "unconscious"
        } else {
            "ok"
        }
    }

    /// The names of everything it carries: inventory items, and equipment strings not yet
    /// adopted into the inventory (one item list for every consumer: keys, tools).
    pub fn carried_names(&self) -> impl Iterator<Item = &str> {
        self.inventory
            .items
            .iter()
            .map(|i| i.name.as_str())
            .chain(self.equipment.iter().map(String::as_str))
    }

    /// "Name (id)".
    pub fn label(&self) -> String {
        format!("{} ({})", self.name, self.id)
    }

    /// The hit dice as a pool: die, total (= level), spent.
    pub fn hit_dice_pool(&self) -> tabletop_rules::hp::HitDice {
        tabletop_rules::hp::HitDice {
            die: tabletop_rules::hp::HitDie::from_faces(self.hit_die)
                .unwrap_or(tabletop_rules::hp::HitDie::D8),
            total: self.level,
            spent: self.level.saturating_sub(self.hit_dice),
        }
    }
}

/// Which characters a list returns; every field narrows it (AND).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CharacterFilter {
    /// Only this type.
    pub kind: Option<CharacterType>,
    /// Only this class (case-insensitive).
    pub class: Option<String>,
    /// Level at least.
    pub min_level: Option<u32>,
    /// Level at most.
    pub max_level: Option<u32>,
    /// Only characters with this condition.
    pub has_condition: Option<Condition>,
    /// Name contains this (case-insensitive).
    pub name: Option<String>,
}

/// How a call names a character.
#[derive(Debug, Clone, Copy)]
pub struct CharacterRef<'a> {
    /// The id, if given.
    pub id: Option<&'a str>,
    /// The name, if given.
    pub name: Option<&'a str>,
}

impl<'a> CharacterRef<'a> {
    /// A reference from optional id and name fields.
    pub fn new(id: Option<&'a str>, name: Option<&'a str>) -> Self {
        Self { id, name }
    }
}

impl Character {
    /// Ends the effects that last until the bearer is next attacked (Guiding Bolt's advantage,
    /// already applied to the roll being made); says so.
    pub fn spend_on_attacked(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        let name = self.name.clone();
        self.effects.retain(|e| {
            if e.ends_when_attacked {
                lines.push(format!("{} on {} is used up", e.name, name));
            }
            !e.ends_when_attacked
        });
        lines
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}
