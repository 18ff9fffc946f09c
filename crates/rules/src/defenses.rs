//! Damage defenses: a creature's resistances, immunities and vulnerabilities, each with its
//! source. The sheet ([`crate::stats`]) collects them; the damage pipeline ([`crate::damage`])
//! applies them.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::vocab::DamageType;

/// One resistance, immunity or vulnerability with its source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Defense {
    /// The damage type; absent means every type (and untyped damage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<DamageType>,
    /// What grants it.
    pub source: String,
}

impl Defense {
    /// A defense against `damage_type` (`None` = all damage) from `source`.
    pub fn new(damage_type: Option<DamageType>, source: impl Into<String>) -> Self {
        Self {
            damage_type,
            source: source.into(),
        }
    }

    /// Whether it applies to damage of this type (`None` = untyped damage).
    pub fn applies_to(&self, damage_type: Option<DamageType>) -> bool {
        self.damage_type.is_none() || self.damage_type == damage_type
    }
}

impl fmt::Display for Defense {
    /// "fire (Stoneskin)", "all damage (petrified)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.damage_type {
            Some(t) => write!(f, "{t} ({})", self.source),
            None => write!(f, "all damage ({})", self.source),
        }
    }
}

/// A creature's damage resistances, immunities and vulnerabilities.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct DamageDefenses {
    /// Resistances.
    pub resistances: Vec<Defense>,
    /// Immunities.
    pub immunities: Vec<Defense>,
    /// Vulnerabilities.
    pub vulnerabilities: Vec<Defense>,
}

impl DamageDefenses {
    /// The first resistance that applies to this type.
    pub fn resistance(&self, damage_type: Option<DamageType>) -> Option<&Defense> {
        self.resistances.iter().find(|d| d.applies_to(damage_type))
    }

    /// The first immunity that applies to this type.
    pub fn immunity(&self, damage_type: Option<DamageType>) -> Option<&Defense> {
        self.immunities.iter().find(|d| d.applies_to(damage_type))
    }

    /// The first vulnerability that applies to this type.
    pub fn vulnerability(&self, damage_type: Option<DamageType>) -> Option<&Defense> {
        self.vulnerabilities
            .iter()
            .find(|d| d.applies_to(damage_type))
    }
}
