//! The inventory on SQLite: items change the effective stats everywhere, attacks use the equipped
//! weapon, attunement stops at three, potions heal through the pipeline, coins make change,
//! transfers are one transaction, and everything survives a restart.

use super::common;

use std::collections::BTreeMap;
use std::path::Path;

use tabletop_engine::character::CharacterRef;
use tabletop_engine::checks::{CheckOutcome, CheckRequest, WeaponUse, roll_check};
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::inventory::ops::{
    self, GiveRequest, InventoryOutcome, ItemDef, ItemRef, MechanicalEffects, RechargeEvent,
};
use tabletop_engine::inventory::{
    ArmorCategory, ArmorStats, Charges, Currency, ItemType, Recharge, WeaponCategory,
    WeaponProperty, WeaponStats,
};
use tabletop_engine::sheet::get_character;
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_rules::d20::D20Test;
use tabletop_rules::{Ability, DamageType, ScriptedRoller, Skill};

type E = Engine<SqliteStore>;

fn who(name: &str) -> CharacterRef<'_> {
    CharacterRef::new(None, Some(name))
}

fn named(name: &str) -> ItemRef<'_> {
    ItemRef {
        id: None,
        name: Some(name),
    }
}

fn give(e: &mut E, to: &str, def: ItemDef) -> InventoryOutcome {
    e.write("manage_inventory", &serde_json::json!({}), |call| {
        ops::give(
            call,
            who(to),
            GiveRequest {
                item: Some(def),
                ..Default::default()
            },
        )
    })
    .unwrap()
}

fn equip(e: &mut E, on: &str, item: &str) -> Result<InventoryOutcome, EngineError> {
    e.write("manage_inventory", &serde_json::json!({}), |call| {
        ops::equip(call, who(on), named(item), None)
    })
}

fn attune(e: &mut E, on: &str, item: &str) -> Result<InventoryOutcome, EngineError> {
    e.write("manage_inventory", &serde_json::json!({}), |call| {
        tabletop_engine::inventory::attune::attune(call, who(on), named(item))
    })
}

fn longsword(bonus: i32) -> ItemDef {
    ItemDef {
        name: if bonus == 0 {
            "Longsword".into()
        } else {
            format!("Longsword +{bonus}")
        },
        weapon: Some(WeaponStats {
            damage_dice: "1d8".into(),
            damage_type: DamageType::Slashing,
            category: WeaponCategory::MartialMelee,
            properties: vec![WeaponProperty::Versatile],
            range_normal: None,
            range_long: None,
            versatile_damage: Some("1d10".into()),
        }),
        effects: MechanicalEffects {
            attack_bonus: (bonus != 0).then_some(bonus),
            damage_bonus: (bonus != 0).then_some(bonus),
            ..Default::default()
        },
        ..Default::default()
    }
}

fn belt() -> ItemDef {
    ItemDef {
        name: "Belt of Hill Giant Strength".into(),
        requires_attunement: true,
        effects: MechanicalEffects {
            ability_set: BTreeMap::from([(Ability::Strength, 21)]),
            ..Default::default()
        },
        ..Default::default()
    }
}

fn chain_mail() -> ItemDef {
    ItemDef {
        name: "Chain Mail".into(),
        weight: Some(55.0),
        armor: Some(ArmorStats {
            base_ac: 16,
            category: ArmorCategory::Heavy,
            max_dex_bonus: None,
            stealth_disadvantage: true,
            strength_requirement: Some(13),
        }),
        ..Default::default()
    }
}

fn shield() -> ItemDef {
    ItemDef {
        name: "Shield".into(),
        armor: Some(ArmorStats {
            base_ac: 2,
            category: ArmorCategory::Shield,
            max_dex_bonus: None,
            stealth_disadvantage: false,
            strength_requirement: None,
        }),
        ..Default::default()
    }
}

