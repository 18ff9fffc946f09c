//! A stat-block hit's grapple and drain (read by `catalog::monster_riders`):
//!
//! - a grapple ("the target is grappled (escape DC 14). Until this grapple ends, the creature
//!   is restrained"): the grappled condition held by the attacker, as the Attack action's
//!   grapple is (`tactics::contest`: the grappler's reach and state end it, the target escapes
//!   with its action), with the text's escape DC, and the conditions that last while it holds;
//! - a drain: the hit point maximum reduced by the damage taken until a long rest (a wight's
//!   Life Drain), or the Strength score by dice until a short or long rest (a shadow's), as a
//!   typed effect on the target's sheet, so the figures stay derived; the target dies if it
//!   reduces the value to 0.
//!
//! What the text says beyond that is said to the DM.

use tabletop_rules::damage::DamageResult;
use tabletop_rules::modifiers::{Modifier, ModifierKind};
use tabletop_rules::{Ability, Condition};

use super::tactics::add_condition;
use super::tactics::holds::{grapple_source_dc, grappler_of, held_source};
use crate::catalog::monster_riders::{Drain, DrainKind, HitGrapple};
use crate::character::Character;
use crate::combat::{self, Encounter};
use crate::engine::Call;
use crate::error::Result;
use crate::model::effects::{ActiveEffect, Duration};

/// The name of the effect a hit point maximum drain leaves.
pub const MAX_HP_DRAIN: &str = "Drained: hit point maximum";
/// The name of the effect a Strength drain leaves.
pub const STRENGTH_DRAIN: &str = "Drained: Strength";

