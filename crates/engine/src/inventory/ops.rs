//! `manage_inventory`: give, remove, equip, unequip, view, transfer and use, each one
//! transaction; and the weapon-attack numbers `roll_check` uses.

use serde::Serialize;
use tabletop_rules::Ability;
use tabletop_rules::damage::HealResult;
use tabletop_rules::dice::{self, DiceRoll};
use tabletop_rules::stats::Stat;

use super::catalog;
pub use super::catalog::{adopt_legacy, replace_equipment};
/// Equipping and custom item definitions live in their own files; re-exported so
/// `ops::equip`, `ops::ItemDef` and the like keep their paths.
pub use super::equip::{equip, natural_slots, unequip};
pub use super::item_def::{ItemDef, MechanicalEffects, dice_count};
pub use super::locate::{ItemRef, find_item};
pub use super::weapons::WeaponAttack;
use super::weapons::{weapon_attack, weapon_proficiency};
use crate::characters::{resolve, resolve_with_fields};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterRef};
use crate::model::inventory::{Currency, Item, carrying_capacity};
use crate::model::inventory::{ItemType, Recharge};
use crate::model::names::name_key;
use crate::update;

/// What to give.
#[derive(Debug, Clone, Default)]
pub struct GiveRequest {
    /// A custom item.
    pub item: Option<ItemDef>,
    /// An SRD item by name (fuzzy).
    pub srd_name: Option<String>,
    /// How many (overrides the definition's).
    pub quantity: Option<u32>,
    /// Coins.
    pub currency: Option<Currency>,
    /// The given weapon is silvered (adds the `silvered` weapon property).
    pub silvered: bool,
}

/// What an inventory operation did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InventoryOutcome {
    /// The operation.
    pub operation: &'static str,
    /// Whose inventory.
    pub character: String,
    /// One line: the outcome.
    pub summary: String,
    /// Each change.
    pub changes: Vec<String>,
    /// Things to know (over capacity, …).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The item concerned, after the operation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<Item>,
    /// The healing roll of a used item.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roll: Option<DiceRoll>,
    /// The healing applied through the pipeline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub healing: Option<HealResult>,
    /// The spell cast from the item (wands, staffs: see `magic::item_cast`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cast: Option<serde_json::Value>,
    /// Coins after.
    pub currency: Currency,
    /// Carried weight after, lb.
    pub weight: f64,
    /// Carrying capacity (STR × 15), lb.
    pub capacity: f64,
}

/// What a character carries, with the numbers equipment gives.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InventoryView {
    /// Whose.
    pub character: String,
    /// Equipped items.
    pub equipped: Vec<Item>,
    /// Carried items.
    pub carried: Vec<Item>,
    /// Coins.
    pub currency: Currency,
    /// Their value in gp.
    pub currency_gp: f64,
    /// Carried weight, lb.
    pub weight: f64,
    /// Carrying capacity (STR × 15), lb.
    pub capacity: f64,
    /// Attuned items (at most 3).
    pub attuned: Vec<String>,
    /// Effective AC and its sources.
    pub armor_class: Stat,
    /// Effective speed and its sources.
    pub speed: Stat,
    /// Every modifier the equipment gives, "Ring of Protection: +1 AC".
    pub bonuses: Vec<String>,
    /// Attacks with the equipped weapons.
    pub attacks: Vec<WeaponAttack>,
}

const COIN_NAMES: [(&str, usize); 5] = [("cp", 0), ("sp", 1), ("ep", 2), ("gp", 3), ("pp", 4)];

/// Coins named as an item ("Gold", "gp", "Silver Pieces") → the denomination index.
fn coin_kind(name: &str) -> Option<usize> {
    let k = name_key(name);
    let k = k
        .trim_end_matches(" pieces")
        .trim_end_matches(" piece")
        .trim_end_matches(" coins")
        .trim_end_matches(" coin");
    match k {
        "copper" | "cp" => Some(0),
        "silver" | "sp" => Some(1),
        "electrum" | "ep" => Some(2),
        "gold" | "gp" => Some(3),
        "platinum" | "pp" => Some(4),
        _ => COIN_NAMES.iter().find(|(n, _)| *n == k).map(|(_, i)| *i),
    }
}

fn coins(i: usize, n: u64) -> Currency {
    let mut c = Currency::default();
    match i {
        0 => c.cp = n,
        1 => c.sp = n,
        2 => c.ep = n,
        3 => c.gp = n,
        _ => c.pp = n,
    }
    c
}

