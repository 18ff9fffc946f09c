//! The "wards & magic" spells of session 6 through the real tools with the SRD configured
//! (skipped without TABLETOP_SRD_DIR) and seeded dice: Dispel Magic ends the spells of its
//! level on a creature and rolls the caster's check for a higher one; Dispel Evil and Good
//! gives an undead's attacks disadvantage; Glibness makes a low d20 on Charisma checks count as
//! 15; Alter Self gives a swimming speed; Antimagic Field keeps spells from outside off the
//! creatures inside; Symbol's death glyph bursts when entered; Prismatic Wall burns a creature
//! crossing it and blocks sight; Antipathy frightens a creature entering its area.

use super::common;
use super::spell_support;
use super::zone_support;

use spell_support::*;
use tabletop_engine::character::CharacterRef;
use tabletop_engine::checks::{CheckRequest, roll_check};
use tabletop_engine::combat::actions::{ActionOutcome, ActionRequest, ActionType};
use tabletop_engine::combat::create::TerrainSpec;
use tabletop_grid::Position;
use tabletop_rules::d20::D20Test;
use tabletop_rules::{Ability, Condition, Skill};

fn walk(e: &mut E, id: &str, x: i32, y: i32) -> ActionOutcome {
    act(
        e,
        ActionRequest {
            actor: who(id),
            action_type: Some(ActionType::Move),
            to: Some(Position::new(x, y)),
            force: true,
            ..Default::default()
        },
    )
    .unwrap()
}

fn check(e: &mut E, id: &str, test: D20Test, dc: i32) -> String {
    let req = CheckRequest {
        dc: Some(dc),
        ..CheckRequest::of(test)
    };
    let id = id.to_string();
    e.write("roll_check", &serde_json::json!({}), |call| {
        roll_check(call, CharacterRef::new(Some(&id), None), &req)
    })
    .unwrap()
    .summary()
}

fn has(e: &mut E, id: &str, c: Condition) -> bool {
    sheet(e, id).conditions.iter().any(|x| x.condition == c)
}

#[test]
fn dispel_magic_ends_spells_of_its_level_and_checks_the_casters_ability_for_higher_ones() {
    let Some(srd) = common::srd("dispel_magic") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let aria = caster(
        &mut e,
        "Aria",
        "wizard",
        9,
        &["Mage Armor", "Greater Invisibility", "Dispel Magic"],
    );
    let bran = caster(&mut e, "Bran", "cleric", 5, &["Dispel Magic"]);
    let tor = caster(&mut e, "Tor", "wizard", 5, &[]);
    cast(&mut e, &aria, "Mage Armor", |r| r.target = who(&tor)).unwrap();
    cast(&mut e, &aria, "Greater Invisibility", |r| {
        r.target = who(&tor)
    })
    .unwrap();
    let t = sheet(&mut e, &tor);
    assert_eq!(t.effects.len(), 1);
    assert!(has(&mut e, &tor, Condition::Invisible));
    // A 3rd-level Dispel Magic by the cleric (WIS 16: +3): Mage Armor (1st) ends at once; for
    // Greater Invisibility (4th) Bran rolls a Wisdom check against DC 14.
    let out = cast(&mut e, &bran, "Dispel Magic", |r| r.target = who(&tor)).unwrap();
    assert_eq!(
        out.lines[1..3],
        [
            "Bran — Wisdom check to end Greater Invisibility on Tor: d20 [4] + 3 = 7 vs DC 14 — fail",
            "Tor: Dispel Magic ends Mage Armor (1st); Greater Invisibility (4th) holds",
        ]
    );
    assert_eq!(
        out.headline,
        "Dispel Magic (3rd level): Tor: Dispel Magic ends Mage Armor (1st); Greater Invisibility (4th) holds."
    );
    let t = sheet(&mut e, &tor);
    assert!(t.effects.is_empty());
    assert!(has(&mut e, &tor, Condition::Invisible));
    // At 4th level (Aria's own slot) it ends Greater Invisibility without a check.
    let out = cast(&mut e, &aria, "Dispel Magic", |r| {
        r.target = who(&tor);
        r.slot_level = Some(4);
    })
    .unwrap();
    assert_eq!(
        out.lines[1..2],
        ["Tor: Dispel Magic ends Greater Invisibility (4th)"]
    );
    assert!(!has(&mut e, &tor, Condition::Invisible));
    // Nothing left on Tor: a third casting says so and changes nothing.
    let out = cast(&mut e, &aria, "Dispel Magic", |r| r.target = who(&tor)).unwrap();
    assert_eq!(
        out.lines[1..2],
        ["Tor has no spell on it for Dispel Magic to end; no effect"]
    );
}