fn attack(e: &mut E, by: &str, weapon: &str, ac: i32) -> CheckOutcome {
    e.write("roll_check", &serde_json::json!({}), |call| {
        roll_check(
            call,
            who(by),
            &CheckRequest {
                dc: Some(ac),
                weapon: Some(WeaponUse {
                    name: weapon.into(),
                    ..Default::default()
                }),
                ..CheckRequest::of(D20Test::Attack {
                    ability: None,
                    proficient: true,
                })
            },
        )
    })
    .unwrap()
}

fn to_hit(out: &CheckOutcome) -> i32 {
    match out {
        CheckOutcome::Rolled { outcome, .. } => outcome.modifier_total,
        CheckOutcome::Passive { .. } => panic!("rolled"),
    }
}

#[test]
fn a_belt_sets_strength_and_a_magic_sword_changes_the_attack() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = common::open(&dir.path().join("t.sqlite"), "main", Some(5));
    common::create(&mut e, common::fighter("Brom", [12, 14, 14, 8, 10, 10]));
    common::create(&mut e, common::fighter("Ogre", [23, 10, 14, 8, 10, 10]));
    give(&mut e, "Brom", longsword(0));
    give(&mut e, "Brom", longsword(1));
    equip(&mut e, "Brom", "Longsword").unwrap();
    let plain = attack(&mut e, "Brom", "Longsword", 12);
    // STR +1, proficiency +2.
    assert_eq!(to_hit(&plain), 3, "{}", plain.summary());
    if let CheckOutcome::Rolled {
        damage: Some(d), ..
    } = &plain
    {
        assert!(
            d.expression.starts_with("1d10[slashing] + 1[slashing]"),
            "{}",
            d.expression
        );
        assert!(!d.applied);
    }
    e.write("manage_inventory", &serde_json::json!({}), |call| {
        ops::unequip(call, who("Brom"), Some(named("Longsword")), None)
    })
    .unwrap();
    equip(&mut e, "Brom", "Longsword +1").unwrap();
    let magic = attack(&mut e, "Brom", "Longsword +1", 12);
    assert_eq!(to_hit(&magic), 4, "+1 to hit: {}", magic.summary());

    give(&mut e, "Brom", belt());
    let out = equip(&mut e, "Brom", "Belt of Hill Giant Strength").unwrap();
    assert!(
        !out.summary.contains("STR 12 → 21"),
        "not attuned yet: {}",
        out.summary
    );
    let out = attune(&mut e, "Brom", "Belt of Hill Giant Strength").unwrap();
    assert!(out.summary.contains("STR 12 → 21"), "{}", out.summary);
    let sheet = e.read(|call| get_character(call, who("Brom"))).unwrap();
    assert_eq!(sheet.effective.score(Ability::Strength), 21);
    let strong = attack(&mut e, "Brom", "Longsword +1", 12);
    assert_eq!(
        to_hit(&strong),
        5 + 2 + 1,
        "STR 21 (+5): {}",
        strong.summary()
    );
    if let CheckOutcome::Rolled {
        damage: Some(d), ..
    } = &strong
    {
        assert!(
            d.expression.contains("+ 6[slashing]"),
            "+5 STR +1 magic: {}",
            d.expression
        );
    }

    // A belt never lowers a higher score.
    give(&mut e, "Ogre", belt());
    equip(&mut e, "Ogre", "belt").unwrap();
    let ogre = e.read(|call| get_character(call, who("Ogre"))).unwrap();
    assert_eq!(ogre.effective.score(Ability::Strength), 23);

    // Unequipping ends the magic; the attunement survives (its own step to end).
    let out = e
        .write("manage_inventory", &serde_json::json!({}), |call| {
            ops::unequip(
                call,
                who("Brom"),
                None,
                Some(tabletop_engine::inventory::Slot::Belt),
            )
        })
        .unwrap();
    assert!(out.summary.contains("STR 21 → 12"), "{}", out.summary);
    assert!(
        out.changes
            .iter()
            .any(|c| c == "Brom stays attuned to Belt of Hill Giant Strength (unattune to end it)"),
        "{:?}",
        out.changes
    );
    let out = equip(&mut e, "Brom", "Belt of Hill Giant Strength").unwrap();
    assert!(
        out.summary.contains("STR 12 → 21"),
        "still attuned: {}",
        out.summary
    );
}

