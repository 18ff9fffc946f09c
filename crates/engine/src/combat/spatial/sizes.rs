//! Tokens follow their creatures' sizes: a creature whose effective size changed (Enlarge/Reduce,
//! a Wild Shape or Polymorph form taken or dropped) takes the space of its new size where it
//! stands, or keeps its old token when the new space is not free, and the answer says which.

use crate::engine::Call;
use crate::error::Result;
use crate::model::encounter::Encounter;

/// Brings every combatant's token to its effective size; one line per change or refusal.
pub fn sync(call: &Call<'_>, enc: &mut Encounter) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    let ids: Vec<String> = enc.order.iter().map(|c| c.character_id.clone()).collect();
    for id in ids {
        let Some(on_map) = enc.map.creature(&id).map(|c| c.size) else {
            continue;
        };
        let Some(c) = call.tx_ref().character(call.campaign(), &id)? else {
            continue;
        };
        let size = c.effective().size;
        let said = enc
            .combatant(&id)
            .and_then(|cb| cb.flags.size_refused)
            .is_some_and(|s| s == size);
        if size == on_map {
            if let Some(cb) = enc.combatant_mut(&id) {
                cb.flags.size_refused = None;
            }
            continue;
        }
        if said {
            continue;
        }
        let n = size.squares();
        let resized = enc.map.resize_creature(&id, size);
        if let Some(cb) = enc.combatant_mut(&id) {
            cb.flags.size_refused = resized.is_err().then_some(size);
        }
        lines.push(match resized {
            Ok(()) => format!(
                "{} is {size} now: its token takes {n}×{n} squares from {}",
                c.name,
                enc.map
                    .creature(&id)
                    .map_or_else(String::new, |t| t.position.to_string())
            ),
            Err(why) => format!(
                "{} is {size} now but its token stays {on_map}: no room where it stands ({why}); move it to open ground",
                c.name
            ),
        });
    }
    Ok(lines)
}

/// [`sync`] in the active encounter `character_id` fights in, when its size may have changed
/// outside an action (damage through `update_character` ending a form); the encounter is stored
/// when a token changed.
pub fn sync_of(call: &mut Call<'_>, character_id: &str) -> Result<Vec<String>> {
    let Some(id) = crate::combat::active_encounter_of(call, character_id)? else {
        return Ok(Vec::new());
    };
    let mut enc = crate::combat::load(call, Some(&id))?;
    let lines = sync(call, &mut enc)?;
    if !lines.is_empty() {
        crate::combat::save(call, &enc)?;
    }
    Ok(lines)
}
