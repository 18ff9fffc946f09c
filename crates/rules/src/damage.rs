//! Damage, healing, temporary hit points, death saves and the concentration DC.
//!
//! The damage pipeline, per damage type: immunity → 0, resistance → half (rounded down), then
//! vulnerability → double; temporary hit points absorb first; then hit points, not below 0.
//! Massive damage (what remains after reaching 0 is at least the maximum) kills outright.
//! Creatures that die at 0 do; player characters fall unconscious and make death saves, and
//! damage at 0 HP is a death-save failure (two on a critical hit).

use std::fmt;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::d20::{D20Outcome, D20Request, D20Test, roll_d20_test};
pub use crate::defenses::{DamageDefenses, Defense};
use crate::roller::DieRoller;
use crate::stats::EffectiveStats;
use crate::vocab::{CharacterType, Condition, DamageType};

/// Death-save successes or failures needed to stabilise or die.
pub const DEATH_SAVES_NEEDED: u8 = 3;

/// Why a damage, healing or death-save call cannot proceed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DamageError {
    /// The creature is dead: it can't be healed or make death saves.
    #[error(
        "the creature is dead; it can't be healed or damaged (bring it back with a spell first)"
    )]
    Dead,
    /// Death saves are made only at 0 HP.
    #[error("death saves are made only at 0 HP (the creature has {hp} HP)")]
    NotAtZeroHp {
        /// Its current hit points.
        hp: u32,
    },
    /// A stable creature makes no death saves.
    #[error("the creature is stable; it makes no death saves until it takes damage")]
    Stable,
}

/// What happens to a creature at 0 hit points.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum AtZeroHp {
    /// It dies (monsters and NPCs, unless told otherwise).
    #[default]
    Dies,
    /// It falls unconscious and makes death saves (player characters).
    DeathSaves,
}

impl AtZeroHp {
    /// The default for a kind of character: PCs make death saves, everyone else dies.
    pub fn for_character_type(kind: CharacterType) -> Self {
        match kind {
            CharacterType::Pc => AtZeroHp::DeathSaves,
            _ => AtZeroHp::Dies,
        }
    }
}

/// Death-save progress of a creature at 0 HP.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct DeathSaves {
    /// Successes so far (0–3).
    pub successes: u8,
    /// Failures so far (0–3).
    pub failures: u8,
    /// Stable: at 0 HP but no longer rolling.
    pub stable: bool,
}

impl fmt::Display for DeathSaves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.stable {
            f.write_str("stable")
        } else {
            write!(
                f,
                "{} successes, {} failures",
                self.successes, self.failures
            )
        }
    }
}

/// A creature's hit points and life state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Vitals {
    /// Current hit points.
    pub hp: u32,
    /// Maximum hit points (effective).
    pub max_hp: u32,
    /// Temporary hit points.
    #[serde(default)]
    pub temp_hp: u32,
    /// Death-save progress (meaningful at 0 HP).
    #[serde(default)]
    pub death_saves: DeathSaves,
    /// Whether it is dead.
    #[serde(default)]
    pub dead: bool,
}

/// Everything the damage pipeline needs to know about the target.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DamageTarget {
    /// Hit points and life state.
    pub vitals: Vitals,
    /// Resistances, immunities and vulnerabilities (from the effective stats).
    #[serde(default)]
    pub defenses: DamageDefenses,
    /// What happens at 0 HP.
    #[serde(default)]
    pub at_zero: AtZeroHp,
}

/// One part of a hit's damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DamagePart {
    /// The type; absent for untyped damage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<DamageType>,
    /// The amount rolled.
    pub amount: u32,
}

impl DamagePart {
    /// `amount` of `damage_type`.
    pub fn new(damage_type: Option<DamageType>, amount: u32) -> Self {
        Self {
            damage_type,
            amount,
        }
    }
}

/// How a defense changed one damage type's amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum AdjustmentKind {
    /// Reduced to 0.
    Immune,
    /// Halved, rounded down.
    Resisted,
    /// Doubled.
    Vulnerable,
}

/// A defense applied to a damage type, with its source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DamageAdjustment {
    /// What it did.
    pub kind: AdjustmentKind,
    /// What granted it.
    pub source: String,
}

/// The damage of one type after defenses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TypedDamage {
    /// The type; absent for untyped damage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<DamageType>,
    /// The amount before defenses (all parts of the type together).
    pub rolled: u32,
    /// The amount after defenses.
    pub taken: u32,
    /// The defenses that applied, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adjustments: Vec<DamageAdjustment>,
}

