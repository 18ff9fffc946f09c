//! Worn items that act on their own: healing as time passes (Ring of Regeneration 1d6 every 10
//! minutes, Ioun Stone of Regeneration 15 HP an hour, each with at least 1 hit point), a dying
//! wearer stabilized (Periapt of Wound Closure), a failed Dexterity save turned into a success
//! for a charge (Ring of Evasion), and a spent spell slot restored (Pearl of Power).

use tabletop_rules::dice;

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;

/// Most heals counted in one pass of the clock (a month of ten-minute heals is far more than any
/// wearer's hit points need).
const MAX_HEALS: u64 = 1000;

/// Heals `c` for every period of its worn regenerating items the clock passed from `from` to
/// `to` (seconds); what it said, if anything healed.
pub fn regenerate(
    call: &mut Call<'_>,
    c: &mut Character,
    from: u64,
    to: u64,
) -> Result<Option<String>> {
    if c.dead || c.hp == 0 {
        return Ok(None);
    }
    let found: Vec<(String, u64, String)> = c
        .inventory
        .items
        .iter()
        .filter_map(|i| {
            let r = i.active_entry()?.regenerate.as_ref()?;
            Some((
                i.name.clone(),
                u64::from(r.every_minutes.max(1)) * 60,
                r.heal.clone(),
            ))
        })
        .collect();
    let mut said = Vec::new();
    for (name, period, heal) in found {
        let times = (to / period).saturating_sub(from / period).min(MAX_HEALS);
        if times == 0 || c.hp >= c.effective().max_hp.value.max(0) as u32 {
            continue;
        }
        let mut total = 0u32;
        for _ in 0..times {
            let r = dice::roll(&heal, call.rng()?)?;
            call.record_roll(&r);
            total = total.saturating_add(u32::try_from(r.total.max(0)).unwrap_or(0));
        }
        let before = c.hp;
        crate::update::heal(c, total, &mut Vec::new())?;
        said.push(format!(
            "{name} heals {} {times} × {heal} = {total} ({before} → {} HP)",
            c.name, c.hp
        ));
    }
    Ok((!said.is_empty()).then(|| said.join("; ")))
}

/// The worn item that stabilizes `c` when it is dying, if any.
pub fn stabilizer(c: &Character) -> Option<String> {
    c.inventory
        .items
        .iter()
        .find(|i| i.active_entry().is_some_and(|e| e.stabilize_when_dying))
        .map(|i| i.name.clone())
}

/// A failed Dexterity save of `c` turned into a success by a worn Ring of Evasion, spending one
/// of its charges (the reaction it costs is the DM's to note); the line saying so.
pub fn evade(c: &mut Character) -> Option<String> {
    let it = c.inventory.items.iter_mut().find(|i| {
        i.active_entry().is_some_and(|e| e.evasion_charges)
            && i.charges.as_ref().is_some_and(|ch| ch.current > 0)
    })?;
    let ch = it.charges.as_mut()?;
    ch.current -= 1;
    Some(format!(
        "{}'s {} turns the failed DEX save into a success (its reaction; {}/{} charges left)",
        c.name, it.name, ch.current, ch.max
    ))
}

/// Restores one expended spell slot of `c` of at most `max` level (the highest such), for a
/// Pearl of Power; the line saying so.
pub fn restore_slot(c: &mut Character, max: u8, item: &str) -> Result<String> {
    let slots = &mut c.spell_slots;
    let level = (1..=max.min(9))
        .rev()
        .find(|l| slots.used[usize::from(*l) - 1] > 0)
        .ok_or_else(|| {
            EngineError::Rule(format!(
                "{} has no expended spell slot of {} level or lower for {item} to restore",
                c.name,
                crate::model::slots::ordinal(max)
            ))
        })?;
    slots.used[usize::from(level) - 1] -= 1;
    Ok(format!(
        "{item} restores one {}-level spell slot to {} ({} left at that level)",
        crate::model::slots::ordinal(level),
        c.name,
        slots.left(level)
    ))
}
