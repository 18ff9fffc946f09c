//! Finding the spell a caster names: its mastered (synthesized) spells first, then the SRD,
//! with suggestions when nothing matches.

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::names::name_key;
use crate::model::spell::SpellDef;

/// Finds a spell by name: the caster's mastered (synthesized) spells first, then the SRD.
pub fn find_spell(call: &Call<'_>, caster: &Character, name: &str) -> Result<SpellDef> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 80 {
        return Err(EngineError::invalid(
            "spell",
            "name the spell (1–80 characters), e.g. \"Fireball\"",
        ));
    }
    let key = name_key(name);
    if let Some(s) = caster
        .mastered_spells
        .iter()
        .find(|s| name_key(&s.name) == key)
    {
        return Ok(s.clone());
    }
    let srd = call.require_compendium(
        "casting SRD spells",
        "only spells mastered with synthesize_spell can be cast without it",
    )?;
    if let Some(s) = srd.spell(name) {
        return Ok(SpellDef::from_srd(s));
    }
    let suggestions: Vec<String> = srd
        .spells()
        .iter()
        .filter(|s| {
            let k = name_key(&s.name);
            k.contains(&key) || key.contains(&k) || strsim_close(&k, &key)
        })
        .take(5)
        .map(|s| s.name.clone())
        .collect();
    Err(EngineError::NotFound {
        kind: "spell",
        given: name.to_string(),
        suggestions,
    })
}

fn strsim_close(a: &str, b: &str) -> bool {
    // A cheap closeness test: same first letter and length within 2, most letters shared.
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.is_empty() || b.is_empty() || a[0] != b[0] || a.len().abs_diff(b.len()) > 2 {
        return false;
    }
    let shared = a.iter().filter(|c| b.contains(c)).count();
    shared * 10 >= a.len().max(b.len()) * 8
}
