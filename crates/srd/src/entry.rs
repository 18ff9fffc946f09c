//! [`Entry`]: one record of any kind, borrowed from a compendium.

use serde::Serialize;

use crate::kind::EntryKind;
use crate::model::*;

/// One record of any kind, borrowed from the compendium. Serializes as the record with a
/// `kind` field added.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Entry<'a> {
    Spell(&'a Spell),
    Monster(&'a Monster),
    Class(&'a Class),
    Subclass(&'a Subclass),
    Race(&'a Race),
    Subrace(&'a Subrace),
    Background(&'a Background),
    Feat(&'a Feat),
    Equipment(&'a Equipment),
    MagicItem(&'a MagicItem),
    Condition(&'a ConditionInfo),
    Rule(&'a Rule),
    RuleSection(&'a RuleSection),
    Skill(&'a SkillInfo),
    DamageType(&'a DamageTypeInfo),
    MagicSchool(&'a MagicSchool),
    Feature(&'a Feature),
    Trait(&'a Trait),
    Proficiency(&'a Proficiency),
    WeaponProperty(&'a WeaponProperty),
    Language(&'a Language),
    Alignment(&'a Alignment),
}

impl<'a> Entry<'a> {
    /// The record's slug.
    pub fn index(&self) -> &'a str {
        self.fields().0
    }

    /// The record's display name.
    pub fn name(&self) -> &'a str {
        self.fields().1
    }

    /// The record's kind (equipment is reported as weapon, armor or equipment).
    pub fn kind(&self) -> EntryKind {
        match self {
            Entry::Spell(_) => EntryKind::Spell,
            Entry::Monster(_) => EntryKind::Monster,
            Entry::Class(_) => EntryKind::Class,
            Entry::Subclass(_) => EntryKind::Subclass,
            Entry::Race(_) => EntryKind::Race,
            Entry::Subrace(_) => EntryKind::Subrace,
            Entry::Background(_) => EntryKind::Background,
            Entry::Feat(_) => EntryKind::Feat,
            Entry::Equipment(e) if e.weapon.is_some() => EntryKind::Weapon,
            Entry::Equipment(e) if e.armor.is_some() => EntryKind::Armor,
            Entry::Equipment(_) => EntryKind::Equipment,
            Entry::MagicItem(_) => EntryKind::MagicItem,
            Entry::Condition(_) => EntryKind::Condition,
            Entry::Rule(_) => EntryKind::Rule,
            Entry::RuleSection(_) => EntryKind::RuleSection,
            Entry::Skill(_) => EntryKind::Skill,
            Entry::DamageType(_) => EntryKind::DamageType,
            Entry::MagicSchool(_) => EntryKind::MagicSchool,
            Entry::Feature(_) => EntryKind::Feature,
            Entry::Trait(_) => EntryKind::Trait,
            Entry::Proficiency(_) => EntryKind::Proficiency,
            Entry::WeaponProperty(_) => EntryKind::WeaponProperty,
            Entry::Language(_) => EntryKind::Language,
            Entry::Alignment(_) => EntryKind::Alignment,
        }
    }

    fn fields(&self) -> (&'a str, &'a str) {
        macro_rules! f {
            ($x:expr) => {
                ($x.index.as_str(), $x.name.as_str())
            };
        }
        match *self {
            Entry::Spell(x) => f!(x),
            Entry::Monster(x) => f!(x),
            Entry::Class(x) => f!(x),
            Entry::Subclass(x) => f!(x),
            Entry::Race(x) => f!(x),
            Entry::Subrace(x) => f!(x),
            Entry::Background(x) => f!(x),
            Entry::Feat(x) => f!(x),
            Entry::Equipment(x) => f!(x),
            Entry::MagicItem(x) => f!(x),
            Entry::Condition(x) => f!(x),
            Entry::Rule(x) => f!(x),
            Entry::RuleSection(x) => f!(x),
            Entry::Skill(x) => f!(x),
            Entry::DamageType(x) => f!(x),
            Entry::MagicSchool(x) => f!(x),
            Entry::Feature(x) => f!(x),
            Entry::Trait(x) => f!(x),
            Entry::Proficiency(x) => f!(x),
            Entry::WeaponProperty(x) => f!(x),
            Entry::Language(x) => f!(x),
            Entry::Alignment(x) => f!(x),
        }
    }
}