#[test]
fn armor_sets_ac_speed_and_stealth_and_a_shield_adds_two() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = common::open(&dir.path().join("t.sqlite"), "main", None);
    common::create(&mut e, common::fighter("Vex", [12, 16, 14, 8, 10, 10]));
    give(&mut e, "Vex", chain_mail());
    equip(&mut e, "Vex", "chain mail").unwrap();
    let s = e.read(|call| get_character(call, who("Vex"))).unwrap();
    assert_eq!(s.effective.armor_class.value, 16, "heavy armor ignores DEX");
    assert_eq!(s.effective.speed.value, 20, "STR 12 < 13: −10 ft");
    assert!(
        !s.effective.skills[&Skill::Stealth].disadvantage.is_empty(),
        "stealth disadvantage"
    );
    give(&mut e, "Vex", shield());
    equip(&mut e, "Vex", "shield").unwrap();
    let s = e.read(|call| get_character(call, who("Vex"))).unwrap();
    assert_eq!(s.effective.armor_class.value, 18);

    // A two-handed weapon with a shield is refused with the fix.
    let mut great = longsword(0);
    great.name = "Greatsword".into();
    if let Some(w) = great.weapon.as_mut() {
        w.properties = vec![WeaponProperty::TwoHanded, WeaponProperty::Heavy];
        w.damage_dice = "2d6".into();
        w.versatile_damage = None;
    }
    give(&mut e, "Vex", great);
    let err = equip(&mut e, "Vex", "Greatsword").unwrap_err().to_string();
    assert!(
        err.contains("two-handed") && err.contains("unequip Shield"),
        "{err}"
    );

    // Light armor adds all of DEX; medium at most 2.
    let mut leather = chain_mail();
    leather.name = "Studded Leather".into();
    leather.armor = Some(ArmorStats {
        base_ac: 12,
        category: ArmorCategory::Light,
        max_dex_bonus: None,
        stealth_disadvantage: false,
        strength_requirement: None,
    });
    give(&mut e, "Vex", leather);
    let out = equip(&mut e, "Vex", "Studded Leather").unwrap();
    assert!(
        out.summary.contains("Chain Mail unequipped"),
        "{}",
        out.summary
    );
    let s = e.read(|call| get_character(call, who("Vex"))).unwrap();
    assert_eq!(s.effective.armor_class.value, 12 + 3 + 2);
    assert_eq!(s.effective.speed.value, 30);
}

#[test]
fn a_fourth_attunement_is_refused_naming_the_three() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = common::open(&dir.path().join("t.sqlite"), "main", None);
    common::create(&mut e, common::fighter("Kay", [10, 10, 10, 10, 10, 10]));
    for name in [
        "Ring of Warmth",
        "Cloak of Displacement",
        "Amulet of Health",
        "Boots of Speed",
    ] {
        give(
            &mut e,
            "Kay",
            ItemDef {
                name: name.into(),
                requires_attunement: true,
                ..Default::default()
            },
        );
    }
    for name in [
        "Ring of Warmth",
        "Cloak of Displacement",
        "Amulet of Health",
    ] {
        equip(&mut e, "Kay", name).unwrap();
        attune(&mut e, "Kay", name).unwrap();
    }
    equip(&mut e, "Kay", "Boots of Speed").unwrap();
    let err = attune(&mut e, "Kay", "Boots of Speed")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "Kay cannot attune to Boots of Speed: already attuned to 3 items (Ring of Warmth, \
         Cloak of Displacement, Amulet of Health), the most a creature can be; unattune one of \
         them first (manage_inventory unattune)"
    );
    // Restrictions are checked against class and race.
    give(
        &mut e,
        "Kay",
        ItemDef {
            name: "Holy Staff".into(),
            requires_attunement: true,
            attunement_restriction: Some("by a cleric".into()),
            ..Default::default()
        },
    );
    e.write("manage_inventory", &serde_json::json!({}), |call| {
        tabletop_engine::inventory::attune::unattune(call, who("Kay"), named("Amulet of Health"))
    })
    .unwrap();
    let err = attune(&mut e, "Kay", "Holy Staff").unwrap_err().to_string();
    assert!(
        err.contains("by a cleric") && err.contains("Fighter"),
        "{err}"
    );
}

