//! Combat spells carried out where they bite (the catalog's `combat` rules, see
//! `catalog::spell_combat`): Blink's d20 at the end of its caster's turns and the Ethereal Plane
//! it leaves for, Resilient Sphere's closed globe, Confusion's d10 at the start of its bearer's
//! turns, Ray of Enfeeblement's halved Strength weapon damage, Enlarge/Reduce's size and damage,
//! Suggestion's end on damage, repeat saves of concentration effects (Compulsion), and
//! Shillelagh's club or quarterstaff.

use tabletop_rules::Ability;
use tabletop_rules::damage::DamagePart;
use tabletop_rules::dice;
use tabletop_rules::modifiers::{ModifierKind, RollTarget};

use crate::catalog::spell_combat::CombatRule;
use crate::engine::Call;
use crate::error::Result;
use crate::model::character::Character;
use crate::model::effects::{ActiveEffect, Duration, EndTrigger, TurnPoint};
use crate::model::encounter::Encounter;

use super::plan::CastPlan;

/// The effect a creature that blinked away carries until the start of its next turn.
pub const ETHEREAL: &str = "Ethereal (Blink)";

/// The combat rule of an effect, read from the spell it is named after.
pub fn rule_of(e: &ActiveEffect) -> Option<CombatRule> {
    crate::catalog::spells::by_name(&e.name)?.combat
}

/// The bearer's effect carrying `rule`, if any.
pub fn with_rule(c: &Character, rule: CombatRule) -> Option<&ActiveEffect> {
    c.effects.iter().find(|e| rule_of(e) == Some(rule))
}

fn ethereal(c: &Character) -> bool {
    c.effects.iter().any(|e| e.name == ETHEREAL)
}

fn roll(call: &mut Call<'_>, expr: &str) -> Result<dice::DiceRoll> {
    let r = dice::parse(expr)?.roll(call.rng()?)?;
    call.record_roll(&r);
    Ok(r)
}

/// How long a concentration effect of `plan` lasts: while the caster concentrates, and with
/// `repeat_save` (Compulsion, Ray of Enfeeblement, Confusion) until the bearer also succeeds on
/// the spell's save at the end of one of its turns.
pub fn held(caster: &Character, plan: &CastPlan) -> Duration {
    let spell = &plan.spell;
    match (spell.mechanics().is_some_and(|e| e.repeat_save), spell.save) {
        (true, Some(sv)) => Duration::ConcentrationSave {
            caster_id: caster.id.clone(),
            spell: spell.name.clone(),
            dc: plan.save_dc,
            ability: sv.ability,
        },
        _ => Duration::Concentration {
            caster_id: caster.id.clone(),
            spell: spell.name.clone(),
        },
    }
}

/// Why `actor` cannot reach `target` with an attack or a spell: either is on the Ethereal Plane
/// (Blink), or either is enclosed in a Resilient Sphere (nothing passes in or out). A creature
/// may still affect itself.
pub fn sealed_off(actor: &Character, target: &Character) -> Option<String> {
    if actor.id == target.id {
        return None;
    }
    if ethereal(target) {
        return Some(format!(
            "{} is on the Ethereal Plane (Blink) until the start of its next turn: it cannot be attacked or affected from here",
            target.name
        ));
    }
    if ethereal(actor) {
        return Some(format!(
            "{} is on the Ethereal Plane (Blink): it cannot attack or affect {} on this plane",
            actor.name, target.name
        ));
    }
    if let Some(e) = with_rule(target, CombatRule::Enclosed) {
        return Some(format!(
            "{} is enclosed in a {}: nothing passes into the sphere",
            target.name, e.name
        ));
    }
    if let Some(e) = with_rule(actor, CombatRule::Enclosed) {
        return Some(format!(
            "{} is enclosed in a {}: nothing passes out of the sphere",
            actor.name, e.name
        ));
    }
    None
}

