//! Numbers that explain themselves: a [`Stat`] or a d20 [`RollStat`] keeps every labelled
//! [`Contribution`] from its base to its value, so a sheet can say why AC is 18 or why a save
//! has disadvantage. The sheet pipeline ([`crate::stats`]) fills them; d20 tests read them.

use std::borrow::Cow;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::modifiers::DiceCount;

/// One labelled change to a number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Contribution {
    /// What causes it (a fixed label such as "proficiency" is borrowed, not allocated: a sheet
    /// holds dozens of them).
    pub source: Cow<'static, str>,
    /// How much it changes the number.
    pub delta: i32,
}

impl Contribution {
    /// A contribution of `delta` from `source`.
    pub fn new(source: impl Into<String>, delta: i32) -> Self {
        Self {
            source: Cow::Owned(source.into()),
            delta,
        }
    }

    /// A contribution of `delta` from a fixed label (no allocation).
    pub fn fixed(source: &'static str, delta: i32) -> Self {
        Self {
            source: Cow::Borrowed(source),
            delta,
        }
    }
}

/// Formats contributions as "+3 (DEX modifier) + 2 (proficiency)".
pub fn explain_contributions(items: &[Contribution]) -> String {
    let mut s = String::new();
    for (i, c) in items.iter().enumerate() {
        let sign = if c.delta < 0 { "-" } else { "+" };
        if i == 0 {
            let _ = write!(
                s,
                "{}{} ({})",
                if c.delta < 0 { "-" } else { "" },
                c.delta.abs(),
                c.source
            );
        } else {
            let _ = write!(s, " {sign} {} ({})", c.delta.abs(), c.source);
        }
    }
    s
}

/// A number with its base value and every change to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Stat {
    /// The value before modifiers.
    pub base: i32,
    /// What the base value comes from, when it has a named source ("chain mail").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_source: Option<String>,
    /// The effective value.
    pub value: i32,
    /// The changes from base to value, in order.
    pub sources: Vec<Contribution>,
}

impl Stat {
    pub(crate) fn new(base: i32) -> Self {
        Self {
            base,
            base_source: None,
            value: base,
            sources: Vec::new(),
        }
    }

    pub(crate) fn add(&mut self, source: impl Into<String>, delta: i32) {
        if delta != 0 {
            self.value += delta;
            self.sources.push(Contribution::new(source, delta));
        }
    }

    /// [`Self::add`] with a copy of another number's part (a fixed label stays borrowed).
    pub(crate) fn add_contribution(&mut self, c: &Contribution) {
        if c.delta != 0 {
            self.value += c.delta;
            self.sources.push(c.clone());
        }
    }

    pub(crate) fn set(&mut self, source: impl Into<String>, value: i32) {
        let delta = value - self.value;
        self.add(source, delta);
    }

    /// "18 = 16 base + 1 (Ring of Protection) + 1 (shield of faith)".
    pub fn explain(&self) -> String {
        let mut s = match &self.base_source {
            Some(src) => format!("{} = {} ({src})", self.value, self.base),
            None => format!("{} = {} base", self.value, self.base),
        };
        for c in &self.sources {
            let _ = write!(
                s,
                " {} {} ({})",
                if c.delta < 0 { "-" } else { "+" },
                c.delta.abs(),
                c.source
            );
        }
        s
    }
}

/// An ability score after modifiers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AbilityValue {
    /// The stored score.
    pub base: u8,
    /// The effective score (1–30).
    pub value: u8,
    /// The effective modifier.
    pub modifier: i32,
    /// The changes from base to value.
    pub sources: Vec<Contribution>,
}

/// Dice added to (or subtracted from) a roll, with their source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct BonusDice {
    /// What grants them ("Bless").
    pub source: String,
    /// The dice.
    pub dice: DiceCount,
    /// Subtract instead of add (Bane).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub subtract: bool,
}

/// Whether a d20 is rolled once, or twice keeping the higher or lower.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RollMode {
    /// One d20.
    #[default]
    Normal,
    /// Two d20, keep the higher.
    Advantage,
    /// Two d20, keep the lower.
    Disadvantage,
}

impl RollMode {
    /// The mode from whether any advantage and any disadvantage apply: one of each cancels,
    /// whatever the counts.
    pub fn from_flags(advantage: bool, disadvantage: bool) -> Self {
        match (advantage, disadvantage) {
            (true, false) => RollMode::Advantage,
            (false, true) => RollMode::Disadvantage,
            _ => RollMode::Normal,
        }
    }
}

/// Everything that shapes one kind of d20 roll: the flat bonus and its sources, bonus dice,
/// advantage and disadvantage sources, and automatic failure.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RollStat {
    /// The flat modifier.
    pub bonus: i32,
    /// Its parts.
    pub sources: Vec<Contribution>,
    /// Dice added to the roll.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<BonusDice>,
    /// Sources of advantage.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub advantage: Vec<String>,
    /// Sources of disadvantage.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disadvantage: Vec<String>,
    /// Sources that reroll a natural 1 once (Lucky); the new roll stands.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reroll_ones: Vec<String>,
    /// Sources of automatic failure (saves only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub auto_fail: Vec<String>,
}

impl RollStat {
    pub(crate) fn add(&mut self, source: impl Into<String>, delta: i32) {
        self.bonus += delta;
        self.sources.push(Contribution::new(source, delta));
    }

    /// [`Self::add`] with a fixed label.
    pub(crate) fn add_fixed(&mut self, source: &'static str, delta: i32) {
        self.bonus += delta;
        self.sources.push(Contribution::fixed(source, delta));
    }

    /// The mode the sheet alone gives (before a caller's extra flags).
    pub fn mode(&self) -> RollMode {
        RollMode::from_flags(!self.advantage.is_empty(), !self.disadvantage.is_empty())
    }

    /// "+5 = +3 (DEX modifier) + 2 (proficiency); +1d4 (Bless); disadvantage: poisoned".
    pub fn explain(&self) -> String {
        let mut s = format!("{:+}", self.bonus);
        if !self.sources.is_empty() {
            let _ = write!(s, " = {}", explain_contributions(&self.sources));
        }
        for d in &self.dice {
            let _ = write!(
                s,
                "; {}{} ({})",
                if d.subtract { "-" } else { "+" },
                d.dice,
                d.source
            );
        }
        if !self.advantage.is_empty() {
            let _ = write!(s, "; advantage: {}", self.advantage.join(", "));
        }
        if !self.disadvantage.is_empty() {
            let _ = write!(s, "; disadvantage: {}", self.disadvantage.join(", "));
        }
        if !self.auto_fail.is_empty() {
            let _ = write!(s, "; automatically fails: {}", self.auto_fail.join(", "));
        }
        s
    }
}