#[test]
fn a_potion_heals_an_ally_through_the_pipeline_and_charges_run_out() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = common::open(&dir.path().join("t.sqlite"), "main", Some(11));
    common::create(&mut e, common::fighter("Ada", [10, 10, 10, 10, 10, 10]));
    common::create(&mut e, common::fighter("Bob", [10, 10, 10, 10, 10, 10]));
    e.write("update_character", &serde_json::json!({}), |call| {
        tabletop_engine::update::update_character(
            call,
            who("Bob"),
            tabletop_engine::update::UpdateRequest {
                hp: Some(tabletop_engine::update::HpChange::Set(1)),
                ..Default::default()
            },
        )
    })
    .unwrap();
    give(
        &mut e,
        "Ada",
        ItemDef {
            name: "Potion of Healing".into(),
            effect: Some("Heal 2d4+2 HP".into()),
            quantity: Some(2),
            ..Default::default()
        },
    );
    let out = e
        .write("manage_inventory", &serde_json::json!({}), |call| {
            ops::use_item(call, who("Ada"), named("potion"), Some(who("Bob")), None)
        })
        .unwrap();
    let roll = out.roll.as_ref().unwrap();
    assert!((4..=10).contains(&roll.total), "2d4+2: {}", roll.total);
    let healed = out.healing.as_ref().unwrap();
    assert_eq!(healed.hp_before, 1);
    assert_eq!(healed.hp_after, 1 + roll.total as u32);
    assert_eq!(out.item.as_ref().unwrap().quantity, 1, "one potion left");
    let bob = e.read(|call| get_character(call, who("Bob"))).unwrap();
    assert_eq!(bob.character.hp, healed.hp_after);

    give(
        &mut e,
        "Ada",
        ItemDef {
            name: "Wand of Sparks".into(),
            charges: Some(Charges {
                current: 1,
                max: 3,
                recharge: Recharge::Dawn,
                recharge_dice: None,
            }),
            ..Default::default()
        },
    );
    let use_wand = |e: &mut E| {
        e.write("manage_inventory", &serde_json::json!({}), |call| {
            ops::use_item(call, who("Ada"), named("wand"), None, None)
        })
    };
    use_wand(&mut e).unwrap();
    let err = use_wand(&mut e).unwrap_err().to_string();
    assert!(err.contains("0/3 charges") && err.contains("dawn"), "{err}");
    // Dawn brings them back.
    let mut ada = e
        .read(|call| get_character(call, who("Ada")))
        .unwrap()
        .character;
    let ch = ops::recharge(
        &mut ada,
        RechargeEvent::Dawn,
        &mut ScriptedRoller::new(vec![]),
    )
    .unwrap();
    assert!(ch[0].contains("0 → 3/3"), "{ch:?}");
}

