//! Legendary Resistance ("If the vampire fails a saving throw, it can choose to succeed
//! instead", 3/Day): a creature with the trait that fails a save succeeds instead as its
//! encounter's reaction policy for it says (`auto` uses it, `ask` and `never` do not, and the
//! answer says so), spending one use of the sheet's resource "Legendary Resistance", which a
//! long rest restores.

use crate::catalog::Recharge;
use crate::model::character::{Character, Resource};
use crate::model::encounter::{Encounter, ReactionPolicy};
use crate::model::names::name_key;

/// The trait's name on the stat block and the sheet's resource.
pub const NAME: &str = "Legendary Resistance";

/// The uses a day its stat block gives ("3/Day"), when it has the trait.
pub fn uses_per_day(c: &Character) -> Option<u32> {
    let block = c.stat_block.as_ref()?;
    let a = block
        .special_abilities
        .iter()
        .find(|a| name_key(a.name.split('(').next().unwrap_or(&a.name).trim()) == name_key(NAME))?;
    let text = format!("{} {}", a.name, a.recharge.clone().unwrap_or_default());
    let i = text.find("/Day")?;
    let n = text[..i]
        .rsplit(|ch: char| !ch.is_ascii_digit())
        .next()?
        .parse()
        .ok()?;
    Some(n)
}

/// The sheet's resource for the trait, made on first need.
pub fn resource(c: &mut Character) -> Option<&mut Resource> {
    let max = uses_per_day(c)?;
    let key = name_key(NAME);
    if !c.resources.iter().any(|r| name_key(&r.name) == key) {
        c.resources.push(Resource {
            name: NAME.into(),
            max,
            current: max,
            recharge: Recharge::Long,
        });
    }
    c.resources.iter_mut().find(|r| name_key(&r.name) == key)
}

/// After `c` failed a save: whether it succeeds instead by Legendary Resistance, and the line
/// saying what happened (`None` without the trait). `c` is changed (a use spent); the caller
/// stores it.
pub fn on_failed_save(enc: Option<&Encounter>, c: &mut Character) -> Option<(bool, String)> {
    let policy = enc
        .and_then(|e| e.combatant(&c.id))
        .map_or(ReactionPolicy::Auto, |cb| cb.reaction_policy);
    let name = c.name.clone();
    let r = resource(c)?;
    let (max, left) = (r.max, r.current);
    if left == 0 {
        return Some((
            false,
            format!("{name}'s {NAME} is spent (0/{max} left today; a long rest restores it)"),
        ));
    }
    match policy {
        ReactionPolicy::Auto => {
            r.current -= 1;
            Some((
                true,
                format!(
                    "{name} uses {NAME}: it succeeds instead ({}/{max} left today)",
                    left - 1
                ),
            ))
        }
        ReactionPolicy::Ask => Some((
            false,
            format!(
                "{name} could use {NAME} to succeed instead ({left}/{max} left today), but its reaction policy is ask: the engine uses it only with auto (manage_encounter set_reaction_policy); the DM decides, and use_special_ability {NAME} (actionCost free) spends a use (force: true off its turn)"
            ),
        )),
        ReactionPolicy::Never => Some((
            false,
            format!("{name} does not use {NAME} (reaction policy never; {left}/{max} left today)"),
        )),
    }
}
