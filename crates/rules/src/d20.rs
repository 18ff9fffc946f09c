//! d20 tests: ability checks, skill checks, saving throws, attack rolls, initiative and
//! concentration saves, plus passive scores, contests and group checks.
//!
//! A roll is built from the creature's [`EffectiveStats`] and the caller's [`D20Request`] (extra
//! advantage or disadvantage with reasons, extra bonuses, the DC or AC). Advantage and
//! disadvantage are collected as sources; one of each cancels to a straight roll whatever the
//! counts. Automatic failure (paralyzed on a DEX save) fails without rolling.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::modifiers::{DiceCount, skill_name};
use crate::roller::DieRoller;
use crate::stats::{BonusDice, Contribution, EffectiveStats, RollMode, RollStat};
use crate::vocab::{Ability, Skill};

/// The kind of d20 test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "check", rename_all = "snake_case")]
pub enum D20Test {
    /// A raw ability check.
    AbilityCheck {
        /// The ability.
        ability: Ability,
    },
    /// A skill check.
    SkillCheck {
        /// The skill.
        skill: Skill,
    },
    /// A saving throw.
    Save {
        /// The ability.
        ability: Ability,
    },
    /// An attack roll; the target's AC is the DC.
    Attack {
        /// The ability the attack uses; absent when the caller gives the whole bonus (a stat
        /// block's to-hit).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ability: Option<Ability>,
        /// Whether the proficiency bonus applies.
        #[serde(default)]
        proficient: bool,
    },
    /// An initiative roll (a DEX check).
    Initiative,
    /// A Constitution save to keep concentration.
    Concentration,
    /// A death saving throw (see [`crate::damage::roll_death_save`]).
    DeathSave,
}

impl D20Test {
    /// "Stealth check", "Dexterity save", "Attack roll", …
    pub fn label(&self) -> String {
        match self {
            D20Test::AbilityCheck { ability } => format!("{} check", ability.name()),
            D20Test::SkillCheck { skill } => format!("{} check", skill_name(*skill)),
            D20Test::Save { ability } => format!("{} save", ability.name()),
            D20Test::Attack { .. } => "Attack roll".to_string(),
            D20Test::Initiative => "Initiative".to_string(),
            D20Test::Concentration => "Concentration save".to_string(),
            D20Test::DeathSave => "Death save".to_string(),
        }
    }

    /// Whether this is an attack roll.
    pub fn is_attack(&self) -> bool {
        matches!(self, D20Test::Attack { .. })
    }
}

/// What the caller adds to a d20 test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct D20Request {
    /// The test.
    pub test: D20Test,
    /// The DC (or the target's AC for an attack); absent for an open roll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dc: Option<i32>,
    /// Extra sources of advantage (reasons).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub advantage: Vec<String>,
    /// Extra sources of disadvantage (reasons).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disadvantage: Vec<String>,
    /// Extra flat bonuses with their sources (a magic weapon's +1, cover, a DM's +2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bonuses: Vec<Contribution>,
    /// Attacks: reasons a hit is automatically critical (paralyzed target within 5 ft).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub crit_on_hit: Vec<String>,
    /// Attacks: the lowest natural roll that crits (20 unless a feature says otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crit_threshold: Option<u32>,
    /// Reasons the roll fails without rolling (a blinded creature's sight-based check).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub auto_fail: Vec<String>,
    /// A label for the summary instead of the default ("Longsword attack").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

impl D20Request {
    /// A request for `test` with nothing extra.
    pub fn new(test: D20Test) -> Self {
        Self {
            test,
            dc: None,
            advantage: Vec::new(),
            disadvantage: Vec::new(),
            bonuses: Vec::new(),
            crit_on_hit: Vec::new(),
            crit_threshold: None,
            auto_fail: Vec::new(),
            label: None,
        }
    }

    /// Sets the DC (or AC).
    pub fn dc(mut self, dc: i32) -> Self {
        self.dc = Some(dc);
        self
    }

