//! Items that cast spells (wands, staffs, rings, the Circlet of Blasting): using one spends the
//! charges its catalog entry names and resolves the spell through the same mechanics as
//! cast_spell and use_scroll — on the grid inside an encounter, on the named targets outside —
//! with the item's save DC and attack bonus where the SRD gives them, else the wielder's. Extra
//! charges buy higher slot levels where the item allows it (Wand of Magic Missiles: 1 charge for
//! 1st level, +1 level per extra charge). No slot is spent. Spending the last charge of a wand
//! or staff rolls a d20 and a 1 destroys it. A spell the spell catalog leaves narrative resolves
//! as narrative, with its reason.

use super::spellcasting::{self, CasterNumbers, SlotUse};
use crate::catalog::items::{self as item_catalog, ItemEntry, ItemSpell, LastCharge};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::inventory::Item;
use crate::model::names::name_key;
use crate::model::slots::ordinal;
use crate::model::spell::SpellDef;
use tabletop_rules::Ability;

/// The catalog entry of a carried item that casts spells (looked up by its SRD name), if any.
pub fn entry_of(call: &Call<'_>, item: &Item) -> Option<&'static ItemEntry> {
    let srd = call.compendium()?;
    let m = srd.magic_item(&item.name)?;
    item_catalog::entry(&m.index).filter(|e| !e.spells.is_empty())
}

/// One casting from an item, decided before anything is spent or rolled.
#[derive(Debug, Clone)]
pub struct ItemCast {
    /// Index of the item in the caster's inventory.
    pub item_index: usize,
    /// The item's name.
    pub item_name: String,
    /// The spell, as the SRD has it.
    pub def: SpellDef,
    /// Save DC and attack bonus used.
    pub numbers: CasterNumbers,
    /// The slot level it is cast at (nothing spent).
    pub slot: SlotUse,
    /// Charges it costs.
    pub charges: u32,
    /// What the last charge does.
    pub last_charge: Option<LastCharge>,
    /// Where the numbers come from ("wand DC 15", "the wielder's DC 14").
    pub numbers_note: String,
    /// What of the item the engine leaves to the DM.
    pub left_to_dm: Option<String>,
}

fn pick<'e>(e: &'e ItemEntry, item: &str, spell: Option<&str>) -> Result<&'e ItemSpell> {
    let list = || {
        e.spells
            .iter()
            .map(|s| {
                if s.charges == 0 {
                    format!("{} (no charge)", s.spell)
                } else {
                    format!("{} ({} charge{})", s.spell, s.charges, plural(s.charges))
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    match spell {
        Some(name) => {
            let key = name_key(name).replace(' ', "-");
            e.spells
                .iter()
                .find(|s| s.spell == key || name_key(&s.spell) == name_key(name))
                .ok_or_else(|| {
                    EngineError::invalid(
                        "spell",
                        format!("{item} does not cast '{name}'; it casts: {}", list()),
                    )
                })
        }
        None if e.spells.len() == 1 => Ok(&e.spells[0]),
        None => Err(EngineError::invalid(
            "spell",
            format!("say which spell {item} casts: {}", list()),
        )),
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Plans casting `spell` (or the item's only spell) from the item at `item_index` of `caster`,
/// at `level` when extra charges raise it. Checks attunement, charges and levels.
pub fn plan(
    call: &Call<'_>,
    caster: &Character,
    item_index: usize,
    spell: Option<&str>,
    level: Option<u8>,
) -> Result<ItemCast> {
    let item = caster
        .inventory
        .items
        .get(item_index)
        .ok_or_else(|| EngineError::invalid("itemName", "no such item"))?;
    let e = entry_of(call, item).ok_or_else(|| {
        EngineError::Rule(format!("{} casts no spell the engine knows", item.name))
    })?;
    if item.requires_attunement && !item.attuned {
        return Err(EngineError::Rule(format!(
            "{} works only for a creature attuned to it: attune it first (manage_inventory attune)",
            item.name
        )));
    }
    let s = pick(e, &item.name, spell)?;
    let srd = call.require_compendium("casting spells from items", "none")?;
    let Some(sp) = srd.spell(&s.spell) else {
        return Err(EngineError::NotFound {
            kind: "spell",
            given: s.spell.clone(),
            suggestions: Vec::new(),
        });
    };
    let def = SpellDef::from_srd(sp);
    let base = s.level.unwrap_or(def.level).max(def.level);
    let top = if s.upcast {
        s.max_level.unwrap_or(9).min(9)
    } else {
        base
    };
    let at = level.unwrap_or(base);
    if def.level > 0 && !(base..=top).contains(&at) {
        return Err(EngineError::invalid(
            "slotLevel",
            if base == top {
                format!(
                    "{} casts {} only at {} level",
                    item.name,
                    def.name,
                    ordinal(base)
                )
            } else {
                format!(
                    "{} casts {} at {}–{} level (one more level per extra charge)",
                    item.name,
                    def.name,
                    ordinal(base),
                    ordinal(top)
                )
            },
        ));
    }
    let charges = s
        .charges
        .checked_add(u32::from(at.saturating_sub(base)))
        .ok_or_else(|| EngineError::invalid("slotLevel", "too many charges"))?;
    if charges > 0 {
        let have = item.charges.as_ref().map_or(0, |c| c.current);
        if have < charges {
            let max = item.charges.as_ref().map_or(0, |c| c.max);
            return Err(EngineError::Rule(format!(
                "{} has {have}/{max} charges, not the {charges} {} at {} level needs; they come back at dawn",
                item.name,
                def.name,
                ordinal(at.max(1))
            )));
        }
    }
    // The item's numbers where the SRD gives them, else the wielder's.
    let own = spellcasting::caster_numbers(call, caster);
    let (numbers, note) = match (e.spell_dc, e.spell_attack, own) {
        (dc, atk, Ok(n)) => {
            let numbers = CasterNumbers {
                save_dc: dc.unwrap_or(n.save_dc),
                attack_bonus: atk.unwrap_or(n.attack_bonus),
                fixed: atk.is_some(),
                ..n
            };
            (numbers, numbers_note(dc, atk, &numbers))
        }
        (Some(dc), atk, Err(_)) => {
            // A non-caster using a wand with its own numbers: its spells use no modifier.
            let numbers = CasterNumbers {
                ability: Ability::Intelligence,
                modifier: 0,
                save_dc: dc,
                attack_bonus: atk.unwrap_or(0),
                fixed: true,
                worn_attack_bonus: 0,
            };
            (numbers, numbers_note(Some(dc), atk, &numbers))
        }
        (None, _, Err(err))
            if def.save.is_some() || def.attack.is_some() || !def.heal_at_slot.is_empty() =>
        {
            return Err(EngineError::Rule(format!(
                "{} casts {} with the wielder's spell save DC and attack bonus, and {} has none ({err})",
                item.name, def.name, caster.name
            )));
        }
        (None, atk, Err(_)) => {
            let numbers = CasterNumbers {
                ability: Ability::Intelligence,
                modifier: 0,
                save_dc: 0,
                attack_bonus: atk.unwrap_or(0),
                fixed: true,
                worn_attack_bonus: 0,
            };
            (numbers, "no save or attack".to_string())
        }
    };
    Ok(ItemCast {
        item_index,
        item_name: item.name.clone(),
        slot: SlotUse {
            level: if def.level == 0 { 0 } else { at },
            pact: false,
            spent: false,
        },
        def,
        numbers,
        charges,
        last_charge: e.last_charge,
        numbers_note: note,
        left_to_dm: e.reason.clone(),
    })
}

fn numbers_note(dc: Option<i32>, atk: Option<i32>, n: &CasterNumbers) -> String {
    let d = if dc.is_some() {
        format!("item's save DC {}", n.save_dc)
    } else {
        format!("the wielder's save DC {}", n.save_dc)
    };
    let a = if atk.is_some() {
        format!("item's attack +{}", n.attack_bonus)
    } else {
        format!("the wielder's attack +{}", n.attack_bonus)
    };
    format!("{d}, {a}")
}

/// Spends the charges of `cast` on `caster`'s item and, when that was the last one, applies
/// what the last charge does (a d20 roll of 1 destroys the item). Returns what happened.
pub fn spend(call: &mut Call<'_>, caster: &mut Character, cast: &ItemCast) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    let Some(item) = caster.inventory.items.get_mut(cast.item_index) else {
        return Ok(lines);
    };
    let Some(ch) = item.charges.as_mut().filter(|_| cast.charges > 0) else {
        lines.push(format!("{}: no charge spent", item.name));
        return Ok(lines);
    };
    ch.current = ch.current.saturating_sub(cast.charges);
    lines.push(format!(
        "{} spends {} charge{} ({}/{} left)",
        item.name,
        cast.charges,
        plural(cast.charges),
        ch.current,
        ch.max
    ));
    if ch.current > 0 {
        return Ok(lines);
    }
    let destroyed = match cast.last_charge {
        None => false,
        Some(LastCharge::Destroyed) => true,
        Some(LastCharge::DestroyedOn1 | LastCharge::MundaneOn1) => {
            let r = tabletop_rules::dice::roll("1d20", call.rng()?)?;
            call.record_roll(&r);
            let one = r.total == 1;
            lines.push(format!(
                "last charge spent: d20 = {}{}",
                r.total,
                if one { "" } else { " (not a 1: it survives)" }
            ));
            one
        }
    };
    if destroyed && cast.last_charge == Some(LastCharge::MundaneOn1) {
        let name = item.name.clone();
        item.name = format!("{name} (mundane)");
        item.charges = None;
        item.effects.clear();
        item.requires_attunement = false;
        item.attuned = false;
        lines.push(format!("{name} loses its magic and becomes mundane"));
    } else if destroyed {
        let name = item.name.clone();
        caster.inventory.items.remove(cast.item_index);
        lines.push(format!("{name} is destroyed"));
    }
    Ok(lines)
}
