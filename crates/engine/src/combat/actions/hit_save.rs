//! What a stat-block attack's text does on a hit beyond its damage (read by
//! `catalog::monster_riders`), applied to the target the hit left alive:
//!
//! - first who it spares: a ghoul's claws do not paralyze an elf or an undead, a gladiator's
//!   Shield Bash does not knock a Huge giant prone ([`spared`]); the answer says so;
//! - a saving-throw rider: the target saves against the rider's DC; a failure takes the rider's
//!   damage (a wyvern's poison) and its conditions (a wolf's prone), a success half the damage
//!   where the text says so. Conditions that come only when the rider's damage drops the target
//!   to 0 hit points (a giant spider's paralysis) come only then, with the target stable. A
//!   failure the engine cannot apply (mummy rot, an infernal wound) is said, and noted on the
//!   target's sheet;
//! - a grapple and a drain ([`super::hit_hold`]).

use tabletop_rules::damage::{DamagePart, DamageResult};
use tabletop_rules::dice;
use tabletop_rules::modifiers::{Modifier, ModifierKind};

use super::damage_to::apply_damage_deferring;
use super::tactics::{ability_text::duration_in, add_condition};
use crate::catalog::monster_riders::{HitBind, Limits, OnHit};
use crate::catalog::monsters::HitRider;
use crate::character::Character;
use crate::combat::{self, Encounter};
use crate::engine::Call;
use crate::error::Result;
use crate::model::character::StatDc;
use crate::model::effects::{ActiveEffect, Duration};

/// Resolves `attacker`'s hit riders of `action` on `target_id`, which the hit (`dealt`) left
/// alive; the target's sheet after them, when there were any, and the damage they added (its
/// concentration save is the hit's: the caller makes one for both).
pub fn resolve(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    attacker: &Character,
    action: &str,
    target_id: &str,
    dealt: &DamageResult,
    lines: &mut Vec<String>,
) -> Result<Option<(Character, u32)>> {
    let Some((on, text)) = crate::combat::traits::hit_rider(attacker, action) else {
        return Ok(None);
    };
    let mut t = combat::sheet(call, target_id)?;
    if let Some((why, only)) = spared(&on.limits, &t) {
        lines.push(format!("{why}: {action} ({}) {only}", summary(&on)));
        return Ok(Some((t, 0)));
    }
    let mut added = 0;
    if let Some(rider) = &on.save {
        (t, added) = save_rider(call, enc, attacker, action, text, rider, &on, t, lines)?;
    }
    if let Some(g) = &on.grapple
        && !t.dead
    {
        t = super::hit_hold::grapple(call, enc, attacker, action, g, t, lines)?;
    }
    if let Some(d) = &on.drain
        && !t.dead
    {
        t = super::hit_hold::drain(call, enc, attacker, action, d, dealt, t, lines)?;
    }
    if let Some(b) = &on.bind
        && !t.dead
    {
        t = bind(call, attacker, action, b, t, lines)?;
    }
    Ok(Some((t, added)))
}

/// A hit's conditions without a save (a giant spider's Web: restrained); breaking free is said
/// to the DM, with the check the text gives.
fn bind(
    call: &mut Call<'_>,
    attacker: &Character,
    action: &str,
    b: &HitBind,
    mut t: Character,
    lines: &mut Vec<String>,
) -> Result<Character> {
    let source = format!("{action} ({})", attacker.name);
    for c in &b.conditions {
        if t.conditions
            .iter()
            .any(|e| e.condition == *c && e.source == source)
        {
            lines.push(format!("{} is already {c} by {source}", t.name));
            continue;
        }
        let line = add_condition(call, &mut t, *c, source.clone(), None)?;
        lines.push(format!("{line} ({action})"));
    }
    let mut manual = Vec::new();
    if let Some((dc, ability)) = b.escape {
        manual.push(format!(
            "breaking free takes {}'s action: a DC {dc} {} check (roll_check), then manage_condition remove on a success",
            t.name,
            ability.name()
        ));
    }
    manual.extend(b.manual.iter().cloned());
    if !manual.is_empty() {
        lines.push(format!(
            "No automation for {action}'s hold: the DM decides; {}",
            manual.join("; ")
        ));
    }
    combat::put_sheet(call, &t)?;
    Ok(t)
}

