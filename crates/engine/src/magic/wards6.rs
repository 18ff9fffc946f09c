//! The "wards & magic" spells of session 6 (issue 17) that need their own resolution: Dispel
//! Magic ([`dispel`]: the spells on each target end, those above the slot's level on a check)
//! and Glibness's floor on Charisma checks ([`check_floor`], applied wherever a check is rolled
//! from a sheet through `class_rules::adjust_check`), and Antimagic Field's ban on casting
//! inside it ([`antimagic_refusal`]).

use tabletop_rules::Ability;
use tabletop_rules::d20::{D20Outcome, D20Request, D20Test, roll_d20_test};
use tabletop_rules::stats::Contribution;

use super::numbers::spell_ability;
use super::plan::{CastPlan, CastReport};
use super::targets::each_target;
use crate::catalog::spells::SpellEntry;
use crate::character::Character;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::slots::ordinal;

/// One spell found on a creature: an effect (by id) or a condition (by its index), the spell's
/// name and the level it counts as.
struct OnIt {
    effect: Option<String>,
    condition: Option<usize>,
    spell: String,
    level: u8,
}

/// The SRD spell a name stands for, with its level: the effect's own name ("Bless") or the
/// spell its source names ("Hold Person (Aria)").
fn spell_level(call: &Call<'_>, name: &str) -> Option<(String, u8)> {
    let srd = call.compendium()?;
    let base = name.split(" (").next().unwrap_or(name).trim();
    srd.spell(base).map(|s| (s.name.clone(), s.level))
}

/// Every spell on `t`: its spell effects (the level they were cast at when recorded, else the
/// spell's own) and the conditions a spell imposed.
fn spells_on(call: &Call<'_>, t: &Character) -> Vec<OnIt> {
    let mut out = Vec::new();
    for e in &t.effects {
        let found = spell_level(call, &e.name)
            .or_else(|| e.source.as_deref().and_then(|s| spell_level(call, s)));
        if let Some((spell, level)) = found
            && level > 0
        {
            let cast = e.grant.as_ref().and_then(|g| g.cast_level).unwrap_or(level);
            out.push(OnIt {
                effect: Some(e.id.clone()),
                condition: None,
                spell,
                level: cast.max(level),
            });
        }
    }
    for (i, c) in t.conditions.iter().enumerate() {
        if let Some((spell, level)) = spell_level(call, &c.source)
            && level > 0
        {
            out.push(OnIt {
                effect: None,
                condition: Some(i),
                spell,
                level,
            });
        }
    }
    out
}

/// Dispel Magic on each target: every spell on it of the slot's level or lower ends; for each
/// higher one the caster makes a check with its spellcasting ability against DC 10 + that
/// spell's level, and a success ends it.
pub fn dispel(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    report: &mut CastReport,
) -> Result<()> {
    let spell = &plan.spell;
    if plan.targets.is_empty() {
        return Err(EngineError::invalid(
            "targets",
            format!(
                "say whom {} targets: targetId/targetName, or targets",
                spell.name
            ),
        ));
    }
    let slot = plan.slot_level.max(spell.level);
    let ability = spell_ability(call, caster).unwrap_or(Ability::Intelligence);
    each_target(call, caster, plan, report, |call, caster, t, _, lines| {
        let found = spells_on(call, t);
        if found.is_empty() {
            return Ok((
                format!(
                    "{} has no spell on it for {} to end; no effect",
                    t.name, spell.name
                ),
                false,
            ));
        }
        let mut ended: Vec<String> = Vec::new();
        let mut held: Vec<String> = Vec::new();
        let mut gone_effects: Vec<String> = Vec::new();
        let mut gone_conditions: Vec<usize> = Vec::new();
        for s in found {
            let what = format!("{} ({})", s.spell, ordinal(s.level));
            let ends = if s.level <= slot {
                true
            } else {
                let dc = 10 + i32::from(s.level);
                let req = D20Request::new(D20Test::AbilityCheck { ability })
                    .dc(dc)
                    .labelled(format!(
                        "{} check to end {} on {}",
                        ability.name(),
                        s.spell,
                        t.name
                    ));
                let out = roll_d20_test(&caster.effective(), &req, call.rng()?);
                call.record_roll(&out);
                lines.push(format!("{} — {}", caster.name, out.summary()));
                out.success == Some(true)
            };
            if ends {
                ended.push(what);
                gone_effects.extend(s.effect);
                gone_conditions.extend(s.condition);
            } else {
                held.push(what);
            }
        }
        t.effects.retain(|e| !gone_effects.contains(&e.id));
        let mut i = 0;
        t.conditions.retain(|_| {
            let keep = !gone_conditions.contains(&i);
            i += 1;
            keep
        });
        let mut phrase = if ended.is_empty() {
            format!("{}: {} ends nothing", t.name, spell.name)
        } else {
            format!("{}: {} ends {}", t.name, spell.name, ended.join(", "))
        };
        if !held.is_empty() {
            phrase.push_str(&format!(
                "; {} hold{}",
                held.join(", "),
                if held.len() == 1 { "s" } else { "" }
            ));
        }
        Ok((phrase, !ended.is_empty()))
    })
}

