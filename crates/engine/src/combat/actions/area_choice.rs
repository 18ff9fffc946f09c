//! Area spells whose caster chooses who in the area is affected, up to a number: "Choose up to
//! six creatures in a 30-foot-radius sphere" (Mass Cure Wounds), "up to six creatures of your
//! choice in a 40-foot cube" (Slow). The catalog's `count` on an area spell is that number. The
//! creatures named (`targetName`, `targets`) must stand inside the area; with none named, the
//! engine chooses for the caster, and says so: for healing the caster's side (itself and its
//! friends), for anything else the creatures hostile to it, in the area's order.
//!
//! Also the spells whose later targets must stand near the first ([`leap`]: Chain Lightning).

use super::ActionRequest;
use crate::catalog::spells::SpellKind;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::encounter::Encounter;
use crate::model::spell::SpellDef;

/// How many creatures in its area `def`'s caster chooses, when it chooses.
pub fn limit(def: &SpellDef) -> Option<usize> {
    let e = def.mechanics()?;
    (def.area.is_some())
        .then_some(e.count)
        .flatten()
        .and_then(|n| usize::try_from(n).ok())
}

/// The creatures of `inside` (ids in the area) that `def` affects, at most `n`.
pub fn choose(
    e: &Encounter,
    caster: &Character,
    def: &SpellDef,
    req: &ActionRequest,
    inside: Vec<String>,
    n: usize,
    notes: &mut Vec<String>,
) -> Result<Vec<String>> {
    let named = req.named_targets();
    let name_of = |id: &str| e.combatant(id).map_or(id.to_string(), |c| c.name.clone());
    if !named.is_empty() {
        if named.len() > n {
            return Err(EngineError::invalid(
                "targets",
                format!(
                    "{} affects up to {n} creatures of the caster's choice",
                    def.name
                ),
            ));
        }
        let mut out = Vec::new();
        for w in named {
            let c =
                crate::combat::find_combatant(e, w.id.as_deref(), w.name.as_deref(), "targets")?;
            if !inside.contains(&c.character_id) {
                let there: Vec<String> = inside.iter().map(|id| name_of(id)).collect();
                return Err(EngineError::Rule(format!(
                    "{} is not inside the {}'s area; inside: {}",
                    c.name,
                    def.name,
                    if there.is_empty() {
                        "no one".to_string()
                    } else {
                        there.join(", ")
                    }
                )));
            }
            if !out.contains(&c.character_id) {
                out.push(c.character_id.clone());
            }
        }
        return Ok(out);
    }
    let heals = def.mechanics().is_some_and(|m| m.kind == SpellKind::Heal);
    let mine = e.combatant(&caster.id).map(|c| c.side);
    let picked: Vec<String> = inside
        .into_iter()
        .filter(|id| {
            let side = e.combatant(id).map(|c| c.side);
            match (mine, side) {
                (Some(a), Some(b)) if heals => id == &caster.id || a.friendly_to(b),
                (Some(a), Some(b)) => a.hostile_to(b),
                _ => false,
            }
        })
        .take(n)
        .collect();
    let names: Vec<String> = picked.iter().map(|id| name_of(id)).collect();
    notes.push(format!(
        "{} affects up to {n} creatures of the caster's choice in its area; none named, so {} ({}); name them in targets to choose others",
        def.name,
        if heals {
            "the caster's side"
        } else {
            "the creatures hostile to the caster"
        },
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    ));
    Ok(picked)
}

/// Chain Lightning: each target after the first must be within the catalog's `leap_ft` of the
/// first target (bodies count where they lie).
pub fn leap(e: &Encounter, def: &SpellDef, ids: &[String]) -> Result<()> {
    let Some(reach) = def.mechanics().and_then(|m| m.leap_ft) else {
        return Ok(());
    };
    let Some(first) = ids.first() else {
        return Ok(());
    };
    let name_of = |id: &str| e.combatant(id).map_or(id.to_string(), |c| c.name.clone());
    for id in ids.iter().skip(1) {
        let d = crate::combat::bodies::distance_ft(e, first, id, super::attack::METRIC)
            .unwrap_or(u32::MAX);
        if d > reach {
            return Err(EngineError::Rule(format!(
                "{}'s bolts leap only {reach} ft from the first target: {} is {} from {}",
                def.name,
                name_of(id),
                if d == u32::MAX {
                    "not on the map".to_string()
                } else {
                    format!("{d} ft")
                },
                name_of(first)
            )));
        }
    }
    Ok(())
}