#[test]
fn coins_make_change_and_transfers_move_items_in_one_call_and_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let (ada_before, bob_before) = {
        let mut e = common::open(&db, "main", None);
        common::create(&mut e, common::fighter("Ada", [14, 10, 10, 10, 10, 10]));
        common::create(&mut e, common::fighter("Bob", [10, 10, 10, 10, 10, 10]));
        e.write("manage_inventory", &serde_json::json!({}), |call| {
            ops::give(
                call,
                who("Ada"),
                GiveRequest {
                    currency: Some(Currency {
                        pp: 2,
                        ..Default::default()
                    }),
                    ..Default::default()
                },
            )
        })
        .unwrap();
        let out = e
            .write("manage_inventory", &serde_json::json!({}), |call| {
                ops::remove(
                    call,
                    who("Ada"),
                    None,
                    None,
                    Some(Currency {
                        gp: 15,
                        sp: 5,
                        ..Default::default()
                    }),
                )
            })
            .unwrap();
        assert_eq!(out.currency.total_cp(), 2_000 - 1_550);
        assert!(out.summary.contains("change"), "{}", out.summary);
        let err = e
            .write("manage_inventory", &serde_json::json!({}), |call| {
                ops::remove(
                    call,
                    who("Ada"),
                    None,
                    None,
                    Some(Currency {
                        pp: 1,
                        ..Default::default()
                    }),
                )
            })
            .unwrap_err()
            .to_string();
        assert!(err.contains("not enough"), "{err}");

        give(&mut e, "Ada", longsword(1));
        equip(&mut e, "Ada", "Longsword +1").unwrap();
        let out = e
            .write("manage_inventory", &serde_json::json!({}), |call| {
                ops::transfer(
                    call,
                    who("Ada"),
                    who("Bob"),
                    Some(named("longsword")),
                    None,
                    Some(Currency {
                        gp: 3,
                        ..Default::default()
                    }),
                )
            })
            .unwrap();
        assert!(
            out.changes.iter().any(|c| c.contains("unequipped")),
            "{:?}",
            out.changes
        );
        let moved = out.item.unwrap();
        assert!(moved.slot.is_none());
        let ada = e.read(|call| get_character(call, who("Ada"))).unwrap();
        let bob = e.read(|call| get_character(call, who("Bob"))).unwrap();
        assert!(ada.character.inventory.items.is_empty());
        assert_eq!(bob.character.inventory.items.len(), 1);
        assert_eq!(bob.character.inventory.currency.gp, 3);
        let err = e
            .write("manage_inventory", &serde_json::json!({}), |call| {
                ops::transfer(
                    call,
                    who("Ada"),
                    who("Bob"),
                    Some(named("Rope")),
                    None,
                    None,
                )
            })
            .unwrap_err()
            .to_string();
        assert!(err.contains("carries nothing called 'Rope'"), "{err}");
        (ada, bob)
    };
    let mut e = common::open(&db, "main", None);
    let ada = e.read(|call| get_character(call, who("Ada"))).unwrap();
    let bob = e.read(|call| get_character(call, who("Bob"))).unwrap();
    assert_eq!(ada.character, ada_before.character);
    assert_eq!(bob.character, bob_before.character);
    assert_eq!(ada.effective, ada_before.effective);
}

#[test]
fn legacy_equipment_names_become_items() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = common::open(&dir.path().join("t.sqlite"), "main", None);
    let mut req = common::fighter("Old", [10, 10, 10, 10, 10, 10]);
    req.equipment = vec!["rope".into(), "torch".into()];
    common::create(&mut e, req);
    let v = e.read(|call| ops::view(call, who("Old"))).unwrap();
    let names: Vec<&str> = v.carried.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["rope", "torch"]);
    // The same ids once a write adopts them.
    let id = v.carried[0].id.clone();
    e.write("manage_inventory", &serde_json::json!({}), |call| {
        ops::remove(
            call,
            who("Old"),
            Some(ItemRef {
                id: Some(&id),
                name: None,
            }),
            None,
            None,
        )
    })
    .unwrap();
    let c = e.read(|call| get_character(call, who("Old"))).unwrap();
    assert!(c.character.equipment.is_empty());
    assert_eq!(c.character.inventory.items.len(), 1);
}

fn srd_engine(path: &Path, test: &str) -> Option<E> {
    let srd = common::srd(test)?;
    let store = SqliteStore::open(path).unwrap();
    Some(
        Engine::open(
            store,
            "main",
            EngineOptions {
                seed: Some(3),
                compendium: CompendiumSource::ready(srd),
            },
        )
        .unwrap(),
    )
}

fn give_srd(e: &mut E, to: &str, name: &str) -> Result<InventoryOutcome, EngineError> {
    e.write("manage_inventory", &serde_json::json!({}), |call| {
        ops::give(
            call,
            who(to),
            GiveRequest {
                srd_name: Some(name.into()),
                ..Default::default()
            },
        )
    })
}

