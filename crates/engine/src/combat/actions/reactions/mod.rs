//! Reactions as interrupts. A trigger (a creature leaving reach, an attack roll that hits, a
//! spell cast nearby, damage taken) offers the reactions a combatant has; its
//! [`ReactionPolicy`](crate::model::encounter::ReactionPolicy) decides: `auto` takes the ones
//! that help, `never` none, and `ask` pauses the triggering action with a
//! [`PendingReaction`](crate::model::encounter::PendingReaction) on the encounter. Nothing else
//! happens in the fight until the agent answers with `react` (accept or decline); then the
//! paused action goes on from where it stopped, with the same rolls.
//!
//! [`eligible`] holds the shared checks, [`shield`], [`counter`] and [`rebuke`] the reaction
//! spells; opportunity attacks are offered by the move itself (`movement`).

pub mod counter;
pub mod eligible;
pub mod rebuke;
pub mod shield;
pub mod shield_spell;

pub use shield::{set_rest, set_then};

use super::attack::{StrikeOptions, StrikeResult, strike};
use super::{ActionOutcome, ActionRequest, ActionType, ReactionAnswer, execute};
use crate::combat;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::encounter::{Encounter, PendingReaction, ReactionPolicy, Resume};

/// The reaction offered when a creature leaves a hostile's reach.
pub const OPPORTUNITY_ATTACK: &str = "opportunity attack";

/// Refuses any action while a reaction waits for its answer.
pub fn refuse_while_pending(enc: &Encounter) -> Result<()> {
    match enc.pending_refusal() {
        Some(why) => Err(EngineError::Rule(why)),
        None => Ok(()),
    }
}

fn request_of(v: serde_json::Value) -> Result<ActionRequest> {
    serde_json::from_value(v)
        .map_err(|e| EngineError::Rule(format!("internal: a paused action is unreadable: {e}")))
}

/// An opportunity attack by `reactor` on `mover` (its reaction spent).
pub fn opportunity(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    reactor: &str,
    mover: &str,
    weapon: Option<&str>,
) -> Result<StrikeResult> {
    let mut opts = StrikeOptions {
        melee_only: true,
        label: Some("Opportunity attack".into()),
        ..Default::default()
    };
    // Escape the Horde: opportunity attacks against the mover have disadvantage.
    if combat::sheet(call, mover)?.has_rule(crate::catalog::class_rules::ClassRule::EscapeTheHorde)
    {
        opts.disadvantage
            .push("Escape the Horde (the mover's)".into());
    }
    eligible::spend_reaction(enc, reactor);
    strike(call, enc, reactor, mover, weapon, &opts)
}

/// What a hostile does when a mover leaves its reach.
pub enum OaChoice {
    /// Attack now (policy auto).
    Take,
    /// No attack; the line says why (policy never, or a readied action keeps the reaction).
    Skip(String),
    /// Ask the agent (policy ask); the hostile's name.
    Ask(String),
}

/// How `hostile`'s reaction policy answers `mover_name` leaving its reach.
pub fn opportunity_policy(enc: &Encounter, hostile: &str, mover_name: &str) -> OaChoice {
    let Some(cb) = enc.combatant(hostile) else {
        return OaChoice::Skip(String::new());
    };
    match cb.reaction_policy {
        ReactionPolicy::Never => OaChoice::Skip(format!(
            "{} lets {mover_name} go (reaction policy: never).",
            cb.name
        )),
        ReactionPolicy::Ask => OaChoice::Ask(cb.name.clone()),
        ReactionPolicy::Auto => match &cb.flags.readied {
            Some(r) => OaChoice::Skip(format!(
                "{} keeps its reaction for its readied action ({}) and makes no opportunity attack on {mover_name}.",
                cb.name, r.trigger
            )),
            None => OaChoice::Take,
        },
    }
}

