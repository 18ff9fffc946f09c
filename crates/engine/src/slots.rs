//! Spell slots: maximum and used per spell level 1–9 from the SRD class table (full, half, third
//! casters) or set by hand, and pact-magic slots kept apart (all of one level, back on a short
//! rest). `manage_spell_slots`: view, expend, restore, set.

use serde::Serialize;

use crate::characters::resolve;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterRef};

/// The data of this family lives in the model; re-exported so the old paths keep working.
pub use crate::model::slots::{PactSlots, SpellSlots, ordinal};

/// Fills in the slots of an SRD caster whose sheet has none yet (characters stored before slots
/// were tracked); hand-set slots are left alone. A multiclassed build's slots are derived from
/// all its classes (`derive::multiclass::combined_slots`), so none is filled in from its first
/// class here.
pub fn ensure(call: &Call<'_>, c: &mut Character) {
    if !c.spell_slots.is_empty() || c.build.as_ref().is_some_and(|b| b.classes.len() > 1) {
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
    /// Flexible Casting: sorcery points into a slot of `level` (1st–5th).
    Create {
        /// The slot's level.
        level: Option<u8>,
    },
    /// Flexible Casting: a slot of `level` into sorcery points.
    Convert {
        /// The slot's level.
        level: Option<u8>,
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
    if let SlotOp::Create { level } | SlotOp::Convert { level } = &op {
        let Some(level) = *level else {
            return Err(EngineError::invalid("level", "name the slot's level"));
        };
        let done = if matches!(op, SlotOp::Create { .. }) {
            crate::class_features::create_slot(&mut c, level)?
        } else {
            crate::class_features::convert_slot(&mut c, level)?
        };
        changes.push(done.line);
    }
    let s = &mut c.spell_slots;
    match &op {
        SlotOp::View | SlotOp::Create { .. } | SlotOp::Convert { .. } => {}
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
