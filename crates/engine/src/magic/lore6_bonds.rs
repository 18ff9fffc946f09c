//! The `lore` spells that bind a creature or an object to the caster (see [`super::lore6`]):
//! Planar Binding (a celestial, elemental, fey or fiend makes a CHA save; on a failure it is
//! charmed and serves for the slot's time) and Instant Summons (an item marked, then called back
//! when the sapphire is crushed: to the hand from a corpse, or the holder named when a living
//! creature carries it).

use serde_json::json;
use tabletop_rules::d20::{D20Request, D20Test, roll_d20_test};
use tabletop_rules::{Ability, Condition};

use super::lore6_kit::{DAY_ROUNDS, mark, one_target};
use crate::combat::actions::ActionRequest;
use crate::effects::Duration;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, ConditionEntry};
use crate::model::names::name_key;
use crate::model::spell::SpellDef;

type Done = (String, Vec<String>, serde_json::Value);

/// Planar Binding's service by slot: 24 hours at 5th, 10 days at 6th, 30 at 7th, 180 at 8th,
/// a year and a day at 9th (in days).
pub fn service_days(slot: u8) -> u32 {
    match slot {
        0..=5 => 1,
        6 => 10,
        7 => 30,
        8 => 180,
        _ => 366,
    }
}

/// Planar Binding: the CHA save, and on a failure the charmed service for the slot's days.
pub fn binding(
    call: &mut Call<'_>,
    caster: &mut Character,
    def: &SpellDef,
    req: &ActionRequest,
    dc: i32,
    slot: u8,
) -> Result<Done> {
    let mut t = one_target(call, req, &def.name)?;
    let kind = super::targets::creature_type(&t).unwrap_or_default();
    if !["celestial", "elemental", "fey", "fiend"]
        .iter()
        .any(|k| kind.starts_with(k))
    {
        return Err(EngineError::Rule(format!(
            "Planar Binding binds a celestial, elemental, fey or fiend; {} is a {kind}",
            t.name
        )));
    }
    let stats = t.effective();
    let r = D20Request::new(D20Test::Save {
        ability: Ability::Charisma,
    })
    .dc(dc)
    .labelled("Charisma save (Planar Binding)");
    let out = roll_d20_test(&stats, &r, call.rng()?);
    call.record_roll(&out);
    let saved = out.success.unwrap_or(false);
    let days = service_days(slot);
    let mut lines = vec![format!("{}: {}", t.name, out.summary())];
    let headline = if saved {
        format!(
            "{} casts Planar Binding on {}: {} resists; no service.",
            caster.name, t.name, t.name
        )
    } else {
        let rounds = DAY_ROUNDS.saturating_mul(days);
        let source = format!("Planar Binding ({})", caster.name);
        t.conditions
            .retain(|c| !(c.condition == Condition::Charmed && c.source == source));
        t.conditions.push(ConditionEntry {
            by: Some(caster.id.clone()),
            ends_on: None,
            condition: Condition::Charmed,
            level: None,
            source,
            duration: Some(Duration::Rounds { remaining: rounds }),
        });
        crate::combat::put_sheet(call, &t)?;
        call.record_change("character", &t.id, "bound by Planar Binding");
        lines.push(
            "the bound creature follows the caster's instructions; twisting their words is the DM's"
                .into(),
        );
        format!(
            "{} casts Planar Binding on {}: {} fails and is charmed, bound to serve {} for {} day{}.",
            caster.name,
            t.name,
            t.name,
            caster.name,
            days,
            if days == 1 { "" } else { "s" }
        )
    };
    Ok((
        headline,
        lines,
        json!({ "binding": { "target": t.name, "saved": saved, "days": days, "dc": dc } }),
    ))
}

/// The effect that marks an item for Instant Summons.
fn mark_name(item: &str) -> String {
    format!("Instant Summons: {item}")
}

/// The caster's Instant Summons mark on `item`, if any.
fn marked(caster: &Character, item: &str) -> Option<String> {
    let key = name_key(item);
    caster
        .effects
        .iter()
        .find(|e| {
            e.name
                .strip_prefix("Instant Summons: ")
                .is_some_and(|n| name_key(n) == key)
        })
        .map(|e| e.name.clone())
}

