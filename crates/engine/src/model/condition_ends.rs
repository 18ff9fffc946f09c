//! What ends a condition early (a leaf: the catalog and the character model both name it).

use serde::{Deserialize, Serialize};

/// What ends a condition early, as the text that imposed it says.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConditionEnds {
    /// Any damage the bearer takes (Sleep: "the sleeper takes damage"; Eyebite's Asleep).
    Damage,
    /// Harm from the creature that imposed it or its companions (Charm Person: "until you or
    /// your companions do anything harmful to it"); damage is what the engine sees.
    Harm,
}