pub(super) fn load(call: &Call<'_>, who: CharacterRef<'_>) -> Result<Character> {
    let mut c = resolve(call, who)?;
    adopt_legacy(call, &mut c);
    Ok(c)
}

pub(super) fn save(call: &mut Call<'_>, c: &Character, changes: &[String]) -> Result<()> {
    let campaign = call.campaign();
    call.tx().put_character(campaign, c)?;
    call.record_change("character", &c.id, changes.join("; "));
    Ok(())
}

fn capacity(c: &Character) -> f64 {
    carrying_capacity(c.effective().score(Ability::Strength))
}

pub(crate) fn outcome(
    op: &'static str,
    c: &Character,
    summary: String,
    changes: Vec<String>,
) -> InventoryOutcome {
    let mut warnings = Vec::new();
    let (w, cap) = (c.inventory.weight(), capacity(c));
    if w > cap {
        warnings.push(format!(
            "{} carries {w:.1} lb, over the carrying capacity of {cap:.0} lb (STR × 15): speed 5 ft until lightened",
            c.name
        ));
    }
    InventoryOutcome {
        operation: op,
        character: c.name.clone(),
        summary,
        changes,
        warnings,
        item: None,
        roll: None,
        healing: None,
        cast: None,
        currency: c.inventory.currency,
        weight: (w * 100.0).round() / 100.0,
        capacity: cap,
    }
}

fn check_lift(c: &Character) -> Result<()> {
    let (w, cap) = (c.inventory.weight(), capacity(c));
    if w > 2.0 * cap {
        return Err(EngineError::Rule(format!(
            "{} would carry {w:.1} lb, more than twice the carrying capacity of {cap:.0} lb (the most a creature can push, drag or lift); leave something behind or give it to someone else",
            c.name
        )));
    }
    Ok(())
}

/// Adds `item` to `c`, merging it into an identical carried stack when it stacks. Returns the
/// index of the stack it ended in.
pub(crate) fn put_item(call: &mut Call<'_>, c: &mut Character, mut item: Item) -> Result<usize> {
    if item.stackable
        && let Some(i) = c
            .inventory
            .items
            .iter()
            .position(|it| it.slot.is_none() && it.stackable && it.same_kind(&item))
    {
        let stack = &mut c.inventory.items[i];
        stack.quantity = stack.quantity.saturating_add(item.quantity);
        return Ok(i);
    }
    if item.id.is_empty() {
        item.id = call.new_id("it")?;
    }
    c.inventory.items.push(item);
    Ok(c.inventory.items.len() - 1)
}

/// Gives an item (custom or SRD) and/or coins.
pub fn give(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    req: GiveRequest,
) -> Result<InventoryOutcome> {
    let mut c = load(call, who)?;
    let mut changes = Vec::new();
    let mut note = None;
    if let Some(cur) = &req.currency {
        c.inventory.currency.add(cur);
        changes.push(format!("received {cur}"));
    }
    let item = match (req.item, req.srd_name) {
        (Some(_), Some(_)) => {
            return Err(EngineError::invalid(
                "item",
                "give either item (a definition) or itemName (an SRD item), not both",
            ));
        }
        // A definition that is only a name the SRD knows ("Plate Armor") is that SRD item, not
        // a weightless custom one with no numbers.
        (Some(def), None)
            if def
                == (super::item_def::ItemDef {
                    name: def.name.clone(),
                    quantity: def.quantity,
                    ..Default::default()
                }) =>
        {
            match call
                .compendium()
                .and_then(|comp| catalog::lookup(comp, &def.name).ok())
            {
                Some(found) => {
                    note = Some(format!(
                        "item gave only a name: the SRD's {} was given (define its numbers in item for a custom one)",
                        found.item.name
                    ));
                    let mut it = found.item;
                    if let Some(q) = def.quantity {
                        it.quantity = q;
                    }
                    Some(it)
                }
                None => Some(def.build()?),
            }
        }
        (Some(def), None) => Some(def.build()?),
        (None, Some(name)) => {
            let comp = call.require_compendium(
                "giving an SRD item by name",
                "a custom item definition in item",
            )?;
            let found = catalog::lookup(comp, &name)?;
            note = found.note;
            Some(found.item)
        }
        (None, None) => None,
    };
    let mut given = None;
    if req.silvered && item.is_none() {
        return Err(EngineError::invalid(
            "silvered",
            "silvered marks a weapon given with it: pass itemName (an SRD weapon) or item",
        ));
    }
    if let Some(mut item) = item {
        if req.silvered {
            super::silvered::silver(&mut item)?;
        }
        if let Some(q) = req.quantity {
            if !(1..=100_000).contains(&q) {
                return Err(EngineError::invalid(
                    "quantity",
                    format!("{q} is out of range; 1–100000"),
                ));
            }
            item.quantity = q;
        }
        if let Some(kind) = coin_kind(&item.name)
            && matches!(
                item.item_type,
                ItemType::Treasure | ItemType::AdventuringGear
            )
        {
            let cur = coins(kind, u64::from(item.quantity));
            c.inventory.currency.add(&cur);
            changes.push(format!("received {cur} (coins go to the purse)"));
        } else {
            let mut label = if item.quantity == 1 {
                item.name.clone()
            } else {
                format!("{} ×{}", item.name, item.quantity)
            };
            if super::silvered::is_silvered_item(&item) {
                label.push_str(" (silvered)");
            }
            let i = put_item(call, &mut c, item)?;
            changes.push(format!("received {label}"));
            given = Some(c.inventory.items[i].clone());
        }
    }
    if changes.is_empty() {
        return Err(EngineError::invalid(
            "item",
            "nothing to give: pass item (a definition), itemName (an SRD item) or currency",
        ));
    }
    if let Some(n) = note {
        changes.push(n);
    }
    check_lift(&c)?;
    save(call, &c, &changes)?;
    let summary = format!("{} {}.", c.name, changes.join("; "));
    let mut out = outcome("give", &c, summary, changes);
    out.item = given;
    Ok(out)
}