/// Why a creature died.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DeathReason {
    /// Damage left over after 0 HP was at least its maximum HP.
    MassiveDamage,
    /// Three death-save failures.
    DeathSaveFailures,
}

impl fmt::Display for DeathReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DeathReason::MassiveDamage => "massive damage",
            DeathReason::DeathSaveFailures => "three failed death saves",
        })
    }
}

/// What the damage did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "result",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum DamageOutcome {
    /// Defenses reduced everything to 0.
    NoDamage,
    /// Temporary hit points absorbed all of it.
    Absorbed,
    /// It lost hit points and is still above 0.
    Damaged,
    /// A creature that makes death saves dropped to 0: it is unconscious and dying.
    Unconscious,
    /// Already at 0 HP, it took damage: death-save failures added.
    DeathSaveFailures {
        /// Failures added (1, or 2 for a critical hit).
        added: u8,
        /// Failures now.
        total: u8,
    },
    /// A creature that makes death saves died.
    Dead {
        /// Why.
        reason: DeathReason,
    },
    /// A creature that dies at 0 HP reached it.
    Killed,
}

/// The full result of applying damage; the caller stores the `*_after` values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DamageResult {
    /// Per damage type, in order of first appearance.
    pub by_type: Vec<TypedDamage>,
    /// Damage after defenses (what the creature "takes", temporary HP included).
    pub total: u32,
    /// Whether it was a critical hit.
    pub critical: bool,
    /// Temporary HP before.
    pub temp_hp_before: u32,
    /// Damage absorbed by temporary HP.
    pub temp_absorbed: u32,
    /// Temporary HP after.
    pub temp_hp_after: u32,
    /// Hit points before.
    pub hp_before: u32,
    /// Hit points after.
    pub hp_after: u32,
    /// Damage left over after reaching 0 HP (used for massive damage).
    pub overflow: u32,
    /// What happened.
    pub outcome: DamageOutcome,
    /// Death-save progress after.
    pub death_saves: DeathSaves,
    /// Whether the creature is dead after.
    pub dead: bool,
    /// Conditions the caller should add (unconscious when a PC drops to 0).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub add_conditions: Vec<Condition>,
    /// DC of the concentration save this damage forces, max(10, total / 2); absent when no
    /// damage was taken or concentration ends anyway.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concentration_dc: Option<u32>,
    /// Whether concentration ends outright (it dropped to 0 HP or died).
    pub concentration_ends: bool,
}

impl DamageResult {
    /// One line for a model: "takes 6 (fire 12 → 6, resisted: Stoneskin); 20 → 14 HP".
    pub fn summary(&self) -> String {
        let mut s = format!("takes {}", self.total);
        let parts: Vec<String> = self
            .by_type
            .iter()
            .map(|t| {
                let name = t
                    .damage_type
                    .map_or("untyped".to_string(), |d| d.to_string());
                let mut p = if t.rolled == t.taken {
                    format!("{} {name}", t.taken)
                } else {
                    format!("{name} {} → {}", t.rolled, t.taken)
                };
                for a in &t.adjustments {
                    let what = match a.kind {
                        AdjustmentKind::Immune => "immune",
                        AdjustmentKind::Resisted => "resisted",
                        AdjustmentKind::Vulnerable => "vulnerable",
                    };
                    let _ = write!(p, ", {what}: {}", a.source);
                }
                p
            })
            .collect();
        if !parts.is_empty() {
            let _ = write!(s, " ({})", parts.join("; "));
        }
        if self.critical {
            s.push_str(", critical");
        }
        if self.temp_absorbed > 0 {
            let _ = write!(
                s,
                "; temp HP absorbs {} ({} left)",
                self.temp_absorbed, self.temp_hp_after
            );
        }
        let _ = write!(s, "; {} → {} HP", self.hp_before, self.hp_after);
        match self.outcome {
            DamageOutcome::NoDamage | DamageOutcome::Absorbed | DamageOutcome::Damaged => {}
            DamageOutcome::Unconscious => s.push_str("; falls unconscious and starts death saves"),
            DamageOutcome::DeathSaveFailures { added, total } => {
                let _ = write!(
                    s,
                    "; {added} death-save failure{} ({total}/3)",
                    if added == 1 { "" } else { "s" }
                );
            }
            DamageOutcome::Dead { reason } => {
                let _ = write!(s, "; dies ({reason})");
            }
            DamageOutcome::Killed => s.push_str("; dies"),
        }
        if let Some(dc) = self.concentration_dc {
            let _ = write!(s, "; concentration save DC {dc}");
        }
        s
    }
}

