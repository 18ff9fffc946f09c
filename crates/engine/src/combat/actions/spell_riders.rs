//! Spell effects that add dice to weapon hits: a mark on the target answering its caster's
//! hits (Hunter's Mark: +1d6 of the weapon's type), and a charge on the attacker spent by its
//! next weapon hit (Branding Smite: +2d6 radiant, more when upcast).

use tabletop_rules::DamageType;

use super::riders::Riders;
use crate::character::Character;

/// Adds the spell dice of this weapon hit by `attacker` on `target` to `out`; a once-only
/// charge is spent from `attacker`.
pub fn on_weapon_hit(
    attacker: &mut Character,
    target: &Character,
    damage_type: DamageType,
    out: &mut Riders,
) {
    let typed = |d: &str| {
        if d.contains('[') {
            d.to_string()
        } else {
            format!("{d}[{damage_type}]")
        }
    };
    for e in &target.effects {
        let Some(g) = &e.grant else { continue };
        if let (Some(d), Some(by)) = (&g.hit_dice, &g.hit_by)
            && *by == attacker.id
        {
            out.expr.push_str(&format!(" + {}", typed(d)));
            out.lines
                .push(format!("{}: +{d} on {} (marked).", e.name, target.name));
        }
    }
    let mut spent = Vec::new();
    for e in &attacker.effects {
        let Some(g) = &e.grant else { continue };
        if let (Some(d), None) = (&g.hit_dice, &g.hit_by) {
            out.expr.push_str(&format!(" + {}", typed(d)));
            out.lines.push(format!("{}: +{d} on this hit.", e.name));
            if g.hit_once {
                spent.push(e.id.clone());
            }
        }
    }
    if !spent.is_empty() {
        attacker.effects.retain(|e| !spent.contains(&e.id));
        out.lines
            .push("the spell's extra damage is spent on this hit".to_string());
    }
}

/// Whether `caster` concentrates on the mark `def` (Hunter's Mark) and every creature it marks
/// has dropped to 0 HP, so the mark may move without a new slot.
pub(super) fn mark_moves(
    call: &crate::engine::Call<'_>,
    caster: &Character,
    def: &crate::model::spell::SpellDef,
) -> bool {
    if def.mechanics().is_none_or(|m| m.mark_dice.is_none()) {
        return false;
    }
    let Some(conc) = caster.concentration.as_ref().filter(|c| {
        crate::model::names::name_key(&c.spell) == crate::model::names::name_key(&def.name)
    }) else {
        return false;
    };
    !conc.links.is_empty()
        && conc
            .links
            .iter()
            .all(|l| crate::combat::sheet(call, &l.character_id).is_ok_and(|t| t.dead || t.hp == 0))
}