/// Removes items (default 1) and/or pays coins (making change).
pub fn remove(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    item: Option<ItemRef<'_>>,
    quantity: Option<u32>,
    currency: Option<Currency>,
) -> Result<InventoryOutcome> {
    let mut c = load(call, who)?;
    let mut changes = Vec::new();
    if let Some(cost) = currency {
        pay(&mut c, &cost, &mut changes)?;
    }
    let mut removed = None;
    if let Some(r) = item {
        let (it, ch) = take(&mut c, r, quantity)?;
        changes.extend(ch);
        changes.push(format!("removed {}", stack_label(&it)));
        let contents = take_contents(&mut c, &it.id);
        if !contents.is_empty() {
            let names: Vec<String> = contents.iter().map(stack_label).collect();
            changes.push(format!("with what it held: {}", names.join(", ")));
        }
        removed = Some(it);
    }
    if changes.is_empty() {
        return Err(EngineError::invalid(
            "itemName",
            "nothing to remove: name the item (itemName or itemId) or give currency",
        ));
    }
    save(call, &c, &changes)?;
    let summary = format!("{}: {}.", c.name, changes.join("; "));
    let mut out = outcome("remove", &c, summary, changes);
    out.item = removed;
    Ok(out)
}

/// Takes out of `c` everything stowed in the container `id` (carried away with it), when no
/// item of that id is left on `c`.
fn take_contents(c: &mut Character, id: &str) -> Vec<Item> {
    if id.is_empty() || c.inventory.items.iter().any(|x| x.id == id) {
        return Vec::new();
    }
    let (inside, rest): (Vec<Item>, Vec<Item>) = std::mem::take(&mut c.inventory.items)
        .into_iter()
        .partition(|x| x.inside.as_deref() == Some(id));
    c.inventory.items = rest;
    inside
}

fn stack_label(it: &Item) -> String {
    if it.quantity == 1 {
        it.name.clone()
    } else {
        format!("{} ×{}", it.name, it.quantity)
    }
}

fn pay(c: &mut Character, cost: &Currency, changes: &mut Vec<String>) -> Result<()> {
    if cost.is_empty() {
        return Err(EngineError::invalid(
            "currency",
            "give at least one coin, e.g. {\"gp\": 5}",
        ));
    }
    let before = c.inventory.currency;
    match c.inventory.currency.pay(cost) {
        Some(change) => {
            changes.push(if change.is_empty() {
                format!("paid {cost}")
            } else {
                format!("paid {cost} (change: {change})")
            });
            Ok(())
        }
        None => Err(EngineError::Rule(format!(
            "{} has {before} (worth {:.2} gp), not enough to pay {cost} ({:.2} gp)",
            c.name,
            before.total_gp(),
            cost.total_gp()
        ))),
    }
}