/// "large" → "Large".
pub(super) fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// What the riders do, in a few words: "DC 10 CON save or paralyzed", "grappled, escape DC 17,
/// and restrained while grappled".
fn summary(on: &OnHit) -> String {
    let mut parts = Vec::new();
    if let Some(r) = &on.save {
        let mut what: Vec<String> = r.conditions.iter().map(ToString::to_string).collect();
        if let Some((d, t)) = &r.damage {
            what.push(format!("{d} {t} damage"));
        }
        if let Some(o) = &r.otherwise {
            what.push(o.clone());
        }
        parts.push(format!(
            "DC {} {} save or {}",
            r.dc,
            r.ability.abbr(),
            what.join(" and ")
        ));
    }
    if let Some(g) = &on.grapple {
        let mut s = format!("grappled, escape DC {}", g.escape_dc);
        if !g.while_held.is_empty() {
            let w: Vec<String> = g.while_held.iter().map(ToString::to_string).collect();
            s.push_str(&format!(", and {} while grappled", w.join(" and ")));
        }
        parts.push(s);
    }
    if let Some(b) = &on.bind {
        let w: Vec<String> = b.conditions.iter().map(ToString::to_string).collect();
        parts.push(w.join(" and "));
    }
    if let Some(d) = &on.drain {
        parts.push(match &d.kind {
            crate::catalog::monster_riders::DrainKind::MaxHp { .. } => {
                "hit point maximum reduced".to_string()
            }
            crate::catalog::monster_riders::DrainKind::Strength { dice } => {
                format!("Strength reduced by {dice}")
            }
        });
    }
    parts.join("; ")
}

/// Whether `c` is an elf for a rider that spares elves (a ghoul's claws). The SRD's text says
/// "elf": an SRD elf's race is Elf (its subraces High Elf, Wood Elf… name "elf" too) and an
/// elf stat block's subtype is "elf" (a drow's "humanoid (elf)"). A half-elf is not: the SRD
/// makes Half-Elf a race of its own, and the rider names elves only.
fn is_elf(c: &Character) -> bool {
    let elfish = |s: &str| {
        let l = s.to_lowercase().replace(['-', '_'], " ");
        let words: Vec<&str> = l.split_whitespace().collect();
        words.contains(&"elf") && !words.windows(2).any(|w| w == ["half", "elf"])
    };
    match &c.stat_block {
        Some(sb) => sb.subtype.as_deref().is_some_and(elfish),
        None => c.race.as_deref().is_some_and(elfish),
    }
}

/// "an elf", "undead", "a construct".
fn kind_phrase(kind: &str) -> String {
    if kind == "undead" {
        kind.to_string()
    } else if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {kind}")
    } else {
        format!("a {kind}")
    }
}

/// Why the rider spares `t`, if it does, and what it affects: ("Ela is an elf", "does not
/// affect it"), ("Grok is Huge", "affects only a Medium or smaller creature").
pub(super) fn spared(limits: &Limits, t: &Character) -> Option<(String, String)> {
    if !limits.any() {
        return None;
    }
    let ctype = crate::magic::targets::creature_type(t);
    for kind in &limits.not_kinds {
        let hit = if kind == "elf" {
            is_elf(t)
        } else {
            ctype
                .as_deref()
                .is_some_and(|ty| ty == kind || ty.starts_with(kind.as_str()))
        };
        if hit {
            return Some((
                format!("{} is {}", t.name, kind_phrase(kind)),
                "does not affect it".into(),
            ));
        }
    }
    if !limits.only_types.is_empty()
        && let Some(ty) = ctype.as_deref()
        && !limits.only_types.iter().any(|o| ty.starts_with(o.as_str()))
    {
        let only: Vec<String> = limits.only_types.iter().map(|o| kind_phrase(o)).collect();
        return Some((
            format!("{} is {}", t.name, kind_phrase(ty)),
            format!("affects only {}", only.join(" or ")),
        ));
    }
    let size = t.effective().size;
    if let Some(max) = limits.max_size
        && tabletop_grid::size_rank(size) > tabletop_grid::size_rank(max)
    {
        return Some((
            format!("{} is {}", t.name, capital(&size.to_string())),
            format!(
                "affects only a {} or smaller creature",
                capital(&max.to_string())
            ),
        ));
    }
    None
}

