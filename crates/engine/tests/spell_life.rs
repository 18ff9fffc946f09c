//! The life-and-creation spells (issue 17, lane "spells6c") through the real tools, SRD
//! configured, SRD-built casters and monsters, seeded dice, exact results: Goodberry's berries
//! heal 1 and spoil after a day, Create or Destroy Water makes and pours out gallons, Mending,
//! Fabricate and Purify Food and Drink change carried items, Gentle Repose stops a corpse's
//! revival clock, Speak with Dead is refused twice in 10 days and on undead, Reincarnate rolls
//! a new race, Contact Other Plane and Dream hurt through saves (Dream spoils the next rest),
//! Awaken raises a wolf's INT, Wish duplicates a spell or costs its stress. The helpers
//! [`prepare`] and [`changed`] set up and judge these spells in the every-spell test.
//! Skipped without TABLETOP_SRD_DIR.

use super::common;
use super::spell_support::{E, cast, caster, engine, sheet, who};

use tabletop_engine::catalog::life6::LifeSpec;
use tabletop_engine::catalog::spells::SpellEntry;
use tabletop_engine::character::{Character, CharacterRef};
use tabletop_engine::clock::{TimeRequest, advance_time};
use tabletop_engine::combat::actions::ActionOutcome;
use tabletop_engine::creation::{CreateMode, CreateRequest, create_character};
use tabletop_engine::inventory::ops::{GiveRequest, ItemDef, ItemRef, give, use_item};
use tabletop_engine::magic::life6::{self, NIGHTMARE, QUESTIONED, REPOSE, WISH_STRESS};
use tabletop_engine::rest::{RestKind, take_rest};
use tabletop_rules::{Ability, Condition};

fn put(e: &mut E, c: &Character) {
    let c = c.clone();
    e.write("t", &serde_json::json!({}), |call| {
        tabletop_engine::combat::put_sheet(call, &c)
    })
    .unwrap();
}

fn npc(e: &mut E, m: &str) -> String {
    e.write("create_character", &serde_json::json!({}), |call| {
        create_character(
            call,
            CreateRequest {
                from_monster: Some(m.into()),
                mode: CreateMode::Create,
                ..Default::default()
            },
        )
    })
    .unwrap()
    .character
    .id
}

fn hand(e: &mut E, id: &str, def: ItemDef) {
    let id = id.to_string();
    e.write("manage_inventory", &serde_json::json!({}), |call| {
        give(
            call,
            CharacterRef::new(Some(&id), None),
            GiveRequest {
                item: Some(def),
                ..Default::default()
            },
        )
    })
    .unwrap();
}

fn item(name: &str, quantity: u32, weight: f64) -> ItemDef {
    ItemDef {
        name: name.into(),
        quantity: Some(quantity),
        weight: Some(weight),
        ..Default::default()
    }
}

fn count(c: &Character, name: &str) -> u32 {
    c.inventory
        .items
        .iter()
        .filter(|i| i.name == name)
        .map(|i| i.quantity)
        .sum()
}

fn pass(e: &mut E, hours: u64, days: u64) {
    e.write("advance_time", &serde_json::json!({}), |call| {
        advance_time(
            call,
            &TimeRequest {
                hours,
                days,
                ..Default::default()
            },
        )
    })
    .unwrap();
}

fn kill(e: &mut E, id: &str) {
    let mut t = sheet(e, id);
    t.hp = 0;
    t.dead = true;
    put(e, &t);
}

fn has_effect(c: &Character, name: &str) -> bool {
    c.effects.iter().any(|x| x.name == name)
}

#[test]
fn goodberry_makes_ten_berries_that_heal_one_and_spoil_after_a_day() {
    let Some(srd) = common::srd("goodberry") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let druid = caster(&mut e, "Fern", "druid", 5, &["Goodberry"]);
    let out = cast(&mut e, &druid, "Goodberry", |_| {}).unwrap();
    assert_eq!(
        out.lines[1],
        "Goodberry makes Goodberry ×10 (gone after 24 hours) in Fern's inventory"
    );
    let mut d = sheet(&mut e, &druid);
    assert_eq!(count(&d, "Goodberry"), 10);
    assert_eq!(d.spell_slots.used[0], 1);
    // One eaten heals exactly 1 hit point.
    d.hp = 20;
    put(&mut e, &d);
    e.write("manage_inventory", &serde_json::json!({}), |call| {
        use_item(
            call,
            CharacterRef::new(Some(&druid), None),
            ItemRef {
                id: None,
                name: Some("Goodberry"),
            },
            None,
            None,
        )
    })
    .unwrap();
    let d = sheet(&mut e, &druid);
    assert_eq!((d.hp, count(&d, "Goodberry")), (21, 9));
    // 23 hours later they are still good; a day after the casting they are gone.
    pass(&mut e, 23, 0);
    assert_eq!(count(&sheet(&mut e, &druid), "Goodberry"), 9);
    pass(&mut e, 1, 0);
    assert_eq!(count(&sheet(&mut e, &druid), "Goodberry"), 0);
}