/// Whether the target makes no saving throw when the spell lands: Ray of Enfeeblement's CON
/// save comes only at the end of its turns; a willing target of Enlarge/Reduce or Resilient
/// Sphere (itself or on the caster's side) makes none.
pub fn skips_save(
    plan: &CastPlan,
    caster: &Character,
    target: &Character,
    enc: Option<&Encounter>,
) -> bool {
    match plan.spell.mechanics().and_then(|e| e.combat) {
        Some(CombatRule::HalfStrengthDamage | CombatRule::HeatMetal) => return true,
        Some(CombatRule::EnlargeReduce | CombatRule::Enclosed) => {}
        _ => return false,
    }
    if caster.id == target.id {
        return true;
    }
    enc.is_some_and(|e| {
        let side = |x: &str| e.combatant(x).map(|c| c.side);
        matches!((side(&caster.id), side(&target.id)), (Some(a), Some(b)) if !a.hostile_to(b))
    })
}

/// Modifiers an effect's combat rule adds when cast: Enlarge's advantage on STR checks and saves
/// (Reduce's disadvantage), and a line on the sheet saying what the rule does.
pub fn modifiers(e: &crate::catalog::spells::SpellEntry, plan: &CastPlan) -> Vec<ModifierKind> {
    let note = |t: &str| vec![ModifierKind::Note { text: t.into() }];
    match e.combat {
        None | Some(CombatRule::HeatMetal) => return Vec::new(),
        Some(CombatRule::EndsOnDamage) => {
            return note("pursues the suggested course of activity; ends if it takes damage");
        }
        Some(CombatRule::HalfStrengthDamage) => {
            return note("its weapon attacks that use Strength deal half damage");
        }
        Some(CombatRule::Blink) => {
            return note(
                "a d20 at the end of each of its turns: on 11+ it is on the Ethereal Plane until the start of its next turn",
            );
        }
        Some(CombatRule::Enclosed) => {
            return note("enclosed in a sphere of force: no attack or spell passes in or out");
        }
        Some(CombatRule::Confused) => {
            return note(
                "a d10 at the start of each of its turns decides what it does; it can't take reactions",
            );
        }
        Some(CombatRule::Shillelagh) => {
            return note(
                "its club or quarterstaff attacks with its spellcasting ability, deals 1d8 and is magical",
            );
        }
        Some(CombatRule::EnlargeReduce) => {}
    }
    let on = [
        RollTarget::AbilityChecks {
            ability: Ability::Strength,
        },
        RollTarget::Save {
            ability: Ability::Strength,
        },
    ];
    let mut kinds: Vec<ModifierKind> = on
        .into_iter()
        .map(|on| {
            if plan.choice.reduce {
                ModifierKind::Disadvantage { on }
            } else {
                ModifierKind::Advantage { on }
            }
        })
        .collect();
    kinds.push(ModifierKind::SizeSteps {
        steps: if plan.choice.reduce { -1 } else { 1 },
    });
    kinds.push(ModifierKind::Note {
        text: if plan.choice.reduce {
            "reduced: one size smaller, weapon hits deal 1d4 less (not below 1)".into()
        } else {
            "enlarged: one size larger, weapon hits deal 1d4 more".into()
        },
    });
    kinds
}

/// Enlarge's extra 1d4 on the bearer's weapon hits (doubled on a critical, as the weapon's
/// type); Reduce's is taken off by [`weapon_damage`].
pub fn hit_dice(e: &crate::catalog::spells::SpellEntry, plan: &CastPlan) -> Option<String> {
    (e.combat == Some(CombatRule::EnlargeReduce) && !plan.choice.reduce).then(|| "1d4".into())
}

/// Whether an effect of Enlarge/Reduce on the bearer is the Reduce.
fn reduced(c: &Character) -> bool {
    with_rule(c, CombatRule::EnlargeReduce).is_some_and(|e| {
        e.modifiers
            .iter()
            .any(|m| matches!(m.kind, ModifierKind::Disadvantage { .. }))
    })
}