#[test]
fn dispel_evil_and_good_gives_undead_attackers_disadvantage_only() {
    let Some(srd) = common::srd("dispel_evil") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 9);
    let bran = caster(&mut e, "Bran", "cleric", 9, &["Dispel Evil and Good"]);
    let order = fight(
        &mut e,
        vec![
            pc(&bran, 5, 5, 20),
            monster("skeleton", 1, &[(6, 5)]),
            monster("goblin", 1, &[(4, 5)]),
        ],
    );
    let skeleton = id_of(&order, "Skeleton");
    let goblin = id_of(&order, "Goblin");
    let out = cast(&mut e, &bran, "Dispel Evil and Good", |r| {
        r.target = who(&bran)
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Dispel Evil and Good (5th level): Bran gains Dispel Evil and Good (attacks against it by celestial, elemental, fey, fiend, undead have disadvantage)."
    );
    advance(&mut e);
    let strike = |e: &mut E, who_id: &str, weapon: &str| {
        act(
            e,
            ActionRequest {
                actor: who(who_id),
                action_type: Some(ActionType::Attack),
                target: who(&bran),
                weapon: Some(weapon.into()),
                force: true,
                ..Default::default()
            },
        )
        .unwrap()
    };
    let out = strike(&mut e, &skeleton, "Shortsword");
    assert_eq!(
        out.lines[0],
        "Skeleton attack with Shortsword: d20 [~~17~~, 15] (disadvantage: Dispel Evil and Good wards Bran against undead creatures) + 4 = 19 vs AC 12 — hit"
    );
    let out = strike(&mut e, &goblin, "Scimitar");
    assert_eq!(
        out.lines[0],
        "Goblin attack with Scimitar: d20 [11] + 4 = 15 vs AC 12 — hit"
    );
}

#[test]
fn glibness_makes_a_d20_below_15_on_charisma_checks_count_as_15() {
    let Some(srd) = common::srd("glibness") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 5);
    let lyra = caster(&mut e, "Lyra", "bard", 15, &["Glibness"]);
    let out = cast(&mut e, &lyra, "Glibness", |r| r.target = who(&lyra)).unwrap();
    assert_eq!(
        out.headline,
        "Glibness (8th level): Lyra gains Glibness (a d20 below 15 on its CHA checks counts as 15)."
    );
    let mut seen = Vec::new();
    for _ in 0..3 {
        seen.push(check(
            &mut e,
            &lyra,
            D20Test::SkillCheck {
                skill: Skill::Persuasion,
            },
            20,
        ));
    }
    seen.push(check(
        &mut e,
        &lyra,
        D20Test::AbilityCheck {
            ability: Ability::Strength,
        },
        15,
    ));
    // Persuasion +2 (Jack of All Trades; CHA 10): every d20 below 15 counts as 15, so 17.
    assert_eq!(
        seen,
        [
            "Lyra — Persuasion check (Glibness: d20 5 counts as 15): d20 [5] + 12 = 17 vs DC 20 — fail",
            "Lyra — Persuasion check (Glibness: d20 4 counts as 15): d20 [4] + 13 = 17 vs DC 20 — fail",
            "Lyra — Persuasion check (Glibness: d20 11 counts as 15): d20 [11] + 6 = 17 vs DC 20 — fail",
            "Lyra — Strength check: d20 [19] + 2 = 21 vs DC 15 — success",
        ]
    );
}

#[test]
fn alter_self_gives_a_swimming_speed_equal_to_the_walking_speed() {
    let Some(srd) = common::srd("alter_self") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 5);
    let aria = caster(&mut e, "Aria", "wizard", 5, &["Alter Self"]);
    let out = cast(&mut e, &aria, "Alter Self", |r| r.target = who(&aria)).unwrap();
    assert_eq!(
        out.headline,
        "Alter Self (2nd level): Aria gains Alter Self (swim speed 30 ft)."
    );
    let c = sheet(&mut e, &aria);
    let modes = tabletop_engine::magic::wards::movement_modes(&c);
    assert_eq!(modes.get("swim"), Some(&30));
}

