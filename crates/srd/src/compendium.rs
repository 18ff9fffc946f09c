//! The loaded compendium and its typed accessors.

use std::collections::HashMap;

use serde::Serialize;

use crate::entry::Entry;
use crate::index::SearchIndex;
use crate::kind::{EntryKind, normalize};
use crate::model::*;

/// Which SRD a compendium holds.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Ruleset {
    /// SRD 5.1 (the 5e-database `2014` folder).
    #[serde(rename = "2014")]
    Srd51,
    /// SRD 5.2 (the 5e-database `2024` folder; partial).
    #[serde(rename = "2024")]
    Srd52,
}

impl Ruleset {
    /// "2014" or "2024".
    pub fn key(self) -> &'static str {
        match self {
            Ruleset::Srd51 => "2014",
            Ruleset::Srd52 => "2024",
        }
    }

    /// Where the content comes from and under which license.
    pub fn provenance(self) -> Provenance {
        match self {
            Ruleset::Srd51 => Provenance {
                ruleset: self,
                document: "srd-5.1",
                license: "CC-BY-4.0",
                attribution: "This work includes material taken from the System Reference Document 5.1 (\"SRD 5.1\") by Wizards of the Coast LLC and available at https://dnd.wizards.com/resources/systems-reference-document. The SRD 5.1 is licensed under the Creative Commons Attribution 4.0 International License available at https://creativecommons.org/licenses/by/4.0/legalcode.",
            },
            Ruleset::Srd52 => Provenance {
                ruleset: self,
                document: "srd-5.2",
                license: "CC-BY-4.0",
                attribution: "This work includes material from the System Reference Document 5.2.1 (\"SRD 5.2.1\") by Wizards of the Coast LLC, available at https://www.dndbeyond.com/srd. The SRD 5.2.1 is licensed under the Creative Commons Attribution 4.0 International License, available at https://creativecommons.org/licenses/by/4.0/legalcode.",
            },
        }
    }
}

/// The source document and license of compendium content, for responses' provenance.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Provenance {
    /// The ruleset.
    pub ruleset: Ruleset,
    /// "srd-5.1" or "srd-5.2".
    pub document: &'static str,
    /// "CC-BY-4.0".
    pub license: &'static str,
    /// The attribution statement the license requires.
    pub attribution: &'static str,
}

/// Every record of one SRD, typed and indexed. Load it with [`Compendium::load`].
#[derive(Debug)]
pub struct Compendium {
    /// Unique per load in this process (see [`Compendium::id`]).
    pub(crate) id: u64,
    pub(crate) ruleset: Ruleset,
    pub(crate) classes: Vec<Class>,
    pub(crate) levels: Vec<ClassLevel>,
    pub(crate) subclasses: Vec<Subclass>,
    pub(crate) features: Vec<Feature>,
    pub(crate) races: Vec<Race>,
    pub(crate) subraces: Vec<Subrace>,
    pub(crate) traits: Vec<Trait>,
    pub(crate) backgrounds: Vec<Background>,
    pub(crate) feats: Vec<Feat>,
    pub(crate) conditions: Vec<ConditionInfo>,
    pub(crate) rules: Vec<Rule>,
    pub(crate) rule_sections: Vec<RuleSection>,
    pub(crate) proficiencies: Vec<Proficiency>,
    pub(crate) skills: Vec<SkillInfo>,
    pub(crate) damage_types: Vec<DamageTypeInfo>,
    pub(crate) magic_schools: Vec<MagicSchool>,
    pub(crate) weapon_properties: Vec<WeaponProperty>,
    pub(crate) languages: Vec<Language>,
    pub(crate) alignments: Vec<Alignment>,
    pub(crate) ability_scores: Vec<Lore>,
    pub(crate) equipment_categories: Vec<(Ref, Vec<String>)>,
    pub(crate) spells: Vec<Spell>,
    pub(crate) monsters: Vec<Monster>,
    pub(crate) equipment: Vec<Equipment>,
    pub(crate) magic_items: Vec<MagicItem>,
    /// The base row of each class at each level (index = level), by the class's slug: built
    /// once at load (the last row of a level wins).
    pub(crate) class_rows: HashMap<String, Vec<Option<usize>>>,
    /// The rows of each subclass, by its slug, in level order: built once at load.
    pub(crate) subclass_rows: HashMap<String, Vec<usize>>,
    /// The features of each subclass, by the subclass's slug: built once at load.
    pub(crate) subclass_feature_map: HashMap<String, Vec<usize>>,
    pub(crate) index: SearchIndex,
}

