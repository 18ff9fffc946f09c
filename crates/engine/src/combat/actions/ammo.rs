//! Ammunition and thrown weapons are spent. A ranged attack with a weapon of the ammunition
//! property (shortbow, longbow, crossbow, sling, blowgun) needs a piece of its ammunition in the
//! attacker's inventory and uses one up (refused when there is none, unless `force`, which the
//! answer reports). A weapon thrown at range leaves the thrower's hands: one comes out of the
//! inventory and lies on the target's square as a prop. Both are recorded in
//! [`Encounter::spent`]; when the fight ends, half the ammunition fired (rounded down, as the
//! rules say) and every thrown weapon go back to their owners ([`recover`]).
//!
//! Stat-block attacks (a goblin's shortbow) spend nothing: a monster's ammunition is not
//! tracked.

use tabletop_grid::Prop;

use super::profile::{Delivery, ProfileSource, attack_profile};
use super::strike::{StrikeOptions, StrikeResult};
use crate::combat;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::encounter::{Encounter, SpentGear};
use crate::model::inventory::{Item, ItemType, Slot, WeaponProperty};
use crate::model::names::name_key;

/// What a strike will spend once it is resolved.
pub enum Spend {
    /// Nothing (melee, a stat-block attack, no weapon).
    Nothing,
    /// One piece of this ammunition stack.
    Ammo {
        /// The stack's item id.
        item_id: String,
        /// The weapon firing it.
        weapon: String,
        /// A loading weapon: the cost it is fired with ("action", …), recorded once fired.
        loading: Option<&'static str>,
        /// Rules set aside under `force` (a second shot of a loading weapon, no free hand).
        forced: Vec<String>,
    },
    /// Fired without ammunition under `force`.
    Forced(String),
    /// The thrown weapon (its item id).
    Thrown(String),
}

/// The word an ammunition item of `weapon` carries ("arrow" for a bow).
fn ammo_word(weapon: &str) -> Option<&'static str> {
    let k = name_key(weapon);
    if k.contains("crossbow") {
        Some("bolt")
    } else if k.contains("bow") {
        Some("arrow")
    } else if k.contains("sling") {
        Some("bullet")
    } else if k.contains("blowgun") {
        Some("needle")
    } else {
        None
    }
}

/// The ammunition stack `weapon` fires from `c`'s inventory (the quiver first).
fn ammo_for<'c>(c: &'c Character, weapon: &Item) -> Option<&'c Item> {
    let word = ammo_word(&weapon.name);
    let fits = |it: &&Item| {
        it.quantity > 0
            && it.id != weapon.id
            && match word {
                Some(w) => name_key(&it.name).contains(w),
                None => it.item_type == ItemType::Ammunition,
            }
    };
    let items = &c.inventory.items;
    items
        .iter()
        .filter(fits)
        .find(|it| it.slot == Some(Slot::Quiver))
        .or_else(|| items.iter().find(fits))
}

/// Before a strike: what it will spend, or a refusal when a weapon needing ammunition has none
/// (the attack goes ahead under `force`, reported).
pub fn before(
    call: &Call<'_>,
    enc: &Encounter,
    attacker_id: &str,
    target_id: &str,
    weapon: Option<&str>,
    opts: &StrikeOptions,
) -> Result<Spend> {
    let Ok(attacker) = combat::sheet(call, attacker_id) else {
        return Ok(Spend::Nothing);
    };
    // The strike itself reports a weapon it cannot find.
    let Ok(profile) = attack_profile(call, &attacker, weapon, opts.ability, opts.melee_only) else {
        return Ok(Spend::Nothing);
    };
    let ProfileSource::Weapon { item_id } = &profile.source else {
        return Ok(Spend::Nothing);
    };
    let Some(item) = attacker.inventory.items.iter().find(|i| &i.id == item_id) else {
        return Ok(Spend::Nothing);
    };
    let Some(stats) = &item.weapon else {
        return Ok(Spend::Nothing);
    };
    let Ok(d) = enc
        .map
        .creature_distance_ft(attacker_id, target_id, super::strike::METRIC)
    else {
        return Ok(Spend::Nothing);
    };
    if profile.kind_at(d).delivery != Delivery::Ranged {
        return Ok(Spend::Nothing);
    }
    if stats.has(WeaponProperty::Ammunition) {
        let what = ammo_word(&item.name).map_or("ammunition".to_string(), |w| format!("{w}s"));
        let (loading, forced) = loading_and_hands(enc, &attacker, item, opts)?;
        return match ammo_for(&attacker, item) {
            Some(a) => Ok(Spend::Ammo {
                item_id: a.id.clone(),
                weapon: item.name.clone(),
                loading,
                forced,
            }),
            None if opts.force => Ok(Spend::Forced(format!(
                "{} has no {what} for the {}: fired anyway (forced, nothing spent)",
                attacker.name, item.name
            ))),
            None => Err(EngineError::Rule(format!(
                "{} has no {what} left for the {}; give some with manage_inventory (or pass force: true to fire anyway as the game master)",
                attacker.name, item.name
            ))),
        };
    }
    if stats.has(WeaponProperty::Thrown) {
        return Ok(Spend::Thrown(item.id.clone()));
    }
    Ok(Spend::Nothing)
}

