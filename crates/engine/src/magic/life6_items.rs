//! The creation spells that act on inventories (issue 17, lane "spells6c"): Goodberry and
//! Create Food and Water put their items in the caster's inventory with the hour they spoil
//! (the clock takes them off, `model::item_state::spoil`); Create or Destroy Water makes or
//! pours out gallons; Purify Food and Drink cleans tainted food; Mending repairs a broken item;
//! Fabricate turns a carried material into its product.

use super::plan::{CastPlan, CastReport};
use crate::catalog::life6::MadeItem;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::effects::{ActiveEffect, Duration};
use crate::model::inventory::{Item, ItemType};
use crate::model::item_state::{self, ItemState};
use crate::model::memory::HOUR;
use crate::model::names::name_key;
use tabletop_rules::modifiers::{Modifier, ModifierKind};

/// The world clock now, in seconds.
pub(super) fn now(call: &Call<'_>) -> Result<u64> {
    Ok(call
        .tx_ref()
        .clock(call.campaign())?
        .unwrap_or_default()
        .seconds)
}

/// Adds `item` to `c`'s inventory: onto a stack of the same name and state, else as its own.
fn put(call: &mut Call<'_>, c: &mut Character, mut item: Item) -> Result<()> {
    if let Some(s) = c.inventory.items.iter_mut().find(|i| {
        i.slot.is_none()
            && i.stackable
            && name_key(&i.name) == name_key(&item.name)
            && i.state == item.state
            && i.heal == item.heal
    }) {
        s.quantity = s.quantity.saturating_add(item.quantity);
        return Ok(());
    }
    item.id = call.new_id("it")?;
    c.inventory.items.push(item);
    Ok(())
}

fn made(m: &MadeItem, quantity: u32, expires_at: Option<u64>) -> Item {
    let mut i = crate::inventory::catalog::plain(&m.name);
    i.item_type = if m.heal.is_some() || m.lasts_hours.is_some() {
        ItemType::Consumable
    } else {
        ItemType::AdventuringGear
    };
    i.quantity = quantity;
    i.stackable = true;
    i.weight = m.weight;
    i.heal = m.heal.clone();
    i.description = m.description.clone();
    i.state = expires_at.map(|t| ItemState {
        expires_at: Some(t),
        ..Default::default()
    });
    i
}

/// Goodberry, Create Food and Water: the items appear in the caster's inventory.
pub fn create(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    items: &[MadeItem],
    report: &mut CastReport,
) -> Result<()> {
    let up = u32::from(plan.slot_level.saturating_sub(plan.spell.level));
    let t = now(call)?;
    let mut got = Vec::new();
    for m in items {
        let n = m.quantity.saturating_add(m.per_slot.saturating_mul(up));
        let expires = m
            .lasts_hours
            .map(|h| t.saturating_add(u64::from(h).saturating_mul(HOUR)));
        put(call, caster, made(m, n, expires))?;
        got.push(match m.lasts_hours {
            Some(h) => format!("{} ×{n} (gone after {h} hours)", m.name),
            None => format!("{} ×{n}", m.name),
        });
    }
    report.lines.push(format!(
        "{} makes {} in {}'s inventory",
        plan.spell.name,
        got.join(" and "),
        caster.name
    ));
    Ok(())
}

/// Create or Destroy Water: with `item` naming a carried water stack, up to the gallons are
/// destroyed from it; otherwise the gallons are made in the caster's inventory.
pub fn water(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    (gallons, per_slot): (u32, u32),
    report: &mut CastReport,
) -> Result<()> {
    let up = u32::from(plan.slot_level.saturating_sub(plan.spell.level));
    let n = gallons.saturating_add(per_slot.saturating_mul(up));
    let Some(name) = plan.choice.item.as_deref() else {
        let m = MadeItem {
            name: "Water (gallon)".into(),
            quantity: n,
            per_slot: 0,
            heal: None,
            lasts_hours: None,
            weight: 0.0,
            description: Some(
                "clean water made by Create or Destroy Water (8 lb a gallon where it is kept)"
                    .into(),
            ),
        };
        put(call, caster, made(&m, n, None))?;
        report.lines.push(format!(
            "{} makes {n} gallons of clean water: Water (gallon) ×{n} in {}'s inventory (to destroy water instead, name the carried water in item)",
            plan.spell.name, caster.name
        ));
        return Ok(());
    };
    let i = carried(caster, name)?;
    let it = &mut caster.inventory.items[i];
    if !it.name.to_lowercase().contains("water") {
        return Err(EngineError::invalid(
            "item",
            format!(
                "{} destroys water; {} is not water",
                plan.spell.name, it.name
            ),
        ));
    }
    let gone = it.quantity.min(n);
    it.quantity -= gone;
    let label = it.name.clone();
    let left = it.quantity;
    if left == 0 {
        caster.inventory.items.remove(i);
    }
    report.lines.push(format!(
        "{} destroys {gone} of {label} ({left} left; it destroys up to {n} gallons)",
        plan.spell.name
    ));
    Ok(())
}

/// The index of the carried item named `name`, or a refusal naming what is carried.
fn carried(c: &Character, name: &str) -> Result<usize> {
    crate::inventory::ops::find_item(
        c,
        crate::inventory::ops::ItemRef {
            id: None,
            name: Some(name),
        },
    )
}

