//! `manage_inventory use` of an item: a spell cast from it ([`super::item_spells`]) when the
//! item casts spells, else the inventory's own use (healing, charges, potions).

use serde::Serialize;

use super::item_spells::{plan, spend};
use super::scroll::{self, Targeting};
use crate::characters::resolve_with_fields;
use crate::combat::actions::{ActionRequest, Who};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::CharacterRef;

/// A request to cast a spell from a carried item.
#[derive(Debug, Clone, Default)]
pub struct ItemSpellRequest {
    /// The wielder.
    pub caster: Who,
    /// The item, by id.
    pub item_id: Option<String>,
    /// The item, by name.
    pub item_name: Option<String>,
    /// The spell (default: the item's only one).
    pub spell: Option<String>,
    /// The slot level extra charges buy.
    pub level: Option<u8>,
    /// Where it lands.
    pub targeting: Targeting,
}

/// What casting from an item did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemSpellOutcome {
    /// The wielder.
    pub caster: String,
    /// The item.
    pub item: String,
    /// The spell.
    pub spell: String,
    /// The slot level it was cast at.
    pub level: u8,
    /// Charges spent.
    pub charges: u32,
    /// The lead line.
    pub headline: String,
    /// What followed.
    pub lines: Vec<String>,
    /// The casting's details (targets, rolls).
    #[serde(skip_serializing_if = "serde_json::Value::is_null")]
    pub details: serde_json::Value,
    /// The encounter it happened in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encounter_id: Option<String>,
}

/// Casts a spell from a carried item: inside the wielder's active encounter it takes the
/// spell's casting time and lands on the grid; outside, on the named targets.
pub fn cast_from_item(call: &mut Call<'_>, req: ItemSpellRequest) -> Result<ItemSpellOutcome> {
    let wielder = resolve_with_fields(
        call,
        CharacterRef::new(req.caster.id.as_deref(), req.caster.name.as_deref()),
        "characterId",
        "characterName",
    )?;
    let i = crate::inventory::ops::find_item(
        &wielder,
        crate::inventory::ops::ItemRef {
            id: req.item_id.as_deref(),
            name: req.item_name.as_deref(),
        },
    )?;
    let item_id = wielder.inventory.items[i].id.clone();
    let first = plan(call, &wielder, i, req.spell.as_deref(), req.level)?;
    let mut areq = ActionRequest::default();
    let mut ctx = scroll::open(call, &wielder, &req.targeting, &mut areq, first.def.cost())?;
    let mut caster = ctx.caster(&wielder);
    // The encounter's sheet may order the inventory differently: find the item again.
    let Some(i) = caster
        .inventory
        .items
        .iter()
        .position(|it| it.id == item_id)
    else {
        return Err(EngineError::invalid(
            "itemName",
            "the item is no longer carried",
        ));
    };
    let cast = plan(call, &caster, i, req.spell.as_deref(), req.level)?;
    let mut lines = spend(call, &mut caster, &cast)?;
    let name = caster.name.clone();
    let tag = format!(" ({})", cast.item_name);
    let d = scroll::deliver(
        call,
        &mut ctx,
        caster,
        cast.def.clone(),
        cast.numbers,
        cast.slot,
        &req.targeting,
        &tag,
    )?;
    lines.extend(d.lines);
    lines.push(format!("{}; no slot spent", cast.numbers_note));
    if let Some(r) = &cast.left_to_dm {
        lines.push(format!("left to the DM: {r}"));
    }
    let enc = ctx.close(call, &d.headline)?;
    Ok(ItemSpellOutcome {
        caster: name,
        item: cast.item_name,
        spell: cast.def.name,
        level: cast.slot.level,
        charges: cast.charges,
        headline: d.headline,
        lines,
        details: d.details,
        encounter_id: enc.or(d.encounter_id),
    })
}

/// `manage_inventory use`: an item that casts spells casts one (`spell`, or its only one, at
/// `level`) on `target` (or the user, or the spell's area); any other item is used by the
/// inventory's own rules (healing, charges, potions).
pub fn use_or_cast(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    r: crate::inventory::ops::ItemRef<'_>,
    target: Option<CharacterRef<'_>>,
    charges: Option<u32>,
    spell: Option<&str>,
    level: Option<u8>,
) -> Result<crate::inventory::ops::InventoryOutcome> {
    let user = crate::characters::resolve(call, who)?;
    let i = crate::inventory::ops::find_item(&user, r)?;
    // An incapacitated creature can take no actions: it drinks, reads or activates nothing itself.
    if user.effective().is_incapacitated() {
        return Err(EngineError::Rule(format!(
            "{} is incapacitated and can take no actions: it cannot use {} itself; another creature can administer a potion to it (give it the potion, then use it with targetName {})",
            user.name, user.inventory.items[i].name, user.name
        )));
    }
    let casts = super::item_spells::entry_of(call, &user.inventory.items[i]).is_some();
    if !casts {
        if spell.is_some() || level.is_some() {
            return Err(EngineError::invalid(
                if spell.is_some() {
                    "spell"
                } else {
                    "slotLevel"
                },
                format!(
                    "{} casts no spell the engine knows; use it without spell",
                    user.inventory.items[i].name
                ),
            ));
        }
        return crate::inventory::ops::use_item(call, who, r, target, charges);
    }
    if charges.is_some() {
        return Err(EngineError::invalid(
            "charges",
            "an item that casts spells spends the charges its spell costs: pass spell and slotLevel instead",
        ));
    }
    let item_id = user.inventory.items[i].id.clone();
    let targets = match target {
        Some(t) if t.id.is_some() || t.name.is_some() => vec![Who {
            id: t.id.map(str::to_string),
            name: t.name.map(str::to_string),
        }],
        _ => Vec::new(),
    };
    let out = cast_from_item(
        call,
        ItemSpellRequest {
            caster: Who {
                id: Some(user.id.clone()),
                name: None,
            },
            item_id: Some(item_id.clone()),
            item_name: None,
            spell: spell.map(str::to_string),
            level,
            targeting: Targeting {
                targets,
                ..Default::default()
            },
        },
    )?;
    let after = crate::characters::resolve(call, CharacterRef::new(Some(&user.id), None))?;
    let mut o = crate::inventory::ops::outcome(
        "use",
        &after,
        format!("{} uses {}: {}", after.name, out.item, out.headline),
        out.lines.clone(),
    );
    o.item = after
        .inventory
        .items
        .iter()
        .find(|it| it.id == item_id)
        .cloned();
    o.cast = serde_json::to_value(&out).ok();
    Ok(o)
}