    /// Adds a source of advantage.
    pub fn advantage(mut self, reason: impl Into<String>) -> Self {
        self.advantage.push(reason.into());
        self
    }

    /// Adds a source of disadvantage.
    pub fn disadvantage(mut self, reason: impl Into<String>) -> Self {
        self.disadvantage.push(reason.into());
        self
    }

    /// Adds a flat bonus.
    pub fn bonus(mut self, source: impl Into<String>, delta: i32) -> Self {
        self.bonuses.push(Contribution::new(source, delta));
        self
    }

    /// Adds a flat bonus that is another number's part, as it is (a fixed label stays borrowed).
    pub fn bonus_part(mut self, part: &Contribution) -> Self {
        self.bonuses.push(part.clone());
        self
    }

    /// Adds a reason the roll fails without rolling.
    pub fn auto_fails(mut self, reason: impl Into<String>) -> Self {
        self.auto_fail.push(reason.into());
        self
    }

    /// Sets the summary label.
    pub fn labelled(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// For an attack: adds what the target's conditions and effects do to attacks against it
    /// (advantage, disadvantage, automatic crits), each reason prefixed with "target ".
    pub fn against(mut self, target: &EffectiveStats, within_5_ft: bool) -> Self {
        let (adv, dis, crit) = target.attacks_against.for_attacker(within_5_ft);
        self.advantage
            .extend(adv.into_iter().map(|s| format!("target {s}")));
        self.disadvantage
            .extend(dis.into_iter().map(|s| format!("target {s}")));
        self.crit_on_hit
            .extend(crit.into_iter().map(|s| format!("target {s}")));
        self
    }
}

/// Bonus dice as rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RolledDice {
    /// What granted them.
    pub source: String,
    /// The dice.
    pub dice: DiceCount,
    /// Each face.
    pub rolls: Vec<u32>,
    /// Their signed total (negative when subtracted).
    pub total: i32,
}

/// A natural 1 rerolled by a feature (Halfling Lucky): the new roll must be used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Reroll {
    /// Which of `rolls` was rerolled (its face is now the new roll).
    pub index: usize,
    /// The face before (always 1).
    pub was: u32,
    /// What allowed it ("Lucky").
    pub source: String,
}

/// The outcome of a d20 test: every die, the kept one, each modifier with its source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct D20Outcome {
    /// What was rolled ("Stealth check").
    pub label: String,
    /// The test.
    pub test: D20Test,
    /// Normal, advantage or disadvantage, after cancelling.
    pub mode: RollMode,
    /// Every source of advantage.
    pub advantage: Vec<String>,
    /// Every source of disadvantage.
    pub disadvantage: Vec<String>,
    /// The d20 faces rolled (empty when it failed automatically).
    pub rolls: Vec<u32>,
    /// The kept d20.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<u32>,
    /// A natural 1 rerolled (Lucky); `rolls` holds the new face (boxed: rare, and the outcome
    /// is carried inside larger answers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rerolled: Option<Box<Reroll>>,
    /// Flat modifiers with sources.
    pub modifiers: Vec<Contribution>,
    /// Sum of the flat modifiers.
    pub modifier_total: i32,
    /// Bonus dice rolled (Bless).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<RolledDice>,
    /// Kept d20 + modifiers + bonus dice; absent when it failed automatically.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<i32>,
    /// The DC (AC for attacks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dc: Option<i32>,
    /// Whether it succeeded (hit, for attacks); absent with no DC and no deciding natural roll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success: Option<bool>,
    /// Why it failed automatically, if it did.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub auto_fail: Vec<String>,
    /// The kept d20 is a 20 (a hit and crit for attacks; no automatic effect on checks/saves).
    pub natural_20: bool,
    /// The kept d20 is a 1 (a miss for attacks; no automatic effect on checks/saves).
    pub natural_1: bool,
    /// Attacks: a critical hit.
    pub critical: bool,
    /// Attacks: why the hit is critical (a natural 20 or an automatic-crit source).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub critical_reasons: Vec<String>,
}

