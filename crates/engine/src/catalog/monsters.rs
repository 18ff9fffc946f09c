//! Monster abilities as the engine reads them from stat-block text (pure: rules and SRD types
//! only): the special abilities it applies ([`APPLIED_TRAITS`]), an attack's saving-throw rider
//! ("DC 11 Strength saving throw or be knocked prone"), "DC 15 Dexterity" and the conditions a
//! failed save imposes, and a spellcaster's slots. The rules that use them in play are in
//! `combat::traits`. Which of every stat block's abilities the engine resolves, and the reason
//! shown for the rest, is `catalog::monster_abilities`.

use tabletop_rules::{Ability, Condition};

/// The special abilities this module applies, by SRD name.
pub const APPLIED_TRAITS: &[&str] = &[
    "Pack Tactics",
    "Magic Resistance",
    "Undead Fortitude",
    "Spellcasting",
];

/// The saving-throw rider of an attack's text, if it has one the engine applies.
pub fn rider_in(desc: &str) -> Option<(i32, Ability, Vec<Condition>)> {
    let l = desc.to_lowercase();
    let i = l.find("hit:")?;
    let after = &l[i..];
    if !after.contains("saving throw or") {
        return None;
    }
    let (dc, ability) = dc_in(after)?;
    let tail = &after[after.find("saving throw or")?..];
    let conds = conditions_in(tail);
    (!conds.is_empty()).then_some((dc, ability, conds))
}

/// "DC 15 Dexterity" in rules text.
pub fn dc_in(text: &str) -> Option<(i32, Ability)> {
    let l = text.to_lowercase();
    let i = l.find("dc ")?;
    let mut it = l[i + 3..].split_whitespace();
    let dc = it.next()?.trim_end_matches([',', '.']).parse().ok()?;
    let ability = match it.next()?.get(..3)? {
        "str" => Ability::Strength,
        "dex" => Ability::Dexterity,
        "con" => Ability::Constitution,
        "int" => Ability::Intelligence,
        "wis" => Ability::Wisdom,
        "cha" => Ability::Charisma,
        _ => return None,
    };
    Some((dc, ability))
}

/// Conditions a failed save imposes, read from the text.
pub fn conditions_in(text: &str) -> Vec<Condition> {
    let l = text.to_lowercase();
    let mut out = Vec::new();
    if l.contains("knocked prone") || l.contains("fall prone") || l.contains("be prone") {
        out.push(Condition::Prone);
    }
    for (word, c) in [
        ("frightened", Condition::Frightened),
        ("poisoned", Condition::Poisoned),
        ("paralyzed", Condition::Paralyzed),
        ("restrained", Condition::Restrained),
        ("stunned", Condition::Stunned),
        ("blinded", Condition::Blinded),
        ("charmed", Condition::Charmed),
        ("deafened", Condition::Deafened),
        ("petrified", Condition::Petrified),
        ("incapacitated", Condition::Incapacitated),
    ] {
        if l.contains(word) {
            out.push(c);
        }
    }
    out
}

/// A stat block's spell slots by level 1–9 ("1st level (4 slots)"), from the SRD's spellcasting data.
pub fn monster_slots(m: &tabletop_srd::model::Monster) -> [u8; 9] {
    let mut s = [0u8; 9];
    for sc in m
        .special_abilities
        .iter()
        .filter_map(|a| a.spellcasting.as_ref())
    {
        for (level, n) in &sc.slots {
            if (1..=9).contains(level) {
                s[usize::from(level - 1)] = *n;
            }
        }
    }
    s
}
