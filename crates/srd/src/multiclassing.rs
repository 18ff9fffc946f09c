//! A class's multiclassing rules.

use serde::Serialize;

use crate::model::AbilityMinimum;

/// Multiclassing into (or out of) a class.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Multiclassing {
    /// Every one of these minimums is needed.
    pub prerequisites: Vec<AbilityMinimum>,
    /// One of these minimums is needed (fighter: STR 13 or DEX 13).
    pub prerequisite_any: Vec<AbilityMinimum>,
    /// The proficiencies a character gains taking a first level in the class.
    pub proficiencies: Vec<String>,
}
