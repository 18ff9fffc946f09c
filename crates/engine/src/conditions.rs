//! `manage_condition`: add, remove, query and tick the SRD conditions on a character (exhaustion
//! as a level 1–6), with durations (rounds, until a long rest, until dispelled, concentration,
//! save ends) and condition immunities enforced. The conditions' effects on rolls, speed and
//! saves come from the rules crate through the one effective-stats pipeline.

use serde::Serialize;
use tabletop_rules::Condition;
use tabletop_rules::conditions::{MAX_EXHAUSTION, condition_effects};

use crate::characters::{resolve, resolve_with_fields};
use crate::concentration::{self, ConcentrationEnd};
use crate::effects::{DurationRequest, check_duration};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterRef, ConditionEntry};
use crate::model::concentration::ConcentrationLink;
use crate::model::effects::Duration;

/// A `manage_condition` operation.
#[derive(Debug, Clone)]
pub enum ConditionOp {
    /// Add a condition (exhaustion: set the level, or +1 without one).
    Add {
        /// The condition.
        condition: Condition,
        /// Exhaustion level 1–6.
        level: Option<u8>,
        /// What imposed it (for concentration: the spell).
        source: Option<String>,
        /// How long it lasts.
        duration: DurationRequest,
        /// The caster whose concentration holds it (id, name).
        caster: Option<(Option<String>, Option<String>)>,
    },
    /// Remove a condition (exhaustion: lower by `level`, or remove it all).
    Remove {
        /// The condition.
        condition: Condition,
        /// Exhaustion levels to remove.
        level: Option<u8>,
    },
    /// Show conditions and what they do (one, or all).
    Query {
        /// Only this one.
        condition: Option<Condition>,
    },
    /// End-of-turn processing: round durations count down, save-ends conditions roll their save.
    Tick {
        /// Rounds to count down (default 1).
        rounds: u32,
    },
}

/// One condition as reported.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConditionView {
    /// The condition.
    pub condition: Condition,
    /// Exhaustion level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// What imposed it.
    pub source: String,
    /// How long, in words.
    pub duration: String,
    /// What it does.
    pub effects: Vec<String>,
}

/// What `manage_condition` answers.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConditionOutcome {
    /// The character.
    pub character: String,
    /// Its id.
    pub character_id: String,
    /// For `query` of one condition: whether it has it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has: Option<bool>,
    /// Its conditions now.
    pub conditions: Vec<ConditionView>,
    /// What happened.
    pub changes: Vec<String>,
    /// A concentration that ended (incapacitated, or a new concentration spell).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub concentration_ended: Vec<ConcentrationEnd>,
}

fn views(call: &Call<'_>, c: &Character, only: Option<Condition>) -> Vec<ConditionView> {
    c.conditions
        .iter()
        .filter(|e| only.is_none_or(|o| o == e.condition))
        .map(|e| ConditionView {
            condition: e.condition,
            level: e.level,
            source: e.source.clone(),
            duration: e.duration.as_ref().map_or("until removed".into(), |d| {
                d.describe(|id| {
                    call.tx_ref()
                        .character(call.campaign(), id)
                        .ok()
                        .flatten()
                        .map_or_else(|| id.to_string(), |x| x.name)
                })
            }),
            effects: condition_effects(e.condition, e.level.unwrap_or(1))
                .iter()
                .map(ToString::to_string)
                .chain(
                    crate::catalog::spells::condition_extras(&e.source, e.condition)
                        .iter()
                        .map(|k| format!("{k} ({})", e.source)),
                )
                .chain(e.ends_on.map(|x| match x {
                    crate::model::character::ConditionEnds::Damage => {
                        "ends if it takes any damage".to_string()
                    }
                    crate::model::character::ConditionEnds::Harm => {
                        "ends if whoever imposed it or its companions harm it".to_string()
                    }
                }))
                .collect(),
        })
        .collect()
}

