//! Hellish Rebuke as a reaction: a creature damaged by another it can see within 60 ft, that
//! knows the spell and has a slot, answers after the action that hurt it. `auto` casts it at
//! once (the spell's own DEX save for half), `ask` leaves it pending for the agent.
//!
//! Retaliation (Berserker 14) answers the same way: a creature with the rule, damaged by another
//! within 5 ft, makes one melee weapon attack against it with its reaction (`auto`); with `ask`
//! the answer says it may (execute_action attack, actionCost reaction).

use super::super::{ActionOutcome, ActionRequest, ActionType, Who, execute};
use super::eligible;
use crate::combat;
use crate::engine::Call;
use crate::error::Result;
use crate::model::encounter::{ActionCost, Encounter, PendingReaction, ReactionPolicy, Resume};

/// How far Hellish Rebuke reaches.
pub const RANGE_FT: u32 = 60;

/// The spell.
pub const SPELL: &str = "Hellish Rebuke";

/// Who could rebuke the actor of an action, with their HP (temporary included) before it.
#[derive(Debug, Default)]
pub struct Watch {
    actor_id: Option<String>,
    before: Vec<(String, u32)>,
}

/// What the action's damage brought.
#[derive(Debug)]
pub enum Rebuke {
    /// Cast now (policy auto): reactor, target.
    Cast(String, String),
    /// Left pending (policy ask): the line saying so.
    Asked(String),
    /// Retaliation now (policy auto): reactor, target.
    Retaliate(String, String),
}

/// Whether `c` could answer damage with Retaliation.
fn retaliates(c: &crate::model::character::Character) -> bool {
    c.has_rule(crate::catalog::class_rules::ClassRule::Retaliation)
}

/// Notes, before an action, who could answer its damage with Hellish Rebuke.
pub fn watch(call: &Call<'_>, enc: &Encounter, req: &ActionRequest) -> Result<Watch> {
    if req.actor.is_empty() {
        return Ok(Watch::default());
    }
    let Ok(actor) = combat::find_combatant(
        enc,
        req.actor.id.as_deref(),
        req.actor.name.as_deref(),
        "actorId",
    ) else {
        return Ok(Watch::default());
    };
    let mut w = Watch {
        actor_id: Some(actor.character_id.clone()),
        before: Vec::new(),
    };
    for cb in &enc.order {
        if cb.character_id == actor.character_id
            || cb.reaction_policy == ReactionPolicy::Never
            || req.reactions_decided.contains(&cb.character_id)
        {
            continue;
        }
        if let Some(c) = eligible::reactor(call, enc, &cb.character_id)?
            && (retaliates(&c)
                || (eligible::lowest_slot(&c, 1).is_some()
                    && eligible::knows_spell(call, &c, SPELL)))
        {
            w.before.push((c.id.clone(), c.hp + c.temp_hp));
        }
    }
    Ok(w)
}

/// After the action: the first watcher that took damage from the actor and can still react
/// gets its Hellish Rebuke (pending with `ask`).
pub fn after(call: &mut Call<'_>, enc: &mut Encounter, w: &Watch) -> Result<Option<Rebuke>> {
    let Some(actor_id) = &w.actor_id else {
        return Ok(None);
    };
    if enc.pending_reaction.is_some() || enc.map.creature(actor_id).is_none() {
        return Ok(None);
    }
    let actor = combat::sheet(call, actor_id)?;
    for (id, before) in &w.before {
        let Some(r) = eligible::reactor(call, enc, id)? else {
            continue;
        };
        if r.hp + r.temp_hp >= *before {
            continue;
        }
        let feet = eligible::distance(enc, id, actor_id);
        if retaliates(&r) && feet.is_some_and(|d| d <= 5) {
            if eligible::policy(enc, id) == ReactionPolicy::Ask {
                return Ok(Some(Rebuke::Asked(format!(
                    "{} was damaged by {} within 5 ft and may use Retaliation: execute_action attack with actorId {}, actionCost reaction.",
                    r.name, actor.name, r.id
                ))));
            }
            return Ok(Some(Rebuke::Retaliate(r.id.clone(), actor.id.clone())));
        }
        let near = feet.is_some_and(|d| d <= RANGE_FT);
        if !near
            || !eligible::sees(enc, &r, &actor)
            || eligible::lowest_slot(&r, 1).is_none()
            || !eligible::knows_spell(call, &r, SPELL)
        {
            continue;
        }
        if eligible::policy(enc, id) == ReactionPolicy::Ask {
            let trigger = format!(
                "{} was damaged by {} within {RANGE_FT} ft",
                r.name, actor.name
            );
            enc.pending_reaction = Some(PendingReaction {
                reactor_id: r.id.clone(),
                reactor: r.name.clone(),
                reaction: SPELL.into(),
                trigger: trigger.clone(),
                resume: Resume::Done {
                    target_id: actor.id.clone(),
                },
            });
            return Ok(Some(Rebuke::Asked(format!(
                "Pending: {trigger}. {} may cast Hellish Rebuke as a reaction: answer with execute_action actionType react, answer accept (slotLevel optional) or decline.",
                r.name
            ))));
        }
        return Ok(Some(Rebuke::Cast(r.id.clone(), actor.id.clone())));
    }
    Ok(None)
}

/// Casts Hellish Rebuke for `reactor` at `target` (after the encounter is saved).
pub fn cast(
    call: &mut Call<'_>,
    encounter_id: &str,
    reactor: &str,
    target: &str,
    slot: Option<u8>,
) -> Result<ActionOutcome> {
    let req = ActionRequest {
        encounter_id: Some(encounter_id.to_string()),
        actor: Who {
            id: Some(reactor.to_string()),
            name: None,
        },
        action_type: Some(ActionType::CastSpell),
        action_cost: Some(ActionCost::Reaction),
        target: Who {
            id: Some(target.to_string()),
            name: None,
        },
        spell: Some(SPELL.into()),
        slot_level: slot,
        ..Default::default()
    };
    execute(call, &req)
}

/// Adds what the damage brought to the action's answer, casting an `auto` rebuke now.
pub fn finish(call: &mut Call<'_>, r: Option<Rebuke>, out: &mut ActionOutcome) -> Result<()> {
    match r {
        None => {}
        Some(Rebuke::Asked(line)) => out.lines.push(line),
        Some(Rebuke::Retaliate(reactor, target)) => {
            let req = ActionRequest {
                encounter_id: Some(out.encounter_id.clone()),
                actor: Who {
                    id: Some(reactor),
                    name: None,
                },
                action_type: Some(ActionType::Attack),
                action_cost: Some(ActionCost::Reaction),
                target: Who {
                    id: Some(target),
                    name: None,
                },
                ..Default::default()
            };
            match execute(call, &req) {
                Ok(o) => {
                    out.lines.push(format!(
                        "{} answers with Retaliation (reaction, melee attack): {}",
                        o.actor, o.headline
                    ));
                    out.lines.extend(o.lines);
                }
                Err(e) => out.lines.push(format!("No Retaliation: {e}")),
            }
        }
        Some(Rebuke::Cast(reactor, target)) => {
            let o = cast(call, &out.encounter_id.clone(), &reactor, &target, None)?;
            out.lines.push(format!(
                "{} answers with Hellish Rebuke (reaction): {}",
                o.actor, o.headline
            ));
            out.lines.extend(o.lines);
        }
    }
    Ok(())
}