/// The Loading and Ammunition rules on a shot with `item`: a loading weapon fires one piece of
/// ammunition per action, bonus action or reaction (SRD Loading: "regardless of the number of
/// attacks you can normally make"), and a one-handed weapon is loaded with a free hand (SRD
/// Ammunition: "you need a free hand to load a one-handed weapon"). The cost the shot is fired
/// with when the weapon loads, and the rules set aside under `force`; refused otherwise.
fn loading_and_hands(
    enc: &Encounter,
    attacker: &Character,
    item: &Item,
    opts: &StrikeOptions,
) -> Result<(Option<&'static str>, Vec<String>)> {
    let mut broken = Vec::new();
    let Some(stats) = &item.weapon else {
        return Ok((None, broken));
    };
    let own_turn = enc.current().is_some_and(|c| c.character_id == attacker.id);
    let cost = if opts.off_hand {
        "bonus action"
    } else if own_turn {
        "action"
    } else {
        "reaction"
    };
    let loading = stats.has(WeaponProperty::Loading).then_some(cost);
    if loading.is_some()
        && enc
            .combatant(&attacker.id)
            .is_some_and(|cb| cb.economy.loading_fired.iter().any(|f| f == cost))
    {
        broken.push(format!(
            "the {} has the loading property: {} already fired it with this {cost}, and a loading weapon fires only one piece of ammunition per action, bonus action or reaction, whatever the number of attacks; attack with another weapon for the rest",
            item.name, attacker.name
        ));
    }
    if attacker.action_block().is_none() && !stats.has(WeaponProperty::TwoHanded) {
        let hands = crate::model::gear::held_in_hands(attacker);
        let used: u8 = hands.iter().map(|(_, _, n)| n).sum();
        if used >= 2 {
            let holds: Vec<String> = hands
                .iter()
                .map(|(i, hand, _)| format!("{i} in the {hand}"))
                .collect();
            broken.push(format!(
                "{} needs a free hand to load the {} (a one-handed weapon) and has none ({}); unequip the other hand's item first",
                attacker.name,
                item.name,
                holds.join(", ")
            ));
        }
    }
    if !broken.is_empty() && !opts.force {
        return Err(EngineError::Rule(format!(
            "{} (pass force: true to override as the game master)",
            broken.join("; ")
        )));
    }
    Ok((loading, broken))
}

/// Takes one of item `id` out of `c`'s inventory; returns a copy of one (quantity 1) and the
/// count left.
fn take_one(c: &mut Character, id: &str) -> Option<(Item, u32)> {
    let i = c.inventory.items.iter().position(|it| it.id == id)?;
    let it = &mut c.inventory.items[i];
    let mut one = it.clone();
    one.quantity = 1;
    one.slot = None;
    one.attuned = false;
    it.quantity = it.quantity.saturating_sub(1);
    let left = it.quantity;
    if left == 0 {
        c.inventory.items.remove(i);
    }
    Some((one, left))
}

