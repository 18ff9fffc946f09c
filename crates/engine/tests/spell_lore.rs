//! Travel, sensing and message spells (the `lore` kind) through `execute_action cast_spell` with
//! the SRD configured (skipped without TABLETOP_SRD_DIR), SRD-built casters and seeded dice:
//! Augury's, Divination's and Commune's castings counted to the long rest with the cumulative
//! chance rolled, Scrying's save with its modifiers, Clairvoyance's sensor, Sending's and Animal
//! Messenger's 25 words, the cantrips' three tricks, Teleportation Circle moving the party,
//! Planar Binding's charmed service, Instant Summons, Planar Ally's creature.

use super::common;
use super::spell_support;

use spell_support::*;
use tabletop_engine::catalog::spells::{self, SpellKind};
use tabletop_engine::character::{Character, CharacterRef};
use tabletop_engine::effects::Duration;
use tabletop_engine::rest::{RestKind, take_rest};
use tabletop_rules::Condition;

fn put(e: &mut E, c: &Character) {
    let c = c.clone();
    e.write("t", &serde_json::json!({}), |call| {
        tabletop_engine::combat::put_sheet(call, &c)
    })
    .unwrap();
}

fn give(e: &mut E, id: &str, name: &str, gp: f64, weight: f64) {
    let mut c = sheet(e, id);
    let n = c.inventory.items.len();
    c.inventory.items.push(
        serde_json::from_value(serde_json::json!({
            "id": format!("it{}{n}", name.len()), "name": name, "type": "adventuring_gear",
            "rarity": "common", "value": gp, "quantity": 1, "weight": weight
        }))
        .unwrap(),
    );
    put(e, &c);
}

fn effect<'a>(
    c: &'a Character,
    prefix: &str,
) -> Option<&'a tabletop_engine::effects::ActiveEffect> {
    c.effects.iter().find(|x| x.name.starts_with(prefix))
}

fn long_rest(e: &mut E, id: &str) {
    let id = id.to_string();
    e.write("take_rest", &serde_json::json!({}), |call| {
        take_rest(call, CharacterRef::new(Some(&id), None), RestKind::Long, 0)
    })
    .unwrap();
}

#[test]
fn every_lore_entry_is_resolved_by_the_engine() {
    let lore: Vec<&String> = spells::catalog()
        .iter()
        .filter(|(_, e)| e.kind == SpellKind::Lore)
        .map(|(k, _)| k)
        .collect();
    assert_eq!(
        lore,
        [
            "animal-messenger",
            "augury",
            "clairvoyance",
            "commune",
            "divination",
            "find-the-path",
            "instant-summons",
            "legend-lore",
            "planar-binding",
            "prestidigitation",
            "scrying",
            "sending",
            "teleportation-circle",
            "thaumaturgy",
            "transport-via-plants"
        ]
    );
    for k in lore {
        assert!(tabletop_engine::magic::lore6::handles(k), "{k}");
    }
}

#[test]
fn augury_counts_castings_to_the_long_rest_and_rolls_the_cumulative_random_reading() {
    let Some(srd) = common::srd("lore_augury") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 4);
    let cleric = caster(&mut e, "Mira", "cleric", 5, &["Augury"]);
    let err = cast(&mut e, &cleric, "Augury", |_| {})
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "description: Augury needs description: the course of action to be taken within 30 minutes"
    );
    let ask = |r: &mut tabletop_engine::combat::actions::ActionRequest| {
        r.description = Some("open the vault door".into())
    };
    let first = cast(&mut e, &cleric, "Augury", ask).unwrap();
    assert_eq!(
        first.headline,
        "Mira casts Augury on open the vault door: the DM gives the true omen (weal, woe, weal and woe, or nothing) for results within 30 minutes."
    );
    assert_eq!(
        first.lines[0],
        "the first casting since a long rest: the answer is true"
    );
    let second = cast(&mut e, &cleric, "Augury", ask).unwrap();
    assert_eq!(second.lines[0], PINNED_AUGURY_2, "{:?}", second.details);
    let third = cast(&mut e, &cleric, "Augury", ask).unwrap();
    assert_eq!(third.lines[0], PINNED_AUGURY_3, "{:?}", third.details);
    assert_eq!(third.headline, PINNED_AUGURY_3_HEADLINE);
    let m = sheet(&mut e, &cleric);
    let counted: Vec<&str> = m
        .effects
        .iter()
        .filter(|x| x.name.starts_with("Augury casting"))
        .map(|x| x.name.as_str())
        .collect();
    assert_eq!(
        counted,
        [
            "Augury casting 1 since a long rest",
            "Augury casting 2 since a long rest",
            "Augury casting 3 since a long rest"
        ]
    );
    assert!(
        m.effects
            .iter()
            .filter(|x| x.name.starts_with("Augury"))
            .all(|x| x.duration == Duration::UntilRest)
    );
    assert_eq!(m.spell_slots.left(2), 0);
    // The long rest ends the count: the next casting is the first again.
    long_rest(&mut e, &cleric);
    assert!(effect(&sheet(&mut e, &cleric), "Augury casting").is_none());
    let again = cast(&mut e, &cleric, "Augury", ask).unwrap();
    assert_eq!(
        again.lines[0],
        "the first casting since a long rest: the answer is true"
    );
}

