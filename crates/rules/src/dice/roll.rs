//! Rolling a [`DiceExpr`]: the per-die pipeline, the result types and their one-line summary.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::expr::{BinOp, DiceExpr, DiceGroup, Expr, Leaf, TagStyle, floor_div, write_addends};
use super::{
    DiceError, MAX_EXPLODED_DICE, MAX_EXPLOSIONS_PER_DIE, MAX_REROLLS_PER_DIE, MAX_REROLLS_PER_ROLL,
};
use crate::{DamageType, DieRoller};

/// The key under which untagged terms are totalled in [`DiceRoll::by_type`].
pub const UNTYPED: &str = "untyped";

/// The outcome of rolling an expression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DiceRoll {
    /// The normalized expression that was rolled.
    pub expression: String,
    /// The result.
    pub total: i64,
    /// One entry per dice group or constant, in the order they are written.
    pub terms: Vec<TermRoll>,
    /// Totals per damage type (`"fire"`), untagged terms under `"untyped"`; they sum to `total`.
    /// Empty unless the expression has tags.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub by_type: BTreeMap<String, i64>,
    /// A natural 20 or 1, only when exactly one d20 is kept (`1d20+5`, `2d20kh1+3`, `1d20+1d4`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub natural: Option<Natural>,
}

/// One dice group or constant of a roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TermRoll {
    /// The group or constant in canonical notation (`"4d6kh3"`, `"3"`).
    pub notation: String,
    /// The operator written just before it (`None` for the first term).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op: Option<TermOp>,
    /// Every die rolled, kept or dropped, in rolling order (exploded dice follow the die that
    /// exploded); empty for a constant.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<DieRoll>,
    /// The sum of the kept dice, or the constant (before the operator applies).
    pub value: i64,
    /// The damage type of the tagged term this belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<DamageType>,
    /// A reroll or explosion cap stopped this group early.
    #[serde(default, skip_serializing_if = "is_false")]
    pub capped: bool,
}

/// One die of a roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DieRoll {
    /// Faces of the die.
    pub faces: u32,
    /// The face it counts as (after rerolls and min/max).
    pub value: u32,
    /// Whether it counts toward the total (false when dropped by keep/drop).
    pub kept: bool,
    /// This value replaced earlier faces by rerolling.
    #[serde(default, skip_serializing_if = "is_false")]
    pub rerolled: bool,
    /// This die was added by an explosion.
    #[serde(default, skip_serializing_if = "is_false")]
    pub exploded: bool,
    /// The faces rerolled away, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaced: Vec<u32>,
    /// The face actually rolled, when `min`/`max` changed it into `value`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clamped_from: Option<u32>,
}

impl DieRoll {
    /// The face rolled before `min`/`max` (what "natural" refers to).
    pub fn natural_face(&self) -> u32 {
        self.clamped_from.unwrap_or(self.value)
    }
}

/// A natural 20 or natural 1 on the single kept d20 of a roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Natural {
    /// The d20 showed 20.
    Twenty,
    /// The d20 showed 1.
    One,
}

impl Natural {
    /// The face: 20 or 1.
    pub fn face(self) -> u32 {
        match self {
            Natural::Twenty => 20,
            Natural::One => 1,
        }
    }
}

/// The operator written before a term.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum TermOp {
    /// `+`
    #[serde(rename = "+")]
    Add,
    /// `-` (binary or unary)
    #[serde(rename = "-")]
    Sub,
    /// `*`
    #[serde(rename = "*")]
    Mul,
    /// `/`
    #[serde(rename = "/")]
    Div,
}

impl From<BinOp> for TermOp {
    fn from(op: BinOp) -> Self {
        match op {
            BinOp::Add => TermOp::Add,
            BinOp::Sub => TermOp::Sub,
            BinOp::Mul => TermOp::Mul,
            BinOp::Div => TermOp::Div,
        }
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl DiceExpr {
    /// Rolls the expression. Errors only when a divisor rolls zero (or, defensively, on
    /// overflow, which the parser's range check rules out).
    pub fn roll(&self, roller: &mut impl DieRoller) -> Result<DiceRoll, DiceError> {
        let expression = self.normalized();
        let mut ev = Evaluator {
            roller,
            terms: Vec::new(),
            op: None,
            tag: None,
            budget: Budget {
                explosions: MAX_EXPLODED_DICE,
                rerolls: MAX_REROLLS_PER_ROLL,
            },
            expression: &expression,
        };
        let typed = self.has_damage_types();
        let mut total: i64 = 0;
        let mut by_type = BTreeMap::new();
        for (i, a) in self.addends.iter().enumerate() {
            ev.op = match (i, a.negative) {
                (_, true) => Some(TermOp::Sub),
                (0, false) => None,
                (_, false) => Some(TermOp::Add),
            };
            ev.tag = a.tag;
            let value = ev.eval(&a.body)?;
            let signed = if a.negative {
                value.checked_neg()
            } else {
                Some(value)
            };
            let signed = signed.ok_or_else(|| ev.overflow())?;
            total = total.checked_add(signed).ok_or_else(|| ev.overflow())?;
            if typed {
                let key = a.tag.map_or(UNTYPED, DamageType::key).to_string();
                let slot = by_type.entry(key).or_insert(0i64);
                *slot = slot.checked_add(signed).ok_or_else(|| ev.overflow())?;
            }
        }
        let terms = ev.terms;
        let mut d20s = terms
            .iter()
            .flat_map(|t| &t.dice)
            .filter(|d| d.faces == 20 && d.kept);
        let natural = match (d20s.next(), d20s.next()) {
            (Some(d), None) => match d.natural_face() {
                20 => Some(Natural::Twenty),
                1 => Some(Natural::One),
                _ => None,
            },
            _ => None,
        };
        Ok(DiceRoll {
            expression,
            total,
            terms,
            by_type,
            natural,
        })
    }
}

/// What is left of the per-roll caps.
struct Budget {
    /// Explosion dice still allowed.
    explosions: u32,
    /// Rerolls still allowed.
    rerolls: u32,
}

struct Evaluator<'a, R> {
    roller: &'a mut R,
    terms: Vec<TermRoll>,
    /// The operator to attach to the next term.
    op: Option<TermOp>,
    tag: Option<DamageType>,
    budget: Budget,
    expression: &'a str,
}

impl<R: DieRoller> Evaluator<'_, R> {
    fn overflow(&self) -> DiceError {
        DiceError::OutOfRange {
            input: self.expression.to_string(),
        }
    }