#[test]
fn antimagic_field_keeps_every_spell_cast_from_outside_off_the_creatures_inside() {
    let Some(srd) = common::srd("antimagic") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 4);
    let aria = caster(
        &mut e,
        "Aria",
        "wizard",
        17,
        &["Antimagic Field", "Magic Missile"],
    );
    let tor = caster(&mut e, "Tor", "fighter", 5, &[]);
    let zed = caster(
        &mut e,
        "Zed",
        "wizard",
        17,
        &["Magic Missile", "Finger of Death"],
    );
    let mut zed_spec = pc(&zed, 12, 5, 15);
    zed_spec.side = Some(tabletop_engine::model::encounter::Side::Enemy);
    fight(
        &mut e,
        vec![pc(&aria, 5, 5, 20), pc(&tor, 6, 5, 18), zed_spec],
    );
    let out = cast(&mut e, &aria, "Antimagic Field", |r| r.force = true).unwrap();
    assert_eq!(
        out.headline,
        "Aria casts Antimagic Field: an immobile 10-ft barrier around (5, 5); spells of 9th level or lower cast from outside it have no effect on creatures inside."
    );
    advance(&mut e);
    advance(&mut e);
    let hp = sheet(&mut e, &tor).hp;
    let out = cast(&mut e, &zed, "Finger of Death", |r| r.target = who(&tor)).unwrap();
    assert_eq!(
        out.lines[1],
        "Tor is inside Antimagic Field (spells of 9th level or lower from outside have no effect): unaffected"
    );
    assert_eq!(sheet(&mut e, &tor).hp, hp);
    // No spell can be cast inside it, by Aria herself or anyone else.
    advance(&mut e);
    let err = cast(&mut e, &aria, "Magic Missile", |r| r.target = who(&zed))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(
            "Aria stands inside Antimagic Field around (5, 5): no spell can be cast within it"
        ),
        "{err}"
    );
}

#[test]
fn symbol_of_death_bursts_60_ft_of_necrotic_when_a_creature_enters_it_then_ends() {
    let Some(srd) = common::srd("symbol") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 9);
    let aria = caster(&mut e, "Aria", "wizard", 17, &["Symbol"]);
    let order = fight(
        &mut e,
        vec![
            pc(&aria, 2, 2, 20),
            monster("ogre", 1, &[(12, 10)]),
            monster("goblin", 1, &[(18, 18)]),
        ],
    );
    let ogre = id_of(&order, "Ogre");
    let out = cast(&mut e, &aria, "Symbol", |r| {
        r.to = Some(Position::new(3, 2));
        r.force = true;
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Aria casts Symbol: a zone (au1) on 9 squares from (3, 2); it strikes a creature that enters it for the first time on a turn: 10d10 necrotic (con save DC 17 for half), bursting 60 ft around its origin, once: then it ends."
    );
    advance(&mut e);
    let out = walk(&mut e, &ogre, 4, 2);
    // Aria (5 ft away) and the ogre are within 60 ft; the goblin at (18, 18) is not.
    assert_eq!(
        out.lines,
        [
            "Symbol (au1) is triggered: it bursts 60 ft around (3, 2)",
            "Aria — Constitution save (Symbol): d20 [8] + 2 = 10 vs DC 17 — fail",
            "Symbol (10d10: [7, 5, 5, 1, 1, 4, 10, 1, 9, 10] = 53): Aria takes 53 (53 necrotic); 104 → 51 HP",
            "Ogre — Constitution save (Symbol): d20 [14] + 3 = 17 vs DC 17 — success",
            "Symbol (10d10: [1, 4, 7, 4, 5, 5, 10, 2, 10, 8] = 56): Ogre takes 28 (28 necrotic); 59 → 31 HP (half)",
            "Symbol (au1) is spent and ends",
        ]
    );
    assert!(encounter(&mut e).auras.is_empty());
}

