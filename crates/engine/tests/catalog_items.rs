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
    assert_eq!((mechanical, cat.len() - mechanical), (298, 64));
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
    give(&mut e, "Ada", "Bag of Holding");
    let err = inv(&mut e, |call| {
        ops::use_item(call, who("Ada"), named("Bag of Holding"), None, None)
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("its effect: no automation for Bag of Holding: a utility or exploration effect the DM narrates"),
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
