//! Issue 18 C: the spatial tools without a fight: on a scratch map (plain squares, terrain given
//! in the call) when no encounter is active, and on an ended encounter's map by id.

use super::fidelity;

use fidelity::{FIGHTER, Table, WIZARD};
use serde_json::json;
use tabletop_engine::combat::actions::Who;
use tabletop_engine::combat::create::TerrainSpec;
use tabletop_engine::combat::spatial::Point;
use tabletop_engine::combat::spatial::area::{AoeRequest, calculate_aoe};
use tabletop_engine::combat::spatial::measure::{MeasureRequest, measure_distance};
use tabletop_engine::combat::spatial::movement::{MovementRequest, calculate_movement};
use tabletop_engine::combat::spatial::props::{PropFields, PropOp, PropRequest, place_prop};
use tabletop_engine::combat::spatial::sight::{
    CoverRequest, SightRequest, check_cover, check_line_of_sight,
};
use tabletop_engine::combat::spatial::view::{RenderRequest, render_battlefield};
use tabletop_engine::combat::terrain::{TerrainKind, TerrainOp, TerrainRequest, modify_terrain};
use tabletop_engine::{Engine, EngineOptions, SqliteStore};
use tabletop_grid::{Cover, Position};

fn p(x: i32, y: i32) -> Position {
    Position::new(x, y)
}

fn sq(x: i32, y: i32) -> Point {
    Point::square(p(x, y))
}

fn empty_campaign() -> (tempfile::TempDir, Engine<SqliteStore>) {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("t.sqlite")).unwrap();
    let e = Engine::open(
        store,
        "main",
        EngineOptions {
            seed: Some(5),
            compendium: tabletop_engine::compendium::CompendiumSource::none(),
        },
    )
    .unwrap();
    (dir, e)
}

fn wall_map() -> TerrainSpec {
    TerrainSpec {
        width: Some(12),
        height: Some(8),
        walls: (0..5).map(|y| p(5, y)).collect(),
        ..Default::default()
    }
}

