//! Who sees whom in an attack: the map's light (bright, dim, darkness, magical darkness) and
//! what blocks sight (walls, obstacles, shut doors, sight-blocking props), judged with the
//! viewer's senses (darkvision, blindsight, truesight from its sheet, race, stat block and
//! active spells). An attacker that cannot see its target attacks with disadvantage; a target
//! that cannot see its attacker is attacked with advantage. A blinded viewer is left to the
//! condition (its effective stats already say so), and invisibility likewise.

use tabletop_grid::{SightOptions, Visibility};
use tabletop_rules::Condition;

use super::reactions::eligible::METRIC;
use crate::model::character::Character;
use crate::model::encounter::Encounter;

/// Why `viewer` cannot see the creature `target` on the map, or `None` when it can (or when a
/// condition already covers it: a blinded viewer).
pub fn unseen(enc: &Encounter, viewer: &Character, target: &str) -> Option<String> {
    let senses = crate::combat::spatial::senses_of(viewer);
    if senses.blinded {
        return None;
    }
    let opts = SightOptions {
        creatures_block: false,
        metric: METRIC,
    };
    let r = enc
        .map
        .creature_visibility(&viewer.id, target, &senses, &opts)
        .ok()?;
    match r.visibility {
        Visibility::Clear | Visibility::LightlyObscured => None,
        Visibility::Blocked => Some("no line of sight".into()),
        Visibility::HeavilyObscured => Some(format!(
            "{} and no sense that pierces it",
            light_words(r.light)
        )),
    }
}

fn light_words(l: tabletop_grid::Light) -> &'static str {
    match l {
        tabletop_grid::Light::Bright => "bright light",
        tabletop_grid::Light::Dim => "dim light",
        tabletop_grid::Light::Darkness => "darkness",
        tabletop_grid::Light::MagicalDarkness => "magical darkness",
    }
}

/// Whether `watcher` can see `mover`: not blinded, `mover` neither hidden nor invisible (unless
/// `watcher` perceives it: See Invisibility, blindsight or truesight within range), in light or a sense that pierces it, with a line of sight. An
/// opportunity attack needs it, and so does a hostile that spoils a ranged attack.
pub fn can_see(enc: &Encounter, watcher: &Character, mover: &Character) -> bool {
    let mover_unseen = (mover.has_condition(Condition::Invisible)
        && super::perceive::perceives_invisible(enc, watcher, &mover.id).is_none())
        || enc
            .combatant(&mover.id)
            .is_some_and(|c| c.flags.hidden.is_some());
    // Light, walls and senses: a watcher in the dark without darkvision does not see it go.
    !mover_unseen
        && !watcher.has_condition(Condition::Blinded)
        && unseen(enc, watcher, &mover.id).is_none()
}