/// The DC of the concentration save forced by `damage`: max(10, damage / 2).
pub fn concentration_dc(damage: u32) -> u32 {
    (damage / 2).max(10)
}

/// Applies defenses to one type's damage: immunity → 0; otherwise resistance halves (rounded
/// down), then vulnerability doubles.
pub fn apply_defenses(
    defenses: &DamageDefenses,
    damage_type: Option<DamageType>,
    amount: u32,
) -> TypedDamage {
    let mut adjustments = Vec::new();
    let taken = if let Some(d) = defenses.immunity(damage_type) {
        adjustments.push(DamageAdjustment {
            kind: AdjustmentKind::Immune,
            source: d.source.clone(),
        });
        0
    } else {
        let mut v = amount;
        if let Some(d) = defenses.resistance(damage_type) {
            adjustments.push(DamageAdjustment {
                kind: AdjustmentKind::Resisted,
                source: d.source.clone(),
            });
            v /= 2;
        }
        if let Some(d) = defenses.vulnerability(damage_type) {
            adjustments.push(DamageAdjustment {
                kind: AdjustmentKind::Vulnerable,
                source: d.source.clone(),
            });
            v = v.saturating_mul(2);
        }
        v
    };
    TypedDamage {
        damage_type,
        rolled: amount,
        taken,
        adjustments,
    }
}

/// Runs damage through the pipeline. Parts of the same type are added together before defenses
/// apply. `critical` matters only at 0 HP (two death-save failures instead of one).
pub fn apply_damage(
    target: &DamageTarget,
    parts: &[DamagePart],
    critical: bool,
) -> Result<DamageResult, DamageError> {
    let v = &target.vitals;
    if v.dead {
        return Err(DamageError::Dead);
    }
    let mut grouped: Vec<(Option<DamageType>, u32)> = Vec::new();
    for p in parts {
        match grouped.iter_mut().find(|(t, _)| *t == p.damage_type) {
            Some((_, amt)) => *amt = amt.saturating_add(p.amount),
            None => grouped.push((p.damage_type, p.amount)),
        }
    }
    let by_type: Vec<TypedDamage> = grouped
        .into_iter()
        .map(|(t, a)| apply_defenses(&target.defenses, t, a))
        .collect();
    let total = by_type
        .iter()
        .fold(0u32, |acc, t| acc.saturating_add(t.taken));

    let temp_absorbed = total.min(v.temp_hp);
    let remaining = total - temp_absorbed;
    let mut result = DamageResult {
        by_type,
        total,
        critical,
        temp_hp_before: v.temp_hp,
        temp_absorbed,
        temp_hp_after: v.temp_hp - temp_absorbed,
        hp_before: v.hp,
        hp_after: v.hp,
        overflow: 0,
        outcome: DamageOutcome::Damaged,
        death_saves: v.death_saves,
        dead: false,
        add_conditions: Vec::new(),
        concentration_dc: (total > 0).then(|| concentration_dc(total)),
        concentration_ends: false,
    };
    if total == 0 {
        result.outcome = DamageOutcome::NoDamage;
        return Ok(result);
    }
    if remaining == 0 {
        result.outcome = DamageOutcome::Absorbed;
        return Ok(result);
    }

    let massive = |overflow: u32| overflow >= v.max_hp.max(1);
    if v.hp > 0 {
        let lost = remaining.min(v.hp);
        result.hp_after = v.hp - lost;
        result.overflow = remaining - lost;
        if result.hp_after > 0 {
            result.outcome = DamageOutcome::Damaged;
            return Ok(result);
        }
        result.outcome = match target.at_zero {
            AtZeroHp::Dies => DamageOutcome::Killed,
            AtZeroHp::DeathSaves if massive(result.overflow) => DamageOutcome::Dead {
                reason: DeathReason::MassiveDamage,
            },
            AtZeroHp::DeathSaves => {
                result.death_saves = DeathSaves::default();
                result.add_conditions.push(Condition::Unconscious);
                DamageOutcome::Unconscious
            }
        };
    } else {
        result.overflow = remaining;
        result.outcome = match target.at_zero {
            AtZeroHp::Dies => DamageOutcome::Killed,
            AtZeroHp::DeathSaves if massive(remaining) => DamageOutcome::Dead {
                reason: DeathReason::MassiveDamage,
            },
            AtZeroHp::DeathSaves => {
                let added = if critical { 2 } else { 1 };
                let failures = (v.death_saves.failures + added).min(DEATH_SAVES_NEEDED);
                result.death_saves = DeathSaves {
                    successes: v.death_saves.successes,
                    failures,
                    stable: false,
                };
                if failures >= DEATH_SAVES_NEEDED {
                    DamageOutcome::Dead {
                        reason: DeathReason::DeathSaveFailures,
                    }
                } else {
                    DamageOutcome::DeathSaveFailures {
                        added,
                        total: failures,
                    }
                }
            }
        };
    }
    result.dead = matches!(
        result.outcome,
        DamageOutcome::Dead { .. } | DamageOutcome::Killed
    );
    result.concentration_ends = true;
    result.concentration_dc = None;
    Ok(result)
}

