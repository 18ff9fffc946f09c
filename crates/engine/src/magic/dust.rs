//! Disintegration: a creature a spell's damage leaves at 0 HP (Disintegrate) dies as a pile of
//! fine gray dust, with no death saves, and only true resurrection or wish restores it. The
//! mark is an effect on the sheet, so that the revival spells that need a body refuse it.

use tabletop_rules::modifiers::{Modifier, ModifierKind};

use crate::engine::Call;
use crate::error::Result;
use crate::model::character::Character;
use crate::model::effects::{ActiveEffect, Duration};

/// The effect that marks a disintegrated creature.
pub const DUST: &str = "Disintegrated";

/// The spells that restore a disintegrated creature (SRD indexes).
const RESTORERS: [&str; 2] = ["true-resurrection", "wish"];

/// Turns `t` to dust by `spell`: dead at 0 HP, marked. The line to report.
pub fn turn_to_dust(call: &mut Call<'_>, t: &mut Character, spell: &str) -> Result<String> {
    t.hp = 0;
    t.dead = true;
    t.death_saves = Default::default();
    t.effects.retain(|e| e.name != DUST);
    t.effects.push(ActiveEffect {
        id: call.new_id("ef")?,
        name: DUST.to_string(),
        source: Some(spell.to_string()),
        modifiers: vec![Modifier::new(
            DUST,
            ModifierKind::Note {
                text: "a pile of fine gray dust: only true resurrection or wish restores it".into(),
            },
        )],
        duration: Duration::UntilDispelled,
        ends_on: None,
        ends_when_attacked: false,
        grant: None,
        damaged_since_turn: false,
    });
    Ok(format!(
        "{} is disintegrated ({spell}): it and everything it wears and carries, except magic items, are reduced to a pile of fine gray dust; only true resurrection or wish restores it",
        t.name
    ))
}

/// Whether `t` was disintegrated.
pub fn is_dust(t: &Character) -> bool {
    t.effects.iter().any(|e| e.name == DUST)
}

/// Why the revival spell `index` (an SRD index) can't restore `t`, when it can't: `t` is dust
/// and the spell is neither true resurrection nor wish.
pub fn refuses(t: &Character, index: &str, spell: &str) -> Option<String> {
    (is_dust(t) && !RESTORERS.contains(&index)).then(|| {
        format!(
            "{} was disintegrated: only true resurrection or wish restores it, not {spell} (nothing was spent)",
            t.name
        )
    })
}
