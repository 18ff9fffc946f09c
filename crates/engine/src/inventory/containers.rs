//! Extradimensional containers (Bag of Holding, Handy Haversack, Portable Hole, Efficient
//! Quiver): `manage_inventory` `transfer` with a container as the target stows a carried item in
//! it, and `transfer` with neither a recipient nor a container takes a stowed item out. What is
//! inside weighs nothing on the carrier (the container weighs its own fixed weight); the
//! container's weight limit, or its compartments' object counts, are enforced; placing one
//! extradimensional container inside another is refused with the SRD's rule (both destroyed, a
//! gate to the Astral Plane). Volumes are not tracked (items carry no volume): the answer says so.

use super::locate::{ItemRef, find_item};
use super::ops::{InventoryOutcome, load, outcome, save};
use crate::catalog::items::{ItemContainer, ItemKind};
use crate::character::CharacterRef;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::inventory::{Item, ItemType, WeaponProperty};

/// The container entry of a carried item, when it is one.
fn container_of(it: &Item) -> Option<&'static ItemContainer> {
    it.catalog_entry()
        .filter(|e| e.kind == ItemKind::Container)
        .and_then(|e| e.container.as_ref())
}

/// Which compartment shape an item takes ("ammunition", "thrown", "long"), if any.
fn shape(it: &Item) -> Option<&'static str> {
    if it.item_type == ItemType::Ammunition {
        return Some("ammunition");
    }
    let w = it.weapon.as_ref()?;
    if w.properties.contains(&WeaponProperty::Thrown) && !w.category.is_ranged() {
        // Javelins, spears, handaxes and daggers: the midsize compartment, except the long
        // ones (a spear is named with the long objects).
        if crate::model::names::name_key(&it.name).contains("spear") {
            return Some("long");
        }
        return Some("thrown");
    }
    Some("long")
}

/// The item named: by id, or among copies of that name the one outside a container (stowing)
/// or inside one (taking out).
fn pick(c: &Character, r: ItemRef<'_>, stowing: bool) -> Result<usize> {
    if r.id.is_none()
        && let Some(name) = r.name
    {
        let key = crate::model::names::name_key(name);
        if let Some(i) = c.inventory.items.iter().position(|x| {
            crate::model::names::name_key(&x.name) == key && x.inside.is_none() == stowing
        }) {
            return Ok(i);
        }
    }
    find_item(c, r)
}

/// Stows `quantity` of a carried item in a carried container (`into`), or, with `into` absent,
/// takes a stowed item out.
pub fn stow(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    item: ItemRef<'_>,
    into: Option<ItemRef<'_>>,
    quantity: Option<u32>,
) -> Result<InventoryOutcome> {
    let mut c = load(call, who)?;
    let i = pick(&c, item, into.is_some())?;
    let Some(into) = into else {
        return take_out(call, c, i, quantity);
    };
    let b = find_item(&c, into).map_err(|e| retag(e, "targetName"))?;
    let bag = c.inventory.items[b].clone();
    let Some(spec) = container_of(&bag) else {
        return Err(EngineError::invalid(
            "targetName",
            format!(
                "{} is not a container the engine knows (Bag of Holding, Handy Haversack, Portable Hole, Efficient Quiver); name a recipient in toCharacterName to hand the item over",
                bag.name
            ),
        ));
    };
    if i == b {
        return Err(EngineError::invalid(
            "targetName",
            format!("{} cannot go inside itself", bag.name),
        ));
    }
    let moving = c.inventory.items[i].clone();
    if moving.inside.as_deref() == Some(bag.id.as_str()) {
        return Err(EngineError::invalid(
            "itemName",
            format!("{} is already in {}", moving.name, bag.name),
        ));
    }
    if container_of(&moving).is_some() {
        return Err(EngineError::Rule(format!(
            "placing {} inside {} puts one extradimensional space inside another: the SRD says both are destroyed at once and a one-way gate to the Astral Plane opens there, pulling in every creature within 10 ft. The engine refuses the move; if it happens in the story, remove both items (and their contents) with manage_inventory remove and the DM runs the gate",
            moving.name, bag.name
        )));
    }
    if bag.inside.is_some() {
        return Err(EngineError::invalid(
            "targetName",
            format!("{} is itself stowed; take it out first", bag.name),
        ));
    }
    let have = moving.quantity;
    let q = quantity.unwrap_or(have);
    if q == 0 || q > have {
        return Err(EngineError::invalid(
            "quantity",
            format!(
                "{} has {have} of {}; give a quantity of 1–{have}",
                c.name, moving.name
            ),
        ));
    }
    let mut changes = Vec::new();
    // What is already inside.
    let inside: Vec<&Item> = c
        .inventory
        .items
        .iter()
        .filter(|x| x.inside.as_deref() == Some(bag.id.as_str()))
        .collect();
    let added = moving.weight * f64::from(q);
    if let Some(cap) = spec.capacity_lb {
        let held: f64 = inside.iter().map(|x| x.total_weight()).sum();
        if held + added > cap {
            return Err(EngineError::Rule(format!(
                "{} holds {held:.1} lb of its {cap:.0}; {q} × {} ({added:.1} lb) would overload it, and an overloaded {} ruptures and is destroyed, its contents lost. Stow less (quantity) or carry it",
                bag.name, moving.name, bag.name
            )));
        }
    }
    if !spec.compartments.is_empty() {
        let Some(kind) = shape(&moving) else {
            return Err(EngineError::Rule(format!(
                "{} holds arrows and bolts, javelins, and long objects (bows, quarterstaffs, spears); {} is none of them",
                bag.name, moving.name
            )));
        };
        let Some(comp) = spec.compartments.iter().find(|k| k.holds == kind) else {
            return Err(EngineError::Rule(format!(
                "{} has no compartment for {}",
                bag.name, moving.name
            )));
        };
        let held: u32 = inside
            .iter()
            .filter(|x| shape(x) == Some(kind))
            .map(|x| x.quantity)
            .sum();
        if held.saturating_add(q) > comp.max {
            return Err(EngineError::Rule(format!(
                "{}'s {kind} compartment holds {held} of its {}; {q} more does not fit",
                bag.name, comp.max
            )));
        }
    }
    // Off the body first.
    let it = &mut c.inventory.items[i];
    if let Some(s) = it.slot.take() {
        changes.push(format!("{} unequipped from {s}", it.name));
    }
    let label = if q == have {
        it.inside = Some(bag.id.clone());
        it.name.clone()
    } else {
        it.quantity -= q;
        let mut part = it.clone();
        part.id = call.new_id("it")?;
        part.quantity = q;
        part.inside = Some(bag.id.clone());
        let name = part.name.clone();
        c.inventory.items.push(part);
        name
    };
    changes.push(format!(
        "{q} × {label} stowed in {} (weighs nothing there)",
        bag.name
    ));
    finish(call, c, &bag, spec, changes)
}