#[test]
fn create_food_and_water_and_create_or_destroy_water_make_and_pour_out_gallons() {
    let Some(srd) = common::srd("create_water") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let cleric = caster(
        &mut e,
        "Ilse",
        "cleric",
        5,
        &["Create or Destroy Water", "Create Food and Water"],
    );
    cast(&mut e, &cleric, "Create or Destroy Water", |r| {
        r.slot_level = Some(2)
    })
    .unwrap();
    assert_eq!(count(&sheet(&mut e, &cleric), "Water (gallon)"), 20);
    // Naming the carried water destroys up to 10 gallons at 1st level.
    let out = cast(&mut e, &cleric, "Create or Destroy Water", |r| {
        r.item = Some("Water (gallon)".into())
    })
    .unwrap();
    assert_eq!(
        out.lines[1],
        "Create or Destroy Water destroys 10 of Water (gallon) (10 left; it destroys up to 10 gallons)"
    );
    hand(&mut e, &cleric, item("Rope", 1, 10.0));
    let err = cast(&mut e, &cleric, "Create or Destroy Water", |r| {
        r.item = Some("Rope".into())
    })
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "item: Create or Destroy Water destroys water; Rope is not water"
    );
    cast(&mut e, &cleric, "Create Food and Water", |_| {}).unwrap();
    let c = sheet(&mut e, &cleric);
    assert_eq!(
        (
            count(&c, "Food (Create Food and Water)"),
            count(&c, "Water (gallon)")
        ),
        (15, 40)
    );
    // The food spoils after a day; the water doesn't go bad.
    pass(&mut e, 24, 0);
    let c = sheet(&mut e, &cleric);
    assert_eq!(
        (
            count(&c, "Food (Create Food and Water)"),
            count(&c, "Water (gallon)")
        ),
        (0, 40)
    );
}

#[test]
fn mending_fabricate_and_purify_change_the_carried_items() {
    let Some(srd) = common::srd("mending") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let wiz = caster(&mut e, "Mira", "wizard", 9, &["Mending", "Fabricate"]);
    let cleric = caster(&mut e, "Ilse", "cleric", 5, &["Purify Food and Drink"]);
    hand(&mut e, &wiz, item("Lantern", 1, 2.0));
    hand(&mut e, &wiz, item("Broken Lantern", 1, 2.0));
    hand(&mut e, &wiz, item("Iron Ingot", 4, 5.0));
    let err = cast(&mut e, &wiz, "Mending", |r| r.item = Some("Lantern".into())).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Lantern is not broken: Mending repairs a break or tear (an item is broken when its name or state says so)"
    );
    let out = cast(&mut e, &wiz, "Mending", |r| {
        r.item = Some("Broken Lantern".into())
    })
    .unwrap();
    assert_eq!(
        out.lines[1],
        "Mending repairs Broken Lantern: Lantern is whole again (Mira's)"
    );
    let w = sheet(&mut e, &wiz);
    assert_eq!((count(&w, "Lantern"), count(&w, "Broken Lantern")), (2, 0));
    // Fabricate: four ingots (20 lb) become one 20-lb iron pot.
    let err = cast(&mut e, &wiz, "Fabricate", |r| {
        r.item = Some("Iron Ingot".into())
    })
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("item: Fabricate turns a carried raw material"),
        "{err}"
    );
    cast(&mut e, &wiz, "Fabricate", |r| {
        r.item = Some("Iron Ingot".into());
        r.description = Some("Iron Pot".into());
    })
    .unwrap();
    let w = sheet(&mut e, &wiz);
    let pot = w
        .inventory
        .items
        .iter()
        .find(|i| i.name == "Iron Pot")
        .unwrap();
    assert_eq!((count(&w, "Iron Ingot"), pot.weight), (0, 20.0));
    assert_eq!(w.spell_slots.used[3], 1);
    // Purify Food and Drink cleans the poisoned ale the cleric and its target carry.
    hand(&mut e, &cleric, item("Ale (poisoned)", 2, 1.0));
    hand(&mut e, &wiz, item("Diseased Bread", 1, 0.5));
    let out = cast(&mut e, &cleric, "Purify Food and Drink", |r| {
        r.target = who(&wiz)
    })
    .unwrap();
    assert_eq!(
        out.lines[1],
        "Purify Food and Drink makes clean: Ale (poisoned) → Ale (Ilse); Diseased Bread → Bread (Mira)"
    );
    assert_eq!(count(&sheet(&mut e, &cleric), "Ale"), 2);
    assert_eq!(count(&sheet(&mut e, &wiz), "Bread"), 1);
}

