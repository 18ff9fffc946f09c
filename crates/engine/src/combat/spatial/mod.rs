//! The spatial questions of a fight, asked of the encounter's map: distances, areas of effect,
//! line of sight and cover, props, movement and the rendered battlefield.
//!
//! The grid crate owns every computation; this module names places (a square, or a combatant by
//! id or name, whose space its size decides), reads what the characters bring (senses from stat
//! blocks and race traits, reach, speeds, reactions) and words the answers.

pub mod area;
pub mod measure;
pub mod movement;
pub mod props;
pub mod scratch;
pub mod sight;
pub mod sizes;
pub mod view;

use serde::{Deserialize, Serialize};
use tabletop_grid::{Position, Size};

use super::actions::Who;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::encounter::*;

/// A place on the map: a square, or a combatant (its whole space).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Point {
    /// A square `{x, y, z}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub square: Option<Position>,
    /// Or a combatant by id or name.
    #[serde(default)]
    pub who: Who,
}

impl Point {
    /// A square.
    pub fn square(p: Position) -> Self {
        Point {
            square: Some(p),
            who: Who::default(),
        }
    }

    /// A combatant by id or name.
    pub fn combatant(id: Option<String>, name: Option<String>) -> Self {
        Point {
            square: None,
            who: Who { id, name },
        }
    }

    /// Whether nothing is given.
    pub fn is_empty(&self) -> bool {
        self.square.is_none() && self.who.is_empty()
    }
}

/// A resolved place: where it is, how big, and who stands there.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Spot {
    /// The combatant's character id, when the place is a combatant.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// "Goblin 1" or "(3, 4)".
    pub label: String,
    /// Its square (a combatant's top-left square).
    pub position: Position,
    /// Its size (a square counts as medium: one square).
    pub size: Size,
    /// The combatant's side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
}

/// Describes a square as "(x, y)" or "(x, y, z)".
pub fn square_label(p: Position) -> String {
    if p.z == 0 {
        format!("({}, {})", p.x, p.y)
    } else {
        format!("({}, {}, z{})", p.x, p.y, p.z)
    }
}

/// Resolves `p` on the encounter's map. `field` names the argument ("from"), `id_field` its id
/// form ("fromId").
pub fn spot(e: &Encounter, p: &Point, field: &str, id_field: &'static str) -> Result<Spot> {
    if !p.who.is_empty() {
        let cb = super::find_combatant(e, p.who.id.as_deref(), p.who.name.as_deref(), id_field)?;
        return combatant_spot(e, cb);
    }
    let Some(sq) = p.square else {
        return Err(EngineError::invalid(
            field,
            format!(
                "give {field} as a square {{x, y}} or a combatant ({}/{field}Name)",
                id_field
            ),
        ));
    };
    e.map.check(sq)?;
    Ok(Spot {
        id: None,
        label: square_label(sq),
        position: sq,
        size: Size::Medium,
        side: None,
    })
}

/// The spot a combatant occupies.
pub fn combatant_spot(e: &Encounter, cb: &Combatant) -> Result<Spot> {
    let Some(c) = e.map.creature(&cb.character_id) else {
        return Err(EngineError::Rule(format!(
            "{} ({}) is not on the map{}; place it with manage_encounter",
            cb.name,
            cb.character_id,
            if cb.removed {
                " (removed from the fight)"
            } else {
                ""
            }
        )));
    };
    Ok(Spot {
        id: Some(cb.character_id.clone()),
        label: cb.name.clone(),
        position: c.position,
        size: c.size,
        side: Some(cb.side),
    })
}

pub use crate::model::senses::senses_of;

/// How far a creature threatens for opportunity attacks, in feet: the longest melee reach of its
/// stat-block attacks ("reach 10 ft."), 10 with an equipped reach weapon, else 5.
pub fn reach_ft(c: &Character) -> u32 {
    let mut reach = 5;
    if let Some(b) = &c.stat_block {
        for a in b.actions.iter().filter(|a| a.attack_bonus.is_some()) {
            if let (Some(r), _) = crate::combat::actions::profile::parse_reach_range(&a.desc) {
                reach = reach.max(r);
            }
        }
    }
    let reach_weapon = c.inventory.items.iter().any(|i| {
        i.slot.is_some()
            && i.weapon.as_ref().is_some_and(|w| {
                w.range_normal.is_none()
                    && w.properties
                        .contains(&crate::model::inventory::WeaponProperty::Reach)
            })
    });
    if reach_weapon {
        reach = reach.max(10);
    }
    reach
}

/// A speed of the creature by kind ("walk", "fly", "swim", "climb", "burrow"), in feet: walking
/// from the effective stats (conditions and effects applied), the others from the stat block
/// and the effects that grant them (Fly, Spider Climb); 0 while something makes speed 0.
pub fn speed_ft(c: &Character, kind: &str) -> Option<u32> {
    let e = c.effective();
    if kind == "walk" {
        return Some(e.speed.value.max(0) as u32);
    }
    let ft = crate::magic::wards::movement_modes(c).get(kind).copied()?;
    Some(if e.speed_zero.is_empty() { ft } else { 0 })
}

/// The API name of a metric: grid_5e, grid_alt, euclidean.
pub fn metric_key(m: tabletop_grid::Metric) -> &'static str {
    match m {
        tabletop_grid::Metric::Grid5e => "grid_5e",
        tabletop_grid::Metric::GridAlt => "grid_alt",
        tabletop_grid::Metric::Euclidean => "euclidean",
    }
}

/// Every combatant's sheet, keyed by character id.
pub(crate) fn sheets(
    call: &crate::engine::Call<'_>,
    e: &Encounter,
) -> Result<std::collections::BTreeMap<String, Character>> {
    let mut out = std::collections::BTreeMap::new();
    for cb in &e.order {
        if let Some(c) = call.tx_ref().character(call.campaign(), &cb.character_id)? {
            out.insert(cb.character_id.clone(), c);
        }
    }
    Ok(out)
}
