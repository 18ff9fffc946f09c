//! cast_spell inside an encounter.

use super::{ActionOutcome, Turn};
use crate::engine::Call;
use crate::error::{EngineError, Result};

/// Casts a spell (to be written by the magic work).
pub fn cast(_call: &mut Call<'_>, _turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    Err(EngineError::Rule("cast_spell is not available yet".into()))
}
