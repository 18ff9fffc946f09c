//! Every magic item the catalog counts as mechanical does something through manage_inventory on
//! an SRD character (skipped without TABLETOP_SRD_DIR): worn items, equipped (and attuned when
//! they require it), change the derived sheet against the same sheet without the item's magic;
//! +N and magic weapons change the attack's to-hit or damage; +N armor and shields add N to AC
//! over their mundane base; potions put a timed effect on the drinker that changes the sheet;
//! healing potions heal; charged items spend a charge and say what the DM resolves.

use super::common;

use std::sync::Arc;

use serde_json::json;
use tabletop_engine::catalog::items::{self, ItemKind};
use tabletop_engine::character::{Character, CharacterRef};
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{AbilityMethod, CreateMode, CreateRequest, create_character};
use tabletop_engine::inventory::ItemType;
use tabletop_engine::inventory::attune::attune;
use tabletop_engine::inventory::ops::{self, GiveRequest, InventoryOutcome, ItemRef};
use tabletop_engine::inventory::weapons::weapon_attack;
use tabletop_engine::magic::item_cast::use_or_cast;
use tabletop_engine::sheet::get_character;
use tabletop_engine::update::{UpdateRequest, update_character};
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_rules::damage::DamagePart;
use tabletop_rules::{Ability, DamageType};
use tabletop_srd::Compendium;

type E = Engine<SqliteStore>;

fn engine(dir: &tempfile::TempDir, srd: &Arc<Compendium>) -> E {
    Engine::open(
        SqliteStore::open(&dir.path().join("all.sqlite")).unwrap(),
        "c",
        EngineOptions {
            seed: Some(4),
            compendium: CompendiumSource::ready(srd.clone()),
        },
    )
    .unwrap()
}

fn who(n: &str) -> CharacterRef<'_> {
    CharacterRef::new(None, Some(n))
}

fn named(n: &str) -> ItemRef<'_> {
    ItemRef {
        id: None,
        name: Some(n),
    }
}

const CLASSES: &[&str] = &[
    "paladin",
    "cleric",
    "druid",
    "wizard",
    "sorcerer",
    "warlock",
    "bard",
    "ranger",
    "monk",
    "rogue",
    "barbarian",
];

fn make(e: &mut E, name: &str, restriction: Option<&str>, caster: bool) {
    let r = restriction.unwrap_or("").to_lowercase();
    let class = CLASSES
        .iter()
        .copied()
        .find(|c| r.contains(c))
        .or_else(|| (caster || r.contains("spellcaster")).then_some("wizard"))
        .unwrap_or("fighter");
    let race = ["dwarf", "elf", "halfling", "gnome"]
        .into_iter()
        .find(|x| r.contains(x))
        .map(String::from);
    let req = CreateRequest {
        name: name.into(),
        class: Some(class.into()),
        race,
        level: Some(5),
        method: AbilityMethod::Manual,
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([14, 12, 14, 10, 10, 10])
                .collect(),
        ),
        mode: CreateMode::Create,
        ..Default::default()
    };
    e.write("create_character", &json!({}), |call| {
        create_character(call, req)
    })
    .unwrap();
}

