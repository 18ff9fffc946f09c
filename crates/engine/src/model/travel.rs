//! A travel-log entry: one move of a party between places, as the store keeps it.

use serde::{Deserialize, Serialize};

/// A travel-log entry.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TravelEntry {
    /// Where from: id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_id: Option<String>,
    /// Where from: name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_name: Option<String>,
    /// Where to: id.
    pub to_id: String,
    /// Where to: name.
    pub to_name: String,
    /// The connection taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connection_id: Option<String>,
    /// How ("door, unlocked with Iron Key", "forced by the DM", …).
    pub how: String,
    /// Minutes it took.
    pub minutes: u32,
    /// The party's travel minutes after the move.
    pub elapsed_minutes: u64,
}