/// What the attacker's effects do to its weapon damage: Ray of Enfeeblement halves weapon
/// attacks that use Strength; Reduce takes 1d4 off (not below 1). `strength` says whether the
/// attack uses Strength (a stat block's melee weapon attack counts).
pub fn weapon_damage(
    call: &mut Call<'_>,
    attacker: &Character,
    strength: bool,
    parts: &mut [DamagePart],
    lines: &mut Vec<String>,
) -> Result<()> {
    if reduced(attacker) {
        let r = roll(call, "1d4")?;
        let mut left = u32::try_from(r.total.max(0)).unwrap_or(0);
        let total: u32 = parts.iter().map(|p| p.amount).sum();
        left = left.min(total.saturating_sub(1));
        let taken = left;
        for p in parts.iter_mut() {
            let cut = left.min(p.amount);
            p.amount -= cut;
            left -= cut;
        }
        lines.push(format!(
            "Enlarge/Reduce: {} is reduced, its weapon deals {} less ({})",
            attacker.name,
            taken,
            r.summary()
        ));
    }
    if strength && let Some(e) = with_rule(attacker, CombatRule::HalfStrengthDamage) {
        let before: u32 = parts.iter().map(|p| p.amount).sum();
        for p in parts.iter_mut() {
            p.amount /= 2;
        }
        let after: u32 = parts.iter().map(|p| p.amount).sum();
        lines.push(format!(
            "{}: {}'s Strength weapon attack deals half damage ({before} → {after})",
            e.name, attacker.name
        ));
    }
    Ok(())
}

/// At the end of `id`'s turn: Blink's d20; on 11 or more the bearer is on the Ethereal Plane
/// until the start of its next turn.
pub fn end_of_turn(call: &mut Call<'_>, id: &str, lines: &mut Vec<String>) -> Result<()> {
    let Some(mut c) = call.tx_ref().character(call.campaign(), id)? else {
        return Ok(());
    };
    if c.dead || ethereal(&c) || with_rule(&c, CombatRule::Blink).is_none() {
        return Ok(());
    }
    let r = roll(call, "1d20")?;
    if r.total < 11 {
        lines.push(format!(
            "Blink: {} rolls {} — it stays on this plane",
            c.name,
            r.summary()
        ));
        return Ok(());
    }
    let ef = call.new_id("ef")?;
    c.effects.push(ActiveEffect {
        id: ef,
        name: ETHEREAL.into(),
        source: Some(format!("Blink ({})", c.name)),
        modifiers: vec![tabletop_rules::modifiers::Modifier::new(
            ETHEREAL.to_string(),
            ModifierKind::Note {
                text: "on the Ethereal Plane: can't be attacked or affected from the Material Plane, nor affect it".into(),
            },
        )],
        duration: Duration::Rounds { remaining: 1 },
        ends_on: Some(EndTrigger {
            at: TurnPoint::Start,
            turn_of: c.id.clone(),
        }),
        ends_when_attacked: false,
        damaged_since_turn: false,
        grant: None,
    });
    let line = format!(
        "Blink: {} rolls {} — it vanishes to the Ethereal Plane until the start of its next turn",
        c.name,
        r.summary()
    );
    crate::combat::put_sheet(call, &c)?;
    call.record_change("character", &c.id, line.clone());
    lines.push(line);
    Ok(())
}

