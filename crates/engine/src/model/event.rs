//! The append-only event log: what each mutating call did, so a session can be audited.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One change an operation made, in words a model can read.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    /// The kind of thing changed ("character", "campaign", …).
    pub entity: String,
    /// Its id.
    pub id: String,
    /// What happened to it ("created", "hp 12 → 5", "deleted", …).
    pub what: String,
}

/// An event being recorded by the current call.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, Serialize)]
pub struct EventDraft {
    /// The tool that made the change.
    pub tool: String,
    /// The call's arguments as received.
    pub args: Value,
    /// Every roll the call made (summaries with their dice), each serialized once as it was
    /// made (the log stores the text; no [`Value`] tree is built and serialized again).
    #[cfg_attr(feature = "schema", schemars(with = "Vec<Value>"))]
    pub rolls: Vec<Box<serde_json::value::RawValue>>,
    /// What the call changed.
    pub changes: Vec<Change>,
}

/// A recorded event.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// Position in the campaign's log.
    pub seq: i64,
    /// When it was recorded (RFC 3339, UTC).
    pub at: String,
    /// The tool that made it.
    pub tool: String,
    /// The call's arguments.
    pub args: Value,
    /// The rolls made.
    pub rolls: Vec<Value>,
    /// What changed.
    pub changes: Vec<Change>,
}
