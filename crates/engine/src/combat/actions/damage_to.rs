//! Damage onto a combatant's sheet, shared by attacks, a hit's saving-throw rider, the DM's
//! damage action and feature uses: the damage pipeline, Undead Fortitude and Relentless Rage,
//! the concentration save it forces, and a dead creature's body laid on the map.

use tabletop_rules::damage::{DamagePart, DamageResult};

use crate::combat;
use crate::concentration::{self, ConcentrationCheck};
use crate::engine::Call;
use crate::error::Result;
use crate::model::character::Character;
use crate::model::encounter::Encounter;

/// Applies typed damage to a combatant's sheet through the damage pipeline, then the
/// concentration save it forces (or the end of concentration at 0 HP); stores the sheet and
/// takes a dead creature off the map. Lines describe what happened.
pub fn apply_damage_to(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    target_id: &str,
    parts: &[DamagePart],
    critical: bool,
    lines: &mut Vec<String>,
) -> Result<(DamageResult, Option<ConcentrationCheck>, Character)> {
    let mut t = combat::sheet(call, target_id)?;
    let mut changes = Vec::new();
    let mut r = crate::update::damage(&mut t, parts, critical, &mut changes)?;
    lines.append(&mut changes);
    if r.total > 0
        && let Some(cb) = enc.combatant_mut(target_id)
    {
        cb.flags.fought = true;
    }
    crate::combat::traits::undead_fortitude(call, &mut t, parts, &mut r, critical, lines)?;
    crate::combat::martial::relentless_rage(call, &mut t, &mut r, lines)?;
    let mut check = None;
    if r.concentration_ends {
        let why = if r.dead { "died" } else { "dropped to 0 HP" };
        concentration::end(call, &mut t, why, lines)?;
    } else if let Some(k) = concentration::after_damage(call, &mut t, r.total, lines)? {
        check = Some(k);
    }
    concentration::enforce(call, &mut t, lines)?;
    combat::put_sheet(call, &t)?;
    call.record_change("character", &t.id, format!("{} {}", t.name, r.summary()));
    if t.dead
        && let Some(line) = crate::combat::bodies::lay_body(enc, &t.id, &t.name)?
    {
        lines.push(line);
    }
    Ok((r, check, t))
}
