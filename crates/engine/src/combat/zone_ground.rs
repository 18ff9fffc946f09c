//! The ground a zone fixed on the map changed (terrain, heavy obscurement, wall props), undone
//! when the zone ends. [`settle`] runs whenever an encounter is loaded: a zone whose caster no
//! longer concentrates on its spell (broken by damage, by hand, by a new spell) no longer shapes
//! the map, even before the turn loop drops the zone itself.

use crate::engine::Call;
use crate::model::aura::Aura;
use crate::model::encounter::Encounter;
use crate::model::names::name_key;

/// Undoes what zone `a` did to the map (terrain back, fog lifted, wall props gone).
pub fn lift(e: &mut Encounter, a: &mut Aura) {
    let g = std::mem::take(&mut a.ground);
    for (p, t) in g.terrain {
        let _ = e.map.set_terrain(p, t);
    }
    for p in g.obscured {
        let _ = e.map.set_obscured(p, false);
    }
    // Last changed first, so a square two lights touched gets its first light back.
    for (p, l) in g.light.into_iter().rev() {
        let _ = e.map.set_light(p, l);
    }
    for id in g.props {
        let _ = e.map.remove_prop(&id);
    }
}

/// Lifts the ground of every zone whose spell its caster no longer concentrates on (or who is
/// dead or gone). The zone itself stays until the turn loop ends it (releasing the creatures
/// it held).
pub fn settle(call: &Call<'_>, e: &mut Encounter) {
    let mut auras = std::mem::take(&mut e.auras);
    for a in auras.iter_mut().filter(|a| !a.ground.is_empty()) {
        let Some(spell) = a.concentration.clone() else {
            continue;
        };
        let holds = call
            .tx_ref()
            .character(call.campaign(), &a.bearer_id)
            .ok()
            .flatten()
            .is_some_and(|c| {
                !c.dead
                    && c.concentration
                        .as_ref()
                        .is_some_and(|k| name_key(&k.spell) == name_key(&spell))
            });
        if !holds {
            lift(e, a);
        }
    }
    e.auras = auras;
}
