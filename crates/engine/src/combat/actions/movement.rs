//! Actions owned by this module (see the module list in mod.rs).

use super::{ActionOutcome, ActionType, Turn};
use crate::engine::Call;
use crate::error::{EngineError, Result};

/// Runs the action.
pub fn run(_call: &mut Call<'_>, _turn: &mut Turn<'_>, t: ActionType) -> Result<ActionOutcome> {
    Err(EngineError::Rule(format!("{} is not available yet", t.key())))
}