/// Runs one condition operation on one character.
pub fn manage_condition(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    op: ConditionOp,
) -> Result<ConditionOutcome> {
    let mut c = resolve(call, who)?;
    let mut changes = Vec::new();
    let mut ended = Vec::new();
    match op {
        ConditionOp::Query { condition } => {
            let has = condition.map(|x| c.has_condition(x));
            let out = ConditionOutcome {
                character: c.name.clone(),
                character_id: c.id.clone(),
                has,
                conditions: views(call, &c, condition),
                changes,
                concentration_ended: ended,
            };
            return Ok(out);
        }
        ConditionOp::Add {
            condition,
            level,
            source,
            duration,
            caster,
        } => add(
            call,
            &mut c,
            condition,
            level,
            source,
            duration,
            caster,
            &mut changes,
            &mut ended,
        )?,
        ConditionOp::Remove { condition, level } => {
            remove(call, &mut c, condition, level, &mut changes)?
        }
        ConditionOp::Tick { rounds } => tick(call, &mut c, rounds, &mut changes)?,
    }
    if let Some(e) = concentration::enforce(call, &mut c, &mut changes)? {
        ended.push(e);
    }
    let campaign = call.campaign();
    call.tx().put_character(campaign, &c)?;
    call.record_change("character", &c.id, changes.join("; "));
    Ok(ConditionOutcome {
        character: c.name.clone(),
        character_id: c.id.clone(),
        has: None,
        conditions: views(call, &c, None),
        changes,
        concentration_ended: ended,
    })
}

#[allow(clippy::too_many_arguments)]
fn add(
    call: &mut Call<'_>,
    c: &mut Character,
    condition: Condition,
    level: Option<u8>,
    source: Option<String>,
    duration: DurationRequest,
    caster: Option<(Option<String>, Option<String>)>,
    changes: &mut Vec<String>,
    ended: &mut Vec<ConcentrationEnd>,
) -> Result<()> {
    check_duration(&duration)?;
    let eff = c.effective();
    if let Some(sources) = eff.condition_immunities.get(&condition) {
        return Err(EngineError::Rule(format!(
            "{} is immune to {condition} ({}); the condition was not added",
            c.name,
            sources.join(", ")
        )));
    }
    if level.is_some() && condition != Condition::Exhaustion {
        return Err(EngineError::invalid(
            "level",
            "level applies to exhaustion only (1–6)",
        ));
    }
    let source = source
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    if source.as_ref().is_some_and(|s| s.chars().count() > 80) {
        return Err(EngineError::invalid("source", "at most 80 characters"));
    }
    if caster.is_some() && duration != DurationRequest::Concentration {
        return Err(EngineError::invalid(
            "caster",
            "a caster links the condition to concentration; add duration \"concentration\"",
        ));
    }
    if condition == Condition::Exhaustion {
        if duration != DurationRequest::Default {
            return Err(EngineError::invalid(
                "duration",
                "exhaustion has no duration: a long rest lowers it by 1; remove it with operation remove",
            ));
        }
        let current = c
            .conditions
            .iter()
            .find(|e| e.condition == Condition::Exhaustion)
            .and_then(|e| e.level)
            .unwrap_or(0);
        let new = match level {
            Some(l) if (1..=MAX_EXHAUSTION).contains(&l) => l,
            Some(l) => {
                return Err(EngineError::invalid(
                    "level",
                    format!("{l} is out of range; exhaustion levels are 1–6 (6 is death)"),
                ));
            }
            None => (current + 1).min(MAX_EXHAUSTION),
        };
        c.conditions
            .retain(|e| e.condition != Condition::Exhaustion);
        c.conditions.push(ConditionEntry {
            by: None,
            ends_on: None,
            condition,
            level: Some(new),
            source: source.unwrap_or_else(|| "exhaustion".into()),
            duration: None,
        });
        changes.push(format!("{} exhaustion {current} → {new}", c.name));
        let max = u32::try_from(c.effective().max_hp.value.max(1)).unwrap_or(1);
        if c.hp > max {
            changes.push(format!(
                "{} HP {} → {max}: exhaustion {new} halves the hit point maximum",
                c.name, c.hp
            ));
            c.hp = max;
        }
        if new >= MAX_EXHAUSTION && !c.dead {
            c.dead = true;
            c.hp = 0;
            changes.push(format!("{} dies (exhaustion level 6)", c.name));
        }
        return Ok(());
    }
    let dur = match duration {
        DurationRequest::Default | DurationRequest::UntilDispelled => None,
        DurationRequest::Rounds(n) => Some(Duration::Rounds { remaining: n }),
        DurationRequest::UntilRest => Some(Duration::UntilRest),
        DurationRequest::SaveEnds { dc, ability } => Some(Duration::SaveEnds { dc, ability }),
        DurationRequest::Concentration => {
            let Some(spell) = source.clone() else {
                return Err(EngineError::invalid(
                    "source",
                    "a concentration condition needs source: the spell's name, e.g. \"Hold Person\"",
                ));
            };
            let caster_id = match &caster {
                Some((id, name)) => {
                    resolve_with_fields(
                        call,
                        CharacterRef::new(id.as_deref(), name.as_deref()),
                        "caster",
                        "caster",
                    )?
                    .id
                }
                None => {
                    return Err(EngineError::invalid(
                        "caster",
                        "a concentration condition needs the caster: caster (id or name)",
                    ));
                }
            };
            let link = ConcentrationLink::condition(&c.id, condition);
            if caster_id == c.id {
                if let Some(e) = concentration::begin(call, c, &spell, changes)? {
                    ended.push(e);
                }
                if let Some(conc) = c.concentration.as_mut() {
                    conc.add_link(link);
                }
            } else {
                let mut caster = resolve(call, CharacterRef::new(Some(&caster_id), None))?;
                if let Some(e) = concentration::begin(call, &mut caster, &spell, changes)? {
                    ended.push(e);
                }
                if let Some(conc) = caster.concentration.as_mut() {
                    conc.add_link(link);
                }
                let campaign = call.campaign();
                call.tx().put_character(campaign, &caster)?;
                *c = resolve(call, CharacterRef::new(Some(&c.id), None))?;
            }
            Some(Duration::Concentration { caster_id, spell })
        }
    };
    let label = dur
        .as_ref()
        .map(|d| format!(" ({})", d.describe(|id| id.to_string())))
        .unwrap_or_default();
    if let Some(existing) = c.conditions.iter_mut().find(|e| e.condition == condition) {
        existing.duration = dur;
        if let Some(s) = source {
            existing.source = s;
        }
        changes.push(format!(
            "{} is already {condition}; its duration is renewed{label}",
            c.name
        ));
    } else {
        let source = source.unwrap_or_else(|| "DM".into());
        c.conditions.push(ConditionEntry {
            by: None,
            ends_on: None,
            condition,
            level: None,
            source: source.clone(),
            duration: dur,
        });
        changes.push(format!("{} is {condition}{label}", c.name));
        if condition == Condition::Unconscious {
            changes.extend(crate::update::knocked_out(c, &source, true));
        }
    }
    Ok(())
}

