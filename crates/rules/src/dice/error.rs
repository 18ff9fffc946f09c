//! Errors of the dice engine: what is wrong, where, and how to fix it.

use super::{D20Mode, MAX_DICE, MAX_EXPRESSION_CHARS, MAX_FACES, MAX_NESTING};
use crate::UnknownName;

/// Why an expression could not be parsed or rolled, or an RNG state restored.
///
/// Positions are 1-based character positions in the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DiceError {
    /// The expression is empty or only whitespace.
    #[error("empty dice expression; write dice notation such as 1d20+5, 4d6kh3 or 2d6[fire]+3")]
    Empty,
    /// The expression is longer than [`MAX_EXPRESSION_CHARS`].
    #[error(
        "dice expression is {length} characters long; the limit is {MAX_EXPRESSION_CHARS} — split it into several rolls"
    )]
    TooLong {
        /// Its length in characters.
        length: usize,
    },
    /// A character (or the end of the input) that does not fit the grammar.
    #[error("unexpected {} at position {position} in '{input}'; expected {expected}", describe(*found))]
    Unexpected {
        /// The whole input.
        input: String,
        /// Where it happened.
        position: usize,
        /// The character found, `None` at the end of the input.
        found: Option<char>,
        /// What would have been valid there.
        expected: String,
    },
    /// Parentheses or unary signs nested more than [`MAX_NESTING`] deep.
    #[error(
        "'{found}' at position {position} in '{input}' nests more than {MAX_NESTING} levels deep; simplify the expression"
    )]
    TooDeep {
        /// The whole input.
        input: String,
        /// Where the nesting goes too deep.
        position: usize,
        /// The `(`, `-` or `+` found there.
        found: char,
    },
    /// A `(` without its `)`.
    #[error("'(' at position {position} in '{input}' is never closed; add a ')'")]
    UnclosedParen {
        /// The whole input.
        input: String,
        /// Where the `(` is.
        position: usize,
    },
    /// A `[` without its `]`.
    #[error(
        "damage-type tag at position {position} in '{input}' is never closed; write it like [fire]"
    )]
    UnclosedTag {
        /// The whole input.
        input: String,
        /// Where the `[` is.
        position: usize,
    },
    /// A tag that is not a damage type.
    #[error("{unknown} (tag at position {position} in '{input}')")]
    UnknownDamageType {
        /// The whole input.
        input: String,
        /// Where the `[` is.
        position: usize,
        /// The name given, the closest damage type and every allowed one.
        unknown: UnknownName,
    },
    /// A tag that does not label a whole added term.
    #[error(
        "damage-type tag '[{tag}]' at position {position} in '{input}' is not on a whole added term; tags label terms that are added or subtracted, not operands of '*' or '/' nor parts of another tagged group — write e.g. (2d6*2)[{tag}] or 1d8[slashing]+2d6[{tag}]"
    )]
    MisplacedTag {
        /// The whole input.
        input: String,
        /// Where the `[` is.
        position: usize,
        /// The damage type named.
        tag: String,
    },
    /// An integer constant beyond the 64-bit range.
    #[error(
        "number at position {position} in '{input}' is too large; numbers must fit in a 64-bit integer"
    )]
    NumberTooLarge {
        /// The whole input.
        input: String,
        /// Where the number starts.
        position: usize,
    },
    /// A dice group rolling zero dice (`0d6`).
    #[error(
        "dice group at position {position} in '{input}' rolls no dice; roll at least one, e.g. 1d6"
    )]
    NoDice {
        /// The whole input.
        input: String,
        /// Where the group starts.
        position: usize,
    },
    /// A die with zero faces or more than [`MAX_FACES`].
    #[error(
        "d{faces} at position {position} in '{input}' is not a valid die; faces must be between 1 and {MAX_FACES}"
    )]
    BadFaces {
        /// The whole input.
        input: String,
        /// Where the `d` is.
        position: usize,
        /// The faces asked for (saturated for absurdly long numbers).
        faces: u64,
    },
    /// More than [`MAX_DICE`] dice requested.
    #[error(
        "'{input}' rolls {count} dice; the limit is {MAX_DICE} dice per roll — roll fewer dice or split the roll"
    )]
    TooManyDice {
        /// The whole input.
        input: String,
        /// How many dice it asks for (saturated for absurdly long numbers).
        count: u64,
    },
    /// A modifier that cannot apply to its dice group.
    #[error("'{modifier}' at position {position} in '{input}' {problem}")]
    BadModifier {
        /// The whole input.
        input: String,
        /// Where the modifier starts.
        position: usize,
        /// The modifier as written.
        modifier: String,
        /// What is wrong with it and how to fix it.
        problem: String,
    },
    /// A division whose divisor is (or came out) zero.
    #[error("'{input}' divides by zero; make sure the divisor cannot be 0")]
    DivisionByZero {
        /// The expression.
        input: String,
    },
    /// A result that could leave the 64-bit integer range.
    #[error(
        "'{input}' could produce a number outside the 64-bit integer range; use smaller numbers"
    )]
    OutOfRange {
        /// The expression.
        input: String,
    },
    /// Advantage or disadvantage asked for an expression without a plain `1d20`.
    #[error(
        "'{input}' has no plain 1d20 to roll with {mode}; advantage and disadvantage turn a single 1d20 (without keep/drop) into 2d20kh1 or 2d20kl1, e.g. 1d20+5"
    )]
    NoD20 {
        /// The expression.
        input: String,
        /// The mode asked for.
        mode: D20Mode,
    },
    /// A saved RNG state that cannot be restored.
    #[error("invalid dice RNG state: {reason}; use a state produced by DiceRng::state")]
    InvalidRngState {
        /// What is wrong with it.
        reason: String,
    },
}

/// `'x'`, or "end of expression".
fn describe(found: Option<char>) -> String {
    match found {
        Some(c) => format!("'{c}'"),
        None => "end of expression".to_string(),
    }
}