fn signed(n: i32) -> String {
    if n < 0 {
        format!("- {}", n.abs())
    } else {
        format!("+ {n}")
    }
}

impl D20Outcome {
    /// One line for a model, e.g.
    /// "Stealth check: d20 [7, ~~15~~] (disadvantage: poisoned) + 5 = 12 vs DC 13 — fail".
    pub fn summary(&self) -> String {
        let mut s = format!("{}: ", self.label);
        let vs = match (self.dc, self.test.is_attack()) {
            (Some(dc), true) => format!(" vs AC {dc}"),
            (Some(dc), false) => format!(" vs DC {dc}"),
            (None, _) => String::new(),
        };
        if !self.auto_fail.is_empty() {
            let _ = write!(
                s,
                "automatic fail ({}){vs} — fail",
                self.auto_fail.join(", ")
            );
            return s;
        }
        // Dice, striking the discarded one.
        let mut struck = false;
        let faces: Vec<String> = self
            .rolls
            .iter()
            .enumerate()
            .map(|(i, &r)| {
                // A rerolled die shows its old face: "1→14".
                let face = match &self.rerolled {
                    Some(re) if re.index == i => format!("{}→{r}", re.was),
                    _ => r.to_string(),
                };
                if !struck && self.rolls.len() > 1 && Some(r) == self.kept {
                    // Keep the first occurrence of the kept value.
                    struck = true;
                    return face;
                }
                if self.rolls.len() > 1 {
                    format!("~~{face}~~")
                } else {
                    face
                }
            })
            .collect();
        let _ = write!(s, "d20 [{}]", faces.join(", "));
        if let Some(re) = &self.rerolled {
            // The feature's name without its origin: "Lucky (lightfoot halfling)" → "Lucky".
            let name = re.source.split(" (").next().unwrap_or(&re.source);
            let _ = write!(s, " ({name})");
        }
        let mut why = Vec::new();
        if !self.advantage.is_empty() {
            why.push(format!("advantage: {}", self.advantage.join(", ")));
        }
        if !self.disadvantage.is_empty() {
            why.push(format!("disadvantage: {}", self.disadvantage.join(", ")));
        }
        if !why.is_empty() {
            let cancel = if self.mode == RollMode::Normal {
                " — cancel"
            } else {
                ""
            };
            let _ = write!(s, " ({}{cancel})", why.join("; "));
        }
        if self.modifier_total != 0 {
            let _ = write!(s, " {}", signed(self.modifier_total));
        }
        for d in &self.dice {
            let faces: Vec<String> = d.rolls.iter().map(u32::to_string).collect();
            let sign = if d.total < 0 { "-" } else { "+" };
            let _ = write!(
                s,
                " {sign} {} [{}] ({})",
                d.dice,
                faces.join(", "),
                d.source
            );
        }
        if let Some(t) = self.total {
            let _ = write!(s, " = {t}");
        }
        s.push_str(&vs);
        let verdict = if self.test.is_attack() {
            match self.success {
                Some(true) if self.critical => Some("critical hit".to_string()),
                Some(true) => Some("hit".to_string()),
                Some(false) if self.natural_1 => Some("miss (natural 1)".to_string()),
                Some(false) => Some("miss".to_string()),
                None if self.natural_20 => Some("natural 20".to_string()),
                None => None,
            }
        } else {
            let nat = if self.natural_20 {
                " (natural 20)"
            } else if self.natural_1 {
                " (natural 1)"
            } else {
                ""
            };
            match self.success {
                Some(true) => Some(format!("success{nat}")),
                Some(false) => Some(format!("fail{nat}")),
                None if !nat.is_empty() => Some(nat.trim().trim_matches(['(', ')']).to_string()),
                None => None,
            }
        };
        if let Some(v) = verdict {
            let _ = write!(s, " — {v}");
        }
        if self.critical && !self.natural_20 && !self.critical_reasons.is_empty() {
            let _ = write!(s, " ({})", self.critical_reasons.join(", "));
        }
        s
    }
}

