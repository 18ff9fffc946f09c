//! Naming a carried item: [`ItemRef`] and finding it on a character by id, exact name or unique
//! name part, with close names when it is not carried. Every inventory operation uses it.

use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::names::name_key;

/// Finds a carried item by id, exact name, or unique name part; of identical copies, the one in
/// the pack.
pub fn find_item(c: &Character, r: ItemRef<'_>) -> Result<usize> {
    find(c, r, false)
}

pub(crate) fn find(c: &Character, r: ItemRef<'_>, prefer_equipped: bool) -> Result<usize> {
    let items = &c.inventory.items;
    if let Some(id) = r.id.map(str::trim).filter(|s| !s.is_empty()) {
        if let Some(i) = items.iter().position(|it| it.id == id) {
            return Ok(i);
        }
        return Err(not_carried(c, id, "itemId"));
    }
    let Some(name) = r.name.map(str::trim).filter(|s| !s.is_empty()) else {
        return Err(EngineError::invalid(
            "itemName",
            "name the item with itemName or itemId",
        ));
    };
    let key = name_key(name);
    let exact: Vec<usize> = (0..items.len())
        .filter(|&i| name_key(&items[i].name) == key)
        .collect();
    let pick = |found: Vec<usize>| -> Result<Option<usize>> {
        match found.as_slice() {
            [] => Ok(None),
            [one] => Ok(Some(*one)),
            many => {
                // Identical copies: the equipped one or the one in the pack, as asked.
                if many.iter().all(|&i| items[i].same_kind(&items[many[0]])) {
                    return Ok(Some(
                        many.iter()
                            .copied()
                            .find(|&i| items[i].slot.is_some() == prefer_equipped)
                            .unwrap_or(many[0]),
                    ));
                }
                Err(EngineError::Ambiguous {
                    kind: "item",
                    given: name.to_string(),
                    candidates: many.iter().map(|&i| items[i].label()).collect(),
                    id_field: "itemId",
                })
            }
        }
    };
    if let Some(i) = pick(exact)? {
        return Ok(i);
    }
    // An SRD index ("leather-armor", "potion-of-healing") names the item by its words.
    if key.contains('-') {
        let words = key.replace('-', " ");
        let by_index: Vec<usize> = (0..items.len())
            .filter(|&i| {
                items[i].srd.as_deref() == Some(key.as_str()) || name_key(&items[i].name) == words
            })
            .collect();
        if let Some(i) = pick(by_index)? {
            return Ok(i);
        }
    }
    let partial: Vec<usize> = (0..items.len())
        .filter(|&i| name_key(&items[i].name).contains(&key))
        .collect();
    if let Some(i) = pick(partial)? {
        return Ok(i);
    }
    // The same words in another order: "Light Crossbow" is the SRD's "Crossbow, light".
    let words = |s: &str| {
        let mut w: Vec<String> = name_key(s)
            .split(|ch: char| !ch.is_alphanumeric())
            .filter(|x| !x.is_empty())
            .map(str::to_string)
            .collect();
        w.sort();
        w
    };
    let wanted = words(name);
    let reordered: Vec<usize> = (0..items.len())
        .filter(|&i| words(&items[i].name) == wanted)
        .collect();
    if let Some(i) = pick(reordered)? {
        return Ok(i);
    }
    Err(not_carried(c, name, "itemName"))
}

fn not_carried(c: &Character, given: &str, field: &str) -> EngineError {
    let key = name_key(given);
    let mut scored: Vec<(usize, String)> = c
        .inventory
        .items
        .iter()
        .map(|it| {
            (
                tabletop_rules::vocab::edit_distance(&key, &name_key(&it.name)),
                it.label(),
            )
        })
        .collect();
    scored.sort();
    let carried: Vec<String> = scored.into_iter().take(5).map(|(_, s)| s).collect();
    EngineError::invalid(
        field,
        if carried.is_empty() {
            format!(
                "{} carries nothing called '{given}' (the inventory is empty; give items first)",
                c.name
            )
        } else {
            format!(
                "{} carries nothing called '{given}'; closest carried: {}",
                c.name,
                carried.join(", ")
            )
        },
    )
}
/// How a call names a carried item.
#[derive(Debug, Clone, Copy, Default)]
pub struct ItemRef<'a> {
    /// Its id.
    pub id: Option<&'a str>,
    /// Its name (case-insensitive; a unique prefix works).
    pub name: Option<&'a str>,
}