macro_rules! slice_accessors {
    ($($(#[$m:meta])* $name:ident: $ty:ty;)*) => {
        $( $(#[$m])* pub fn $name(&self) -> &[$ty] { &self.$name } )*
    };
}

impl Compendium {
    /// An id no other compendium loaded by this process has: a compendium never changes once
    /// loaded, so what is computed from it can be remembered under this id.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Which SRD this is.
    pub fn ruleset(&self) -> Ruleset {
        self.ruleset
    }

    /// Source document and license of this compendium's content.
    pub fn provenance(&self) -> Provenance {
        self.ruleset.provenance()
    }

    slice_accessors! {
        /// Every class.
        classes: Class;
        /// Every class and subclass level row.
        levels: ClassLevel;
        /// Every subclass.
        subclasses: Subclass;
        /// Every class feature.
        features: Feature;
        /// Every race (species).
        races: Race;
        /// Every subrace (subspecies).
        subraces: Subrace;
        /// Every racial trait.
        traits: Trait;
        /// Every background.
        backgrounds: Background;
        /// Every feat.
        feats: Feat;
        /// Every condition.
        conditions: ConditionInfo;
        /// Every rules chapter.
        rules: Rule;
        /// Every rules section.
        rule_sections: RuleSection;
        /// Every proficiency.
        proficiencies: Proficiency;
        /// Every skill.
        skills: SkillInfo;
        /// Every damage type.
        damage_types: DamageTypeInfo;
        /// Every school of magic.
        magic_schools: MagicSchool;
        /// Every weapon property.
        weapon_properties: WeaponProperty;
        /// Every language.
        languages: Language;
        /// Every alignment.
        alignments: Alignment;
        /// The six ability scores' descriptions.
        ability_scores: Lore;
        /// Every spell.
        spells: Spell;
        /// Every monster.
        monsters: Monster;
        /// Every magic item.
        magic_items: MagicItem;
    }

    /// Every piece of mundane equipment (weapons, armor, gear, tools, vehicles).
    pub fn all_equipment(&self) -> &[Equipment] {
        &self.equipment
    }

    /// Equipment categories with the slugs of their items.
    pub fn equipment_categories(&self) -> &[(Ref, Vec<String>)] {
        &self.equipment_categories
    }

    /// Number of searchable entries.
    pub fn len(&self) -> usize {
        self.index.entries.len()
    }

    /// True when nothing was loaded.
    pub fn is_empty(&self) -> bool {
        self.index.entries.is_empty()
    }

    /// The record of kind `kind` whose name or slug equals `name` after normalisation
    /// (case, `-`, `_` and spaces are ignored). Use [`Compendium::get`] for typo tolerance.
    fn exact(&self, kind: EntryKind, name: &str) -> Option<Entry<'_>> {
        let key = normalize(name);
        let ids = self.index.by_name.get(key.as_str())?;
        ids.iter()
            .map(|&id| self.entry_at(id))
            .find(|e| kind.includes(e.kind()))
    }

    /// A class by name or slug ("wizard", "Wizard").
    pub fn class(&self, name: &str) -> Option<&Class> {
        match self.exact(EntryKind::Class, name)? {
            Entry::Class(x) => Some(x),
            _ => None,
        }
    }

    /// A subclass by name or slug ("evocation", "Life").
    pub fn subclass(&self, name: &str) -> Option<&Subclass> {
        match self.exact(EntryKind::Subclass, name)? {
            Entry::Subclass(x) => Some(x),
            _ => None,
        }
    }

    /// The base level-table row of a class at `level` (1–20).
    pub fn class_level(&self, class: &str, level: u8) -> Option<&ClassLevel> {
        let c = self.class(class)?;
        self.class_row(&c.index, level)
    }

    /// The subclass level rows of a subclass, in level order.
    pub fn subclass_levels(&self, subclass: &str) -> Vec<&ClassLevel> {
        let Some(s) = self.subclass(subclass) else {
            return Vec::new();
        };
        self.subclass_rows
            .get(s.index.as_str())
            .into_iter()
            .flatten()
            .filter_map(|&i| self.levels.get(i))
            .collect()
    }

    /// The base level-table row at `level` of the class whose slug is `index` ("fighter"): as
    /// [`Compendium::class_level`] without the name lookup.
    pub fn class_row(&self, index: &str, level: u8) -> Option<&ClassLevel> {
        let i = (*self.class_rows.get(index)?.get(usize::from(level))?)?;
        self.levels.get(i)
    }

    /// The features of the subclass whose slug is `index`, in the data's order.
    pub fn subclass_features(&self, index: &str) -> impl Iterator<Item = &Feature> + '_ {
        self.subclass_feature_map
            .get(index)
            .into_iter()
            .flatten()
            .filter_map(|&i| self.features.get(i))
    }

    /// Spell slots per spell level 1–9 of a single-classed character (all zero for an unknown
    /// class or level, and for non-casters). Warlock pact slots appear at their slot level.
    pub fn spell_slots(&self, class: &str, level: u8) -> [u8; 9] {
        self.class_level(class, level)
            .map_or([0; 9], |l| l.spell_slots)
    }

    /// A race (species) by name or slug.
    pub fn race(&self, name: &str) -> Option<&Race> {
        match self.exact(EntryKind::Race, name)? {
            Entry::Race(x) => Some(x),
            _ => None,
        }
    }

    /// A subrace (subspecies) by name or slug ("hill dwarf", "hill-dwarf").
    pub fn subrace(&self, name: &str) -> Option<&Subrace> {
        match self.exact(EntryKind::Subrace, name)? {
            Entry::Subrace(x) => Some(x),
            _ => None,
        }
    }

    /// A monster by name or slug.
    pub fn monster(&self, name: &str) -> Option<&Monster> {
        match self.exact(EntryKind::Monster, name)? {
            Entry::Monster(x) => Some(x),
            _ => None,
        }
    }

    /// A spell by name or slug.
    pub fn spell(&self, name: &str) -> Option<&Spell> {
        match self.exact(EntryKind::Spell, name)? {
            Entry::Spell(x) => Some(x),
            _ => None,
        }
    }

    /// Mundane equipment (weapons, armor, gear) by name or slug.
    pub fn equipment(&self, name: &str) -> Option<&Equipment> {
        match self.exact(EntryKind::Equipment, name)? {
            Entry::Equipment(x) => Some(x),
            _ => None,
        }
    }

    /// A magic item by name or slug.
    pub fn magic_item(&self, name: &str) -> Option<&MagicItem> {
        match self.exact(EntryKind::MagicItem, name)? {
            Entry::MagicItem(x) => Some(x),
            _ => None,
        }
    }

    /// A condition's rules text by name or slug.
    pub fn condition(&self, name: &str) -> Option<&ConditionInfo> {
        match self.exact(EntryKind::Condition, name)? {
            Entry::Condition(x) => Some(x),
            _ => None,
        }
    }

    /// A background by name or slug.
    pub fn background(&self, name: &str) -> Option<&Background> {
        match self.exact(EntryKind::Background, name)? {
            Entry::Background(x) => Some(x),
            _ => None,
        }
    }

    /// A feat by name or slug.
    pub fn feat(&self, name: &str) -> Option<&Feat> {
        match self.exact(EntryKind::Feat, name)? {
            Entry::Feat(x) => Some(x),
            _ => None,
        }
    }

    /// A class feature by name or slug.
    pub fn feature(&self, name: &str) -> Option<&Feature> {
        match self.exact(EntryKind::Feature, name)? {
            Entry::Feature(x) => Some(x),
            _ => None,
        }
    }

    /// A racial trait by name or slug.
    pub fn racial_trait(&self, name: &str) -> Option<&Trait> {
        match self.exact(EntryKind::Trait, name)? {
            Entry::Trait(x) => Some(x),
            _ => None,
        }
    }

    /// A skill's description by name or slug.
    pub fn skill(&self, name: &str) -> Option<&SkillInfo> {
        match self.exact(EntryKind::Skill, name)? {
            Entry::Skill(x) => Some(x),
            _ => None,
        }
    }

    /// A rules chapter or section by name or slug.
    pub fn rule(&self, name: &str) -> Option<Entry<'_>> {
        self.exact(EntryKind::Rule, name)
    }

    /// The entry with internal id `id` (ids are positions in the search index).
    pub(crate) fn entry_at(&self, id: u32) -> Entry<'_> {
        self.index.entries[id as usize].entry(self)
    }
}
