//! Frightened only while the source of the fear is within line of sight (SRD Frightened: "has
//! disadvantage on ability checks and attack rolls while the source of its fear is within line
//! of sight"). The source is a combatant the condition names (its imposer, or a source naming a
//! combatant); a source that can't be located on the map keeps the disadvantage, and the line
//! says so.

use tabletop_grid::{Metric, SightOptions};
use tabletop_rules::Condition;
use tabletop_rules::stats::EffectiveStats;

use crate::model::character::Character;
use crate::model::encounter::Encounter;
use crate::model::names::name_key;

/// What `c`'s fear does to its rolls now: `Some((true, line))` when every source of its fear is
/// a combatant out of its line of sight (the disadvantage lapses), `Some((false, line))` when a
/// source can't be located (the disadvantage stays), `None` when it is not frightened or a
/// source is in sight.
pub fn out_of_sight(enc: &Encounter, c: &Character) -> Option<(bool, String)> {
    let fears: Vec<_> = c
        .conditions
        .iter()
        .filter(|e| e.condition == Condition::Frightened)
        .collect();
    if fears.is_empty() || enc.map.creature(&c.id).is_none() {
        return None;
    }
    let mut hidden = Vec::new();
    for e in fears {
        let src = name_key(&e.source);
        let found = enc
            .order
            .iter()
            .filter(|cb| {
                !cb.removed
                    && cb.character_id != c.id
                    && match &e.by {
                        Some(by) => *by == cb.character_id,
                        None => src.contains(&name_key(&cb.name)),
                    }
            })
            .max_by_key(|cb| cb.name.len());
        let Some(cb) = found.filter(|cb| enc.map.creature(&cb.character_id).is_some()) else {
            return Some((
                false,
                format!(
                    "{}'s fear of {}: not a creature on the map, so the engine can't check its line of sight; the disadvantage stays",
                    c.name, e.source
                ),
            ));
        };
        match sees(enc, &c.id, &cb.character_id) {
            Some(false) => hidden.push(cb.name.clone()),
            _ => return None,
        }
    }
    Some((
        true,
        format!(
            "{}'s fear of {}: out of its line of sight, no disadvantage",
            c.name,
            hidden.join(", ")
        ),
    ))
}

/// Whether `from` has a clear line of sight to `to` on the map (creatures don't block it);
/// `None` when either is off the map. The one reading of "within line of sight" for fear.
fn sees(enc: &Encounter, from: &str, to: &str) -> Option<bool> {
    let opts = SightOptions {
        creatures_block: false,
        metric: Metric::Grid5e,
    };
    enc.map
        .creature_line_of_sight(from, to, &opts)
        .ok()
        .map(|los| los.clear)
}

/// Takes the frightened disadvantage off `stats`' ability checks, skills and attack rolls.
pub fn drop_fear(stats: &mut EffectiveStats) {
    let keep = |v: &mut Vec<String>| v.retain(|s| s != "frightened");
    for r in stats.ability_checks.values_mut() {
        keep(&mut r.disadvantage);
    }
    for r in stats.skills.values_mut() {
        keep(&mut r.disadvantage);
    }
    keep(&mut stats.attack.disadvantage);
}

/// `c`'s effective stats for a roll in `enc`, without the fear's disadvantage when its source
/// is out of sight; the line to say about it.
pub fn stats_for_roll(enc: Option<&Encounter>, c: &Character) -> (EffectiveStats, Option<String>) {
    let mut stats = c.effective();
    let Some((lapses, line)) = enc.and_then(|e| out_of_sight(e, c)) else {
        return (stats, None);
    };
    if lapses {
        drop_fear(&mut stats);
    }
    (stats, Some(line))
}

/// A repeated save a spell allows only out of its caster's line of sight (Fear: "If the creature
/// ends its turn in a location where it doesn't have line of sight to you, the creature can make
/// a Wisdom saving throw"): the line saying why `c` rolls none now, or `None` when it rolls
/// (the spell has no such rule, or the caster is out of sight or off the map).
pub fn save_withheld(
    enc: &Encounter,
    c: &Character,
    e: &crate::model::character::ConditionEntry,
) -> Option<String> {
    let spell = crate::catalog::spells::by_name(&e.source)?;
    if !spell.repeat_save_out_of_sight {
        return None;
    }
    let caster = e.duration.as_ref()?.caster()?;
    let name = enc.combatant(caster)?.name.clone();
    if enc.map.creature(caster).is_none() || enc.map.creature(&c.id).is_none() {
        return None;
    }
    sees(enc, &c.id, caster)?.then(|| {
        format!(
            "{} ends its turn in line of sight of {name}: no save against {} ({}); it may save only where it can't see {name}",
            c.name, e.condition, e.source
        )
    })
}
