//! The syntax tree of a dice expression, its canonical text and its bounds.
//!
//! The top level is a signed sum of [`Addend`]s; only an addend carries a damage-type tag, so a
//! tag on an operand of `*` or `/` cannot be represented. Addend bodies are tag-free [`Expr`]s.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{D20Mode, DiceError, MAX_DICE, MAX_EXPLODED_DICE, MAX_EXPLOSIONS_PER_DIE, MAX_FACES};
use crate::DamageType;

/// A parsed, validated dice expression; build one with [`parse`](super::parse).
///
/// Its [`Display`](fmt::Display) is the canonical text ([`DiceExpr::normalized`]); serde
/// (de)serialises it as that text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceExpr {
    /// The added terms, in order; never empty.
    pub(crate) addends: Vec<Addend>,
}

/// One added (or subtracted) term of the top-level sum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Addend {
    /// Subtracted rather than added.
    pub negative: bool,
    /// The damage type the term counts toward, if tagged.
    pub tag: Option<DamageType>,
    /// The term itself.
    pub body: Expr,
}

/// A tag-free arithmetic expression over dice groups and constants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Expr {
    /// A non-negative integer constant as written.
    Number(i64),
    /// A dice group with its modifiers.
    Dice(DiceGroup),
    /// Unary minus.
    Neg(Box<Expr>),
    /// A binary operation.
    Binary(BinOp, Box<Expr>, Box<Expr>),
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`, flooring toward negative infinity.
    Div,
}

impl BinOp {
    /// The operator as written in canonical text.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
        }
    }

    fn precedence(self) -> u8 {
        match self {
            BinOp::Add | BinOp::Sub => 1,
            BinOp::Mul | BinOp::Div => 2,
        }
    }
}

/// `NdX` with its modifiers. Invariants (checked by the parser): `1 ≤ count ≤ MAX_DICE`,
/// `1 ≤ faces ≤ MAX_FACES`, `1 ≤ min ≤ max ≤ faces`, a keep/drop count in `1..=count`, and
/// neither `rr` nor an explosion matches every face.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DiceGroup {
    /// How many dice are requested.
    pub count: u32,
    /// Faces per die.
    pub faces: u32,
    /// Which faces are rolled again.
    pub reroll: Option<Reroll>,
    /// Which faces add another die.
    pub explode: Option<Explode>,
    /// Per-die floor.
    pub min: Option<u32>,
    /// Per-die ceiling.
    pub max: Option<u32>,
    /// Which dice count toward the total.
    pub keep: Option<Keep>,
}

/// A reroll rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reroll {
    /// Once (`r`, `ro`) or until no match (`rr`).
    pub repeat: bool,
    /// Which faces are rerolled.
    pub when: Selector,
}

/// An explosion rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Explode {
    /// Which faces explode; `None` is the largest face.
    pub when: Option<Selector>,
}

/// Which faces a reroll or explosion applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Selector {
    /// The comparison.
    pub cmp: Compare,
    /// The face compared with.
    pub value: u32,
}

/// A comparison of a face with a selector's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Compare {
    /// `N` or `=N`
    Eq,
    /// `<N`
    Lt,
    /// `>N`
    Gt,
    /// `<=N`
    Le,
    /// `>=N`
    Ge,
}

impl Selector {
    /// Whether `face` matches.
    pub fn matches(self, face: u32) -> bool {
        match self.cmp {
            Compare::Eq => face == self.value,
            Compare::Lt => face < self.value,
            Compare::Gt => face > self.value,
            Compare::Le => face <= self.value,
            Compare::Ge => face >= self.value,
        }
    }

    /// Whether every face of a die with `faces` faces matches.
    pub fn matches_all(self, faces: u32) -> bool {
        (1..=faces).all(|f| self.matches(f))
    }
}

impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cmp = match self.cmp {
            Compare::Eq => "",
            Compare::Lt => "<",
            Compare::Gt => ">",
            Compare::Le => "<=",
            Compare::Ge => ">=",
        };
        write!(f, "{cmp}{}", self.value)
    }
}

impl Explode {
    /// Whether `face` of a die with `faces` faces explodes.
    pub fn matches(self, face: u32, faces: u32) -> bool {
        match self.when {
            Some(sel) => sel.matches(face),
            None => face == faces,
        }
    }
}

/// A keep/drop rule; the count is between 1 and the group's dice count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keep {
    /// `khN`: keep the N highest.
    High(u32),
    /// `klN`: keep the N lowest.
    Low(u32),
    /// `dhN`: drop the N highest.
    DropHigh(u32),
    /// `dlN`: drop the N lowest.
    DropLow(u32),
}

impl Keep {
    /// How many of `n` dice are kept, and whether the highest (rather than lowest) are kept.
    pub fn kept_of(self, n: usize) -> (usize, bool) {
        match self {
            Keep::High(k) => ((k as usize).min(n), true),
            Keep::Low(k) => ((k as usize).min(n), false),
            Keep::DropHigh(k) => (n.saturating_sub(k as usize), false),
            Keep::DropLow(k) => (n.saturating_sub(k as usize), true),
        }
    }

    fn scaled(self, by: u32) -> Keep {
        match self {
            Keep::High(k) => Keep::High(k * by),
            Keep::Low(k) => Keep::Low(k * by),
            Keep::DropHigh(k) => Keep::DropHigh(k * by),
            Keep::DropLow(k) => Keep::DropLow(k * by),
        }
    }
}

impl fmt::Display for DiceGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.faces)?;
        if let Some(r) = self.reroll {
            write!(f, "{}{}", if r.repeat { "rr" } else { "r" }, r.when)?;
        }
        if let Some(e) = self.explode {
            f.write_str("!")?;
            if let Some(sel) = e.when {
                write!(f, "{sel}")?;
            }
        }
        if let Some(m) = self.min {
            write!(f, "min{m}")?;
        }
        if let Some(m) = self.max {
            write!(f, "max{m}")?;
        }
        match self.keep {
            Some(Keep::High(k)) => write!(f, "kh{k}"),
            Some(Keep::Low(k)) => write!(f, "kl{k}"),
            Some(Keep::DropHigh(k)) => write!(f, "dh{k}"),
            Some(Keep::DropLow(k)) => write!(f, "dl{k}"),
            None => Ok(()),
        }
    }
}

impl DiceGroup {
    /// The lowest and highest value one die can show after `min`/`max`.
    fn face_range(&self) -> (i128, i128) {
        let lo = self.min.unwrap_or(1).min(self.faces);
        let hi = self.max.unwrap_or(self.faces).max(lo);
        (i128::from(lo), i128::from(hi))
    }

    /// Guaranteed bounds of the group's value (rerolls are ignored: a capped `rr` may still
    /// show any face).
    fn bounds(&self) -> (i128, i128) {
        let count = i128::from(self.count);
        let extra = if self.explode.is_some() {
            (count * i128::from(MAX_EXPLOSIONS_PER_DIE)).min(i128::from(MAX_EXPLODED_DICE))
        } else {
            0
        };
        let (kept_lo, kept_hi) = match self.keep {
            None => (count, count + extra),
            Some(Keep::High(k) | Keep::Low(k)) => (i128::from(k), i128::from(k)),
            Some(Keep::DropHigh(k) | Keep::DropLow(k)) => {
                (count - i128::from(k), count + extra - i128::from(k))
            }
        };
        let (lo, hi) = self.face_range();
        (kept_lo * lo, kept_hi * hi)
    }
}

/// Which leaf of an expression is being printed, for [`write_expr`].
pub(crate) enum Leaf<'a> {
    /// A constant.
    Number(i64),
    /// A dice group.
    Dice(&'a DiceGroup),
}

/// How tags are printed by [`write_addends`].
#[derive(Clone, Copy)]
pub(crate) enum TagStyle {
    /// `2d6[fire]` (canonical notation).
    Brackets,
    /// `[3, 4] fire` (summaries).
    Word,
}

fn precedence(e: &Expr) -> u8 {
    match e {
        Expr::Number(_) | Expr::Dice(_) => 4,
        Expr::Neg(_) => 3,
        Expr::Binary(op, ..) => op.precedence(),
    }
}

/// Writes `e` with the fewest parentheses that keep its structure, calling `leaf` for each
/// constant and dice group in textual order.
pub(crate) fn write_expr(e: &Expr, out: &mut String, leaf: &mut dyn FnMut(Leaf<'_>, &mut String)) {
    let child =
        |c: &Expr, parens: bool, out: &mut String, leaf: &mut dyn FnMut(Leaf<'_>, &mut String)| {
            if parens {
                out.push('(');
            }
            write_expr(c, out, leaf);
            if parens {
                out.push(')');
            }
        };
    match e {
        Expr::Number(n) => leaf(Leaf::Number(*n), out),
        Expr::Dice(g) => leaf(Leaf::Dice(g), out),
        Expr::Neg(inner) => {
            // `--3` rather than `-(-3)`: canonical text never nests deeper than its input.
            out.push('-');
            child(inner, precedence(inner) < 3, out, leaf);
        }
        Expr::Binary(op, l, r) => {
            let p = op.precedence();
            child(l, precedence(l) < p, out, leaf);
            out.push(' ');
            out.push_str(op.symbol());
            out.push(' ');
            child(r, precedence(r) <= p, out, leaf);
        }
    }
}

/// Writes the top-level sum: `a + b - c`, each tagged term in `style`.
pub(crate) fn write_addends(
    addends: &[Addend],
    out: &mut String,
    style: TagStyle,
    leaf: &mut dyn FnMut(Leaf<'_>, &mut String),
) {
    for (i, a) in addends.iter().enumerate() {
        match (i, a.negative) {
            (0, false) => {}
            (0, true) => out.push('-'),
            (_, false) => out.push_str(" + "),
            (_, true) => out.push_str(" - "),
        }
        let atomic = precedence(&a.body) == 4;
        // A tag follows a primary, so a composite tagged body needs parentheses; so does a
        // leading `-` before a product (`-(3 * 2)`), since unary minus binds tighter than `*`.
        // Untagged bodies are never sums or negations (the parser flattens those).
        let parens = !atomic && (a.tag.is_some() || (i == 0 && a.negative));
        if parens {
            out.push('(');
        }
        write_expr(&a.body, out, leaf);
        if parens {
            out.push(')');
        }
        if let Some(t) = a.tag {
            match style {
                TagStyle::Brackets => {
                    out.push('[');
                    out.push_str(t.key());
                    out.push(']');
                }
                TagStyle::Word => {
                    out.push(' ');
                    out.push_str(t.key());
                }
            }
        }
    }
}

/// Writes a leaf in canonical notation.
pub(crate) fn write_leaf(leaf: Leaf<'_>, out: &mut String) {
    use fmt::Write;
    // Writing to a String cannot fail.
    let _ = match leaf {
        Leaf::Number(n) => write!(out, "{n}"),
        Leaf::Dice(g) => write!(out, "{g}"),
    };
}

/// Floor division (toward negative infinity); `None` for a zero divisor or overflow.
pub(crate) fn floor_div(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q.checked_sub(1)
    } else {
        Some(q)
    }
}

fn floor_div_wide(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// Why bounds could not be computed.
pub(crate) enum BoundsError {
    /// A divisor is always zero.
    DivisionByZero,
    /// Some value may leave the i64 range.
    OutOfRange,
}

/// Guaranteed bounds of `e` (ignoring outcomes that are errors, such as dividing by a divisor that
/// happens to be zero), each node checked to stay within `i64`.
pub(crate) fn expr_bounds(e: &Expr) -> Result<(i128, i128), BoundsError> {
    let (lo, hi) = match e {
        Expr::Number(n) => (i128::from(*n), i128::from(*n)),
        Expr::Dice(g) => g.bounds(),
        Expr::Neg(inner) => {
            let (lo, hi) = expr_bounds(inner)?;
            (-hi, -lo)
        }
        Expr::Binary(op, l, r) => {
            let (al, ah) = expr_bounds(l)?;
            let (bl, bh) = expr_bounds(r)?;
            match op {
                BinOp::Add => (al + bl, ah + bh),
                BinOp::Sub => (al - bh, ah - bl),
                BinOp::Mul => corners([al, ah], [bl, bh], |a, b| a * b),
                BinOp::Div => {
                    // Floor division is monotonic in each argument on each side of zero, so the
                    // extremes lie at the corners of the dividend range and of each nonzero
                    // side of the divisor range (whose inner ends are ±1).
                    let mut divisors = Vec::with_capacity(4);
                    if bh >= 1 {
                        divisors.extend([bl.max(1), bh]);
                    }
                    if bl <= -1 {
                        divisors.extend([bl, bh.min(-1)]);
                    }
                    if divisors.is_empty() {
                        return Err(BoundsError::DivisionByZero);
                    }
                    let mut lo = i128::MAX;
                    let mut hi = i128::MIN;
                    for a in [al, ah] {
                        for &b in &divisors {
                            let q = floor_div_wide(a, b);
                            lo = lo.min(q);
                            hi = hi.max(q);
                        }
                    }
                    (lo, hi)
                }
            }
        }
    };
    let range = i128::from(i64::MIN)..=i128::from(i64::MAX);
    if range.contains(&lo) && range.contains(&hi) {
        Ok((lo, hi))
    } else {
        Err(BoundsError::OutOfRange)
    }
}

fn corners(a: [i128; 2], b: [i128; 2], f: impl Fn(i128, i128) -> i128) -> (i128, i128) {
    let all = [f(a[0], b[0]), f(a[0], b[1]), f(a[1], b[0]), f(a[1], b[1])];
    let lo = all.iter().copied().min().unwrap_or(0);
    let hi = all.iter().copied().max().unwrap_or(0);
    (lo, hi)
}

/// Calls `f` on every dice group of `e`, in textual order, until it returns `true`.
fn visit_groups_mut(e: &mut Expr, f: &mut dyn FnMut(&mut DiceGroup) -> bool) -> bool {
    match e {
        Expr::Number(_) => false,
        Expr::Dice(g) => f(g),
        Expr::Neg(inner) => visit_groups_mut(inner, f),
        Expr::Binary(_, l, r) => visit_groups_mut(l, f) || visit_groups_mut(r, f),
    }
}

/// Calls `f` on every dice group of `e`, in textual order.
pub(crate) fn visit_groups(e: &Expr, f: &mut dyn FnMut(&DiceGroup)) {
    match e {
        Expr::Number(_) => {}
        Expr::Dice(g) => f(g),
        Expr::Neg(inner) => visit_groups(inner, f),
        Expr::Binary(_, l, r) => {
            visit_groups(l, f);
            visit_groups(r, f);
        }
    }
}

impl DiceExpr {
    /// The canonical text: lower case, `d%` as `1d100`, modifiers in application order
    /// (reroll, explode, min, max, keep/drop), spaces around binary operators, e.g. `4d6kh3` or
    /// `1d8[slashing] + 2d6[fire] + 3`. Parsing it gives back the same expression.
    pub fn normalized(&self) -> String {
        let mut out = String::new();
        write_addends(&self.addends, &mut out, TagStyle::Brackets, &mut write_leaf);
        out
    }

    /// How many dice the expression requests (before rerolls and explosions).
    pub fn dice_count(&self) -> u32 {
        let mut n = 0u32;
        for a in &self.addends {
            visit_groups(&a.body, &mut |g| n = n.saturating_add(g.count));
        }
        n
    }

    /// Whether any term carries a damage-type tag.
    pub fn has_damage_types(&self) -> bool {
        self.addends.iter().any(|a| a.tag.is_some())
    }

    /// The expression rolled with advantage or disadvantage: the first plain `1d20` (one die, no
    /// keep/drop; other modifiers stay) becomes `2d20kh1` or `2d20kl1`. [`D20Mode::Normal`]
    /// returns the expression unchanged. Errors when there is no plain `1d20`.
    pub fn with_d20_mode(&self, mode: D20Mode) -> Result<DiceExpr, DiceError> {
        let keep = match mode {
            D20Mode::Normal => return Ok(self.clone()),
            D20Mode::Advantage => Keep::High(1),
            D20Mode::Disadvantage => Keep::Low(1),
        };
        let mut out = self.clone();
        let mut found = false;
        for a in &mut out.addends {
            found = visit_groups_mut(&mut a.body, &mut |g| {
                if g.faces == 20 && g.count == 1 && g.keep.is_none() {
                    g.count = 2;
                    g.keep = Some(keep);
                    true
                } else {
                    false
                }
            });
            if found {
                break;
            }
        }
        if !found {
            return Err(DiceError::NoD20 {
                input: self.normalized(),
                mode,
            });
        }
        out.check_limits(&out.normalized())?;
        Ok(out)
    }

    /// The expression with every dice group's dice (and keep/drop count) doubled, as for a
    /// critical hit: `1d8[slashing] + 3` becomes `2d8[slashing] + 3`. Errors if that goes over
    /// [`MAX_DICE`].
    pub fn with_doubled_dice(&self) -> Result<DiceExpr, DiceError> {
        let mut out = self.clone();
        let too_many = self.dice_count().saturating_mul(2);
        if too_many > MAX_DICE {
            return Err(DiceError::TooManyDice {
                input: self.normalized(),
                count: u64::from(too_many),
            });
        }
        for a in &mut out.addends {
            visit_groups_mut(&mut a.body, &mut |g| {
                g.count *= 2;
                g.keep = g.keep.map(|k| k.scaled(2));
                false
            });
        }
        out.check_limits(&out.normalized())?;
        Ok(out)
    }

    /// The smallest total the expression can roll (guaranteed; division by a divisor that
    /// happens to roll zero is an error, not a total).
    pub fn min_total(&self) -> i64 {
        self.bounds().0
    }

    /// The largest total the expression can roll, counting every possible explosion.
    pub fn max_total(&self) -> i64 {
        self.bounds().1
    }

    fn bounds(&self) -> (i64, i64) {
        // Validated expressions always have bounds within i64; fall back to the full range.
        self.checked_bounds()
            .ok()
            .and_then(|(lo, hi)| Some((i64::try_from(lo).ok()?, i64::try_from(hi).ok()?)))
            .unwrap_or((i64::MIN, i64::MAX))
    }

    fn checked_bounds(&self) -> Result<(i128, i128), BoundsError> {
        let mut lo = 0i128;
        let mut hi = 0i128;
        for a in &self.addends {
            let (l, h) = expr_bounds(&a.body)?;
            if a.negative {
                lo -= h;
                hi -= l;
            } else {
                lo += l;
                hi += h;
            }
            let range = i128::from(i64::MIN)..=i128::from(i64::MAX);
            if !range.contains(&lo) || !range.contains(&hi) {
                return Err(BoundsError::OutOfRange);
            }
        }
        Ok((lo, hi))
    }

    /// Checks the whole-expression limits (total dice, constant divisors of zero and the i64
    /// range of every intermediate value); errors quote `input`.
    pub(crate) fn check_limits(&self, input: &str) -> Result<(), DiceError> {
        let count = self.dice_count();
        if count > MAX_DICE {
            return Err(DiceError::TooManyDice {
                input: input.to_string(),
                count: u64::from(count),
            });
        }
        match self.checked_bounds() {
            Ok(_) => Ok(()),
            Err(BoundsError::DivisionByZero) => Err(DiceError::DivisionByZero {
                input: input.to_string(),
            }),
            Err(BoundsError::OutOfRange) => Err(DiceError::OutOfRange {
                input: input.to_string(),
            }),
        }
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.normalized())
    }
}

impl std::str::FromStr for DiceExpr {
    type Err = DiceError;
    fn from_str(s: &str) -> Result<Self, DiceError> {
        super::parse(s)
    }
}

impl Serialize for DiceExpr {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.normalized())
    }
}

impl<'de> Deserialize<'de> for DiceExpr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        super::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// Compile-time guard: faces fit comfortably in the arithmetic above.
const _: () = assert!(MAX_FACES as u64 * (MAX_DICE + MAX_EXPLODED_DICE) as u64 <= i64::MAX as u64);
