//! Effect grants for movement modes and wards (issue 17): the speeds an effect gives (Fly,
//! Spider Climb, Gaseous Form), walking on water (Water Walk), Dash as a bonus action
//! (Expeditious Retreat), a raised hit point maximum (Aid), and wards that act on attacks
//! against the bearer (Protection from Evil and Good's disadvantage by creature type).

use tabletop_rules::modifiers::ModifierKind;

use super::plan::CastPlan;
use crate::catalog::spell_moves::SpeedGrant;
use crate::catalog::spells::SpellEntry;
use crate::character::Character;
use crate::effects::SpellGrant;

/// Fills the movement and ward parts of an effect's grant from its catalog entry.
pub fn movement_and_wards(e: &SpellEntry, plan: &CastPlan, g: &mut SpellGrant) {
    for (mode, s) in &e.speeds {
        match s {
            SpeedGrant::Feet(f) => {
                g.speeds.insert(mode.clone(), *f);
            }
            SpeedGrant::Walk(_) => g.speeds_as_walk.push(mode.clone()),
        }
    }
    g.water_walk = e.water_walk;
    g.dash_bonus_action = e.dash_bonus_action;
    g.ward_types = e.ward_types.clone();
    if e.sanctuary {
        g.sanctuary_dc = Some(plan.save_dc);
    }
    g.see_invisible = e.see_invisible;
    g.ignore_difficult_terrain = e.ignore_difficult_terrain;
    g.mirror_images = e.mirror_images;
    g.nondetection = e.nondetection;
    g.communication = e.communication.clone();
    g.check_floor = e.check_floor;
}

/// How much an effect raises the hit point maximum at the plan's slot (Aid: 5, +5 per slot
/// above 2nd).
pub fn max_hp_raise(e: &SpellEntry, plan: &CastPlan) -> Option<u32> {
    let base = e.max_hp_bonus?;
    let up = u32::from(plan.slot_level.saturating_sub(plan.spell.level));
    Some(base.saturating_add(e.max_hp_per_slot.unwrap_or(0).saturating_mul(up)))
}

/// Modifiers the slot decides (Aid's raised maximum).
pub fn slot_modifiers(e: &SpellEntry, plan: &CastPlan) -> Vec<ModifierKind> {
    max_hp_raise(e, plan)
        .and_then(|n| i32::try_from(n).ok())
        .map(|amount| vec![ModifierKind::MaxHpBonus { amount }])
        .unwrap_or_default()
}

/// After the effect is on `target`: Aid's current hit points rise with the maximum; the grants
/// in words for the answer.
pub fn after_effect(e: &SpellEntry, plan: &CastPlan, target: &mut Character) -> Vec<String> {
    let mut what = Vec::new();
    if let Some(n) = max_hp_raise(e, plan) {
        let max = u32::try_from(target.effective().max_hp.value.max(0)).unwrap_or(0);
        let before = target.hp;
        target.hp = target.hp.saturating_add(n).min(max);
        what.push(format!(
            "hit point maximum {max} (+{n}), HP {before} → {}",
            target.hp
        ));
    }
    let walk = u32::try_from(target.effective().speed.value.max(0)).unwrap_or(0);
    for (mode, s) in &e.speeds {
        what.push(format!("{mode} speed {} ft", s.feet(walk)));
    }
    if e.water_walk {
        what.push("walks on water and other liquids as on solid ground".into());
    }
    if e.dash_bonus_action {
        what.push("may Dash as a bonus action".into());
    }
    if e.sanctuary {
        what.push(format!(
            "a creature attacking it first makes a DC {} WIS save or must choose a new target",
            plan.save_dc
        ));
    }
    if e.nondetection {
        what.push("hidden from divination magic".into());
    }
    if let Some(n) = e.mirror_images {
        what.push(format!(
            "{n} illusory duplicates: an attack against it may strike one instead (a d20)"
        ));
    }
    if e.ignore_difficult_terrain {
        what.push("difficult terrain costs it no extra movement".into());
    }
    if e.see_invisible {
        what.push("sees invisible creatures".into());
    }
    what.extend(e.communication.iter().cloned());
    what.extend(super::wards6::describe_floor(e));
    if !e.ward_types.is_empty() {
        what.push(format!(
            "attacks against it by {} have disadvantage",
            e.ward_types.join(", ")
        ));
    }
    what
}

pub use crate::model::senses::movement_modes;

/// The fly speed an effect on `c` grants (Fly 60, Gaseous Form 10), if any.
pub fn spell_fly_ft(c: &Character) -> Option<u32> {
    let walk = u32::try_from(c.effective().speed.value.max(0)).unwrap_or(0);
    crate::model::senses::grants(c)
        .into_iter()
        .filter_map(|(_, g)| {
            let own = g.speeds.get("fly").copied();
            let as_walk = g.speeds_as_walk.iter().any(|m| m == "fly").then_some(walk);
            own.max(as_walk)
        })
        .max()
}

/// Whether an effect on `c` lets it walk on water.
pub fn walks_on_water(c: &Character) -> Option<String> {
    granted_by(c, |g| g.water_walk)
}

/// The first source (an effect, a worn item) whose grant passes `f`.
fn granted_by(
    c: &Character,
    f: impl Fn(&crate::model::effects::SpellGrant) -> bool,
) -> Option<String> {
    crate::model::senses::grants(c)
        .into_iter()
        .find(|(_, g)| f(g))
        .map(|(n, _)| n.to_string())
}

/// The effect on `c` that lets it cross difficult terrain at no extra cost, if any.
pub fn ignores_difficult_terrain(c: &Character) -> Option<String> {
    granted_by(c, |g| g.ignore_difficult_terrain)
}

/// The effect on `c` that lets it Dash as a bonus action, if any.
pub fn dash_as_bonus(c: &Character) -> Option<String> {
    c.effects
        .iter()
        .find(|e| e.grant.as_ref().is_some_and(|g| g.dash_bonus_action))
        .map(|e| e.name.clone())
}

/// What spells change in an attack's situation: disadvantage from the target's wards by
/// creature type; an attacker that sees invisible creatures (See Invisibility, True Seeing)
/// loses the invisible target's disadvantage.
pub fn adjust_situation(attacker: &Character, target: &Character, dis: &mut Vec<String>) {
    dis.extend(ward_disadvantage(attacker, target));
    if sees_invisible(attacker).is_some() {
        dis.retain(|d| d != "target invisible");
    }
}

pub use crate::model::senses::sees_invisible;

/// Disadvantage on `attacker`'s attacks against `target` from the target's wards by creature
/// type (Protection from Evil and Good against a fiend).
pub fn ward_disadvantage(attacker: &Character, target: &Character) -> Vec<String> {
    let Some(kind) = super::targets::creature_type(attacker) else {
        return Vec::new();
    };
    target
        .effects
        .iter()
        .filter(|e| {
            e.grant
                .as_ref()
                .is_some_and(|g| g.ward_types.contains(&kind))
        })
        .map(|e| format!("{} wards {} against {kind} creatures", e.name, target.name))
        .collect()
}