/// Takes `quantity` (default 1) of an item out of `c`'s inventory: unequipped and unattuned.
fn take(c: &mut Character, r: ItemRef<'_>, quantity: Option<u32>) -> Result<(Item, Vec<String>)> {
    let i = find_item(c, r)?;
    let have = c.inventory.items[i].quantity;
    let q = quantity.unwrap_or(1);
    if q == 0 || q > have {
        return Err(EngineError::invalid(
            "quantity",
            format!(
                "{} has {have} of {}; give a quantity of 1–{have}",
                c.name, c.inventory.items[i].name
            ),
        ));
    }
    let mut changes = Vec::new();
    let mut taken = if q == have {
        c.inventory.items.remove(i)
    } else {
        let stack = &mut c.inventory.items[i];
        stack.quantity -= q;
        let mut t = stack.clone();
        t.id = String::new();
        t.quantity = q;
        t
    };
    if let Some(s) = taken.slot.take() {
        changes.push(format!("{} unequipped from {s}", taken.name));
    }
    if let Some(bag) = taken.inside.take() {
        let bag = c
            .inventory
            .items
            .iter()
            .find(|x| x.id == bag)
            .map_or(bag, |x| x.name.clone());
        changes.push(format!("{} taken out of {bag}", taken.name));
    }
    if taken.attuned {
        taken.attuned = false;
        changes.push(format!("attunement to {} ends", taken.name));
    }
    Ok((taken, changes))
}
/// What a character carries, with every bonus its equipment gives.
pub fn view(call: &Call<'_>, who: CharacterRef<'_>) -> Result<InventoryView> {
    let c = load(call, who)?;
    let stats = c.effective();
    let layer = c.inventory.equipment_layer(&c.base_stats());
    let mut attacks = Vec::new();
    for it in c
        .inventory
        .items
        .iter()
        .filter(|i| i.slot.is_some() && i.weapon.is_some())
    {
        let prof = weapon_proficiency(call, &c, it).unwrap_or(true);
        attacks.push(weapon_attack(&c, &stats, it, prof, None, false)?);
    }
    let mut bonuses: Vec<String> = layer.modifiers.iter().map(ToString::to_string).collect();
    if let Some(ac) = &layer.armor_class {
        bonuses.insert(0, format!("base AC {} ({})", ac.value, ac.source));
    }
    for it in c.inventory.items.iter().filter(|i| i.is_active()) {
        for k in it.effects.iter().filter(|k| it.weapon_bound(k)) {
            bonuses.push(format!("{} (its own attacks): {k}", it.name));
        }
    }
    let (equipped, carried): (Vec<Item>, Vec<Item>) = c
        .inventory
        .items
        .iter()
        .cloned()
        .partition(|i| i.slot.is_some());
    Ok(InventoryView {
        character: c.name.clone(),
        equipped,
        carried,
        currency: c.inventory.currency,
        currency_gp: c.inventory.currency.total_gp(),
        weight: (c.inventory.weight() * 100.0).round() / 100.0,
        capacity: carrying_capacity(stats.score(Ability::Strength)),
        attuned: c
            .inventory
            .attuned()
            .iter()
            .map(|i| i.name.clone())
            .collect(),
        armor_class: stats.armor_class.clone(),
        speed: stats.speed.clone(),
        bonuses,
        attacks,
    })
}

/// Moves items (default 1) and/or coins from one character to another in one transaction.
pub fn transfer(
    call: &mut Call<'_>,
    from: CharacterRef<'_>,
    to: CharacterRef<'_>,
    item: Option<ItemRef<'_>>,
    quantity: Option<u32>,
    currency: Option<Currency>,
) -> Result<InventoryOutcome> {
    let mut giver = load(call, from)?;
    let mut taker = {
        let mut t = resolve_with_fields(call, to, "toCharacterId", "toCharacterName")?;
        adopt_legacy(call, &mut t);
        t
    };
    if giver.id == taker.id {
        return Err(EngineError::invalid(
            "toCharacterName",
            format!(
                "{} cannot transfer to themself; name another character",
                giver.name
            ),
        ));
    }
    let mut changes = Vec::new();
    if let Some(cost) = currency {
        pay(&mut giver, &cost, &mut changes)?;
        taker.inventory.currency.add(&cost);
        changes.push(format!("{} received {cost}", taker.name));
    }
    let mut moved = None;
    if let Some(r) = item {
        let (it, ch) = take(&mut giver, r, quantity)?;
        changes.extend(ch);
        changes.push(format!(
            "{} → {}: {}",
            giver.name,
            taker.name,
            stack_label(&it)
        ));
        let contents = take_contents(&mut giver, &it.id);
        let i = put_item(call, &mut taker, it)?;
        moved = Some(taker.inventory.items[i].clone());
        if !contents.is_empty() {
            let names: Vec<String> = contents.iter().map(stack_label).collect();
            changes.push(format!("with what it holds: {}", names.join(", ")));
            taker.inventory.items.extend(contents);
        }
    }
    if changes.is_empty() {
        return Err(EngineError::invalid(
            "itemName",
            "nothing to transfer: name the item (itemName or itemId) or give currency",
        ));
    }
    check_lift(&taker)?;
    let campaign = call.campaign();
    call.tx().put_character(campaign, &giver)?;
    call.tx().put_character(campaign, &taker)?;
    call.record_change("character", &giver.id, changes.join("; "));
    call.record_change("character", &taker.id, changes.join("; "));
    let summary = format!("{}.", changes.join("; "));
    let mut out = outcome("transfer", &giver, summary, changes);
    if taker.inventory.weight() > capacity(&taker) {
        out.warnings.push(format!(
            "{} is now over the carrying capacity: speed 5 ft until lightened",
            taker.name
        ));
    }
    out.item = moved;
    Ok(out)
}