/// After a strike that was resolved (not paused for a reaction): spends what [`before`] found.
pub fn after(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    spend: Spend,
    out: &mut StrikeResult,
) -> Result<()> {
    if out.paused {
        return Ok(());
    }
    match spend {
        Spend::Nothing => {}
        Spend::Forced(why) => out.forced.push(why),
        Spend::Ammo {
            item_id,
            weapon,
            loading,
            forced,
        } => {
            out.forced.extend(forced);
            if let Some(cost) = loading
                && let Some(cb) = enc.combatant_mut(&out.attacker_id)
            {
                cb.economy.loading_fired.push(cost.to_string());
            }
            let mut c = combat::sheet(call, &out.attacker_id)?;
            let Some((one, left)) = take_one(&mut c, &item_id) else {
                return Ok(());
            };
            combat::put_sheet(call, &c)?;
            out.lines.push(format!(
                "{} fires one {} from the {} ({left} left).",
                c.name, one.name, weapon
            ));
            match enc
                .spent
                .iter_mut()
                .find(|s| s.owner_id == c.id && s.prop_id.is_none() && s.item.same_kind(&one))
            {
                Some(s) => s.count = s.count.saturating_add(1),
                None => enc.spent.push(SpentGear {
                    owner_id: c.id.clone(),
                    owner: c.name.clone(),
                    item: one,
                    count: 1,
                    prop_id: None,
                }),
            }
        }
        Spend::Thrown(item_id) => {
            let mut c = combat::sheet(call, &out.attacker_id)?;
            let Some((one, _)) = take_one(&mut c, &item_id) else {
                return Ok(());
            };
            combat::put_sheet(call, &c)?;
            let Some(pos) = combat::bodies::space_of(enc, &out.target_id).map(|s| s.0) else {
                return Ok(());
            };
            let mut n = enc.spent.len() + 1;
            while enc.map.prop(&format!("thrown-{n}")).is_some() {
                n += 1;
            }
            let prop_id = format!("thrown-{n}");
            let prop = Prop::new(
                prop_id.clone(),
                format!("{} (thrown by {})", one.name, c.name),
                pos,
            );
            enc.map.place_prop(prop)?;
            out.lines.push(format!(
                "The {} leaves {}'s hands and lands at ({}, {}) (prop {prop_id}; it comes back to {} when the fight ends, or give it back with manage_inventory).",
                one.name, c.name, pos.x, pos.y, c.name
            ));
            enc.spent.push(SpentGear {
                owner_id: c.id.clone(),
                owner: c.name.clone(),
                item: one,
                count: 1,
                prop_id: Some(prop_id),
            });
        }
    }
    Ok(())
}

/// What the fight's spent gear gives back: half the ammunition fired (rounded down) and every
/// thrown weapon, to its owner's inventory (with `apply`; otherwise only the lines). The props
/// of thrown weapons are taken off the map.
pub fn recover(call: &mut Call<'_>, enc: &mut Encounter, apply: bool) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    for s in enc.spent.clone() {
        let back = if s.prop_id.is_some() {
            s.count
        } else {
            s.count / 2
        };
        let what = if s.prop_id.is_some() {
            format!("{} picks up the thrown {}", s.owner, s.item.name)
        } else {
            format!(
                "{} recovers {back} {} of the {} fired (half, rounded down)",
                s.owner, s.item.name, s.count
            )
        };
        lines.push(what);
        if !apply {
            continue;
        }
        if let Some(p) = &s.prop_id {
            let _ = enc.map.remove_prop(p);
        }
        if back == 0 {
            continue;
        }
        let Ok(mut c) = combat::sheet(call, &s.owner_id) else {
            continue;
        };
        match c
            .inventory
            .items
            .iter_mut()
            .find(|it| it.stackable && it.same_kind(&s.item))
        {
            Some(it) => it.quantity = it.quantity.saturating_add(back),
            None => {
                let mut it = s.item.clone();
                it.quantity = back;
                if c.inventory.items.iter().any(|x| x.id == it.id) {
                    it.id = call.new_id("it")?;
                }
                c.inventory.items.push(it);
            }
        }
        combat::put_sheet(call, &c)?;
        call.record_change(
            "character",
            &c.id,
            format!("recovered {back} {}", s.item.name),
        );
    }
    if apply {
        enc.spent.clear();
    }
    Ok(lines)
}