/// At the start of `id`'s turn: Confusion's d10 decides what the bearer may do, and its
/// turn's economy is spent to match (it can take no reactions at all).
pub fn start_of_turn(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    id: &str,
    lines: &mut Vec<String>,
) -> Result<()> {
    let Some(c) = call.tx_ref().character(call.campaign(), id)? else {
        return Ok(());
    };
    if c.dead || c.hp == 0 || with_rule(&c, CombatRule::Confused).is_none() {
        return Ok(());
    }
    let r = roll(call, "1d10")?;
    let speed = u32::try_from(c.effective().speed.value.max(0)).unwrap_or(0);
    let mut line = format!("Confusion: {} rolls {} — ", c.name, r.summary());
    // (action, bonus action, movement) spent
    let (action, bonus, movement) = match r.total {
        1 => {
            const DIRS: [&str; 8] = [
                "north",
                "northeast",
                "east",
                "southeast",
                "south",
                "southwest",
                "west",
                "northwest",
            ];
            let d = roll(call, "1d8")?;
            let i = usize::try_from(d.total.clamp(1, 8) - 1).unwrap_or(0);
            line.push_str(&format!(
                "it uses all its movement to move {} (d8 {}) and takes no action",
                DIRS[i], d.total
            ));
            (true, true, false)
        }
        2..=6 => {
            line.push_str("it doesn't move or take actions this turn");
            (true, true, true)
        }
        7 | 8 => {
            let near: Vec<String> = enc
                .map
                .creatures()
                .filter(|m| m.id != c.id)
                .filter(|m| {
                    enc.map
                        .creature_distance_ft(&c.id, &m.id, tabletop_grid::Metric::Grid5e)
                        .is_ok_and(|d| d <= 5)
                })
                .filter_map(|m| enc.combatant(&m.id).map(|cb| cb.name.clone()))
                .collect();
            if near.is_empty() {
                line.push_str("no creature is within its reach: it does nothing this turn");
                (true, true, true)
            } else {
                let pick = roll(call, &format!("1d{}", near.len()))?;
                let i = usize::try_from(pick.total.max(1) - 1).unwrap_or(0);
                let who = near.get(i).cloned().unwrap_or_default();
                line.push_str(&format!(
                    "it must use its action to make a melee attack against {who} (random among those within its reach) and doesn't move"
                ));
                (false, true, true)
            }
        }
        _ => {
            line.push_str("it can act and move normally this turn");
            (false, false, false)
        }
    };
    if let Some(cb) = enc.combatant_mut(id) {
        cb.economy.reaction = true;
        cb.economy.action |= action;
        cb.economy.bonus_action |= bonus;
        if movement {
            cb.economy.movement_used_ft = cb.economy.movement_used_ft.max(speed);
        }
    }
    line.push_str("; it can't take reactions");
    lines.push(line);
    Ok(())
}

/// Whether a weapon attack uses Strength: rolled with STR (`test`), or else a stat block's melee
/// weapon attack (`stat_block_melee`).
pub fn uses_strength(test: Option<tabletop_rules::d20::D20Test>, stat_block_melee: bool) -> bool {
    use tabletop_rules::d20::D20Test;
    match test {
        Some(D20Test::Attack {
            ability: Some(a), ..
        }) => a == Ability::Strength,
        _ => stat_block_melee,
    }
}

/// Why `target` is out of this casting's reach: [`sealed_off`], or an effect spell's
/// `immune_if` condition the target is immune to (Suggestion: creatures that can't be charmed).
pub fn out_of_reach(plan: &CastPlan, caster: &Character, target: &Character) -> Option<String> {
    if let Some(why) = sealed_off(caster, target) {
        return Some(why);
    }
    let e = plan.spell.mechanics()?;
    if e.combat == Some(CombatRule::Enclosed)
        && matches!(
            target.size,
            tabletop_rules::Size::Huge | tabletop_rules::Size::Gargantuan
        )
    {
        return Some(format!(
            "{} is unaffected: {} encloses a creature of Large size or smaller",
            target.name, plan.spell.name
        ));
    }
    let cond = e
        .immune_if
        .filter(|_| e.combat.is_some() || e.repeat_save)?;
    target
        .effective()
        .condition_immunities
        .contains_key(&cond)
        .then(|| {
            format!(
                "{} is unaffected: it can't be {cond}, so {} has no hold on it",
                target.name, plan.spell.name
            )
        })
}

/// Whether `item` is a club or a quarterstaff its bearer's Shillelagh makes magical: it attacks
/// with the bearer's spellcasting ability (or Strength, the better), deals 1d8 and is magical.
pub fn shillelagh(c: &Character, item: &crate::model::inventory::Item) -> bool {
    item.weapon.is_some()
        && item
            .name
            .to_ascii_lowercase()
            .split(|ch: char| !ch.is_ascii_alphabetic())
            .any(|w| w == "club" || w == "quarterstaff")
        && with_rule(c, CombatRule::Shillelagh).is_some()
}

/// The abilities a weapon may attack with, widened by Shillelagh to the bearer's spellcasting
/// ability.
pub fn weapon_abilities(
    c: &Character,
    item: &crate::model::inventory::Item,
    mut allowed: Vec<Ability>,
) -> Vec<Ability> {
    if shillelagh(c, item)
        && let Some(a) = c.spellcasting_ability
        && !allowed.contains(&a)
    {
        allowed.push(a);
    }
    allowed
}
