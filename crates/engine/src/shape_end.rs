//! A form held by a concentration spell ends on its bearer by itself when the form drops to 0
//! HP (Polymorph: "The transformation lasts for the duration, or until the target drops to 0
//! hit points or dies"). The damage pipeline reverts the bearer; this lets the caster's
//! concentration go of that form, and ends it once the spell holds no form on anyone
//! (Polymorph, True Polymorph, Animal Shapes). Shapechange, on its caster alone, goes on: the
//! caster may take a new form with its action.

use crate::engine::Call;
use crate::error::Result;
use crate::model::character::Character;
use crate::model::names::name_key;

/// The caster whose concentration holds `c`'s form, if one does.
pub fn holder(c: &Character) -> Option<String> {
    let s = c.active_shape()?;
    c.effects
        .iter()
        .find(|e| name_key(&e.name) == name_key(&s.source))
        .and_then(|e| e.duration.caster())
        .map(str::to_string)
}

/// `c`'s form, held by `caster_id`'s concentration, is gone (dropped to 0 HP): the caster lets
/// go of it. `c` is the caller's in-memory copy (the caster itself when it changed its own
/// shape); another caster is loaded and stored here.
pub fn after_revert(
    call: &mut Call<'_>,
    c: &mut Character,
    caster_id: &str,
    changes: &mut Vec<String>,
) -> Result<()> {
    if c.shape.is_some() {
        return Ok(());
    }
    if c.id == caster_id {
        release(call, c, None, changes)?;
        return Ok(());
    }
    let Some(mut caster) = call.tx_ref().character(call.campaign(), caster_id)? else {
        return Ok(());
    };
    let mut lines = Vec::new();
    if release(call, &mut caster, Some(c), &mut lines)? {
        let campaign = call.campaign();
        call.tx().put_character(campaign, &caster)?;
        if !lines.is_empty() {
            call.record_change("character", &caster.id, lines.join("; "));
        }
    }
    changes.extend(lines);
    Ok(())
}

/// Drops the links of `caster`'s shape-changing concentration to forms no creature wears any
/// more, and ends the concentration when it holds none (unless the spell changes its caster
/// alone). `bearer` is an in-memory copy of a creature not stored yet. Whether `caster` changed.
pub fn release(
    call: &mut Call<'_>,
    caster: &mut Character,
    bearer: Option<&Character>,
    changes: &mut Vec<String>,
) -> Result<bool> {
    let Some(conc) = caster.concentration.as_ref() else {
        return Ok(false);
    };
    let Some(spec) = crate::catalog::spells::by_name(&conc.spell).and_then(|e| e.shape.as_ref())
    else {
        return Ok(false);
    };
    let mut kept = Vec::new();
    let mut dropped = 0;
    for link in &conc.links {
        let Some(effect) = link.effect.as_deref() else {
            kept.push(link.clone());
            continue;
        };
        let worn = |b: &Character| {
            b.shape.is_some()
                && b.effects.iter().any(|e| {
                    name_key(&e.name) == name_key(effect)
                        && e.duration.caster() == Some(caster.id.as_str())
                })
        };
        let held = if link.character_id == caster.id {
            worn(caster)
        } else if let Some(b) = bearer.filter(|b| b.id == link.character_id) {
            worn(b)
        } else {
            match call
                .tx_ref()
                .character(call.campaign(), &link.character_id)?
            {
                Some(b) => worn(&b),
                None => false,
            }
        };
        if held {
            kept.push(link.clone());
        } else {
            dropped += 1;
        }
    }
    if dropped == 0 {
        return Ok(false);
    }
    if let Some(c) = caster.concentration.as_mut() {
        c.links = kept;
    }
    let empty = caster
        .concentration
        .as_ref()
        .is_some_and(|c| c.links.is_empty());
    if empty && !spec.self_only {
        crate::concentration::end(
            call,
            caster,
            if dropped == 1 {
                "the form it held has ended"
            } else {
                "the forms it held have ended"
            },
            changes,
        )?;
    }
    Ok(true)
}
