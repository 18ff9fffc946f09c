//! Items that cast spells, through manage_inventory `use` and execute_action `use_magic_item`
//! with the SRD configured (skipped without TABLETOP_SRD_DIR) and pinned seeds: charges paid
//! (extra charges buy higher slots), the item's own DC or the wielder's, no slot spent, narrative
//! spells said, the last charge's d20, and the charges coming back at dawn by the SRD's dice.

use super::common;

use std::sync::Arc;

use tabletop_engine::character::{Character, CharacterRef};
use tabletop_engine::clock::{TimeOfDay, TimeRequest, advance_time};
use tabletop_engine::combat::actions::{ActionRequest, ActionType, Who, execute};
use tabletop_engine::combat::create::{
    CreateEncounter, ParticipantSource, ParticipantSpec, create_encounter,
};
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{AbilityMethod, CreateMode, CreateRequest, create_character};
use tabletop_engine::inventory::attune::attune;
use tabletop_engine::inventory::ops::{self, GiveRequest, InventoryOutcome, ItemRef};
use tabletop_engine::magic::item_cast::use_or_cast;
use tabletop_engine::update::{UpdateRequest, update_character};
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_grid::Position;
use tabletop_rules::damage::DamagePart;
use tabletop_rules::{Ability, DamageType};
use tabletop_srd::Compendium;

type E = Engine<SqliteStore>;

fn engine(dir: &tempfile::TempDir, srd: &Arc<Compendium>, seed: u64) -> E {
    Engine::open(
        SqliteStore::open(&dir.path().join("ic.sqlite")).unwrap(),
        "c",
        EngineOptions {
            seed: Some(seed),
            compendium: CompendiumSource::ready(srd.clone()),
        },
    )
    .unwrap()
}

fn make(e: &mut E, name: &str, class: &str, level: u32) -> String {
    // STR DEX CON INT WIS CHA: INT 16 (+3).
    let req = CreateRequest {
        name: name.into(),
        class: Some(class.into()),
        level: Some(level),
        method: AbilityMethod::Manual,
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([10, 14, 14, 16, 12, 10])
                .collect(),
        ),
        mode: CreateMode::Create,
        ..Default::default()
    };
    e.write("create_character", &serde_json::json!({}), |call| {
        create_character(call, req)
    })
    .unwrap()
    .character
    .id
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

