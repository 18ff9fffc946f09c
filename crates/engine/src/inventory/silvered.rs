//! Silvered weapons (SRD, Silvered Weapons: "Some monsters that have immunity or resistance to
//! nonmagical weapons are susceptible to silver weapons"; silvering costs 100 gp). A weapon is
//! marked with the `silvered` weapon property (a custom item's `weaponStats.properties`, or
//! `silvered: true` when giving an SRD weapon); the damage step lets it past a defense against
//! nonmagical attacks "that aren't silvered" (`combat::traits::nonmagical_defense`).

use crate::error::{EngineError, Result};
use crate::model::inventory::{Item, ItemType, WeaponProperty};

/// Marks `item`, a weapon, silvered. Ammunition is refused: the engine does not track which
/// piece of ammunition a shot uses.
pub fn silver(item: &mut Item) -> Result<()> {
    let Some(w) = item.weapon.as_mut() else {
        let why = if item.item_type == ItemType::Ammunition {
            "silvered ammunition is not automated (the engine does not track which arrow a shot uses): the DM decides whether a shot is silvered"
        } else {
            "only a weapon can be silvered"
        };
        return Err(EngineError::invalid(
            "silvered",
            format!("{} is not a weapon; {why}", item.name),
        ));
    };
    if !w.properties.contains(&WeaponProperty::Silvered) {
        w.properties.push(WeaponProperty::Silvered);
    }
    Ok(())
}

/// Whether `item` is a silvered weapon.
pub fn is_silvered_item(item: &Item) -> bool {
    item.weapon
        .as_ref()
        .is_some_and(|w| w.properties.contains(&WeaponProperty::Silvered))
}

/// Whether the weapon item `item_id` of `c` is silvered.
pub fn is_silvered(c: &crate::model::character::Character, item_id: Option<&str>) -> bool {
    item_id.is_some_and(|id| {
        c.inventory
            .items
            .iter()
            .any(|i| i.id == id && is_silvered_item(i))
    })
}