#[test]
fn read_only_tools_answer_on_a_scratch_map_without_an_encounter() {
    let (_d, mut e) = empty_campaign();
    // Plain squares, no terrain given: 20×20.
    let m = e
        .read(|call| {
            measure_distance(
                call,
                &MeasureRequest {
                    from: sq(0, 0),
                    to: sq(3, 2),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(m.encounter_id, "scratch");
    assert_eq!(m.distance_ft, 15);
    assert_eq!(
        m.text().lines().next().unwrap(),
        "(0, 0) → (3, 2): 15 ft (3 squares, grid_5e). Within 5 ft: no."
    );
    // The terrain given in the call: a wall down column 5 (rows 0–4).
    let scratch = Some(wall_map());
    let los = e
        .read(|call| {
            check_line_of_sight(
                call,
                &SightRequest {
                    scratch: scratch.clone(),
                    from: sq(2, 2),
                    to: sq(8, 2),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert!(!los.line_of_sight);
    assert_eq!(los.blocked_at, Some(p(5, 2)));
    let open = e
        .read(|call| {
            check_line_of_sight(
                call,
                &SightRequest {
                    scratch: scratch.clone(),
                    from: sq(2, 6),
                    to: sq(8, 6),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert!(open.line_of_sight);
    let cover = e
        .read(|call| {
            check_cover(
                call,
                &CoverRequest {
                    scratch: scratch.clone(),
                    from: sq(2, 2),
                    to: sq(8, 2),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(cover.report.cover, Cover::Total);
    // A 10-ft sphere at (6, 2): the wall squares are not in it, nor anything behind them.
    let ball = e
        .read(|call| {
            calculate_aoe(
                call,
                &AoeRequest {
                    scratch: scratch.clone(),
                    shape: "sphere".into(),
                    size_ft: 10,
                    origin: sq(6, 2),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert!(ball.squares.iter().all(|q| q.x >= 6), "{:?}", ball.squares);
    // 5-5-5, as ranges count: the 5 × 5 block (4..=8, 0..=4) less the wall column and the
    // column behind it: 3 × 5 squares.
    assert_eq!(ball.count, 15);
    assert_eq!(ball.bounds, Some([6, 0, 8, 4]));
    // A path around the wall's end: 5 squares down, across, back up.
    let path = e
        .read(|call| {
            calculate_movement(
                call,
                &MovementRequest {
                    scratch: scratch.clone(),
                    from: Some(p(4, 2)),
                    to: Some(p(6, 2)),
                    movement_ft: Some(60),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    let route = path.path.expect("a route around the wall");
    assert!(route.squares.iter().all(|q| q.x != 5 || q.y >= 5));
    assert_eq!(route.cost_ft, 30);
    let pic = e
        .read(|call| {
            render_battlefield(
                call,
                &RenderRequest {
                    scratch: scratch.clone(),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(pic.map_size, (12, 8));
    assert_eq!(pic.map.lines().filter(|l| l.contains('#')).count(), 5);
    // A scratch map and an encounter id together are refused.
    let both = e
        .read(|call| {
            measure_distance(
                call,
                &MeasureRequest {
                    encounter_id: Some("enc1".into()),
                    scratch: Some(wall_map()),
                    from: sq(0, 0),
                    to: sq(1, 1),
                    ..Default::default()
                },
            )
        })
        .unwrap_err()
        .to_string();
    assert_eq!(
        both,
        "scratchMap: give either encounterId (enc1) or a scratchMap, not both: a scratch map is for questions outside an encounter"
    );
}

#[test]
fn terrain_and_props_without_an_encounter_go_on_a_stored_scratch_map() {
    let (_d, mut e) = empty_campaign();
    let t = e
        .write("modify_terrain", &json!({}), |call| {
            modify_terrain(
                call,
                &TerrainRequest {
                    operation: TerrainOp::Add,
                    kind: Some(TerrainKind::Wall),
                    squares: vec![p(4, 0), p(4, 1), p(4, 2)],
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(t.encounter_id, "enc1");
    assert_eq!(
        t.headline,
        "3 squares became a wall. No encounter is active: the change is on scratch map enc1 (20×20 squares), kept as an ended map-only encounter; pass encounterId: enc1 to keep working on it."
    );
    let prop = e
        .write("place_prop", &json!({}), |call| {
            place_prop(
                call,
                &PropRequest {
                    encounter_id: Some("enc1".into()),
                    operation: PropOp::Place,
                    fields: PropFields {
                        name: Some("Crate".into()),
                        position: Some(p(6, 6)),
                        blocks_movement: Some(true),
                        ..Default::default()
                    },
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(
        prop.headline,
        "Placed Crate (crate-1) at (6, 6), 5×5 ft: blocks movement."
    );
    let los = e
        .read(|call| {
            check_line_of_sight(
                call,
                &SightRequest {
                    encounter_id: Some("enc1".into()),
                    from: sq(2, 1),
                    to: sq(7, 1),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(los.blocked_at, Some(p(4, 1)));
    // Timed terrain needs rounds to pass.
    let timed = e
        .write("modify_terrain", &json!({}), |call| {
            modify_terrain(
                call,
                &TerrainRequest {
                    encounter_id: Some("enc1".into()),
                    operation: TerrainOp::Add,
                    kind: Some(TerrainKind::Difficult),
                    squares: vec![p(1, 1)],
                    rounds: Some(3),
                    ..Default::default()
                },
            )
        })
        .unwrap_err()
        .to_string();
    assert_eq!(
        timed,
        "rounds: enc1 is not a running fight, so no rounds pass on its map; change the terrain for good (omit rounds)"
    );
}

#[test]
fn an_ended_encounters_map_by_id() {
    let Some(mut t) = Table::new(
        31,
        &[FIGHTER, WIZARD],
        vec![("goblin", "Goblin", vec![(6, 2)], 5)],
        (10, 10),
    ) else {
        return;
    };
    t.e.write("end_encounter", &json!({}), |call| {
        tabletop_engine::combat::end::end_encounter(call, &Default::default())
    })
    .unwrap();
    let rook = Who {
        id: None,
        name: Some("Rook".into()),
    };
    let m =
        t.e.read(|call| {
            measure_distance(
                call,
                &MeasureRequest {
                    encounter_id: Some("enc1".into()),
                    from: Point {
                        square: None,
                        who: rook.clone(),
                    },
                    to: sq(6, 6),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(m.distance_ft, 20);
    let w =
        t.e.write("modify_terrain", &json!({}), |call| {
            modify_terrain(
                call,
                &TerrainRequest {
                    encounter_id: Some("enc1".into()),
                    operation: TerrainOp::Add,
                    kind: Some(TerrainKind::Wall),
                    squares: vec![p(4, 2)],
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(w.headline, "1 square became a wall.");
    // No encounter is active now: a plain measure runs on a scratch map.
    let s =
        t.e.read(|call| {
            measure_distance(
                call,
                &MeasureRequest {
                    from: sq(0, 0),
                    to: sq(0, 4),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(s.encounter_id, "scratch");
    assert_eq!(s.distance_ft, 20);
}
