//! The spell catalog's encoding for the "wards & magic" spells of session 6 (issue 17): the
//! d20 floor an effect puts on its bearer's ability checks of one ability (Glibness: a
//! Charisma check's d20 below 15 counts as 15). Applying it is `magic::wards6`.

use serde::{Deserialize, Serialize};
use tabletop_rules::Ability;

/// A floor on the d20 of the bearer's ability checks of `ability` (skills based on it
/// included): a lower roll counts as `min`.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckFloor {
    /// The checks' ability.
    pub ability: Ability,
    /// The least the d20 counts as (2–20).
    pub min: u32,
}

impl CheckFloor {
    /// The problems of one spell's floor.
    pub fn check(&self, index: &str) -> Vec<String> {
        if (2..=20).contains(&self.min) {
            Vec::new()
        } else {
            vec![format!("{index}: check_floor min {} is not 2–20", self.min)]
        }
    }
}
