//! A caster's spell numbers: its spellcasting ability (the sheet's, else its SRD class's; per
//! class when multiclassed), save DC (8 + proficiency + modifier) and spell attack bonus
//! (proficiency + modifier), with worn magic that sharpens spells. A leaf of the spell family:
//! every casting path reads it, it reads only the sheet and the SRD.

use serde::Serialize;
use tabletop_rules::Ability;

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;

/// The caster's spellcasting ability: the sheet's, else its SRD class's.
pub fn spell_ability(call: &Call<'_>, c: &Character) -> Result<Ability> {
    if let Some(a) = c.spellcasting_ability {
        return Ok(a);
    }
    if let (Some(srd), Some(class)) = (call.compendium(), c.class.as_deref())
        && let Some(a) = srd.class(class).and_then(|k| k.spellcasting_ability)
    {
        return Ok(a);
    }
    Err(EngineError::Rule(format!(
        "{} has no spellcasting ability; set one with update_character (spellcastingAbility)",
        c.name
    )))
}

/// A caster's spell numbers.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CasterNumbers {
    /// The spellcasting ability.
    pub ability: Ability,
    /// Its (effective) modifier.
    pub modifier: i32,
    /// Save DC: 8 + proficiency + modifier (or a scroll's).
    pub save_dc: i32,
    /// Spell attack bonus: proficiency + modifier (or a scroll's).
    pub attack_bonus: i32,
    /// A scroll's fixed numbers are used instead of the caster's.
    pub fixed: bool,
    /// What worn magic adds to spell attack rolls (Wand of the War Mage, Robe of the Archmagi):
    /// part of `attack_bonus`, added to a roll whose ability and proficiency come from the
    /// effective stats.
    #[serde(skip)]
    pub worn_attack_bonus: i32,
}

/// The numbers the sheet shows for its own spellcasting ability, worn magic included.
pub fn sheet_numbers(c: &Character) -> Option<CasterNumbers> {
    c.spellcasting_ability.map(|a| numbers_with(c, a))
}

/// The caster's save DC and attack bonus from its effective stats.
pub fn caster_numbers(call: &Call<'_>, c: &Character) -> Result<CasterNumbers> {
    let ability = spell_ability(call, c)?;
    Ok(numbers_with(c, ability))
}

/// The caster's numbers for one spell: a multiclassed caster casts a spell with the ability of
/// the class it learned it with (SRD "Multiclassing: Spellcasting"); anyone else as
/// [`caster_numbers`].
pub fn caster_numbers_for(call: &Call<'_>, c: &Character, spell: &str) -> Result<CasterNumbers> {
    let by_class = call
        .compendium()
        .filter(|_| crate::magic::known::multiclassed(c))
        .and_then(|srd| crate::magic::known::rules_for_spell(srd, c, spell))
        .map(|r| r.ability);
    match by_class {
        Some(a) => Ok(numbers_with(c, a)),
        None => caster_numbers(call, c),
    }
}

fn numbers_with(c: &Character, ability: Ability) -> CasterNumbers {
    let eff = c.effective();
    let modifier = eff.modifier(ability);
    let prof = eff.proficiency_bonus;
    // Worn magic that sharpens spells (Wand of the War Mage, Robe of the Archmagi).
    let (dc_bonus, attack_bonus) = c
        .inventory
        .items
        .iter()
        .filter_map(|i| i.active_entry())
        .fold((0, 0), |(d, a), e| {
            (d + e.spell_dc_bonus, a + e.spell_attack_bonus)
        });
    CasterNumbers {
        ability,
        modifier,
        save_dc: 8 + prof + modifier + dc_bonus,
        attack_bonus: prof + modifier + attack_bonus,
        fixed: false,
        worn_attack_bonus: attack_bonus,
    }
}
