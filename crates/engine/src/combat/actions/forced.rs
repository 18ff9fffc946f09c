//! One rule check shared by every action: refused with the fix named, or, with `force`, taken
//! and recorded as forced.

use crate::error::{EngineError, Result};

/// Checks a rule; with `force` a broken rule is recorded in `forced` instead of refused. Every
/// action's refusals go through here (or [`Turn::rule`]), so the fix is always named.
pub(crate) fn rule(
    ok: bool,
    force: bool,
    forced: &mut Vec<String>,
    why: impl Into<String>,
) -> Result<()> {
    if ok {
        return Ok(());
    }
    let why = why.into();
    if force {
        forced.push(why);
        Ok(())
    } else {
        Err(EngineError::Rule(format!(
            "{why} (pass force: true to override as the game master)"
        )))
    }
}