#[test]
fn gentle_repose_keeps_the_revival_clock_still_and_speak_with_dead_waits_ten_days() {
    let Some(srd) = common::srd("gentle_repose") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let cleric = caster(
        &mut e,
        "Ilse",
        "cleric",
        9,
        &["Gentle Repose", "Revivify", "Speak with Dead"],
    );
    let bard = caster(&mut e, "Bo", "bard", 3, &[]);
    let zombie = npc(&mut e, "zombie");
    kill(&mut e, &bard);
    let out = cast(&mut e, &cleric, "Gentle Repose", |r| r.target = who(&bard)).unwrap();
    assert_eq!(
        out.details["targets"][0]["phrase"],
        "Bo's remains are kept from decay for 10 days: those days do not count against revival spells' time limits"
    );
    // Two days under the spell count for nothing: Revivify (1 minute) still works.
    pass(&mut e, 0, 2);
    let b = sheet(&mut e, &bard);
    assert!(has_effect(&b, REPOSE) && b.dead);
    // Speak with Dead: once, then refused within 10 days; never on undead or the living.
    let out = cast(&mut e, &cleric, "Speak with Dead", |r| {
        r.target = who(&bard)
    })
    .unwrap();
    assert_eq!(
        out.details["targets"][0]["phrase"],
        "Bo's corpse answers up to 5 questions for 10 minutes (it knows only what it knew in life); it can't be questioned so again for 10 days"
    );
    assert!(has_effect(&sheet(&mut e, &bard), QUESTIONED));
    let err = cast(&mut e, &cleric, "Speak with Dead", |r| {
        r.target = who(&bard)
    })
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Speak with Dead was cast on Bo's corpse within the last 10 days; it fails"
    );
    kill(&mut e, &zombie);
    let err = cast(&mut e, &cleric, "Speak with Dead", |r| {
        r.target = who(&zombie)
    })
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Zombie is undead; Speak with Dead fails on undead"
    );
    let mut c = sheet(&mut e, &cleric);
    c.inventory = Default::default();
    put(&mut e, &c);
    cast(&mut e, &cleric, "Revivify", |r| r.target = who(&bard)).unwrap();
    let b = sheet(&mut e, &bard);
    assert_eq!((b.dead, b.hp), (false, 1));
    // Without the spell, twelve days later the same corpse is beyond Revivify; with it cast at
    // death, the two days past its ten count.
    kill(&mut e, &bard);
    cast(&mut e, &cleric, "Gentle Repose", |r| r.target = who(&bard)).unwrap();
    pass(&mut e, 0, 12);
    let err = cast(&mut e, &cleric, "Revivify", |r| r.target = who(&bard)).unwrap_err();
    assert!(err.to_string().starts_with("Bo died 2 days ago ("), "{err}");
}

