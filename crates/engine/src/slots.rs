//! Spell slots: maximum and used per spell level 1–9 from the SRD class table (full, half, third
//! casters) or set by hand, and pact-magic slots kept apart (all of one level, back on a short
//! rest). `manage_spell_slots`: view, expend, restore, set.

use serde::{Deserialize, Serialize};
use tabletop_srd::Compendium;
use tabletop_srd::model::CasterKind;

use crate::character::{Character, CharacterRef, resolve};
use crate::engine::Call;
use crate::error::{EngineError, Result};

/// Pact-magic slots: `max` slots, all of `level`.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PactSlots {
    /// The level of every pact slot (1–5).
    pub level: u8,
    /// How many.
    pub max: u8,
    /// Used since the last rest.
    pub used: u8,
}

/// A character's spell slots.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SpellSlots {
    /// Maximum per spell level 1–9.
    pub max: [u8; 9],
    /// Used per spell level 1–9.
    pub used: [u8; 9],
    /// Pact-magic slots, kept apart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pact: Option<PactSlots>,
    /// Set by hand: level-ups leave them alone.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub manual: bool,
}

/// The ordinal of a spell level ("1st", "2nd", "3rd", "4th").
pub fn ordinal(level: u8) -> String {
    match level {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}

impl SpellSlots {
    /// No slots at all.
    pub fn is_empty(&self) -> bool {
        self.max.iter().all(|m| *m == 0) && self.pact.is_none() && !self.manual
    }

    /// Slots left per level that has any ("1" … "9"), and "pact" for pact slots.
    pub fn remaining_by_level(&self) -> std::collections::BTreeMap<String, u32> {
        let mut out: std::collections::BTreeMap<String, u32> = (1..=9u8)
            .filter(|l| self.max[usize::from(l - 1)] > 0)
            .map(|l| (l.to_string(), u32::from(self.left(l))))
            .collect();
        if let Some(p) = self.pact {
            out.insert("pact".into(), u32::from(p.max.saturating_sub(p.used)));
        }
        out
    }

    /// Slots left at `level` (1–9), regular slots only.
    pub fn left(&self, level: u8) -> u8 {
        let i = usize::from(level.clamp(1, 9) - 1);
        self.max[i].saturating_sub(self.used[i])
    }

    /// "1st 3/4, 2nd 2/2; pact 2× 3rd 1/2" (left/max), or "none".
    pub fn summary(&self) -> String {
        let mut parts: Vec<String> = (1..=9u8)
            .filter(|l| self.max[usize::from(l - 1)] > 0)
            .map(|l| {
                format!(
                    "{} {}/{}",
                    ordinal(l),
                    self.left(l),
                    self.max[usize::from(l - 1)]
                )
            })
            .collect();
        if let Some(p) = &self.pact {
            parts.push(format!(
                "pact ({}) {}/{}",
                ordinal(p.level),
                p.max.saturating_sub(p.used),
                p.max
            ));
        }
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    }

    /// The SRD table's slots for `class` at `level`; `None` for a class the SRD lacks. Pact
    /// casters get pact slots only; used counts are kept (capped at the new maxima).
    pub fn from_srd(
        srd: &Compendium,
        class: &str,
        level: u32,
        keep: &SpellSlots,
    ) -> Option<SpellSlots> {
        let cls = srd.class(class)?;
        let lvl = u8::try_from(level.clamp(1, 20)).unwrap_or(20);
        let row = srd.class_level(&cls.index, lvl)?;
        let mut s = SpellSlots::default();
        if cls.caster_kind == CasterKind::Pact {
            if let Some(p) = row.pact_slots {
                s.pact = Some(PactSlots {
                    level: p.slot_level,
                    max: p.count,
                    used: keep.pact.map_or(0, |k| k.used.min(p.count)),
                });
            }
        } else {
            s.max = row.spell_slots;
        }
        for i in 0..9 {
            s.used[i] = keep.used[i].min(s.max[i]);
        }
        Some(s)
    }

    /// Restores every slot (a long rest).
    pub fn restore_all(&mut self) {
        self.used = [0; 9];
        if let Some(p) = self.pact.as_mut() {
            p.used = 0;
        }
    }
}

/// Fills in the slots of an SRD caster whose sheet has none yet (characters stored before slots
/// were tracked); hand-set slots are left alone.
pub fn ensure(call: &Call<'_>, c: &mut Character) {
    if !c.spell_slots.is_empty() {
        return;
    }
    if let (Some(srd), Some(class)) = (call.compendium(), c.class.as_deref())
        && let Some(s) = SpellSlots::from_srd(srd, class, c.level, &c.spell_slots)
    {
        c.spell_slots = s;
    }
}

/// A `manage_spell_slots` operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SlotOp {
    /// Show them.
    View,
    /// Spend `count` slots of `level` (pact slots with `pact`, or when that is the only kind).
    Expend {
        /// Spell level 1–9 (optional for pact slots).
        level: Option<u8>,
        /// How many.
        count: u8,
        /// Use pact slots.
        pact: bool,
    },
    /// Regain `count` slots of `level` (every slot when `level` is absent).
    Restore {
        /// Spell level; absent = all.
        level: Option<u8>,
        /// How many (absent = all of that level).
        count: Option<u8>,
        /// Pact slots.
        pact: bool,
    },
    /// Set slots by hand, or from an SRD class table.
    Set {
        /// Spell level 1–9 (pact: the pact slot level 1–5).
        level: Option<u8>,
        /// Maximum.
        max: Option<u8>,
        /// Used.
        used: Option<u8>,
        /// Pact slots.
        pact: bool,
        /// Recompute from this SRD class at the character's level (case-insensitive).
        class: Option<String>,
    },
}