/// The sheet's parts of a test (flat bonus, dice, advantage, disadvantage, auto-fail).
pub fn roll_stat_for(stats: &EffectiveStats, test: &D20Test) -> RollStat {
    match test {
        D20Test::AbilityCheck { ability } => stats
            .ability_checks
            .get(ability)
            .cloned()
            .unwrap_or_default(),
        D20Test::SkillCheck { skill } => stats.skills.get(skill).cloned().unwrap_or_default(),
        D20Test::Save { ability } => stats.saves.get(ability).cloned().unwrap_or_default(),
        D20Test::Initiative => stats.initiative.clone(),
        D20Test::Concentration => stats.concentration.clone(),
        D20Test::DeathSave => stats.death_save.clone(),
        D20Test::Attack {
            ability,
            proficient,
        } => {
            let mut r = stats.attack.clone();
            let mut fixed = match ability {
                Some(a) => stats.attack_contributions(*a, *proficient),
                None if *proficient => {
                    vec![Contribution::new("proficiency", stats.proficiency_bonus)]
                }
                None => Vec::new(),
            };
            fixed.append(&mut r.sources);
            r.bonus = fixed.iter().fold(0i32, |t, c| t.saturating_add(c.delta));
            r.sources = fixed;
            r
        }
    }
}

fn roll_bonus_dice(dice: &[BonusDice], roller: &mut impl DieRoller) -> Vec<RolledDice> {
    dice.iter()
        .map(|d| {
            let rolls: Vec<u32> = (0..d.dice.count)
                .map(|_| roller.roll_die(d.dice.faces.max(1)))
                .collect();
            let sum = i32::try_from(rolls.iter().sum::<u32>()).unwrap_or(i32::MAX);
            RolledDice {
                source: d.source.clone(),
                dice: d.dice,
                rolls,
                total: if d.subtract { -sum } else { sum },
            }
        })
        .collect()
}

/// Builds and resolves a d20 test: collects advantage/disadvantage sources from the sheet and
/// the request (one of each cancels), rolls one or two d20, adds modifiers and bonus dice,
/// and compares with the DC. Saves the sheet marks as automatically failed fail without a roll.
/// Attacks: a natural 20 (or the crit threshold) hits and crits, a natural 1 misses, and a hit
/// with an automatic-crit reason is critical.
pub fn roll_d20_test(
    stats: &EffectiveStats,
    request: &D20Request,
    roller: &mut impl DieRoller,
) -> D20Outcome {
    let sheet = roll_stat_for(stats, &request.test);
    let mut advantage = sheet.advantage.clone();
    advantage.extend(request.advantage.iter().cloned());
    let mut disadvantage = sheet.disadvantage.clone();
    disadvantage.extend(request.disadvantage.iter().cloned());
    let mode = RollMode::from_flags(!advantage.is_empty(), !disadvantage.is_empty());
    let mut modifiers = sheet.sources.clone();
    modifiers.extend(request.bonuses.iter().cloned());
    let modifier_total: i32 = modifiers
        .iter()
        .fold(0i32, |t, c| t.saturating_add(c.delta));
    let mut out = D20Outcome {
        label: request
            .label
            .clone()
            .unwrap_or_else(|| request.test.label()),
        test: request.test,
        mode,
        advantage,
        disadvantage,
        rolls: Vec::new(),
        kept: None,
        rerolled: None,
        modifiers,
        modifier_total,
        dice: Vec::new(),
        total: None,
        dc: request.dc,
        success: None,
        auto_fail: sheet
            .auto_fail
            .iter()
            .chain(&request.auto_fail)
            .cloned()
            .collect(),
        natural_20: false,
        natural_1: false,
        critical: false,
        critical_reasons: Vec::new(),
    };
    if !out.auto_fail.is_empty() {
        out.success = Some(false);
        return out;
    }
    let first = roller.roll_die(20);
    out.rolls = vec![first];
    if mode != RollMode::Normal {
        out.rolls.push(roller.roll_die(20));
    }
    let keep = |rolls: &[u32]| {
        let it = rolls.iter().copied();
        if mode == RollMode::Advantage {
            it.max().unwrap_or(1)
        } else {
            it.min().unwrap_or(1)
        }
    };
    let mut kept = keep(&out.rolls);
    // Lucky: a kept natural 1 is rerolled once and the new roll stands (with advantage a 1 is
    // only kept when both dice are 1; one die is rerolled).
    if kept == 1
        && let Some(source) = sheet.reroll_ones.first()
        && let Some(index) = out.rolls.iter().position(|&r| r == 1)
    {
        out.rolls[index] = roller.roll_die(20);
        out.rerolled = Some(Box::new(Reroll {
            index,
            was: 1,
            source: source.clone(),
        }));
        kept = keep(&out.rolls);
    }
    out.kept = Some(kept);
    out.natural_20 = kept == 20;
    out.natural_1 = kept == 1;
    out.dice = roll_bonus_dice(&sheet.dice, roller);
    // Saturating: a caller's bonus never wraps a total around (the MCP layer also bounds it).
    let total = i32::try_from(kept)
        .unwrap_or(20)
        .saturating_add(modifier_total)
        .saturating_add(out.dice.iter().fold(0i32, |t, d| t.saturating_add(d.total)));
    out.total = Some(total);
    let meets = request.dc.map(|dc| total >= dc);
    if request.test.is_attack() {
        let threshold = request.crit_threshold.unwrap_or(20).clamp(2, 20);
        if kept == 1 {
            out.success = Some(false);
        } else if kept >= threshold {
            out.success = Some(true);
            out.critical = true;
            out.critical_reasons.push(format!("natural {kept}"));
        } else {
            out.success = meets;
        }
        if out.success == Some(true) && !request.crit_on_hit.is_empty() {
            out.critical = true;
            out.critical_reasons
                .extend(request.crit_on_hit.iter().cloned());
        }
    } else {
        out.success = meets;
    }
    out
}

