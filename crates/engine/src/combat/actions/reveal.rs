//! A hidden creature that moves into plain view is hidden no more. Along a move, the first
//! square where a hostile sees the mover clearly (line of sight, light and the hostile's senses,
//! less than three-quarters cover, not invisible to it) ends the hiding: the mover is revealed
//! there, and opportunity attacks count from that square on. Attacking from hiding (advantage
//! once, then revealed) is the attack's own rule.

use tabletop_grid::{Cover, CoverOptions, Position, Sense, SightOptions, Visibility};
use tabletop_rules::Condition;

use crate::combat;
use crate::engine::Call;
use crate::error::Result;
use crate::model::character::Character;
use crate::model::encounter::Encounter;

/// Where along `squares` (index, from 1) the hidden `mover` comes into a hostile's clear view,
/// and the line that says so; `None` when it is not hidden or stays unseen.
pub fn along(
    call: &Call<'_>,
    enc: &Encounter,
    mover: &Character,
    squares: &[Position],
) -> Result<Option<(usize, String)>> {
    let Some(me) = enc.combatant(&mover.id) else {
        return Ok(None);
    };
    if me.flags.hidden.is_none() {
        return Ok(None);
    }
    let Some(my) = enc.map.creature(&mover.id) else {
        return Ok(None);
    };
    let size = my.size;
    let invisible = mover.has_condition(Condition::Invisible);
    let mut watchers = Vec::new();
    for cb in enc
        .order
        .iter()
        .filter(|c| !c.removed && c.side.hostile_to(me.side))
    {
        let Some(cr) = enc.map.creature(&cb.character_id) else {
            continue;
        };
        let h = combat::sheet(call, &cb.character_id)?;
        if h.dead || h.effective().is_incapacitated() {
            continue;
        }
        watchers.push((h, cr.position, cr.size));
    }
    let opts = SightOptions {
        creatures_block: false,
        metric: super::attack::METRIC,
    };
    for (k, sq) in squares.iter().enumerate().skip(1) {
        for (h, pos, hsize) in &watchers {
            let senses = crate::model::senses::senses_of(h);
            let v = enc.map.visibility(*pos, *sq, &senses, &opts)?;
            if matches!(
                v.visibility,
                Visibility::Blocked | Visibility::HeavilyObscured
            ) {
                continue;
            }
            let special = matches!(v.sense, Some(Sense::Blindsight | Sense::Truesight));
            if (invisible || senses.blinded) && !special {
                continue;
            }
            let cover = enc
                .map
                .cover(*pos, *hsize, *sq, size, &CoverOptions::default())?;
            if cover.cover >= Cover::ThreeQuarters {
                continue;
            }
            return Ok(Some((
                k,
                format!(
                    "{} steps into {}'s view at {sq} and is no longer hidden.",
                    mover.name, h.name
                ),
            )));
        }
    }
    Ok(None)
}
