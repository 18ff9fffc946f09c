//! Identify, answered from the engine's state: the item's catalog properties (rarity,
//! attunement and who may attune, whether it is attuned, charges and how they return, what it
//! grants, what it heals or casts), or, for a creature, the magical effects on it. Also the test
//! of what counts as magic that Detect Magic uses (`combat::divination`).

use crate::character::Character;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::inventory::{Item, Rarity};

/// Whether `item` is magic: an SRD magic item by name, or an item that needs attunement,
/// grants modifiers, holds charges or casts something.
pub fn is_magic(call: &Call<'_>, item: &Item) -> bool {
    call.compendium()
        .is_some_and(|srd| srd.magic_item(&item.name).is_some())
        || item.requires_attunement
        || !item.effects.is_empty()
        || item.charges.is_some()
        || item.rarity != Rarity::Common
}

/// The magical effects on a creature: its active effects, and conditions a spell imposed.
pub fn magical_effects(c: &Character) -> Vec<String> {
    let mut out: Vec<String> = c.effects.iter().map(|e| e.name.clone()).collect();
    for k in &c.conditions {
        if crate::catalog::spells::by_name(&k.source).is_some() {
            out.push(format!("{} ({})", k.source, k.condition));
        }
    }
    out
}

/// What Identify learns: the item named `item` among what `holder` carries (or, with no item
/// named, the spells affecting `holder`). Returns the headline, the lines and the details.
pub fn identify(
    call: &Call<'_>,
    caster: &Character,
    holder: &Character,
    item: Option<&str>,
) -> Result<(String, Vec<String>, serde_json::Value)> {
    let Some(name) = item.map(str::trim).filter(|s| !s.is_empty()) else {
        let fx = magical_effects(holder);
        let what = if fx.is_empty() {
            "no spell affects it".to_string()
        } else {
            format!("spells affecting it: {}", fx.join(", "))
        };
        let headline = format!("{} casts Identify on {}: {what}.", caster.name, holder.name);
        return Ok((
            headline,
            Vec::new(),
            serde_json::json!({ "identified": { "creature": holder.name, "effects": fx } }),
        ));
    };
    let key = name.to_lowercase();
    let found = holder
        .inventory
        .items
        .iter()
        .find(|i| i.name.to_lowercase() == key)
        .or_else(|| {
            holder
                .inventory
                .items
                .iter()
                .find(|i| i.name.to_lowercase().contains(&key))
        });
    let Some(it) = found else {
        return Err(EngineError::invalid(
            "item",
            format!(
                "{} carries no item named '{name}'; Identify needs an object it touches (item, and targetId for another creature's)",
                holder.name
            ),
        ));
    };
    let mut lines = Vec::new();
    let magic = is_magic(call, it);
    lines.push(format!(
        "{}: {}{}",
        it.name,
        if magic { "magic, " } else { "not magic, " },
        it.rarity.key().replace('_', " ")
    ));
    if it.requires_attunement {
        lines.push(format!(
            "requires attunement{}; {}",
            it.attunement_restriction
                .as_deref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default(),
            if it.attuned {
                format!("{} is attuned to it", holder.name)
            } else {
                "no one carrying it is attuned".to_string()
            }
        ));
    }
    if let Some(c) = &it.charges {
        lines.push(format!(
            "charges: {} of {} (regained: {}{})",
            c.current,
            c.max,
            c.recharge.key().replace('_', " "),
            c.recharge_dice
                .as_deref()
                .map(|d| format!(", {d}"))
                .unwrap_or_default()
        ));
    }
    if !it.effects.is_empty() {
        lines.push(format!(
            "grants: {}",
            it.effects
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some(h) = &it.heal {
        lines.push(format!("heals {h}"));
    }
    if let Some(w) = &it.weapon {
        lines.push(format!("weapon: {} {}", w.damage_dice, w.damage_type));
    }
    let headline = format!(
        "{} casts Identify on {}: {}.",
        caster.name,
        it.name,
        lines.join("; ")
    );
    let details = serde_json::json!({ "identified": {
        "item": it.name,
        "magic": magic,
        "rarity": it.rarity.key(),
        "requiresAttunement": it.requires_attunement,
        "attuned": it.attuned,
        "charges": it.charges.as_ref().map(|c| serde_json::json!({"current": c.current, "max": c.max})),
        "grants": it.effects.iter().map(ToString::to_string).collect::<Vec<_>>(),
    }});
    Ok((headline, lines, details))
}
