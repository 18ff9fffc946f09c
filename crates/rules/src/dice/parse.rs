//! The parser: text → [`DiceExpr`], with every limit and modifier checked.
//!
//! Grammar (whitespace allowed between tokens, letters case-insensitive):
//! ```text
//! expr     := term (('+' | '-') term)*
//! term     := unary (('*' | '/') unary)*
//! unary    := ('-' | '+') unary | postfix
//! postfix  := primary tag?
//! primary  := number | dice | '(' expr ')'
//! dice     := number? 'd' (number | '%') modifier*
//! modifier := ('kh' | 'kl' | 'k' | 'dh' | 'dl') number?
//!           | ('r' | 'ro' | 'rr') selector | ('!' | 'e') selector?
//!           | ('min' | 'mi' | 'max' | 'ma') number
//! selector := ('=' | '<' | '>' | '<=' | '>=')? number
//! tag      := '[' damage-type ']'
//! ```

use std::str::FromStr;

use super::expr::{
    Addend, BinOp, Compare, DiceExpr, DiceGroup, Explode, Expr, Keep, Reroll, Selector,
};
use super::{DiceError, MAX_DICE, MAX_EXPRESSION_CHARS, MAX_FACES, MAX_NESTING};
use crate::DamageType;

/// Parses dice notation (see the [module docs](super)) into a validated expression.
///
/// ```
/// use tabletop_rules::dice::parse;
/// assert_eq!(parse("4D6 kh 3").unwrap().normalized(), "4d6kh3");
/// assert!(parse("2d6x").unwrap_err().to_string().contains("position 4"));
/// ```
pub fn parse(input: &str) -> Result<DiceExpr, DiceError> {
    let chars: Vec<char> = input.chars().collect();
    let length = chars.len();
    if length > MAX_EXPRESSION_CHARS {
        // Canonical text can be longer than what was typed (`d%` becomes `1d100`, operators get
        // spaces); accept it back so that parsing `normalized()` always round-trips.
        if length <= MAX_CANONICAL_CHARS
            && let Ok(expr) = parse_chars(input, chars)
            && expr.normalized() == input
        {
            return Ok(expr);
        }
        return Err(DiceError::TooLong { length });
    }
    parse_chars(input, chars)
}

/// The longest canonical text accepted back: a generous bound on how much normalizing can
/// lengthen a [`MAX_EXPRESSION_CHARS`]-character input (at most about 2.7×).
const MAX_CANONICAL_CHARS: usize = 4 * MAX_EXPRESSION_CHARS;

fn parse_chars(input: &str, chars: Vec<char>) -> Result<DiceExpr, DiceError> {
    if chars.iter().all(|c| c.is_whitespace()) {
        return Err(DiceError::Empty);
    }
    let mut p = Parser {
        input,
        chars,
        pos: 0,
        depth: 0,
        last: Last::Number,
    };
    let raw = p.expr()?;
    p.skip_ws();
    if p.peek().is_some() {
        let expected = if p.peek() == Some(')') {
            "an operator (+ - * /); this ')' has no matching '('".to_string()
        } else {
            p.last.expected().to_string()
        };
        return Err(p.unexpected(expected));
    }
    let mut addends = Vec::new();
    lower(raw, false, &mut addends, input)?;
    let expr = DiceExpr { addends };
    expr.check_limits(input)?;
    Ok(expr)
}

/// The parse tree before tags are lifted to the top-level sum.
enum Raw {
    Number(i64),
    Dice(DiceGroup),
    Neg(Box<Raw>),
    Binary(BinOp, Box<Raw>, Box<Raw>),
    Tagged {
        tag: DamageType,
        position: usize,
        inner: Box<Raw>,
    },
}

/// Flattens the additive spine of `raw` (sums, differences, negations) into signed addends.
fn lower(raw: Raw, negative: bool, out: &mut Vec<Addend>, input: &str) -> Result<(), DiceError> {
    match raw {
        Raw::Binary(BinOp::Add, l, r) => {
            lower(*l, negative, out, input)?;
            lower(*r, negative, out, input)
        }
        Raw::Binary(BinOp::Sub, l, r) => {
            lower(*l, negative, out, input)?;
            lower(*r, !negative, out, input)
        }
        Raw::Neg(inner) => lower(*inner, !negative, out, input),
        Raw::Tagged { tag, inner, .. } => {
            out.push(Addend {
                negative,
                tag: Some(tag),
                body: strip(*inner, input)?,
            });
            Ok(())
        }
        other => {
            out.push(Addend {
                negative,
                tag: None,
                body: strip(other, input)?,
            });
            Ok(())
        }
    }
}