/// The result of healing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct HealResult {
    /// Healing offered.
    pub amount: u32,
    /// Hit points actually regained (capped by the maximum).
    pub healed: u32,
    /// Hit points before.
    pub hp_before: u32,
    /// Hit points after.
    pub hp_after: u32,
    /// Whether it was at 0 HP and now regains consciousness (remove `unconscious`).
    pub regains_consciousness: bool,
    /// Death-save progress after (reset when it was at 0 HP).
    pub death_saves: DeathSaves,
}

impl HealResult {
    /// "heals 7 (3 → 10 HP)", with "regains consciousness" when it was at 0.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "heals {} ({} → {} HP)",
            self.healed, self.hp_before, self.hp_after
        );
        if self.regains_consciousness {
            s.push_str("; regains consciousness");
        }
        s
    }
}

/// Heals up to the maximum; at 0 HP any healing wakes the creature and resets death saves.
/// Healing the dead is an error.
pub fn apply_healing(vitals: &Vitals, amount: u32) -> Result<HealResult, DamageError> {
    if vitals.dead {
        return Err(DamageError::Dead);
    }
    let hp_after = vitals
        .hp
        .saturating_add(amount)
        .min(vitals.max_hp)
        .max(vitals.hp);
    let healed = hp_after - vitals.hp;
    let regains = vitals.hp == 0 && healed > 0;
    Ok(HealResult {
        amount,
        healed,
        hp_before: vitals.hp,
        hp_after,
        regains_consciousness: regains,
        death_saves: if regains {
            DeathSaves::default()
        } else {
            vitals.death_saves
        },
    })
}

/// The result of granting temporary hit points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TempHpResult {
    /// Temporary HP before.
    pub before: u32,
    /// Temporary HP offered.
    pub offered: u32,
    /// Temporary HP after (the higher of the two).
    pub after: u32,
    /// Whether the new value replaced the old one.
    pub replaced: bool,
}

/// Temporary HP don't stack: the creature keeps the higher of what it has and what is offered.
pub fn grant_temp_hp(current: u32, offered: u32) -> TempHpResult {
    let replaced = offered > current;
    TempHpResult {
        before: current,
        offered,
        after: current.max(offered),
        replaced,
    }
}

/// What one death save did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DeathSaveOutcome {
    /// One success.
    Success,
    /// One failure.
    Failure,
    /// Natural 1: two failures.
    TwoFailures,
    /// Third success: stable at 0 HP.
    Stable,
    /// Third failure: dead.
    Dead,
    /// Natural 20: regains 1 HP and consciousness.
    RegainsConsciousness,
}

/// The result of one death save.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DeathSaveResult {
    /// The natural d20.
    pub roll: u32,
    /// Flat modifier added (usually 0).
    pub modifier: i32,
    /// Roll + modifier.
    pub total: i32,
    /// What happened.
    pub outcome: DeathSaveOutcome,
    /// Progress after.
    pub death_saves: DeathSaves,
    /// Hit points after (1 on a natural 20, else 0).
    pub hp_after: u32,
    /// Whether the creature is dead after.
    pub dead: bool,
    /// The full d20 roll (dice, advantage, bonus dice) when rolled from a sheet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<D20Outcome>,
}

