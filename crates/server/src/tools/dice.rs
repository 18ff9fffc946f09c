//! `roll_dice`.

use schemars::JsonSchema;
use serde::Deserialize;
use tabletop_engine::rolls::{RollRequest, roll_dice_recorded};
use tabletop_engine::{Call, EngineError};

use super::{Access, invoke_batch};
use crate::reply::Reply;
use crate::schema::{input_schema, with_batch};
use crate::spec::{Category, ToolSpec};

/// Arguments of `roll_dice`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RollDiceArgs {
    /// NdX, d%, + - * / (), kh/kl/dh/dl N, r/ro/rr, !, min/max N, tags like 1d8[fire].
    pub expression: String,
    /// Why the roll is made (kept in the log).
    pub reason: Option<String>,
    /// Keep the higher of two d20s.
    #[serde(default)]
    pub advantage: bool,
    /// Keep the lower of two d20s.
    #[serde(default)]
    pub disadvantage: bool,
    /// Seed for this roll only (the stream is untouched).
    pub seed: Option<u64>,
}

fn run(call: &mut Call<'_>, a: RollDiceArgs) -> Result<Reply, EngineError> {
    let (out, recorded) = roll_dice_recorded(
        call,
        &RollRequest {
            expression: a.expression,
            reason: a.reason,
            advantage: a.advantage,
            disadvantage: a.disadvantage,
            seed: a.seed,
        },
    )?;
    Ok(Reply::recorded(out.summary(), &out, recorded))
}

pub(super) fn specs() -> Vec<ToolSpec> {
    vec![ToolSpec {
        name: "roll_dice",
        title: "Roll dice",
        category: Category::Characters,
        description: "Roll dice notation on the campaign's recorded, seedable dice stream; shows every die.",
        read_only: false,
        destructive: false,
        idempotent: false,
        core: true,
        max_result_chars: 8_000,
        schema: || with_batch(input_schema::<RollDiceArgs>(), "rolls"),
        core_schema: None,
        handler: |e, n, raw| invoke_batch(e, n, raw, Access::Write, run),
    }]
}
