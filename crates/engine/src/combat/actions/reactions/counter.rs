//! Counterspell as a reaction: when a creature casts a spell within 60 ft of a hostile that
//! sees it, knows Counterspell and has a 3rd-level slot or higher, that hostile's policy decides
//! before the spell takes effect. A spell of the Counterspell slot's level or lower fails; a
//! higher one fails only if the counterspeller's spellcasting check meets DC 10 + its level.
//! A countered spell still costs its caster the action and the slot. With `auto` a cantrip is
//! let through (a 3rd-level slot is worth more); `ask` offers it too.

use tabletop_rules::d20::{D20Request, D20Test, roll_d20_test};

use super::super::economy;
use super::super::{ActionOutcome, ActionRequest, ActionType};
use super::eligible;
use crate::combat;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::magic::spellcasting;
use crate::model::character::Character;
use crate::model::encounter::{Encounter, PendingReaction, ReactionPolicy, Resume};
use crate::model::slots::ordinal;
use crate::model::spell::SpellDef;

/// How far Counterspell reaches.
pub const RANGE_FT: u32 = 60;

/// What happens to a spell about to be cast.
pub enum CastGate {
    /// Countered, or paused for an answer: the outcome to return.
    Stopped(Box<ActionOutcome>),
    /// It goes ahead in this encounter (lines from a failed Counterspell come first).
    Goes(Box<Encounter>, Vec<String>),
}

/// Offers Counterspell to the first hostile (in initiative order) that can counter the spell
/// `req` casts. `auto` counters now; `ask` pauses the casting with a pending reaction.
pub fn before_cast(call: &mut Call<'_>, enc: Encounter, req: &ActionRequest) -> Result<CastGate> {
    let Some((caster_id, def, level)) = spell_of(call, &enc, req)? else {
        return Ok(CastGate::Goes(Box::new(enc), Vec::new()));
    };
    // Subtle Spell: cast with no words or gestures, no one sees a spell being cast.
    if req
        .metamagic
        .contains(&crate::catalog::caster_rules::Metamagic::Subtle)
    {
        return Ok(CastGate::Goes(Box::new(enc), Vec::new()));
    }
    let Some(side) = enc.combatant(&caster_id).map(|c| c.side) else {
        return Ok(CastGate::Goes(Box::new(enc), Vec::new()));
    };
    let caster = combat::sheet(call, &caster_id)?;
    let mut found = None;
    for cb in &enc.order {
        let id = &cb.character_id;
        // `auto` spends a 3rd-level slot only on a spell of 1st level or higher; a cantrip is
        // countered only when the agent is asked and accepts.
        let auto_skips = cb.reaction_policy == ReactionPolicy::Auto && level == 0;
        if !cb.side.hostile_to(side)
            || cb.reaction_policy == ReactionPolicy::Never
            || auto_skips
            || req.reactions_decided.contains(id)
        {
            continue;
        }
        let Some(r) = eligible::reactor(call, &enc, id)? else {
            continue;
        };
        let near = eligible::distance(&enc, id, &caster_id).is_some_and(|d| d <= RANGE_FT);
        if near
            && eligible::sees(&enc, &r, &caster)
            && eligible::lowest_slot(&r, 3).is_some()
            && eligible::knows_spell(call, &r, "Counterspell")
        {
            found = Some((r, cb.reaction_policy));
            break;
        }
    }
    let Some((r, policy)) = found else {
        return Ok(CastGate::Goes(Box::new(enc), Vec::new()));
    };
    let trigger = format!(
        "{} casts {}{} within {RANGE_FT} ft of {}",
        caster.name,
        def.name,
        if level > 0 {
            format!(" ({} level)", ordinal(level))
        } else {
            " (a cantrip)".into()
        },
        r.name
    );
    let mut enc = enc;
    if policy == ReactionPolicy::Ask {
        let mut held = req.clone();
        held.reactions_decided.push(r.id.clone());
        enc.pending_reaction = Some(PendingReaction {
            reactor_id: r.id.clone(),
            reactor: r.name.clone(),
            reaction: "Counterspell".into(),
            trigger: trigger.clone(),
            resume: Resume::Action {
                request: serde_json::to_value(&held).unwrap_or_default(),
            },
        });
        let headline = format!(
            "Paused: {trigger}. {} may cast Counterspell as a reaction: answer with execute_action actionType react, answer accept (slotLevel 3 or higher) or decline.",
            r.name
        );
        enc.log(headline.clone());
        combat::save(call, &enc)?;
        return Ok(CastGate::Stopped(Box::new(ActionOutcome {
            encounter_id: enc.id.clone(),
            actor: caster.name.clone(),
            action_type: Some(ActionType::CastSpell),
            headline,
            ..Default::default()
        })));
    }
    let (stopped, lines) = counter(call, &mut enc, &r.id, &caster_id, &def, level, None)?;
    if stopped {
        let out = stop(call, enc, req, &def, lines)?;
        return Ok(CastGate::Stopped(Box::new(out)));
    }
    Ok(CastGate::Goes(Box::new(enc), lines))
}

