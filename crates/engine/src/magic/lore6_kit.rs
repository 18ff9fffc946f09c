//! What the lore spells (`magic::lore6` and its `_ways`, `_bonds`, `_paths` parts) share: a day
//! in rounds, a marker effect, concentration linked to an effect, a recorded roll and the one
//! creature a spell names.

use crate::combat::actions::ActionRequest;
use crate::effects::{ActiveEffect, Duration};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterRef};
use crate::model::spell::SpellDef;

/// Rounds in 24 hours (6 seconds a round).
pub const DAY_ROUNDS: u32 = 14_400;

/// A new effect with no modifiers on `who`, from `def` cast by `caster`.
pub(crate) fn mark(
    call: &mut Call<'_>,
    who: &mut Character,
    caster: &str,
    name: String,
    duration: Duration,
) -> Result<String> {
    let id = call.new_id("ef")?;
    who.effects.push(ActiveEffect {
        id: id.clone(),
        name,
        source: Some(caster.to_string()),
        modifiers: Vec::new(),
        duration,
        ends_on: None,
        ends_when_attacked: false,
        damaged_since_turn: false,
        grant: None,
    });
    Ok(id)
}

/// Begins the caster's concentration on `def` and links the effect `name` on `bearer` to it.
pub(crate) fn concentrate(
    call: &mut Call<'_>,
    caster: &mut Character,
    def: &SpellDef,
    bearer: &str,
    name: &str,
    lines: &mut Vec<String>,
) -> Result<Duration> {
    crate::concentration::begin(call, caster, &def.name, lines)?;
    if let Some(c) = caster.concentration.as_mut() {
        c.add_link(crate::model::concentration::ConcentrationLink::effect(
            bearer, name,
        ));
    }
    Ok(Duration::Concentration {
        caster_id: caster.id.clone(),
        spell: def.name.clone(),
    })
}

/// Rolls `expr` on the campaign's dice, recorded.
pub(crate) fn roll(call: &mut Call<'_>, expr: &str) -> Result<i64> {
    let r = tabletop_rules::dice::parse(expr)?.roll(call.rng()?)?;
    call.record_roll(&r);
    Ok(r.total)
}

/// The one creature a spell names (target or the first of targets).
pub(crate) fn one_target(call: &Call<'_>, req: &ActionRequest, spell: &str) -> Result<Character> {
    let w = std::iter::once(&req.target)
        .chain(&req.targets)
        .find(|w| !w.is_empty())
        .ok_or_else(|| {
            EngineError::invalid(
                "targetId",
                format!("{spell} needs its creature: targetId or targetName"),
            )
        })?;
    crate::characters::resolve_with_fields(
        call,
        CharacterRef::new(w.id.as_deref(), w.name.as_deref()),
        "targetId",
        "targetName",
    )
}
