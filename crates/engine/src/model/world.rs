//! Places as data: locations with lighting and the connections between them (doors, paths,
//! hidden or locked ways), how a call names a location, and close-name suggestions. Creating,
//! linking and listing places is the `world` use case.

use serde::{Deserialize, Serialize};

use crate::model::names::name_key;

/// How well a place is lit.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lighting {
    /// Bright light.
    #[default]
    Bright,
    /// Dim light: lightly obscured.
    Dim,
    /// Darkness: heavily obscured.
    Dark,
}

impl Lighting {
    /// The snake_case name.
    pub fn key(self) -> &'static str {
        match self {
            Lighting::Bright => "bright",
            Lighting::Dim => "dim",
            Lighting::Dark => "dark",
        }
    }
}

/// A place of the world.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    /// Stable id within the campaign ("loc3").
    pub id: String,
    /// Display name (unique names make name lookups unambiguous).
    pub name: String,
    /// What kind of place ("room", "cavern", "tavern", …).
    #[serde(rename = "type")]
    pub kind: String,
    /// What the party sees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Light level.
    #[serde(default)]
    pub lighting: Lighting,
    /// Terrain ("rubble: difficult", "shallow water", …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain: Option<String>,
    /// Hazards ("collapsing floor", "green slime", …).
    #[serde(default)]
    pub hazards: Vec<String>,
    /// Free tags.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Whether the party knows of it.
    #[serde(default)]
    pub discovered: bool,
}

/// The kind of a connection.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConnectionType {
    /// A door (the only kind that takes a lock by default, though any may be locked).
    Door,
    /// An open passage.
    #[default]
    Passage,
    /// Stairs.
    Stairs,
    /// A ladder.
    Ladder,
    /// A magic portal.
    Portal,
    /// A concealed way (always hidden until found).
    Hidden,
}

impl ConnectionType {
    /// The snake_case name.
    pub fn key(self) -> &'static str {
        match self {
            ConnectionType::Door => "door",
            ConnectionType::Passage => "passage",
            ConnectionType::Stairs => "stairs",
            ConnectionType::Ladder => "ladder",
            ConnectionType::Portal => "portal",
            ConnectionType::Hidden => "hidden",
        }
    }
}

/// A way between two places.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Connection {
    /// Stable id within the campaign ("cn3").
    pub id: String,
    /// One end (the start of a one-way connection).
    pub from: String,
    /// The other end.
    pub to: String,
    /// Door, passage, stairs, ladder, portal or hidden.
    #[serde(rename = "type")]
    pub kind: ConnectionType,
    /// Only from `from` to `to`.
    #[serde(default)]
    pub one_way: bool,
    /// Locked: refused until unlocked by key, check or force.
    #[serde(default)]
    pub locked: bool,
    /// DC to pick (DEX, thieves' tools) or break (STR, Athletics) the lock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock_dc: Option<i32>,
    /// The item that opens the lock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_item: Option<String>,
    /// Hidden: cannot be used until found.
    #[serde(default)]
    pub hidden: bool,
    /// DC of the Perception or Investigation check that finds it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub find_dc: Option<i32>,
    /// A hidden connection that has been found.
    #[serde(default)]
    pub found: bool,
    /// Minutes it takes to go through.
    #[serde(default)]
    pub travel_minutes: u32,
    /// What it looks like.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

impl Connection {
    /// Whether it is hidden and not yet found.
    pub fn concealed(&self) -> bool {
        self.hidden && !self.found
    }

    /// The other end seen from `here`, if the connection can be taken from `here`.
    pub fn exit_from(&self, here: &str) -> Option<&str> {
        if self.from == here {
            Some(&self.to)
        } else if self.to == here && !self.one_way {
            Some(&self.from)
        } else {
            None
        }
    }

    /// The other end seen from `here`, whichever the direction.
    pub fn other_end(&self, here: &str) -> &str {
        if self.from == here {
            &self.to
        } else {
            &self.from
        }
    }

    /// Default find DC of a hidden connection.
    pub const DEFAULT_FIND_DC: i32 = 15;
    /// Default lock DC.
    pub const DEFAULT_LOCK_DC: i32 = 15;
}

/// How a call names a location.
#[derive(Debug, Clone, Copy, Default)]
pub struct LocationRef<'a> {
    /// The id (a name is accepted too).
    pub id: Option<&'a str>,
    /// The name (case-insensitive).
    pub name: Option<&'a str>,
}

impl<'a> LocationRef<'a> {
    /// A reference from optional id and name fields.
    pub fn new(id: Option<&'a str>, name: Option<&'a str>) -> Self {
        Self { id, name }
    }

    /// A reference by one string that is an id or a name.
    pub fn either(s: &'a str) -> Self {
        Self {
            id: Some(s),
            name: None,
        }
    }

    /// Whether anything was given.
    pub fn is_given(&self) -> bool {
        self.id.is_some_and(|s| !s.trim().is_empty())
            || self.name.is_some_and(|s| !s.trim().is_empty())
    }
}

/// Close names among `(id, name)` pairs, as "Name (id)", best first.
pub(crate) fn suggestions(given: &str, names: &[(String, String)]) -> Vec<String> {
    let key = name_key(given);
    let mut scored: Vec<(usize, String)> = names
        .iter()
        .map(|(id, name)| {
            let nk = name_key(name);
            let d = if nk.contains(&key) || key.contains(&nk) || id == given.trim() {
                0
            } else {
                tabletop_rules::vocab::edit_distance(&key, &nk)
            };
            (d, format!("{name} ({id})"))
        })
        .filter(|(d, _)| *d <= (key.len() / 3).max(2))
        .collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, s)| s).collect()
}
