//! Who may act now, and what it costs: the action economy of DESIGN §4, enforced unless the
//! request says `force` (then every rule set aside is named in the answer).

use super::{ActionRequest, ActionType, Turn};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::encounter::ActionCost;
use crate::model::encounter::Encounter;

/// What an action costs when the request does not say.
pub fn default_cost(t: ActionType) -> ActionCost {
    match t {
        ActionType::TwoWeaponAttack => ActionCost::BonusAction,
        ActionType::Move => ActionCost::Movement,
        ActionType::Damage
        | ActionType::Heal
        | ActionType::UseObject
        | ActionType::LairAction
        | ActionType::LegendaryAction => ActionCost::Free,
        _ => ActionCost::Action,
    }
}

/// Whether `c` is incapacitated (directly or through paralyzed, petrified, stunned, unconscious),
/// as its effective stats say (condition immunities applied): the one reading every action uses.
pub fn incapacitated(c: &Character) -> bool {
    c.effective().is_incapacitated()
}

pub(crate) use super::forced::rule;

/// Resolves the actor, checks it may take `t` now at its cost, and spends that cost.
pub fn begin<'r>(
    call: &Call<'_>,
    mut encounter: Encounter,
    req: &'r ActionRequest,
    t: ActionType,
) -> Result<Turn<'r>> {
    let mut cost = req.action_cost.unwrap_or_else(|| default_cost(t));
    let dm_action = matches!(
        t,
        ActionType::Damage | ActionType::Heal | ActionType::LairAction
    );
    let mut forced = Vec::new();
    if req.actor.is_empty() {
        if dm_action {
            return Ok(Turn {
                encounter,
                actor: None,
                req,
                cost: ActionCost::Free,
                forced,
            });
        }
        return Err(EngineError::invalid(
            "actorId",
            format!("say who takes the {} (actorId or actorName)", t.key()),
        ));
    }
    let combatant = crate::combat::find_combatant(
        &encounter,
        req.actor.id.as_deref(),
        req.actor.name.as_deref(),
        "actorId",
    )?
    .clone();
    let actor = crate::combat::sheet(call, &combatant.character_id)?;
    // The rules' cost (a class feature's or a spell's own); another cost only where a rule
    // offers it (Cunning Action, a readied action, …), else with force.
    if !dm_action {
        let base = super::costs::rule_cost(call, &actor, req, t);
        cost = base;
        if let Some(asked) = req.action_cost
            && asked != base
        {
            let why = super::costs::alternative(call, &actor, &combatant, req, t, asked);
            if why.is_none() {
                rule(
                    false,
                    req.force,
                    &mut forced,
                    format!(
                        "{} costs {} by the rules and no rule lets {} take it as {}{}",
                        t.key(),
                        super::costs::cost_words(base),
                        actor.name,
                        super::costs::cost_words(asked),
                        super::costs::hint(t, asked)
                    ),
                )?;
            }
            cost = asked;
        }
    }
    if dm_action {
        return Ok(Turn {
            encounter,
            actor: Some(actor),
            req,
            cost: ActionCost::Free,
            forced,
        });
    }
    if combatant.removed {
        return Err(EngineError::Rule(format!(
            "{} has left the encounter; add them back with manage_encounter add_participant",
            actor.name
        )));
    }
    if actor.dead {
        return Err(EngineError::Rule(format!(
            "{} is dead and cannot act",
            actor.name
        )));
    }
    let current = encounter.current().map(|c| c.character_id.clone());
    let own_turn = current.as_deref() == Some(actor.id.as_str());
    let whose = encounter
        .current()
        .map(|c| c.name.clone())
        .unwrap_or_default();
    if t == ActionType::LegendaryAction {
        rule(
            !own_turn,
            req.force,
            &mut forced,
            format!(
                "legendary actions are taken at the end of another creature's turn, not on {}'s own",
                actor.name
            ),
        )?;
    } else {
        rule(
            own_turn || cost == ActionCost::Reaction,
            req.force,
            &mut forced,
            format!(
                "it is {whose}'s turn, not {}'s; off-turn only the reactions a rule offers (a reaction spell such as Shield, a readied action, a stat block's reaction), or advance_turn",
                actor.name
            ),
        )?;
    }
    // Incapacitated: no actions or reactions, and nothing it does itself on its turn either
    // (a free object interaction such as drinking its own potion, a legendary action).
    if cost != ActionCost::Movement {
        rule(
            !incapacitated(&actor),
            req.force,
            &mut forced,
            format!(
                "{} is incapacitated and can take no actions or reactions{}",
                actor.name,
                if cost == ActionCost::Free {
                    ", nor use an object itself (another creature may administer a potion to it: use_magic_item with targetName)"
                } else {
                    ""
                }
            ),
        )?;
    }
    if combatant.surprised && cost != ActionCost::Free {
        rule(
            false,
            req.force,
            &mut forced,
            format!(
                "{} is surprised: no movement, actions or reactions until its first turn ends",
                actor.name
            ),
        )?;
    }
    let Some(cb) = encounter.combatant_mut(&actor.id) else {
        return Err(EngineError::Rule(
            "internal: the actor left the order".into(),
        ));
    };
    let spent = |what: &str| format!("{} has already used its {what} this turn", combatant.name);
    match cost {
        ActionCost::Action => {
            // A multi-attack Attack action already begun goes on without a new action (grapple
            // and shove replace one of its attacks).
            let continuing = matches!(
                t,
                ActionType::Attack | ActionType::Grapple | ActionType::Shove
            ) && cb.economy.attacks_left > 0;
            if !continuing {
                rule(!cb.economy.action, req.force, &mut forced, spent("action"))?;
                cb.economy.action = true;
            }
        }
        ActionCost::BonusAction => {
            rule(
                !cb.economy.bonus_action,
                req.force,
                &mut forced,
                spent("bonus action"),
            )?;
            cb.economy.bonus_action = true;
        }
        ActionCost::Reaction => {
            rule(
                !cb.economy.reaction,
                req.force,
                &mut forced,
                format!(
                    "{} has already used its reaction this round (it returns at the start of its turn)",
                    combatant.name
                ),
            )?;
            cb.economy.reaction = true;
        }
        ActionCost::Free => {
            if t == ActionType::UseObject {
                rule(
                    !cb.economy.object_interaction,
                    req.force,
                    &mut forced,
                    spent("free object interaction"),
                )?;
                cb.economy.object_interaction = true;
            }
        }
        ActionCost::Movement => {}
    }
    Ok(Turn {
        encounter,
        actor: Some(actor),
        req,
        cost,
        forced,
    })
}

/// Records on `caster_id`'s economy that it cast a spell of `level` at `cost` this turn, for the
/// bonus-action spell rule (a countered spell was cast all the same).
pub fn mark_cast(enc: &mut Encounter, caster_id: &str, cost: ActionCost, level: u8) {
    if let Some(cb) = enc.combatant_mut(caster_id) {
        match cost {
            ActionCost::BonusAction => cb.economy.bonus_action_spell = true,
            ActionCost::Action if level > 0 => cb.economy.leveled_action_spell = true,
            _ => {}
        }
    }
}
