//! The kinds of SRD record ([`EntryKind`]) and the one name normalisation every lookup uses.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use tabletop_rules::UnknownName;
use tabletop_rules::vocab::edit_distance;

/// The kinds of record a search or lookup can be restricted to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum EntryKind {
    Spell,
    Monster,
    Class,
    Subclass,
    Race,
    Subrace,
    Background,
    Feat,
    /// All mundane equipment, including weapons and armor.
    Equipment,
    Weapon,
    Armor,
    MagicItem,
    Condition,
    /// Rules chapters and their sections.
    Rule,
    RuleSection,
    Skill,
    DamageType,
    MagicSchool,
    Feature,
    Trait,
    Proficiency,
    WeaponProperty,
    Language,
    Alignment,
}

impl EntryKind {
    /// Every kind.
    pub const ALL: &'static [EntryKind] = &[
        EntryKind::Spell,
        EntryKind::Monster,
        EntryKind::Class,
        EntryKind::Subclass,
        EntryKind::Race,
        EntryKind::Subrace,
        EntryKind::Background,
        EntryKind::Feat,
        EntryKind::Equipment,
        EntryKind::Weapon,
        EntryKind::Armor,
        EntryKind::MagicItem,
        EntryKind::Condition,
        EntryKind::Rule,
        EntryKind::RuleSection,
        EntryKind::Skill,
        EntryKind::DamageType,
        EntryKind::MagicSchool,
        EntryKind::Feature,
        EntryKind::Trait,
        EntryKind::Proficiency,
        EntryKind::WeaponProperty,
        EntryKind::Language,
        EntryKind::Alignment,
    ];

    /// The snake_case name ("magic_item").
    pub fn key(self) -> &'static str {
        match self {
            EntryKind::Spell => "spell",
            EntryKind::Monster => "monster",
            EntryKind::Class => "class",
            EntryKind::Subclass => "subclass",
            EntryKind::Race => "race",
            EntryKind::Subrace => "subrace",
            EntryKind::Background => "background",
            EntryKind::Feat => "feat",
            EntryKind::Equipment => "equipment",
            EntryKind::Weapon => "weapon",
            EntryKind::Armor => "armor",
            EntryKind::MagicItem => "magic_item",
            EntryKind::Condition => "condition",
            EntryKind::Rule => "rule",
            EntryKind::RuleSection => "rule_section",
            EntryKind::Skill => "skill",
            EntryKind::DamageType => "damage_type",
            EntryKind::MagicSchool => "magic_school",
            EntryKind::Feature => "feature",
            EntryKind::Trait => "trait",
            EntryKind::Proficiency => "proficiency",
            EntryKind::WeaponProperty => "weapon_property",
            EntryKind::Language => "language",
            EntryKind::Alignment => "alignment",
        }
    }

    /// Whether a search for `self` includes records of kind `other` (equipment includes
    /// weapons and armor; rule includes rule sections).
    pub fn includes(self, other: EntryKind) -> bool {
        self == other
            || (self == EntryKind::Equipment
                && matches!(other, EntryKind::Weapon | EntryKind::Armor))
            || (self == EntryKind::Rule && other == EntryKind::RuleSection)
    }
}

impl fmt::Display for EntryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl FromStr for EntryKind {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        let k = normalize(s).replace(' ', "_");
        let k = match k.as_str() {
            "species" => "race",
            "subspecies" => "subrace",
            "item" | "items" | "gear" => "equipment",
            "magic_items" | "magicitem" => "magic_item",
            other => other,
        };
        // Plurals: "spells", "classes", "armor" (already singular).
        let singular = [k.strip_suffix("es"), k.strip_suffix('s')];
        EntryKind::ALL
            .iter()
            .copied()
            .find(|e| e.key() == k)
            .or_else(|| {
                EntryKind::ALL
                    .iter()
                    .copied()
                    .find(|e| singular.iter().flatten().any(|s| *s == e.key()))
            })
            .ok_or_else(|| {
                unknown_name(
                    "kind",
                    s,
                    EntryKind::ALL.iter().map(|e| e.key().to_string()).collect(),
                )
            })
    }
}

/// Lower case, `-`/`_`/whitespace and most punctuation folded to single spaces, apostrophes
/// and other symbols dropped: "Bigby's Hand" and "bigbys-hand" both become "bigbys hand".
pub fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut pending_space = false;
    for c in s.chars() {
        if c.is_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.extend(c.to_lowercase());
        } else if c.is_whitespace()
            || matches!(c, '-' | '_' | '/' | ',' | ':' | ';' | '(' | ')' | '.' | '&')
        {
            pending_space = true;
        }
    }
    out
}

/// Builds an [`UnknownName`] with the closest allowed value as suggestion.
pub(crate) fn unknown_name(kind: &'static str, given: &str, allowed: Vec<String>) -> UnknownName {
    let g = normalize(given);
    let suggestion = allowed
        .iter()
        .map(|a| (a, edit_distance(&g, &normalize(a))))
        .filter(|(a, d)| {
            *d <= (a.len().max(g.len()) / 3).max(2)
                || (!g.is_empty() && normalize(a).starts_with(&g))
        })
        .min_by_key(|(_, d)| *d)
        .map(|(a, _)| a.clone());
    UnknownName {
        kind,
        given: given.to_string(),
        suggestion,
        allowed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_folds_case_separators_and_punctuation() {
        assert_eq!(normalize("  Magic-Missile "), "magic missile");
        assert_eq!(normalize("Bigby's Hand"), "bigbys hand");
        assert_eq!(normalize("bigbys_hand"), "bigbys hand");
        assert_eq!(normalize("Armor, +1"), "armor 1");
    }

    #[test]
    fn entry_kinds_parse_with_plurals_and_suggestions() {
        assert_eq!("spells".parse::<EntryKind>().unwrap(), EntryKind::Spell);
        assert_eq!(
            "Magic Item".parse::<EntryKind>().unwrap(),
            EntryKind::MagicItem
        );
        assert_eq!("species".parse::<EntryKind>().unwrap(), EntryKind::Race);
        assert_eq!("class".parse::<EntryKind>().unwrap(), EntryKind::Class);
        assert_eq!("Classes".parse::<EntryKind>().unwrap(), EntryKind::Class);
        assert_eq!(
            "subclasses".parse::<EntryKind>().unwrap(),
            EntryKind::Subclass
        );
        assert_eq!("monsters".parse::<EntryKind>().unwrap(), EntryKind::Monster);
        assert_eq!("rules".parse::<EntryKind>().unwrap(), EntryKind::Rule);
        let e = "monstr".parse::<EntryKind>().unwrap_err();
        assert_eq!(e.suggestion.as_deref(), Some("monster"));
    }
}
