//! Evasion (monk 7, rogue 7, the hunter's Superior Hunter's Defense, monsters with the trait):
//! against an effect that allows a DEX save for half damage, a success takes no damage and a
//! failure half — unless the creature is incapacitated.

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