    fn push(&mut self, notation: String, dice: Vec<DieRoll>, value: i64, capped: bool) {
        self.terms.push(TermRoll {
            notation,
            op: self.op.take(),
            dice,
            value,
            damage_type: self.tag,
            capped,
        });
    }

    fn eval(&mut self, e: &Expr) -> Result<i64, DiceError> {
        match e {
            Expr::Number(n) => {
                self.push(n.to_string(), Vec::new(), *n, false);
                Ok(*n)
            }
            Expr::Dice(g) => {
                let (dice, capped) = roll_group(g, self.roller, &mut self.budget);
                let value = dice
                    .iter()
                    .filter(|d| d.kept)
                    .map(|d| i64::from(d.value))
                    .sum();
                self.push(g.to_string(), dice, value, capped);
                Ok(value)
            }
            Expr::Neg(inner) => {
                self.op = Some(TermOp::Sub);
                let v = self.eval(inner)?;
                v.checked_neg().ok_or_else(|| self.overflow())
            }
            Expr::Binary(op, l, r) => {
                let a = self.eval(l)?;
                self.op = Some((*op).into());
                let b = self.eval(r)?;
                let v = match op {
                    BinOp::Add => a.checked_add(b),
                    BinOp::Sub => a.checked_sub(b),
                    BinOp::Mul => a.checked_mul(b),
                    BinOp::Div if b == 0 => {
                        return Err(DiceError::DivisionByZero {
                            input: self.expression.to_string(),
                        });
                    }
                    BinOp::Div => floor_div(a, b),
                };
                v.ok_or_else(|| self.overflow())
            }
        }
    }
}

/// One face from `roller`, forced into `1..=faces` whatever the roller returns.
fn face(roller: &mut impl DieRoller, faces: u32) -> u32 {
    roller.roll_die(faces).clamp(1, faces.max(1))
}

/// Rolls a group through roll → reroll → explode → min/max → keep/drop. Returns the dice and
/// whether a cap stopped a reroll or an explosion.
fn roll_group(
    g: &DiceGroup,
    roller: &mut impl DieRoller,
    budget: &mut Budget,
) -> (Vec<DieRoll>, bool) {
    let mut dice = Vec::with_capacity(g.count as usize);
    let mut capped = false;
    for _ in 0..g.count {
        let mut chain = 0;
        loop {
            let mut value = face(roller, g.faces);
            let mut replaced = Vec::new();
            if let Some(r) = g.reroll {
                let limit = if r.repeat { MAX_REROLLS_PER_DIE } else { 1 };
                while r.when.matches(value) {
                    if replaced.len() >= limit as usize {
                        capped |= r.repeat;
                        break;
                    }
                    if budget.rerolls == 0 {
                        capped = true;
                        break;
                    }
                    budget.rerolls -= 1;
                    replaced.push(value);
                    value = face(roller, g.faces);
                }
            }
            dice.push(DieRoll {
                faces: g.faces,
                value,
                kept: true,
                rerolled: !replaced.is_empty(),
                exploded: chain > 0,
                replaced,
                clamped_from: None,
            });
            let explodes = g.explode.is_some_and(|e| e.matches(value, g.faces));
            if !explodes {
                break;
            }
            if chain >= MAX_EXPLOSIONS_PER_DIE || budget.explosions == 0 {
                capped = true;
                break;
            }
            chain += 1;
            budget.explosions -= 1;
        }
    }
    for d in &mut dice {
        let mut v = d.value;
        if let Some(min) = g.min {
            v = v.max(min);
        }
        if let Some(max) = g.max {
            v = v.min(max);
        }
        if v != d.value {
            d.clamped_from = Some(d.value);
            d.value = v;
        }
    }
    if let Some(keep) = g.keep {
        let (n, highest) = keep.kept_of(dice.len());
        let mut order: Vec<usize> = (0..dice.len()).collect();
        // Ties keep the earlier die.
        if highest {
            order.sort_by(|&a, &b| dice[b].value.cmp(&dice[a].value).then(a.cmp(&b)));
        } else {
            order.sort_by(|&a, &b| dice[a].value.cmp(&dice[b].value).then(a.cmp(&b)));
        }
        for &i in order.iter().skip(n) {
            dice[i].kept = false;
        }
    }
    (dice, capped)
}