/// What `manage_spell_slots` answers.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SlotOutcome {
    /// The character.
    pub character: String,
    /// Its id.
    pub character_id: String,
    /// The slots now.
    pub slots: SpellSlots,
    /// "1st 3/4, …".
    pub summary: String,
    /// What happened.
    pub changes: Vec<String>,
}

fn check_level(level: u8, field: &str) -> Result<()> {
    if (1..=9).contains(&level) {
        Ok(())
    } else {
        Err(EngineError::invalid(
            field,
            format!("{level} is not a spell level; slots are levels 1–9"),
        ))
    }
}

/// Runs one slot operation.
pub fn manage_spell_slots(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    op: SlotOp,
) -> Result<SlotOutcome> {
    let mut c = resolve(call, who)?;
    ensure(call, &mut c);
    let mut changes = Vec::new();
    let s = &mut c.spell_slots;
    match &op {
        SlotOp::View => {}
        SlotOp::Expend { level, count, pact } => {
            if *count == 0 || *count > 9 {
                return Err(EngineError::invalid(
                    "count",
                    format!("{count} is out of range; expend 1–9 slots"),
                ));
            }
            let use_pact = match (&s.pact, *pact, level) {
                (Some(_), true, _) => true,
                (None, true, _) => {
                    return Err(EngineError::Rule(format!(
                        "{} has no pact slots (slots: {}); drop pact or set them with operation set",
                        c.name,
                        s.summary()
                    )));
                }
                (Some(p), false, Some(l)) => {
                    s.left(*l) == 0
                        && s.max[usize::from((*l).clamp(1, 9) - 1)] == 0
                        && p.level >= *l
                }
                (Some(_), false, None) => true,
                (None, false, _) => false,
            };
            if use_pact {
                if let Some(p) = s.pact.as_mut() {
                    let left = p.max.saturating_sub(p.used);
                    if left < *count {
                        return Err(EngineError::Rule(format!(
                            "{} has {left} pact slot(s) left, not {count}; a short rest restores them",
                            c.name
                        )));
                    }
                    p.used += count;
                    changes.push(format!(
                        "{} expends {count} pact slot(s) ({}); {} left",
                        c.name,
                        ordinal(p.level),
                        p.max - p.used
                    ));
                }
            } else {
                let Some(level) = *level else {
                    return Err(EngineError::invalid(
                        "level",
                        "say which slot level to expend (1–9)",
                    ));
                };
                check_level(level, "level")?;
                let i = usize::from(level - 1);
                if s.max[i] == 0 {
                    return Err(EngineError::Rule(format!(
                        "{} has no {} -level slots (slots: {}); expend a level it has, or set slots with operation set",
                        c.name,
                        ordinal(level),
                        s.summary()
                    ).replace(" -level", "-level")));
                }
                if s.left(level) < *count {
                    return Err(EngineError::Rule(format!(
                        "{} has {} {}-level slot(s) left, not {count} (slots: {}); use a higher level or rest",
                        c.name,
                        s.left(level),
                        ordinal(level),
                        s.summary()
                    )));
                }
                s.used[i] += count;
                changes.push(format!(
                    "{} expends {count} {}-level slot(s); {}/{} left",
                    c.name,
                    ordinal(level),
                    s.left(level),
                    s.max[i]
                ));
            }
        }
        SlotOp::Restore { level, count, pact } => {
            if *pact {
                let Some(p) = s.pact.as_mut() else {
                    return Err(EngineError::Rule(format!(
                        "{} has no pact slots to restore",
                        c.name
                    )));
                };
                let n = count.unwrap_or(p.used).min(p.used);
                p.used -= n;
                changes.push(format!("{} regains {n} pact slot(s)", c.name));
            } else if let Some(level) = *level {
                check_level(level, "level")?;
                let i = usize::from(level - 1);
                let n = count.unwrap_or(s.used[i]).min(s.used[i]);
                s.used[i] -= n;
                changes.push(format!(
                    "{} regains {n} {}-level slot(s)",
                    c.name,
                    ordinal(level)
                ));
            } else {
                s.restore_all();
                changes.push(format!("{} regains every spell slot", c.name));
            }
        }
        SlotOp::Set {
            level,
            max,
            used,
            pact,
            class,
        } => {
            if let Some(class) = class {
                let srd = call.require_compendium(
                    &format!("slots of class '{class}'"),
                    "level and max to set slots by hand",
                )?;
                let Some(new) = SpellSlots::from_srd(srd, class, c.level, &c.spell_slots) else {
                    let names: Vec<&str> = srd.classes().iter().map(|x| x.name.as_str()).collect();
                    return Err(EngineError::NotFound {
                        kind: "SRD class",
                        given: class.clone(),
                        suggestions: tabletop_rules::vocab::closest(class, names.iter().copied())
                            .map(|s| vec![s.to_string()])
                            .unwrap_or_else(|| names.iter().map(|s| s.to_string()).collect()),
                    });
                };
                c.spell_slots = new;
                changes.push(format!(
                    "{}'s slots set from the SRD {class} table at level {}",
                    c.name, c.level
                ));
            } else {
                let Some(level) = *level else {
                    return Err(EngineError::invalid(
                        "level",
                        "set needs level and max (or class to use the SRD table)",
                    ));
                };
                let Some(max) = *max else {
                    return Err(EngineError::invalid("max", "set needs max (0–9)"));
                };
                if max > 9 {
                    return Err(EngineError::invalid(
                        "max",
                        format!("{max} is out of range; 0–9 slots per level"),
                    ));
                }
                let used = used.unwrap_or(0).min(max);
                if *pact {
                    if !(1..=5).contains(&level) {
                        return Err(EngineError::invalid(
                            "level",
                            format!("{level} is not a pact slot level; pact slots are levels 1–5"),
                        ));
                    }
                    s.pact = (max > 0).then_some(PactSlots { level, max, used });
                    changes.push(format!(
                        "{}'s pact slots set to {max} × {}",
                        c.name,
                        ordinal(level)
                    ));
                } else {
                    check_level(level, "level")?;
                    let i = usize::from(level - 1);
                    s.max[i] = max;
                    s.used[i] = used;
                    changes.push(format!(
                        "{}'s {}-level slots set to {}/{max}",
                        c.name,
                        ordinal(level),
                        max - used
                    ));
                }
                c.spell_slots.manual = true;
            }
        }
    }
    if op != SlotOp::View {
        let campaign = call.campaign();
        call.tx().put_character(campaign, &c)?;
        call.record_change("character", &c.id, changes.join("; "));
    }
    Ok(SlotOutcome {
        character: c.name.clone(),
        character_id: c.id.clone(),
        summary: c.spell_slots.summary(),
        slots: c.spell_slots.clone(),
        changes,
    })
}