/// Purify Food and Drink: every tainted food or drink carried by the caster and the named
/// targets is made clean.
pub fn purify(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    report: &mut CastReport,
) -> Result<()> {
    const MARKS: &[&str] = &["poisoned", "diseased", "tainted", "spoiled"];
    let mut cleaned = Vec::new();
    let mut clean = |c: &mut Character| -> bool {
        let mut any = false;
        for i in &mut c.inventory.items {
            if item_state::is_tainted(&i.name, i.state.as_ref()) {
                let was = i.name.clone();
                i.name = item_state::unmarked(&i.name, MARKS);
                if let Some(s) = i.state.as_mut() {
                    s.tainted = false;
                }
                cleaned.push(format!("{was} → {} ({})", i.name, c.name));
                any = true;
            }
        }
        any
    };
    clean(caster);
    for id in super::targets::unique(&plan.targets) {
        if id == caster.id {
            continue;
        }
        let mut t = crate::combat::sheet(call, &id)?;
        if clean(&mut t) {
            crate::combat::put_sheet(call, &t)?;
            call.record_change("character", &t.id, format!("{} purified", plan.spell.name));
        }
    }
    report.lines.push(if cleaned.is_empty() {
        format!(
            "{}: no poisoned or diseased food or drink is carried (an item is tainted when its name says poisoned, diseased, tainted or spoiled)",
            plan.spell.name
        )
    } else {
        format!(
            "{} makes clean: {}",
            plan.spell.name,
            cleaned.join("; ")
        )
    });
    Ok(())
}

/// Mending: the broken item named in `item`, carried by a target or the caster, is whole.
pub fn mend(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    report: &mut CastReport,
) -> Result<()> {
    const MARKS: &[&str] = &["broken", "torn", "cracked"];
    let Some(name) = plan.choice.item.as_deref() else {
        return Err(EngineError::invalid(
            "item",
            format!("name the broken item {} repairs (item)", plan.spell.name),
        ));
    };
    // The item is looked for on the named targets first, then on the caster.
    let mut holder = None;
    for id in super::targets::unique(&plan.targets) {
        if id != caster.id && holder.is_none() {
            let t = crate::combat::sheet(call, &id)?;
            if carried(&t, name).is_ok() {
                holder = Some(t);
            }
        }
    }
    let who = holder.as_mut().unwrap_or(caster);
    let i = carried(who, name)?;
    let it = &mut who.inventory.items[i];
    if !item_state::is_broken(&it.name, it.state.as_ref()) {
        return Err(EngineError::Rule(format!(
            "{} is not broken: {} repairs a break or tear (an item is broken when its name or state says so)",
            it.name, plan.spell.name
        )));
    }
    let was = it.name.clone();
    it.name = item_state::unmarked(&it.name, MARKS);
    if let Some(s) = it.state.as_mut() {
        s.broken = false;
    }
    let line = format!(
        "{} repairs {was}: {} is whole again ({}'s)",
        plan.spell.name, it.name, who.name
    );
    if let Some(h) = holder {
        crate::combat::put_sheet(call, &h)?;
        call.record_change("character", &h.id, line.clone());
    }
    report.lines.push(line);
    Ok(())
}

/// Fabricate: the carried material named in `item` is used up and the product named in
/// `description` takes its place, of the same weight.
pub fn fabricate(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    report: &mut CastReport,
) -> Result<()> {
    let (Some(material), Some(product)) = (
        plan.choice.item.as_deref(),
        plan.choice.words.as_deref().map(str::trim),
    ) else {
        return Err(EngineError::invalid(
            "item",
            format!(
                "{} turns a carried raw material into a product: name the material in item and the product in description",
                plan.spell.name
            ),
        ));
    };
    if product.is_empty() || product.chars().count() > 80 {
        return Err(EngineError::invalid(
            "description",
            "name the product (1–80 characters)",
        ));
    }
    let i = carried(caster, material)?;
    let it = caster.inventory.items.remove(i);
    let mut p = crate::inventory::catalog::plain(product);
    p.weight = it.total_weight();
    p.description = Some(format!("fabricated from {} ×{}", it.name, it.quantity));
    put(call, caster, p)?;
    report.lines.push(format!(
        "{} turns {} ×{} into {product} ({} lb) in {}'s inventory",
        plan.spell.name,
        it.name,
        it.quantity,
        it.total_weight(),
        caster.name
    ));
    Ok(())
}

/// Takes one `item` worth at least `gp` from the caster's inventory; says what happened.
pub fn consume(caster: &mut Character, item: &str, gp: u32, spell: &str) -> String {
    let key = item.to_lowercase();
    let pos = caster.inventory.items.iter().position(|i| {
        i.name.to_lowercase().contains(&key)
            && i.quantity > 0
            && i.value.is_some_and(|v| v >= f64::from(gp))
    });
    match pos {
        Some(p) => {
            let it = &mut caster.inventory.items[p];
            it.quantity -= 1;
            let name = it.name.clone();
            if it.quantity == 0 {
                caster.inventory.items.remove(p);
            }
            format!(
                "{name} ({gp} gp or more) consumed from {}'s inventory",
                caster.name
            )
        }
        None => format!(
            "{spell} needs a {item} worth {gp} gp, consumed; {} has none in their inventory — the DM decides whether the casting happens",
            caster.name
        ),
    }
}

/// An active effect of `name` with these modifiers.
pub(super) fn effect(
    call: &mut Call<'_>,
    name: &str,
    source: String,
    modifiers: Vec<ModifierKind>,
    duration: Duration,
) -> Result<ActiveEffect> {
    Ok(ActiveEffect {
        id: call.new_id("ef")?,
        name: name.to_string(),
        source: Some(source),
        modifiers: modifiers
            .into_iter()
            .map(|k| Modifier::new(name, k))
            .collect(),
        duration,
        ends_on: None,
        ends_when_attacked: false,
        damaged_since_turn: false,
        grant: None,
    })
}