#[test]
fn srd_items_bring_their_stats() {
    let dir = tempfile::tempdir().unwrap();
    let Some(mut e) = srd_engine(&dir.path().join("t.sqlite"), "srd_items_bring_their_stats")
    else {
        return;
    };
    common::create(&mut e, common::fighter("Tor", [12, 10, 14, 8, 10, 10]));
    for n in [
        "Chain Mail",
        "Shield",
        "Longsword +1",
        "Belt of Hill Giant Strength",
    ] {
        give_srd(&mut e, "Tor", n).unwrap();
        equip(&mut e, "Tor", n).unwrap();
    }
    attune(&mut e, "Tor", "Belt of Hill Giant Strength").unwrap();
    let s = e.read(|call| get_character(call, who("Tor"))).unwrap();
    assert_eq!(s.effective.armor_class.value, 18);
    assert_eq!(s.effective.score(Ability::Strength), 21);
    assert_eq!(s.effective.speed.value, 30, "STR 21 meets chain mail's 13");
    let out = attack(&mut e, "Tor", "longsword", 10);
    assert_eq!(to_hit(&out), 5 + 2 + 1, "{}", out.summary());

    let out = give_srd(&mut e, "Tor", "Potion of Healing").unwrap();
    assert_eq!(out.item.unwrap().heal.as_deref(), Some("2d4+2"));
    let err = give_srd(&mut e, "Tor", "Belt of Giant Strength")
        .unwrap_err()
        .to_string();
    assert!(err.contains("Belt of Hill Giant Strength"), "{err}");
    let err = give_srd(&mut e, "Tor", "Longswrod of Wonders")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("no SRD item") && err.contains("did you mean"),
        "{err}"
    );
    let out = give_srd(&mut e, "Tor", "Flame Tongue").unwrap();
    let ft = out.item.unwrap();
    assert!(ft.weapon.is_some() && ft.requires_attunement, "{ft:?}");
}

#[test]
fn arrows_plus_one_in_the_quiver_and_archery_bracers_change_a_bow_shot() {
    let dir = tempfile::tempdir().unwrap();
    let Some(mut e) = srd_engine(&dir.path().join("t.sqlite"), "magic_ammunition") else {
        return;
    };
    common::create(&mut e, common::fighter("Tor", [12, 14, 14, 8, 10, 10]));
    give_srd(&mut e, "Tor", "Longbow").unwrap();
    equip(&mut e, "Tor", "Longbow").unwrap();
    let shot = |e: &mut E| {
        let c = e
            .read(|call| get_character(call, who("Tor")))
            .unwrap()
            .character;
        let bow = c
            .inventory
            .items
            .iter()
            .find(|i| i.name == "Longbow")
            .unwrap()
            .clone();
        let a = tabletop_engine::inventory::weapons::weapon_attack(
            &c,
            &c.effective(),
            &bow,
            true,
            None,
            false,
        )
        .unwrap();
        (a.to_hit, a.damage)
    };
    // DEX 14 (+2), proficiency +2.
    assert_eq!(shot(&mut e), (4, "1d8[piercing] + 2[piercing]".to_string()));
    let arrows = give_srd(&mut e, "Tor", "Arrow +1").unwrap().item.unwrap();
    assert_eq!(
        (arrows.item_type, arrows.srd.as_deref()),
        (ItemType::Ammunition, Some("ammunition-1"))
    );
    // Carried, not in the quiver: nothing; in the quiver: +1 to hit and damage, and only to
    // the bow's shot (the sheet's attack bonus is untouched).
    assert_eq!(shot(&mut e).0, 4);
    equip(&mut e, "Tor", "Arrow +1").unwrap();
    assert_eq!(shot(&mut e), (5, "1d8[piercing] + 3[piercing]".to_string()));
    let out = attack(&mut e, "Tor", "longbow", 10);
    assert_eq!(to_hit(&out), 5, "{}", out.summary());
    let s = e.read(|call| get_character(call, who("Tor"))).unwrap();
    assert_eq!(s.effective.attack.bonus, 0);
    give_srd(&mut e, "Tor", "Bracers of Archery").unwrap();
    equip(&mut e, "Tor", "Bracers of Archery").unwrap();
    attune(&mut e, "Tor", "Bracers of Archery").unwrap();
    assert_eq!(shot(&mut e), (5, "1d8[piercing] + 5[piercing]".to_string()));
}
