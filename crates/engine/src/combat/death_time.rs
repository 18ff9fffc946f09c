//! The moment of death, for revival's time limits. A dead sheet is stamped with the world clock
//! (in seconds; each combat round moves it 6 s) the first time it is stored dead, and the stamp
//! is cleared when the creature lives again. [`revival_window`] refuses a revival spell cast
//! after its limit (Revivify 1 minute, Raise Dead 10 days, Resurrection 100 years, as written),
//! with how long ago the creature died.

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::memory::{DAY, HOUR, MINUTE, ROUND, describe_time};

/// The world clock now, in seconds (read from the store, as `clock::now` does; this module sits
/// under the clock, which heals and ends effects through the use cases that stamp deaths).
fn world_seconds(call: &Call<'_>) -> Result<u64> {
    Ok(call
        .tx_ref()
        .clock(call.campaign())?
        .unwrap_or_default()
        .seconds)
}

/// A copy of `c` with its death stamped (or the stamp cleared), when that changes anything.
pub fn stamped(call: &Call<'_>, c: &Character) -> Result<Option<Character>> {
    match (c.dead, c.died_at) {
        (true, None) => {
            let mut s = c.clone();
            s.died_at = Some(world_seconds(call)?);
            Ok(Some(s))
        }
        (false, Some(_)) => {
            let mut s = c.clone();
            s.died_at = None;
            Ok(Some(s))
        }
        _ => Ok(None),
    }
}

/// Stamps `c` in place (see [`stamped`]).
pub fn stamp(call: &Call<'_>, c: &mut Character) -> Result<()> {
    if let Some(s) = stamped(call, c)? {
        c.died_at = s.died_at;
    }
    Ok(())
}

/// "2 minutes", "11 days", "36 seconds".
fn span(seconds: u64) -> String {
    let (n, unit) = if seconds >= DAY && seconds.is_multiple_of(DAY) {
        (seconds / DAY, "day")
    } else if seconds >= HOUR && seconds.is_multiple_of(HOUR) {
        (seconds / HOUR, "hour")
    } else if seconds >= MINUTE && seconds.is_multiple_of(MINUTE) {
        (seconds / MINUTE, "minute")
    } else {
        (seconds, "second")
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

/// Refuses `spell` on the dead `target` when it died more than `within_rounds` rounds ago; the
/// line to report when it is in time. `None` stamp (a death from before stamps were kept):
/// the DM confirms, and the line says so.
pub fn revival_window(
    call: &Call<'_>,
    target: &Character,
    within_rounds: u32,
    spell: &str,
) -> Result<String> {
    let limit = u64::from(within_rounds).saturating_mul(ROUND);
    let Some(at) = target.died_at else {
        return Ok(format!(
            "{spell} works only on a creature dead for at most {}; {} has no recorded time of death, so the DM confirms it",
            span(limit),
            target.name
        ));
    };
    let now = world_seconds(call)?;
    // Time under Gentle Repose is not counted (its stamp was moved on when it was cast).
    let ago = now
        .saturating_add(repose_seconds(target))
        .saturating_sub(at);
    if ago > limit {
        return Err(EngineError::Rule(format!(
            "{} died {} ago ({}); {spell} works only on a creature dead for at most {}",
            target.name,
            span(ago),
            describe_time(at),
            span(limit)
        )));
    }
    Ok(format!(
        "{} died {} ago, within {spell}'s {}",
        target.name,
        span(ago),
        span(limit)
    ))
}

/// The effect Gentle Repose leaves on a corpse.
pub const REPOSE: &str = "Gentle Repose";

/// The seconds of Gentle Repose still to run on `c` (0 without it): they are not counted as
/// time dead (the stamp of death was moved on by the spell's whole length when it was cast).
pub fn repose_seconds(c: &Character) -> u64 {
    c.effects
        .iter()
        .filter(|x| x.name == REPOSE)
        .filter_map(|x| match x.duration {
            crate::model::effects::Duration::Rounds { remaining } => {
                Some(u64::from(remaining).saturating_mul(ROUND))
            }
            _ => None,
        })
        .max()
        .unwrap_or(0)
}
