//! The shared vocabulary of the rules: abilities, skills, damage types, conditions, sizes and
//! creature kinds. Every other crate speaks in these types.
//!
//! Parsing is case-insensitive and accepts the common spellings (`"dex"`, `"Dexterity"`,
//! `"sleight of hand"`, `"sleight_of_hand"`); an unknown value is an error that lists what is
//! allowed and suggests the closest name.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A value that was not one of the allowed names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} '{given}'{}; allowed: {}", suggestion.as_ref().map(|s| format!(" (did you mean '{s}'?)")).unwrap_or_default(), allowed.join(", "))]
pub struct UnknownName {
    /// What kind of name was expected ("ability", "skill", …).
    pub kind: &'static str,
    /// The value that was given.
    pub given: String,
    /// The closest allowed value, when one is close enough.
    pub suggestion: Option<String>,
    /// Every allowed value.
    pub allowed: Vec<String>,
}

/// Normalises a user-supplied name: lower case, separators folded to `_`.
pub fn normalize_key(s: &str) -> String {
    s.trim()
        .chars()
        .map(|c| {
            if c == ' ' || c == '-' {
                '_'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// The allowed name closest to `given` by edit distance, if it is plausibly a typo.
pub fn closest<'a>(given: &str, allowed: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let given = normalize_key(given);
    allowed
        .into_iter()
        .map(|a| (a, edit_distance(&given, a)))
        .filter(|(a, d)| *d <= (a.len().max(given.len()) / 3).max(2) || a.starts_with(&given))
        .min_by_key(|(_, d)| *d)
        .map(|(a, _)| a)
}

/// Levenshtein distance (small inputs only: names and keys).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Declares a closed vocabulary enum with its canonical snake_case names and extra aliases.
macro_rules! vocabulary {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident : $kind:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $key:literal $(| $alias:literal)* ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(rename_all = "snake_case")]
        $vis enum $name {
            $( $(#[$vmeta])* #[serde(rename = $key)] $variant ),+
        }

        /// Deserializes case-insensitively, accepting the same spellings as `FromStr`.
        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = std::borrow::Cow::<'de, str>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }

        impl $name {
            /// Every value, in rules order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The canonical snake_case name.
            pub fn key(self) -> &'static str {
                match self { $($name::$variant => $key),+ }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.key())
            }
        }

        impl FromStr for $name {
            type Err = UnknownName;
            fn from_str(s: &str) -> Result<Self, UnknownName> {
                let k = normalize_key(s);
                match k.as_str() {
                    $($key $(| $alias)* => Ok($name::$variant),)+
                    _ => Err(UnknownName {
                        kind: $kind,
                        given: s.to_string(),
                        suggestion: closest(&k, [$($key),+]).map(str::to_string),
                        allowed: vec![$($key.to_string()),+],
                    }),
                }
            }
        }
    };
}

vocabulary! {
    /// The six ability scores.
    pub enum Ability: "ability" {
        Strength = "str" | "strength",
        Dexterity = "dex" | "dexterity",
        Constitution = "con" | "constitution",
        Intelligence = "int" | "intelligence",
        Wisdom = "wis" | "wisdom",
        Charisma = "cha" | "charisma",
    }
}

impl Ability {
    /// The full English name ("Dexterity").
    pub fn name(self) -> &'static str {
        match self {
            Ability::Strength => "Strength",
            Ability::Dexterity => "Dexterity",
            Ability::Constitution => "Constitution",
            Ability::Intelligence => "Intelligence",
            Ability::Wisdom => "Wisdom",
            Ability::Charisma => "Charisma",
        }
    }

    /// The upper-case abbreviation ("DEX").
    pub fn abbr(self) -> &'static str {
        match self {
            Ability::Strength => "STR",
            Ability::Dexterity => "DEX",
            Ability::Constitution => "CON",
            Ability::Intelligence => "INT",
            Ability::Wisdom => "WIS",
            Ability::Charisma => "CHA",
        }
    }
}

vocabulary! {
    /// The eighteen skills of SRD 5.1.
    pub enum Skill: "skill" {
        Acrobatics = "acrobatics",
        AnimalHandling = "animal_handling" | "animalhandling",
        Arcana = "arcana",
        Athletics = "athletics",
        Deception = "deception",
        History = "history",
        Insight = "insight",
        Intimidation = "intimidation",
        Investigation = "investigation",
        Medicine = "medicine",
        Nature = "nature",
        Perception = "perception",
        Performance = "performance",
        Persuasion = "persuasion",
        Religion = "religion",
        SleightOfHand = "sleight_of_hand" | "sleightofhand",
        Stealth = "stealth",
        Survival = "survival",
    }
}

impl Skill {
    /// The ability a skill is based on.
    pub fn ability(self) -> Ability {
        use Ability::*;
        match self {
            Skill::Athletics => Strength,
            Skill::Acrobatics | Skill::SleightOfHand | Skill::Stealth => Dexterity,
            Skill::Arcana
            | Skill::History
            | Skill::Investigation
            | Skill::Nature
            | Skill::Religion => Intelligence,
            Skill::AnimalHandling
            | Skill::Insight
            | Skill::Medicine
            | Skill::Perception
            | Skill::Survival => Wisdom,
            Skill::Deception | Skill::Intimidation | Skill::Performance | Skill::Persuasion => {
                Charisma
            }
        }
    }
}