/// Converts a subtree that must not contain tags.
fn strip(raw: Raw, input: &str) -> Result<Expr, DiceError> {
    Ok(match raw {
        Raw::Number(n) => Expr::Number(n),
        Raw::Dice(g) => Expr::Dice(g),
        Raw::Neg(inner) => Expr::Neg(Box::new(strip(*inner, input)?)),
        Raw::Binary(op, l, r) => {
            Expr::Binary(op, Box::new(strip(*l, input)?), Box::new(strip(*r, input)?))
        }
        Raw::Tagged { tag, position, .. } => {
            return Err(DiceError::MisplacedTag {
                input: input.to_string(),
                position,
                tag: tag.key().to_string(),
            });
        }
    })
}

/// What the last complete operand ended with, to say what may follow it.
#[derive(Clone, Copy)]
enum Last {
    Number,
    Dice,
    Group,
    Tag,
}

impl Last {
    fn expected(self) -> &'static str {
        match self {
            Last::Number => {
                "an operator (+ - * /), a damage tag such as [fire], or 'd' right after the number for dice (2d6)"
            }
            Last::Dice => "an operator (+ - * /) or a modifier such as kh1, r1, !, min2, [fire]",
            Last::Group => "an operator (+ - * /) or a damage tag such as [fire]",
            Last::Tag => "an operator (+ - * /); a term takes one damage tag",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mod {
    KeepHigh,
    KeepLow,
    DropHigh,
    DropLow,
    RerollOnce,
    RerollRepeat,
    Explode,
    Min,
    Max,
}

/// Modifier keywords, longest first so that `min` wins over `mi` and `rr` over `r`.
const KEYWORDS: &[(&str, Mod)] = &[
    ("min", Mod::Min),
    ("max", Mod::Max),
    ("mi", Mod::Min),
    ("ma", Mod::Max),
    ("kh", Mod::KeepHigh),
    ("kl", Mod::KeepLow),
    ("dh", Mod::DropHigh),
    ("dl", Mod::DropLow),
    ("rr", Mod::RerollRepeat),
    ("ro", Mod::RerollOnce),
    ("k", Mod::KeepHigh),
    ("r", Mod::RerollOnce),
    ("e", Mod::Explode),
    ("!", Mod::Explode),
];

struct Parser<'a> {
    input: &'a str,
    chars: Vec<char>,
    /// 0-based index of the next character.
    pos: usize,
    /// Current nesting of parentheses and unary signs.
    depth: usize,
    last: Last,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).map(|c| c.to_ascii_lowercase())
    }

    fn skip_ws(&mut self) {
        while self.chars.get(self.pos).is_some_and(|c| c.is_whitespace()) {
            self.pos += 1;
        }
    }

    /// Whether the (lower-cased) text at the cursor starts with `word`.
    fn looking_at(&self, word: &str) -> bool {
        let mut i = self.pos;
        for w in word.chars() {
            match self.chars.get(i) {
                Some(c) if c.to_ascii_lowercase() == w => i += 1,
                _ => return false,
            }
        }
        true
    }

    fn unexpected(&self, expected: impl Into<String>) -> DiceError {
        DiceError::Unexpected {
            input: self.input.to_string(),
            position: self.pos + 1,
            found: self.chars.get(self.pos).copied(),
            expected: expected.into(),
        }
    }

    /// Reads ASCII digits as a number, saturating; `None` when there are none.
    fn digits(&mut self) -> Option<u64> {
        let start = self.pos;
        let mut n: u64 = 0;
        while let Some(d) = self.chars.get(self.pos).and_then(|c| c.to_digit(10)) {
            n = n.saturating_mul(10).saturating_add(u64::from(d));
            self.pos += 1;
        }
        (self.pos > start).then_some(n)
    }

    fn enter(&mut self) -> Result<(), DiceError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(DiceError::TooDeep {
                input: self.input.to_string(),
                position: self.pos + 1,
                found: self.chars.get(self.pos).copied().unwrap_or('('),
            });
        }
        Ok(())
    }

    fn expr(&mut self) -> Result<Raw, DiceError> {
        let mut lhs = self.term()?;
        loop {
            self.skip_ws();
            let op = match self.peek() {
                Some('+') => BinOp::Add,
                Some('-') => BinOp::Sub,
                _ => return Ok(lhs),
            };
            self.pos += 1;
            let rhs = self.term()?;
            lhs = Raw::Binary(op, Box::new(lhs), Box::new(rhs));
        }
    }

    fn term(&mut self) -> Result<Raw, DiceError> {
        let mut lhs = self.unary()?;
        loop {
            self.skip_ws();
            let op = match self.peek() {
                Some('*') => BinOp::Mul,
                Some('/') => BinOp::Div,
                _ => return Ok(lhs),
            };
            self.pos += 1;
            let rhs = self.unary()?;
            lhs = Raw::Binary(op, Box::new(lhs), Box::new(rhs));
        }
    }

    fn unary(&mut self) -> Result<Raw, DiceError> {
        self.skip_ws();
        match self.peek() {
            Some(sign @ ('-' | '+')) => {
                self.enter()?;
                self.pos += 1;
                let inner = self.unary()?;
                self.depth -= 1;
                Ok(if sign == '-' {
                    Raw::Neg(Box::new(inner))
                } else {
                    inner
                })
            }
            _ => self.postfix(),
        }
    }

    fn postfix(&mut self) -> Result<Raw, DiceError> {
        let inner = self.primary()?;
        self.skip_ws();
        if self.peek() != Some('[') {
            return Ok(inner);
        }
        let open = self.pos;
        let Some(len) = self.chars[open + 1..].iter().position(|&c| c == ']') else {
            return Err(DiceError::UnclosedTag {
                input: self.input.to_string(),
                position: open + 1,
            });
        };
        let name: String = self.chars[open + 1..open + 1 + len].iter().collect();
        self.pos = open + len + 2;
        let tag =
            DamageType::from_str(name.trim()).map_err(|unknown| DiceError::UnknownDamageType {
                input: self.input.to_string(),
                position: open + 1,
                unknown,
            })?;
        self.last = Last::Tag;
        Ok(Raw::Tagged {
            tag,
            position: open + 1,
            inner: Box::new(inner),
        })
    }

    fn primary(&mut self) -> Result<Raw, DiceError> {
        self.skip_ws();
        let start = self.pos;
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                let n = self.digits().unwrap_or(0);
                if self.peek() == Some('d') {
                    return self.dice(n, start);
                }
                let n = i64::try_from(n).map_err(|_| DiceError::NumberTooLarge {
                    input: self.input.to_string(),
                    position: start + 1,
                })?;
                self.last = Last::Number;
                Ok(Raw::Number(n))
            }
            Some('d') => self.dice(1, start),
            Some('(') => {
                self.enter()?;
                self.pos += 1;
                let inner = self.expr()?;
                self.skip_ws();
                match self.peek() {
                    Some(')') => {
                        self.pos += 1;
                        self.depth -= 1;
                        self.last = Last::Group;
                        Ok(inner)
                    }
                    None => Err(DiceError::UnclosedParen {
                        input: self.input.to_string(),
                        position: start + 1,
                    }),
                    Some(_) => Err(self.unexpected(format!("{}, or ')'", self.last.expected()))),
                }
            }
            _ => Err(self.unexpected("a number, a die such as d6, '(' or '-'")),
        }
    }

    /// Parses `d…` and its modifiers; the cursor is on the `d`.
    fn dice(&mut self, count: u64, start: usize) -> Result<Raw, DiceError> {
        let d_pos = self.pos;
        self.pos += 1;
        let faces = if self.peek() == Some('%') {
            self.pos += 1;
            100
        } else {
            self.digits().ok_or_else(|| {
                self.unexpected("the number of faces after 'd', e.g. d6, d20 or d%")
            })?
        };
        if count == 0 {
            return Err(DiceError::NoDice {
                input: self.input.to_string(),
                position: start + 1,
            });
        }
        if count > u64::from(MAX_DICE) {
            return Err(DiceError::TooManyDice {
                input: self.input.to_string(),
                count,
            });
        }
        if faces == 0 || faces > u64::from(MAX_FACES) {
            return Err(DiceError::BadFaces {
                input: self.input.to_string(),
                position: d_pos + 1,
                faces,
            });
        }
        // Both fit: checked against MAX_DICE and MAX_FACES above.
        let mut group = DiceGroup {
            count: count as u32,
            faces: faces as u32,
            reroll: None,
            explode: None,
            min: None,
            max: None,
            keep: None,
        };
        self.modifiers(&mut group)?;
        self.last = Last::Dice;
        Ok(Raw::Dice(group))
    }

    fn modifiers(&mut self, g: &mut DiceGroup) -> Result<(), DiceError> {
        loop {
            self.skip_ws();
            let start = self.pos;
            let Some(&(word, kind)) = KEYWORDS.iter().find(|(w, _)| self.looking_at(w)) else {
                break;
            };
            self.pos += word.len();
            let problem = |p: &Self, problem: String| DiceError::BadModifier {
                input: p.input.to_string(),
                position: start + 1,
                modifier: p.chars[start..p.pos].iter().collect::<String>(),
                problem,
            };
            let duplicate = |p: &Self, what: &str| {
                problem(
                    p,
                    format!("repeats the {what} of this dice group; give it once"),
                )
            };
            match kind {
                Mod::KeepHigh | Mod::KeepLow | Mod::DropHigh | Mod::DropLow => {
                    self.skip_ws();
                    let n = self.digits().unwrap_or(1);
                    if g.keep.is_some() {
                        return Err(duplicate(self, "keep/drop"));
                    }
                    if n == 0 || n > u64::from(g.count) {
                        let verb = if matches!(kind, Mod::KeepHigh | Mod::KeepLow) {
                            "keeps"
                        } else {
                            "drops"
                        };
                        return Err(problem(
                            self,
                            format!(
                                "{verb} {n} dice but {}d{} rolls {}; use a count from 1 to {}",
                                g.count, g.faces, g.count, g.count
                            ),
                        ));
                    }
                    let n = n as u32; // ≤ count ≤ MAX_DICE
                    g.keep = Some(match kind {
                        Mod::KeepHigh => Keep::High(n),
                        Mod::KeepLow => Keep::Low(n),
                        Mod::DropHigh => Keep::DropHigh(n),
                        _ => Keep::DropLow(n),
                    });
                }
                Mod::RerollOnce | Mod::RerollRepeat => {
                    let Some(when) = self.selector()? else {
                        return Err(problem(
                            self,
                            "needs the faces to reroll, e.g. r1, r<3, r=2 or rr1".to_string(),
                        ));
                    };
                    if g.reroll.is_some() {
                        return Err(duplicate(self, "reroll"));
                    }
                    let repeat = kind == Mod::RerollRepeat;
                    if repeat && g.faces == 1 {
                        return Err(problem(
                            self,
                            "cannot reroll a d1: its one face would come up forever; remove the reroll (a d1 always shows 1)".to_string(),
                        ));
                    }
                    if repeat && when.matches_all(g.faces) {
                        return Err(problem(
                            self,
                            format!(
                                "matches every face of a d{}, so the rerolls would never stop; choose faces that leave at least one result, e.g. rr1",
                                g.faces
                            ),
                        ));
                    }
                    g.reroll = Some(Reroll { repeat, when });
                }
                Mod::Explode => {
                    let when = self.selector()?;
                    if g.explode.is_some() {
                        return Err(duplicate(self, "explosion"));
                    }
                    let explode = Explode { when };
                    if g.faces == 1 {
                        return Err(problem(
                            self,
                            "cannot explode a d1: its one face would explode forever; remove the explosion (a d1 always shows 1)".to_string(),
                        ));
                    }
                    if (1..=g.faces).all(|f| explode.matches(f, g.faces)) {
                        return Err(problem(
                            self,
                            format!(
                                "explodes on every face of a d{}, so it would never stop; explode on fewer faces, e.g. !>{}",
                                g.faces,
                                g.faces.saturating_sub(1).max(1)
                            ),
                        ));
                    }
                    g.explode = Some(explode);
                }
                Mod::Min | Mod::Max => {
                    self.skip_ws();
                    let name = if kind == Mod::Min { "min" } else { "max" };
                    let Some(n) = self.digits() else {
                        return Err(problem(
                            self,
                            format!("needs a number, e.g. {name}2 (a per-die {name}imum)"),
                        ));
                    };
                    let slot = if kind == Mod::Min { &g.min } else { &g.max };
                    if slot.is_some() {
                        return Err(duplicate(self, name));
                    }
                    if n == 0 || n > u64::from(g.faces) {
                        return Err(problem(
                            self,
                            format!(
                                "is outside the faces of a d{}; use {name}1 to {name}{}",
                                g.faces, g.faces
                            ),
                        ));
                    }
                    let n = n as u32; // ≤ faces ≤ MAX_FACES
                    if kind == Mod::Min {
                        g.min = Some(n);
                    } else {
                        g.max = Some(n);
                    }
                    if let (Some(lo), Some(hi)) = (g.min, g.max)
                        && lo > hi
                    {
                        return Err(problem(
                            self,
                            format!(
                                "conflicts: min{lo} is above max{hi}, so no face fits; lower min or raise max"
                            ),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// An optional selector: `N`, `=N`, `<N`, `>N`, `<=N` or `>=N`.
    fn selector(&mut self) -> Result<Option<Selector>, DiceError> {
        self.skip_ws();
        let cmp = [
            ("<=", Compare::Le),
            (">=", Compare::Ge),
            ("<", Compare::Lt),
            (">", Compare::Gt),
            ("=", Compare::Eq),
        ]
        .into_iter()
        .find(|(w, _)| self.looking_at(w));
        let cmp = match cmp {
            Some((w, cmp)) => {
                self.pos += w.len();
                self.skip_ws();
                Some(cmp)
            }
            None => None,
        };
        match (self.digits(), cmp) {
            (Some(n), cmp) => Ok(Some(Selector {
                cmp: cmp.unwrap_or(Compare::Eq),
                value: u32::try_from(n).unwrap_or(u32::MAX),
            })),
            (None, Some(_)) => {
                Err(self.unexpected("a face number after the comparison, e.g. r<3 or !>5"))
            }
            (None, None) => Ok(None),
        }
    }
}
