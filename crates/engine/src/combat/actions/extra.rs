//! Several targets in one Attack action: a character with Extra Attack (a fighter's two, three
//! or four attacks) names one target per attack in `targets` and the attacks are made in that
//! order, each resolved and reported on its own. A stat block's Multiattack takes its targets
//! the same way in `attack`. More targets than the action has attacks left is refused (or made
//! under `force`, reported); a target that dies before its turn comes is not attacked and the
//! attack stays unspent.

use super::Turn;
use super::attack::{StrikeOptions, StrikeResult, attacks_per_action, strike};
use crate::combat;
use crate::engine::Call;
use crate::error::Result;
use crate::model::character::Character;
use crate::model::encounter::ActionCost;

/// Makes one attack of the Attack action per target in `targets`.
pub fn per_target(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    actor: &Character,
    targets: &[String],
    opts: &StrikeOptions,
) -> Result<(Vec<StrikeResult>, Vec<String>)> {
    let req = turn.req;
    let left = turn
        .encounter
        .combatant(&actor.id)
        .map_or(0, |c| c.economy.attacks_left);
    let available = if left > 0 {
        left
    } else {
        attacks_per_action(actor)
    };
    let n = u32::try_from(targets.len()).unwrap_or(u32::MAX);
    turn.rule(
        turn.cost == ActionCost::Action && n <= available,
        format!(
            "{} has {available} attack{} left in this Attack action and {n} targets were given (one attack per target); attack again next turn or pass fewer targets",
            actor.name,
            if available == 1 { "" } else { "s" }
        ),
    )?;
    let mut strikes: Vec<StrikeResult> = Vec::new();
    let mut notes = Vec::new();
    let mut made = 0u32;
    for (i, target) in targets.iter().enumerate() {
        let t = combat::sheet(call, target)?;
        if t.dead {
            notes.push(format!(
                "{} is already dead; attack {} of the action is not made (it stays unspent).",
                t.name,
                i + 1
            ));
            continue;
        }
        let weapon = req
            .weapon
            .clone()
            .or_else(|| strikes.first().map(|s| s.weapon.clone()));
        let s = strike(
            call,
            &mut turn.encounter,
            &actor.id,
            target,
            weapon.as_deref(),
            opts,
        )?;
        made += 1;
        let paused = s.paused;
        let w = s.weapon.clone();
        strikes.push(s);
        if paused {
            // The attacks still to make wait with the paused one.
            let rest: Vec<(String, String)> = targets[i + 1..]
                .iter()
                .map(|t| (req.weapon.clone().unwrap_or_else(|| w.clone()), t.clone()))
                .collect();
            made += u32::try_from(rest.len()).unwrap_or(0);
            super::reactions::shield::set_rest(&mut turn.encounter, rest);
            break;
        }
    }
    if let Some(cb) = turn.encounter.combatant_mut(&actor.id) {
        cb.economy.attacks_left = available.saturating_sub(made);
        cb.economy.attacked = true;
    }
    Ok((strikes, notes))
}
