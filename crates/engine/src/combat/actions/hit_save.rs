//! A stat-block attack's saving-throw rider on a hit: the target saves against the rider's DC;
//! a failure takes the rider's damage (a wyvern's poison) and its conditions (a wolf's prone),
//! a success half the damage where the text says so. Conditions that come only when the rider's
//! damage drops the target to 0 hit points (a giant spider's paralysis) come only then, with the
//! target stable.

use tabletop_rules::damage::DamagePart;
use tabletop_rules::dice;

use super::damage_to::apply_damage_to;
use super::tactics::{ability_text::duration_in, add_condition};
use crate::character::Character;
use crate::combat::{self, Encounter};
use crate::engine::Call;
use crate::error::Result;
use crate::model::character::StatDc;

/// Resolves `attacker`'s rider of `action` on `target_id`, which the hit left alive; the
/// target's sheet after it, when there was a rider.
pub fn resolve(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    attacker: &Character,
    action: &str,
    target_id: &str,
    lines: &mut Vec<String>,
) -> Result<Option<Character>> {
    let Some((rider, text)) = crate::combat::traits::hit_rider(attacker, action) else {
        return Ok(None);
    };
    let mut t = combat::sheet(call, target_id)?;
    // What the save resists: the conditions a failure imposes and the damage at stake
    // (Dwarven Resilience against a poisoning bite, Brave against a frightening one).
    let vs = crate::saves::SaveAgainst {
        conditions: rider.conditions.clone(),
        damage: rider.damage.as_ref().map(|(_, t)| *t),
        ..Default::default()
    };
    let save = crate::saves::roll_save(call, &t, rider.ability, rider.dc, action, &vs)?;
    let failed = save.success != Some(true);
    lines.push(format!("{} — {}", t.name, save.summary()));
    let mut dropped = false;
    if let Some((dice_text, kind)) = &rider.damage
        && (failed || rider.half_on_success)
    {
        let roll = dice::parse(&format!("{dice_text}[{kind}]"))?.roll(call.rng()?)?;
        call.record_roll(&roll);
        let rolled = u32::try_from(roll.total.max(0)).unwrap_or(0);
        let amount = if failed { rolled } else { rolled / 2 };
        lines.push(format!(
            "{action}: {}{}",
            roll.summary(),
            if failed {
                String::new()
            } else {
                format!(", halved on the save: {amount}")
            }
        ));
        let before = t.hp;
        let (_, _, after) = apply_damage_to(
            call,
            enc,
            target_id,
            &[DamagePart::new(Some(*kind), amount)],
            false,
            lines,
        )?;
        dropped = before > 0 && after.hp == 0 && !after.dead;
        t = after;
    }
    if !failed || t.dead {
        return Ok(Some(t));
    }
    if rider.at_zero {
        if !dropped {
            if !rider.conditions.is_empty() {
                lines.push(format!(
                    "{} is not {}: {action} imposes that only when its damage drops the target to 0 HP",
                    t.name,
                    rider
                        .conditions
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" or ")
                ));
            }
            return Ok(Some(t));
        }
        t.death_saves = Default::default();
        t.death_saves.stable = true;
        lines.push(format!("{} is stable ({action})", t.name));
    }
    // As a special ability's conditions are: immunity checked, the text's duration kept ("for
    // 1 minute", a save repeated at the end of each turn), concentration enforced.
    let dc = StatDc {
        ability: rider.ability,
        value: rider.dc,
        success: String::new(),
    };
    for c in &rider.conditions {
        if t.has_condition(*c) {
            continue;
        }
        let source = format!("{action} ({})", attacker.name);
        let line = add_condition(call, &mut t, *c, source, duration_in(text, &dc))?;
        lines.push(format!("{line} ({action})"));
    }
    combat::put_sheet(call, &t)?;
    Ok(Some(t))
}
