//! Mirror Image on attacks: while the bearer has duplicates, each attack against it first rolls
//! a d20 — 6 or higher with three duplicates, 8 with two, 11 with one — and on that roll it
//! targets a duplicate instead (AC 10 + the bearer's DEX modifier); a hit destroys the
//! duplicate, and with none left the spell ends ([`check`]). An attacker with truesight or
//! blindsight is not fooled.

use tabletop_rules::Ability;
use tabletop_rules::d20::{D20Request, roll_d20_test};
use tabletop_rules::dice;

use super::profile::AttackKind;
use super::strike::{Situation, StrikeResult};
use crate::combat;
use crate::engine::Call;
use crate::error::Result;
use crate::model::character::Character;

/// The d20 an attack needs to strike a duplicate, with `n` duplicates left.
pub fn threshold(n: u32) -> i32 {
    match n {
        0 => 21,
        1 => 11,
        2 => 8,
        _ => 6,
    }
}

/// Whether the attacker sees through illusions or needs no sight (truesight, blindsight).
fn undeceived(attacker: &Character) -> bool {
    let s = crate::combat::spatial::senses_of(attacker);
    s.truesight_ft > 0 || s.blindsight_ft > 0
}

/// The attack `req` (fully built) against `target`: when a duplicate takes it, rolls it against
/// the duplicate's AC and returns the result (a hit destroys the duplicate); `None` when the
/// attack goes on against the target (`passed` then holds the d20 line that sent it there).
#[allow(clippy::too_many_arguments)]
pub fn check(
    call: &mut Call<'_>,
    attacker: &Character,
    target: &Character,
    weapon: &str,
    kind: AttackKind,
    sit: &Situation,
    req: &D20Request,
    passed: &mut Option<String>,
) -> Result<Option<StrikeResult>> {
    let Some((idx, n)) = target.effects.iter().enumerate().find_map(|(i, e)| {
        let n = e.grant.as_ref()?.mirror_images?;
        (n > 0).then_some((i, n))
    }) else {
        return Ok(None);
    };
    if undeceived(attacker) {
        return Ok(None);
    }
    let d = dice::roll("1d20", call.rng()?)?;
    call.record_roll(&d);
    let need = threshold(n);
    let mut lines = vec![format!(
        "Mirror Image ({n} duplicate{}): d20 [{}] vs {need}",
        if n == 1 { "" } else { "s" },
        d.total
    )];
    if d.total < i64::from(need) {
        *passed = Some(format!("{}: the attack goes to {}", lines[0], target.name));
        return Ok(None);
    }
    let ac = 10
        + target
            .effective()
            .abilities
            .get(&Ability::Dexterity)
            .map_or(0, |a| a.modifier);
    let mut r = req.clone();
    r.dc = Some(ac);
    r.label = Some(format!(
        "{} vs a duplicate of {}",
        r.label.as_deref().unwrap_or("attack"),
        target.name
    ));
    let roll = roll_d20_test(&attacker.effective(), &r, call.rng()?);
    call.record_roll(&roll);
    lines.push(roll.summary());
    let hit = roll.success == Some(true);
    let headline = if hit {
        let mut t = target.clone();
        let left = n - 1;
        let name = t.effects[idx].name.clone();
        if left == 0 {
            t.effects.remove(idx);
            lines.push(format!("the last duplicate is destroyed: {name} ends"));
        } else if let Some(g) = t.effects[idx].grant.as_mut() {
            g.mirror_images = Some(left);
            lines.push(format!("a duplicate is destroyed; {left} left"));
        }
        combat::put_sheet(call, &t)?;
        call.record_change("character", &t.id, lines.join("; "));
        format!(
            "{} strikes a duplicate of {} (AC {ac}): the illusion is destroyed, {} is unharmed.",
            attacker.name, target.name, target.name
        )
    } else {
        format!(
            "{} attacks a duplicate of {} and misses (AC {ac}).",
            attacker.name, target.name
        )
    };
    Ok(Some(StrikeResult {
        attacker_id: attacker.id.clone(),
        attacker: attacker.name.clone(),
        target_id: target.id.clone(),
        target: target.name.clone(),
        weapon: weapon.to_string(),
        kind,
        situation: sit.clone(),
        lines,
        roll,
        hit: false,
        critical: false,
        damage_roll: None,
        damage: None,
        concentration: None,
        target_hp: target.hp,
        target_status: target.status().to_string(),
        headline,
        forced: Vec::new(),
        paused: false,
    }))
}