#[test]
fn reincarnate_rolls_a_new_race_and_the_sheet_follows() {
    let Some(srd) = common::srd("reincarnate") else {
        return;
    };
    assert_eq!(
        life6::reincarnated_race(13),
        ("Dwarf", "hill", Some("Hill Dwarf"))
    );
    assert_eq!(life6::reincarnated_race(14), ("Dwarf", "mountain", None));
    assert_eq!(life6::reincarnated_race(77), ("Human", "", None));
    assert_eq!(life6::reincarnated_race(100), ("Tiefling", "", None));
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 1);
    let druid = caster(&mut e, "Fern", "druid", 10, &["Reincarnate"]);
    let ftr = e
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(
                call,
                CreateRequest {
                    name: "Rolf".into(),
                    race: Some("Human".into()),
                    class: Some("fighter".into()),
                    level: Some(3),
                    method: tabletop_engine::creation::AbilityMethod::Manual,
                    scores: Some(
                        Ability::ALL
                            .iter()
                            .copied()
                            .zip([15, 14, 14, 10, 10, 10])
                            .collect(),
                    ),
                    mode: CreateMode::Create,
                    ..Default::default()
                },
            )
        })
        .unwrap()
        .character
        .id;
    let before = sheet(&mut e, &ftr);
    assert_eq!(before.race.as_deref(), Some("Human"));
    kill(&mut e, &ftr);
    let wolf = npc(&mut e, "wolf");
    kill(&mut e, &wolf);
    let out = cast(&mut e, &druid, "Reincarnate", |r| r.target = who(&wolf)).unwrap();
    assert_eq!(
        out.details["targets"][0]["phrase"],
        "Wolf is not a humanoid; Reincarnate has no effect"
    );
    let out = cast(&mut e, &druid, "Reincarnate", |r| r.target = who(&ftr)).unwrap();
    let after = sheet(&mut e, &ftr);
    let phrase = out.details["targets"][0]["phrase"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(phrase, PINNED_REINCARNATION, "seed 1");
    assert_eq!(after.race.as_deref(), Some(PINNED_RACE));
    assert_eq!(after.subrace.as_deref(), Some("Lightfoot Halfling"));
    assert_eq!(
        after.build.as_ref().and_then(|b| b.race.as_deref()),
        Some(PINNED_RACE)
    );
    assert!(!after.dead);
    assert_eq!(
        i64::from(after.hp),
        i64::from(after.effective().max_hp.value)
    );
    // The rare oils were not carried: the answer says the DM decides.
    assert!(out.lines.iter().any(|l| l
        == "Reincarnate needs a rare oils worth 1000 gp, consumed; Fern has none in their inventory — the DM decides whether the casting happens"));
}

const PINNED_REINCARNATION: &str = "d100 63: Rolf returns to life in a new Halfling, lightfoot body (was Human) with 28 HP; race traits and scores are derived again";
const PINNED_RACE: &str = "Halfling";

#[test]
fn contact_other_plane_and_dream_hurt_through_saves_and_a_nightmare_spoils_the_rest() {
    let Some(srd) = common::srd("contact_other_plane") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 5);
    let wiz = caster(
        &mut e,
        "Mira",
        "wizard",
        9,
        &["Contact Other Plane", "Dream"],
    );
    let bard = caster(&mut e, "Bo", "bard", 3, &[]);
    let out = cast(&mut e, &wiz, "Contact Other Plane", |_| {}).unwrap();
    let w = sheet(&mut e, &wiz);
    assert_eq!(out.lines[1..3], PINNED_CONTACT);
    assert!(has_effect(&w, "Insane (Contact Other Plane)"));
    assert!(!w.effective().incapacitated.is_empty());
    // Dream as a nightmare: the bard fails its WIS save; its next rest gives nothing back.
    let mut w = sheet(&mut e, &wiz);
    w.spell_slots.used[4] = 0;
    put(&mut e, &w);
    let out = cast(&mut e, &wiz, "Dream", |r| {
        r.target = who(&bard);
        r.description = Some("a nightmare".into());
    })
    .unwrap();
    assert_eq!(out.details["targets"][0]["saved"], false, "{}", out.details);
    let mut b = sheet(&mut e, &bard);
    assert!(has_effect(&b, NIGHTMARE));
    b.spell_slots.used[0] = 2;
    put(&mut e, &b);
    let hp = b.hp;
    let rest = e
        .write("take_rest", &serde_json::json!({}), |call| {
            take_rest(
                call,
                CharacterRef::new(Some(&bard), None),
                RestKind::Long,
                0,
            )
        })
        .unwrap();
    let b = sheet(&mut e, &bard);
    assert_eq!(rest.changes[0], PINNED_NIGHTMARE);
    assert_eq!(
        (b.spell_slots.used[0], hp - b.hp),
        (2, PINNED_NIGHTMARE_DAMAGE)
    );
    assert!(!has_effect(&b, NIGHTMARE));
    // The wizard's insanity lasts until its long rest.
    e.write("take_rest", &serde_json::json!({}), |call| {
        take_rest(call, CharacterRef::new(Some(&wiz), None), RestKind::Long, 0)
    })
    .unwrap();
    assert!(!has_effect(
        &sheet(&mut e, &wiz),
        "Insane (Contact Other Plane)"
    ));
}

