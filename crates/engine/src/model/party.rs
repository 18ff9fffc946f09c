//! Parties as data: members with roles, a leader, and how a call names a party. Forming and
//! changing parties is the `party` use case.

use serde::{Deserialize, Serialize};

/// A member's role in the party.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartyRole {
    /// A full member.
    #[default]
    Member,
    /// A companion (an NPC travelling with the party).
    Companion,
    /// A hireling.
    Hireling,
    /// A prisoner in the party's keeping.
    Prisoner,
    /// A guest.
    Guest,
}

impl PartyRole {
    /// The snake_case name.
    pub fn key(self) -> &'static str {
        match self {
            PartyRole::Member => "member",
            PartyRole::Companion => "companion",
            PartyRole::Hireling => "hireling",
            PartyRole::Prisoner => "prisoner",
            PartyRole::Guest => "guest",
        }
    }

    /// Parses a stored key.
    pub fn from_key(k: &str) -> Option<Self> {
        Some(match k {
            "member" => PartyRole::Member,
            "companion" => PartyRole::Companion,
            "hireling" => PartyRole::Hireling,
            "prisoner" => PartyRole::Prisoner,
            "guest" => PartyRole::Guest,
            _ => return None,
        })
    }
}

/// A member of a party.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PartyMember {
    /// The character's id.
    pub character_id: String,
    /// Its role.
    pub role: PartyRole,
    /// The party's active character (the one the player runs now).
    #[serde(default)]
    pub active: bool,
}

/// A party as stored.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Party {
    /// Stable id within the campaign ("pt1").
    pub id: String,
    /// Name.
    pub name: String,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Where it is (a location id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location_id: Option<String>,
    /// Its leader (a member's character id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader_id: Option<String>,
    /// The campaign's active party (at most one).
    #[serde(default)]
    pub active: bool,
    /// In-game minutes spent travelling.
    #[serde(default)]
    pub elapsed_minutes: u64,
    /// Members in the order they joined.
    #[serde(default)]
    pub members: Vec<PartyMember>,
}

/// How a call names a party; with neither field, the active party (or the only one).
#[derive(Debug, Clone, Copy, Default)]
pub struct PartyRef<'a> {
    /// The id (a name is accepted too).
    pub id: Option<&'a str>,
    /// The name (case-insensitive).
    pub name: Option<&'a str>,
}

impl<'a> PartyRef<'a> {
    /// A reference from optional id and name fields.
    pub fn new(id: Option<&'a str>, name: Option<&'a str>) -> Self {
        Self { id, name }
    }
}
