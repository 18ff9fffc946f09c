//! The magic-item catalog through manage_inventory with the SRD configured (skipped without
//! TABLETOP_SRD_DIR): every SRD magic item encoded; Ring of Fire Resistance and Cloak of
//! Protection work only equipped and attuned; attunement is its own step, survives unequipping,
//! is capped at three and checks class restrictions; magic weapons weigh their base item.

use super::common;

use std::collections::BTreeSet;
use std::sync::Arc;

use tabletop_engine::catalog::items;
use tabletop_engine::character::CharacterRef;
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{AbilityMethod, CreateMode, CreateRequest, create_character};
use tabletop_engine::inventory::attune::{attune, unattune};
use tabletop_engine::inventory::ops::{self, GiveRequest, InventoryOutcome, ItemRef};
use tabletop_engine::sheet::get_character;
use tabletop_engine::update::{UpdateRequest, update_character};
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_rules::damage::DamagePart;
use tabletop_rules::{Ability, DamageType};
use tabletop_srd::Compendium;

type E = Engine<SqliteStore>;

fn engine(dir: &tempfile::TempDir, srd: &Arc<Compendium>) -> E {
    Engine::open(
        SqliteStore::open(&dir.path().join("i.sqlite")).unwrap(),
        "c",
        EngineOptions {
            seed: Some(1),
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

fn make(e: &mut E, name: &str, class: &str) {
    let req = CreateRequest {
        name: name.into(),
        class: Some(class.into()),
        level: Some(3),
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
    e.write("create_character", &serde_json::json!({}), |call| {
        create_character(call, req)
    })
    .unwrap();
}

fn inv(
    e: &mut E,
    f: impl FnOnce(&mut tabletop_engine::Call<'_>) -> Result<InventoryOutcome, EngineError>,
) -> Result<InventoryOutcome, EngineError> {
    e.write("manage_inventory", &serde_json::json!({}), f)
}

fn give(e: &mut E, to: &str, name: &str) -> InventoryOutcome {
    inv(e, |call| {
        ops::give(
            call,
            who(to),
            GiveRequest {
                srd_name: Some(name.into()),
                ..Default::default()
            },
        )
    })
    .unwrap()
}

fn fire(e: &mut E, on: &str, amount: u32) -> u32 {
    let before = e
        .read(|call| get_character(call, who(on)))
        .unwrap()
        .character
        .hp;
    e.write("update_character", &serde_json::json!({}), |call| {
        update_character(
            call,
            who(on),
            UpdateRequest {
                damage: vec![DamagePart::new(Some(DamageType::Fire), amount)],
                ..Default::default()
            },
        )
    })
    .unwrap();
    let after = e
        .read(|call| get_character(call, who(on)))
        .unwrap()
        .character
        .hp;
    before - after
}

#[test]
fn every_srd_magic_item_is_encoded_and_every_key_is_an_srd_index() {
    let Some(srd) = common::srd("catalog_every_item") else {
        return;
    };
    let cat = items::try_catalog().expect("the catalog parses");
    let keys: BTreeSet<String> = srd.magic_items().iter().map(|m| m.index.clone()).collect();
    assert_eq!(keys.len(), 362);
    let missing: Vec<&String> = keys.iter().filter(|k| !cat.contains_key(*k)).collect();
    assert!(missing.is_empty(), "not encoded: {missing:?}");
    let unknown: Vec<&String> = cat.keys().filter(|k| !keys.contains(*k)).collect();
    assert!(unknown.is_empty(), "not SRD indexes: {unknown:?}");
    let mechanical = cat.values().filter(|e| e.mechanical()).count();
    assert_eq!((mechanical, cat.len() - mechanical), (308, 54));
    // Every spell an item casts is an SRD spell.
    let bad: Vec<String> = cat
        .iter()
        .flat_map(|(k, e)| e.spells.iter().map(move |s| (k, &s.spell)))
        .filter(|(_, s)| srd.spells().iter().all(|x| &x.index != *s))
        .map(|(k, s)| format!("{k}: {s}"))
        .collect();
    assert!(bad.is_empty(), "not SRD spells: {bad:?}");
}

#[test]
fn ring_of_fire_resistance_halves_fire_only_equipped_and_attuned() {
    let Some(srd) = common::srd("ring_fire") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    make(&mut e, "Vex", "fighter");
    give(&mut e, "Vex", "Ring of Fire Resistance");
    assert_eq!(fire(&mut e, "Vex", 6), 6, "carried: no effect");
    let out = inv(&mut e, |call| {
        ops::equip(call, who("Vex"), named("Ring of Fire Resistance"), None)
    })
    .unwrap();
    assert_eq!(
        out.warnings,
        vec!["Ring of Fire Resistance requires attunement: its magic works only once Vex attunes to it (manage_inventory attune)".to_string()]
    );
    assert_eq!(
        fire(&mut e, "Vex", 6),
        6,
        "equipped, not attuned: no effect"
    );
    inv(&mut e, |call| {
        attune(call, who("Vex"), named("Ring of Fire Resistance"))
    })
    .unwrap();
    assert_eq!(fire(&mut e, "Vex", 6), 3, "attuned: resistance");
    // Unequipped: no magic, but still attuned.
    inv(&mut e, |call| {
        ops::unequip(
            call,
            who("Vex"),
            Some(named("Ring of Fire Resistance")),
            None,
        )
    })
    .unwrap();
    assert_eq!(fire(&mut e, "Vex", 4), 4);
    let s = e.read(|call| get_character(call, who("Vex"))).unwrap();
    assert!(
        s.character
            .inventory
            .items
            .iter()
            .any(|i| i.name == "Ring of Fire Resistance" && i.attuned)
    );
    // Unattune ends it.
    inv(&mut e, |call| {
        ops::equip(call, who("Vex"), named("Ring of Fire Resistance"), None)
    })
    .unwrap();
    assert_eq!(fire(&mut e, "Vex", 2), 1);
    let out = inv(&mut e, |call| {
        unattune(call, who("Vex"), named("Ring of Fire Resistance"))
    })
    .unwrap();
    assert_eq!(
        out.changes[0],
        "Vex's attunement to Ring of Fire Resistance ends"
    );
    assert_eq!(fire(&mut e, "Vex", 2), 2);
}

#[test]
fn cloak_of_protection_adds_one_to_ac_and_saves_when_attuned_and_three_is_the_cap() {
    let Some(srd) = common::srd("cloak") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    make(&mut e, "Kay", "fighter");
    let base = e
        .read(|call| get_character(call, who("Kay")))
        .unwrap()
        .effective;
    give(&mut e, "Kay", "Cloak of Protection");
    inv(&mut e, |call| {
        ops::equip(call, who("Kay"), named("Cloak of Protection"), None)
    })
    .unwrap();
    let eq = e
        .read(|call| get_character(call, who("Kay")))
        .unwrap()
        .effective;
    assert_eq!(eq.armor_class.value, base.armor_class.value);
    let out = inv(&mut e, |call| {
        attune(call, who("Kay"), named("Cloak of Protection"))
    })
    .unwrap();
    assert!(out.summary.starts_with("Kay attunes to Cloak of Protection (a short rest spent with it; 1 of 3 attunement slots used)"), "{}", out.summary);
    let at = e
        .read(|call| get_character(call, who("Kay")))
        .unwrap()
        .effective;
    assert_eq!(at.armor_class.value, base.armor_class.value + 1);
    assert_eq!(
        at.saves[&Ability::Dexterity].bonus,
        base.saves[&Ability::Dexterity].bonus + 1
    );
    // Three more attunement items: the fourth is refused, naming the three.
    for n in [
        "Ring of Fire Resistance",
        "Ring of Cold Resistance",
        "Ring of Acid Resistance",
    ] {
        give(&mut e, "Kay", n);
    }
    inv(&mut e, |call| {
        attune(call, who("Kay"), named("Ring of Fire Resistance"))
    })
    .unwrap();
    inv(&mut e, |call| {
        attune(call, who("Kay"), named("Ring of Cold Resistance"))
    })
    .unwrap();
    let err = inv(&mut e, |call| {
        attune(call, who("Kay"), named("Ring of Acid Resistance"))
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("already attuned to 3 items (Cloak of Protection, Ring of Fire Resistance, Ring of Cold Resistance)"), "{err}");
    // Class restriction: a Holy Avenger needs a paladin.
    give(&mut e, "Kay", "Holy Avenger");
    inv(&mut e, |call| {
        unattune(call, who("Kay"), named("Ring of Cold Resistance"))
    })
    .unwrap();
    let err = inv(&mut e, |call| {
        attune(call, who("Kay"), named("Holy Avenger"))
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("paladin") && err.contains("Fighter"), "{err}");
}

#[test]
fn magic_weapons_weigh_their_base_item() {
    let Some(srd) = common::srd("weights") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    make(&mut e, "Tor", "fighter");
    let out = give(&mut e, "Tor", "Longsword +1");
    let sword = out.item.unwrap();
    assert_eq!((sword.name.as_str(), sword.weight), ("Longsword +1", 3.0));
    let out = give(&mut e, "Tor", "Flame Tongue");
    let ft = out.item.unwrap();
    assert_eq!(
        (ft.name.as_str(), ft.weight),
        ("Flame Tongue Longsword", 3.0)
    );
    let out = give(&mut e, "Tor", "Dwarven Plate");
    assert_eq!(out.item.unwrap().weight, 65.0);
}

#[test]
fn a_potion_of_fire_resistance_halves_fire_for_an_hour_once_drunk() {
    let Some(srd) = common::srd("potion_fire") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    make(&mut e, "Ada", "fighter");
    give(&mut e, "Ada", "Potion of Fire Resistance");
    assert_eq!(fire(&mut e, "Ada", 6), 6, "carried: no effect");
    let out = inv(&mut e, |call| {
        ops::use_item(
            call,
            who("Ada"),
            named("Potion of Fire Resistance"),
            None,
            None,
        )
    })
    .unwrap();
    assert_eq!(
        out.changes,
        vec![
            "Ada gains Potion of Fire Resistance for 1 hour(s) (resistance to fire)".to_string(),
            "Potion of Fire Resistance used up (0 left)".to_string()
        ]
    );
    assert_eq!(fire(&mut e, "Ada", 6), 3, "drunk: resistance");
    let s = e.read(|call| get_character(call, who("Ada"))).unwrap();
    let effect = s
        .character
        .effects
        .iter()
        .find(|x| x.name == "Potion of Fire Resistance")
        .unwrap();
    assert_eq!(
        effect.duration,
        tabletop_engine::effects::Duration::Rounds { remaining: 600 }
    );
    // A narrative item says what the DM decides when it is used.
    give(&mut e, "Ada", "Rope of Climbing");
    let err = inv(&mut e, |call| {
        ops::use_item(call, who("Ada"), named("Rope of Climbing"), None, None)
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("its effect: no automation for Rope of Climbing: a utility or exploration effect the DM narrates"),
        "{err}"
    );
}

fn equip_attune(e: &mut E, on: &str, item: &str) {
    inv(e, |call| ops::equip(call, who(on), named(item), None)).unwrap();
    inv(e, |call| attune(call, who(on), named(item))).unwrap();
}

#[test]
fn a_family_resolves_to_the_variant_named_and_its_magic_applies() {
    let Some(srd) = common::srd("family_variants") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    make(&mut e, "Vex", "fighter");
    let ring = give(&mut e, "Vex", "Ring of Resistance (fire)")
        .item
        .unwrap();
    assert_eq!(
        (ring.name.as_str(), ring.srd.as_deref()),
        ("Ring of Fire Resistance", Some("ring-of-resistance-fire"))
    );
    equip_attune(&mut e, "Vex", "Ring of Fire Resistance");
    assert_eq!(
        fire(&mut e, "Vex", 6),
        3,
        "the variant's resistance applies"
    );
    // "Armor (+2)" (the SRD family is "Armor, +1, +2, or +3") is +2 armor on a base.
    let armor = give(&mut e, "Vex", "Armor (+2)").item.unwrap();
    assert_eq!(
        (armor.name.as_str(), armor.srd.as_deref()),
        ("Chain Mail +2", Some("armor-2"))
    );
    let wand = give(&mut e, "Vex", "Wand of the War Mage, +3")
        .item
        .unwrap();
    assert_eq!(wand.srd.as_deref(), Some("wand-of-the-war-mage-3"));
    let err = inv(&mut e, |call| {
        ops::give(
            call,
            who("Vex"),
            GiveRequest {
                srd_name: Some("Ring of Resistance (mud)".into()),
                ..Default::default()
            },
        )
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("'Ring of Resistance' has no single variant 'mud'; name one: Ring of Acid Resistance, Ring of Cold Resistance"),
        "{err}"
    );
}

#[test]
fn worn_items_grant_speeds_senses_and_spell_numbers_on_the_sheet() {
    let Some(srd) = common::srd("worn_grants") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    make(&mut e, "Kay", "wizard");
    for n in [
        "Winged Boots",
        "Goggles of Night",
        "Ring of Swimming",
        "Wand of the War Mage, +2",
        "Mantle of Spell Resistance",
    ] {
        give(&mut e, "Kay", n);
    }
    let sheet = |e: &mut E| e.read(|call| get_character(call, who("Kay"))).unwrap();
    let numbers = |e: &mut E| {
        let c = sheet(e).character;
        let n = e
            .read(|call| tabletop_engine::magic::spellcasting::caster_numbers(call, &c))
            .unwrap();
        (n.save_dc, n.attack_bonus)
    };
    let before = sheet(&mut e);
    assert!(before.speeds.is_empty() && before.senses.is_empty());
    // Carried, nothing; worn, the Ring of Swimming (no attunement) swims at once.
    inv(&mut e, |call| {
        ops::equip(call, who("Kay"), named("Ring of Swimming"), None)
    })
    .unwrap();
    let s = sheet(&mut e);
    assert_eq!(
        s.speeds.into_iter().collect::<Vec<_>>(),
        vec![("swim".to_string(), 40)]
    );
    equip_attune(&mut e, "Kay", "Winged Boots");
    inv(&mut e, |call| {
        ops::equip(call, who("Kay"), named("Goggles of Night"), None)
    })
    .unwrap();
    let s = sheet(&mut e);
    assert_eq!(
        s.speeds.into_iter().collect::<Vec<_>>(),
        vec![("fly".to_string(), 30), ("swim".to_string(), 40)],
        "Winged Boots fly at the walking speed"
    );
    assert_eq!(s.senses, vec!["darkvision 60 ft".to_string()]);
    // INT 10, proficiency +2: DC 10 and +2; the wand adds +2 to spell attacks only.
    assert_eq!(numbers(&mut e), (10, 2));
    equip_attune(&mut e, "Kay", "Wand of the War Mage, +2");
    assert_eq!(numbers(&mut e), (10, 4));
    equip_attune(&mut e, "Kay", "Mantle of Spell Resistance");
    let c = sheet(&mut e).character;
    assert_eq!(
        tabletop_engine::derive::gear::save_advantages(&c, Ability::Dexterity, None, None, true),
        vec!["Mantle of Spell Resistance: spells".to_string()]
    );
    assert!(
        tabletop_engine::derive::gear::save_advantages(&c, Ability::Dexterity, None, None, false)
            .is_empty(),
        "only against spells"
    );
    // Unequipped, the boots' flight ends though the attunement stays.
    inv(&mut e, |call| {
        ops::unequip(call, who("Kay"), Some(named("Winged Boots")), None)
    })
    .unwrap();
    assert_eq!(
        sheet(&mut e).speeds.into_iter().collect::<Vec<_>>(),
        vec![("swim".to_string(), 40)]
    );
}

#[test]
fn mithral_armor_drops_the_stealth_disadvantage_and_strength_requirement() {
    let Some(srd) = common::srd("mithral") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    make(&mut e, "Tor", "fighter");
    let plain = give(&mut e, "Tor", "Chain Mail")
        .item
        .unwrap()
        .armor
        .unwrap();
    assert_eq!(
        (plain.stealth_disadvantage, plain.strength_requirement),
        (true, Some(13))
    );
    let m = give(&mut e, "Tor", "Mithral Armor").item.unwrap();
    let a = m.armor.unwrap();
    assert_eq!(
        (
            m.name.as_str(),
            a.base_ac,
            a.stealth_disadvantage,
            a.strength_requirement
        ),
        ("Mithral Armor Chain Mail", 16, false, None)
    );
}

fn stow(
    e: &mut E,
    on: &str,
    item: &str,
    into: Option<&str>,
    quantity: Option<u32>,
) -> Result<InventoryOutcome, EngineError> {
    inv(e, |call| {
        tabletop_engine::inventory::containers::stow(
            call,
            who(on),
            named(item),
            into.map(named),
            quantity,
        )
    })
}

fn give_custom(e: &mut E, to: &str, name: &str, weight: f64, quantity: u32) -> InventoryOutcome {
    inv(e, |call| {
        ops::give(
            call,
            who(to),
            GiveRequest {
                item: Some(ops::ItemDef {
                    name: name.into(),
                    weight: Some(weight),
                    stackable: Some(true),
                    ..Default::default()
                }),
                quantity: Some(quantity),
                ..Default::default()
            },
        )
    })
    .unwrap()
}

#[test]
fn a_bag_of_holding_carries_500_lb_that_weigh_nothing_and_refuses_more() {
    let Some(srd) = common::srd("bag_of_holding") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    make(&mut e, "Bo", "fighter");
    let bag = give(&mut e, "Bo", "Bag of Holding");
    assert_eq!(bag.weight, 15.0);
    // Three 100-lb ingots carried: 315 lb; stowed: the bag's own 15 lb.
    assert_eq!(
        give_custom(&mut e, "Bo", "Iron Ingot", 100.0, 3).weight,
        315.0
    );
    let out = stow(&mut e, "Bo", "Iron Ingot", Some("Bag of Holding"), None).unwrap();
    assert_eq!(out.weight, 15.0);
    assert!(
        out.summary.contains("Bag of Holding holds 300.0/500 lb"),
        "{}",
        out.summary
    );
    assert!(
        out.summary.contains("no automation for its 64 cubic feet"),
        "{}",
        out.summary
    );
    // Two more: 500 lb, exactly full.
    give_custom(&mut e, "Bo", "Iron Ingot", 100.0, 2);
    let out = stow(&mut e, "Bo", "Iron Ingot", Some("Bag of Holding"), Some(2)).unwrap();
    assert_eq!(out.weight, 15.0);
    // A sixth would overload it: refused, the ingot stays carried.
    give_custom(&mut e, "Bo", "Iron Ingot", 100.0, 1);
    let err = stow(&mut e, "Bo", "Iron Ingot", Some("Bag of Holding"), None).unwrap_err();
    assert!(
        err.to_string().contains("holds 500.0 lb of its 500"),
        "{err}"
    );
    assert!(err.to_string().contains("ruptures"), "{err}");
    let view = e.read(|call| ops::view(call, who("Bo"))).unwrap();
    assert_eq!(view.weight, 115.0);
    // A stowed item is taken out before it is equipped; taken out, it weighs again.
    give(&mut e, "Bo", "Longsword");
    stow(&mut e, "Bo", "Longsword", Some("Bag of Holding"), None).unwrap_err(); // 500 + 3 lb
    let err = stow(&mut e, "Bo", "Iron Ingot", Some("Bag of Holding"), None).unwrap_err();
    assert!(matches!(err, EngineError::Rule(_)));
    let out = stow(&mut e, "Bo", "Iron Ingot", None, Some(1)).unwrap();
    assert!(
        out.changes[0].starts_with("1 × Iron Ingot taken out of Bag of Holding"),
        "{:?}",
        out.changes
    );
    assert_eq!(out.weight, 218.0);
    // Handed over, the bag carries its contents along.
    make(&mut e, "Cy", "fighter");
    let out = inv(&mut e, |call| {
        ops::transfer(
            call,
            who("Bo"),
            who("Cy"),
            Some(named("Bag of Holding")),
            None,
            None,
        )
    })
    .unwrap();
    assert_eq!(out.weight, 203.0);
    let cy = e.read(|call| ops::view(call, who("Cy"))).unwrap();
    assert_eq!(cy.weight, 15.0);
    let stowed: u32 = cy
        .carried
        .iter()
        .filter(|i| i.name == "Iron Ingot" && i.inside.is_some())
        .map(|i| i.quantity)
        .sum();
    assert_eq!(stowed, 4);
}

#[test]
fn a_bag_of_holding_in_a_portable_hole_is_refused_with_the_rule_and_the_quiver_counts() {
    let Some(srd) = common::srd("portable_hole") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    make(&mut e, "Po", "ranger");
    give(&mut e, "Po", "Bag of Holding");
    let hole = give(&mut e, "Po", "Portable Hole");
    assert_eq!(hole.weight, 15.0);
    let err = stow(&mut e, "Po", "Bag of Holding", Some("Portable Hole"), None).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("both are destroyed") && msg.contains("Astral Plane"),
        "{msg}"
    );
    // The hole has no weight limit: 400 lb inside weigh nothing.
    give_custom(&mut e, "Po", "Stone Block", 200.0, 2);
    let out = stow(&mut e, "Po", "Stone Block", Some("Portable Hole"), None).unwrap();
    assert_eq!(out.weight, 15.0);
    // The Efficient Quiver: 60 arrows in the short compartment, not 61; 18 javelins.
    give(&mut e, "Po", "Efficient Quiver");
    inv(&mut e, |call| {
        ops::give(
            call,
            who("Po"),
            GiveRequest {
                srd_name: Some("Arrow".into()),
                quantity: Some(61),
                ..Default::default()
            },
        )
    })
    .unwrap();
    let err = stow(&mut e, "Po", "Arrow", Some("Efficient Quiver"), None).unwrap_err();
    assert!(
        err.to_string()
            .contains("ammunition compartment holds 0 of its 60; 61 more"),
        "{err}"
    );
    let before = e.read(|call| ops::view(call, who("Po"))).unwrap().weight;
    let out = stow(&mut e, "Po", "Arrow", Some("Efficient Quiver"), Some(60)).unwrap();
    assert!(
        (before - out.weight - 60.0 * 0.05).abs() < 1e-9,
        "{before} → {}",
        out.weight
    );
    let err = stow(&mut e, "Po", "Arrow", Some("Efficient Quiver"), None).unwrap_err();
    assert!(
        err.to_string().contains("holds 60 of its 60; 1 more"),
        "{err}"
    );
    inv(&mut e, |call| {
        ops::give(
            call,
            who("Po"),
            GiveRequest {
                srd_name: Some("Javelin".into()),
                quantity: Some(18),
                ..Default::default()
            },
        )
    })
    .unwrap();
    stow(&mut e, "Po", "Javelin", Some("Efficient Quiver"), None).unwrap();
}

fn take(e: &mut E, on: &str, t: DamageType, amount: u32) -> u32 {
    let hp = |e: &mut E| {
        e.read(|call| get_character(call, who(on)))
            .unwrap()
            .character
            .hp
    };
    let before = hp(e);
    e.write("update_character", &serde_json::json!({}), |call| {
        update_character(
            call,
            who(on),
            UpdateRequest {
                damage: vec![DamagePart::new(Some(t), amount)],
                ..Default::default()
            },
        )
    })
    .unwrap();
    before - hp(e)
}

#[test]
fn armor_of_resistance_resists_the_type_named_and_armor_of_vulnerability_curses() {
    let Some(srd) = common::srd("armor_of_resistance") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    make(&mut e, "Ar", "fighter");
    let err = inv(&mut e, |call| {
        ops::give(
            call,
            who("Ar"),
            GiveRequest {
                srd_name: Some("Armor of Resistance".into()),
                ..Default::default()
            },
        )
    })
    .unwrap_err();
    assert!(err.to_string().contains("named in parentheses"), "{err}");
    let a = give(&mut e, "Ar", "Armor of Resistance (fire)");
    let name = a.item.unwrap().name;
    assert_eq!(name, "Armor of Resistance Chain Mail (fire)");
    assert_eq!(take(&mut e, "Ar", DamageType::Fire, 10), 10);
    equip_attune(&mut e, "Ar", &name);
    assert_eq!(take(&mut e, "Ar", DamageType::Fire, 10), 5);
    assert_eq!(take(&mut e, "Ar", DamageType::Cold, 6), 6);

    make(&mut e, "Vu", "fighter");
    let v = give(&mut e, "Vu", "Armor of Vulnerability (slashing)")
        .item
        .unwrap();
    assert_eq!(v.name, "Armor of Vulnerability Plate Armor (slashing)");
    equip_attune(&mut e, "Vu", &v.name);
    assert_eq!(take(&mut e, "Vu", DamageType::Slashing, 8), 4);
    assert_eq!(take(&mut e, "Vu", DamageType::Piercing, 4), 8);
    // Taken off, the curse stays: still vulnerable, no longer resistant.
    inv(&mut e, |call| {
        ops::unequip(call, who("Vu"), Some(named(&v.name)), None)
    })
    .unwrap();
    assert_eq!(take(&mut e, "Vu", DamageType::Bludgeoning, 3), 6);
    assert_eq!(take(&mut e, "Vu", DamageType::Slashing, 3), 3);
    let out = inv(&mut e, |call| unattune(call, who("Vu"), named(&v.name))).unwrap();
    assert!(
        out.warnings[0].contains("only Remove Curse"),
        "{:?}",
        out.warnings
    );
    assert_eq!(take(&mut e, "Vu", DamageType::Bludgeoning, 3), 3);
}

#[test]
fn boots_of_striding_and_springing_make_walking_speed_30_whatever_the_armor() {
    let Some(srd) = common::srd("striding_boots") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    // A fighter with STR 14 in plate (STR 15): 30 − 10 = 20 ft.
    make(&mut e, "St", "fighter");
    give(&mut e, "St", "Plate Armor");
    inv(&mut e, |call| {
        ops::equip(call, who("St"), named("Plate Armor"), None)
    })
    .unwrap();
    let speed = |e: &mut E| {
        e.read(|call| get_character(call, who("St")))
            .unwrap()
            .effective
            .speed
            .value
    };
    assert_eq!(speed(&mut e), 20);
    give(&mut e, "St", "Boots of Striding and Springing");
    inv(&mut e, |call| {
        ops::equip(
            call,
            who("St"),
            named("Boots of Striding and Springing"),
            None,
        )
    })
    .unwrap();
    assert_eq!(speed(&mut e), 20, "not attuned: no magic");
    inv(&mut e, |call| {
        attune(call, who("St"), named("Boots of Striding and Springing"))
    })
    .unwrap();
    assert_eq!(speed(&mut e), 30);
    assert_eq!(
        e.read(|call| ops::view(call, who("St")))
            .unwrap()
            .speed
            .value,
        30
    );
}

#[test]
fn the_amulet_of_proof_hides_its_wearer_from_divination_and_boots_levitate_at_will() {
    let Some(srd) = common::srd("amulet_of_proof") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    make(&mut e, "Am", "wizard");
    give(
        &mut e,
        "Am",
        "Amulet of Proof against Detection and Location",
    );
    let hidden = |e: &mut E| {
        let c = e
            .read(|call| get_character(call, who("Am")))
            .unwrap()
            .character;
        tabletop_engine::combat::divination::hidden(&c)
    };
    assert!(!hidden(&mut e));
    equip_attune(
        &mut e,
        "Am",
        "Amulet of Proof against Detection and Location",
    );
    assert!(hidden(&mut e));
    // Boots of Levitation: Levitate on the wearer from the boots, no slot spent.
    give(&mut e, "Am", "Boots of Levitation");
    equip_attune(&mut e, "Am", "Boots of Levitation");
    let out = inv(&mut e, |call| {
        tabletop_engine::magic::item_cast::use_or_cast(
            call,
            who("Am"),
            named("Boots of Levitation"),
            Some(who("Am")),
            None,
            Some("levitate"),
            None,
        )
    })
    .unwrap();
    assert!(out.cast.is_some());
    let c = e.read(|call| get_character(call, who("Am"))).unwrap();
    assert!(
        c.character.effects.iter().any(|x| x.name == "Levitate"),
        "{:?}",
        c.character.effects
    );
    assert_eq!(c.effective.speed.value, 0);
    assert_eq!(
        c.character
            .spell_slots
            .used
            .iter()
            .map(|&u| u32::from(u))
            .sum::<u32>(),
        0
    );
}
