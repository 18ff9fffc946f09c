//! The battlefield as text: the grid crate draws, this module chooses each combatant's token and
//! writes the legend in names and hit points.

use std::collections::{BTreeMap, BTreeSet};

use tabletop_grid::{AsciiMap, RenderOptions};

use crate::engine::Call;
use crate::error::Result;
use crate::model::encounter::*;

/// A token of 1–2 characters per combatant: initial and number for numbered creatures ("G1"),
/// else the first two letters ("Ar"), made unique.
pub fn tokens(e: &Encounter) -> BTreeMap<String, String> {
    let mut used = BTreeSet::new();
    let mut out = BTreeMap::new();
    for c in &e.order {
        let name = c.name.trim();
        let initial = name
            .chars()
            .find(|ch| ch.is_alphanumeric())
            .unwrap_or('?')
            .to_ascii_uppercase();
        let number: String = name
            .rsplit(' ')
            .next()
            .filter(|w| w.chars().all(|ch| ch.is_ascii_digit()))
            .unwrap_or("")
            .to_string();
        let mut candidates: Vec<String> = Vec::new();
        if !number.is_empty() {
            candidates.push(format!("{initial}{}", number.chars().last().unwrap_or('0')));
        }
        let letters: Vec<char> = name.chars().filter(|ch| ch.is_alphanumeric()).collect();
        for second in letters.iter().skip(1) {
            candidates.push(format!("{initial}{}", second.to_ascii_lowercase()));
        }
        for d in 0..10 {
            candidates.push(format!("{initial}{d}"));
        }
        for a in 'a'..='z' {
            for b in '0'..='9' {
                candidates.push(format!("{a}{b}"));
            }
        }
        if let Some(t) = candidates.into_iter().find(|t| !used.contains(t)) {
            used.insert(t.clone());
            out.insert(c.character_id.clone(), t);
        }
    }
    out
}

/// Draws the encounter's map with combatant tokens; the legend names each token's combatant
/// with side, HP and status, and marks whose turn it is.
pub fn ascii(call: &Call<'_>, e: &Encounter, opts: &RenderOptions) -> Result<AsciiMap> {
    let tokens = tokens(e);
    let mut opts = opts.clone();
    for (id, t) in &tokens {
        opts.tokens.entry(id.clone()).or_insert_with(|| t.clone());
    }
    let mut map = e.map.render_ascii(&opts)?;
    let current = e.current().map(|c| c.character_id.as_str());
    for entry in &mut map.legend {
        let Some((id, _)) = opts.tokens.iter().find(|(_, t)| **t == entry.symbol) else {
            continue;
        };
        let Some(cb) = e.combatant(id) else { continue };
        let vitals = match call.tx_ref().character(call.campaign(), id)? {
            Some(c) if c.dead => "dead".to_string(),
            Some(c) => format!("HP {}/{}", c.hp, c.effective().max_hp.value.max(1)),
            None => "gone".to_string(),
        };
        let turn = if current == Some(id.as_str()) {
            " ◀ turn"
        } else {
            ""
        };
        entry.meaning = format!("{} ({}, {vitals}){turn}", cb.name, cb.side);
    }
    Ok(map)
}
