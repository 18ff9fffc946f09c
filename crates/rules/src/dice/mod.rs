//! Dice notation: parser, roller and the seeded random stream.
//!
//! ```text
//! 1d20+5            2d20kh1+3 (advantage)       4d6kh3 / 4d6dl1
//! 1d8[slashing]+2d6[fire]+3                     (1d6+2)/2, 2d6*2, -1d4
//! 1d6r1 / 1d6ro<3 / 1d6rr1 (reroll)            1d6! / 1d6e / 1d6!>5 (explode)
//! 2d6min2 / 2d6max5 (also mi / ma)              d% (= d100), d20 (= 1d20)
//! ```
//!
//! # Notation
//! - `NdX` rolls N dice of X faces (N defaults to 1, `d%` is `d100`); integer constants; `+ - * /`
//!   with the usual precedence, parentheses and unary minus. Division floors toward negative
//!   infinity (`-7/2` is `-4`); dividing by zero is an error. Whitespace is ignored and letters are
//!   case-insensitive.
//! - Modifiers follow a dice group in any order, each at most once per group:
//!   keep/drop `khN`, `klN`, `kN` (= `kh`), `dhN`, `dlN` (N defaults to 1); reroll `rS`/`roS`
//!   (once) or `rrS` (until the face no longer matches); explode `!`/`e` (on the largest face) or
//!   `!S`/`eS`; per-die floor and ceiling `minN`/`maxN` (also `mi`/`ma`). A selector `S` is a
//!   number (equals) or `=N`, `<N`, `>N`, `<=N`, `>=N`.
//! - A damage-type tag `[fire]` labels the term it follows: `1d8[slashing]+2d6[fire]+3`. Tags
//!   label whole *added* terms: they may follow a dice group, a constant or a parenthesised group
//!   that is added or subtracted (`(2d6*2)[fire]`), but not an operand of `*` or `/` and not the
//!   inside of another tagged group. Each added term then counts toward its type (untagged terms
//!   toward `"untyped"`), so the per-type totals always sum to the total.
//!
//! # Order of operations inside a dice group
//! roll → reroll → explode → min/max → keep/drop:
//! 1. every die is rolled;
//! 2. a die whose face matches the reroll selector is rolled again (once for `r`/`ro`; for `rr`
//!    until it no longer matches, at most [`MAX_REROLLS_PER_DIE`] times per die and
//!    [`MAX_REROLLS_PER_ROLL`] per roll);
//! 3. a die whose (rerolled) face matches the explode selector adds one more die, which goes through
//!    steps 2–3 itself (at most [`MAX_EXPLOSIONS_PER_DIE`] extra dice per requested die and
//!    [`MAX_EXPLODED_DICE`] per roll);
//! 4. `min`/`max` raise or lower each face;
//! 5. keep/drop picks from all the dice, including exploded ones (ties keep the earlier die).
//!
//! Caps on rerolls and explosions stop silently and are reported on the term
//! ([`TermRoll::capped`]); everything else over a limit is an error, never a clamp.
//!
//! # Limits
//! At most [`MAX_DICE`] dice requested per expression, faces from 1 to [`MAX_FACES`], and
//! [`MAX_EXPRESSION_CHARS`] characters. A keep/drop count must be between 1 and the group's dice
//! count. Rerolling (`rr`) or exploding on every face of a die is rejected because it would never
//! stop.

#![warn(missing_docs)]

mod error;
mod expr;
mod parse;
mod rng;
mod roll;

use serde::{Deserialize, Serialize};

pub use error::DiceError;
pub use expr::DiceExpr;
pub use parse::parse;
pub use rng::{DiceRng, RngState};
pub use roll::{DiceRoll, DieRoll, Natural, TermOp, TermRoll, UNTYPED};

/// The most dice one expression may request (rerolls and explosions are capped separately).
pub const MAX_DICE: u32 = 1_000;
/// The most faces a die may have.
pub const MAX_FACES: u32 = 10_000;
/// The longest expression accepted, in characters.
pub const MAX_EXPRESSION_CHARS: usize = 256;
/// The deepest nesting of parentheses and unary signs accepted.
pub const MAX_NESTING: usize = 32;
/// The most times `rr` rerolls one die before it stops.
pub const MAX_REROLLS_PER_DIE: u32 = 100;
/// The most rerolls over all dice of one roll; further matching faces stand.
pub const MAX_REROLLS_PER_ROLL: u32 = 10_000;
/// The most extra dice one requested die may add by exploding.
pub const MAX_EXPLOSIONS_PER_DIE: u32 = 100;
/// The most extra dice explosions may add to one roll, over all groups.
pub const MAX_EXPLODED_DICE: u32 = 1_000;

/// How a d20 roll is made: straight, with advantage or with disadvantage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum D20Mode {
    /// One d20.
    #[default]
    Normal,
    /// Two d20, keep the higher.
    Advantage,
    /// Two d20, keep the lower.
    Disadvantage,
}

impl D20Mode {
    /// Combines the sources: any advantage and any disadvantage cancel to a straight roll.
    pub fn from_sources(advantage: bool, disadvantage: bool) -> Self {
        match (advantage, disadvantage) {
            (true, false) => D20Mode::Advantage,
            (false, true) => D20Mode::Disadvantage,
            _ => D20Mode::Normal,
        }
    }

    /// The snake_case name ("advantage").
    pub fn key(self) -> &'static str {
        match self {
            D20Mode::Normal => "normal",
            D20Mode::Advantage => "advantage",
            D20Mode::Disadvantage => "disadvantage",
        }
    }
}

impl std::fmt::Display for D20Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

/// Parses `input` and rolls it with `roller`.
pub fn roll(input: &str, roller: &mut impl crate::DieRoller) -> Result<DiceRoll, DiceError> {
    parse(input)?.roll(roller)
}

#[cfg(test)]
mod tests;
