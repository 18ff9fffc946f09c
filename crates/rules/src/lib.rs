//! Pure SRD 5.1 mechanics for Tabletop.
//!
//! Nothing here knows about storage, JSON-RPC or MCP: functions take values and return values.
//! Randomness enters only through [`dice::DiceRng`], a seedable stream whose state can be saved.

pub mod dice;
pub mod vocab;

pub use vocab::{Ability, CharacterType, Condition, DamageType, Size, Skill, UnknownName};