vocabulary! {
    /// The thirteen damage types.
    pub enum DamageType: "damage type" {
        Acid = "acid",
        Bludgeoning = "bludgeoning",
        Cold = "cold",
        Fire = "fire",
        Force = "force",
        Lightning = "lightning",
        Necrotic = "necrotic",
        Piercing = "piercing",
        Poison = "poison",
        Psychic = "psychic",
        Radiant = "radiant",
        Slashing = "slashing",
        Thunder = "thunder",
    }
}

vocabulary! {
    /// The SRD conditions (exhaustion is tracked as a level, see [`Condition::Exhaustion`]).
    pub enum Condition: "condition" {
        Blinded = "blinded",
        Charmed = "charmed",
        Deafened = "deafened",
        /// Exhaustion; its level (1–6) is carried beside it.
        Exhaustion = "exhaustion" | "exhausted",
        Frightened = "frightened",
        Grappled = "grappled",
        Incapacitated = "incapacitated",
        Invisible = "invisible",
        Paralyzed = "paralyzed",
        Petrified = "petrified",
        Poisoned = "poisoned",
        Prone = "prone",
        Restrained = "restrained",
        Stunned = "stunned",
        Unconscious = "unconscious",
    }
}

vocabulary! {
    /// Who a character is at the table.
    pub enum CharacterType: "character type" {
        /// A player character: falls unconscious at 0 HP and makes death saves.
        Pc = "pc" | "player",
        /// A non-player character.
        Npc = "npc",
        /// A hostile creature.
        Enemy = "enemy" | "monster",
        /// A creature on no side.
        Neutral = "neutral",
    }
}

vocabulary! {
    /// Creature sizes.
    pub enum Size: "size" {
        Tiny = "tiny",
        Small = "small",
        Medium = "medium",
        Large = "large",
        Huge = "huge",
        Gargantuan = "gargantuan",
    }
}

impl Size {
    /// The size `steps` categories larger (negative: smaller), held between Tiny and
    /// Gargantuan.
    pub fn stepped(self, steps: i32) -> Size {
        const ORDER: [Size; 6] = [
            Size::Tiny,
            Size::Small,
            Size::Medium,
            Size::Large,
            Size::Huge,
            Size::Gargantuan,
        ];
        let at = ORDER.iter().position(|s| *s == self).unwrap_or(2);
        let to = i64::try_from(at)
            .unwrap_or(2)
            .saturating_add(i64::from(steps))
            .clamp(0, 5);
        ORDER[usize::try_from(to).unwrap_or(2)]
    }

    /// Squares per side the creature occupies on a 5-ft grid (tiny still takes one square).
    pub fn squares(self) -> u32 {
        match self {
            Size::Tiny | Size::Small | Size::Medium => 1,
            Size::Large => 2,
            Size::Huge => 3,
            Size::Gargantuan => 4,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_case_insensitively_and_by_alias() {
        assert_eq!("DEX".parse::<Ability>().unwrap(), Ability::Dexterity);
        assert_eq!("Wisdom".parse::<Ability>().unwrap(), Ability::Wisdom);
        assert_eq!(
            "Sleight of Hand".parse::<Skill>().unwrap(),
            Skill::SleightOfHand
        );
        assert_eq!(
            "animal-handling".parse::<Skill>().unwrap(),
            Skill::AnimalHandling
        );
    }

    #[test]
    fn unknown_names_suggest_and_list() {
        let e = "stelth".parse::<Skill>().unwrap_err();
        assert_eq!(e.suggestion.as_deref(), Some("stealth"));
        let msg = e.to_string();
        assert!(msg.contains("did you mean 'stealth'"), "{msg}");
        assert!(msg.contains("acrobatics"), "{msg}");
        let e = "poisnd".parse::<Condition>().unwrap_err();
        assert_eq!(e.suggestion.as_deref(), Some("poisoned"));
    }

    #[test]
    fn serde_uses_snake_case_keys() {
        let json = serde_json::to_string(&Skill::SleightOfHand).unwrap();
        assert_eq!(json, "\"sleight_of_hand\"");
        let back: Ability = serde_json::from_str("\"strength\"").unwrap();
        assert_eq!(back, Ability::Strength);
        let back: Skill = serde_json::from_str("\"Sleight of Hand\"").unwrap();
        assert_eq!(back, Skill::SleightOfHand);
        let err = serde_json::from_str::<Condition>("\"poisnd\"")
            .unwrap_err()
            .to_string();
        assert!(err.contains("did you mean 'poisoned'"), "{err}");
    }

    #[test]
    fn every_skill_has_its_ability() {
        assert_eq!(Skill::Stealth.ability(), Ability::Dexterity);
        assert_eq!(Skill::Athletics.ability(), Ability::Strength);
        assert_eq!(Skill::ALL.len(), 18);
        assert_eq!(DamageType::ALL.len(), 13);
        assert_eq!(Condition::ALL.len(), 15);
    }
}
