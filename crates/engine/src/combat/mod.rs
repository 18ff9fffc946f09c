//! Combat: encounters, initiative, the action economy and the actions themselves.
//!
//! An encounter is one stored document ([`Encounter`]); its combatants are characters, so the
//! damage pipeline, conditions, effects and concentration of the character modules apply
//! unchanged. Every use case here loads the encounter, changes it and the characters involved,
//! and saves both in the call's one transaction.

pub mod actions;
pub mod auras;
pub mod banish;
pub mod bodies;
pub mod charm;
pub mod create;
pub mod death;
pub mod death_time;
pub mod divination;
pub mod end;
pub mod endurance;
pub mod falls;
pub mod fear;
pub mod legendary;
pub mod manage;
pub mod martial;
pub mod objects;
pub mod regen;
pub mod render;
pub mod spatial;
pub mod summons;
pub mod teleport;
pub mod terrain;
pub mod traits;
pub mod turn;
pub mod view;
pub mod zone_ground;
pub mod zones;

/// The encounter data lives in the model; re-exported so `combat::Encounter` and
/// `combat::model::…` keep working.
pub use crate::model::encounter as model;
pub use crate::model::encounter::*;

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;

/// Loads the encounter `id`, or, when `id` is `None`, the one active encounter; zones whose
/// concentration ended no longer shape its map.
pub fn load(call: &Call<'_>, id: Option<&str>) -> Result<Encounter> {
    let mut e = load_stored(call, id)?;
    zone_ground::settle(call, &mut e);
    Ok(e)
}

fn load_stored(call: &Call<'_>, id: Option<&str>) -> Result<Encounter> {
    let campaign = call.campaign();
    match id.map(str::trim).filter(|s| !s.is_empty()) {
        Some(id) => call
            .tx_ref()
            .encounter(campaign, id)?
            .ok_or_else(|| EngineError::NotFound {
                kind: "encounter",
                given: id.to_string(),
                suggestions: call
                    .tx_ref()
                    .list_encounters(campaign, false)
                    .map(|l| {
                        l.into_iter()
                            .take(5)
                            .map(|e| format!("{} ({})", e.id, e.name))
                            .collect()
                    })
                    .unwrap_or_default(),
            }),
        None => {
            let mut active = call.tx_ref().list_encounters(campaign, true)?;
            match active.len() {
                0 => Err(EngineError::Rule(
                    "no encounter is active; start one with create_encounter (or pass encounterId of an ended one)"
                        .into(),
                )),
                1 => Ok(active.remove(0)),
                _ => Err(EngineError::invalid(
                    "encounterId",
                    format!(
                        "several encounters are active ({}); pass encounterId",
                        active
                            .iter()
                            .map(|e| format!("{} ({})", e.id, e.name))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )),
            }
        }
    }
}

/// Loads an encounter that is still running.
pub fn load_active(call: &Call<'_>, id: Option<&str>) -> Result<Encounter> {
    let e = load(call, id)?;
    if !e.is_active() {
        return Err(EngineError::Rule(format!(
            "encounter {} ({}) has ended; start a new one with create_encounter",
            e.id, e.name
        )));
    }
    Ok(e)
}

/// Loads the running encounter for an action: `id` when given; else the one active encounter;
/// else, when several are active, the one in which the named combatants fight.
pub fn load_for(call: &Call<'_>, id: Option<&str>, named: &[&actions::Who]) -> Result<Encounter> {
    if id.is_some_and(|s| !s.trim().is_empty()) {
        return load_active(call, id);
    }
    let mut active = call.tx_ref().list_encounters(call.campaign(), true)?;
    if active.len() <= 1 {
        return load_active(call, None);
    }
    let fights_in = |e: &Encounter, w: &actions::Who| {
        e.order.iter().any(|c| {
            w.id.as_deref()
                .is_some_and(|id| id.trim() == c.character_id)
                || w.name.as_deref().is_some_and(|n| {
                    crate::model::names::name_key(n) == crate::model::names::name_key(&c.name)
                })
        })
    };
    let named: Vec<&&actions::Who> = named.iter().filter(|w| !w.is_empty()).collect();
    let all: Vec<String> = active
        .iter()
        .map(|e| format!("{} ({})", e.id, e.name))
        .collect();
    active.retain(|e| !named.is_empty() && named.iter().all(|w| fights_in(e, w)));
    match active.len() {
        1 => {
            let mut e = active.remove(0);
            zone_ground::settle(call, &mut e);
            Ok(e)
        }
        0 if !named.is_empty() => {
            let who: Vec<&str> = named
                .iter()
                .filter_map(|w| w.name.as_deref().or(w.id.as_deref()))
                .collect();
            Err(EngineError::invalid(
                "encounterId",
                format!(
                    "{} fight together in none of the active encounters ({}); pass encounterId",
                    who.join(" and "),
                    all.join(", ")
                ),
            ))
        }
        _ => load_active(call, None),
    }
}

/// Stores the encounter.
pub fn save(call: &mut Call<'_>, e: &Encounter) -> Result<()> {
    let campaign = call.campaign();
    call.tx().put_encounter(campaign, e)?;
    Ok(())
}

/// A combatant's character sheet.
pub fn sheet(call: &Call<'_>, character_id: &str) -> Result<Character> {
    call.tx_ref()
        .character(call.campaign(), character_id)?
        .ok_or_else(|| EngineError::NotFound {
            kind: "character",
            given: character_id.to_string(),
            suggestions: Vec::new(),
        })
}

/// Ends the concentration of every combatant that can no longer hold it (incapacitated, at
/// 0 HP, dead), whatever put it there: a spell that held it or put it to sleep, a monster's
/// paralysing touch, a stun. Run after every action and around every turn change; the lines say
/// what ended.
pub fn lapsed_concentration(call: &mut Call<'_>, enc: &Encounter) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    for cb in enc.order.iter().filter(|c| !c.removed) {
        let mut c = sheet(call, &cb.character_id)?;
        if c.concentration.is_none() {
            continue;
        }
        // A form the concentration held that dropped to 0 HP ended the spell on its bearer.
        let released = crate::shape_end::release(call, &mut c, None, &mut lines)?;
        if crate::concentration::enforce(call, &mut c, &mut lines)?.is_some() || released {
            put_sheet(call, &c)?;
        }
    }
    Ok(lines)
}

