//! Equipping and unequipping: which slots an item fits, choosing one, attunement limits, and the
//! change in effective numbers an equip or unequip makes (part of `manage_inventory`).

use tabletop_rules::Ability;
use tabletop_rules::stats::EffectiveStats;

use super::locate::{ItemRef, find, find_item};
use super::ops::{InventoryOutcome, load, outcome, put_item, save};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterRef};
use crate::model::inventory::{Item, MAX_ATTUNED};
use crate::model::inventory::{ItemType, Slot, WeaponProperty};

/// The slots an item can go in; empty = none known.
pub fn natural_slots(item: &Item) -> Vec<Slot> {
    if item.is_shield() {
        return vec![Slot::Offhand];
    }
    if item.is_body_armor() {
        return vec![Slot::Armor];
    }
    if item.item_type == ItemType::Ammunition {
        return vec![Slot::Quiver];
    }
    if item.weapon.is_some() {
        return if item.is_two_handed() {
            vec![Slot::Mainhand]
        } else {
            vec![Slot::Mainhand, Slot::Offhand]
        };
    }
    let lower = item.name.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let has = |list: &[&str]| words.iter().any(|w| list.contains(w));
    if has(&["ring"]) {
        vec![Slot::Ring1, Slot::Ring2]
    } else if has(&["belt", "girdle"]) {
        vec![Slot::Belt]
    } else if has(&["boots", "slippers", "shoes", "sandals", "horseshoes"]) {
        vec![Slot::Feet]
    } else if has(&["gloves", "gauntlets"]) {
        vec![Slot::Hands]
    } else if has(&["bracers"]) {
        vec![Slot::Wrists]
    } else if has(&["luckstone", "ioun", "scarab"]) {
        vec![Slot::Person]
    } else if has(&["cloak", "cape", "mantle", "robe", "wings"]) {
        vec![Slot::Cloak]
    } else if has(&[
        "amulet",
        "necklace",
        "periapt",
        "medallion",
        "pendant",
        "brooch",
        "talisman",
    ]) {
        vec![Slot::Neck]
    } else if has(&[
        "helm", "helmet", "headband", "circlet", "hat", "crown", "diadem", "cap", "goggles",
        // Lenses over the eyes.
        "eyes",
    ]) {
        vec![Slot::Head]
    } else if has(&["quiver"]) {
        vec![Slot::Quiver]
    } else if has(&[
        "wand", "rod", // Ridden or steered: held to be commanded.
        "broom", "carpet", "staff", "orb", "torch", "lantern",
    ]) {
        vec![Slot::Mainhand, Slot::Offhand]
    } else {
        Vec::new()
    }
}

fn choose_slot(c: &Character, item: &Item, requested: Option<Slot>) -> Result<Slot> {
    let inv = &c.inventory;
    let allowed = natural_slots(item);
    if let Some(s) = requested {
        if !allowed.is_empty() && !allowed.contains(&s) {
            let list: Vec<&str> = allowed.iter().map(|s| s.key()).collect();
            return Err(EngineError::invalid(
                "slot",
                format!("{} goes in {}, not {s}", item.name, list.join(" or ")),
            ));
        }
        if allowed.is_empty() && s == Slot::Armor {
            return Err(EngineError::invalid(
                "slot",
                format!(
                    "only body armor goes in the armor slot; {} is not armor",
                    item.name
                ),
            ));
        }
        return Ok(s);
    }
    match allowed.as_slice() {
        [] => {
            let all: Vec<&str> = Slot::ALL.iter().map(|s| s.key()).collect();
            Err(EngineError::invalid(
                "slot",
                format!(
                    "{} has no natural equipment slot; give slot: {}",
                    item.name,
                    all.join(", ")
                ),
            ))
        }
        [Slot::Ring1, Slot::Ring2] => match (inv.in_slot(Slot::Ring1), inv.in_slot(Slot::Ring2)) {
            (None, _) => Ok(Slot::Ring1),
            (_, None) => Ok(Slot::Ring2),
            (Some(a), Some(b)) => Err(EngineError::Rule(format!(
                "both ring slots are taken ({} on ring1, {} on ring2): unequip one, or give slot ring1 or ring2 to swap",
                a.name, b.name
            ))),
        },
        [Slot::Mainhand, Slot::Offhand] => {
            let main = inv.in_slot(Slot::Mainhand);
            let light = |it: &Item| {
                it.weapon
                    .as_ref()
                    .is_some_and(|w| w.has(WeaponProperty::Light))
            };
            match main {
                None => Ok(Slot::Mainhand),
                Some(m) if light(m) && light(item) && inv.in_slot(Slot::Offhand).is_none() => {
                    Ok(Slot::Offhand)
                }
                Some(_) => Ok(Slot::Mainhand),
            }
        }
        [one, ..] => Ok(*one),
    }
}

