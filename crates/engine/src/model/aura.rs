//! Auras as an encounter holds them: a radius around a bearer, what it does to a creature inside,
//! whom it touches and what holds it up. Applying them on the turn loop is `combat::auras`.

use serde::{Deserialize, Serialize};
use tabletop_rules::{Ability, Condition, DamageType};

/// Whom an aura touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum AuraAffects {
    /// Creatures hostile to the bearer.
    Enemies,
    /// The bearer's side and its allies (not the bearer).
    Allies,
    /// Everyone but the bearer.
    All,
    /// Everyone, the bearer included.
    AllAndSelf,
    /// The bearer's allies and the bearer.
    AlliesAndSelf,
}

/// A saving throw against an aura.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuraSave {
    /// Ability.
    pub ability: Ability,
    /// DC.
    pub dc: i32,
    /// A success halves the damage (otherwise it negates everything).
    pub half: bool,
}

/// An aura on the battlefield.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Aura {
    /// Id within the encounter ("au1").
    pub id: String,
    /// Name ("Spirit Guardians").
    pub name: String,
    /// The combatant it is centred on (moves with it).
    pub bearer_id: String,
    /// Radius in feet from the bearer's space.
    pub radius_ft: u32,
    /// Damage dice on a creature inside.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<String>,
    /// Damage type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<DamageType>,
    /// Healing dice on a creature inside.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub healing: Option<String>,
    /// Condition imposed (on a failed save, or outright), until the start of its next turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// The save.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save: Option<AuraSave>,
    /// Whom it touches.
    pub affects: AuraAffects,
    /// Rounds left (counted at the start of the bearer's turns); absent: until removed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds_left: Option<u32>,
    /// The spell whose concentration (by the bearer) holds it up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concentration: Option<String>,
    /// Who it has touched this turn: (character id, round, turn index).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub touched: Vec<(String, u32, usize)>,
    /// An affected creature's speed is halved inside it (Spirit Guardians): each step that
    /// ends inside costs double.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub halves_speed: bool,
}
