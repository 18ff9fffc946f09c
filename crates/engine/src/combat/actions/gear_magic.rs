//! What worn magic items change in an attack (the magic-item catalog's attack fields): a
//! shield's AC against ranged attacks (Arrow-Catching Shield), critical hits turned into normal
//! hits (Adamantine Armor), a weapon's extra damage on a natural 20 (Vicious Weapon, Sword of
//! Sharpness, Sword of Life Stealing) and resistance to ranged weapon damage (Shield of Missile
//! Attraction). Each says what it did in the attack's lines.

use tabletop_rules::DamageType;
use tabletop_rules::damage::DamagePart;

use crate::model::character::Character;

/// What `target`'s worn magic adds to its AC against a ranged attack (0 for melee).
pub fn ranged_ac(target: &Character, ranged: bool) -> i32 {
    if !ranged {
        return 0;
    }
    target
        .inventory
        .items
        .iter()
        .map(|i| i.ranged_ac_bonus())
        .sum()
}

/// The worn item of `target` that turns critical hits into normal hits, if any.
pub fn crit_stopper(target: &Character) -> Option<String> {
    target
        .inventory
        .items
        .iter()
        .find(|i| i.stops_critical_hits())
        .map(|i| i.name.clone())
}

/// The damage a natural 20 adds with the weapon `item_id` of `attacker` (" + 2d6[slashing]"),
/// and the line saying so.
pub fn natural_20(attacker: &Character, item_id: &str, t: DamageType) -> Option<(String, String)> {
    let i = attacker.inventory.items.iter().find(|i| i.id == item_id)?;
    let extra = i.natural_20_extra(t)?;
    Some((
        format!(" + {extra}"),
        format!("{}: a natural 20 deals {extra} extra damage.", i.name),
    ))
}

/// `parts` halved when `target` resists the damage of a ranged weapon attack.
pub fn ranged_resistance(
    target: &Character,
    ranged_weapon: bool,
    parts: Vec<DamagePart>,
    lines: &mut Vec<String>,
) -> Vec<DamagePart> {
    match target.inventory.items.iter().find(|i| i.resists_ranged()) {
        Some(shield) if ranged_weapon => {
            lines.push(format!(
                "{}'s {} resists the ranged weapon's damage.",
                target.name, shield.name
            ));
            parts
                .into_iter()
                .map(|p| DamagePart::new(p.damage_type, p.amount / 2))
                .collect()
        }
        _ => parts,
    }
}