fn remove(
    call: &mut Call<'_>,
    c: &mut Character,
    condition: Condition,
    level: Option<u8>,
    changes: &mut Vec<String>,
) -> Result<()> {
    let Some(pos) = c.conditions.iter().position(|e| e.condition == condition) else {
        let have: Vec<&str> = c.conditions.iter().map(|e| e.condition.key()).collect();
        return Err(EngineError::Rule(format!(
            "{} is not {condition}; its conditions: {}",
            c.name,
            if have.is_empty() {
                "none".to_string()
            } else {
                have.join(", ")
            }
        )));
    };
    if condition == Condition::Exhaustion
        && let Some(n) = level
    {
        let cur = c.conditions[pos].level.unwrap_or(1);
        let new = cur.saturating_sub(n);
        if new == 0 {
            c.conditions.remove(pos);
        } else {
            c.conditions[pos].level = Some(new);
        }
        changes.push(format!("{} exhaustion {cur} → {new}", c.name));
        return Ok(());
    }
    let e = c.conditions.remove(pos);
    if let Some(caster) = e.duration.as_ref().and_then(Duration::caster) {
        let caster = caster.to_string();
        concentration::unlink(
            call,
            c,
            &caster,
            &ConcentrationLink::condition(&c.id, condition),
        )?;
    }
    changes.push(format!("{} is no longer {condition}", c.name));
    Ok(())
}

fn tick(
    call: &mut Call<'_>,
    c: &mut Character,
    rounds: u32,
    changes: &mut Vec<String>,
) -> Result<()> {
    if !(1..=100).contains(&rounds) {
        return Err(EngineError::invalid(
            "rounds",
            format!("{rounds} is out of range; tick 1–100 rounds"),
        ));
    }
    let sheet = c.clone();
    let entries = std::mem::take(&mut c.conditions);
    let mut kept = Vec::new();
    let mut ended = Vec::new();
    for mut e in entries {
        if let Some(d) = e.duration.as_mut() {
            let label = e.condition.to_string();
            let vs = crate::saves::against_condition(call, e.condition, &e.source);
            if crate::effects::tick_duration(call, &sheet, d, rounds, &label, &vs, changes)? {
                ended.push(e);
                continue;
            }
        }
        kept.push(e);
    }
    c.conditions = kept;
    // A condition a concentration held up has ended on its own: the caster lets go of it.
    concentration::let_go(call, c, &[], &ended, changes)?;
    if changes.is_empty() {
        changes.push(format!("no timed conditions on {} to tick", c.name));
    }
    Ok(())
}