const PINNED_AUGURY_2: &str =
    "casting 2 since a long rest: a 25% chance of a random reading; d100 76: the answer is true";
const PINNED_AUGURY_3: &str =
    "casting 3 since a long rest: a 50% chance of a random reading; d100 8: it happens";
const PINNED_AUGURY_3_HEADLINE: &str = "Mira casts Augury on open the vault door: a random reading, the omen is woe (d4), whatever the truth.";

#[test]
fn divination_consumes_its_incense_and_commune_takes_three_questions() {
    let Some(srd) = common::srd("lore_divination") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 9);
    // The SRD data lists Divination for druids.
    let druid = caster(&mut e, "Oren", "druid", 9, &["Divination"]);
    let cleric = caster(&mut e, "Mira", "cleric", 9, &["Commune"]);
    give(&mut e, &druid, "Incense", 25.0, 0.0);
    let err = cast(&mut e, &druid, "Divination", |r| {
        r.description = Some("Is the duke the traitor? Where is he?".into())
    })
    .unwrap_err()
    .to_string();
    assert_eq!(err, "description: Divination answers one question; 2 asked");
    let out = cast(&mut e, &druid, "Divination", |r| {
        r.description = Some("Will the duke betray us at the feast?".into())
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Oren casts Divination: the DM gives a truthful reply (a short phrase, cryptic rhyme or omen) to: Will the duke betray us at the feast?"
    );
    assert_eq!(
        out.lines[0],
        "Incense (25 gp or more) consumed from Oren's inventory"
    );
    let o = sheet(&mut e, &druid);
    assert!(o.inventory.items.iter().all(|i| i.name != "Incense"));
    assert_eq!(o.spell_slots.left(4), 2);
    let err = cast(&mut e, &cleric, "Commune", |r| {
        r.description = Some("Is it cursed? Is it here? Is he alive? Is she lying?".into())
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "description: Commune answers up to three yes-or-no questions; 4 asked"
    );
    let out = cast(&mut e, &cleric, "Commune", |r| {
        r.description = Some("Is it cursed? Is it here? Is he alive?".into())
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Mira casts Commune: the DM answers the 3 question(s) truthfully with one word each (yes, no, or unclear)."
    );
    assert_eq!(out.details["oracle"]["questions"], 3);
    assert_eq!(out.details["oracle"]["castingSinceLongRest"], 1);
}

#[test]
fn scrying_rolls_the_wisdom_save_with_its_modifiers_and_bars_a_target_that_saved() {
    let Some(srd) = common::srd("lore_scrying") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 12);
    let wiz = caster(&mut e, "Vell", "wizard", 11, &["Scrying"]);
    let near = caster(&mut e, "Near", "fighter", 5, &[]);
    let far = caster(&mut e, "Far", "fighter", 5, &[]);
    let out = cast(&mut e, &wiz, "Scrying", |r| {
        r.target = who(&near);
        r.description = Some("familiar, with a lock of her hair".into())
    })
    .unwrap();
    assert_eq!(out.details["scrying"]["modifier"], -15);
    assert_eq!(out.lines[0], PINNED_SCRY_NEAR, "{}", out.details);
    assert_eq!(
        out.headline,
        "Vell casts Scrying on Near: Near fails; a sensor appears within 10 feet of Near."
    );
    let n = sheet(&mut e, &near);
    assert_eq!(
        effect(&n, "Scrying sensor").map(|x| x.duration.clone()),
        Some(Duration::Concentration {
            caster_id: wiz.clone(),
            spell: "Scrying".into()
        })
    );
    assert_eq!(
        sheet(&mut e, &wiz).concentration.map(|c| c.spell),
        Some("Scrying".into())
    );
    let out = cast(&mut e, &wiz, "Scrying", |r| {
        r.target = who(&far);
        r.description = Some("secondhand".into())
    })
    .unwrap();
    assert_eq!(out.details["scrying"]["modifier"], 5);
    assert_eq!(out.lines[0], PINNED_SCRY_FAR, "{}", out.details);
    assert_eq!(
        out.headline,
        "Vell casts Scrying on Far: Far saves; no sensor, and Vell can't scry them again for 24 hours."
    );
    let err = cast(&mut e, &wiz, "Scrying", |r| {
        r.target = who(&far);
        r.slot_level = Some(6)
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "Far succeeded on a save against Vell's Scrying within 24 hours; it can't be scried by them again until then"
    );
}

const PINNED_SCRY_NEAR: &str = "Near: Wisdom save (Scrying): d20 [14] - 12 = 2 vs DC 15 — fail (knowledge and connection: familiar (−5), body part (−10))";
const PINNED_SCRY_FAR: &str = "Far: Wisdom save (Scrying): d20 [18] + 8 = 26 vs DC 15 — success (knowledge and connection: secondhand (+5))";

#[test]
fn clairvoyance_keeps_a_sensor_of_one_sense_while_the_caster_concentrates() {
    let Some(srd) = common::srd("lore_clairvoyance") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let wiz = caster(&mut e, "Ilse", "wizard", 5, &["Clairvoyance"]);
    let err = cast(&mut e, &wiz, "Clairvoyance", |r| {
        r.description = Some("the crypt".into())
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "description: Clairvoyance: choose one sense, \"seeing\" or \"hearing\" (with the place)"
    );
    let out = cast(&mut e, &wiz, "Clairvoyance", |r| {
        r.description = Some("the crypt below the chapel, hearing".into())
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Ilse casts Clairvoyance: an invisible sensor for hearing at the crypt below the chapel, hearing while Ilse concentrates (up to 10 minutes); the DM describes what is heard."
    );
    let w = sheet(&mut e, &wiz);
    assert_eq!(
        effect(&w, "Clairvoyance sensor").map(|x| x.name.as_str()),
        Some("Clairvoyance sensor (hearing): the crypt below the chapel, hearing")
    );
    assert_eq!(w.spell_slots.left(3), 1);
    let id = wiz.clone();
    e.write("manage_concentration", &serde_json::json!({}), |call| {
        tabletop_engine::concentration::break_concentration(
            call,
            CharacterRef::new(Some(&id), None),
            None,
        )
    })
    .unwrap();
    assert!(effect(&sheet(&mut e, &wiz), "Clairvoyance sensor").is_none());
}

#[test]
fn sending_keeps_a_message_of_25_words_as_a_note() {
    let Some(srd) = common::srd("lore_sending") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let cleric = caster(&mut e, "Mira", "cleric", 5, &["Sending"]);
    let friend = caster(&mut e, "Tam", "fighter", 5, &[]);
    let long = "word ".repeat(26);
    let err = cast(&mut e, &cleric, "Sending", |r| {
        r.target = who(&friend);
        r.description = Some(long.clone())
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "description: Sending carries 25 words or fewer; the message has 26"
    );
    let out = cast(&mut e, &cleric, "Sending", |r| {
        r.target = who(&friend);
        r.description = Some("Meet us at the north gate at dawn".into())
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Mira casts Sending: Tam hears \"Meet us at the north gate at dawn\" (8 words) and recognises the sender; they may answer at once in 25 words or fewer."
    );
    let note = out.details["message"]["note"].as_str().unwrap().to_string();
    let n = e
        .read(|call| {
            call.tx_ref()
                .note(call.campaign(), &note)
                .map_err(Into::into)
        })
        .unwrap()
        .unwrap();
    assert_eq!(
        n.content,
        "Sending from Mira to Tam: \"Meet us at the north gate at dawn\""
    );
    assert_eq!(sheet(&mut e, &cleric).spell_slots.left(3), 1);
}

#[test]
fn animal_messenger_needs_a_tiny_beast_and_tracks_the_slots_hours_on_it() {
    let Some(srd) = common::srd("lore_messenger") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let druid = caster(&mut e, "Dara", "druid", 5, &["Animal Messenger"]);
    let order = fight(
        &mut e,
        vec![
            pc(&druid, 5, 5, 20),
            monster("bat", 1, &[(6, 5)]),
            monster("wolf", 1, &[(5, 6)]),
        ],
    );
    let bat = id_of(&order, "Bat");
    let wolf = id_of(&order, "Wolf");
    let err = cast(&mut e, &druid, "Animal Messenger", |r| {
        r.target = who(&wolf);
        r.description = Some("Come home".into())
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "Animal Messenger needs a Tiny beast; Wolf is a medium beast"
    );
    let out = cast(&mut e, &druid, "Animal Messenger", |r| {
        r.target = who(&bat);
        r.slot_level = Some(3);
        r.description = Some("The bridge is out, take the ford".into())
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Dara casts Animal Messenger: Bat carries \"The bridge is out, take the ford\" for 72 hours (about 50 miles a day flying, 25 otherwise)."
    );
    let b = sheet(&mut e, &bat);
    assert_eq!(
        effect(&b, "Animal Messenger").map(|x| x.duration.clone()),
        Some(Duration::Rounds { remaining: 43_200 })
    );
    assert_eq!(sheet(&mut e, &druid).spell_slots.left(3), 1);
}

#[test]
fn thaumaturgy_and_prestidigitation_keep_at_most_three_lasting_tricks() {
    let Some(srd) = common::srd("lore_tricks") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let cleric = caster(&mut e, "Mira", "cleric", 5, &["Thaumaturgy"]);
    let err = cast(&mut e, &cleric, "Thaumaturgy", |r| {
        r.description = Some("something spooky".into())
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "description: Thaumaturgy needs its option in description: voice (voice booms up to three times as loud); flames (flames flicker, brighten, dim or change color); tremors (harmless tremors in the ground); sound (an instantaneous sound from a point); door (an unlocked door or window flies open or slams shut); eyes (the caster's eyes change appearance)"
    );
    for opt in ["voice", "eyes", "flames"] {
        cast(&mut e, &cleric, "Thaumaturgy", |r| {
            r.description = Some(opt.into())
        })
        .unwrap();
    }
    let m = sheet(&mut e, &cleric);
    let tricks: Vec<(&str, Duration)> = m
        .effects
        .iter()
        .filter(|x| x.name.starts_with("Thaumaturgy: "))
        .map(|x| (x.name.as_str(), x.duration.clone()))
        .collect();
    assert_eq!(
        tricks,
        [
            (
                "Thaumaturgy: voice booms up to three times as loud",
                Duration::Rounds { remaining: 10 }
            ),
            (
                "Thaumaturgy: the caster's eyes change appearance",
                Duration::Rounds { remaining: 10 }
            ),
            (
                "Thaumaturgy: flames flicker, brighten, dim or change color",
                Duration::Rounds { remaining: 10 }
            ),
        ]
    );
    let err = cast(&mut e, &cleric, "Thaumaturgy", |r| {
        r.description = Some("voice".into())
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "Mira already has three Thaumaturgy effects active (Thaumaturgy: voice booms up to three times as loud, Thaumaturgy: the caster's eyes change appearance, Thaumaturgy: flames flicker, brighten, dim or change color); dismiss one first (manage_effect remove, an action)"
    );
    // An instantaneous trick needs no room.
    let out = cast(&mut e, &cleric, "Thaumaturgy", |r| {
        r.description = Some("tremors".into())
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Mira casts Thaumaturgy: harmless tremors in the ground (instantaneous)."
    );
    let wiz = caster(&mut e, "Ilse", "wizard", 5, &["Prestidigitation"]);
    let out = cast(&mut e, &wiz, "Prestidigitation", |r| {
        r.description = Some("warm the soup".into())
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Ilse casts Prestidigitation: nonliving material of 1 cubic foot chilled, warmed or flavored for 1 hour."
    );
    assert_eq!(
        effect(&sheet(&mut e, &wiz), "Prestidigitation: ").map(|x| x.duration.clone()),
        Some(Duration::Rounds { remaining: 600 })
    );
}

#[test]
fn teleportation_circle_moves_the_casters_party_to_a_place_with_a_known_circle() {
    let Some(srd) = common::srd("lore_circle") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let wiz = caster(&mut e, "Vell", "wizard", 9, &["Teleportation Circle"]);
    e.write("setup", &serde_json::json!({}), |call| {
        use tabletop_engine::world::{LocationPatch, create_location};
        for (name, tags) in [
            ("Harbor", vec![]),
            ("Tower of Sigils", vec!["teleportation-circle".to_string()]),
            ("Far Keep", vec![]),
        ] {
            create_location(
                call,
                LocationPatch {
                    name: Some(name.into()),
                    tags: Some(tags),
                    ..Default::default()
                },
            )?;
        }
        tabletop_engine::party::create_party(
            call,
            tabletop_engine::party::PartyDraft {
                name: "Band".into(),
                description: None,
                location: Some(tabletop_engine::model::world::LocationRef::either("Harbor")),
                member: Some((CharacterRef::new(Some(&wiz), None), Default::default())),
            },
        )
    })
    .unwrap();
    let err = cast(&mut e, &wiz, "Teleportation Circle", |r| {
        r.description = Some("Far Keep".into())
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "Far Keep holds no known permanent teleportation circle (tag the place teleportation-circle with manage_location when the caster learns its sigils)"
    );
    let out = cast(&mut e, &wiz, "Teleportation Circle", |r| {
        r.description = Some("Tower of Sigils".into())
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Vell casts Teleportation Circle: the portal opens for a round; Band steps through to Tower of Sigils."
    );
    let p = e
        .read(|call| {
            tabletop_engine::party::resolve_party(
                call,
                tabletop_engine::party::PartyRef::new(None, Some("Band")),
            )
        })
        .unwrap();
    let at = e
        .read(|call| {
            tabletop_engine::world::resolve_location(
                call,
                tabletop_engine::model::world::LocationRef::either("Tower of Sigils"),
                "to",
            )
        })
        .unwrap();
    assert_eq!(p.location_id, Some(at.id));
    assert_eq!(sheet(&mut e, &wiz).spell_slots.left(5), 0);
}

#[test]
fn planar_binding_charms_a_fiend_that_fails_for_the_slots_days() {
    let Some(srd) = common::srd("lore_binding") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let wiz = caster(&mut e, "Vell", "wizard", 13, &["Planar Binding"]);
    let guard = caster(&mut e, "Guard", "fighter", 1, &[]);
    let order = fight(
        &mut e,
        vec![
            pc(&guard, 1, 1, 20),
            monster("imp", 1, &[(3, 3)]),
            monster("goblin", 1, &[(4, 4)]),
        ],
    );
    let imp = id_of(&order, "Imp");
    let goblin = id_of(&order, "Goblin");
    let err = cast(&mut e, &wiz, "Planar Binding", |r| r.target = who(&goblin))
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "Planar Binding binds a celestial, elemental, fey or fiend; Goblin is a humanoid"
    );
    let out = cast(&mut e, &wiz, "Planar Binding", |r| {
        r.target = who(&imp);
        r.slot_level = Some(6)
    })
    .unwrap();
    assert_eq!(out.lines[0], PINNED_BINDING, "{}", out.details);
    assert_eq!(
        out.headline,
        "Vell casts Planar Binding on Imp: Imp fails and is charmed, bound to serve Vell for 10 days."
    );
    let i = sheet(&mut e, &imp);
    let c = i
        .conditions
        .iter()
        .find(|c| c.condition == Condition::Charmed)
        .unwrap();
    assert_eq!(c.source, "Planar Binding (Vell)");
    assert_eq!(c.duration, Some(Duration::Rounds { remaining: 144_000 }));
}

const PINNED_BINDING: &str = "Imp: Charisma save (Planar Binding): d20 [7] + 2 = 9 vs DC 16 — fail";

#[test]
fn instant_summons_marks_an_item_and_calls_it_back_from_a_corpse_but_not_a_living_holder() {
    let Some(srd) = common::srd("lore_summons") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let wiz = caster(&mut e, "Vell", "wizard", 11, &["Instant Summons"]);
    let thief = caster(&mut e, "Thief", "fighter", 1, &[]);
    give(&mut e, &wiz, "Silver Mirror", 50.0, 1.0);
    give(&mut e, &wiz, "Sapphire", 1000.0, 0.0);
    give(&mut e, &wiz, "Sapphire", 1000.0, 0.0);
    give(&mut e, &wiz, "Anvil", 5.0, 60.0);
    let err = cast(&mut e, &wiz, "Instant Summons", |r| {
        r.item = Some("Anvil".into())
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "Anvil weighs 60 lb; Instant Summons marks an object of 10 pounds or less"
    );
    let out = cast(&mut e, &wiz, "Instant Summons", |r| {
        r.item = Some("silver mirror".into())
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Vell casts Instant Summons: Silver Mirror is marked with the sapphire's invisible sigil."
    );
    assert_eq!(sheet(&mut e, &wiz).spell_slots.left(6), 0);
    // The thief takes it; calling it names the thief and keeps it there.
    let mut w = sheet(&mut e, &wiz);
    let pos = w
        .inventory
        .items
        .iter()
        .position(|i| i.name == "Silver Mirror")
        .unwrap();
    let mirror = w.inventory.items.remove(pos);
    put(&mut e, &w);
    let mut t = sheet(&mut e, &thief);
    t.inventory.items.push(mirror);
    put(&mut e, &t);
    // The trigger is the sapphire crushed as an action: no slot (none is left).
    let out = cast(&mut e, &wiz, "Instant Summons", |r| {
        r.item = Some("Silver Mirror".into())
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Vell crushes the sapphire: Thief carries Silver Mirror, so it stays; Vell learns who holds it and roughly where (the DM says where Thief is)."
    );
    let w = sheet(&mut e, &wiz);
    assert_eq!(w.spell_slots.left(6), 0);
    assert_eq!(
        w.inventory
            .items
            .iter()
            .filter(|i| i.name == "Sapphire")
            .count(),
        1
    );
    assert!(effect(&w, "Instant Summons").is_none());
    // Marked again; the thief dies; the mirror comes back from the body.
    let mut t = sheet(&mut e, &thief);
    let mirror = t.inventory.items.pop().unwrap();
    put(&mut e, &t);
    let mut w = sheet(&mut e, &wiz);
    w.inventory.items.push(mirror);
    w.spell_slots.used[5] = 0;
    put(&mut e, &w);
    cast(&mut e, &wiz, "Instant Summons", |r| {
        r.item = Some("Silver Mirror".into())
    })
    .unwrap();
    let mut w = sheet(&mut e, &wiz);
    let pos = w
        .inventory
        .items
        .iter()
        .position(|i| i.name == "Silver Mirror")
        .unwrap();
    let mirror = w.inventory.items.remove(pos);
    put(&mut e, &w);
    let mut t = sheet(&mut e, &thief);
    t.inventory.items.push(mirror);
    t.hp = 0;
    t.dead = true;
    put(&mut e, &t);
    let out = cast(&mut e, &wiz, "Instant Summons", |r| {
        r.item = Some("Silver Mirror".into())
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Vell crushes the sapphire: Silver Mirror vanishes from Thief's body and appears in Vell's hand."
    );
    let w = sheet(&mut e, &wiz);
    assert!(w.inventory.items.iter().any(|i| i.name == "Silver Mirror"));
    assert!(w.inventory.items.iter().all(|i| i.name != "Sapphire"));
    assert!(
        sheet(&mut e, &thief)
            .inventory
            .items
            .iter()
            .all(|i| i.name != "Silver Mirror")
    );
}

#[test]
fn planar_ally_calls_the_named_celestial_beside_the_cleric() {
    let Some(srd) = common::srd("lore_ally") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let cleric = caster(&mut e, "Oren", "cleric", 11, &["Planar Ally"]);
    fight(
        &mut e,
        vec![pc(&cleric, 5, 5, 20), monster("goblin", 1, &[(12, 5)])],
    );
    // Ten minutes of casting: in a fight only as the DM's override.
    let err = cast(&mut e, &cleric, "Planar Ally", |r| {
        r.creature = Some("goblin".into());
        r.force = true
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "creature: Goblin (humanoid) is not a creature Planar Ally can call; it calls an SRD celestial or elemental or fiend of challenge rating 30 or lower"
    );
    let out = cast(&mut e, &cleric, "Planar Ally", |r| {
        r.creature = Some("deva".into());
        r.force = true
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Oren casts Planar Ally (6th level): 1 Deva joins the fight on Oren's side."
    );
    let enc = encounter(&mut e);
    let s = enc
        .summoned
        .iter()
        .find(|s| s.spell == "Planar Ally")
        .unwrap();
    // An instantaneous spell: the creature stays (its service is the DM's bargain).
    assert_eq!((s.concentration, s.until_round), (false, None));
    assert_eq!(
        enc.combatant(&s.id).map(|c| c.name.as_str()),
        Some("Oren's Deva")
    );
}

#[test]
fn find_the_path_gives_the_fewest_minutes_route_and_transport_via_plants_needs_plants() {
    let Some(srd) = common::srd("lore_paths") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let cleric = caster(&mut e, "Oren", "cleric", 11, &["Find the Path"]);
    let druid = caster(&mut e, "Dara", "druid", 11, &["Transport via Plants"]);
    e.write("setup", &serde_json::json!({}), |call| {
        use tabletop_engine::model::world::LocationRef;
        use tabletop_engine::world::{LinkSpec, LocationPatch, create_location, link};
        for (name, terrain) in [
            ("Village", None),
            ("Old Road", None),
            ("Deep Wood", Some("forest")),
            ("Shrine", Some("forest")),
            ("Quarry", Some("rock")),
        ] {
            create_location(
                call,
                LocationPatch {
                    name: Some(name.into()),
                    terrain: terrain.map(Into::into),
                    ..Default::default()
                },
            )?;
        }
        // Village → Shrine: 60 + 60 by the road, 30 + 20 through the wood (one hidden leg).
        for (a, b, m, hidden) in [
            ("Village", "Old Road", 60, false),
            ("Old Road", "Shrine", 60, false),
            ("Village", "Deep Wood", 30, false),
            ("Deep Wood", "Shrine", 20, true),
        ] {
            link(
                call,
                LocationRef::either(a),
                LocationRef::either(b),
                LinkSpec {
                    travel_minutes: Some(m),
                    hidden: Some(hidden),
                    find_dc: hidden.then_some(15),
                    ..Default::default()
                },
            )?;
        }
        for (party, who) in [("Band", &cleric), ("Grove", &druid)] {
            tabletop_engine::party::create_party(
                call,
                tabletop_engine::party::PartyDraft {
                    name: party.into(),
                    description: None,
                    location: Some(LocationRef::either(if party == "Band" {
                        "Village"
                    } else {
                        "Deep Wood"
                    })),
                    member: Some((CharacterRef::new(Some(who), None), Default::default())),
                },
            )?;
        }
        Ok(())
    })
    .unwrap();
    let err = cast(&mut e, &cleric, "Find the Path", |r| {
        r.description = Some("Quarry".into())
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "no way the world knows leads from Village to Quarry: Find the Path fails (the DM decides whether another plane or an unmapped way is involved)"
    );
    let out = cast(&mut e, &cleric, "Find the Path", |r| {
        r.description = Some("Shrine".into())
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Oren casts Find the Path to Shrine: Village → Deep Wood → Shrine (50 minutes of travel)."
    );
    assert_eq!(
        out.lines[1],
        "the way into Shrine is hidden; the spell shows which path to take, finding it is still a search"
    );
    let o = sheet(&mut e, &cleric);
    assert_eq!(
        o.concentration.as_ref().map(|c| c.spell.as_str()),
        Some("Find the Path")
    );
    assert!(effect(&o, "Find the Path: Shrine").is_some());
    // Transport via Plants: the quarry has no plant; the shrine does.
    let err = cast(&mut e, &druid, "Transport via Plants", |r| {
        r.description = Some("Quarry".into())
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "Quarry has no Large living plant to step through (tag it plants, or give it forest, jungle, swamp or grassland terrain)"
    );
    let out = cast(&mut e, &druid, "Transport via Plants", |r| {
        r.description = Some("Shrine".into())
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Dara casts Transport via Plants: Grove steps into a plant at Deep Wood and out of one at Shrine."
    );
    let (p, at) = e
        .read(|call| {
            let p = tabletop_engine::party::resolve_party(
                call,
                tabletop_engine::party::PartyRef::new(None, Some("Grove")),
            )?;
            let at = tabletop_engine::world::resolve_location(
                call,
                tabletop_engine::model::world::LocationRef::either("Shrine"),
                "to",
            )?;
            Ok((p, at))
        })
        .unwrap();
    assert_eq!(p.location_id, Some(at.id));
    assert_eq!(sheet(&mut e, &druid).spell_slots.left(6), 0);
}
