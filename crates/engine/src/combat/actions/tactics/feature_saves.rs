//! Feature actions that make other creatures save (the catalog's `Use::SaveEffect`): Turn
//! Undead and Turn the Unholy (every undead or fiend within 30 ft, WIS save or turned; Destroy
//! Undead destroys a failing undead up to the sheet's CR), Stunning Strike (CON save or
//! stunned), Intimidating Presence (WIS save or frightened). The DC is 8 + proficiency + the
//! user's `dc_ability` modifier; each save is rolled with the target's own sheet and traits.

use super::{Turn, rule};
use crate::catalog::SaveEffect;
use crate::character::{Character, ConditionEntry};
use crate::effects::{ActiveEffect, Duration};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::build::ActionSpec;
use tabletop_rules::modifiers::{Modifier, ModifierKind};

/// The effect Turn Undead and Turn the Unholy give a failing creature.
const TURNED: &str = "Turned";

/// Whether a stat-block trait gives advantage on saves against effects that turn undead.
fn resists_turning(desc: &str) -> bool {
    let l = desc.to_lowercase();
    l.contains("advantage on saving throws against")
        && (l.contains("turn undead") || l.contains("turns undead"))
}

/// The kind and reach of the other creatures a turning trait also covers ("any ghouls within
/// 30 ft. of it" → ("ghoul", 30)).
fn covers_others(desc: &str) -> Option<(String, u32)> {
    let l = desc.to_lowercase();
    let rest = &l[l.find("any ")? + 4..];
    let mut words = rest.split_whitespace();
    let kind = words.next()?.trim_end_matches('s').to_string();
    (words.next()? == "within").then_some(())?;
    let ft = words.next()?.parse().ok()?;
    Some((kind, ft))
}

/// The advantage `t` has on its save against an effect that turns undead, named: its own trait
/// (a lich's Turn Resistance, a ghast's Turn Defiance) or that of a creature in the fight whose
/// trait covers its kind within reach (a ghoul within 30 ft of a ghast).
fn turn_resistance(
    call: &Call<'_>,
    enc: &crate::model::encounter::Encounter,
    t: &Character,
) -> Result<Option<String>> {
    let own = t.stat_block.iter().flat_map(|s| &s.special_abilities);
    if let Some(a) = own.into_iter().find(|a| resists_turning(&a.desc)) {
        return Ok(Some(a.name.clone()));
    }
    let Some(kind) = t
        .stat_block
        .as_ref()
        .map(|s| crate::character::name_key(&s.monster))
    else {
        return Ok(None);
    };
    for cb in enc
        .order
        .iter()
        .filter(|c| !c.removed && c.character_id != t.id)
    {
        let c = crate::combat::sheet(call, &cb.character_id)?;
        if c.dead {
            continue;
        }
        for a in c.stat_block.iter().flat_map(|s| &s.special_abilities) {
            if !resists_turning(&a.desc) {
                continue;
            }
            let Some((covered, reach)) = covers_others(&a.desc) else {
                continue;
            };
            if covered == kind && super::distance(enc, &c.id, &t.id).is_ok_and(|d| d <= reach) {
                return Ok(Some(format!("{} ({}, within {reach} ft)", a.name, c.name)));
            }
        }
    }
    Ok(None)
}

/// The DC of `user`'s feature saves: 8 + proficiency + the ability's modifier.
pub fn feature_dc(user: &Character, se: &SaveEffect) -> i32 {
    let prof = user.derived.as_ref().map_or(2, |d| d.proficiency_bonus);
    8 + prof + user.effective().modifier(se.dc_ability)
}