pub(super) fn effective_line(before: &EffectiveStats, after: &EffectiveStats) -> Vec<String> {
    let mut v = Vec::new();
    if before.armor_class.value != after.armor_class.value {
        v.push(format!(
            "AC {} → {}",
            before.armor_class.value, after.armor_class.value
        ));
    }
    if before.speed.value != after.speed.value {
        v.push(format!(
            "speed {} → {} ft",
            before.speed.value, after.speed.value
        ));
    }
    for &a in Ability::ALL {
        if before.score(a) != after.score(a) {
            v.push(format!(
                "{} {} → {}",
                a.abbr(),
                before.score(a),
                after.score(a)
            ));
        }
    }
    v
}

pub(super) fn attunement_allowed(c: &Character, item: &Item) -> Result<Option<String>> {
    let attuned: Vec<String> = c
        .inventory
        .items
        .iter()
        .filter(|i| i.attuned && i.id != item.id)
        .map(|i| i.name.clone())
        .collect();
    if attuned.len() >= MAX_ATTUNED {
        return Err(EngineError::Rule(format!(
            "{} cannot attune to {}: already attuned to {} items ({}), the most a creature can be; unattune one of them first (manage_inventory unattune)",
            c.name,
            item.name,
            attuned.len(),
            attuned.join(", ")
        )));
    }
    let Some(rule) = &item.attunement_restriction else {
        return Ok(None);
    };
    let text = rule.to_lowercase();
    const WHO: &[&str] = &[
        "barbarian",
        "bard",
        "cleric",
        "druid",
        "fighter",
        "monk",
        "paladin",
        "ranger",
        "rogue",
        "sorcerer",
        "warlock",
        "wizard",
        "dwarf",
        "elf",
        "halfling",
        "human",
        "dragonborn",
        "gnome",
        "tiefling",
        "orc",
        "spellcaster",
    ];
    let named: Vec<&str> = WHO.iter().copied().filter(|w| text.contains(w)).collect();
    if named.is_empty() {
        return Ok(Some(format!(
            "{} requires attunement {rule}; the engine cannot check that, so it is on the DM",
            item.name
        )));
    }
    let class = c.class.as_deref().unwrap_or("").to_lowercase();
    let race = format!(
        "{} {}",
        c.race.as_deref().unwrap_or(""),
        c.subrace.as_deref().unwrap_or("")
    )
    .to_lowercase();
    let ok = named.iter().any(|w| {
        (*w == "spellcaster" && c.spellcasting_ability.is_some())
            || (!class.is_empty() && class.contains(w))
            || race.contains(w)
    });
    if ok {
        Ok(None)
    } else {
        Err(EngineError::Rule(format!(
            "{} requires attunement {rule}; {} is {} {}",
            item.name,
            c.name,
            c.race.as_deref().unwrap_or("a creature"),
            c.class.as_deref().unwrap_or("without a class")
        )))
    }
}