/// A passive score: 10 + the test's flat modifier, +5 with advantage, −5 with disadvantage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PassiveScore {
    /// "Passive Perception".
    pub label: String,
    /// The score.
    pub value: i32,
    /// Its parts after the base 10 (modifiers, and ±5 for advantage/disadvantage).
    pub modifiers: Vec<Contribution>,
    /// Advantage or disadvantage, after cancelling.
    pub mode: RollMode,
    /// The DC it is compared with, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dc: Option<i32>,
    /// Whether it meets the DC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success: Option<bool>,
}

impl PassiveScore {
    /// "Passive Perception: 10 + 4 - 5 (disadvantage: poisoned) = 9 vs DC 10 — fail".
    pub fn summary(&self) -> String {
        let mut s = format!("{}: 10", self.label);
        for c in &self.modifiers {
            if c.source.starts_with("advantage") || c.source.starts_with("disadvantage") {
                let _ = write!(s, " {} ({})", signed(c.delta), c.source);
            } else {
                let _ = write!(s, " {}", signed(c.delta));
            }
        }
        let _ = write!(s, " = {}", self.value);
        if let Some(dc) = self.dc {
            let _ = write!(s, " vs DC {dc}");
        }
        match self.success {
            Some(true) => s.push_str(" — success"),
            Some(false) => s.push_str(" — fail"),
            None => {}
        }
        s
    }
}

/// The passive score of a check (10 + modifier, ±5 for advantage/disadvantage after
/// cancelling); bonus dice are not counted.
pub fn passive_score(stats: &EffectiveStats, request: &D20Request) -> PassiveScore {
    let sheet = roll_stat_for(stats, &request.test);
    let mut modifiers = sheet.sources.clone();
    modifiers.extend(request.bonuses.iter().cloned());
    let mut adv = sheet.advantage.clone();
    adv.extend(request.advantage.iter().cloned());
    let mut dis = sheet.disadvantage.clone();
    dis.extend(request.disadvantage.iter().cloned());
    let mode = RollMode::from_flags(!adv.is_empty(), !dis.is_empty());
    match mode {
        RollMode::Advantage => modifiers.push(Contribution::new(
            format!("advantage: {}", adv.join(", ")),
            5,
        )),
        RollMode::Disadvantage => {
            modifiers.push(Contribution::new(
                format!("disadvantage: {}", dis.join(", ")),
                -5,
            ));
        }
        RollMode::Normal => {}
    }
    let value = modifiers
        .iter()
        .fold(10i32, |t, c| t.saturating_add(c.delta));
    let label = request.label.clone().unwrap_or_else(|| {
        let l = request.test.label();
        format!("Passive {}", l.trim_end_matches(" check"))
    });
    PassiveScore {
        label,
        value,
        modifiers,
        mode,
        dc: request.dc,
        success: request.dc.map(|dc| value >= dc),
    }
}

