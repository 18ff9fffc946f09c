//! A spell's condition laid on one target: immunities and magic that can't put it to sleep
//! checked, its duration (the caster's concentration, a repeated save, or rounds) and what ends
//! it early (`ends_on`: any damage for a magical sleep or Hypnotic Pattern, harm from the
//! charmer's side for Charm Person), and the concentration link that holds it.

use tabletop_rules::Condition;

use super::spellcasting::CastPlan;
use crate::engine::Call;
use crate::model::character::{Character, ConditionEntry};
use crate::model::concentration::ConcentrationLink;
use crate::model::effects::Duration;

/// Imposes `cond` from `plan`'s spell on `target`; the line to report, or why it is unaffected.
pub(crate) fn impose_condition(
    call: &mut Call<'_>,
    caster: &mut Character,
    target: &mut Character,
    plan: &CastPlan,
    cond: Condition,
) -> std::result::Result<String, String> {
    let spell = &plan.spell;
    if let Some(src) = target.effective().condition_immunities.get(&cond) {
        return Err(format!(
            "{} is immune to {cond} ({})",
            target.name,
            src.join(", ")
        ));
    }
    // A magical sleep (Eyebite's Asleep) does not take a creature magic can't put to sleep.
    if cond == Condition::Unconscious
        && spell.mechanics().is_some_and(|e| e.magic_sleep)
        && crate::combat::traits::no_magic_sleep(target)
    {
        return Err(format!(
            "{} can't be put to sleep by magic (Fey Ancestry); unaffected",
            target.name
        ));
    }
    let repeat = if spell.repeat_save {
        spell.save.map(|s| (s.ability, plan.save_dc))
    } else {
        None
    };
    let duration = if spell.concentration && caster.concentration.is_some() {
        if let Some(c) = caster.concentration.as_mut() {
            c.add_link(ConcentrationLink::condition(&target.id, cond));
        }
        Some(match repeat {
            Some((ability, dc)) => Duration::ConcentrationSave {
                caster_id: caster.id.clone(),
                spell: spell.name.clone(),
                dc,
                ability,
            },
            None => Duration::Concentration {
                caster_id: caster.id.clone(),
                spell: spell.name.clone(),
            },
        })
    } else if let Some((ability, dc)) = repeat {
        Some(Duration::SaveEnds { dc, ability })
    } else {
        spell
            .duration_rounds()
            .map(|n| Duration::Rounds { remaining: n })
    };
    let _ = call;
    target.conditions.retain(|e| e.condition != cond);
    target.conditions.push(ConditionEntry {
        by: Some(caster.id.clone()),
        ends_on: crate::magic::mechanics::condition_ends(spell),
        condition: cond,
        level: None,
        source: spell.name.clone(),
        duration,
    });
    let mut line = format!("{} is {cond}", target.name);
    // Fear: a failed save drops whatever the creature holds.
    if spell.mechanics().is_some_and(|e| e.drops_held) {
        match crate::update::drop_held(target) {
            Some(l) => line.push_str(&format!("; {l}")),
            None if target.stat_block.is_some() => line.push_str(&format!(
                "; {} drops whatever it is holding (nothing held on its sheet: no automation for a stat block's weapons, the DM decides what it drops)",
                target.name
            )),
            None => {}
        }
    }
    if cond == Condition::Unconscious {
        for l in crate::update::knocked_out(target, &spell.name, true) {
            line.push_str(&format!("; {l}"));
        }
    }
    Ok(line)
}
