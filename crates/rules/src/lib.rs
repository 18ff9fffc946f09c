//! Pure SRD 5.1 mechanics for Tabletop.
//!
//! Nothing here knows about storage, JSON-RPC or MCP: functions take values and return values.
//! Randomness enters only through [`DieRoller`]; [`dice::DiceRng`] is the seedable stream whose
//! state the engine persists per campaign.

pub mod dice;
pub mod roller;
pub mod vocab;

pub use roller::{DieRoller, ScriptedRoller};
pub use vocab::{Ability, CharacterType, Condition, DamageType, Size, Skill, UnknownName};
