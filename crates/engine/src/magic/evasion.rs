//! Evasion (monk 7, rogue 7, the hunter's Superior Hunter's Defense, monsters with the trait):
//! against an effect that allows a DEX save for half damage, a success takes no damage and a
//! failure half — unless the creature is incapacitated.
//!
//! [`settle`] is the one rule every save against damage goes through once the save is rolled (a
//! spell, a stat block's breath or other special ability, a lair action, a dragonborn's breath,
//! a zone or aura, an attack's saving-throw rider): a worn Ring of Evasion first turns a failed
//! DEX save into a success, then the share of the damage the creature takes follows from the
//! save, whether a success halves it, and Evasion.

use tabletop_rules::Ability;

use crate::model::character::Character;

/// Whether `c` has Evasion now (a class feature, or a stat block's trait) and can use it.
pub fn evades(c: &Character) -> bool {
    let has = c.features.iter().any(|f| f == "Evasion")
        || c.derived
            .as_ref()
            .is_some_and(|d| d.features.iter().any(|f| f == "Evasion"))
        || c.stat_block
            .as_ref()
            .is_some_and(|s| s.special_abilities.iter().any(|a| a.name == "Evasion"));
    has && c.effective().incapacitated.is_empty()
}

/// Whether Evasion changes a save of `ability` for half damage against `c`.
pub fn applies(c: &Character, ability: Ability, half: bool) -> bool {
    half && ability == Ability::Dexterity && evades(c)
}

/// How much of an effect's damage a creature takes once it has saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Share {
    /// All of it.
    Full,
    /// Half, rounded down.
    Half,
    /// None.
    Nothing,
}

impl Share {
    /// `amount` cut to this share.
    pub fn of(self, amount: u32) -> u32 {
        match self {
            Share::Full => amount,
            Share::Half => amount / 2,
            Share::Nothing => 0,
        }
    }
}

/// A save against damage, settled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    /// Whether the save succeeded (after a Ring of Evasion).
    pub saved: bool,
    /// The share of the damage taken.
    pub share: Share,
    /// Whether Evasion decided the share.
    pub evasion: bool,
    /// What changed the outcome (the ring's line, Evasion's).
    pub lines: Vec<String>,
}

/// Settles `c`'s save of `ability` (`saved`) against an effect whose damage a success halves
/// (`half`) or negates: a worn Ring of Evasion turns a failed DEX save into a success (spending a
/// charge), then Evasion (a DEX save for half, not incapacitated) takes none on a success and
/// half on a failure; otherwise a success takes half or none and a failure all.
pub fn settle(c: &mut Character, ability: Ability, half: bool, saved: bool) -> Settled {
    let mut lines = Vec::new();
    let mut saved = saved;
    if !saved
        && ability == Ability::Dexterity
        && let Some(line) = crate::inventory::regen::evade(c)
    {
        saved = true;
        lines.push(line);
    }
    let evasion = applies(c, ability, half);
    let share = match (saved, half, evasion) {
        (true, _, true) | (true, false, _) => Share::Nothing,
        (true, true, false) | (false, _, true) => Share::Half,
        (false, _, false) => Share::Full,
    };
    if evasion {
        lines.push(if saved {
            format!("{} saves: Evasion, no damage", c.name)
        } else {
            format!("{} fails: Evasion, half damage", c.name)
        });
    }
    Settled {
        saved,
        share,
        evasion,
        lines,
    }
}
