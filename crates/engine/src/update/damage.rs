//! Damage onto a character's sheet through the damage pipeline: its body or a form it wears
//! (Wild Shape, Polymorph), Death Ward, Relentless Endurance, effects that end on damage, and
//! the mark that damage taken keeps a Rage going.

use tabletop_rules::Condition;
use tabletop_rules::damage::{
    AtZeroHp, DamagePart, DamageResult, DamageTarget, Vitals, apply_damage,
};
use tabletop_rules::stats::EffectiveStats;

use super::ZERO_HP_SOURCE;
use super::sheet::Sheet;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, ConditionEntry};

/// The pipeline's view of `c`'s hit points, with the effective maximum from `eff`.
pub(super) fn vitals(c: &Character, eff: &EffectiveStats) -> Vitals {
    Vitals {
        hp: c.hp,
        max_hp: eff.max_hp.value.max(1) as u32,
        temp_hp: c.temp_hp,
        death_saves: c.death_saves,
        dead: c.dead,
    }
}

/// Runs `parts` through the damage pipeline against `c` and stores the result on it.
pub fn damage(
    c: &mut Character,
    parts: &[DamagePart],
    critical: bool,
    changes: &mut Vec<String>,
) -> Result<DamageResult> {
    damage_with(c, &mut Sheet::default(), parts, critical, changes)
}

/// [`damage`], reading `c`'s effective sheet from `sheet`.
pub(super) fn damage_with(
    c: &mut Character,
    sheet: &mut Sheet,
    parts: &[DamagePart],
    critical: bool,
    changes: &mut Vec<String>,
) -> Result<DamageResult> {
    if c.dead {
        return Err(EngineError::Rule(format!(
            "{} is dead; damage has no effect on the dead",
            c.name
        )));
    }
    let r = if c.active_shape().is_some() {
        form_damage(c, parts, critical, changes)?
    } else {
        damage_body(c, sheet, parts, critical, changes)?
    };
    // Damage taken keeps a Rage going through the bearer's turn end.
    if r.total > 0 {
        for e in c.effects.iter_mut().filter(|e| e.lapses_unless_fighting()) {
            e.damaged_since_turn = true;
        }
    }
    Ok(r)
}

/// [`damage_with`] on the creature's own body (no form worn).
fn damage_body(
    c: &mut Character,
    sheet: &mut Sheet,
    parts: &[DamagePart],
    critical: bool,
    changes: &mut Vec<String>,
) -> Result<DamageResult> {
    let eff = sheet.get(c);
    let target = DamageTarget {
        vitals: vitals(c, eff),
        defenses: eff.defenses.clone(),
        at_zero: AtZeroHp::for_character_type(c.kind),
    };
    let mut r = apply_damage(&target, parts, critical)?;
    if c.concentration.is_none() {
        // Nothing to keep: no save to ask for.
        r.concentration_dc = None;
    }
    // Death Ward: the first drop to 0 HP leaves the bearer at 1 HP, and the ward ends.
    if r.hp_before > 0
        && r.hp_after == 0
        && let Some(pos) = c
            .effects
            .iter()
            .position(|e| e.grant.as_ref().is_some_and(|g| g.death_ward))
    {
        let ward = c.effects.remove(pos);
        r.hp_after = 1;
        r.dead = false;
        r.death_saves = Default::default();
        r.add_conditions.clear();
        r.outcome = tabletop_rules::damage::DamageOutcome::Damaged;
        changes.push(format!(
            "{} drops to 1 HP instead of 0 ({} ends)",
            c.name, ward.name
        ));
    }
    // Relentless Endurance, unless Relentless Rage is tried first (it calls it when it fails).
    if !crate::combat::endurance::relentless_rage_ready(c) {
        crate::combat::endurance::relentless_endurance(c, &mut r, changes);
    }
    // Relentless, Regeneration's record of stopping damage and its life at 0 HP (a troll).
    crate::combat::regen::after_damage(c, &mut r, changes);
    c.hp = r.hp_after;
    c.temp_hp = r.temp_hp_after;
    c.death_saves = r.death_saves;
    c.dead = r.dead;
    // Effects that end when their bearer takes damage (a turned undead).
    if r.total > 0 {
        c.effects.retain(|e| {
            let ends = e.grant.as_ref().is_some_and(|g| g.ends_on_damage);
            if ends {
                changes.push(format!("{}'s {} ends: it took damage", c.name, e.name));
            }
            !ends
        });
        // Conditions that end when their bearer takes damage (a magical sleep: Sleep, Eyebite).
        let name = c.name.clone();
        c.conditions.retain(|e| {
            let ends = e.ends_on == Some(crate::model::character::ConditionEnds::Damage);
            if ends {
                changes.push(format!(
                    "{name} is no longer {} ({}): it took damage",
                    e.condition, e.source
                ));
            }
            !ends
        });
    }
    // An unconscious creature drops what it holds and falls prone (and is still prone when it
    // wakes); said after the damage.
    let dropped = if r.add_conditions.contains(&Condition::Unconscious) {
        super::knocked_out(c, ZERO_HP_SOURCE, false)
    } else {
        Vec::new()
    };
    for cond in &r.add_conditions {
        if !c.has_condition(*cond) {
            c.conditions.push(ConditionEntry {
                by: None,
                ends_on: None,
                condition: *cond,
                level: None,
                source: ZERO_HP_SOURCE.into(),
                duration: None,
            });
        }
    }
    changes.push(format!("{} {}", c.name, r.summary()));
    changes.extend(dropped);
    Ok(r)
}

