//! The `lore` spells that read or change where the party is (see [`super::lore6`]):
//! Teleportation Circle and Transport via Plants move the caster's party to a named place (a
//! known permanent circle; living plants at both ends), Find the Path gives the most direct route
//! over the world's connections (fewest minutes of travel) while the caster concentrates.

use std::collections::BTreeMap;

use serde_json::json;

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::names::name_key;
use crate::model::party::Party;
use crate::model::spell::SpellDef;
use crate::model::world::{Location, LocationRef};

type Done = (String, Vec<String>, serde_json::Value);

/// A route: the places in order, the minutes, the places reached by a hidden way.
type Route = (Vec<String>, u32, Vec<String>);

/// The party the caster belongs to.
fn party_of(call: &Call<'_>, caster: &Character, spell: &str) -> Result<Party> {
    call.tx_ref()
        .list_parties(call.campaign())?
        .into_iter()
        .find(|p| p.members.iter().any(|m| m.character_id == caster.id))
        .ok_or_else(|| {
            EngineError::Rule(format!(
                "{} is in no party for {spell} to carry; place creatures yourself",
                caster.name
            ))
        })
}

/// Where the party stands.
fn here(call: &Call<'_>, p: &Party) -> Result<Location> {
    let id = p.location_id.as_deref().ok_or_else(|| {
        EngineError::Rule(format!(
            "{} is nowhere yet; place it with manage_party operation update and locationId",
            p.name
        ))
    })?;
    call.tx_ref()
        .location(call.campaign(), id)?
        .ok_or_else(|| EngineError::Rule(format!("{}'s location {id} is gone", p.name)))
}

/// The named place (`description`).
fn place(call: &Call<'_>, said: Option<&str>, spell: &str, what: &str) -> Result<Location> {
    let to = said.ok_or_else(|| {
        EngineError::invalid("description", format!("{spell} needs description: {what}"))
    })?;
    crate::world::resolve_location(call, LocationRef::either(to), "description")
}

fn tagged(l: &Location, tag: &str) -> bool {
    l.tags.iter().any(|t| name_key(t).replace(' ', "-") == tag)
}

/// Whether a place has living plants of Large size or larger: a tag `plants`, or terrain of
/// forest, jungle, swamp, grassland or woods.
pub fn has_plants(l: &Location) -> bool {
    tagged(l, "plants")
        || l.terrain.as_deref().is_some_and(|t| {
            let t = t.to_lowercase();
            ["forest", "jungle", "swamp", "grassland", "wood"]
                .iter()
                .any(|w| t.contains(w))
        })
}

/// Moves `p` to `dest` (the party tool's own update).
fn move_to(call: &mut Call<'_>, p: &Party, dest: &Location) -> Result<usize> {
    let view = crate::party::update_party(
        call,
        crate::model::party::PartyRef::new(Some(&p.id), None),
        crate::party::PartyPatch {
            location: Some(LocationRef::new(Some(&dest.id), None)),
            ..Default::default()
        },
    )?;
    Ok(view.members.len())
}

/// Teleportation Circle: to a place tagged `teleportation-circle` (its sigils known).
pub fn circle(call: &mut Call<'_>, caster: &Character, said: Option<&str>) -> Result<Done> {
    let dest = place(
        call,
        said,
        "Teleportation Circle",
        "the place whose permanent circle's sigils the caster knows",
    )?;
    if !tagged(&dest, "teleportation-circle") {
        return Err(EngineError::Rule(format!(
            "{} holds no known permanent teleportation circle (tag the place teleportation-circle with manage_location when the caster learns its sigils)",
            dest.name
        )));
    }
    let party = party_of(call, caster, "Teleportation Circle")?;
    let n = move_to(call, &party, &dest)?;
    Ok((
        format!(
            "{} casts Teleportation Circle: the portal opens for a round; {} steps through to {}.",
            caster.name, party.name, dest.name
        ),
        vec![format!(
            "{n} members arrive within 5 feet of the destination circle; anyone left behind is for the DM to place"
        )],
        json!({ "circle": { "party": party.name, "to": dest.name } }),
    ))
}