/// The floor an effect entry puts on checks, in words for the answer.
pub fn describe_floor(e: &SpellEntry) -> Option<String> {
    e.check_floor.map(|f| {
        format!(
            "a d20 below {} on its {} checks counts as {}",
            f.min,
            f.ability.abbr(),
            f.min
        )
    })
}

/// Applies the check floors of `c`'s effects (Glibness) to a rolled ability or skill check;
/// the lines say what changed.
pub fn check_floor(c: &Character, out: &mut D20Outcome) -> Vec<String> {
    let ability = match out.test {
        D20Test::SkillCheck { skill } => skill.ability(),
        D20Test::AbilityCheck { ability } => ability,
        _ => return Vec::new(),
    };
    let (Some(kept), Some(total)) = (out.kept, out.total) else {
        return Vec::new();
    };
    let best = c
        .effects
        .iter()
        .filter_map(|e| {
            let f = e.grant.as_ref()?.check_floor?;
            (f.ability == ability && kept < f.min).then(|| (f.min, e.name.clone()))
        })
        .max_by_key(|(m, _)| *m);
    let Some((min, name)) = best else {
        return Vec::new();
    };
    let by = i32::try_from(min - kept).unwrap_or(0);
    out.modifiers.push(Contribution::new(
        format!("{name} (d20 {kept} counts as {min})"),
        by,
    ));
    out.modifier_total += by;
    out.total = Some(total + by);
    if let Some(dc) = out.dc
        && out.auto_fail.is_empty()
    {
        out.success = Some(total + by >= dc);
    }
    out.label
        .push_str(&format!(" ({name}: d20 {kept} counts as {min})"));
    vec![format!(
        "{}'s {name}: the d20 of {kept} counts as {min} (total {}).",
        c.name,
        total + by
    )]
}

/// Why `caster_id` cannot cast a spell where it stands: inside an Antimagic Field on the map
/// (its own included), no spell can be cast.
pub fn antimagic_refusal(
    e: &crate::model::encounter::Encounter,
    caster_id: &str,
) -> Option<String> {
    let me = e.map.creature(caster_id)?;
    let g = e.globes.iter().find(|g| {
        crate::catalog::spells::index_of(&g.spell) == "antimagic-field"
            && me.squares().any(|q| {
                tabletop_grid::distance_ft(g.center, q, crate::combat::actions::attack::METRIC)
                    <= g.radius_ft
            })
    })?;
    let name = e
        .combatant(caster_id)
        .map_or_else(|| caster_id.to_string(), |c| c.name.clone());
    Some(format!(
        "{name} stands inside {} around {}: no spell can be cast within it",
        g.spell, g.center
    ))
}
