//! Attunement as its own step of `manage_inventory`: `attune` (at most three items, the item's
//! class or race restriction checked) and `unattune`. Attunement survives unequipping; an item
//! that requires attunement gives its magic only while attuned (and equipped).

use super::MAX_ATTUNED;
use super::equip::{attunement_allowed, effective_line};
use super::locate::find_item;
use super::ops::{InventoryOutcome, ItemRef, load, outcome, save};
use crate::character::CharacterRef;
use crate::engine::Call;
use crate::error::{EngineError, Result};

/// Attunes to an item the character carries (a short rest spent with it).
pub fn attune(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    r: ItemRef<'_>,
) -> Result<InventoryOutcome> {
    let mut c = load(call, who)?;
    let before = c.effective();
    let i = find_item(&c, r)?;
    let item = c.inventory.items[i].clone();
    if !item.requires_attunement {
        return Err(EngineError::invalid(
            "itemName",
            format!(
                "{} does not require attunement; its magic works while it is equipped",
                item.name
            ),
        ));
    }
    if item.attuned {
        return Err(EngineError::invalid(
            "itemName",
            format!("{} is already attuned to {}", c.name, item.name),
        ));
    }
    super::in_fight::check(call, &c, &item, super::in_fight::Change::Attune)?;
    let mut warnings = Vec::new();
    if let Some(w) = attunement_allowed(&c, &item)? {
        warnings.push(w);
    }
    c.inventory.items[i].attuned = true;
    let used = c.inventory.items.iter().filter(|x| x.attuned).count();
    let mut changes = vec![format!(
        "{} attunes to {} (a short rest spent with it; {used} of {MAX_ATTUNED} attunement slots used)",
        c.name, item.name
    )];
    if item.slot.is_none() {
        changes.push(format!(
            "{} is carried, not equipped: equip it for its magic",
            item.name
        ));
    } else if let Some(left) = &item.effect {
        // What of its magic the engine leaves to the DM, said when the magic starts to work.
        changes.push(left.clone());
    }
    let effect = effective_line(&before, &c.effective());
    save(call, &c, &changes)?;
    let summary = if effect.is_empty() {
        format!("{}.", changes.join("; "))
    } else {
        format!("{}. {}.", changes.join("; "), effect.join(", "))
    };
    let mut out = outcome("attune", &c, summary, changes);
    out.changes.extend(effect);
    out.warnings.extend(warnings);
    out.item = Some(c.inventory.items[i].clone());
    Ok(out)
}

/// Ends attunement to an item.
pub fn unattune(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    r: ItemRef<'_>,
) -> Result<InventoryOutcome> {
    let mut c = load(call, who)?;
    let before = c.effective();
    let i = find_item(&c, r)?;
    if !c.inventory.items[i].attuned {
        return Err(EngineError::invalid(
            "itemName",
            format!("{} is not attuned to {}", c.name, c.inventory.items[i].name),
        ));
    }
    c.inventory.items[i].attuned = false;
    let changes = vec![format!(
        "{}'s attunement to {} ends",
        c.name, c.inventory.items[i].name
    )];
    let effect = effective_line(&before, &c.effective());
    save(call, &c, &changes)?;
    let summary = if effect.is_empty() {
        format!("{}.", changes.join("; "))
    } else {
        format!("{}. {}.", changes.join("; "), effect.join(", "))
    };
    let mut out = outcome("unattune", &c, summary, changes);
    out.changes.extend(effect);
    if c.inventory.items[i]
        .catalog_entry()
        .is_some_and(|e| e.cursed)
    {
        out.warnings.push(format!(
            "{} is cursed: by the SRD only Remove Curse (or similar magic) ends this attunement; unattuned here on the DM's word",
            c.inventory.items[i].name
        ));
    }
    out.item = Some(c.inventory.items[i].clone());
    Ok(out)
}