/// Uses an item: healing (rolled, through the healing pipeline, on the user or `target`),
/// charges spent, consumables used up.
pub fn use_item(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    r: ItemRef<'_>,
    target: Option<CharacterRef<'_>>,
    charges: Option<u32>,
) -> Result<InventoryOutcome> {
    let mut c = load(call, who)?;
    let i = find_item(&c, r)?;
    let item = c.inventory.items[i].clone();
    let mut other = match target {
        Some(t) if t.id.is_some() || t.name.is_some() => {
            let o = resolve_with_fields(call, t, "targetId", "targetName")?;
            (o.id != c.id).then_some(o)
        }
        _ => None,
    };
    let spend = charges.unwrap_or(u32::from(item.charges.is_some()));
    if charges.is_some() && item.charges.is_none() {
        return Err(EngineError::invalid(
            "charges",
            format!("{} has no charges", item.name),
        ));
    }
    if let Some(ch) = &item.charges
        && ch.current < spend
    {
        let back = match ch.recharge {
            Recharge::Never => "they do not come back".to_string(),
            r => format!(
                "they come back at {}{}",
                r.key().replace('_', " "),
                ch.recharge_dice
                    .as_ref()
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default()
            ),
        };
        return Err(EngineError::Rule(format!(
            "{} has {}/{} charges, not the {spend} this use needs; {back}",
            item.name, ch.current, ch.max
        )));
    }
    // Calls creatures, or deals damage or a condition (a Horn of Blasting has no charges).
    let calls = item
        .catalog_entry()
        .is_some_and(|e| e.summon.is_some() || e.damage.is_some() || e.condition.is_some());
    if item.heal.is_none()
        && item.charges.is_none()
        && item.item_type != ItemType::Consumable
        && !calls
    {
        return Err(EngineError::Rule(format!(
            "{} has no use the engine applies (no healing, charges, or consumable effect){}; narrate it, or redefine it with heal or charges",
            item.name,
            item.effect
                .as_ref()
                .map(|e| format!("; its effect: {e}"))
                .unwrap_or_default()
        )));
    }
    if item.requires_attunement && !item.attuned && (item.heal.is_some() || item.charges.is_some())
    {
        return Err(EngineError::Rule(format!(
            "{} works only for a creature attuned to it: equip it (which attunes) first",
            item.name
        )));
    }
    let mut changes = Vec::new();
    let mut roll = None;
    let mut healing = None;
    let entry = item.catalog_entry();
    // A spell slot restored (Pearl of Power), refused before any charge is spent.
    if let Some(max) = entry.and_then(|e| e.restore_slot) {
        changes.push(super::regen::restore_slot(&mut c, max, &item.name)?);
    }
    // Creatures it calls (an Elemental Gem's elemental, a Horn of Valhalla's berserkers).
    if let Some(s) = entry.and_then(|e| e.summon.as_ref()) {
        changes.extend(super::summon::call_creatures(call, s, &c, &item.name)?);
    }
    if let Some(h) = &item.heal {
        let r = dice::roll(h, call.rng()?)?;
        call.record_roll(&r);
        let amount = u32::try_from(r.total.max(0)).unwrap_or(0);
        let result = match other.as_mut() {
            Some(o) => update::heal(o, amount, &mut changes)?,
            None => update::heal(&mut c, amount, &mut changes)?,
        };
        healing = Some(result);
        roll = Some(r);
    }
    // A potion's modifiers (and what it grants: a fly speed, darkvision) become an active
    // effect on the user for its duration; a Manual's or Tome's for good.
    let grant = entry.and_then(|e| e.grant.clone());
    let permanent = entry.is_some_and(|e| e.permanent);
    // A charged item switched on for a while (Boots of Speed: speed doubled for 10 minutes).
    let switched: Vec<tabletop_rules::modifiers::ModifierKind> = entry
        .filter(|e| e.kind == crate::catalog::items::ItemKind::Charged && e.minutes.is_some())
        .map(|e| e.modifiers.clone())
        .unwrap_or_default();
    let effects = if switched.is_empty() {
        item.effects.clone()
    } else {
        switched
    };
    if let Some(rounds) = item
        .lasts_rounds
        .filter(|_| !effects.is_empty() || grant.is_some())
    {
        let effect = crate::model::effects::ActiveEffect {
            id: call.new_id("ef")?,
            name: item.name.clone(),
            source: Some(item.name.clone()),
            modifiers: effects
                .iter()
                .map(|k| tabletop_rules::modifiers::Modifier::new(&item.name, k.clone()))
                .collect(),
            duration: if permanent {
                crate::model::effects::Duration::UntilDispelled
            } else {
                crate::model::effects::Duration::Rounds { remaining: rounds }
            },
            ends_on: None,
            ends_when_attacked: false,
            damaged_since_turn: false,
            grant: grant.clone(),
        };
        let mut what: Vec<String> = effects.iter().map(ToString::to_string).collect();
        what.extend(grant.iter().flat_map(crate::model::senses::grant_lines));
        let bearer = other.as_mut().unwrap_or(&mut c);
        bearer.effects.retain(|e| e.name != item.name);
        bearer.effects.push(effect);
        changes.push(format!(
            "{} gains {} for {} ({})",
            bearer.name,
            item.name,
            if permanent {
                "good".to_string()
            } else if rounds % 600 == 0 {
                format!("{} hour(s)", rounds / 600)
            } else {
                format!("{} minute(s)", rounds / 10)
            },
            what.join(", ")
        ));
    }
    // A potion's temporary HP, condition, rolled duration, damage and save.
    if let Some(e) = super::potion::entry_of(call, &item) {
        let bearer = other.as_mut().unwrap_or(&mut c);
        changes.extend(super::potion::drink(call, e, &item.name, bearer)?);
    }
    let it = &mut c.inventory.items[i];
    if let Some(ch) = it.charges.as_mut()
        && spend > 0
    {
        ch.current -= spend;
        changes.push(format!(
            "{} spends {spend} charge{} ({}/{} left)",
            it.name,
            if spend == 1 { "" } else { "s" },
            ch.current,
            ch.max
        ));
    }
    let mut left = Some(it.clone());
    // Its last charge spent, an item that is destroyed by it is gone (an Elemental Gem).
    if entry.and_then(|e| e.last_charge) == Some(crate::catalog::items::LastCharge::Destroyed)
        && it.charges.as_ref().is_some_and(|ch| ch.current == 0)
    {
        changes.push(format!("{} is spent and gone", it.name));
        c.inventory.items.remove(i);
        left = None;
    } else if it.item_type == ItemType::Consumable {
        it.quantity -= 1;
        changes.push(format!("{} used up ({} left)", it.name, it.quantity));
        if it.quantity == 0 {
            c.inventory.items.remove(i);
            left = None;
        } else {
            left = Some(c.inventory.items[i].clone());
        }
    }
    if let Some(e) = item
        .effect
        .as_ref()
        .filter(|e| item.heal.is_none() || e.starts_with("no automation for "))
    {
        changes.push(format!("effect: {e}"));
    }
    let campaign = call.campaign();
    if let Some(o) = &other {
        call.tx().put_character(campaign, o)?;
        call.record_change("character", &o.id, changes.join("; "));
    }
    save(call, &c, &changes)?;
    let on = other
        .as_ref()
        .map(|o| format!(" on {}", o.name))
        .unwrap_or_default();
    let summary = format!("{} uses {}{on}: {}.", c.name, item.name, changes.join("; "));
    let mut out = outcome("use", &c, summary, changes);
    out.item = left;
    out.roll = roll;
    out.healing = healing;
    Ok(out)
}

pub use super::recharge::{RechargeEvent, recharge};