/// Transport via Plants: from a place with plants to another with plants.
pub fn plants(call: &mut Call<'_>, caster: &Character, said: Option<&str>) -> Result<Done> {
    let dest = place(
        call,
        said,
        "Transport via Plants",
        "the place with a plant the caster has seen or touched",
    )?;
    let party = party_of(call, caster, "Transport via Plants")?;
    let from = here(call, &party)?;
    for l in [&from, &dest] {
        if !has_plants(l) {
            return Err(EngineError::Rule(format!(
                "{} has no Large living plant to step through (tag it plants, or give it forest, jungle, swamp or grassland terrain)",
                l.name
            )));
        }
    }
    if from.id == dest.id {
        return Err(EngineError::invalid(
            "description",
            format!("{} is already at {}", party.name, dest.name),
        ));
    }
    let n = move_to(call, &party, &dest)?;
    Ok((
        format!(
            "{} casts Transport via Plants: {} steps into a plant at {} and out of one at {}.",
            caster.name, party.name, from.name, dest.name
        ),
        vec![format!(
            "{n} members carried; the link lasts until the end of the caster's next turn"
        )],
        json!({ "plants": { "party": party.name, "from": from.name, "to": dest.name } }),
    ))
}

/// The route of fewest travel minutes from `from` to `to` over the connections that can be
/// taken (hidden ways included, said so): the places in order, the minutes, hidden legs.
fn route(call: &Call<'_>, from: &str, to: &str) -> Result<Option<Route>> {
    let campaign = call.campaign();
    let mut best: BTreeMap<String, (u32, Option<(String, bool)>)> = BTreeMap::new();
    let mut done: Vec<String> = Vec::new();
    best.insert(from.to_string(), (0, None));
    loop {
        let next = best
            .iter()
            .filter(|(k, _)| !done.contains(k))
            .min_by_key(|(_, (m, _))| *m)
            .map(|(k, (m, _))| (k.clone(), *m));
        let Some((at, minutes)) = next else {
            return Ok(None);
        };
        if at == to {
            break;
        }
        done.push(at.clone());
        for c in call.tx_ref().connections_of(campaign, &at)? {
            if c.exit_from(&at).is_none() {
                continue;
            }
            let other = c.other_end(&at).to_string();
            let m = minutes.saturating_add(c.travel_minutes);
            if best.get(&other).is_none_or(|(old, _)| m < *old) {
                best.insert(other, (m, Some((at.clone(), c.concealed()))));
            }
        }
    }
    let total = best.get(to).map_or(0, |(m, _)| *m);
    let mut ids = vec![to.to_string()];
    let mut hidden = Vec::new();
    let mut at = to.to_string();
    while let Some((_, Some((prev, concealed)))) = best.get(&at) {
        if *concealed {
            hidden.push(at.clone());
        }
        ids.push(prev.clone());
        at = prev.clone();
    }
    ids.reverse();
    let name = |id: &str| -> Result<String> {
        Ok(call
            .tx_ref()
            .location(campaign, id)?
            .map_or_else(|| id.to_string(), |l| l.name))
    };
    let names = ids.iter().map(|i| name(i)).collect::<Result<Vec<_>>>()?;
    let hidden = hidden.iter().map(|i| name(i)).collect::<Result<Vec<_>>>()?;
    Ok(Some((names, total, hidden)))
}

/// Find the Path: the most direct route from the party's place to the named one, kept while the
/// caster concentrates.
pub fn find_path(
    call: &mut Call<'_>,
    caster: &mut Character,
    def: &SpellDef,
    said: Option<&str>,
) -> Result<Done> {
    let dest = place(
        call,
        said,
        "Find the Path",
        "the specific fixed location the caster is familiar with",
    )?;
    let party = party_of(call, caster, "Find the Path")?;
    let from = here(call, &party)?;
    let Some((names, minutes, hidden)) = route(call, &from.id, &dest.id)? else {
        return Err(EngineError::Rule(format!(
            "no way the world knows leads from {} to {}: Find the Path fails (the DM decides whether another plane or an unmapped way is involved)",
            from.name, dest.name
        )));
    };
    let name = format!("Find the Path: {}", dest.name);
    caster
        .effects
        .retain(|x| !x.name.starts_with("Find the Path: "));
    let mut lines = Vec::new();
    let id = caster.id.clone();
    let d = super::lore6_kit::concentrate(call, caster, def, &id, &name, &mut lines)?;
    let who = caster.name.clone();
    super::lore6_kit::mark(call, caster, &who, name, d)?;
    if !hidden.is_empty() {
        lines.push(format!(
            "the way into {} is hidden; the spell shows which path to take, finding it is still a search",
            hidden.join(", ")
        ));
    }
    Ok((
        format!(
            "{who} casts Find the Path to {}: {} ({minutes} minutes of travel).",
            dest.name,
            names.join(" → ")
        ),
        lines,
        json!({ "path": { "route": names, "minutes": minutes, "hidden": hidden } }),
    ))
}