/// Who wins a contest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ContestWinner {
    /// The first contestant (usually the one acting).
    First,
    /// The second contestant.
    Second,
    /// Equal totals: the situation stays as it was.
    Tie,
}

/// The outcome of a contest: both rolls and the winner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContestOutcome {
    /// The first contestant's roll.
    pub first: D20Outcome,
    /// The second contestant's roll.
    pub second: D20Outcome,
    /// Who won.
    pub winner: ContestWinner,
}

impl ContestOutcome {
    /// "Athletics check 15 vs Acrobatics check 12 — first wins" (ties keep the status quo).
    pub fn summary(&self) -> String {
        let t = |o: &D20Outcome| {
            o.total
                .map_or("automatic fail".to_string(), |t| t.to_string())
        };
        let verdict = match self.winner {
            ContestWinner::First => "first wins",
            ContestWinner::Second => "second wins",
            ContestWinner::Tie => "tie, nothing changes",
        };
        format!(
            "{} {} vs {} {} — {verdict}\n  {}\n  {}",
            self.first.label,
            t(&self.first),
            self.second.label,
            t(&self.second),
            self.first.summary(),
            self.second.summary()
        )
    }
}

/// Rolls a contest: both sides roll (DCs are ignored), the higher total wins, a tie keeps the
/// status quo. A side that fails automatically loses (both: tie).
pub fn roll_contest(
    first: (&EffectiveStats, &D20Request),
    second: (&EffectiveStats, &D20Request),
    roller: &mut impl DieRoller,
) -> ContestOutcome {
    let strip = |r: &D20Request| D20Request {
        dc: None,
        ..r.clone()
    };
    let a = roll_d20_test(first.0, &strip(first.1), roller);
    let b = roll_d20_test(second.0, &strip(second.1), roller);
    let winner = match (a.total, b.total) {
        (Some(x), Some(y)) if x > y => ContestWinner::First,
        (Some(x), Some(y)) if x < y => ContestWinner::Second,
        (Some(_), None) => ContestWinner::First,
        (None, Some(_)) => ContestWinner::Second,
        _ => ContestWinner::Tie,
    };
    ContestOutcome {
        first: a,
        second: b,
        winner,
    }
}

/// The outcome of a group check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct GroupOutcome {
    /// Each member's roll.
    pub outcomes: Vec<D20Outcome>,
    /// How many succeeded.
    pub successes: usize,
    /// Whether at least half succeeded.
    pub success: bool,
}

impl GroupOutcome {
    /// "Group check: 2 of 4 succeed — success", then each roll.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "Group check: {} of {} succeed — {}",
            self.successes,
            self.outcomes.len(),
            if self.success { "success" } else { "fail" }
        );
        for o in &self.outcomes {
            let _ = write!(s, "\n  {}", o.summary());
        }
        s
    }
}

/// Combines members' rolls into a group check: it succeeds when at least half succeed
/// (a roll with no DC counts as a failure; an empty group fails).
pub fn group_check(outcomes: Vec<D20Outcome>) -> GroupOutcome {
    let successes = outcomes.iter().filter(|o| o.success == Some(true)).count();
    let success = !outcomes.is_empty() && successes * 2 >= outcomes.len();
    GroupOutcome {
        outcomes,
        successes,
        success,
    }
}

#[cfg(test)]
mod tests;