/// Pauses a move where it leaves `hostile`'s reach: the rest of the move waits for the answer.
pub fn ask_opportunity(
    enc: &mut Encounter,
    hostile: &str,
    hostile_name: &str,
    mover_name: &str,
    at: tabletop_grid::Position,
    rest: ActionRequest,
) -> String {
    let readied = enc
        .combatant(hostile)
        .and_then(|c| c.flags.readied.as_ref())
        .map(|r| {
            format!(
                " (taking it uses the reaction its readied action needs: {})",
                r.trigger
            )
        })
        .unwrap_or_default();
    let trigger = format!("{mover_name} leaves {hostile_name}'s reach at {at}");
    enc.pending_reaction = Some(PendingReaction {
        reactor_id: hostile.to_string(),
        reactor: hostile_name.to_string(),
        reaction: OPPORTUNITY_ATTACK.into(),
        trigger: trigger.clone(),
        resume: Resume::Action {
            request: serde_json::to_value(&rest).unwrap_or_default(),
        },
    });
    format!(
        "Paused: {trigger}. {hostile_name} may make an opportunity attack{readied}: answer with execute_action actionType react, answer accept (weapon optional) or decline."
    )
}

/// `react`: answers the pending reaction and lets the paused action go on.
pub fn answer(call: &mut Call<'_>, enc: Encounter, req: &ActionRequest) -> Result<ActionOutcome> {
    let Some(p) = enc.pending_reaction.clone() else {
        return Err(EngineError::Rule(format!(
            "no reaction is pending in encounter {}; react answers one a trigger offered to a combatant with reaction policy ask (set it with manage_encounter set_reaction_policy)",
            enc.id
        )));
    };
    let Some(answer) = req.answer else {
        return Err(EngineError::invalid(
            "answer",
            format!(
                "accept or decline {}'s {} ({})",
                p.reactor, p.reaction, p.trigger
            ),
        ));
    };
    if !req.actor.is_empty() {
        let cb = combat::find_combatant(
            &enc,
            req.actor.id.as_deref(),
            req.actor.name.as_deref(),
            "actorId",
        )?;
        if cb.character_id != p.reactor_id {
            return Err(EngineError::invalid(
                "actorId",
                format!(
                    "the pending reaction is {}'s ({}: {}), not {}'s",
                    p.reactor, p.reaction, p.trigger, cb.name
                ),
            ));
        }
    }
    let mut enc = enc;
    enc.pending_reaction = None;
    let accept = answer == ReactionAnswer::Accept;
    let said = if accept { "takes" } else { "declines" };
    enc.log(format!(
        "{} {said} the {} ({})",
        p.reactor, p.reaction, p.trigger
    ));
    let mut out = ActionOutcome {
        encounter_id: enc.id.clone(),
        actor: p.reactor.clone(),
        action_type: Some(ActionType::React),
        ..Default::default()
    };
    match p.resume.clone() {
        Resume::Action { request } if p.reaction == OPPORTUNITY_ATTACK => {
            let rest = request_of(request)?;
            let mover = rest.actor.id.clone().unwrap_or_default();
            if accept {
                let s = opportunity(call, &mut enc, &p.reactor_id, &mover, req.weapon.as_deref())?;
                out.headline = format!("{} makes an opportunity attack: {}", p.reactor, s.headline);
                out.lines.extend(s.lines.iter().cloned());
                out.details = serde_json::json!({ "attacks": [s] });
                if enc.pending_reaction.is_some() {
                    set_then(&mut enc, serde_json::to_value(&rest).unwrap_or_default());
                    combat::save(call, &enc)?;
                    return Ok(out);
                }
            } else {
                out.headline = format!(
                    "{} lets {} go without an opportunity attack.",
                    p.reactor,
                    combat::sheet(call, &mover)?.name
                );
            }
            combat::save(call, &enc)?;
            go_on(call, &mover, &rest, &mut out)?;
        }
        Resume::Action { request } => {
            // Counterspell: the held casting is countered, or goes ahead.
            let held = request_of(request)?;
            let mut lines = Vec::new();
            if accept {
                let Some((caster, def, level)) = counter::spell_of(call, &enc, &held)? else {
                    return Err(EngineError::Rule(
                        "the held spell can no longer be cast; decline the reaction".into(),
                    ));
                };
                let (stopped, l) = counter::counter(
                    call,
                    &mut enc,
                    &p.reactor_id,
                    &caster,
                    &def,
                    level,
                    req.slot_level,
                )?;
                if stopped {
                    let mut o = counter::stop(call, enc, &held, &def, l)?;
                    o.action_type = Some(ActionType::React);
                    return Ok(o);
                }
                lines = l;
            } else {
                lines.push(format!("{} lets the spell go.", p.reactor));
            }
            combat::save(call, &enc)?;
            let mut o = execute(call, &held)?;
            lines.append(&mut o.lines);
            o.lines = lines;
            return Ok(o);
        }
        Resume::Hit {
            attacker_id,
            target_id,
            weapon,
            roll,
            options,
            rest,
            then,
        } => {
            if accept {
                out.lines
                    .extend(shield::cast(call, &mut enc, &target_id, req.slot_level)?);
            }
            let kept: shield::ResumeStrike = serde_json::from_value(options).unwrap_or_default();
            let mut decided = kept.decided.clone();
            decided.push(target_id.clone());
            let base = StrikeOptions {
                ability: kept.ability,
                force: kept.force,
                melee_only: kept.melee_only,
                off_hand: kept.off_hand,
                two_weapon_style: kept.two_weapon_style,
                label: kept.label.clone(),
                smite_slot: kept.smite_slot,
                decline_sneak_attack: kept.decline_sneak_attack,
                ..Default::default()
            };
            let first = StrikeOptions {
                preset_roll: Some(*roll),
                decided,
                ..base.clone()
            };
            let s = strike(
                call,
                &mut enc,
                &attacker_id,
                &target_id,
                weapon.as_deref(),
                &first,
            )?;
            let mut heads = vec![s.headline.clone()];
            out.lines.extend(s.lines.iter().cloned());
            let mut strikes = vec![s];
            for (i, (action, target)) in rest.iter().enumerate() {
                if combat::sheet(call, target)?.dead {
                    continue;
                }
                let s = strike(call, &mut enc, &attacker_id, target, Some(action), &base)?;
                heads.push(s.headline.clone());
                out.lines.extend(s.lines.iter().cloned());
                let paused = s.paused;
                strikes.push(s);
                if paused {
                    set_rest(&mut enc, rest[i + 1..].to_vec());
                    break;
                }
            }
            out.headline = heads.join(" ");
            out.details = serde_json::json!({ "attacks": strikes });
            if let Some(t) = then {
                if enc.pending_reaction.is_some() {
                    set_then(&mut enc, t);
                } else {
                    combat::save(call, &enc)?;
                    let rest = request_of(t)?;
                    let mover = rest.actor.id.clone().unwrap_or_default();
                    go_on(call, &mover, &rest, &mut out)?;
                    return Ok(out);
                }
            }
            combat::save(call, &enc)?;
        }
        Resume::Done { target_id } => {
            combat::save(call, &enc)?;
            if accept {
                let o = rebuke::cast(call, &enc.id, &p.reactor_id, &target_id, req.slot_level)?;
                out.headline = format!(
                    "{} casts {} as a reaction: {}",
                    p.reactor, p.reaction, o.headline
                );
                out.lines = o.lines;
                out.forced = o.forced;
            } else {
                out.headline = format!("{} lets it pass (no {}).", p.reactor, p.reaction);
            }
        }
    }
    Ok(out)
}

/// Runs the rest of a paused move when the mover can still go on.
fn go_on(
    call: &mut Call<'_>,
    mover: &str,
    rest: &ActionRequest,
    out: &mut ActionOutcome,
) -> Result<()> {
    let m = combat::sheet(call, mover)?;
    if m.dead || m.hp == 0 {
        out.lines
            .push(format!("{} drops and its move ends there.", m.name));
        return Ok(());
    }
    let o = execute(call, rest)?;
    out.lines
        .push(format!("{} goes on: {}", m.name, o.headline));
    out.lines.extend(o.lines);
    Ok(())
}