impl DiceRoll {
    /// One line a model reads: the expression, each die (dropped ones struck through, rerolls as
    /// `1→5`, a die that exploded marked `!`, min/max as `3 (rolled 1)`), the total, then the
    /// per-type totals, a natural 20/1 and any cap, e.g.
    /// `1d8[slashing] + 2d6[fire]: [5] slashing + [3, 6] fire = 14 (slashing 5, fire 9)`.
    pub fn summary(&self) -> String {
        let body = super::parse(&self.expression)
            .ok()
            .and_then(|expr| render(&expr, &self.terms))
            .unwrap_or_else(|| self.flat_render());
        let mut out = format!("{}: {} = {}", self.expression, body, self.total);
        if !self.by_type.is_empty() {
            let parts: Vec<String> = self
                .type_order()
                .into_iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            let _ = write!(out, " ({})", parts.join(", "));
        }
        if let Some(n) = self.natural {
            let _ = write!(out, " (natural {})", n.face());
        }
        if self.terms.iter().any(|t| t.capped) {
            out.push_str(" (reroll/explosion cap reached)");
        }
        out
    }

    /// The per-type totals as typed values, in order of first appearance (`None` = untyped).
    /// Without tags: one untyped entry holding the total.
    pub fn damage_by_type(&self) -> Vec<(Option<DamageType>, i64)> {
        if self.by_type.is_empty() {
            return vec![(None, self.total)];
        }
        self.type_order()
            .into_iter()
            .map(|(k, v)| (k.parse::<DamageType>().ok(), v))
            .collect()
    }

    /// `by_type` in order of first appearance among the terms.
    fn type_order(&self) -> Vec<(&str, i64)> {
        let mut keys: Vec<&str> = Vec::new();
        for t in &self.terms {
            let k = t.damage_type.map_or(UNTYPED, DamageType::key);
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        for k in self.by_type.keys() {
            if !keys.contains(&k.as_str()) {
                keys.push(k);
            }
        }
        keys.into_iter()
            .filter_map(|k| Some((k, *self.by_type.get(k)?)))
            .collect()
    }

    /// A fallback rendering when the expression cannot be re-read: terms joined by operators.
    fn flat_render(&self) -> String {
        let mut out = String::new();
        for t in &self.terms {
            if let Some(op) = t.op {
                let sym = match op {
                    TermOp::Add => "+",
                    TermOp::Sub => "-",
                    TermOp::Mul => "*",
                    TermOp::Div => "/",
                };
                if out.is_empty() {
                    out.push_str(sym);
                } else {
                    let _ = write!(out, " {sym} ");
                }
            }
            out.push_str(&term_text(t));
        }
        out
    }
}

/// The expression with each leaf replaced by its rolled text; `None` if terms do not match.
fn render(expr: &DiceExpr, terms: &[TermRoll]) -> Option<String> {
    let mut it = terms.iter();
    let mut ok = true;
    let mut out = String::new();
    write_addends(
        &expr.addends,
        &mut out,
        TagStyle::Word,
        &mut |leaf, out| match (leaf, it.next()) {
            (Leaf::Number(n), Some(t)) if t.dice.is_empty() && t.value == n => {
                let _ = write!(out, "{n}");
            }
            (Leaf::Dice(_), Some(t)) => out.push_str(&term_text(t)),
            _ => ok = false,
        },
    );
    (ok && it.next().is_none()).then_some(out)
}

/// `[6, 4, 3, ~~1~~]` for dice, the value for a constant.
fn term_text(t: &TermRoll) -> String {
    if t.dice.is_empty() {
        return t.value.to_string();
    }
    let parts: Vec<String> = t
        .dice
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let triggered = t.dice.get(i + 1).is_some_and(|next| next.exploded);
            die_text(d, triggered)
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

fn die_text(d: &DieRoll, triggered: bool) -> String {
    let raw = d.natural_face();
    let mut s = match d.replaced.len() {
        0 => raw.to_string(),
        1..=3 => {
            let mut chain: Vec<String> = d.replaced.iter().map(u32::to_string).collect();
            chain.push(raw.to_string());
            chain.join("→")
        }
        n => format!("{raw} (after {n} rerolls)"),
    };
    if d.clamped_from.is_some() {
        s = format!("{} (rolled {s})", d.value);
    }
    if triggered {
        s.push('!');
    }
    if !d.kept {
        s = format!("~~{s}~~");
    }
    s
}
