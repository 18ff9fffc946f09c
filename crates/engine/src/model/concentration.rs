//! Concentration as a character holds it: the spell and what it holds up (effects and conditions
//! on other characters). The rules of keeping and losing it are in the `concentration` use case.

use serde::{Deserialize, Serialize};
use tabletop_rules::Condition;

use crate::model::names::name_key;

/// What a character is concentrating on.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Concentration {
    /// The spell.
    pub spell: String,
    /// The effects and conditions it holds up, on any character.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<ConcentrationLink>,
    /// Rounds left of the spell's longest duration ("Concentration, up to 1 hour": 600 when it
    /// began); counted down on the caster's turns in a fight and by the world clock outside
    /// one. Absent when the spell's duration is unknown (a name the SRD does not have).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds_left: Option<u32>,
}

impl Concentration {
    /// Adds a link unless it is already there.
    pub fn add_link(&mut self, link: ConcentrationLink) {
        if !self.links.contains(&link) {
            self.links.push(link);
        }
    }
}

/// An effect or condition held up by a concentration.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConcentrationLink {
    /// The character that bears it.
    pub character_id: String,
    /// An effect, by name (same-name effects do not stack).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// A condition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
}

impl ConcentrationLink {
    /// A link to the effect `name` on `character_id`.
    pub fn effect(character_id: &str, name: &str) -> Self {
        Self {
            character_id: character_id.to_string(),
            effect: Some(name.to_string()),
            condition: None,
        }
    }

    /// A link to `condition` on `character_id`.
    pub fn condition(character_id: &str, condition: Condition) -> Self {
        Self {
            character_id: character_id.to_string(),
            effect: None,
            condition: Some(condition),
        }
    }

    pub(crate) fn same(&self, other: &ConcentrationLink) -> bool {
        self.character_id == other.character_id
            && self.condition == other.condition
            && self.effect.as_deref().map(name_key) == other.effect.as_deref().map(name_key)
    }
}