/// The creatures the use affects: every creature of the listed types within range (not the
/// user), or the named targets (each within range unless forced).
fn targets(
    call: &Call<'_>,
    turn: &mut Turn<'_>,
    user: &Character,
    spec: &ActionSpec,
    se: &SaveEffect,
) -> Result<Vec<Character>> {
    let enc = &turn.encounter;
    if !se.creature_types.is_empty() {
        let mut out = Vec::new();
        for cb in enc
            .order
            .iter()
            .filter(|c| !c.removed && c.character_id != user.id)
        {
            let c = crate::combat::sheet(call, &cb.character_id)?;
            if c.dead {
                continue;
            }
            let kind = crate::magic::targets::creature_type(&c).unwrap_or_default();
            if !se
                .creature_types
                .iter()
                .any(|t| kind.starts_with(t.as_str()))
            {
                continue;
            }
            let d = super::distance(enc, &user.id, &c.id)?;
            if d <= se.range_ft {
                out.push(c);
            }
        }
        return Ok(out);
    }
    let mut whos = turn.req.targets.clone();
    if !turn.req.target.is_empty() {
        whos.insert(0, turn.req.target.clone());
    }
    if whos.is_empty() {
        return Err(EngineError::invalid(
            "targetId",
            format!("name the creature {} is used on (targetId)", spec.name),
        ));
    }
    if let Some(max) = se.max_targets
        && whos.len() > max as usize
    {
        return Err(EngineError::invalid(
            "targets",
            format!("{} affects at most {max} creature(s)", spec.name),
        ));
    }
    let mut out = Vec::new();
    for w in &whos {
        let (_, c) = super::resolve(call, &turn.encounter, w, "targetId")?;
        if c.id == user.id {
            return Err(EngineError::invalid(
                "targetId",
                format!("{} cannot use {} on itself", user.name, spec.name),
            ));
        }
        let d = super::distance(&turn.encounter, &user.id, &c.id)?;
        rule(
            turn,
            d <= se.range_ft,
            format!(
                "{} is {d} ft from {}; {} reaches {} ft",
                c.name, user.name, spec.name, se.range_ft
            ),
        )?;
        out.push(c);
    }
    Ok(out)
}

/// Runs the saves of a `SaveEffect` use; returns the headline and adds a line per creature.
pub fn run(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    user: &Character,
    spec: &ActionSpec,
    se: &SaveEffect,
    lines: &mut Vec<String>,
) -> Result<String> {
    let dc = feature_dc(user, se);
    let affected = targets(call, turn, user, spec, se)?;
    let destroy_cr = se
        .destroys
        .then(|| user.derived.as_ref().and_then(|d| d.destroy_undead_cr))
        .flatten();
    let mut failed = 0;
    let n = affected.len();
    for mut t in affected {
        let vs = crate::saves::SaveAgainst {
            conditions: se.condition.into_iter().collect(),
            ..Default::default()
        };
        // A lich's Turn Resistance, a ghast's Turn Defiance (its own and its ghouls').
        let more: Vec<String> = if se.effect.as_deref() == Some(TURNED) {
            turn_resistance(call, &turn.encounter, &t)?
                .into_iter()
                .collect()
        } else {
            Vec::new()
        };
        let save = crate::saves::roll_save_with(call, &t, se.save, dc, &spec.name, &vs, &more)?;
        lines.push(format!("{} — {}", t.name, save.summary()));
        if save.success == Some(true) {
            continue;
        }
        failed += 1;
        let cr = t.stat_block.as_ref().map(|s| s.challenge_rating);
        if let (Some(max), Some(cr)) = (destroy_cr, cr)
            && cr <= max
        {
            t.hp = 0;
            t.dead = true;
            crate::combat::put_sheet(call, &t)?;
            let line = format!("{} is destroyed (Destroy Undead: CR {cr} ≤ {max})", t.name);
            call.record_change("character", &t.id, line.clone());
            lines.push(line);
            if let Some(l) = crate::combat::bodies::lay_body(&mut turn.encounter, &t.id, &t.name)? {
                lines.push(l);
            }
            continue;
        }
        let source = format!("{} ({})", spec.name, user.name);
        if let Some(cond) = se.condition {
            if t.effective().condition_immunities.contains_key(&cond) {
                lines.push(format!("{} is immune to {cond}", t.name));
                continue;
            }
            t.conditions.retain(|c| c.condition != cond);
            t.conditions.push(ConditionEntry {
                by: Some(user.id.clone()),
                ends_on: None,
                condition: cond,
                level: None,
                source: source.clone(),
                duration: Some(if se.until_user_turn {
                    // "Until the end of your next turn": used on the user's own turn, the end of
                    // this turn comes first and does not count.
                    let now = turn.encounter.current().map(|c| c.character_id.as_str());
                    Duration::RoundsOf {
                        remaining: se
                            .rounds
                            .saturating_add(u32::from(now == Some(user.id.as_str()))),
                        turn_of: user.id.clone(),
                        at: crate::model::effects::TurnPoint::End,
                    }
                } else {
                    Duration::Rounds {
                        remaining: se.rounds,
                    }
                }),
            });
            let until = if se.until_user_turn && se.rounds == 1 {
                format!("until the end of {}'s next turn", user.name)
            } else if se.rounds == 1 {
                "until the end of its next turn".to_string()
            } else {
                format!("for {} rounds", se.rounds)
            };
            lines.push(format!("{} is {cond} {until} ({})", t.name, spec.name));
        }
        if let Some(name) = &se.effect {
            t.effects.retain(|e| e.name != *name);
            let text = se.effect_text.clone().unwrap_or_default();
            t.effects.push(ActiveEffect {
                id: call.new_id("ef")?,
                name: name.clone(),
                source: Some(source),
                modifiers: vec![Modifier::new(
                    name,
                    ModifierKind::Note { text: text.clone() },
                )],
                duration: Duration::Rounds {
                    remaining: se.rounds,
                },
                ends_on: None,
                ends_when_attacked: false,
                damaged_since_turn: false,
                grant: Some(crate::effects::SpellGrant {
                    ends_on_damage: se.ends_on_damage,
                    ..Default::default()
                }),
            });
            lines.push(format!(
                "{} is {} for {} rounds{}: {text}",
                t.name,
                name.to_lowercase(),
                se.rounds,
                if se.ends_on_damage {
                    " or until it takes damage"
                } else {
                    ""
                }
            ));
        }
        crate::combat::put_sheet(call, &t)?;
    }
    let what = if se.creature_types.is_empty() {
        String::new()
    } else {
        format!(
            " on every {} within {} ft",
            se.creature_types.join(" or "),
            se.range_ft
        )
    };
    if n == 0 {
        lines.push(format!("no creature{what}: nothing happens"));
    }
    Ok(format!(
        "{} uses {} (DC {dc} {} save){what}: {failed} failed",
        user.name,
        spec.name,
        se.save.abbr()
    ))
}

