//! Terrain and walls on the grid, through the real tools with the SRD configured (skipped
//! without TABLETOP_SRD_DIR): Web, Grease, Entangle, Spike Growth, Plant Growth, Sleet Storm,
//! Fog Cloud, Darkness, Stinking Cloud, Wall of Stone and Wall of Force cast by SRD-built
//! casters with execute_action; the squares' terrain, line of sight, movement and conditions
//! checked exactly with seeded dice, and gone when the spell ends.

use super::common;
use super::zone_support;

use zone_support::*;

#[test]
fn web_makes_difficult_terrain_restrains_on_a_failed_save_and_is_gone_with_concentration() {
    let Some(srd) = common::srd("terrain_web") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let wiz = caster(&mut e, "Mira", "wizard", 3, &["Web"]);
    let order = fight(
        &mut e,
        vec![
            pc(&wiz, 0, 0, 25),
            named("goblin", "Snik", 6, 1, 10),
            named("goblin", "Grub", 7, 2, 9),
            named("goblin", "Zog", 9, 9, 8),
        ],
    );
    let snik = id_of(&order, "Snik");
    let grub = id_of(&order, "Grub");
    let zog = id_of(&order, "Zog");
    let out = cast(&mut e, &wiz, "Web", |r| {
        r.to = Some(Position::new(5, 0));
        r.direction = Some("se".into());
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Mira casts Web: a zone (au1) on 16 squares from (5, 0); it strikes a creature that starts its turn in it or enters it for the first time on a turn: restrained while held (dex save DC 13)."
    );
    // Creatures inside when it appears save at once.
    assert_eq!(
        out.lines[1..6],
        [
            "Web (au1) covers 16 squares: difficult terrain",
            "Snik — Dexterity save (Web): d20 [19] + 2 = 21 vs DC 13 — success",
            "Snik is unaffected by Web",
            "Grub — Dexterity save (Web): d20 [20] + 2 = 22 vs DC 13 — success (natural 20)",
            "Grub is unaffected by Web",
        ]
    );
    // The 20-ft cube southeast of (5, 0): (6..=9, 1..=4).
    assert_eq!(terrain(&mut e, 6, 1), Terrain::Difficult);
    assert_eq!(terrain(&mut e, 9, 4), Terrain::Difficult);
    assert_eq!(terrain(&mut e, 10, 4), Terrain::Open);
    assert_eq!(terrain(&mut e, 5, 0), Terrain::Open);
    // Starting a turn in it: another save; a failure holds the goblin.
    let t = advance(&mut e);
    assert_eq!(
        t.start_of_turn,
        [
            "Snik — Dexterity save (Web): d20 [20] + 2 = 22 vs DC 13 — success (natural 20)",
            "Snik is unaffected by Web",
        ]
    );
    let t = advance(&mut e);
    assert_eq!(
        t.start_of_turn,
        [
            "Grub — Dexterity save (Web): d20 [4] + 2 = 6 vs DC 13 — fail",
            "Grub is restrained (Web) while held; breaking free is left to the DM (manage_condition remove)",
        ]
    );
    let g = sheet(&mut e, &grub);
    assert!(has(&g, Condition::Restrained));
    assert!(
        g.conditions
            .iter()
            .any(|c| c.condition == Condition::Restrained
                && c.source == "Web"
                && c.duration.is_none())
    );
    // Walking in: the web square costs double (20 ft to (9, 5), then 10 ft for (9, 4)).
    advance(&mut e);
    step(&mut e, &zog, (9, 5)).unwrap();
    let m = step(&mut e, &zog, (9, 4)).unwrap();
    assert_eq!(m.details["costFt"], 10, "{}", m.details);
    assert_eq!(
        m.lines,
        [
            "Zog — Dexterity save (Web): d20 [3] + 2 = 5 vs DC 13 — fail",
            "Zog is restrained (Web) while held; breaking free is left to the DM (manage_condition remove)",
        ]
    );
    // Concentration ends: the ground is open again at once, and the held goblin is released.
    break_concentration(&mut e, &wiz);
    assert_eq!(terrain(&mut e, 9, 4), Terrain::Open);
    let t = advance(&mut e);
    assert_eq!(
        t.end_of_turn,
        [
            "aura Web (au1) ends: Mira's concentration on Web ended",
            "Grub is no longer restrained (Web ended)",
            "Zog is no longer restrained (Web ended)",
        ]
    );
    for id in [&snik, &grub, &zog] {
        assert!(!has(&sheet(&mut e, id), Condition::Restrained));
    }
}

#[test]
fn grease_trips_at_the_end_of_a_turn_entangle_holds_only_as_it_appears_spike_growth_hurts_per_5_ft()
{
    let Some(srd) = common::srd("terrain_grease") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let wiz = caster(&mut e, "Mira", "wizard", 3, &["Grease"]);
    let druid = caster(&mut e, "Ivy", "druid", 3, &["Entangle", "Spike Growth"]);
    let order = fight(
        &mut e,
        vec![
            pc(&wiz, 0, 0, 25),
            pc(&druid, 0, 1, 24),
            named("goblin", "Snik", 6, 6, 10),
            named("goblin", "Zog", 15, 15, 9),
        ],
    );
    let snik = id_of(&order, "Snik");
    let zog = id_of(&order, "Zog");
    let out = cast(&mut e, &wiz, "Grease", |r| {
        r.to = Some(Position::new(5, 5));
        r.direction = Some("se".into());
    })
    .unwrap();
    assert_eq!(
        out.lines[..3],
        [
            "Grease (au1) covers 4 squares: difficult terrain",
            "Snik — Dexterity save (Grease): d20 [19] + 2 = 21 vs DC 13 — success",
            "Snik is unaffected by Grease",
        ]
    );
    assert_eq!(terrain(&mut e, 7, 7), Terrain::Difficult);
    advance(&mut e);
    let out = cast(&mut e, &druid, "Entangle", |r| {
        r.to = Some(Position::new(14, 14));
        r.direction = Some("se".into());
    })
    .unwrap();
    assert_eq!(
        out.lines[1..4],
        [
            "Entangle (au2) covers 16 squares: difficult terrain",
            "Zog — Strength save (Entangle): d20 [20] - 1 = 19 vs DC 13 — success (natural 20)",
            "Zog is unaffected by Entangle",
        ]
    );
    // Snik ends its turn on the grease: a save, a natural 20.
    let t = advance(&mut e);
    assert!(t.start_of_turn.is_empty(), "{:?}", t.start_of_turn);
    let t = advance(&mut e);
    assert_eq!(
        t.end_of_turn,
        [
            "Snik — Dexterity save (Grease): d20 [20] + 2 = 22 vs DC 13 — success (natural 20)",
            "Snik is unaffected by Grease",
        ]
    );
    // Entangle brings no save on later turns.
    assert!(t.start_of_turn.is_empty(), "{:?}", t.start_of_turn);
    advance(&mut e);
    advance(&mut e);
    // Spike Growth replaces Entangle (one concentration): its ground goes, the spikes come.
    let out = cast(&mut e, &druid, "Spike Growth", |r| {
        r.to = Some(Position::new(15, 10))
    })
    .unwrap();
    assert_eq!(
        out.lines[..5],
        [
            "Ivy's concentration on Entangle ends (a new concentration spell, Spike Growth, ends the old)",
            "Ivy concentrates on Spike Growth (up to 10 min)",
            "aura Entangle (au2) ends: Ivy's concentration on Entangle ended",
            "the ground under Entangle (au2) is as it was (16 squares)",
            "Spike Growth (au2) covers 81 squares: difficult terrain",
        ]
    );
    advance(&mut e);
    let t = advance(&mut e);
    assert_eq!(
        t.end_of_turn,
        [
            "Snik — Dexterity save (Grease): d20 [4] + 2 = 6 vs DC 13 — fail",
            "Snik is prone (Grease)",
        ]
    );
    assert!(has(&sheet(&mut e, &snik), Condition::Prone));
    // Zog walks 10 ft through the spikes (difficult: 20 ft of movement): 2d4 per 5 ft.
    let m = step(&mut e, &zog, (15, 13)).unwrap();
    assert_eq!(m.details["costFt"], 20);
    assert_eq!(
        m.lines[0],
        "Spike Growth (10 ft moved inside, 4d4: [3, 1, 3, 3] = 10): Zog takes 10 (10 piercing); 7 → 0 HP; dies"
    );
    assert_eq!(sheet(&mut e, &zog).hp, 0);
}

#[test]
fn fog_darkness_stinking_cloud_and_sleet_storm_block_sight_and_strike_as_written() {
    let Some(srd) = common::srd("terrain_fog") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let wiz = caster(
        &mut e,
        "Mira",
        "wizard",
        5,
        &["Fog Cloud", "Darkness", "Stinking Cloud", "Sleet Storm"],
    );
    let order = fight(
        &mut e,
        vec![pc(&wiz, 0, 10, 25), named("goblin", "Snik", 12, 10, 1)],
    );
    let snik = id_of(&order, "Snik");
    assert_eq!(sight(&mut e, (0, 10), (19, 10)), (true, None));
    let out = cast(&mut e, &wiz, "Fog Cloud", |r| {
        r.to = Some(Position::new(6, 10))
    })
    .unwrap();
    assert_eq!(
        out.lines[1],
        "Fog Cloud (au1) covers 81 squares: heavily obscured (no sight into, out of or through it)"
    );
    // 20 ft around (6, 10): the first fogged square on the line is (2, 10).
    assert_eq!(
        sight(&mut e, (0, 10), (19, 10)),
        (false, Some(Position::new(2, 10)))
    );
    advance(&mut e);
    advance(&mut e);
    // Darkness replaces the fog (one concentration): the fog lifts, the darkness hides.
    cast(&mut e, &wiz, "Darkness", |r| {
        r.to = Some(Position::new(6, 2))
    })
    .unwrap();
    assert_eq!(sight(&mut e, (0, 10), (19, 10)), (true, None));
    assert_eq!(
        sight(&mut e, (0, 2), (19, 2)),
        (false, Some(Position::new(3, 2)))
    );
    advance(&mut e);
    advance(&mut e);
    cast(&mut e, &wiz, "Stinking Cloud", |r| {
        r.to = Some(Position::new(12, 10))
    })
    .unwrap();
    assert_eq!(sight(&mut e, (0, 2), (19, 2)), (true, None));
    // A creature starting its turn in the stinking cloud: CON save or incapacitated.
    let t = advance(&mut e);
    assert_eq!(
        t.start_of_turn,
        [
            "Snik — Constitution save (Stinking Cloud): d20 [5] = 5 vs DC 14 — fail",
            "Snik is incapacitated (Stinking Cloud)",
        ]
    );
    assert!(has(&sheet(&mut e, &snik), Condition::Incapacitated));
    advance(&mut e);
    let out = cast(&mut e, &wiz, "Sleet Storm", |r| {
        r.to = Some(Position::new(12, 10))
    })
    .unwrap();
    assert_eq!(
        out.lines[4],
        "Sleet Storm (au1) covers 272 squares: difficult terrain; heavily obscured (no sight into, out of or through it)"
    );
    let t = advance(&mut e);
    assert_eq!(
        t.start_of_turn,
        [
            "Snik — Dexterity save (Sleet Storm): d20 [7] + 2 = 9 vs DC 14 — fail",
            "Snik is prone (Sleet Storm)",
        ]
    );
    let s = sheet(&mut e, &snik);
    assert!(has(&s, Condition::Prone) && !has(&s, Condition::Incapacitated));
    assert_eq!(terrain(&mut e, 12, 12), Terrain::Difficult);
}

#[test]
fn wall_of_stone_blocks_movement_and_sight_wall_of_force_only_movement_both_gone_when_they_end() {
    let Some(srd) = common::srd("terrain_walls") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let wiz = caster(
        &mut e,
        "Mira",
        "wizard",
        11,
        &["Wall of Stone", "Wall of Force"],
    );
    let order = fight(
        &mut e,
        vec![pc(&wiz, 0, 5, 25), named("goblin", "Snik", 9, 5, 1)],
    );
    let snik = id_of(&order, "Snik");
    let out = cast(&mut e, &wiz, "Wall of Stone", |r| {
        r.to = Some(Position::new(5, 0));
        r.direction = Some("s".into());
    })
    .unwrap();
    assert_eq!(
        out.headline,
        "Mira casts Wall of Stone: a zone (au1) on 20 squares from (5, 0)."
    );
    assert_eq!(
        out.lines[1],
        "Wall of Stone (au1) covers 20 squares: a wall blocking movement and sight"
    );
    for y in [0, 5, 19] {
        assert_eq!(terrain(&mut e, 5, y), Terrain::Wall);
    }
    assert_eq!(
        sight(&mut e, (0, 5), (9, 5)),
        (false, Some(Position::new(5, 5)))
    );
    advance(&mut e);
    let err = step(&mut e, &snik, (3, 5)).unwrap_err().to_string();
    assert!(
        err.starts_with("no path for Snik from (9, 5) to (3, 5)"),
        "{err}"
    );
    advance(&mut e);
    // Wall of Force replaces it: stone gone, an invisible wall at x = 7.
    let out = cast(&mut e, &wiz, "Wall of Force", |r| {
        r.to = Some(Position::new(7, 0));
        r.direction = Some("s".into());
    })
    .unwrap();
    assert_eq!(
        out.lines[2..5],
        [
            "aura Wall of Stone (au1) ends: Mira's concentration on Wall of Stone ended",
            "the ground under Wall of Stone (au1) is as it was (20 squares)",
            "Wall of Force (au1) covers 20 squares: an invisible wall blocking movement, not sight",
        ]
    );
    assert_eq!(terrain(&mut e, 5, 5), Terrain::Open);
    assert_eq!(sight(&mut e, (0, 5), (9, 5)), (true, None));
    advance(&mut e);
    let err = step(&mut e, &snik, (3, 5)).unwrap_err().to_string();
    assert!(
        err.starts_with("no path for Snik from (9, 5) to (3, 5)"),
        "{err}"
    );
    // Concentration ends: the way is open.
    break_concentration(&mut e, &wiz);
    step(&mut e, &snik, (6, 5)).unwrap();
    assert_eq!(encounter(&mut e).map.props().count(), 0);
}

#[test]
fn forcecage_bars_a_creature_in_passwall_opens_a_wall_earthquake_shakes_the_ground() {
    let Some(srd) = common::srd("terrain_cage") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let wiz = caster(&mut e, "Mira", "wizard", 13, &["Forcecage", "Passwall"]);
    let cleric = caster(&mut e, "Bran", "cleric", 15, &["Earthquake"]);
    let out = e
        .write("create_encounter", &serde_json::json!({}), |call| {
            create_encounter(
                call,
                CreateEncounter {
                    participants: vec![
                        pc(&wiz, 0, 5, 25),
                        pc(&cleric, 0, 15, 24),
                        named("ogre", "Ogre", 6, 6, 1),
                    ],
                    terrain: tabletop_engine::combat::create::TerrainSpec {
                        walls: (0..20).map(|y| Position::new(3, y)).collect(),
                        ..Default::default()
                    },
                    ..Default::default()
                },
            )
        })
        .unwrap();
    let ogre = out
        .encounter
        .order
        .iter()
        .find(|c| c.name == "Ogre")
        .unwrap()
        .character_id
        .clone();
    // A 20-ft cage southeast of (4, 4): bars on the edge of (5..=8, 5..=8), the ogre inside.
    let out = cast(&mut e, &wiz, "Forcecage", |r| {
        r.to = Some(Position::new(4, 4));
        r.direction = Some("se".into());
    })
    .unwrap();
    assert_eq!(
        out.lines[0],
        "Forcecage (au1) covers 12 squares: an invisible wall blocking movement, not sight"
    );
    let zone = encounter(&mut e).auras[0].clone();
    assert_eq!(zone.squares.len(), 12);
    assert!(
        zone.squares.contains(&Position::new(5, 5)) && zone.squares.contains(&Position::new(8, 8))
    );
    assert!(!zone.squares.contains(&Position::new(6, 6)));
    assert_eq!(encounter(&mut e).map.props().count(), 12);
    advance(&mut e);
    advance(&mut e);
    let err = step(&mut e, &ogre, (10, 6)).unwrap_err().to_string();
    assert!(
        err.starts_with("no path for Ogre from (6, 6) to (10, 6)"),
        "{err}"
    );
    advance(&mut e);
    // Passwall through the wall at x = 3: a 20-ft passage eastward from (3, 2).
    let out = cast(&mut e, &wiz, "Passwall", |r| {
        r.to = Some(Position::new(3, 2));
        r.direction = Some("e".into());
    })
    .unwrap();
    assert_eq!(
        out.lines[0],
        "Passwall (au2) covers 4 squares: a passage: its walls are open floor while it lasts"
    );
    assert_eq!(terrain(&mut e, 3, 2), Terrain::Open);
    assert_eq!(terrain(&mut e, 3, 3), Terrain::Wall);
    // The DM ends the cage by hand: its bars go.
    let removed = e
        .write("manage_aura", &serde_json::json!({}), |call| {
            tabletop_engine::combat::auras::manage_aura(
                call,
                None,
                tabletop_engine::combat::auras::AuraOp::Remove {
                    aura: Some("Forcecage".into()),
                    bearer: Who::default(),
                },
            )
        })
        .unwrap();
    assert_eq!(
        removed.lines,
        [
            "aura Forcecage (au1) removed",
            "the ground under Forcecage (au1) is as it was (12 squares)",
        ]
    );
    assert_eq!(encounter(&mut e).map.props().count(), 0);
    advance(&mut e);
    // Earthquake: the ground shakes (difficult terrain) and the ogre saves or falls prone.
    let out = cast(&mut e, &cleric, "Earthquake", |r| {
        r.to = Some(Position::new(10, 10))
    })
    .unwrap();
    assert_eq!(
        out.lines[2..4],
        [
            "Ogre — Dexterity save (Earthquake): d20 [7] - 1 = 6 vs DC 16 — fail",
            "Ogre is prone (Earthquake)",
        ]
    );
    assert_eq!(terrain(&mut e, 10, 10), Terrain::Difficult);
    let s = sheet(&mut e, &ogre);
    let prone = s
        .conditions
        .iter()
        .find(|c| c.condition == Condition::Prone)
        .unwrap();
    // Prone lasts until the ogre stands up.
    assert!(prone.duration.is_none());
}

fn light_at(e: &mut E, x: i32, y: i32) -> tabletop_grid::Light {
    encounter(e).map.light_at(Position::new(x, y))
}

#[test]
fn light_and_dancing_lights_light_a_dark_map_so_attacks_lose_disadvantage_and_recasting_moves_them()
{
    use tabletop_grid::Light;
    let Some(srd) = common::srd("terrain_light") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let wiz = caster(
        &mut e,
        "Mira",
        "wizard",
        5,
        &["Light", "Dancing Lights", "Fire Bolt"],
    );
    let order = fight(
        &mut e,
        vec![pc(&wiz, 0, 0, 25), named("goblin", "Snik", 8, 0, 1)],
    );
    let snik = id_of(&order, "Snik");
    let dark = e
        .write("modify_terrain", &serde_json::json!({}), |call| {
            tabletop_engine::combat::terrain::modify_terrain(
                call,
                &tabletop_engine::combat::terrain::TerrainRequest {
                    operation: tabletop_engine::combat::terrain::TerrainOp::Light,
                    light: Some(Light::Darkness),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(dark.headline, "The whole map is now in darkness.");
    let bolt = |e: &mut E| {
        let o = cast(e, &wiz, "Fire Bolt", |r| r.target = who(&snik)).unwrap();
        o.lines[0].clone()
    };
    let first = bolt(&mut e);
    assert!(
        first.contains("(disadvantage: Mira can't see Snik (darkness"),
        "{first}"
    );
    advance(&mut e);
    advance(&mut e);
    // Light on a stone at (1, 0), within touch: bright 20 ft, dim 20 ft more.
    let out = cast(&mut e, &wiz, "Light", |r| r.to = Some(Position::new(1, 0))).unwrap();
    assert_eq!(
        out.lines[0],
        "Light (au1) covers 30 squares: bright light (dim beyond) where it was darker"
    );
    assert_eq!(light_at(&mut e, 1, 0), Light::Bright);
    assert_eq!(light_at(&mut e, 5, 0), Light::Bright);
    assert_eq!(light_at(&mut e, 9, 0), Light::Dim);
    assert_eq!(light_at(&mut e, 10, 0), Light::Darkness);
    advance(&mut e);
    advance(&mut e);
    // Snik stands in dim light: Mira sees it, no disadvantage.
    let second = bolt(&mut e);
    assert!(!second.contains("disadvantage"), "{second}");
    advance(&mut e);
    advance(&mut e);
    // A new Light elsewhere ends the first: its squares are dark again.
    cast(&mut e, &wiz, "Light", |r| r.to = Some(Position::new(0, 1))).unwrap();
    assert_eq!(light_at(&mut e, 1, 0), Light::Bright);
    assert_eq!(light_at(&mut e, 5, 0), Light::Dim);
    // (9, 0) was 40 ft from the first light (dim), and is 45 ft from this one (dark).
    assert_eq!(light_at(&mut e, 9, 0), Light::Darkness);
    advance(&mut e);
    advance(&mut e);
    // Dancing Lights: dim light 10 ft around a point within 120 ft, moved 60 ft by casting it
    // again (no slot).
    let out = cast(&mut e, &wiz, "Dancing Lights", |r| {
        r.to = Some(Position::new(14, 0))
    })
    .unwrap();
    assert_eq!(
        out.lines[1],
        "Dancing Lights (au2) covers 15 squares: dim light where it was darker"
    );
    assert_eq!(light_at(&mut e, 14, 0), Light::Dim);
    assert_eq!(light_at(&mut e, 11, 0), Light::Darkness);
    advance(&mut e);
    advance(&mut e);
    let mv = cast(&mut e, &wiz, "Dancing Lights", |r| {
        r.to = Some(Position::new(11, 5))
    })
    .unwrap();
    assert_eq!(
        mv.headline,
        "Mira moves Dancing Lights (au2) 25 ft to (11, 5) (no slot spent, no spell cast)."
    );
    assert_eq!(light_at(&mut e, 14, 0), Light::Darkness);
    assert_eq!(light_at(&mut e, 11, 5), Light::Dim);
    // Concentration ends: the lights go out.
    break_concentration(&mut e, &wiz);
    assert_eq!(light_at(&mut e, 11, 5), Light::Darkness);
}