const PINNED_CONTACT: [&str; 2] = [
    "Mira — Intelligence save vs Contact Other Plane: d20 [5] + 7 = 12 vs DC 15 — fail",
    "Mira fails: 12 psychic damage (6d6: [2, 3, 1, 2, 1, 3] = 12; 56 → 44 HP) and Insane (Contact Other Plane) until a long rest: incapacitated, can't understand others, read or speak sensibly (Greater Restoration ends it: remove the effect)",
];
const PINNED_NIGHTMARE: &str = "Bo's rest is haunted by a nightmare (Dream): no benefit from this rest; 16 psychic damage on waking (3d6: [5, 5, 6] = 16; 24 → 8 HP)";
const PINNED_NIGHTMARE_DAMAGE: u32 = 16;

#[test]
fn awaken_gives_a_wolf_int_10_and_charms_it_for_30_days() {
    let Some(srd) = common::srd("awaken") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let druid = caster(&mut e, "Fern", "druid", 11, &["Awaken"]);
    let wolf = npc(&mut e, "wolf");
    let ogre = npc(&mut e, "ogre");
    let out = cast(&mut e, &druid, "Awaken", |r| r.target = who(&ogre)).unwrap();
    assert_eq!(
        out.details["targets"][0]["phrase"],
        "Ogre is unaffected: Awaken touches a beast or plant (Ogre is giant)"
    );
    cast(&mut e, &druid, "Awaken", |r| r.target = who(&wolf)).unwrap();
    let w = sheet(&mut e, &wolf);
    assert_eq!(w.effective().score(Ability::Intelligence), 10);
    let charm = w
        .conditions
        .iter()
        .find(|c| c.condition == Condition::Charmed)
        .unwrap();
    assert_eq!(
        charm.duration,
        Some(tabletop_engine::effects::Duration::Rounds { remaining: 432_000 })
    );
    // Already awakened (INT 10): a second casting leaves it as it is.
    let mut d = sheet(&mut e, &druid);
    d.spell_slots.used[4] = 0;
    put(&mut e, &d);
    let out = cast(&mut e, &druid, "Awaken", |r| r.target = who(&wolf)).unwrap();
    assert_eq!(
        out.details["targets"][0]["phrase"],
        "Wolf is unaffected: Awaken works on a creature of Intelligence 3 or less (Wolf has 10)"
    );
}

#[test]
fn wish_duplicates_a_spell_or_costs_its_stress() {
    let Some(srd) = common::srd("wish") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 9);
    let wiz = caster(&mut e, "Mira", "wizard", 17, &["Wish", "Magic Missile"]);
    let ogre = npc(&mut e, "ogre");
    let hp = sheet(&mut e, &ogre).hp;
    let out = cast(&mut e, &wiz, "Wish", |r| {
        r.target = who(&ogre);
        r.description = Some("Magic Missile".into());
    })
    .unwrap();
    assert_eq!(
        out.lines[0],
        "Wish duplicates Magic Missile (1st level), with no costly material and no casting time of its own"
    );
    let taken = hp - sheet(&mut e, &ogre).hp;
    assert_eq!(taken, PINNED_WISH_MISSILES, "{}", out.details);
    assert_eq!(sheet(&mut e, &wiz).spell_slots.used[8], 1);
    // Another wish: the DM's, and the stress.
    let mut w = sheet(&mut e, &wiz);
    w.spell_slots.used[8] = 0;
    put(&mut e, &w);
    let out = cast(&mut e, &wiz, "Wish", |r| {
        r.description = Some("a castle on the hill".into());
    })
    .unwrap();
    assert_eq!(out.details["automation"], PINNED_WISH_OTHER);
    let w = sheet(&mut e, &wiz);
    assert!(has_effect(&w, WISH_STRESS));
    assert_eq!(w.effective().score(Ability::Strength), 3);
    // Until a long rest every spell hurts: 1d10 necrotic for Magic Missile's 1st level.
    let hp = w.hp;
    let out = cast(&mut e, &wiz, "Magic Missile", |r| r.target = who(&ogre)).unwrap();
    assert_eq!(out.lines[0], PINNED_STRESS_LINE);
    assert_eq!(hp - sheet(&mut e, &wiz).hp, 5);
    // The d100 came up 15 (33 or less): Wish is gone for good.
    let mut w = sheet(&mut e, &wiz);
    w.spell_slots.used[8] = 0;
    put(&mut e, &w);
    let err = cast(&mut e, &wiz, "Wish", |r| {
        r.target = who(&ogre);
        r.description = Some("Fireball".into());
    })
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Mira can never cast Wish again (the stress of an earlier wish)"
    );
}

