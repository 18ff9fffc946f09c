//! An area spell's point of origin needs a clear path from the caster. As the SRD puts it, when
//! an obstruction such as a wall stands between the caster and the chosen point, the point of
//! origin comes into being on the near side of that obstruction: [`near_side`] moves it to the
//! last open square on the line from the caster. The area then takes only the creatures with a
//! clear line of effect from that origin (the grid's area rules), and Dexterity saves get the
//! cover each creature has from it.

use tabletop_grid::{BattleMap, Position, SightOptions};

use crate::error::Result;

/// Where an area aimed at `to` by a caster standing at `from` starts, and the line that says so
/// when an obstruction moved it.
pub fn near_side(
    map: &BattleMap,
    from: Position,
    to: Position,
    caster: &str,
    spell: &str,
) -> Result<(Position, Option<String>)> {
    let los = map.line_of_sight(from, to, &SightOptions::default())?;
    let Some(block) = los.blocked_at else {
        return Ok((to, None));
    };
    // Fog and magical darkness hide the point but do not stop the spell.
    if !map.blocks_sight(block) {
        return Ok((to, None));
    }
    let mut near = from;
    for sq in los.squares {
        if sq == block || map.blocks_sight(sq) {
            break;
        }
        near = sq;
    }
    Ok((
        near,
        Some(format!(
            "{caster} has no clear path to ({}, {}): an obstruction at ({}, {}) is in the way, so the {spell} starts on the near side at ({}, {}).",
            to.x, to.y, block.x, block.y, near.x, near.y
        )),
    ))
}
