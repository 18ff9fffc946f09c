//! Gear that can't be changed in a moment, refused or paid for while its wearer fights: body
//! armor takes minutes to don or doff (SRD 5.1, Getting Into and Out of Armor: light armor 1
//! minute to don and 1 to doff, medium 5 and 1, heavy 10 and 5), a shield an action either way,
//! and attuning a short rest spent with the item (SRD Attunement), which no fight allows.

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::inventory::{ArmorCategory, Item};

/// What is done with the item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Donned (equipped).
    Don,
    /// Doffed (unequipped).
    Doff,
    /// Attuned to.
    Attune,
}

/// Checks `change` of `item` by `c` against the fight it is in, if any: refused for body armor
/// and attunement; a shield spends the combatant's action on its own turn. The line saying what
/// the fight charged, when it charged something.
pub fn check(
    call: &mut Call<'_>,
    c: &Character,
    item: &Item,
    change: Change,
) -> Result<Option<String>> {
    let Some(enc_id) = crate::combat::active_encounter_of(call, &c.id)? else {
        return Ok(None);
    };
    if change == Change::Attune {
        return Err(EngineError::Rule(format!(
            "{} is in active encounter {enc_id}: attuning to {} takes a short rest spent with it, and no rest is taken in a fight; attune once the encounter ends",
            c.name, item.name
        )));
    }
    let Some(armor) = &item.armor else {
        return Ok(None);
    };
    let verb = if change == Change::Don {
        "donning"
    } else {
        "doffing"
    };
    let minutes = match (armor.category, change) {
        (ArmorCategory::Shield, _) => None,
        (ArmorCategory::Light, _) | (ArmorCategory::Medium, Change::Doff) => Some(1),
        (ArmorCategory::Medium, _) | (ArmorCategory::Heavy, Change::Doff) => Some(5),
        (ArmorCategory::Heavy, _) => Some(10),
    };
    if let Some(m) = minutes {
        return Err(EngineError::Rule(format!(
            "{} is in active encounter {enc_id}: {verb} {} takes {m} minute{} (light armor 1 minute to don, medium 5, heavy 10; doffing 1, 1 and 5), not a moment of a fight; change armor once the encounter ends",
            c.name,
            item.name,
            if m == 1 { "" } else { "s" }
        )));
    }
    // A shield: the action, on the wearer's own turn.
    let mut enc = crate::combat::load_active(call, Some(&enc_id))?;
    let current = enc
        .current()
        .map(|x| (x.character_id.clone(), x.name.clone()));
    let Some(cb) = enc.combatant_mut(&c.id) else {
        return Ok(None);
    };
    if current.as_ref().map(|x| x.0.as_str()) != Some(c.id.as_str()) {
        return Err(EngineError::Rule(format!(
            "{} is in active encounter {enc_id} and it is {}'s turn: {verb} a shield takes an action, on {}'s own turn",
            c.name,
            current.map(|x| x.1).unwrap_or_default(),
            c.name
        )));
    }
    if cb.economy.action {
        return Err(EngineError::Rule(format!(
            "{verb} {} takes an action and {} has already used its action this turn",
            item.name, c.name
        )));
    }
    cb.economy.action = true;
    crate::combat::save(call, &enc)?;
    Ok(Some(format!(
        "{verb} {} takes {}'s action (a shield takes an action to don or doff)",
        item.name, c.name
    )))
}