/// The caster, the spell and the level `req` casts it at, when it is a spell cast by a
/// combatant of `enc` (else the normal path reports what is wrong).
pub fn spell_of(
    call: &Call<'_>,
    enc: &Encounter,
    req: &ActionRequest,
) -> Result<Option<(String, SpellDef, u8)>> {
    let Some(name) = req.spell.as_deref() else {
        return Ok(None);
    };
    if req.actor.is_empty() {
        return Ok(None);
    }
    let Ok(cb) = combat::find_combatant(
        enc,
        req.actor.id.as_deref(),
        req.actor.name.as_deref(),
        "actorId",
    ) else {
        return Ok(None);
    };
    let caster = combat::sheet(call, &cb.character_id)?;
    let Ok(def) = spellcasting::find_spell(call, &caster, name) else {
        return Ok(None);
    };
    // Only a casting the economy accepts can be countered.
    if economy::begin(call, enc.clone(), req, ActionType::CastSpell).is_err() {
        return Ok(None);
    }
    // Nor one its caster cannot make (a spell not prepared, no slot left): the casting is
    // refused before anyone reacts, and nothing is spent on either side.
    if !req.force && !castable(call, &caster, &def, req) {
        return Ok(None);
    }
    let level = if def.level == 0 {
        0
    } else {
        req.slot_level.unwrap_or(def.level).max(def.level)
    };
    Ok(Some((cb.character_id.clone(), def, level)))
}

/// Whether `caster` may cast `def` as `req` asks, by the checks the casting makes first: a
/// feature casting it with a use left, or the spell known or prepared and a slot of the level.
fn castable(call: &Call<'_>, caster: &Character, def: &SpellDef, req: &ActionRequest) -> bool {
    use crate::magic::feature_spells::{self, Via};
    match feature_spells::find(caster, def, req.slot_level, req.ability_name.as_deref()) {
        Via::Feature(_) => true,
        Via::Spent(_) if spellcasting::cannot_cast(call.compendium(), caster, def).is_some() => {
            false
        }
        _ => {
            spellcasting::cannot_cast_as(call.compendium(), caster, def, req.ritual).is_none()
                && (def.level == 0
                    || req.ritual
                    || spellcasting::spend_slot(&mut caster.clone(), def.level, req.slot_level)
                        .is_ok())
        }
    }
}