fn inv(
    e: &mut E,
    f: impl FnOnce(&mut tabletop_engine::Call<'_>) -> Result<InventoryOutcome, EngineError>,
) -> Result<InventoryOutcome, EngineError> {
    e.write("manage_inventory", &serde_json::json!({}), f)
}

fn give(e: &mut E, to: &str, item: &str) {
    inv(e, |call| {
        ops::give(
            call,
            who(to),
            GiveRequest {
                srd_name: Some(item.into()),
                ..Default::default()
            },
        )
    })
    .unwrap();
}

fn use_it(
    e: &mut E,
    user: &str,
    item: &str,
    target: Option<&str>,
    spell: Option<&str>,
    level: Option<u8>,
) -> Result<InventoryOutcome, EngineError> {
    inv(e, |call| {
        use_or_cast(
            call,
            who(user),
            named(item),
            target.map(who),
            None,
            spell,
            level,
        )
    })
}

fn character(e: &mut E, name: &str) -> Character {
    e.read(|call| tabletop_engine::characters::resolve(call, who(name)))
        .unwrap()
}

fn charges(e: &mut E, user: &str, item: &str) -> Option<(u32, u32)> {
    character(e, user)
        .inventory
        .items
        .iter()
        .find(|i| i.name == item)
        .map(|i| {
            let c = i.charges.as_ref().unwrap();
            (c.current, c.max)
        })
}

fn set_charges(e: &mut E, user: &str, item: &str, n: u32) {
    let mut c = character(e, user);
    for it in &mut c.inventory.items {
        if it.name == item {
            it.charges.as_mut().unwrap().current = n;
        }
    }
    e.write("t", &serde_json::json!({}), |call| {
        tabletop_engine::combat::put_sheet(call, &c)
    })
    .unwrap();
}

fn lines(o: &InventoryOutcome) -> Vec<String> {
    o.changes.clone()
}

#[test]
fn a_wand_of_magic_missiles_pays_a_charge_per_level_and_any_wielder_can_use_it() {
    let Some(srd) = common::srd("wand_of_magic_missiles") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 11);
    make(&mut e, "Brom", "fighter", 3);
    make(&mut e, "Dummy", "fighter", 5);
    give(&mut e, "Brom", "Wand of Magic Missiles");
    assert_eq!(
        charges(&mut e, "Brom", "Wand of Magic Missiles"),
        Some((7, 7))
    );
    // 3rd level: 1 charge + 1 per level above 1st = 3 charges; 5 darts of 1d4 + 1.
    let hp = character(&mut e, "Dummy").hp;
    let out = use_it(
        &mut e,
        "Brom",
        "Wand of Magic Missiles",
        Some("Dummy"),
        None,
        Some(3),
    )
    .unwrap();
    let cast = out.cast.as_ref().expect("a spell was cast");
    assert_eq!(cast["spell"], "Magic Missile");
    assert_eq!(cast["level"], 3);
    assert_eq!(cast["charges"], 3);
    let l = lines(&out);
    assert_eq!(
        l[0], "Wand of Magic Missiles spends 3 charges (4/7 left)",
        "{l:#?}"
    );
    let darts = l
        .iter()
        .find(|x| x.starts_with("5 darts at Dummy: 5d4 + 5"))
        .unwrap_or_else(|| panic!("{l:#?}"));
    let dealt = cast["details"]["targets"][0]["damageRolled"]
        .as_i64()
        .unwrap();
    assert_eq!(dealt, 20, "seed 11: {darts}");
    assert_eq!(character(&mut e, "Dummy").hp, hp - 20);
    assert_eq!(
        character(&mut e, "Brom").spell_slots.used,
        [0; 9],
        "no slot spent"
    );
    assert_eq!(
        charges(&mut e, "Brom", "Wand of Magic Missiles"),
        Some((4, 7))
    );
    // Beyond the charges left, a level the wand cannot reach, a spell it does not cast.
    let err = use_it(
        &mut e,
        "Brom",
        "Wand of Magic Missiles",
        Some("Dummy"),
        None,
        Some(5),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains(
            "Wand of Magic Missiles has 4/7 charges, not the 5 Magic Missile at 5th level needs"
        ),
        "{err}"
    );
    let err = use_it(
        &mut e,
        "Brom",
        "Wand of Magic Missiles",
        Some("Dummy"),
        Some("Fireball"),
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains(
            "Wand of Magic Missiles does not cast 'Fireball'; it casts: magic-missile (1 charge)"
        ),
        "{err}"
    );
    assert_eq!(
        charges(&mut e, "Brom", "Wand of Magic Missiles"),
        Some((4, 7)),
        "refusals spend nothing"
    );
    // Dawn: the wand regains 1d6 + 1 (seed 11: 1 + 1 = 2).
    let adv = e
        .write("advance_time", &serde_json::json!({}), |call| {
            advance_time(
                call,
                &TimeRequest {
                    until: Some(TimeOfDay::Dawn),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(
        adv.recharged,
        ["Wand of Magic Missiles recharges 4 → 6/7 (dawn, Brom)"],
        "{adv:?}"
    );
    // A day without a dawn passing recharges nothing.
    set_charges(&mut e, "Brom", "Wand of Magic Missiles", 2);
    let adv = e
        .write("advance_time", &serde_json::json!({}), |call| {
            advance_time(
                call,
                &TimeRequest {
                    hours: 2,
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert!(adv.recharged.is_empty(), "{adv:?}");
    assert_eq!(
        charges(&mut e, "Brom", "Wand of Magic Missiles"),
        Some((2, 7))
    );
}

fn pc(id: &str, x: i32, y: i32, init: i32) -> ParticipantSpec {
    ParticipantSpec {
        source: ParticipantSource::Character {
            id: Some(id.into()),
            name: None,
        },
        side: None,
        positions: vec![Position::new(x, y)],
        surprised: false,
        initiative: Some(init),
    }
}

fn monster(m: &str, count: u32, at: &[(i32, i32)]) -> ParticipantSpec {
    ParticipantSpec {
        source: ParticipantSource::Monster {
            monster: m.into(),
            count,
            name: None,
        },
        side: None,
        positions: at.iter().map(|&(x, y)| Position::new(x, y)).collect(),
        surprised: false,
        initiative: Some(1),
    }
}

#[test]
fn a_wand_of_fireballs_in_a_fight_uses_its_own_dc_and_buys_levels_with_charges() {
    let Some(srd) = common::srd("wand_of_fireballs") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let aria = make(&mut e, "Aria", "wizard", 5);
    give(&mut e, "Aria", "Wand of Fireballs");
    // It requires attunement by a spellcaster: refused, nothing spent. Attuning takes a short
    // rest, so it is done before the fight (a fight refuses it).
    let err = inv(&mut e, |call| {
        use_or_cast(
            call,
            who("Aria"),
            named("Wand of Fireballs"),
            None,
            None,
            Some("Fireball"),
            Some(4),
        )
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("works only for a creature attuned to it"),
        "{err}"
    );
    inv(&mut e, |call| {
        attune(call, who("Aria"), named("Wand of Fireballs"))
    })
    .unwrap();
    let out = e
        .write("create_encounter", &serde_json::json!({}), |call| {
            create_encounter(
                call,
                CreateEncounter {
                    participants: vec![
                        pc(&aria, 0, 0, 25),
                        monster("ogre", 2, &[(10, 10), (12, 10)]),
                    ],
                    ..Default::default()
                },
            )
        })
        .unwrap();
    let ogres: Vec<String> = out
        .encounter
        .order
        .iter()
        .filter(|c| c.name.starts_with("Ogre"))
        .map(|c| c.character_id.clone())
        .collect();
    let act = |e: &mut E, level: Option<u8>| {
        let req = ActionRequest {
            actor: Who {
                id: Some(aria.clone()),
                name: None,
            },
            action_type: Some(ActionType::UseMagicItem),
            item: Some("Wand of Fireballs".into()),
            to: Some(Position::new(11, 10)),
            slot_level: level,
            ..Default::default()
        };
        e.write("execute_action", &serde_json::json!({}), |call| {
            execute(call, &req)
        })
    };
    // A wand works while held: in the pack it is refused, nothing spent.
    let err = act(&mut e, Some(4)).unwrap_err().to_string();
    assert!(
        err.starts_with("Wand of Fireballs works while Aria holds it: equip it in a hand first"),
        "{err}"
    );
    inv(&mut e, |call| {
        ops::equip(call, who("Aria"), named("Wand of Fireballs"), None)
    })
    .unwrap();
    // 4th level: 2 charges, 9d6 fire, the wand's DC 15 (Aria's own would be 14).
    let out = act(&mut e, Some(4)).unwrap();
    assert!(
        out.headline
            .starts_with("Fireball (Wand of Fireballs) (4th level)"),
        "{}",
        out.headline
    );
    assert_eq!(
        out.lines[0],
        "Wand of Fireballs spends 2 charges (5/7 left)"
    );
    assert_eq!(out.details["saveDc"], 15);
    let targets = out.details["targets"].as_array().unwrap();
    assert_eq!(targets.len(), 2, "{}", out.details);
    let dmg = out
        .lines
        .iter()
        .find(|l| l.starts_with("Fireball damage: 9d6"))
        .unwrap();
    let rolled: Vec<i64> = targets
        .iter()
        .map(|t| t["damageRolled"].as_i64().unwrap())
        .collect();
    assert_eq!(
        rolled,
        [14, 14],
        "seed 7, {dmg}: both ogres save for half of 28"
    );
    for id in &ogres {
        let hp = e
            .read(|call| tabletop_engine::combat::sheet(call, id))
            .unwrap()
            .hp;
        assert_eq!(hp, 59 - 14);
    }
    assert!(
        out.lines
            .iter()
            .any(|l| l == "item's save DC 15, the wielder's attack +6; no slot spent"),
        "{:#?}",
        out.lines
    );
    assert_eq!(character(&mut e, "Aria").spell_slots.used, [0; 9]);
    assert_eq!(charges(&mut e, "Aria", "Wand of Fireballs"), Some((5, 7)));
    // The action is spent.
    let err = act(&mut e, None).unwrap_err().to_string();
    assert!(err.contains("action"), "{err}");
}

#[test]
fn the_last_charge_of_a_wand_rolls_a_d20_and_a_one_destroys_it() {
    let Some(srd) = common::srd("wand_last_charge") else {
        return;
    };
    // Seed 35: the d20 after the last charge is a 1; seed 4: a 16.
    for (seed, d20, destroyed) in [(35u64, 1, true), (4, 16, false)] {
        let dir = tempfile::tempdir().unwrap();
        let mut e = engine(&dir, &srd, seed);
        make(&mut e, "Brom", "fighter", 3);
        make(&mut e, "Dummy", "fighter", 5);
        give(&mut e, "Brom", "Wand of Magic Missiles");
        set_charges(&mut e, "Brom", "Wand of Magic Missiles", 1);
        let out = use_it(
            &mut e,
            "Brom",
            "Wand of Magic Missiles",
            Some("Dummy"),
            None,
            None,
        )
        .unwrap();
        let l = lines(&out);
        assert_eq!(l[0], "Wand of Magic Missiles spends 1 charge (0/7 left)");
        let roll = l[1].clone();
        if destroyed {
            assert_eq!(roll, format!("last charge spent: d20 = {d20}"), "{l:#?}");
            assert_eq!(l[2], "Wand of Magic Missiles is destroyed");
            assert!(out.item.is_none());
            assert_eq!(charges(&mut e, "Brom", "Wand of Magic Missiles"), None);
        } else {
            assert_eq!(
                roll,
                format!("last charge spent: d20 = {d20} (not a 1: it survives)")
            );
            assert_eq!(
                charges(&mut e, "Brom", "Wand of Magic Missiles"),
                Some((0, 7))
            );
            let err = use_it(
                &mut e,
                "Brom",
                "Wand of Magic Missiles",
                Some("Dummy"),
                None,
                None,
            )
            .unwrap_err()
            .to_string();
            assert!(err.contains("has 0/7 charges"), "{err}");
        }
    }
}

#[test]
fn a_staff_uses_the_wielders_dc_and_a_narrative_spell_says_so() {
    let Some(srd) = common::srd("staff_and_helm") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 5);
    make(&mut e, "Aria", "wizard", 5);
    make(&mut e, "Dummy", "fighter", 5);
    give(&mut e, "Aria", "Staff of Fire");
    inv(&mut e, |call| {
        attune(call, who("Aria"), named("Staff of Fire"))
    })
    .unwrap();
    // Several spells: say which.
    let err = use_it(&mut e, "Aria", "Staff of Fire", Some("Dummy"), None, None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("say which spell Staff of Fire casts: burning-hands (1 charge), fireball (3 charges), wall-of-fire (4 charges)"),
        "{err}"
    );
    // Burning Hands from the staff: 1 charge, at 1st level only, Aria's DC 8 + 3 + 3 = 14.
    let err = use_it(
        &mut e,
        "Aria",
        "Staff of Fire",
        Some("Dummy"),
        Some("Burning Hands"),
        Some(2),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("Staff of Fire casts Burning Hands only at 1st level"),
        "{err}"
    );
    let out = use_it(
        &mut e,
        "Aria",
        "Staff of Fire",
        Some("Dummy"),
        Some("Burning Hands"),
        None,
    )
    .unwrap();
    let cast = out.cast.as_ref().unwrap();
    assert_eq!(cast["details"]["saveDc"], 14);
    assert_eq!(out.changes[0], "Staff of Fire spends 1 charge (9/10 left)");
    assert!(
        out.changes
            .iter()
            .any(|l| l == "the wielder's save DC 14, the wielder's attack +6; no slot spent"),
        "{:#?}",
        out.changes
    );
    // Equipped, the staff also gives fire resistance.
    inv(&mut e, |call| {
        ops::equip(call, who("Aria"), named("Staff of Fire"), None)
    })
    .unwrap();
    let hp = character(&mut e, "Aria").hp;
    e.write("update_character", &serde_json::json!({}), |call| {
        update_character(
            call,
            who("Aria"),
            UpdateRequest {
                damage: vec![DamagePart::new(Some(DamageType::Fire), 8)],
                ..Default::default()
            },
        )
    })
    .unwrap();
    assert_eq!(character(&mut e, "Aria").hp, hp - 4, "8 fire halved");
    // Teleport moves its caster on an encounter's map: outside one the helm pays its charge
    // and says so.
    give(&mut e, "Aria", "Helm of Teleportation");
    inv(&mut e, |call| {
        attune(call, who("Aria"), named("Helm of Teleportation"))
    })
    .unwrap();
    let out = use_it(&mut e, "Aria", "Helm of Teleportation", None, None, None).unwrap();
    assert_eq!(
        out.changes[0],
        "Helm of Teleportation spends 1 charge (2/3 left)"
    );
    assert!(
        out.changes
            .iter()
            .any(|l| l.starts_with("no automation outside an encounter for Teleport: it moves the caster to a chosen square on the encounter map")),
        "{:#?}",
        out.changes
    );
}

#[test]
fn a_necklace_of_fireballs_spends_a_bead_per_level_and_an_elemental_gem_calls_its_elemental() {
    let Some(srd) = common::srd("necklace_gem") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 11);
    make(&mut e, "Brom", "fighter", 3);
    make(&mut e, "Dummy", "fighter", 5);
    give(&mut e, "Brom", "Necklace of Fireballs");
    assert_eq!(
        charges(&mut e, "Brom", "Necklace of Fireballs"),
        Some((6, 6))
    );
    // Two beads thrown together: a 4th-level fireball (9d6), save DC 15.
    let out = use_it(
        &mut e,
        "Brom",
        "Necklace of Fireballs",
        Some("Dummy"),
        None,
        Some(4),
    )
    .unwrap();
    let cast = out.cast.as_ref().expect("a spell was cast");
    assert_eq!(
        (&cast["spell"], &cast["level"], &cast["charges"]),
        (
            &serde_json::json!("Fireball"),
            &serde_json::json!(4),
            &serde_json::json!(2)
        )
    );
    assert_eq!(
        charges(&mut e, "Brom", "Necklace of Fireballs"),
        Some((4, 6))
    );
    assert!(
        lines(&out).iter().any(|l| l.contains("DC 15")),
        "{:#?}",
        lines(&out)
    );
    // A Fire Elemental Gem: broken, it calls an SRD fire elemental as an NPC and is gone.
    give(&mut e, "Brom", "Elemental Gem (fire)");
    let out = use_it(&mut e, "Brom", "Fire Elemental Gem", None, None, None).unwrap();
    let l = lines(&out);
    assert!(
        l[0].starts_with("Brom's Fire Elemental (ch")
            && l[0].ends_with("appears: friendly to Brom, obeying its commands (SRD Fire Elemental stat block, 102 HP each); add them to a fight as participants"),
        "{l:#?}"
    );
    let fe = character(&mut e, "Brom's Fire Elemental");
    assert_eq!((fe.max_hp, fe.hp), (102, 102));
    assert!(
        l.contains(&"Fire Elemental Gem is spent and gone".to_string()),
        "{l:#?}"
    );
    assert!(
        character(&mut e, "Brom")
            .inventory
            .items
            .iter()
            .all(|i| i.name != "Fire Elemental Gem")
    );
}