/// Stores a combatant's sheet.
pub fn put_sheet(call: &mut Call<'_>, c: &Character) -> Result<()> {
    let campaign = call.campaign();
    // The moment of death is kept for revival's time limits.
    match death_time::stamped(call, c)? {
        Some(s) => call.tx().put_character(campaign, &s)?,
        None => call.tx().put_character(campaign, c)?,
    }
    Ok(())
}

/// The id of the active encounter `character_id` fights in, if any.
pub fn active_encounter_of(call: &Call<'_>, character_id: &str) -> Result<Option<String>> {
    Ok(call
        .tx_ref()
        .list_encounters(call.campaign(), true)?
        .into_iter()
        .find(|e| {
            e.order
                .iter()
                .any(|c| c.character_id == character_id && !c.removed)
        })
        .map(|e| e.id))
}

/// Finds a combatant of `e` by character id or (case-insensitive) name; `id_field` names the
/// id argument in errors ("actorId", "targetId").
pub fn find_combatant<'e>(
    e: &'e Encounter,
    id: Option<&str>,
    name: Option<&str>,
    id_field: &'static str,
) -> Result<&'e Combatant> {
    let field = id_field.trim_end_matches("Id");
    if let Some(id) = id.map(str::trim).filter(|s| !s.is_empty()) {
        return e
            .order
            .iter()
            .find(|c| c.character_id == id)
            .ok_or_else(|| not_in(e, id, field));
    }
    let Some(name) = name.map(str::trim).filter(|s| !s.is_empty()) else {
        return Err(EngineError::invalid(
            field,
            format!("name a combatant by {field}Id or {field}Name"),
        ));
    };
    let key = crate::model::names::name_key(name);
    let hits: Vec<&Combatant> = e
        .order
        .iter()
        .filter(|c| crate::model::names::name_key(&c.name) == key)
        .collect();
    match hits.as_slice() {
        [one] => Ok(one),
        [] => Err(not_in(e, name, field)),
        many => Err(EngineError::Ambiguous {
            kind: "combatant",
            given: name.to_string(),
            candidates: many
                .iter()
                .map(|c| format!("{} ({})", c.name, c.character_id))
                .collect(),
            id_field,
        }),
    }
}

fn not_in(e: &Encounter, given: &str, field: &str) -> EngineError {
    let key = crate::model::names::name_key(given);
    let mut names: Vec<(usize, String)> = e
        .order
        .iter()
        .map(|c| {
            let k = crate::model::names::name_key(&c.name);
            let score = if k.contains(&key) || key.contains(&k) {
                0
            } else {
                1
            };
            (score, format!("{} ({})", c.name, c.character_id))
        })
        .collect();
    names.sort();
    EngineError::invalid(
        field,
        format!(
            "'{given}' is not in encounter {}; combatants: {}",
            e.id,
            names
                .into_iter()
                .map(|(_, n)| n)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )
}