fn inv(
    e: &mut E,
    f: impl FnOnce(&mut tabletop_engine::Call<'_>) -> Result<InventoryOutcome, EngineError>,
) -> Result<InventoryOutcome, EngineError> {
    e.write("manage_inventory", &json!({}), f)
}

fn character(e: &mut E, n: &str) -> Character {
    e.read(|call| get_character(call, who(n)))
        .unwrap()
        .character
}

fn effective_json(c: &Character) -> String {
    serde_json::to_string(&c.effective()).unwrap()
}

/// Everything worn magic can change, read the way the tools read it: the effective stats, the
/// sheet's movement modes and senses, walking on water and crossing difficult terrain, advantage
/// on saves against spells, the spell save DC and attack bonus, and what attacks read off the
/// items (a natural 20's extra damage, critical hits turned into normal hits, resistance to
/// nonmagical weapons, AC and resistance against ranged attacks).
fn magic_view(e: &mut E, c: &Character) -> String {
    let attacks: Vec<(Option<String>, bool, bool, i32, bool)> = c
        .inventory
        .items
        .iter()
        .map(|i| {
            (
                i.natural_20_extra(DamageType::Slashing),
                i.stops_critical_hits(),
                i.resists_nonmagical(),
                i.ranged_ac_bonus(),
                i.resists_ranged(),
            )
        })
        .collect();
    // Items that act on their own: a dying wearer stabilized, a failed DEX save evaded, hit
    // points regained over an hour at 1 HP.
    let mut evading = c.clone();
    let evades = tabletop_engine::inventory::regen::evade(&mut evading);
    let mut hurt = c.clone();
    hurt.hp = 1;
    let regen = e
        .write("t", &json!({}), |call| {
            tabletop_engine::inventory::regen::regenerate(call, &mut hurt, 0, 3600)
        })
        .unwrap();
    let acts = (
        tabletop_engine::inventory::regen::stabilizer(c),
        evades,
        regen,
    );
    let sheet = tabletop_engine::sheet::Sheet::of(c.clone());
    let caster = e
        .read(|call| tabletop_engine::magic::spellcasting::caster_numbers(call, c))
        .ok()
        .map(|n| (n.save_dc, n.attack_bonus));
    let hidden = tabletop_engine::combat::divination::hidden(c);
    format!(
        "{} {:?} {:?} {:?} {:?} {:?} {caster:?} {attacks:?} {acts:?} {hidden}",
        effective_json(c),
        sheet.speeds,
        sheet.senses,
        tabletop_engine::magic::wards::walks_on_water(c),
        tabletop_engine::magic::wards::ignores_difficult_terrain(c),
        tabletop_engine::derive::gear::save_advantages(c, Ability::Wisdom, None, None, true),
    )
}

/// The name to give for an item: a +N family on a concrete base.
fn give_name(index: &str, srd_name: &str) -> String {
    for (prefix, base) in [
        ("weapon-", "Longsword"),
        ("armor-", "Chain Mail"),
        ("shield-", "Shield"),
        ("ammunition-", "Arrow"),
    ] {
        if let Some(n) = index.strip_prefix(prefix)
            && n.len() == 1
        {
            return format!("{base} +{n}");
        }
    }
    srd_name.to_string()
}

#[test]
fn every_mechanical_magic_item_changes_the_sheet_or_the_state_when_used() {
    let Some(srd) = common::srd("catalog_items_all") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    let cat = items::try_catalog().unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (n, (index, entry)) in cat.iter().filter(|(_, e)| e.mechanical()).enumerate() {
        if entry.kind == ItemKind::Scroll {
            continue; // cast through use_scroll: the magic tests cast from scrolls
        }
        let m = srd
            .magic_items()
            .iter()
            .find(|m| &m.index == index)
            .unwrap();
        let pc = format!("T{n}");
        // A speed floor shows on a dwarf (25 ft).
        let restriction = if entry.speed_floor.is_some() {
            Some("dwarf")
        } else {
            m.attunement_note.as_deref()
        };
        make(&mut e, &pc, restriction, !entry.spells.is_empty());
        // A family is given by naming a variant ("Ring of Resistance (fire)"): the variant's
        // own entry is what it becomes.
        let name = match entry.variants.first() {
            // A chosen damage type: "Armor of Resistance (fire)".
            _ if !entry.resist_choice.is_empty() => {
                format!("{} ({})", m.name, entry.resist_choice[0])
            }
            Some(v) if entry.kind == ItemKind::Family => format!(
                "{} ({})",
                m.name.split(',').next().unwrap_or(&m.name),
                v.trim_start_matches(index.as_str())
                    .trim_start_matches('-')
                    .replace('-', " ")
            ),
            _ => give_name(index, &m.name),
        };
        let given = inv(&mut e, |call| {
            ops::give(
                call,
                who(&pc),
                GiveRequest {
                    srd_name: Some(name.clone()),
                    ..Default::default()
                },
            )
        });
        let item = match given {
            Ok(o) => o.item.unwrap(),
            Err(err) => {
                failures.push(format!("{index}: give '{name}': {err}"));
                continue;
            }
        };
        checked += 1;
        if entry.kind == ItemKind::Family {
            if item.srd.as_deref() != entry.variants.first().map(String::as_str) {
                failures.push(format!("{index}: '{name}' became {:?}", item.srd));
            }
            continue;
        }
        let before = character(&mut e, &pc);
        match entry.kind {
            ItemKind::Worn | ItemKind::Bonus => {
                if let Err(err) = inv(&mut e, |call| {
                    ops::equip(call, who(&pc), named(&item.name), None)
                }) {
                    failures.push(format!("{index}: equip: {err}"));
                    continue;
                }
                if item.requires_attunement
                    && let Err(err) = inv(&mut e, |call| attune(call, who(&pc), named(&item.name)))
                {
                    failures.push(format!("{index}: attune: {err}"));
                    continue;
                }
                // Ammunition and archery bracers show on a bow's shot.
                let bow = (item.item_type == ItemType::Ammunition || entry.bow_damage_bonus != 0)
                    .then(|| {
                        let b = inv(&mut e, |call| {
                            ops::give(
                                call,
                                who(&pc),
                                GiveRequest {
                                    srd_name: Some("Longbow".into()),
                                    ..Default::default()
                                },
                            )
                        })
                        .unwrap()
                        .item
                        .unwrap();
                        inv(&mut e, |call| {
                            ops::equip(call, who(&pc), named("Longbow"), None)
                        })
                        .unwrap();
                        b.id
                    });
                let after = character(&mut e, &pc);
                // The same sheet with the item's magic stripped: what the magic adds (Mithral
                // stripped is its mundane base armor again).
                let mut plain = after.clone();
                for it in &mut plain.inventory.items {
                    if it.id == item.id {
                        it.effects.clear();
                        it.srd = None;
                        if entry.light_as_mithral {
                            let base = it.name.trim_start_matches(&m.name).trim().to_string();
                            it.armor = tabletop_engine::inventory::catalog::lookup(&srd, &base)
                                .unwrap()
                                .item
                                .armor;
                        }
                    }
                }
                let changed_sheet = magic_view(&mut e, &after) != magic_view(&mut e, &plain);
                let held = after
                    .inventory
                    .items
                    .iter()
                    .find(|i| i.id == item.id)
                    .unwrap();
                let weapon_id = bow.clone().unwrap_or_else(|| item.id.clone());
                let shooter = after.inventory.items.iter().find(|i| i.id == weapon_id);
                let changed_attack = shooter.is_some_and(|w| w.weapon.is_some()) && {
                    let w = shooter.unwrap();
                    let plain_item = plain
                        .inventory
                        .items
                        .iter()
                        .find(|i| i.id == weapon_id)
                        .unwrap();
                    let a =
                        weapon_attack(&after, &after.effective(), w, true, None, false).unwrap();
                    let b =
                        weapon_attack(&plain, &plain.effective(), plain_item, true, None, false)
                            .unwrap();
                    (a.to_hit, a.damage.clone()) != (b.to_hit, b.damage.clone())
                };
                if !(changed_sheet || changed_attack) {
                    failures.push(format!("{index}: equipped and attuned, nothing changes"));
                }
                if entry.kind == ItemKind::Bonus
                    && held.armor.is_some()
                    && after.effective().armor_class.value
                        != plain.effective().armor_class.value + entry.bonus.unwrap()
                {
                    failures.push(format!(
                        "{index}: AC {} is not the base {} + {}",
                        after.effective().armor_class.value,
                        plain.effective().armor_class.value,
                        entry.bonus.unwrap()
                    ));
                }
            }
            ItemKind::Potion => {
                let out = inv(&mut e, |call| {
                    ops::use_item(call, who(&pc), named(&item.name), None, None)
                });
                match &out {
                    Err(err) => failures.push(format!("{index}: use: {err}")),
                    Ok(_) => {
                        let after = character(&mut e, &pc);
                        let has = after.effects.iter().any(|x| x.name == item.name);
                        // Or a condition, temporary HP or damage (Invisibility, Poison), or a
                        // save rolled against its condition.
                        let state = after.conditions != before.conditions
                            || after.temp_hp != before.temp_hp
                            || after.hp != before.hp
                            || (entry.save.is_some()
                                && out.as_ref().is_ok_and(|o| {
                                    o.changes.iter().any(|c| c.contains(" save vs "))
                                }));
                        let view = (magic_view(&mut e, &after), magic_view(&mut e, &before));
                        if !(has && view.0 != view.1 || state) {
                            failures.push(format!(
                                "{index}: drunk, no effect on the sheet (effect {has})"
                            ));
                        }
                    }
                }
            }
            ItemKind::Consumable => {
                e.write("update_character", &json!({}), |call| {
                    update_character(
                        call,
                        who(&pc),
                        UpdateRequest {
                            damage: vec![DamagePart::new(Some(DamageType::Slashing), 30)],
                            ..Default::default()
                        },
                    )
                })
                .unwrap();
                let hp = character(&mut e, &pc).hp;
                match inv(&mut e, |call| {
                    ops::use_item(call, who(&pc), named(&item.name), None, None)
                }) {
                    Err(err) => failures.push(format!("{index}: use: {err}")),
                    Ok(_) => {
                        if character(&mut e, &pc).hp <= hp {
                            failures.push(format!("{index}: used, no healing"));
                        }
                    }
                }
            }
            ItemKind::Container => {
                // Forty arrows (or 100 lb of iron) stowed in it weigh nothing on the carrier.
                let arrows = inv(&mut e, |call| {
                    ops::give(
                        call,
                        who(&pc),
                        GiveRequest {
                            srd_name: Some("Arrow".into()),
                            quantity: Some(40),
                            ..Default::default()
                        },
                    )
                })
                .unwrap();
                let w = arrows.weight;
                match inv(&mut e, |call| {
                    tabletop_engine::inventory::containers::stow(
                        call,
                        who(&pc),
                        named("Arrow"),
                        Some(named(&item.name)),
                        None,
                    )
                }) {
                    Err(err) => failures.push(format!("{index}: stow: {err}")),
                    Ok(out) => {
                        if (w - out.weight - 2.0).abs() > 1e-9 {
                            failures.push(format!(
                                "{index}: 40 arrows stowed: {w} lb → {} lb",
                                out.weight
                            ));
                        }
                    }
                }
            }
            ItemKind::Charged | ItemKind::Spells if !entry.spells.is_empty() => {}
            ItemKind::Charged => {
                if item.requires_attunement {
                    inv(&mut e, |call| attune(call, who(&pc), named(&item.name))).unwrap();
                }
                // A Pearl of Power needs a spent slot to restore.
                if entry.restore_slot.is_some() {
                    let mut c = character(&mut e, &pc);
                    c.spell_slots.used[0] = 1;
                    e.write("t", &json!({}), |call| {
                        tabletop_engine::combat::put_sheet(call, &c)
                    })
                    .unwrap();
                }
                let max = item.charges.as_ref().map(|c| c.max);
                match inv(&mut e, |call| {
                    ops::use_item(call, who(&pc), named(&item.name), None, None)
                }) {
                    Err(err) => failures.push(format!("{index}: use: {err}")),
                    Ok(out) => {
                        let left = out.item.as_ref().and_then(|i| i.charges.as_ref());
                        if let (Some(max), Some(l)) = (max, left)
                            && l.current + 1 != max
                        {
                            failures.push(format!("{index}: {}/{max} after one use", l.current));
                        }
                        if entry.reason.is_some()
                            && !out
                                .changes
                                .iter()
                                .any(|c| c.starts_with("effect: no automation for "))
                        {
                            failures.push(format!(
                                "{index}: the DM's part is not said: {:?}",
                                out.changes
                            ));
                        }
                    }
                }
            }
            ItemKind::Scroll | ItemKind::Narrative | ItemKind::Spells | ItemKind::Family => {}
        }
        // Every spell an item casts is cast from it, paying its charges.
        if !entry.spells.is_empty() && item.requires_attunement {
            let _ = inv(&mut e, |call| attune(call, who(&pc), named(&item.name)));
        }
        let dummy = format!("D{n}");
        if !entry.spells.is_empty() {
            make(&mut e, &dummy, None, false);
        }
        for s in &entry.spells {
            // Both fresh: the last spell's damage, conditions or concentration gone.
            for name in [&pc, &dummy] {
                let mut c = character(&mut e, name);
                c.hp = c.max_hp;
                c.dead = false;
                c.conditions.clear();
                c.concentration = None;
                c.effects.clear();
                e.write("t", &json!({}), |call| {
                    tabletop_engine::combat::put_sheet(call, &c)
                })
                .unwrap();
            }
            let mut c = character(&mut e, &pc);
            let Some(it) = c.inventory.items.iter_mut().find(|i| i.id == item.id) else {
                failures.push(format!("{index}: gone before {}", s.spell));
                break;
            };
            let max = it.charges.as_ref().map(|c| c.max);
            if let Some(ch) = it.charges.as_mut() {
                ch.current = ch.max;
            }
            e.write("t", &json!({}), |call| {
                tabletop_engine::combat::put_sheet(call, &c)
            })
            .unwrap();
            let out = inv(&mut e, |call| {
                use_or_cast(
                    call,
                    who(&pc),
                    named(&item.name),
                    Some(who(&dummy)),
                    None,
                    Some(&s.spell),
                    None,
                )
            });
            match out {
                Err(err) => failures.push(format!("{index}: cast {}: {err}", s.spell)),
                Ok(out) => {
                    let left = character(&mut e, &pc)
                        .inventory
                        .items
                        .iter()
                        .find(|i| i.id == item.id)
                        .and_then(|i| i.charges.as_ref().map(|c| c.current));
                    // A one-use item (a potion that casts) is gone with its last charge.
                    let gone = left.is_none()
                        && max == Some(s.charges)
                        && entry.last_charge == Some(items::LastCharge::Destroyed);
                    if out.cast.is_none() || !(gone || left == max.map(|m| m - s.charges)) {
                        failures.push(format!(
                            "{index}: cast {}: {left:?} of {max:?} charges left, cast {:?}",
                            s.spell,
                            out.cast.is_some()
                        ));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
