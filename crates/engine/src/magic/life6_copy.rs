//! Simulacrum (issue 17, lane "spells6c"): the touched beast or humanoid is copied into a new
//! creature with half its hit point maximum (an effect halving it), friendly to the caster and
//! holding what the original's sheet holds but no equipment; it regains no spell slots on a
//! rest ([`no_slot_regain`]), and casting the spell again destroys the caster's earlier one.

use tabletop_rules::modifiers::ModifierKind;

use super::plan::{CastPlan, CastReport};
use super::targets::{push_target, unaffected, unique};
use crate::catalog::spells::SpellEntry;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterFilter};
use crate::model::effects::Duration;

/// The effect every simulacrum carries (its source names its maker's id).
pub const SIMULACRUM: &str = "Simulacrum";

/// Whether `c` is a simulacrum, which can't regain expended spell slots.
pub fn no_slot_regain(c: &Character) -> bool {
    c.effects.iter().any(|x| x.name == SIMULACRUM)
}

fn maker_tag(caster: &Character) -> String {
    format!("{} ({})", SIMULACRUM, caster.id)
}

/// Casts Simulacrum on the one named beast or humanoid.
pub fn simulacrum(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    e: &SpellEntry,
    report: &mut CastReport,
) -> Result<()> {
    let spell = plan.spell.name.clone();
    let ids = unique(&plan.targets);
    let [id] = ids.as_slice() else {
        return Err(EngineError::invalid(
            "targets",
            format!("{spell} copies one beast or humanoid: name it in targetId or targetName"),
        ));
    };
    let original = crate::combat::sheet(call, id)?;
    if let Some(why) = unaffected(&plan.spell, &original) {
        return Err(EngineError::Rule(why));
    }
    if original.dead {
        return Err(EngineError::Rule(format!(
            "{} is dead; {spell} copies a living beast or humanoid",
            original.name
        )));
    }
    if let Some(m) = &e.consumes {
        report
            .lines
            .push(super::life6_items::consume(caster, &m.item, m.gp, &spell));
    }
    // The caster's earlier simulacrum is destroyed.
    let tag = maker_tag(caster);
    let campaign = call.campaign();
    let (all, _) =
        call.tx_ref()
            .list_characters(campaign, &CharacterFilter::default(), usize::MAX, 0)?;
    for old in all.iter().filter(|c| {
        c.effects
            .iter()
            .any(|x| x.name == SIMULACRUM && x.source.as_deref() == Some(tag.as_str()))
    }) {
        call.tx().delete_character(campaign, &old.id)?;
        call.record_change("character", &old.id, format!("{} is destroyed", old.name));
        report.lines.push(format!(
            "{}'s earlier simulacrum, {}, is destroyed",
            caster.name, old.name
        ));
    }
    let mut copy = original.clone();
    copy.id = call.new_id("ch")?;
    copy.name = format!("Simulacrum of {}", original.name);
    copy.kind = caster.kind;
    copy.effects.clear();
    copy.conditions.clear();
    copy.concentration = None;
    copy.inventory = Default::default();
    copy.temp_hp = 0;
    copy.death_saves = Default::default();
    let half = super::life6_items::effect(
        call,
        SIMULACRUM,
        tag,
        vec![ModifierKind::MaxHpHalved],
        Duration::UntilDispelled,
    )?;
    copy.effects.push(half);
    let max = u32::try_from(copy.effective().max_hp.value.max(1)).unwrap_or(1);
    copy.hp = max;
    call.tx().put_character(campaign, &copy)?;
    let phrase = format!(
        "{} ({}) appears: a copy of {} with {max} HP (half its hit point maximum) and no equipment, friendly to {} and obeying their spoken commands; it regains no spell slots",
        copy.name, copy.id, original.name, caster.name
    );
    call.record_change("character", &copy.id, phrase.clone());
    let mut tr = push_target(report, &copy, phrase);
    tr.effect = Some(SIMULACRUM.into());
    report.targets.push(tr);
    Ok(())
}
