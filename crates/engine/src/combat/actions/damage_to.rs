//! Damage onto a combatant's sheet, shared by attacks, a hit's saving-throw rider, the DM's
//! damage action and feature uses: the damage pipeline, Undead Fortitude and Relentless Rage,
//! the concentration save it forces, and a dead creature's body laid on the map.

use tabletop_rules::damage::{AdjustmentKind, DamageOutcome, DamagePart, DamageResult};

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
    apply(call, enc, target_id, parts, critical, true, lines)
}

/// As [`apply_damage_to`], with the concentration save left to the caller: the SRD asks one save
/// per source of damage, and a hit whose riders add damage (a giant spider's bite: piercing, then
/// poison on a failed save) is one source. The caller adds the rider's damage and calls
/// [`concentration_after`] once. Dropping to 0 HP still ends concentration here.
pub fn apply_damage_deferring(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    target_id: &str,
    parts: &[DamagePart],
    critical: bool,
    lines: &mut Vec<String>,
) -> Result<(DamageResult, Character)> {
    let (r, _, t) = apply(call, enc, target_id, parts, critical, false, lines)?;
    Ok((r, t))
}

/// The one concentration save for `damage` taken from a single source whose parts were applied
/// by [`apply_damage_deferring`]; nothing when the target is down or concentrates on nothing.
pub fn concentration_after(
    call: &mut Call<'_>,
    target_id: &str,
    damage: u32,
    lines: &mut Vec<String>,
) -> Result<Option<ConcentrationCheck>> {
    let mut t = combat::sheet(call, target_id)?;
    if t.hp == 0 || t.dead || t.concentration.is_none() {
        return Ok(None);
    }
    let check = concentration::after_damage(call, &mut t, damage, lines)?;
    if check.is_some() {
        combat::put_sheet(call, &t)?;
    }
    Ok(check)
}

fn apply(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    target_id: &str,
    parts: &[DamagePart],
    critical: bool,
    save_now: bool,
    lines: &mut Vec<String>,
) -> Result<(DamageResult, Option<ConcentrationCheck>, Character)> {
    let mut t = combat::sheet(call, target_id)?;
    let mut changes = Vec::new();
    let mut r = crate::update::damage(&mut t, parts, critical, &mut changes)?;
    // A deferred save is said once, with the whole attack's damage, by `concentration_after`.
    if !save_now && let Some(dc) = r.concentration_dc.take() {
        let tail = format!("; concentration save DC {dc}");
        for l in &mut changes {
            if let Some(kept) = l.strip_suffix(&tail) {
                *l = kept.to_string();
            }
        }
    }
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
    } else if save_now && let Some(k) = concentration::after_damage(call, &mut t, r.total, lines)? {
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

/// "9 slashing + 3 fire (6 → 0 HP) and dies", from a damage result.
pub fn damage_phrase(r: &DamageResult) -> String {
    let parts: Vec<String> = r
        .by_type
        .iter()
        .map(|t| {
            let name = t
                .damage_type
                .map_or("untyped".to_string(), |d| d.to_string());
            let adj: Vec<&str> = t
                .adjustments
                .iter()
                .map(|a| match a.kind {
                    AdjustmentKind::Immune => "immune",
                    AdjustmentKind::Resisted => "halved by resistance",
                    AdjustmentKind::Vulnerable => "doubled by vulnerability",
                })
                .collect();
            if adj.is_empty() {
                format!("{} {name}", t.taken)
            } else {
                format!(
                    "{} {name} ({} rolled, {})",
                    t.taken,
                    t.rolled,
                    adj.join(", ")
                )
            }
        })
        .collect();
    let mut s = parts.join(" + ");
    if r.temp_absorbed > 0 {
        s.push_str(&format!(", {} absorbed by temporary HP", r.temp_absorbed));
    }
    s.push_str(&format!(" ({} → {} HP)", r.hp_before, r.hp_after));
    match r.outcome {
        DamageOutcome::Killed => s.push_str(" and dies"),
        DamageOutcome::Dead { reason } => s.push_str(&format!(" and dies ({reason})")),
        DamageOutcome::Unconscious => s.push_str(" and falls unconscious (death saves)"),
        DamageOutcome::DeathSaveFailures { added, total } => s.push_str(&format!(
            " and suffers {added} death-save failure{} ({total}/3)",
            if added == 1 { "" } else { "s" }
        )),
        _ => {}
    }
    s
}