/// The saving-throw rider; the target's sheet after it and the damage it dealt.
#[allow(clippy::too_many_arguments)]
fn save_rider(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    attacker: &Character,
    action: &str,
    text: &str,
    rider: &HitRider,
    on: &OnHit,
    mut t: Character,
    lines: &mut Vec<String>,
) -> Result<(Character, u32)> {
    // What the save resists: the conditions a failure imposes and the damage at stake
    // (Dwarven Resilience against a poisoning bite, Brave against a frightening one).
    let vs = crate::saves::SaveAgainst {
        conditions: rider.conditions.clone(),
        damage: rider.damage.as_ref().map(|(_, t)| *t),
        ..Default::default()
    };
    let save = crate::saves::roll_save(call, &t, rider.ability, rider.dc, action, &vs)?;
    lines.push(format!("{} — {}", t.name, save.summary()));
    // A Ring of Evasion, then Evasion (a DEX save for half): the one rule of a save against
    // damage.
    let settled = crate::magic::evasion::settle(
        &mut t,
        rider.ability,
        rider.half_on_success && rider.damage.is_some(),
        save.success == Some(true),
    );
    if settled.saved && save.success != Some(true) {
        crate::combat::put_sheet(call, &t)?;
    }
    lines.extend(settled.lines);
    let failed = !settled.saved;
    let share = settled.share;
    let mut dropped = false;
    let mut dealt = 0;
    if let Some((dice_text, kind)) = &rider.damage
        && share != crate::magic::evasion::Share::Nothing
    {
        let roll = dice::parse(&format!("{dice_text}[{kind}]"))?.roll(call.rng()?)?;
        call.record_roll(&roll);
        let rolled = u32::try_from(roll.total.max(0)).unwrap_or(0);
        let amount = share.of(rolled);
        lines.push(format!(
            "{action}: {}{}",
            roll.summary(),
            if amount == rolled {
                String::new()
            } else if failed {
                format!(", halved by Evasion: {amount}")
            } else {
                format!(", halved on the save: {amount}")
            }
        ));
        let before = t.hp;
        let (r, after) = apply_damage_deferring(
            call,
            enc,
            &t.id.clone(),
            &[DamagePart::new(Some(*kind), amount)],
            false,
            lines,
        )?;
        dealt = r.total;
        dropped = before > 0 && after.hp == 0 && !after.dead;
        t = after;
    }
    if !failed || t.dead {
        return Ok((t, dealt));
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
            return Ok((t, dealt));
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
    // What the engine cannot apply is said, and noted on the sheet until the DM removes it.
    let mut manual: Vec<String> = rider.otherwise.iter().cloned().collect();
    manual.extend(on.save_manual.iter().cloned());
    if !manual.is_empty() {
        let note = manual.join("; ");
        lines.push(format!(
            "Left to the DM ({action}, failed save): {note}; noted on {}'s sheet as the effect \"{action} ({})\"",
            t.name, attacker.name
        ));
        let name = format!("{action} ({})", attacker.name);
        t.effects.retain(|e| e.name != name);
        t.effects.push(ActiveEffect {
            id: call.new_id("ef")?,
            name: name.clone(),
            source: Some(attacker.name.clone()),
            modifiers: vec![Modifier::new(&name, ModifierKind::Note { text: note })],
            duration: Duration::UntilDispelled,
            ends_on: None,
            ends_when_attacked: false,
            grant: None,
            damaged_since_turn: false,
        });
    }
    combat::put_sheet(call, &t)?;
    Ok((t, dealt))
}
