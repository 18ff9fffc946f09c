//! Zones on later turns, through the real tools with the SRD configured (skipped without
//! TABLETOP_SRD_DIR): SRD-built casters cast Moonbeam, Cloudkill, Wall of Fire, Black Tentacles
//! and Guardian of Faith with execute_action on an encounter's map; advance_turn and moves make
//! the zone strike as the spell's text says (starting a turn inside, entering it for the first
//! time on a turn, ending a turn inside); seeded dice give exact HP.

use super::common;
use super::zone_support;

use zone_support::*;

#[test]
fn moonbeam_strikes_at_turn_start_and_on_entering_moves_without_a_slot_and_ends_with_concentration()
{
    let Some(srd) = common::srd("zone_moonbeam") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let druid = caster(&mut e, "Ivy", "druid", 3, &["Moonbeam"]);
    let order = fight(
        &mut e,
        vec![
            pc(&druid, 0, 0, 25),
            named("ogre", "Brute", 6, 0, 10),
            named("ogre", "Hulk", 10, 4, 5),
        ],
    );
    let brute = id_of(&order, "Brute");
    let hulk = id_of(&order, "Hulk");
    let out = cast(&mut e, &druid, "Moonbeam", |r| {
        r.to = Some(Position::new(6, 0))
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Ivy casts Moonbeam: a zone (au1) on 6 squares from (6, 0); it strikes a creature that starts its turn in it or enters it for the first time on a turn: 2d10 radiant (con save DC 13 for half)."
    );
    assert_eq!(out.lines[0], "Ivy concentrates on Moonbeam (up to 1 min)");
    // The beam appearing on the ogre is not the ogre entering it: no damage yet.
    assert_eq!(sheet(&mut e, &brute).hp, 59);
    assert_eq!(
        sheet(&mut e, &druid).spell_slots.summary(),
        "1st 4/4, 2nd 1/2"
    );
    // The ogre starts its turn in the beam.
    let t = advance(&mut e);
    assert_eq!(
        t.start_of_turn,
        [
            "Brute — Constitution save (Moonbeam): d20 [7] + 3 = 10 vs DC 13 — fail",
            "Moonbeam (2d10: [9, 10] = 19): Brute takes 19 (19 radiant); 59 → 40 HP",
        ]
    );
    assert_eq!(sheet(&mut e, &brute).hp, 40);
    // Leaving it does nothing.
    let m = step(&mut e, &brute, (12, 0)).unwrap();
    assert!(
        m.lines.iter().all(|l| !l.contains("Moonbeam")),
        "{:?}",
        m.lines
    );
    assert_eq!(sheet(&mut e, &brute).hp, 40);
    // The other ogre walks into it: struck once on entering (a natural 20 halves it), not
    // again when it moves on inside the same turn.
    let t = advance(&mut e);
    assert!(t.start_of_turn.is_empty(), "{:?}", t.start_of_turn);
    let m = step(&mut e, &hulk, (4, 0)).unwrap();
    assert_eq!(
        m.lines,
        [
            "Hulk — Constitution save (Moonbeam): d20 [20] + 3 = 23 vs DC 13 — success (natural 20)",
            "Moonbeam (2d10: [4, 3] = 7): Hulk takes 3 (3 radiant); 59 → 56 HP (half)",
        ]
    );
    let m = step(&mut e, &hulk, (4, 1)).unwrap();
    assert!(m.lines.is_empty(), "{:?}", m.lines);
    assert_eq!(sheet(&mut e, &hulk).hp, 56);
    // The druid's next turn: casting it again moves the beam (60 ft at most), no slot spent.
    advance(&mut e);
    let far = cast(&mut e, &druid, "Moonbeam", |r| {
        r.to = Some(Position::new(12, 19))
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        far,
        "Moonbeam moves at most 60 ft; (12, 19) is 95 ft from its place (6, 0)"
    );
    let out = cast(&mut e, &druid, "Moonbeam", |r| {
        r.to = Some(Position::new(12, 0))
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Ivy moves Moonbeam (au1) 30 ft to (12, 0) (no slot spent, no spell cast)."
    );
    assert_eq!(
        sheet(&mut e, &druid).spell_slots.summary(),
        "1st 4/4, 2nd 1/2"
    );
    assert_eq!(sheet(&mut e, &brute).hp, 40);
    let zone = &encounter(&mut e).auras[0];
    assert_eq!(zone.origin, Some(Position::new(12, 0)));
    assert!(zone.squares.contains(&Position::new(12, 0)));
    assert!(!zone.squares.contains(&Position::new(6, 0)));
    // The ogre it moved onto is struck when its turn starts there.
    let t = advance(&mut e);
    assert_eq!(
        t.start_of_turn,
        [
            "Brute — Constitution save (Moonbeam): d20 [13] + 3 = 16 vs DC 13 — success",
            "Moonbeam (2d10: [1, 7] = 8): Brute takes 4 (4 radiant); 40 → 36 HP (half)",
        ]
    );
    assert_eq!(sheet(&mut e, &brute).hp, 36);
    // Concentration ends: so does the beam.
    break_concentration(&mut e, &druid);
    let t = advance(&mut e);
    assert_eq!(
        t.end_of_turn,
        ["aura Moonbeam (au1) ends: Ivy's concentration on Moonbeam ended"]
    );
    assert!(encounter(&mut e).auras.is_empty());
    assert_eq!(sheet(&mut e, &hulk).hp, 56);
}

#[test]
fn cloudkill_hides_what_is_behind_it_and_poisons_a_creature_starting_its_turn_inside() {
    let Some(srd) = common::srd("zone_cloudkill") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let wiz = caster(&mut e, "Mira", "wizard", 9, &["Cloudkill"]);
    let order = fight(
        &mut e,
        vec![pc(&wiz, 0, 10, 25), named("ogre", "Ogre", 10, 10, 1)],
    );
    let ogre = id_of(&order, "Ogre");
    assert_eq!(sight(&mut e, (0, 10), (19, 10)), (true, None));
    let out = cast(&mut e, &wiz, "Cloudkill", |r| {
        r.to = Some(Position::new(10, 10))
    })
    .unwrap();
    assert_eq!(
        out.lines[1],
        "Cloudkill (au1) covers 81 squares: heavily obscured (no sight into, out of or through it)"
    );
    assert_eq!(sheet(&mut e, &ogre).hp, 59);
    // The 20-ft sphere at (10, 10) reaches (6, 10): sight through it, into it and out of it
    // stops at its first square.
    assert_eq!(
        sight(&mut e, (0, 10), (19, 10)),
        (false, Some(Position::new(6, 10)))
    );
    assert_eq!(
        sight(&mut e, (0, 10), (10, 10)),
        (false, Some(Position::new(6, 10)))
    );
    assert_eq!(
        sight(&mut e, (10, 10), (0, 10)),
        (false, Some(Position::new(10, 10)))
    );
    let t = advance(&mut e);
    assert_eq!(
        t.start_of_turn,
        [
            "Ogre — Constitution save (Cloudkill): d20 [5] + 3 = 8 vs DC 15 — fail",
            "Cloudkill (5d8: [7, 7, 4, 8, 8] = 34): Ogre takes 34 (34 poison); 59 → 25 HP",
        ]
    );
    assert_eq!(sheet(&mut e, &ogre).hp, 25);
    // Concentration broken by hand: the fog lifts at once, the zone is gone by the next turn.
    break_concentration(&mut e, &wiz);
    assert_eq!(sight(&mut e, (0, 10), (19, 10)), (true, None));
    let t = advance(&mut e);
    assert_eq!(
        t.end_of_turn,
        ["aura Cloudkill (au1) ends: Mira's concentration on Cloudkill ended"]
    );
    assert!(encounter(&mut e).auras.is_empty());
}

#[test]
fn wall_of_fire_burns_on_appearing_and_at_the_end_of_a_turn_inside_and_hides_the_far_side() {
    let Some(srd) = common::srd("zone_wall_of_fire") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let wiz = caster(&mut e, "Mira", "wizard", 9, &["Wall of Fire"]);
    let order = fight(
        &mut e,
        vec![pc(&wiz, 0, 5, 25), named("ogre", "Ogre", 5, 5, 1)],
    );
    let ogre = id_of(&order, "Ogre");
    let out = cast(&mut e, &wiz, "Wall of Fire", |r| {
        r.to = Some(Position::new(5, 0));
        r.direction = Some("s".into());
    })
    .unwrap();
    // 60 ft of wall from (5, 0) southward: (5, 0) to (5, 11).
    assert_eq!(
        out.headline,
        "Mira casts Wall of Fire: a zone (au1) on 12 squares from (5, 0); it strikes a creature that enters it or ends its turn in it: 5d8 fire (dex save DC 15 for half)."
    );
    assert_eq!(
        out.lines[1..4],
        [
            "Wall of Fire (au1) covers 12 squares: an opaque sheet creatures can cross",
            "Ogre — Dexterity save (Wall of Fire): d20 [5] - 1 = 4 vs DC 15 — fail",
            "Wall of Fire (5d8: [7, 7, 4, 8, 8] = 34): Ogre takes 34 (34 fire); 59 → 25 HP",
        ]
    );
    let squares = &encounter(&mut e).auras[0].squares;
    assert_eq!(squares.first(), Some(&Position::new(5, 0)));
    assert_eq!(squares.last(), Some(&Position::new(5, 11)));
    assert_eq!(sheet(&mut e, &ogre).hp, 25);
    assert_eq!(
        sight(&mut e, (0, 8), (10, 8)),
        (false, Some(Position::new(5, 8)))
    );
    // Starting its turn in it does nothing; ending it there burns.
    let t = advance(&mut e);
    assert!(t.start_of_turn.is_empty(), "{:?}", t.start_of_turn);
    let t = advance(&mut e);
    assert_eq!(
        t.end_of_turn,
        [
            "Ogre — Dexterity save (Wall of Fire): d20 [3] - 1 = 2 vs DC 15 — fail",
            "Wall of Fire (5d8: [1, 7, 7, 2, 1] = 18): Ogre takes 18 (18 fire); 25 → 7 HP",
        ]
    );
    assert_eq!(sheet(&mut e, &ogre).hp, 7);
}

#[test]
fn black_tentacles_restrain_and_crush_a_held_creature_each_turn_until_concentration_ends() {
    let Some(srd) = common::srd("zone_tentacles") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let wiz = caster(&mut e, "Mira", "wizard", 7, &["Black Tentacles"]);
    let order = fight(
        &mut e,
        vec![pc(&wiz, 0, 5, 25), named("ogre", "Ogre", 6, 5, 1)],
    );
    let ogre = id_of(&order, "Ogre");
    let out = cast(&mut e, &wiz, "Black Tentacles", |r| {
        r.to = Some(Position::new(5, 4));
        r.direction = Some("se".into());
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Mira casts Black Tentacles: a zone (au1) on 16 squares from (5, 4); it strikes a creature that starts its turn in it or enters it for the first time on a turn: 3d6 bludgeoning, restrained while held (dex save DC 14)."
    );
    // The 20-ft square southeast of (5, 4) is difficult terrain.
    assert_eq!(terrain(&mut e, 6, 5), Terrain::Difficult);
    assert_eq!(terrain(&mut e, 9, 8), Terrain::Difficult);
    assert_eq!(terrain(&mut e, 10, 8), Terrain::Open);
    let t = advance(&mut e);
    assert_eq!(
        t.start_of_turn,
        [
            "Ogre — Dexterity save (Black Tentacles): d20 [5] - 1 = 4 vs DC 14 — fail",
            "Black Tentacles (3d6: [5, 1, 6] = 12): Ogre takes 12 (12 bludgeoning); 59 → 47 HP",
            "Ogre is restrained (Black Tentacles) while held; breaking free is left to the DM (manage_condition remove)",
        ]
    );
    advance(&mut e);
    // Held: the next turn crushes it again without a save.
    let t = advance(&mut e);
    assert_eq!(
        t.start_of_turn,
        ["Black Tentacles (3d6: [2, 6, 3] = 11): Ogre takes 11 (11 bludgeoning); 47 → 36 HP"]
    );
    let s = sheet(&mut e, &ogre);
    assert_eq!((s.hp, has(&s, Condition::Restrained)), (36, true));
    advance(&mut e);
    // Concentration ends: the ground is open at once, the ogre is released by the next turn.
    break_concentration(&mut e, &wiz);
    assert_eq!(terrain(&mut e, 6, 5), Terrain::Open);
    let t = advance(&mut e);
    assert_eq!(
        t.end_of_turn,
        [
            "aura Black Tentacles (au1) ends: Mira's concentration on Black Tentacles ended",
            "Ogre is no longer restrained (Black Tentacles ended)",
        ]
    );
    let s = sheet(&mut e, &ogre);
    assert_eq!((s.hp, has(&s, Condition::Restrained)), (36, false));
}

#[test]
fn guardian_of_faith_strikes_an_enemy_entering_its_reach_never_an_ally_nor_one_starting_there() {
    let Some(srd) = common::srd("zone_guardian") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let cleric = caster(&mut e, "Bran", "cleric", 7, &["Guardian of Faith"]);
    let ally = caster(&mut e, "Tam", "fighter", 3, &[]);
    let order = fight(
        &mut e,
        vec![
            pc(&cleric, 0, 0, 25),
            pc(&ally, 0, 6, 20),
            named("ogre", "Ogre", 10, 0, 1),
        ],
    );
    let ogre = id_of(&order, "Ogre");
    let out = cast(&mut e, &cleric, "Guardian of Faith", |r| {
        r.to = Some(Position::new(3, 3))
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Bran casts Guardian of Faith: a zone (au1) on 25 squares from (3, 3); it strikes a creature that enters it for the first time on a turn: 20 radiant (dex save DC 14 for half)."
    );
    advance(&mut e);
    let m = step(&mut e, &ally, (3, 4)).unwrap();
    assert!(m.lines.is_empty(), "{:?}", m.lines);
    assert_eq!(sheet(&mut e, &ally).hp, 28);
    advance(&mut e);
    let m = step(&mut e, &ogre, (5, 2)).unwrap();
    assert_eq!(
        m.lines,
        [
            "Ogre — Dexterity save (Guardian of Faith): d20 [7] - 1 = 6 vs DC 14 — fail",
            "Guardian of Faith (20: 20 = 20): Ogre takes 20 (20 radiant); 59 → 39 HP",
        ]
    );
    assert_eq!(sheet(&mut e, &ogre).hp, 39);
    advance(&mut e);
    advance(&mut e);
    let t = advance(&mut e);
    assert!(t.start_of_turn.is_empty(), "{:?}", t.start_of_turn);
    assert_eq!(sheet(&mut e, &ogre).hp, 39);
}

#[test]
fn minor_illusion_blocks_sight_until_an_investigation_search_meets_the_dc() {
    let Some(srd) = common::srd("zone_illusion") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    // Wizard 5, INT 16: spell save DC 8 + 3 + 3 = 14.
    let aria = caster(&mut e, "Aria", "wizard", 5, &["Minor Illusion"]);
    let order = fight(
        &mut e,
        vec![pc(&aria, 5, 5, 20), named("goblin", "Scout", 10, 5, 5)],
    );
    let scout = id_of(&order, "Scout");
    assert!(sight(&mut e, (10, 5), (5, 5)).0);
    let out = cast(&mut e, &aria, "Minor Illusion", |r| {
        r.to = Some(Position::new(7, 5));
        r.direction = Some("e".into());
    })
    .unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(
        out.headline,
        "Aria casts Minor Illusion: a zone (au1) on 1 square from (7, 5); an illusion: a Search with Investigation (ability int) against DC 14 sees through it."
    );
    assert_eq!(
        out.lines[0],
        "Minor Illusion (au1) covers 1 square: an opaque sheet creatures can cross"
    );
    assert_eq!(
        sight(&mut e, (10, 5), (5, 5)),
        (false, Some(Position::new(8, 5)))
    );
    advance(&mut e);
    let search = |e: &mut E, bonus: i32| {
        let req = ActionRequest {
            actor: who(&scout),
            action_type: Some(ActionType::Search),
            ability: Some(if bonus == 19 {
                tabletop_rules::Ability::Wisdom
            } else {
                tabletop_rules::Ability::Intelligence
            }),
            bonus,
            force: true,
            ..Default::default()
        };
        e.write("execute_action", &serde_json::json!({}), |call| {
            execute(call, &req)
        })
        .unwrap()
    };
    // Perception does not see through it; an Investigation total under 14 neither.
    let low = search(&mut e, -20);
    assert_eq!(low.details["stillHidden"], 1, "{}", low.headline);
    assert!(!sight(&mut e, (10, 5), (5, 5)).0);
    // Perception, however high, does not see through an illusion.
    let look = search(&mut e, 19);
    assert!(
        look.headline.ends_with("and finds nothing hidden."),
        "{}",
        look.headline
    );
    assert!(!sight(&mut e, (10, 5), (5, 5)).0);
    let high = search(&mut e, 20);
    assert_eq!(
        high.headline,
        "Scout searches (Investigation 39) and finds that Minor Illusion (au1) is an illusion (DC 14): seen through, it no longer blocks sight."
    );
    assert!(encounter(&mut e).map.props().next().is_none());
    assert!(sight(&mut e, (10, 5), (5, 5)).0);
}