/// Damage to a creature in another form (Wild Shape, Polymorph): the form's hit points take it
/// (with the form's defences); at 0 the creature reverts to its normal form and the damage left
/// over carries over to it.
fn form_damage(
    c: &mut Character,
    parts: &[DamagePart],
    critical: bool,
    changes: &mut Vec<String>,
) -> Result<DamageResult> {
    let eff = c.effective();
    let Some(shape) = c.shape.as_mut() else {
        return Err(EngineError::Rule("internal: no form to damage".into()));
    };
    let target = DamageTarget {
        vitals: Vitals {
            hp: shape.hp,
            max_hp: shape.max_hp.max(1),
            temp_hp: c.temp_hp,
            death_saves: Default::default(),
            dead: false,
        },
        defenses: eff.defenses,
        at_zero: AtZeroHp::Dies,
    };
    let mut r = apply_damage(&target, parts, critical)?;
    c.temp_hp = r.temp_hp_after;
    shape.hp = r.hp_after;
    let form = shape.form.clone();
    let to_form = r.total.saturating_sub(r.temp_absorbed);
    if r.hp_after > 0 {
        r.dead = false;
        r.add_conditions.clear();
        r.outcome = tabletop_rules::damage::DamageOutcome::Damaged;
        r.concentration_ends = false;
        if c.concentration.is_none() {
            r.concentration_dc = None;
        }
        changes.push(format!("{} ({form} form) {}", c.name, r.summary()));
        return Ok(r);
    }
    let carried = to_form.saturating_sub(r.hp_before);
    changes.push(format!(
        "{} ({form} form) takes {to_form}: the form drops to 0 HP ({} → 0)",
        c.name, r.hp_before
    ));
    if let Some(line) = c.revert_shape("its form dropped to 0 HP") {
        changes.push(line);
    }
    if carried == 0 {
        r.dead = false;
        r.add_conditions.clear();
        r.outcome = tabletop_rules::damage::DamageOutcome::Damaged;
        r.concentration_ends = false;
        r.hp_before = c.hp;
        r.hp_after = c.hp;
        if c.concentration.is_none() {
            r.concentration_dc = None;
        }
        return Ok(r);
    }
    // The excess keeps its type, so the normal form's own defences apply to it.
    let parts = carried_parts(&r, r.hp_before.saturating_add(r.temp_absorbed));
    changes.push(format!(
        "{carried} damage carries over to {}'s normal form ({})",
        c.name,
        parts
            .iter()
            .map(|p| format!(
                "{} {}",
                p.amount,
                p.damage_type
                    .map_or_else(|| "untyped".to_string(), |t| t.to_string())
            ))
            .collect::<Vec<_>>()
            .join(" + ")
    ));
    let mut after = damage(c, &parts, false, changes)?;
    // One damage event: the concentration save is against everything taken.
    after.total = r.total;
    after.by_type = r.by_type;
    after.temp_absorbed = r.temp_absorbed;
    after.critical = critical;
    if c.concentration.is_some() && !after.concentration_ends {
        after.concentration_dc = Some(tabletop_rules::damage::concentration_dc(r.total));
    }
    Ok(after)
}

/// The damage a form did not absorb, by type: the form's hit points and temporary hit points
/// (`absorbed`) take the types in the order they came, and what is left of each carries over.
fn carried_parts(r: &DamageResult, absorbed: u32) -> Vec<DamagePart> {
    let mut pool = absorbed;
    let mut out = Vec::new();
    for t in &r.by_type {
        let used = t.taken.min(pool);
        pool -= used;
        if t.taken > used {
            out.push(DamagePart::new(t.damage_type, t.taken - used));
        }
    }
    out
}