#[test]
fn prismatic_wall_blocks_sight_and_burns_a_creature_crossing_it() {
    let Some(srd) = common::srd("prismatic_wall") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 9);
    let aria = caster(&mut e, "Aria", "wizard", 17, &["Prismatic Wall"]);
    let order = fight(
        &mut e,
        vec![pc(&aria, 2, 5, 20), monster("ogre", 1, &[(10, 5)])],
    );
    let ogre = id_of(&order, "Ogre");
    let out = cast(&mut e, &aria, "Prismatic Wall", |r| {
        r.to = Some(Position::new(6, 0));
        r.direction = Some("s".into());
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Aria casts Prismatic Wall: a zone (au1) on 18 squares from (6, 0); it strikes a creature that enters it for the first time on a turn: 10d6 fire (dex save DC 17 for half)."
    );
    advance(&mut e);
    let out = walk(&mut e, &ogre, 4, 5);
    assert_eq!(
        out.headline,
        "Ogre moves 30 ft to (4, 5) (10 ft of movement left)."
    );
    // It crossed the wall at x = 6 and ends its move beyond it: the red layer burns it.
    assert_eq!(
        out.lines,
        [
            "Ogre — Dexterity save (Prismatic Wall): d20 [20] - 1 = 19 vs DC 17 — success (natural 20)",
            "Prismatic Wall (10d6: [4, 5, 5, 1, 5, 3, 2, 6, 1, 3] = 35): Ogre takes 17 (17 fire); 59 → 42 HP (half)",
        ]
    );
    assert_eq!(sheet(&mut e, &ogre).hp, 42);
    // The wall blocks sight across it.
    assert_eq!(
        zone_support::sight(&mut e, (2, 8), (10, 8)),
        (false, Some(Position::new(6, 8)))
    );
}

#[test]
fn antipathy_frightens_a_creature_entering_its_area_until_it_leaves() {
    let Some(srd) = common::srd("antipathy") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 4);
    let aria = caster(&mut e, "Aria", "wizard", 17, &["Antipathy/Sympathy"]);
    let order = fight_on(
        &mut e,
        vec![pc(&aria, 0, 0, 20), monster("ogre", 1, &[(30, 10)])],
        TerrainSpec {
            width: Some(40),
            height: Some(20),
            ..Default::default()
        },
    );
    let ogre = id_of(&order, "Ogre");
    let out = cast(&mut e, &aria, "Antipathy/Sympathy", |r| {
        r.to = Some(Position::new(12, 10));
        r.force = true;
    })
    .unwrap();
    // A 60-ft sphere around (12, 10): 25 × 20 squares of the 40 × 20 map.
    assert_eq!(
        out.headline,
        "Aria casts Antipathy/Sympathy: a zone (au1) on 500 squares from (12, 10); it strikes a creature that enters it for the first time on a turn: frightened while held (wis save DC 17)."
    );
    advance(&mut e);
    let out = walk(&mut e, &ogre, 22, 10);
    assert_eq!(
        out.lines,
        [
            "Ogre — Wisdom save (Antipathy/Sympathy): d20 [6] - 2 = 4 vs DC 17 — fail",
            "Ogre is frightened (Antipathy/Sympathy) while held; breaking free is left to the DM (manage_condition remove)",
        ]
    );
    assert!(has(&mut e, &ogre, Condition::Frightened));
    // Out of the area again on its next turn, it is no longer frightened.
    advance(&mut e);
    advance(&mut e);
    let out = walk(&mut e, &ogre, 30, 10);
    assert_eq!(
        out.lines,
        ["Ogre is no longer frightened: it left Antipathy/Sympathy"]
    );
    assert!(!has(&mut e, &ogre, Condition::Frightened));
}

#[test]
fn hallow_with_fear_frightens_a_creature_that_enters_and_fails_its_charisma_save() {
    let Some(srd) = common::srd("hallow") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 4);
    let bran = caster(&mut e, "Bran", "cleric", 9, &["Hallow"]);
    let order = fight_on(
        &mut e,
        vec![pc(&bran, 11, 10, 20), monster("ogre", 1, &[(30, 10)])],
        TerrainSpec {
            width: Some(40),
            height: Some(20),
            ..Default::default()
        },
    );
    let ogre = id_of(&order, "Ogre");
    // Touch range: the DM places it with force (it takes 24 hours to cast).
    let out = cast(&mut e, &bran, "Hallow", |r| {
        r.to = Some(Position::new(12, 10));
        r.force = true;
    })
    .unwrap();
    // Cleric 9, WIS 16: DC 8 + 4 + 3 = 15; the SRD's 60-ft sphere.
    assert_eq!(
        out.headline,
        "Bran casts Hallow: a zone (au1) on 500 squares from (12, 10); it strikes a creature that enters it for the first time on a turn: frightened while held (cha save DC 15)."
    );
    advance(&mut e);
    let out = walk(&mut e, &ogre, 22, 10);
    assert_eq!(
        out.lines,
        [
            "Ogre — Charisma save (Hallow): d20 [6] - 2 = 4 vs DC 15 — fail",
            "Ogre is frightened (Hallow) while held; breaking free is left to the DM (manage_condition remove)",
        ]
    );
    assert!(has(&mut e, &ogre, Condition::Frightened));
}
