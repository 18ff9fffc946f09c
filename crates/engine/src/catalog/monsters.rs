//! Monster abilities as the engine reads them from stat-block text (pure: rules and SRD types
//! only): the special abilities it applies ([`APPLIED_TRAITS`]), an attack's saving-throw rider
//! ("DC 11 Strength saving throw or be knocked prone"), "DC 15 Dexterity" and the conditions a
//! failed save imposes, and a spellcaster's slots. The rules that use them in play are in
//! `combat::traits`. Which of every stat block's abilities the engine resolves, and the reason
//! shown for the rest, is `catalog::monster_abilities`.

use tabletop_rules::{Ability, Condition, DamageType};

/// The special abilities this module applies, by SRD name.
pub const APPLIED_TRAITS: &[&str] = &[
    "Pack Tactics",
    "Magic Resistance",
    "Undead Fortitude",
    "Spellcasting",
];

/// The saving-throw rider of a hit, as a stat block's text writes it: "must succeed on a DC 11
/// Constitution saving throw or take 10 (3d6) poison damage", "taking 24 (7d6) poison damage on
/// a failed save, or half as much damage on a successful one", "or be knocked prone".
#[derive(Debug, Clone, PartialEq)]
pub struct HitRider {
    /// The save's DC.
    pub dc: i32,
    /// The save's ability.
    pub ability: Ability,
    /// The damage a failed save deals: dice and type.
    pub damage: Option<(String, DamageType)>,
    /// A successful save takes half the damage (else none).
    pub half_on_success: bool,
    /// The conditions a failed save imposes.
    pub conditions: Vec<Condition>,
    /// The conditions come only if the rider's damage drops the target to 0 hit points, which
    /// leaves it stable ("If the poison damage reduces the target to 0 hit points, the target
    /// is stable but poisoned for 1 hour … and is paralyzed while poisoned in this way").
    pub at_zero: bool,
    /// What a failed save brings that the engine does not apply, as written ("be cursed with
    /// mummy rot"): said to the DM (filled in by `catalog::monster_riders`).
    pub otherwise: Option<String>,
}

/// The saving-throw rider of an attack's text, if it has one the engine applies.
pub fn rider_in(desc: &str) -> Option<HitRider> {
    let l = desc.to_lowercase();
    let i = l.find("hit:")?;
    let after = &l[i..];
    let s = after.find("saving throw")?;
    let (dc, ability) = dc_in(after)?;
    let tail = &after[s..];
    let damage = save_damage_in(tail);
    let conditions = if tail.starts_with("saving throw or") || damage.is_some() {
        conditions_in(tail)
    } else {
        Vec::new()
    };
    (damage.is_some() || !conditions.is_empty()).then(|| HitRider {
        dc,
        ability,
        half_on_success: damage.is_some()
            && tail.contains("half as much damage on a successful one"),
        at_zero: tail.contains("reduces the target to 0 hit points"),
        damage,
        conditions,
        otherwise: None,
    })
}

/// "take 10 (3d6) poison damage" or "taking 24 (7d6) poison damage" in a save's text: the
/// dice and the type (damage taken later, "takes 21 (6d6) … at the start of each of its
/// turns", is not a failed save's).
fn save_damage_in(tail: &str) -> Option<(String, DamageType)> {
    for lead in ["or take ", "taking "] {
        let Some(at) = tail.find(lead) else {
            continue;
        };
        let rest = &tail[at + lead.len()..];
        let open = rest.find('(')?;
        let close = rest.find(')')?;
        if open > 6 || close < open {
            continue;
        }
        let dice: String = rest[open + 1..close]
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let mut words = rest[close + 1..].split_whitespace();
        let kind = words.next()?;
        if words.next().map(|w| w.trim_end_matches([',', '.'])) != Some("damage") {
            continue;
        }
        if let Ok(t) = kind.parse::<DamageType>() {
            return Some((dice, t));
        }
    }
    None
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