/// `reactor` casts Counterspell (slot `slot`, else the lowest that stops the spell outright,
/// else its lowest of 3rd level or higher) against `caster`'s `spell` cast at `level`.
/// Returns whether the spell is stopped, and what happened.
pub fn counter(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    reactor: &str,
    caster: &str,
    spell: &SpellDef,
    level: u8,
    slot: Option<u8>,
) -> Result<(bool, Vec<String>)> {
    let mut r = combat::sheet(call, reactor)?;
    crate::slots::ensure(call, &mut r);
    let c = combat::sheet(call, caster)?;
    let slot = match slot {
        Some(s) if s < 3 => {
            return Err(EngineError::invalid(
                "slotLevel",
                format!("Counterspell is a 3rd-level spell; give slotLevel 3–9 (got {s})"),
            ));
        }
        Some(s) => s,
        None => eligible::lowest_slot(&r, level.max(3))
            .or_else(|| eligible::lowest_slot(&r, 3))
            .ok_or_else(|| {
                EngineError::Rule(format!(
                    "{} has no slot of 3rd level or higher left",
                    r.name
                ))
            })?,
    };
    if !eligible::spend_slot(&mut r, slot) {
        return Err(EngineError::invalid(
            "slotLevel",
            format!(
                "{} has no {}-level slot left (slots left/max: {})",
                r.name,
                ordinal(slot),
                r.spell_slots.summary()
            ),
        ));
    }
    let mut lines = vec![format!(
        "{} casts Counterspell as a reaction ({}-level slot) against {}'s {}.",
        r.name,
        ordinal(slot),
        c.name,
        spell.name
    )];
    let stopped = if level <= slot {
        lines.push(format!(
            "{} of {} level is no higher than the Counterspell's {}: it fails.",
            spell.name,
            if level == 0 {
                "cantrip".to_string()
            } else {
                ordinal(level).to_string()
            },
            ordinal(slot)
        ));
        true
    } else {
        let ability = spellcasting::spell_ability(call, &r)?;
        let dc = 10 + i32::from(level);
        let req = D20Request::new(D20Test::AbilityCheck { ability })
            .dc(dc)
            .labelled(format!(
                "{} check to counter {}'s {}",
                ability.name(),
                c.name,
                spell.name
            ));
        let roll = roll_d20_test(&r.effective(), &req, call.rng()?);
        call.record_roll(&roll);
        lines.push(roll.summary());
        let ok = roll.success == Some(true);
        lines.push(if ok {
            format!("{} is countered.", spell.name)
        } else {
            format!("The Counterspell fails: {} goes ahead.", spell.name)
        });
        ok
    };
    combat::put_sheet(call, &r)?;
    eligible::spend_reaction(enc, reactor);
    call.record_change(
        "character",
        reactor,
        format!("{} casts Counterspell as a reaction", r.name),
    );
    Ok((stopped, lines))
}

/// A countered spell: the caster's action (or whatever the casting costs) and its slot are
/// spent, nothing else happens; the encounter is saved.
pub fn stop(
    call: &mut Call<'_>,
    enc: Encounter,
    req: &ActionRequest,
    spell: &SpellDef,
    mut lines: Vec<String>,
) -> Result<ActionOutcome> {
    let mut turn = economy::begin(call, enc, req, ActionType::CastSpell)?;
    let mut actor = turn
        .actor
        .clone()
        .ok_or_else(|| EngineError::invalid("actorId", "say who casts"))?;
    crate::slots::ensure(call, &mut actor);
    let used = spellcasting::spend_slot(&mut actor, spell.level, req.slot_level)?;
    combat::put_sheet(call, &actor)?;
    super::super::economy::mark_cast(&mut turn.encounter, &actor.id, turn.cost, spell.level);
    if used.spent {
        lines.push(format!(
            "{}'s {}-level slot is spent all the same.",
            actor.name,
            ordinal(used.level)
        ));
    }
    let headline = format!(
        "{}'s {} is countered: it has no effect.",
        actor.name, spell.name
    );
    turn.encounter.log(format!("{}: {headline}", actor.name));
    combat::save(call, &turn.encounter)?;
    call.record_change("encounter", &turn.encounter.id, headline.clone());
    Ok(ActionOutcome {
        encounter_id: turn.encounter.id.clone(),
        actor: actor.name.clone(),
        action_type: Some(ActionType::CastSpell),
        cost: Some(turn.cost),
        headline,
        lines,
        forced: turn.forced.clone(),
        economy: turn
            .encounter
            .combatant(&actor.id)
            .map(|c| c.economy.clone()),
        ..Default::default()
    })
}