/// Preserve Life: the pool (`spec.heal_plus`, 5 × cleric level) divided among the named
/// creatures within `range_ft` as `amount` says ("10,5" in the targets' order); no creature
/// above half its maximum HP, no undead or construct; the user may be one of them.
pub fn split_heal(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    user: &mut Character,
    spec: &ActionSpec,
    range_ft: u32,
    lines: &mut Vec<String>,
) -> Result<String> {
    let pool = u32::try_from(spec.heal_plus.max(0)).unwrap_or(0);
    let mut whos = turn.req.targets.clone();
    if !turn.req.target.is_empty() {
        whos.insert(0, turn.req.target.clone());
    }
    let shares: Vec<u32> = turn
        .req
        .amount
        .as_deref()
        .unwrap_or_default()
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse::<u32>())
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| {
            EngineError::invalid(
                "amount",
                format!(
                    "{} divides {pool} HP: give each target's share in order (amount: \"10,5\")",
                    spec.name
                ),
            )
        })?;
    if whos.is_empty() || shares.len() != whos.len() {
        return Err(EngineError::invalid(
            "amount",
            format!(
                "{} divides {pool} HP among named creatures: one share per target, in order (targets + amount \"10,5\")",
                spec.name
            ),
        ));
    }
    let total: u32 = shares
        .iter()
        .try_fold(0u32, |t, s| t.checked_add(*s))
        .unwrap_or(u32::MAX);
    if total > pool {
        return Err(EngineError::Rule(format!(
            "{} has {pool} HP to divide; the shares add up to {total}",
            spec.name
        )));
    }
    let mut out = Vec::new();
    for w in &whos {
        let (_, c) = super::resolve(call, &turn.encounter, w, "targets")?;
        let c = if c.id == user.id { user.clone() } else { c };
        let d = super::distance(&turn.encounter, &user.id, &c.id)?;
        rule(
            turn,
            d <= range_ft,
            format!(
                "{} is {d} ft from {}; {} reaches {range_ft} ft",
                c.name, user.name, spec.name
            ),
        )?;
        let kind = crate::magic::targets::creature_type(&c).unwrap_or_default();
        if kind.starts_with("undead") || kind.starts_with("construct") {
            return Err(EngineError::Rule(format!(
                "{} has no effect on {} ({kind})",
                spec.name, c.name
            )));
        }
        out.push(c);
    }
    for (mut c, share) in out.into_iter().zip(shares) {
        let cap = c.max_hp / 2;
        let room = cap.saturating_sub(c.hp);
        let amount = share.min(room);
        let mut changes = Vec::new();
        let h = crate::update::heal(&mut c, amount, &mut changes)?;
        lines.push(format!(
            "{} regains {} HP ({} → {}){}",
            c.name,
            h.healed,
            h.hp_before,
            h.hp_after,
            if amount < share {
                format!("; {share} asked, capped at half its maximum ({cap})")
            } else {
                String::new()
            }
        ));
        if c.id == user.id {
            *user = c;
        } else {
            crate::combat::put_sheet(call, &c)?;
        }
    }
    Ok(format!(
        "{} uses {} ({total} of {pool} HP)",
        user.name, spec.name
    ))
}