/// Equips an item; the slot is detected unless given. Attunement-bound items attune (at most 3).
pub fn equip(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    r: ItemRef<'_>,
    slot: Option<Slot>,
) -> Result<InventoryOutcome> {
    let mut c = load(call, who)?;
    let before = c.effective();
    let i = find_item(&c, r)?;
    let item = c.inventory.items[i].clone();
    if let Some(s) = item.slot {
        return Err(EngineError::invalid(
            "itemName",
            format!(
                "{} is already equipped ({s}); unequip it first to move it",
                item.name
            ),
        ));
    }
    if let Some(bag) = &item.inside {
        let bag = c
            .inventory
            .items
            .iter()
            .find(|x| &x.id == bag)
            .map_or(bag.clone(), |x| x.name.clone());
        return Err(EngineError::Rule(format!(
            "{} is stowed in {bag}: take it out first (manage_inventory transfer with only the item; an action in combat)",
            item.name
        )));
    }
    let slot = choose_slot(&c, &item, slot)?;
    // In a fight: no armor donned, a shield for the action.
    let fight = super::in_fight::check(call, &c, &item, super::in_fight::Change::Don)?;
    let inv = &c.inventory;
    if slot == Slot::Mainhand
        && item.is_two_handed()
        && let Some(off) = inv.in_slot(Slot::Offhand)
    {
        return Err(EngineError::Rule(format!(
            "{} is two-handed, but {} is in the off hand: unequip {} first",
            item.name, off.name, off.name
        )));
    }
    if slot == Slot::Offhand
        && let Some(main) = inv.in_slot(Slot::Mainhand)
        && main.is_two_handed()
    {
        return Err(EngineError::Rule(format!(
            "{} is two-handed and fills both hands: unequip it before equipping {}",
            main.name, item.name
        )));
    }
    let mut warnings = Vec::new();
    let mut changes = Vec::new();
    // Whatever held the slot goes back to the pack (a two-handed weapon empties the off hand too).
    // The person holds any number of charms.
    let mut freed = if slot == Slot::Person {
        Vec::new()
    } else {
        vec![slot]
    };
    if slot == Slot::Mainhand && item.is_two_handed() {
        freed.push(Slot::Offhand);
    }
    for it in c.inventory.items.iter_mut() {
        if it.slot.is_some_and(|s| freed.contains(&s)) {
            it.slot = None;
            changes.push(format!("{} unequipped from {slot}", it.name));
        }
    }
    let idx = if c.inventory.items[i].quantity > 1 {
        let stack = &mut c.inventory.items[i];
        stack.quantity -= 1;
        let mut one = stack.clone();
        one.quantity = 1;
        one.id = call.new_id("it")?;
        c.inventory.items.push(one);
        c.inventory.items.len() - 1
    } else {
        i
    };
    let it = &mut c.inventory.items[idx];
    it.slot = Some(slot);
    changes.push(format!("{} equipped ({slot})", it.name));
    changes.extend(fight);
    // Attunement is its own step (manage_inventory attune); an unattuned item that requires it
    // gives none of its magic.
    if it.requires_attunement && !it.attuned {
        warnings.push(format!(
            "{} requires attunement: its magic works only once {} attunes to it (manage_inventory attune)",
            it.name, c.name
        ));
    } else if let Some(left) = &it.effect {
        // What of its magic the engine leaves to the DM, said when the magic starts to work.
        changes.push(left.clone());
    }
    let after = c.effective();
    let effect = effective_line(&before, &after);
    save(call, &c, &changes)?;
    let summary = if effect.is_empty() {
        format!("{}: {}.", c.name, changes.join("; "))
    } else {
        format!("{}: {}. {}.", c.name, changes.join("; "), effect.join(", "))
    };
    let mut out = outcome("equip", &c, summary, changes);
    out.changes.extend(effect);
    out.warnings.extend(warnings);
    out.item = Some(c.inventory.items[idx].clone());
    Ok(out)
}

/// Unequips an item (named, or whatever is in `slot`); its attunement ends.
pub fn unequip(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    r: Option<ItemRef<'_>>,
    slot: Option<Slot>,
) -> Result<InventoryOutcome> {
    let mut c = load(call, who)?;
    let before = c.effective();
    let i = match (r, slot) {
        (Some(r), _) if r.id.is_some() || r.name.is_some() => find(&c, r, true)?,
        (_, Some(s)) => c
            .inventory
            .items
            .iter()
            .position(|it| it.slot == Some(s))
            .ok_or_else(|| {
                EngineError::invalid("slot", format!("{} has nothing equipped in {s}", c.name))
            })?,
        _ => {
            return Err(EngineError::invalid(
                "itemName",
                "name the item (itemName or itemId) or the slot to empty",
            ));
        }
    };
    let Some(from) = c.inventory.items[i].slot else {
        return Err(EngineError::invalid(
            "itemName",
            format!("{} is carried, not equipped", c.inventory.items[i].name),
        ));
    };
    let fight = super::in_fight::check(
        call,
        &c,
        &c.inventory.items[i],
        super::in_fight::Change::Doff,
    )?;
    let mut changes = Vec::new();
    let mut item = c.inventory.items.remove(i);
    item.slot = None;
    changes.push(format!("{} unequipped from {from}", item.name));
    changes.extend(fight);
    if item.attuned {
        changes.push(format!(
            "{} stays attuned to {} (unattune to end it)",
            c.name, item.name
        ));
    }
    let idx = put_item(call, &mut c, item)?;
    let after = c.effective();
    let effect = effective_line(&before, &after);
    save(call, &c, &changes)?;
    let summary = if effect.is_empty() {
        format!("{}: {}.", c.name, changes.join("; "))
    } else {
        format!("{}: {}. {}.", c.name, changes.join("; "), effect.join(", "))
    };
    let mut out = outcome("unequip", &c, summary, changes);
    out.changes.extend(effect);
    out.item = c.inventory.items.get(idx).cloned();
    Ok(out)
}
