//! Summoning spells through the real tools with the SRD configured (skipped without
//! TABLETOP_SRD_DIR) and seeded dice: the creature is read from the SRD by the caster's choice,
//! the count and challenge rating come from the spell and slot, the creatures join the fight
//! beside the caster on its side with one group initiative, act, and vanish when the caster's
//! concentration ends.

use super::common;
use super::spell_support;

use spell_support::*;
use tabletop_engine::combat::actions::{ActionRequest, ActionType};
use tabletop_engine::model::encounter::Side;
use tabletop_grid::Position;

#[test]
fn conjure_animals_calls_eight_wolves_beside_the_druid_that_vanish_with_concentration() {
    let Some(srd) = common::srd("conjure_animals") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 21);
    let dara = caster(&mut e, "Dara", "druid", 5, &["Conjure Animals"]);
    let order = fight(
        &mut e,
        vec![pc(&dara, 5, 5, 20), monster("goblin", 1, &[(12, 5)])],
    );
    let goblin = id_of(&order, "Goblin");
    let err = cast(&mut e, &dara, "Conjure Animals", |_| {})
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "creature: Conjure Animals calls a creature of the caster's choice: pass creature, an SRD beast of challenge rating 2 or lower"
    );
    let err = cast(&mut e, &dara, "Conjure Animals", |r| {
        r.creature = Some("giant scorpion".into())
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "Giant Scorpion is challenge rating 3; Conjure Animals calls creatures of challenge rating 2 or lower"
    );
    let err = cast(&mut e, &dara, "Conjure Animals", |r| {
        r.creature = Some("goblin".into())
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "creature: Goblin (humanoid) is not a creature Conjure Animals can call; it calls an SRD beast of challenge rating 2 or lower"
    );
    let out = cast(&mut e, &dara, "Conjure Animals", |r| {
        r.creature = Some("wolf".into())
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Dara casts Conjure Animals (3rd level): 8 Wolf join the fight on Dara's side."
    );
    let enc = encounter(&mut e);
    let wolves: Vec<_> = enc
        .order
        .iter()
        .filter(|c| c.name.starts_with("Dara's Wolf"))
        .collect();
    assert_eq!(wolves.len(), 8);
    assert!(wolves.iter().all(|w| w.side == Side::Party));
    // One initiative for the group.
    let init = wolves[0].initiative;
    assert!(wolves.iter().all(|w| w.initiative == init));
    // Placed in the ring around Dara: each within 5 ft of (5, 5).
    let at: Vec<Position> = wolves
        .iter()
        .map(|w| enc.position_of(&w.character_id).unwrap())
        .collect();
    assert!(
        at.iter().all(|p| (p.x - 5).abs().max((p.y - 5).abs()) == 1),
        "{at:?}"
    );
    let wolf = sheet(&mut e, &wolves[0].character_id);
    assert_eq!((wolf.hp, wolf.effective().armor_class.value), (11, 13));
    assert_eq!(
        sheet(&mut e, &dara).concentration.map(|c| c.spell),
        Some("Conjure Animals".to_string())
    );
    // The goblin hits Dara hard enough to break concentration? Drop it by hand: Dara casts
    // another concentration spell next turn is simpler — end concentration with the tool.
    let dara_id = dara.clone();
    e.write("concentration", &serde_json::json!({}), |call| {
        tabletop_engine::concentration::break_concentration(
            call,
            tabletop_engine::character::CharacterRef::new(Some(&dara_id), None),
            Some("distracted"),
        )
    })
    .unwrap();
    let report = advance(&mut e);
    let gone: Vec<&String> = report
        .end_of_turn
        .iter()
        .filter(|l| l.contains("vanishes"))
        .collect();
    assert_eq!(gone.len(), 8, "{:?}", report.end_of_turn);
    assert_eq!(
        gone[0],
        "Dara's Wolf 1 vanishes: Dara's concentration on Conjure Animals ended"
    );
    let enc = encounter(&mut e);
    assert!(
        enc.order
            .iter()
            .filter(|c| c.name.starts_with("Dara's Wolf"))
            .all(|c| c.removed && enc.position_of(&c.character_id).is_none())
    );
    let _ = goblin;
}

#[test]
fn summoned_wolves_take_turns_and_attack_for_the_caster() {
    let Some(srd) = common::srd("summon_attack") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 4);
    let dara = caster(&mut e, "Dara", "druid", 5, &["Conjure Animals"]);
    let order = fight(
        &mut e,
        vec![pc(&dara, 5, 5, 20), monster("goblin", 1, &[(7, 5)])],
    );
    let goblin = id_of(&order, "Goblin");
    // A dire wolf is CR 1: two come.
    let out = cast(&mut e, &dara, "Conjure Animals", |r| {
        r.creature = Some("dire wolf".into())
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Dara casts Conjure Animals (3rd level): 2 Dire Wolf join the fight on Dara's side."
    );
    // Advance until a dire wolf's turn, then it bites the goblin.
    let mut wolf_turn = None;
    for _ in 0..4 {
        let r = advance(&mut e);
        if r.current
            .as_deref()
            .is_some_and(|n| n.starts_with("Dara's Dire Wolf"))
        {
            wolf_turn = r.current;
            break;
        }
    }
    let wolf_name = wolf_turn.expect("a dire wolf takes a turn");
    let enc = encounter(&mut e);
    let wolf = enc
        .order
        .iter()
        .find(|c| c.name == wolf_name)
        .unwrap()
        .character_id
        .clone();
    // Large: it moves to fill (8, 5)–(9, 6), next to the goblin at (7, 5).
    act(
        &mut e,
        ActionRequest {
            actor: who(&wolf),
            action_type: Some(ActionType::Move),
            to: Some(Position::new(8, 5)),
            ..Default::default()
        },
    )
    .unwrap();
    let out = act(
        &mut e,
        ActionRequest {
            actor: who(&wolf),
            action_type: Some(ActionType::Attack),
            target: who(&goblin),
            weapon: Some("Bite".into()),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(
        out.headline, "Hit! Goblin takes 9 piercing (7 → 0 HP) and dies.",
        "{:?}",
        out.lines
    );
    assert!(sheet(&mut e, &goblin).dead);
}

#[test]
fn find_familiar_and_animate_dead_call_their_listed_creatures_by_slot() {
    let Some(srd) = common::srd("familiar_dead") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let aria = caster(
        &mut e,
        "Aria",
        "wizard",
        5,
        &["Find Familiar", "Animate Dead"],
    );
    fight(
        &mut e,
        vec![pc(&aria, 5, 5, 20), monster("goblin", 1, &[(15, 5)])],
    );
    // An hour-long casting is the DM's override in a fight (cast before it, in truth).
    let err = cast(&mut e, &aria, "Find Familiar", |r| {
        r.force = true;
        r.creature = Some("wolf".into());
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "creature: Wolf (beast) is not a creature Find Familiar can call; it calls bat, cat, crab, frog, hawk, lizard, octopus, owl, poisonous-snake, quipper, rat, raven, sea-horse, spider, weasel"
    );
    let out = cast(&mut e, &aria, "Find Familiar", |r| {
        r.force = true;
        r.creature = Some("owl".into());
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Aria casts Find Familiar (1st level): 1 Owl joins the fight on Aria's side."
    );
    assert!(
        out.lines.iter().any(|l| l
            == "left to the DM: a familiar can't attack; its celestial, fey or fiend type, telepathy and delivering touch spells are the DM's"),
        "{:?}",
        out.lines
    );
    advance(&mut e);
    advance(&mut e);
    advance(&mut e);
    // Animate Dead at 3rd: one skeleton; it is not concentration, so it stays.
    let out = cast(&mut e, &aria, "Animate Dead", |r| {
        r.force = true;
        r.creature = Some("skeleton".into());
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Aria casts Animate Dead (3rd level): 1 Skeleton joins the fight on Aria's side."
    );
    let enc = encounter(&mut e);
    let names: Vec<&str> = enc
        .order
        .iter()
        .filter(|c| !c.removed)
        .map(|c| c.name.as_str())
        .collect();
    assert!(names.contains(&"Aria's Owl"), "{names:?}");
    assert!(names.contains(&"Aria's Skeleton"), "{names:?}");
    let report = advance(&mut e);
    assert!(
        !report.end_of_turn.iter().any(|l| l.contains("vanishes")),
        "{:?}",
        report.end_of_turn
    );
}

/// Every summoning spell of the catalog, cast at its own level in a fight by a 20th-level
/// wizard (force: any class list): the creature it may call is picked from its options or, by
/// type and challenge rating, from the SRD monsters read at run time; exactly the count the
/// spell and slot give join on the wizard's side.
#[test]
fn every_summoning_spell_adds_the_count_its_slot_gives_on_the_casters_side() {
    let Some(srd) = common::srd("every_summon") else {
        return;
    };
    let cat = tabletop_engine::catalog::spells::catalog();
    let mut tried = 0;
    for s in srd.spells() {
        let entry = &cat[&s.index];
        let Some(spec) = entry.summon.as_ref() else {
            continue;
        };
        tried += 1;
        let level = s.level;
        let (creature, want) = match spec
            .options
            .iter()
            .find(|o| o.min_slot.is_none_or(|m| m <= level))
        {
            Some(o) => (
                o.creature.clone(),
                spec.option_count(&o.creature, level, level).unwrap(),
            ),
            None => {
                let max = spec.max_cr(level).unwrap_or(2.0);
                let m = srd
                    .monsters()
                    .iter()
                    .filter(|m| {
                        spec.types
                            .iter()
                            .any(|t| m.creature_type.to_lowercase().starts_with(t.as_str()))
                            && m.challenge_rating <= max
                    })
                    .max_by(|a, b| a.challenge_rating.total_cmp(&b.challenge_rating))
                    .unwrap_or_else(|| panic!("{}: no SRD creature fits", s.index));
                let n = if spec.cr_table {
                    tabletop_engine::catalog::spell_moves::table_count(m.challenge_rating).unwrap()
                        * spec.multiplier(level)
                } else {
                    1
                };
                (m.index.clone(), n)
            }
        };
        let dir = tempfile::tempdir().unwrap();
        let mut e = engine(&dir, &srd, 8);
        let aria = caster(&mut e, "Aria", "wizard", 20, &[]);
        fight(
            &mut e,
            vec![pc(&aria, 10, 10, 20), monster("ogre", 1, &[(0, 0)])],
        );
        let out = cast(&mut e, &aria, &s.name, |r| {
            r.force = true;
            r.creature = Some(creature.clone());
        })
        .unwrap_or_else(|err| panic!("{} ({creature}): {err}", s.index));
        let enc = encounter(&mut e);
        let joined: Vec<_> = enc
            .order
            .iter()
            .filter(|c| !c.removed && c.name.starts_with("Aria's "))
            .collect();
        assert_eq!(
            joined.len() as u32,
            want,
            "{} ({creature}): {}",
            s.index,
            out.headline
        );
        assert!(joined.iter().all(|c| c.side == Side::Party), "{}", s.index);
        assert_eq!(enc.summoned.len() as u32, want, "{}", s.index);
    }
    assert_eq!(tried, 13);
}

#[test]
fn arcane_hand_has_the_casters_hit_points_ac_20_and_a_fist_that_hits_for_force() {
    let Some(srd) = common::srd("arcane_hand") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 21);
    let aria = caster(&mut e, "Aria", "wizard", 9, &["Arcane Hand"]);
    let order = fight(
        &mut e,
        vec![pc(&aria, 5, 5, 20), monster("ogre", 1, &[(9, 5)])],
    );
    let ogre = id_of(&order, "Ogre");
    let max = sheet(&mut e, &aria).effective().max_hp.value;
    let out = cast(&mut e, &aria, "Arcane Hand", |r| {
        r.to = Some(Position::new(7, 5))
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Aria casts Arcane Hand (5th level): 1 Arcane Hand appears on Aria's side."
    );
    assert_eq!(out.details["hp"], max);
    assert_eq!(out.details["ac"], 20);
    let enc = encounter(&mut e);
    let hand = enc
        .order
        .iter()
        .find(|c| c.name == "Aria's Arcane Hand")
        .unwrap()
        .character_id
        .clone();
    assert_eq!(enc.position_of(&hand), Some(Position::new(7, 5)));
    let h = sheet(&mut e, &hand);
    assert_eq!((h.hp as i32, h.effective().armor_class.value), (max, 20));
    assert_eq!(
        out.lines[2],
        "statistics (encoded from the spell): AC 20, 56 HP, speed 60 ft; Clenched Fist +7, 4d8 force"
    );
    // The fist: the caster's spell attack (+7), 4d8 force.
    let before = sheet(&mut e, &ogre).hp;
    let hit = act(
        &mut e,
        ActionRequest {
            actor: who(&hand),
            action_type: Some(ActionType::Attack),
            target: who(&ogre),
            weapon: Some("Clenched Fist".into()),
            force: true,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(hit.headline, "Hit! Ogre takes 27 force (59 → 32 HP).");
    assert_eq!(
        hit.lines[..2],
        [
            "Aria's Arcane Hand attack with Clenched Fist: d20 [8] + 7 = 15 vs AC 11 — hit"
                .to_string(),
            "Damage: 4d8[force]: [6, 5, 8, 8] force = 27 (force 27)".to_string()
        ]
    );
    assert_eq!(sheet(&mut e, &ogre).hp, before - 27);
}

#[test]
fn animate_objects_makes_the_table_s_objects_by_size_and_mage_hand_lasts_a_minute() {
    let Some(srd) = common::srd("animate_objects") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 21);
    let aria = caster(
        &mut e,
        "Aria",
        "wizard",
        9,
        &["Animate Objects", "Mage Hand"],
    );
    fight(
        &mut e,
        vec![pc(&aria, 5, 5, 20), monster("goblin", 1, &[(15, 15)])],
    );
    let err = cast(&mut e, &aria, "Animate Objects", |_| {})
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "creature: Animate Objects makes one of: Tiny Object, Small Object, Medium Object, Large Object, Huge Object; pass creature"
    );
    let out = cast(&mut e, &aria, "Animate Objects", |r| {
        r.creature = Some("medium".into())
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Aria casts Animate Objects (5th level): 5 Medium Objects appear on Aria's side."
    );
    let enc = encounter(&mut e);
    let objs: Vec<_> = enc
        .order
        .iter()
        .filter(|c| c.name.starts_with("Aria's Medium Object"))
        .collect();
    assert_eq!(objs.len(), 5);
    let o = sheet(&mut e, &objs[0].character_id);
    assert_eq!((o.hp, o.effective().armor_class.value), (40, 13));
    // Mage Hand: a cantrip token at a point within 30 ft, gone after its minute.
    let out = cast(&mut e, &aria, "Mage Hand", |r| {
        r.to = Some(Position::new(7, 5));
        r.force = true;
    })
    .unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(
        out.headline,
        "Aria casts Mage Hand (cantrip): 1 Mage Hand appears on Aria's side."
    );
    let enc = encounter(&mut e);
    let s = enc
        .summoned
        .iter()
        .find(|s| s.spell == "Mage Hand")
        .unwrap();
    assert_eq!(s.until_round, Some(enc.round + 10));
    // Concentration on Animate Objects ends: the objects leave at the next turn change.
    let id = aria.clone();
    e.write("manage_concentration", &serde_json::json!({}), |call| {
        tabletop_engine::concentration::break_concentration(
            call,
            tabletop_engine::character::CharacterRef::new(Some(&id), None),
            None,
        )
    })
    .unwrap();
    advance(&mut e);
    let enc = encounter(&mut e);
    assert_eq!(
        enc.order
            .iter()
            .filter(|c| c.name.starts_with("Aria's Medium Object") && !c.removed)
            .count(),
        0
    );
    assert!(
        enc.order
            .iter()
            .any(|c| c.name == "Aria's Mage Hand" && !c.removed)
    );
}