const PINNED_WISH_MISSILES: u32 = 14;
const PINNED_WISH_OTHER: &str = "no automation for the wish \"a castle on the hill\": the DM decides what happens. The stress: until a long rest each spell Mira casts deals 1d10 necrotic per its level to them; Strength 3 for 5 days (2d4: [4, 1] = 5); d100 15 — 33 or less: they can never cast Wish again";
const PINNED_STRESS_LINE: &str = "Wish stress: Mira takes 5 necrotic casting a spell of level 1 (1d10: [5] = 5; 104 → 99 HP; it can't be reduced or prevented)";

#[test]
fn simulacrum_copies_a_humanoid_at_half_hp_that_regains_no_slots_and_replaces_the_last() {
    let Some(srd) = common::srd("simulacrum") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let wiz = caster(&mut e, "Mira", "wizard", 13, &["Simulacrum"]);
    let bard = caster(&mut e, "Bo", "bard", 3, &[]);
    let ogre = npc(&mut e, "ogre");
    let err = cast(&mut e, &wiz, "Simulacrum", |r| r.target = who(&ogre)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Ogre is unaffected: Simulacrum affects only beasts or humanoids (Ogre is a giant)"
    );
    let b = sheet(&mut e, &bard);
    let full = b.effective().max_hp.value;
    let out = cast(&mut e, &wiz, "Simulacrum", |r| r.target = who(&bard)).unwrap();
    let copy_id = out.details["targets"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut copy = sheet(&mut e, &copy_id);
    assert_eq!(copy.name, "Simulacrum of Bo");
    assert_eq!(
        (copy.effective().max_hp.value, copy.hp as i32),
        (full / 2, full / 2)
    );
    assert_eq!(
        out.details["targets"][0]["phrase"],
        format!(
            "Simulacrum of Bo ({copy_id}) appears: a copy of Bo with {} HP (half its hit point maximum) and no equipment, friendly to Mira and obeying their spoken commands; it regains no spell slots",
            full / 2
        )
    );
    // A spent slot stays spent through a long rest.
    copy.spell_slots.used[0] = 2;
    put(&mut e, &copy);
    let rest = e
        .write("take_rest", &serde_json::json!({}), |call| {
            take_rest(
                call,
                CharacterRef::new(Some(&copy_id), None),
                RestKind::Long,
                0,
            )
        })
        .unwrap();
    assert!(
        rest.changes
            .iter()
            .any(|c| c == "a simulacrum regains no spell slots")
    );
    assert_eq!(sheet(&mut e, &copy_id).spell_slots.used[0], 2);
    // A second simulacrum destroys the first.
    let mut w = sheet(&mut e, &wiz);
    w.spell_slots.used[6] = 0;
    put(&mut e, &w);
    let out = cast(&mut e, &wiz, "Simulacrum", |r| r.target = who(&bard)).unwrap();
    assert!(
        out.lines
            .iter()
            .any(|l| l == "Mira's earlier simulacrum, Simulacrum of Bo, is destroyed")
    );
    let gone = copy_id.clone();
    assert!(
        e.read(|call| tabletop_engine::combat::sheet(call, &gone))
            .is_err()
    );
}

#[test]
fn rope_trick_takes_up_to_eight_off_the_map_until_its_hour_ends() {
    let Some(srd) = common::srd("rope_trick") else {
        return;
    };
    use super::spell_support::{advance, encounter, fight, monster, pc};
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let aria = caster(&mut e, "Aria", "wizard", 5, &["Rope Trick"]);
    let bran = caster(&mut e, "Bran", "cleric", 3, &[]);
    fight(
        &mut e,
        vec![
            pc(&aria, 5, 5, 20),
            pc(&bran, 6, 5, 15),
            monster("ogre", 1, &[(12, 5)]),
        ],
    );
    let out = cast(&mut e, &aria, "Rope Trick", |r| r.target = who(&bran)).unwrap();
    assert_eq!(out.headline, "Aria casts Rope Trick: Bran banished.");
    assert!(out.lines.iter().any(|l| l
        == "Bran leaves (6, 5) for Rope Trick's space: off the map and the initiative until it ends (600 rounds)"));
    let enc = encounter(&mut e);
    assert_eq!(enc.position_of(&bran), None);
    assert!(enc.combatant(&bran).unwrap().removed);
    // Its last round runs out at the end of Aria's turn: Bran climbs back down.
    let mut a = sheet(&mut e, &aria);
    let fx = a
        .effects
        .iter_mut()
        .find(|x| x.name == "Rope Trick")
        .unwrap();
    assert_eq!(
        fx.duration,
        tabletop_engine::effects::Duration::Rounds { remaining: 600 }
    );
    fx.duration = tabletop_engine::effects::Duration::Rounds { remaining: 1 };
    put(&mut e, &a);
    let mut said = Vec::new();
    for _ in 0..2 {
        said.extend(advance(&mut e).end_of_turn);
    }
    assert!(
        said.iter()
            .any(|l| l == "Bran returns at (6, 5): Aria's Rope Trick ended"),
        "{said:?}"
    );
    let enc = encounter(&mut e);
    assert_eq!(
        enc.position_of(&bran),
        Some(tabletop_grid::Position::new(6, 5))
    );
    assert!(!enc.combatant(&bran).unwrap().removed);
}

/// The every-spell test's set-up for a life spell: the carried items its request names, and
/// its target dead or afflicted as the spell needs. Returns (item, description).
pub fn prepare(
    e: &mut E,
    entry: &SpellEntry,
    caster_id: &str,
    target: &mut Character,
) -> (Option<String>, Option<String>) {
    match entry.life.as_ref() {
        Some(LifeSpec::Mend) => {
            hand(e, caster_id, item("Broken Lantern", 1, 2.0));
            (Some("Broken Lantern".into()), None)
        }
        Some(LifeSpec::Fabricate) => {
            hand(e, caster_id, item("Iron Ingot", 2, 5.0));
            (Some("Iron Ingot".into()), Some("Iron Pot".into()))
        }
        Some(LifeSpec::Purify) => {
            hand(e, caster_id, item("Ale (poisoned)", 1, 1.0));
            (None, None)
        }
        Some(
            LifeSpec::GentleRepose { .. }
            | LifeSpec::SpeakWithDead { .. }
            | LifeSpec::Reincarnate { .. },
        ) => {
            target.hp = 0;
            target.dead = true;
            (None, None)
        }
        Some(LifeSpec::Dream { .. }) => (None, Some("a nightmare".into())),
        Some(LifeSpec::Wish { .. }) => (None, Some("Magic Missile".into())),
        _ => (None, None),
    }
}

/// Whether a life spell changed what it says (the every-spell test), or said why not.
pub fn changed(
    entry: &SpellEntry,
    (caster_before, caster_after): (&Character, &Character),
    (before, after): (&Character, &Character),
    out: &ActionOutcome,
) -> bool {
    let items = |c: &Character| {
        c.inventory
            .items
            .iter()
            .map(|i| (i.name.clone(), i.quantity))
            .collect::<Vec<_>>()
    };
    let effects = |c: &Character| c.effects.iter().map(|x| x.name.clone()).collect::<Vec<_>>();
    match entry.life.as_ref() {
        Some(
            LifeSpec::Create { .. }
            | LifeSpec::Water { .. }
            | LifeSpec::Purify
            | LifeSpec::Mend
            | LifeSpec::Fabricate,
        ) => items(caster_before) != items(caster_after),
        Some(LifeSpec::CasterSave { .. }) => {
            effects(caster_before) != effects(caster_after)
                || out.lines.iter().any(|l| l.contains("keeps their mind"))
        }
        Some(LifeSpec::Reincarnate { .. }) => before.dead && !after.dead,
        Some(LifeSpec::Wish { .. }) => after.hp < before.hp,
        Some(LifeSpec::Simulacrum) => out.details["targets"][0]["phrase"]
            .as_str()
            .is_some_and(|p| p.starts_with("Simulacrum of ")),
        Some(_) => effects(before) != effects(after),
        None => false,
    }
}
