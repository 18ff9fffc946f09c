//! The dead stay where they fell: a creature that dies leaves the initiative (its turns are
//! skipped) and the map's live creatures (it blocks no one, takes no area damage, gives no
//! cover), but its body keeps its square in [`Encounter::bodies`], so revival, looting and
//! distances ("each creature within 30 ft", a touch spell) still find it. A creature brought
//! back (Revivify, or anything that clears the dead flag) returns to the square it fell in,
//! prone.

use tabletop_grid::{Metric, Position, footprint_distance_ft};
use tabletop_rules::Size;

use crate::error::Result;
use crate::model::encounter::{Body, Encounter};

/// Takes the dead creature `id` off the live map and leaves its body where it stood. Returns
/// the line to report, or `None` when it was not on the map.
pub fn lay_body(enc: &mut Encounter, id: &str, name: &str) -> Result<Option<String>> {
    lay_remains(enc, id, name, false)
}

/// As [`lay_body`]; `dust` says the creature was disintegrated (its dust keeps the square).
pub fn lay_remains(
    enc: &mut Encounter,
    id: &str,
    name: &str,
    dust: bool,
) -> Result<Option<String>> {
    let Some(c) = enc.map.creature(id).cloned() else {
        return Ok(None);
    };
    enc.map.remove_creature(id)?;
    enc.bodies.retain(|b| b.id != id);
    enc.bodies.push(Body {
        id: id.to_string(),
        name: name.to_string(),
        position: c.position,
        size: c.size,
    });
    Ok(Some(if dust {
        format!(
            "{name} is dust at ({}, {}) (out of the initiative; only true resurrection or wish restores it).",
            c.position.x, c.position.y
        )
    } else {
        format!(
            "{name} is dead; the body lies at ({}, {}) (out of the initiative; revival brings it back there).",
            c.position.x, c.position.y
        )
    }))
}

/// The body of `id`, if it lies in this encounter.
pub fn body<'e>(enc: &'e Encounter, id: &str) -> Option<&'e Body> {
    enc.bodies.iter().find(|b| b.id == id)
}

/// Where `id` is: its live space on the map, or its body.
pub fn space_of(enc: &Encounter, id: &str) -> Option<(Position, Size)> {
    if let Some(c) = enc.map.creature(id) {
        return Some((c.position, c.size));
    }
    body(enc, id).map(|b| (b.position, b.size))
}

/// Feet between two creatures' nearest squares, bodies included; `None` when either is
/// neither on the map nor a body here.
pub fn distance_ft(enc: &Encounter, a: &str, b: &str, metric: Metric) -> Option<u32> {
    let (pa, sa) = space_of(enc, a)?;
    let (pb, sb) = space_of(enc, b)?;
    Some(footprint_distance_ft(pa, sa, pb, sb, metric))
}

/// Puts a creature that lives again back on the map where its body lay (or on the nearest
/// free square when something stands there now). Returns the line to report.
pub fn raise_body(enc: &mut Encounter, id: &str) -> Result<Option<String>> {
    let Some(i) = enc.bodies.iter().position(|b| b.id == id) else {
        return Ok(None);
    };
    let b = enc.bodies.remove(i);
    let mut spot = None;
    'search: for r in 0..=3i32 {
        for dy in -r..=r {
            for dx in -r..=r {
                if dx.abs().max(dy.abs()) != r {
                    continue;
                }
                let p = b.position.offset(dx, dy);
                if enc.map.check_placement(p, b.size, Some(id)).is_ok() {
                    spot = Some(p);
                    break 'search;
                }
            }
        }
    }
    let Some(p) = spot else {
        enc.bodies.insert(i, b.clone());
        return Ok(Some(format!(
            "{} lives again but no square near ({}, {}) is free; place it with manage_encounter",
            b.name, b.position.x, b.position.y
        )));
    };
    enc.map.place_creature(id, p, b.size)?;
    Ok(Some(if p == b.position {
        format!(
            "{} is back on the map where it fell, at ({}, {}), prone.",
            b.name, p.x, p.y
        )
    } else {
        format!(
            "{} is back on the map at ({}, {}), next to where it fell (that square is taken), prone.",
            b.name, p.x, p.y
        )
    }))
}