/// Whether this request is Instant Summons' trigger (the sapphire crushed as an action for an
/// item the caster marked): no slot and no casting time.
pub fn is_trigger(caster: &Character, def: &SpellDef, req: &ActionRequest) -> bool {
    crate::catalog::spells::index_of(&def.name) == "instant-summons"
        && req
            .item
            .as_deref()
            .is_some_and(|i| marked(caster, i.trim()).is_some())
}

/// Instant Summons: the first casting naming an item the caster carries marks it; naming a
/// marked item crushes the sapphire (an action: no slot, see [`is_trigger`]) and calls the item.
pub fn summons(call: &mut Call<'_>, caster: &mut Character, req: &ActionRequest) -> Result<Done> {
    let Some(item) = req.item.as_deref().map(str::trim).filter(|s| !s.is_empty()) else {
        return Err(EngineError::invalid(
            "item",
            "Instant Summons needs item: the object to mark (or, once marked, to call back)",
        ));
    };
    let key = name_key(item);
    let marked = marked(caster, item);
    let who = caster.name.clone();
    let Some(marked) = marked else {
        let it = caster
            .inventory
            .items
            .iter()
            .find(|i| name_key(&i.name) == key)
            .ok_or_else(|| {
                EngineError::invalid(
                    "item",
                    format!("{who} must touch the object to mark: carries no '{item}'"),
                )
            })?;
        if it.weight > 10.0 {
            return Err(EngineError::Rule(format!(
                "{} weighs {} lb; Instant Summons marks an object of 10 pounds or less",
                it.name, it.weight
            )));
        }
        let name = mark_name(&it.name);
        let item_name = it.name.clone();
        mark(call, caster, &who, name, Duration::UntilDispelled)?;
        let sapphire = caster
            .inventory
            .items
            .iter()
            .any(|i| name_key(&i.name).contains("sapphire"));
        return Ok((
            format!(
                "{who} casts Instant Summons: {item_name} is marked with the sapphire's invisible sigil."
            ),
            vec![if sapphire {
                "to call it back: cast again naming the item (an action; the sapphire is crushed, no slot spent)".into()
            } else {
                format!(
                    "{who} carries no sapphire (1,000 gp): the DM decides whether the mark holds"
                )
            }],
            json!({ "summons": { "marked": item_name } }),
        ));
    };
    let item_name = marked.trim_start_matches("Instant Summons: ").to_string();
    if caster
        .inventory
        .items
        .iter()
        .any(|i| name_key(&i.name) == key)
    {
        return Err(EngineError::Rule(format!(
            "{who} already carries {item_name}; the sapphire is kept"
        )));
    }
    let crushed = super::life6_items::consume(caster, "sapphire", 1000, "Instant Summons");
    let campaign = call.campaign();
    let names = call.tx_ref().character_names(campaign)?;
    let mut holder: Option<Character> = None;
    for (id, _) in names {
        if id == caster.id {
            continue;
        }
        let c = crate::combat::sheet(call, &id)?;
        if c.inventory.items.iter().any(|i| name_key(&i.name) == key) {
            holder = Some(c);
            break;
        }
    }
    caster.effects.retain(|e| e.name != marked);
    let (headline, details) = match holder {
        Some(mut h) if h.dead => {
            let pos = h
                .inventory
                .items
                .iter()
                .position(|i| name_key(&i.name) == key)
                .unwrap_or(0);
            let mut it = h.inventory.items.remove(pos);
            it.slot = None;
            it.attuned = false;
            crate::combat::put_sheet(call, &h)?;
            call.record_change("character", &h.id, format!("{} vanishes", it.name));
            let line = format!(
                "{who} crushes the sapphire: {} vanishes from {}'s body and appears in {who}'s hand.",
                it.name, h.name
            );
            caster.inventory.items.push(it);
            (
                line,
                json!({ "summons": { "item": item_name, "from": h.name } }),
            )
        }
        Some(h) => (
            format!(
                "{who} crushes the sapphire: {} carries {item_name}, so it stays; {who} learns who holds it and roughly where (the DM says where {} is).",
                h.name, h.name
            ),
            json!({ "summons": { "item": item_name, "heldBy": h.name } }),
        ),
        None => (
            format!(
                "{who} crushes the sapphire: no creature carries {item_name}; the DM places it in {who}'s hand if it still exists (add it with manage_inventory)."
            ),
            json!({ "summons": { "item": item_name, "lost": true } }),
        ),
    };
    Ok((headline, vec![crushed, "the mark ends".into()], details))
}
