//! Unarmed strikes a feature makes in one bonus action (the catalog's `Use::UnarmedStrikes`,
//! Flurry of Blows): only after the Attack action this turn, refused before the ki is spent
//! otherwise; each strike is a full attack (`attack::strike`) at the named target, or one per
//! name in `targets`.

use super::Turn;
use crate::combat::actions::attack::{StrikeOptions, strike};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;

/// The weapon every strike is made with.
const UNARMED: &str = "Unarmed Strike";

/// Refuses (unless forced) strikes that follow the Attack action when `a` has not taken it this
/// turn. Run before anything is spent.
pub fn check(turn: &mut Turn<'_>, a: &Character, feature: &str) -> Result<()> {
    let attacked = turn
        .encounter
        .combatant(&a.id)
        .is_some_and(|cb| cb.economy.attacked);
    turn.rule(
        attacked,
        format!(
            "{feature} follows the Attack action, and {} has not taken it this turn: attack first (execute_action attack)",
            a.name
        ),
    )
}

/// Makes `count` unarmed strikes by `a`: at `targets` in order (the last one takes the rest), or
/// at the one target named. The strikes' lines go to `lines`; returns the headline.
pub fn strikes(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    a: &Character,
    feature: &str,
    count: u32,
    lines: &mut Vec<String>,
) -> Result<String> {
    let mut who: Vec<crate::combat::actions::Who> = turn.req.targets.clone();
    if who.is_empty() && !turn.req.target.is_empty() {
        who.push(turn.req.target.clone());
    }
    if who.is_empty() {
        return Err(EngineError::invalid(
            "targetName",
            format!(
                "name the creature {feature}'s strikes are aimed at (targetName, or targets for one per strike)"
            ),
        ));
    }
    let mut ids = Vec::new();
    for w in &who {
        let (cb, _) = super::resolve(call, &turn.encounter, w, "targetId")?;
        ids.push(cb.character_id);
    }
    let opts = StrikeOptions {
        force: turn.req.force,
        ..Default::default()
    };
    let mut heads = Vec::new();
    for i in 0..usize::try_from(count).unwrap_or(0) {
        let target = &ids[i.min(ids.len() - 1)];
        if crate::combat::sheet(call, target)?.dead {
            lines.push(format!("strike {} is not made: its target is dead", i + 1));
            continue;
        }
        let s = strike(
            call,
            &mut turn.encounter,
            &a.id,
            target,
            Some(UNARMED),
            &opts,
        )?;
        lines.push(format!(
            "— {UNARMED} {} → {}: {}",
            i + 1,
            s.target,
            s.headline
        ));
        lines.extend(s.lines.iter().cloned());
        turn.forced.extend(s.forced.iter().cloned());
        heads.push(s.headline.clone());
        if s.paused {
            let rest: Vec<(String, String)> = (i + 1..usize::try_from(count).unwrap_or(0))
                .map(|k| (UNARMED.to_string(), ids[k.min(ids.len() - 1)].clone()))
                .collect();
            crate::combat::actions::reactions::shield::set_rest(&mut turn.encounter, rest);
            break;
        }
    }
    Ok(format!("{} uses {feature}: {}", a.name, heads.join(" ")))
}
