//! The `roll_dice` use case: free-form rolls on the campaign's dice stream.

use serde::Serialize;
use tabletop_rules::dice::{self, D20Mode, DiceRng, DiceRoll};

use crate::engine::Call;
use crate::error::Result;

/// A request to roll an expression.
#[derive(Debug, Clone, Default)]
pub struct RollRequest {
    /// Dice notation, e.g. `4d6kh3` or `1d8[slashing]+2d6[fire]`.
    pub expression: String,
    /// Why the roll is made (kept in the log).
    pub reason: Option<String>,
    /// Roll the expression's d20 twice and keep the higher.
    pub advantage: bool,
    /// Roll the expression's d20 twice and keep the lower.
    pub disadvantage: bool,
    /// A seed for this roll alone; the campaign's stream is left untouched.
    pub seed: Option<u64>,
}

/// The result of [`roll_dice`].
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RollOutcome {
    /// The roll with every die.
    #[serde(flatten)]
    pub roll: DiceRoll,
    /// The reason given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Advantage or disadvantage applied to the d20 (after cancelling).
    #[serde(skip_serializing_if = "is_normal")]
    pub mode: D20Mode,
    /// The per-call seed, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

fn is_normal(m: &D20Mode) -> bool {
    *m == D20Mode::Normal
}

impl RollOutcome {
    /// One line for a model: the reason, then the roll.
    pub fn summary(&self) -> String {
        let mode = match self.mode {
            D20Mode::Advantage => " (advantage)",
            D20Mode::Disadvantage => " (disadvantage)",
            D20Mode::Normal => "",
        };
        match &self.reason {
            Some(r) => format!("{r}: {}{mode}", self.roll.summary()),
            None => format!("{}{mode}", self.roll.summary()),
        }
    }
}

/// Rolls `req.expression` with advantage/disadvantage applied to its d20 (they cancel).
pub fn roll_dice(call: &mut Call<'_>, req: &RollRequest) -> Result<RollOutcome> {
    roll_dice_recorded(call, req).map(|(out, _)| out)
}

/// [`roll_dice`], with the JSON text the event log recorded the outcome as (none when the call
/// keeps no event): an answer shows it as it is rather than serializing the outcome again.
pub fn roll_dice_recorded(
    call: &mut Call<'_>,
    req: &RollRequest,
) -> Result<(RollOutcome, Option<String>)> {
    let mut expr = dice::parse(&req.expression)?;
    let mode = D20Mode::from_sources(req.advantage, req.disadvantage);
    if req.advantage || req.disadvantage {
        expr = expr.with_d20_mode(mode)?;
    }
    let roll = match req.seed {
        Some(seed) => expr.roll(&mut DiceRng::from_seed(seed))?,
        None => expr.roll(call.rng()?)?,
    };
    let out = RollOutcome {
        roll,
        reason: req.reason.clone(),
        mode,
        seed: req.seed,
    };
    let text = call.record_roll_text(&out);
    Ok((out, text))
}

/// Parses a caller's damage or healing amount (`field` names it in errors): dice or a number that
/// can come out above 0. A negative amount is refused rather than applied as 0 (a damage roll
/// that merely dips below 0 still deals 0, as the rules say).
pub fn caller_amount(field: &str, expr: &str) -> Result<dice::DiceExpr> {
    let e = dice::parse(expr)?;
    if e.max_total() < 0 {
        return Err(crate::error::EngineError::invalid(
            field,
            format!(
                "'{}' is at most {}; damage and healing amounts are 0 or more (to heal, use healing or a heal action; to harm, damage)",
                expr.trim(),
                e.max_total()
            ),
        ));
    }
    Ok(e)
}
