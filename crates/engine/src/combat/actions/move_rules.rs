//! Rules a move obeys beyond its cost in feet: a frightened creature can't willingly move
//! closer to the source of its fear ([`fear`]), and a grappler drags (or carries) the creatures
//! it grapples: its speed is halved unless they are two or more sizes smaller, and they move
//! with it, ending in the square it left last ([`dragged`], [`drag_along`]).

use tabletop_grid::geometry::size_rank;
use tabletop_grid::{Position, footprint_distance_ft};
use tabletop_rules::{Condition, Size};

use super::tactics::contest::grappler_of;
use crate::combat;
use crate::engine::Call;
use crate::error::Result;
use crate::model::character::Character;
use crate::model::encounter::Encounter;
use crate::model::names::name_key;

/// Why the move along `squares` is refused for a frightened mover: a square of it is closer to
/// a source of its fear (a combatant on the map, named by the condition's source) than where
/// it started.
pub fn fear(enc: &Encounter, mover: &Character, squares: &[Position]) -> Option<String> {
    let me = enc.map.creature(&mover.id)?;
    let (start, size) = (me.position, me.size);
    for e in mover
        .conditions
        .iter()
        .filter(|e| e.condition == Condition::Frightened)
    {
        let src = name_key(&e.source);
        // The longest combatant name the source mentions ("Goblin 10" before "Goblin 1").
        let Some(cb) = enc
            .order
            .iter()
            .filter(|c| {
                !c.removed
                    && c.character_id != mover.id
                    && (src.contains(&name_key(&c.name)) || e.source.contains(&c.character_id))
            })
            .max_by_key(|c| c.name.len())
        else {
            continue;
        };
        let Some(f) = enc.map.creature(&cb.character_id) else {
            continue;
        };
        let metric = super::attack::METRIC;
        let d0 = footprint_distance_ft(start, size, f.position, f.size, metric);
        if let Some(sq) = squares
            .iter()
            .skip(1)
            .find(|sq| footprint_distance_ft(**sq, size, f.position, f.size, metric) < d0)
        {
            let d = footprint_distance_ft(*sq, size, f.position, f.size, metric);
            return Some(format!(
                "{} is frightened of {} ({}) and can't willingly move closer to it: {sq} is {d} ft from it, nearer than the {d0} ft it starts at",
                mover.name, cb.name, e.source
            ));
        }
    }
    None
}

/// The creatures `mover` grapples in this fight that it must drag: (id, name, size).
pub fn dragged(
    call: &Call<'_>,
    enc: &Encounter,
    mover: &Character,
) -> Result<Vec<(String, String, Size)>> {
    let mut out = Vec::new();
    for id in &enc.grappled {
        let Some(cr) = enc.map.creature(id) else {
            continue;
        };
        let c = combat::sheet(call, id)?;
        if c.conditions
            .iter()
            .any(|e| grappler_of(e) == Some(mover.id.as_str()))
        {
            out.push((id.clone(), c.name.clone(), cr.size));
        }
    }
    Ok(out)
}

/// Whether dragging `held` halves `mover_size`'s speed (it does unless they are two or more
/// sizes smaller).
pub fn halves(mover_size: Size, held: &[(String, String, Size)]) -> bool {
    held.iter()
        .any(|(_, _, s)| size_rank(mover_size) - size_rank(*s) < 2)
}

/// Moves the dragged creatures after the grappler, into the square it left last; says where.
pub fn drag_along(
    enc: &mut Encounter,
    held: &[(String, String, Size)],
    squares: &[Position],
) -> Vec<String> {
    let mut lines = Vec::new();
    if squares.len() < 2 {
        return lines;
    }
    let behind = squares[squares.len() - 2];
    for (id, name, _) in held {
        match enc.map.move_creature(id, behind) {
            Ok(()) => lines.push(format!("{name} is dragged along to {behind}.")),
            Err(e) => lines.push(format!("{name} cannot be dragged to {behind}: {e}")),
        }
    }
    lines
}