fn take_out(
    call: &mut Call<'_>,
    mut c: Character,
    i: usize,
    quantity: Option<u32>,
) -> Result<InventoryOutcome> {
    let it = c.inventory.items[i].clone();
    let Some(bag_id) = it.inside.clone() else {
        return Err(EngineError::invalid(
            "toCharacterName",
            format!(
                "{} is not in a container: transfer needs a recipient (toCharacterName or toCharacterId), or a container to stow it in (targetName or targetId)",
                it.name
            ),
        ));
    };
    let bag = c
        .inventory
        .items
        .iter()
        .find(|x| x.id == bag_id)
        .cloned()
        .ok_or_else(|| {
            EngineError::Rule(format!("{} is in a container no longer carried", it.name))
        })?;
    let q = quantity.unwrap_or(it.quantity);
    if q == 0 || q > it.quantity {
        return Err(EngineError::invalid(
            "quantity",
            format!(
                "{} holds {} of {}; give a quantity of 1–{}",
                bag.name, it.quantity, it.name, it.quantity
            ),
        ));
    }
    if q == it.quantity {
        c.inventory.items[i].inside = None;
    } else {
        c.inventory.items[i].quantity -= q;
        let mut part = it.clone();
        part.id = call.new_id("it")?;
        part.quantity = q;
        part.inside = None;
        c.inventory.items.push(part);
    }
    let changes = vec![format!(
        "{q} × {} taken out of {} (retrieving an item takes an action in combat)",
        it.name, bag.name
    )];
    let spec = container_of(&bag);
    match spec {
        Some(spec) => finish(call, c, &bag, spec, changes),
        None => {
            save(call, &c, &changes)?;
            let summary = format!("{}.", changes.join("; "));
            Ok(outcome("transfer", &c, summary, changes))
        }
    }
}

fn finish(
    call: &mut Call<'_>,
    c: Character,
    bag: &Item,
    spec: &ItemContainer,
    changes: Vec<String>,
) -> Result<InventoryOutcome> {
    save(call, &c, &changes)?;
    let held: f64 = c
        .inventory
        .items
        .iter()
        .filter(|x| x.inside.as_deref() == Some(bag.id.as_str()))
        .map(Item::total_weight)
        .sum();
    let mut summary = format!("{}.", changes.join("; "));
    match spec.capacity_lb {
        Some(cap) => summary.push_str(&format!(" {} holds {held:.1}/{cap:.0} lb", bag.name)),
        None => summary.push_str(&format!(" {} holds {held:.1} lb", bag.name)),
    }
    if let Some(v) = spec.capacity_ft3 {
        summary.push_str(&format!(
            "; no automation for its {v:.0} cubic feet: the DM judges whether it fits"
        ));
    }
    summary.push('.');
    Ok(outcome("transfer", &c, summary, changes))
}

fn retag(e: EngineError, field: &'static str) -> EngineError {
    match e {
        EngineError::Invalid { problem, .. } => EngineError::invalid(field, problem),
        other => other,
    }
}
