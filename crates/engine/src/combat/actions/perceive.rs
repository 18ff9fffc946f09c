//! Invisibility against a creature that perceives the invisible one anyway. The Invisible
//! condition makes a creature "impossible to see without the aid of magic or a special sense":
//! blindsight ("can perceive its surroundings without relying on sight, within a specific
//! radius") and truesight ("can see … invisible creatures and objects", within its range) do,
//! and so does an effect that lets its bearer see invisible creatures (See Invisibility). Within
//! that range the invisible creature's advantage on its attacks against the perceiver, and the
//! perceiver's disadvantage on its attacks against it, do not apply. Tremorsense does not see:
//! the invisible creature is still unseen, and the answer says so.

use tabletop_rules::Condition;

use super::strike::{METRIC, Situation};
use crate::model::character::Character;
use crate::model::encounter::Encounter;

/// How `viewer` perceives the invisible creature `target_id` on the map, if it does: "blindsight
/// 10 ft", "truesight 120 ft", or the effect that lets it see invisible creatures.
pub fn perceives_invisible(enc: &Encounter, viewer: &Character, target_id: &str) -> Option<String> {
    if let Some(effect) = crate::model::senses::sees_invisible(viewer) {
        return Some(effect);
    }
    let senses = crate::combat::spatial::senses_of(viewer);
    let d = enc
        .map
        .creature_distance_ft(&viewer.id, target_id, METRIC)
        .ok()?;
    [
        ("blindsight", senses.blindsight_ft),
        ("truesight", senses.truesight_ft),
    ]
    .into_iter()
    .find(|(_, ft)| *ft > 0 && d <= *ft)
    .map(|(sense, ft)| format!("{sense} {ft} ft"))
}

/// An attack of `attacker` on `target` where either is invisible: the side that perceives the
/// other within its blindsight or truesight loses the invisibility's advantage or disadvantage,
/// and a note says so.
pub fn invisibility(enc: &Encounter, attacker: &Character, target: &Character, s: &mut Situation) {
    if target.has_condition(Condition::Invisible) {
        match perceives_invisible(enc, attacker, &target.id) {
            Some(how) => {
                s.disadvantage.retain(|d| d != "target invisible");
                s.notes.push(format!(
                    "{} perceives the invisible {} ({how}): no disadvantage from its invisibility",
                    attacker.name, target.name
                ));
            }
            None => s.notes.extend(only_located(enc, attacker, target)),
        }
    }
    if attacker.has_condition(Condition::Invisible)
        && let Some(how) = perceives_invisible(enc, target, &attacker.id)
    {
        s.cancelled.push("invisible".into());
        s.notes.push(format!(
            "{} perceives the invisible {} ({how}): no advantage from its invisibility",
            target.name, attacker.name
        ));
    }
}

/// A viewer whose tremorsense reaches the invisible `target`: it does not see it.
fn only_located(enc: &Encounter, viewer: &Character, target: &Character) -> Option<String> {
    let ft = crate::combat::spatial::senses_of(viewer).tremorsense_ft;
    let d = enc
        .map
        .creature_distance_ft(&viewer.id, &target.id, METRIC)
        .ok()?;
    (ft > 0 && d <= ft).then(|| {
        format!(
            "{}'s tremorsense ({ft} ft) does not see {}: its invisibility still applies",
            viewer.name, target.name
        )
    })
}
