//! Shield against spells: "when you are hit by an attack or targeted by the magic missile
//! spell". A spell attack roll that hits a creature able to cast Shield, where +5 AC would make
//! it miss, and Magic Missile's darts aimed at one, are offered to its reaction policy: `auto`
//! casts Shield (slot, reaction, +5 AC until the start of its next turn) and the attack misses
//! or the darts do nothing; `never` lets them land. A spell does not pause for `ask`: the line
//! says so and the DM decides (no automation for pausing a spell mid-resolution).

use tabletop_rules::d20::D20Outcome;

use super::eligible;
use super::shield::{SHIELD_AC, can_cast, cast, replay};
use crate::engine::Call;
use crate::error::Result;
use crate::model::character::Character;
use crate::model::encounter::{Encounter, ReactionPolicy};

/// What the target's Shield did to a spell.
pub enum SpellShield {
    /// Nothing: the spell lands (lines to add, maybe).
    Lands(Vec<String>),
    /// Shield was cast (its reaction is to be spent in the fight): the lines say so.
    Cast(Vec<String>),
}

fn offer(
    call: &mut Call<'_>,
    enc: &Encounter,
    target: &Character,
    what: &str,
) -> Result<SpellShield> {
    let policy = eligible::policy(enc, &target.id);
    if policy == ReactionPolicy::Never {
        return Ok(SpellShield::Lands(Vec::new()));
    }
    let Some(t) = eligible::reactor(call, enc, &target.id)? else {
        return Ok(SpellShield::Lands(Vec::new()));
    };
    if !can_cast(call, &t) {
        return Ok(SpellShield::Lands(Vec::new()));
    }
    if policy == ReactionPolicy::Ask {
        return Ok(SpellShield::Lands(vec![format!(
            "{} could cast Shield against {what}, but a spell does not pause for an ask policy (no automation: the DM decides; set the policy to auto to have it cast)",
            t.name
        )]));
    }
    // The reaction is spent on the real encounter by the caller.
    let mut scratch = enc.clone();
    Ok(SpellShield::Cast(cast(call, &mut scratch, &t.id, None)?))
}

/// A spell attack `roll` that hit `target` at `ac`: Shield may turn it into a miss (`roll`
/// becomes the miss).
pub fn on_spell_hit(
    call: &mut Call<'_>,
    enc: &Encounter,
    target: &Character,
    roll: &mut D20Outcome,
    ac: i32,
    spell: &str,
) -> Result<SpellShield> {
    let Some(total) = roll.total else {
        return Ok(SpellShield::Lands(Vec::new()));
    };
    if roll.natural_20 || total >= ac + SHIELD_AC {
        return Ok(SpellShield::Lands(Vec::new()));
    }
    match offer(call, enc, target, &format!("the {spell} hit"))? {
        SpellShield::Cast(mut lines) => {
            let raised = ac + SHIELD_AC;
            *roll = replay(roll, raised);
            lines.push(format!(
                "{total} vs AC {raised}: the {spell} misses {} (Shield).",
                target.name
            ));
            Ok(SpellShield::Cast(lines))
        }
        lands => Ok(lands),
    }
}

/// Magic Missile's darts at `target`: Shield stops them all.
pub fn on_darts(
    call: &mut Call<'_>,
    enc: &Encounter,
    target: &Character,
    spell: &str,
) -> Result<SpellShield> {
    match offer(call, enc, target, &format!("the {spell} darts"))? {
        SpellShield::Cast(mut lines) => {
            lines.push(format!(
                "{} takes no damage from the {spell} darts (Shield).",
                target.name
            ));
            Ok(SpellShield::Cast(lines))
        }
        lands => Ok(lands),
    }
}
