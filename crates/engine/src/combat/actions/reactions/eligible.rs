//! Who can react now: the checks every reaction shares (a reaction left, not incapacitated or
//! surprised, on the map, seeing the trigger) and the reaction spells a creature has (known or
//! prepared, with a slot). Reads only the model, so the attack code can ask it without a circle.

use tabletop_grid::Metric;

use crate::combat;
use crate::engine::Call;
use crate::error::Result;
use crate::model::character::Character;
use crate::model::encounter::{Encounter, ReactionPolicy};
use crate::model::names::name_key;

/// The distance rule reactions measure with (the one every range uses).
pub const METRIC: Metric = Metric::Grid5e;

/// The combatant's reaction policy (auto when it is not in the fight).
pub fn policy(enc: &Encounter, id: &str) -> ReactionPolicy {
    enc.combatant(id)
        .map(|c| c.reaction_policy)
        .unwrap_or_default()
}

/// The sheet of `id` when it could take a reaction now: still in the fight and on the map,
/// its reaction unspent, not surprised, alive, conscious and not incapacitated.
pub fn reactor(call: &Call<'_>, enc: &Encounter, id: &str) -> Result<Option<Character>> {
    let Some(cb) = enc.combatant(id) else {
        return Ok(None);
    };
    if cb.removed || cb.economy.reaction || cb.surprised || enc.map.creature(id).is_none() {
        return Ok(None);
    }
    let mut c = combat::sheet(call, id)?;
    crate::slots::ensure(call, &mut c);
    if c.dead || c.hp == 0 || c.effective().is_incapacitated() {
        return Ok(None);
    }
    Ok(Some(c))
}

/// Whether `watcher` sees `other` well enough to react to it: the one rule of seeing in a
/// fight ([`crate::combat::actions::vision::can_see`]: blindness, invisibility and what sees
/// it, hiding, light and the senses that pierce darkness, walls).
pub fn sees(enc: &Encounter, watcher: &Character, other: &Character) -> bool {
    crate::combat::actions::vision::can_see(enc, watcher, other)
}

/// Feet between two creatures on the map.
pub fn distance(enc: &Encounter, a: &str, b: &str) -> Option<u32> {
    enc.map.creature_distance_ft(a, b, METRIC).ok()
}

/// Whether `c` can cast `spell`: on its list of known or prepared spells, mastered, or (with no
/// list kept) on its class's SRD spell list.
pub fn knows_spell(call: &Call<'_>, c: &Character, spell: &str) -> bool {
    let key = name_key(spell);
    if c.mastered_spells.iter().any(|s| name_key(&s.name) == key) {
        return true;
    }
    if !c.spells.is_empty() {
        return c.spells.iter().any(|s| name_key(s) == key);
    }
    let (Some(srd), Some(class)) = (call.compendium(), c.class.as_deref()) else {
        return false;
    };
    let class = name_key(class).replace([' ', '/'], "-");
    srd.spell(spell).is_some_and(|s| {
        crate::model::spell::SpellDef::from_srd(s)
            .classes
            .contains(&class)
    })
}

/// The lowest slot level of at least `min` that `c` has left (a pact slot counts).
pub fn lowest_slot(c: &Character, min: u8) -> Option<u8> {
    let regular = (min.max(1)..=9).find(|l| c.spell_slots.left(*l) > 0);
    let pact = c
        .spell_slots
        .pact
        .filter(|p| p.used < p.max && p.level >= min)
        .map(|p| p.level);
    match (regular, pact) {
        (Some(r), Some(p)) => Some(r.min(p)),
        (r, p) => r.or(p),
    }
}

/// Spends a slot of exactly `level` (a regular one first, else a pact slot of that level).
/// Returns whether one was left.
pub fn spend_slot(c: &mut Character, level: u8) -> bool {
    if (1..=9).contains(&level) && c.spell_slots.left(level) > 0 {
        c.spell_slots.used[usize::from(level - 1)] += 1;
        return true;
    }
    if let Some(p) = c.spell_slots.pact.as_mut()
        && p.used < p.max
        && p.level == level
    {
        p.used += 1;
        return true;
    }
    false
}

/// Marks the reactor's reaction as spent.
pub fn spend_reaction(enc: &mut Encounter, id: &str) {
    if let Some(cb) = enc.combatant_mut(id) {
        cb.economy.reaction = true;
    }
}