impl DeathSaveResult {
    /// `Death save: d20 [12] = 12 — success (2 successes, 1 failures)`.
    pub fn summary(&self) -> String {
        let what = match self.outcome {
            DeathSaveOutcome::Success => "success",
            DeathSaveOutcome::Failure => "failure",
            DeathSaveOutcome::TwoFailures => "natural 1, two failures",
            DeathSaveOutcome::Stable => "third success, stable",
            DeathSaveOutcome::Dead => "third failure, dies",
            DeathSaveOutcome::RegainsConsciousness => "natural 20, regains 1 HP and consciousness",
        };
        if let Some(check) = &self.check {
            let mut plain = check.clone();
            plain.dc = None;
            plain.success = None;
            plain.natural_1 = false;
            plain.natural_20 = false;
            return format!("{} — {what} ({})", plain.summary(), self.death_saves);
        }
        let modifier = if self.modifier == 0 {
            String::new()
        } else {
            format!(
                " {} {}",
                if self.modifier < 0 { "-" } else { "+" },
                self.modifier.abs()
            )
        };
        format!(
            "Death save: d20 [{}]{modifier} = {} — {what} ({})",
            self.roll, self.total, self.death_saves
        )
    }
}

/// Resolves a death save from a known natural d20 and flat modifier: total ≥ 10 succeeds,
/// natural 1 is two failures, natural 20 regains 1 HP; three successes stabilise, three failures
/// kill.
pub fn resolve_death_save(
    vitals: &Vitals,
    natural: u32,
    modifier: i32,
) -> Result<DeathSaveResult, DamageError> {
    if vitals.dead {
        return Err(DamageError::Dead);
    }
    if vitals.hp > 0 {
        return Err(DamageError::NotAtZeroHp { hp: vitals.hp });
    }
    if vitals.death_saves.stable {
        return Err(DamageError::Stable);
    }
    let natural = natural.clamp(1, 20);
    let total = i32::try_from(natural).unwrap_or(20) + modifier;
    let mut saves = vitals.death_saves;
    let mut hp_after = 0;
    let outcome = if natural == 20 {
        saves = DeathSaves::default();
        hp_after = 1;
        DeathSaveOutcome::RegainsConsciousness
    } else {
        let failures = if natural == 1 {
            2
        } else if total >= 10 {
            0
        } else {
            1
        };
        if failures == 0 {
            saves.successes = (saves.successes + 1).min(DEATH_SAVES_NEEDED);
            if saves.successes >= DEATH_SAVES_NEEDED {
                saves = DeathSaves {
                    successes: 0,
                    failures: 0,
                    stable: true,
                };
                DeathSaveOutcome::Stable
            } else {
                DeathSaveOutcome::Success
            }
        } else {
            saves.failures = (saves.failures + failures).min(DEATH_SAVES_NEEDED);
            if saves.failures >= DEATH_SAVES_NEEDED {
                DeathSaveOutcome::Dead
            } else if failures == 2 {
                DeathSaveOutcome::TwoFailures
            } else {
                DeathSaveOutcome::Failure
            }
        }
    };
    Ok(DeathSaveResult {
        roll: natural,
        modifier,
        total,
        outcome,
        death_saves: saves,
        hp_after,
        dead: outcome == DeathSaveOutcome::Dead,
        check: None,
    })
}

/// Rolls a death save as a d20 test from the sheet (so "all saves" bonuses, Bless dice and
/// advantage/disadvantage such as exhaustion 3 apply) and resolves it with the kept natural
/// roll and the total (see [`resolve_death_save`]). Nothing is rolled when the creature can't
/// make one.
pub fn roll_death_save(
    vitals: &Vitals,
    stats: &EffectiveStats,
    roller: &mut impl DieRoller,
) -> Result<DeathSaveResult, DamageError> {
    // Check the state before consuming a die.
    resolve_death_save(vitals, 10, 0)?;
    let check = roll_d20_test(stats, &D20Request::new(D20Test::DeathSave).dc(10), roller);
    let mut result = match (check.kept, check.total) {
        (Some(natural), Some(total)) => {
            let modifier = total - i32::try_from(natural).unwrap_or(20);
            resolve_death_save(vitals, natural, modifier)?
        }
        // Failed without a roll (a caller-imposed automatic failure): one failure.
        _ => resolve_death_save(vitals, 2, 0)?,
    };
    result.check = Some(check);
    Ok(result)
}

#[cfg(test)]
mod tests;