/// Whether `attacker` grapples some creature of the fight.
fn holds_any(call: &Call<'_>, enc: &Encounter, attacker: &str) -> Result<bool> {
    for id in &enc.grappled {
        let c = combat::sheet(call, id)?;
        if c.conditions
            .iter()
            .any(|e| grappler_of(e) == Some(attacker))
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The grapple of a hit; the target's sheet after it.
pub fn grapple(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    attacker: &Character,
    action: &str,
    g: &HitGrapple,
    mut t: Character,
    lines: &mut Vec<String>,
) -> Result<Character> {
    if t.conditions
        .iter()
        .any(|e| grappler_of(e) == Some(attacker.id.as_str()))
    {
        lines.push(format!(
            "{} is already grappled by {} ({action})",
            t.name, attacker.name
        ));
        return Ok(t);
    }
    if g.one_at_a_time && holds_any(call, enc, &attacker.id)? {
        lines.push(format!(
            "{} is not grappled: {} already grapples a creature, and {action} grapples only then",
            t.name, attacker.name
        ));
        return Ok(t);
    }
    let line = add_condition(
        call,
        &mut t,
        Condition::Grappled,
        grapple_source_dc(attacker, g.escape_dc),
        None,
    )?;
    if line.contains("immune") {
        lines.push(format!("{line} ({action})"));
        return Ok(t);
    }
    enc.grappled.insert(t.id.clone());
    lines.push(format!(
        "{line} by {} (escape DC {}; speed 0) ({action})",
        attacker.name, g.escape_dc
    ));
    for c in &g.while_held {
        if t.conditions
            .iter()
            .any(|e| e.condition == *c && e.source == held_source(attacker))
        {
            continue;
        }
        let line = add_condition(call, &mut t, *c, held_source(attacker), None)?;
        if line.contains("immune") {
            lines.push(format!("{line} ({action})"));
        } else {
            lines.push(format!("{line} until the grapple ends ({action})"));
        }
    }
    lines.push(format!(
        "To escape, {} uses its action: execute_action grapple naming {} (an Athletics or Acrobatics check against DC {})",
        t.name, attacker.name, g.escape_dc
    ));
    if !g.manual.is_empty() {
        lines.push(format!(
            "Left to the DM ({action}): {}",
            g.manual.join("; ")
        ));
    }
    combat::put_sheet(call, &t)?;
    Ok(t)
}

/// Adds `amount` more to the drain effect `name` on `t` (drains add up: two wight hits reduce
/// the maximum by both), lasting `duration`.
#[allow(clippy::too_many_arguments)]
fn add_drain(
    call: &mut Call<'_>,
    t: &mut Character,
    name: &str,
    source: &str,
    kind: impl Fn(i32) -> ModifierKind,
    read: impl Fn(&ModifierKind) -> Option<i32>,
    amount: i32,
    duration: Duration,
) -> Result<i32> {
    let before = t
        .effects
        .iter()
        .find(|e| e.name == name)
        .and_then(|e| e.modifiers.iter().find_map(|m| read(&m.kind)))
        .unwrap_or(0);
    let total = before.checked_add(amount).unwrap_or(i32::MAX);
    t.effects.retain(|e| e.name != name);
    t.effects.push(ActiveEffect {
        id: call.new_id("ef")?,
        name: name.to_string(),
        source: Some(source.to_string()),
        modifiers: vec![Modifier::new(name, kind(total))],
        duration,
        ends_on: None,
        ends_when_attacked: false,
        grant: None,
        damaged_since_turn: false,
    });
    Ok(total)
}

/// The target dies of a drain.
fn dies(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    t: &mut Character,
    why: String,
    lines: &mut Vec<String>,
) -> Result<()> {
    t.hp = 0;
    t.dead = true;
    crate::concentration::end(call, t, "died", lines)?;
    combat::put_sheet(call, t)?;
    call.record_change("character", &t.id, why.clone());
    lines.push(why);
    if let Some(l) = crate::combat::bodies::lay_body(enc, &t.id, &t.name)? {
        lines.push(l);
    }
    Ok(())
}

/// The drain of a hit that dealt `dealt`; the target's sheet after it.
#[allow(clippy::too_many_arguments)]
pub fn drain(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    attacker: &Character,
    action: &str,
    d: &Drain,
    dealt: &DamageResult,
    t: Character,
    lines: &mut Vec<String>,
) -> Result<Character> {
    let t = reduce(call, enc, attacker, action, d, dealt, t, lines)?;
    if !d.manual.is_empty() {
        lines.push(format!(
            "Left to the DM ({action}): {}",
            d.manual.join("; ")
        ));
    }
    Ok(t)
}

#[allow(clippy::too_many_arguments)]
fn reduce(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    attacker: &Character,
    action: &str,
    d: &Drain,
    dealt: &DamageResult,
    mut t: Character,
    lines: &mut Vec<String>,
) -> Result<Character> {
    let what = match d.kind {
        DrainKind::MaxHp { .. } => "hit point maximum",
        DrainKind::Strength { .. } => "Strength",
    };
    if let Some((dc, ability)) = d.save {
        let vs = crate::saves::SaveAgainst::default();
        let save = crate::saves::roll_save(call, &t, ability, dc, action, &vs)?;
        lines.push(format!("{} — {}", t.name, save.summary()));
        if save.success == Some(true) {
            lines.push(format!(
                "{}'s {what} is not reduced (the save succeeds)",
                t.name
            ));
            return Ok(t);
        }
    }
    let source = format!("{action} ({})", attacker.name);
    let (duration, until) = if d.short_rest_ends {
        (Duration::UntilShortRest, "until a short or long rest")
    } else {
        (Duration::UntilRest, "until a long rest")
    };
    match &d.kind {
        DrainKind::MaxHp {
            of_type,
            heals_attacker,
        } => {
            let taken: u32 = match of_type {
                Some(ty) => dealt
                    .by_type
                    .iter()
                    .filter(|p| p.damage_type == Some(*ty))
                    .map(|p| p.taken)
                    .sum(),
                None => dealt.total,
            };
            if taken == 0 {
                lines.push(format!(
                    "{}'s hit point maximum is not reduced: it took no {}damage ({action})",
                    t.name,
                    of_type.map(|ty| format!("{ty} ")).unwrap_or_default()
                ));
                return Ok(t);
            }
            let amount = i32::try_from(taken).unwrap_or(i32::MAX);
            let max_before = t.effective().max_hp.value;
            if amount >= max_before {
                let why = format!(
                    "{} dies: {action} reduces its hit point maximum to 0 ({max_before} − {amount})",
                    t.name
                );
                dies(call, enc, &mut t, why, lines)?;
                return Ok(t);
            }
            let total = add_drain(
                call,
                &mut t,
                MAX_HP_DRAIN,
                &source,
                |n| ModifierKind::MaxHpBonus { amount: -n },
                |k| match k {
                    ModifierKind::MaxHpBonus { amount } => Some(-*amount),
                    _ => None,
                },
                amount,
                duration,
            )?;
            let max_after = t.effective().max_hp.value;
            let max_u = u32::try_from(max_after.max(0)).unwrap_or(0);
            t.hp = t.hp.min(max_u);
            lines.push(format!(
                "{}'s hit point maximum is reduced by {amount} {until} ({action}): {max_before} → {max_after}{}; HP {}/{max_after}",
                t.name,
                if total == amount {
                    String::new()
                } else {
                    format!(", {total} drained in all")
                },
                t.hp
            ));
            combat::put_sheet(call, &t)?;
            if *heals_attacker {
                let mut a = combat::sheet(call, &attacker.id)?;
                let max = u32::try_from(a.effective().max_hp.value.max(0)).unwrap_or(0);
                let before = a.hp;
                a.hp = a.hp.saturating_add(taken).min(max);
                combat::put_sheet(call, &a)?;
                lines.push(if a.hp == before && before >= max {
                    format!(
                        "{} is already at its hit point maximum ({max} HP): it regains nothing ({action})",
                        a.name
                    )
                } else {
                    format!(
                        "{} regains {} hit points ({action}): {before} → {}",
                        a.name,
                        a.hp.saturating_sub(before),
                        a.hp
                    )
                });
            }
        }
        DrainKind::Strength { dice } => {
            let roll = tabletop_rules::dice::parse(dice)?.roll(call.rng()?)?;
            call.record_roll(&roll);
            let amount = i32::try_from(roll.total.max(0)).unwrap_or(0);
            let before = i32::from(t.effective().score(Ability::Strength));
            if amount >= before {
                let why = format!(
                    "{} dies: {action} reduces its Strength to 0 ({before} − {amount}; {})",
                    t.name,
                    roll.summary()
                );
                dies(call, enc, &mut t, why, lines)?;
                return Ok(t);
            }
            add_drain(
                call,
                &mut t,
                STRENGTH_DRAIN,
                &source,
                |n| ModifierKind::AbilityBonus {
                    ability: Ability::Strength,
                    amount: -n,
                },
                |k| match k {
                    ModifierKind::AbilityBonus {
                        ability: Ability::Strength,
                        amount,
                    } => Some(-*amount),
                    _ => None,
                },
                amount,
                duration,
            )?;
            let after = t.effective().score(Ability::Strength);
            lines.push(format!(
                "{}'s Strength is reduced by {amount} {until} ({action}; {}): {before} → {after}",
                t.name,
                roll.summary()
            ));
            combat::put_sheet(call, &t)?;
        }
    }
    Ok(t)
}
