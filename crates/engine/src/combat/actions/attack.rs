//! Attacks, opportunity attacks, and damage or healing applied by the game master.

use super::{ActionOutcome, Turn};
use crate::engine::Call;
use crate::error::{EngineError, Result};

/// An attack (or two-weapon attack).
pub fn attack(_call: &mut Call<'_>, _turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    Err(EngineError::Rule("attack is not available yet".into()))
}

/// Damage applied by the game master.
pub fn dm_damage(_call: &mut Call<'_>, _turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    Err(EngineError::Rule("damage is not available yet".into()))
}

/// Healing applied by the game master.
pub fn dm_heal(_call: &mut Call<'_>, _turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    Err(EngineError::Rule("heal is not available yet".into()))
}
