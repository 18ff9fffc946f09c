//! The spatial tools on encounter maps: worked examples from the rules, through the engine's use
//! cases (distances, areas, sight, cover, props, movement, terrain, rendering).

use super::common;

use tabletop_engine::combat::actions::Who;
use tabletop_engine::combat::create::{
    CreateEncounter, InlineAttack, InlineStatBlock, ParticipantSource, ParticipantSpec,
    TerrainSpec, create_encounter,
};
use tabletop_engine::combat::spatial::area::{AoeRequest, calculate_aoe};
use tabletop_engine::combat::spatial::measure::{MeasureRequest, measure_distance};
use tabletop_engine::combat::spatial::movement::{
    Locomotion, MoveMode, MovementRequest, calculate_movement,
};
use tabletop_engine::combat::spatial::props::{PropFields, PropOp, PropRequest, place_prop};
use tabletop_engine::combat::spatial::sight::{
    CoverRequest, SightRequest, check_cover, check_line_of_sight,
};
use tabletop_engine::combat::spatial::view::{LegendDetail, RenderRequest, render_battlefield};
use tabletop_engine::combat::spatial::{Point, senses_of};
use tabletop_engine::combat::terrain::{TerrainKind, TerrainOp, TerrainRequest, modify_terrain};
use tabletop_engine::combat::{Side, load};
use tabletop_engine::{Engine, EngineError, SqliteStore};
use tabletop_grid::{Cover, Light, Metric, Position, Terrain, Visibility};
use tabletop_rules::{Condition, Size};

fn p(x: i32, y: i32) -> Position {
    Position::new(x, y)
}

fn creature(name: &str, side: Side, at: Position, size: Size, reach: u32) -> ParticipantSpec {
    ParticipantSpec {
        source: ParticipantSource::Inline(Box::new(InlineStatBlock {
            name: name.into(),
            hp: 10,
            ac: 12,
            size: Some(size),
            attacks: vec![InlineAttack {
                name: "Spear".into(),
                bonus: 4,
                damage: "1d6+2".into(),
                reach_ft: Some(reach),
                ..Default::default()
            }],
            ..Default::default()
        })),
        side: Some(side),
        positions: vec![at],
        surprised: false,
        initiative: None,
    }
}

/// A 20×20 encounter with the given combatants and terrain; returns the engine.
fn fight(people: Vec<ParticipantSpec>, terrain: TerrainSpec) -> Engine<SqliteStore> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.sqlite");
    std::mem::forget(dir);
    let mut engine = common::open(&path, "spatial", Some(7));
    engine
        .write("create_encounter", &serde_json::json!({}), |call| {
            create_encounter(
                call,
                CreateEncounter {
                    name: Some("Spatial".into()),
                    participants: people,
                    terrain,
                    auto_end: false,
                },
            )
        })
        .expect("encounter");
    engine
}

fn named(name: &str) -> Point {
    Point::combatant(None, Some(name.into()))
}

fn measure(engine: &mut Engine<SqliteStore>, from: Point, to: Point, metric: Metric) -> u32 {
    engine
        .read(|call| {
            measure_distance(
                call,
                &MeasureRequest {
                    from,
                    to,
                    metric,
                    ..Default::default()
                },
            )
        })
        .unwrap()
        .distance_ft
}

#[test]
fn diagonals_measure_by_the_chosen_rule() {
    let mut e = fight(
        vec![
            creature("Ada", Side::Party, p(0, 0), Size::Medium, 5),
            creature("Ogre", Side::Enemy, p(5, 5), Size::Large, 10),
        ],
        TerrainSpec::default(),
    );
    let sq = Point::square;
    assert_eq!(
        measure(&mut e, sq(p(0, 0)), sq(p(3, 3)), Metric::Grid5e),
        15
    );
    assert_eq!(
        measure(&mut e, sq(p(0, 0)), sq(p(3, 3)), Metric::GridAlt),
        20
    );
    assert_eq!(
        measure(&mut e, sq(p(0, 0)), sq(p(4, 4)), Metric::Grid5e),
        20
    );
    assert_eq!(
        measure(&mut e, sq(p(0, 0)), sq(p(4, 4)), Metric::GridAlt),
        30
    );
    // Elevation counts as a third axis: 3 squares up and 4 across is 20 ft (grid_5e).
    assert_eq!(
        measure(
            &mut e,
            sq(p(0, 0)),
            sq(Position::new_3d(4, 0, 3)),
            Metric::Grid5e
        ),
        20
    );
    // A large ogre at (5,5) fills (5..=6, 5..=6): its nearest square to Ada is (5,5): 25 ft.
    assert_eq!(
        measure(&mut e, named("ada"), named("Ogre"), Metric::Grid5e),
        25
    );
    let m = e
        .read(|call| {
            measure_distance(
                call,
                &MeasureRequest {
                    from: named("Ogre"),
                    to: Point::square(p(7, 5)),
                    range_ft: Some(10),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert!(m.within_5ft && m.within_range == Some(true), "{}", m.text());
    assert!(m.text().starts_with("Ogre → (7, 5): 5 ft"), "{}", m.text());
    // Off the map: an error naming the valid range.
    let err = e
        .read(|call| {
            measure_distance(
                call,
                &MeasureRequest {
                    from: Point::square(p(25, 3)),
                    to: named("Ada"),
                    ..Default::default()
                },
            )
        })
        .unwrap_err();
    assert!(err.to_string().contains("x must be 0–19"), "{err}");
}

fn aoe(
    engine: &mut Engine<SqliteStore>,
    req: AoeRequest,
) -> Result<tabletop_engine::combat::spatial::area::AoeOutcome, EngineError> {
    engine.read(|call| calculate_aoe(call, &req))
}

#[test]
fn areas_cover_the_rule_book_squares_and_name_who_is_inside() {
    let mut e = fight(
        vec![
            creature("Caster", Side::Party, p(5, 5), Size::Medium, 5),
            creature("Goblin 1", Side::Enemy, p(7, 4), Size::Medium, 5),
            creature("Goblin 2", Side::Enemy, p(9, 5), Size::Medium, 5),
            creature("Goblin 3", Side::Enemy, p(15, 15), Size::Medium, 5),
        ],
        TerrainSpec::default(),
    );
    // A 15-ft cone east from the caster's square: 1, 3, 3 squares.
    let cone = aoe(
        &mut e,
        AoeRequest {
            shape: "cone".into(),
            size_ft: 15,
            origin: named("Caster"),
            direction: Some("east".into()),
            exclude_caster: true,
            ..Default::default()
        },
    )
    .unwrap();
    let mut got: Vec<(i32, i32)> = cone.squares.iter().map(|q| (q.x, q.y)).collect();
    got.sort();
    assert_eq!(
        got,
        vec![(6, 5), (7, 4), (7, 5), (7, 6), (8, 4), (8, 5), (8, 6)]
    );
    let names: Vec<&str> = cone.creatures.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, vec!["Goblin 1"], "Goblin 2 at 20 ft is beyond 15 ft");
    assert!(cone.text().contains("Goblin 1 (enemy)"), "{}", cone.text());
    // Toward a combatant gives the same cone.
    let toward = aoe(
        &mut e,
        AoeRequest {
            shape: "cone".into(),
            size_ft: 15,
            origin: named("Caster"),
            toward: named("Goblin 2"),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(toward.count, 7);
    // A 20-ft-radius sphere measured 5-5-5 as ranges are: 81 squares (9 × 9) from a square's
    // centre, 64 (8 × 8) from a grid intersection; round (euclidean) 49 and 52.
    let ball = |corner, metric| AoeRequest {
        shape: "sphere".into(),
        size_ft: 20,
        origin: Point::square(p(10, 10)),
        at_corner: corner,
        metric,
        ..Default::default()
    };
    let square = aoe(&mut e, ball(false, Metric::Grid5e)).unwrap();
    assert_eq!(square.count, 81);
    assert_eq!(square.bounds, Some([6, 6, 14, 14]));
    let corner = aoe(&mut e, ball(true, Metric::Grid5e)).unwrap();
    assert_eq!(corner.count, 64);
    assert_eq!(corner.bounds, Some([6, 6, 13, 13]));
    assert_eq!(
        aoe(&mut e, ball(false, Metric::Euclidean)).unwrap().count,
        49
    );
    let round = aoe(&mut e, ball(true, Metric::Euclidean)).unwrap();
    assert_eq!(round.count, 52);
    assert_eq!(round.bounds, Some([6, 6, 13, 13]));
    // Bad inputs name the fix.
    let zero = aoe(
        &mut e,
        AoeRequest {
            shape: "sphere".into(),
            size_ft: 0,
            origin: Point::square(p(3, 3)),
            ..Default::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(
        zero.contains("sizeFt") && zero.contains("positive"),
        "{zero}"
    );
    let blob = aoe(
        &mut e,
        AoeRequest {
            shape: "blob".into(),
            size_ft: 10,
            origin: Point::square(p(3, 3)),
            ..Default::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(
        blob.contains("sphere, cylinder, cone, cube, line"),
        "{blob}"
    );
    let aimless = aoe(
        &mut e,
        AoeRequest {
            shape: "line".into(),
            size_ft: 30,
            origin: Point::square(p(3, 3)),
            ..Default::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(aimless.contains("needs a direction"), "{aimless}");
}

#[test]
fn a_fireball_does_not_pass_through_a_wall() {
    let walls: Vec<Position> = (0..20).map(|y| p(10, y)).collect();
    let mut e = fight(
        vec![
            creature("Near", Side::Enemy, p(8, 10), Size::Medium, 5),
            creature("Behind", Side::Enemy, p(11, 10), Size::Medium, 5),
            creature("Wizard", Side::Party, p(2, 2), Size::Medium, 5),
        ],
        TerrainSpec {
            walls,
            ..Default::default()
        },
    );
    let fireball = aoe(
        &mut e,
        AoeRequest {
            shape: "sphere".into(),
            size_ft: 20,
            origin: Point::square(p(8, 10)),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        fireball.squares.iter().all(|q| q.x < 10),
        "{:?}",
        fireball.squares
    );
    let names: Vec<&str> = fireball.creatures.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, vec!["Near"]);
}

#[test]
fn cover_by_the_corner_rule() {
    let mut e = fight(
        vec![
            creature("Archer", Side::Enemy, p(5, 5), Size::Medium, 5),
            creature("Ada", Side::Party, p(0, 5), Size::Medium, 5),
            creature("Bob", Side::Party, p(0, 0), Size::Medium, 5),
            creature("Target", Side::Enemy, p(4, 4), Size::Medium, 5),
        ],
        TerrainSpec {
            low_walls: vec![p(4, 5)],
            obstacles: vec![p(2, 2)],
            ..Default::default()
        },
    );
    let cover = |e: &mut Engine<SqliteStore>, from: &str, to: &str, creatures: bool| {
        e.read(|call| {
            check_cover(
                call,
                &CoverRequest {
                    from: named(from),
                    to: named(to),
                    creatures_give_cover: creatures,
                    ..Default::default()
                },
            )
        })
        .unwrap()
    };
    let r = cover(&mut e, "Ada", "Archer", false);
    assert_eq!(r.report.cover, Cover::Half);
    assert!(
        r.text().starts_with("Archer has half cover: +2 AC"),
        "{}",
        r.text()
    );
    let r = cover(&mut e, "Bob", "Target", false);
    assert_eq!(
        r.report.cover,
        Cover::ThreeQuarters,
        "pillar on the diagonal"
    );
    assert_eq!(r.report.ac_bonus, Some(5));
    // Ada → Target at (4,4): nothing in the way, unless creatures count (none between).
    assert_eq!(
        cover(&mut e, "Ada", "Target", true).report.cover,
        Cover::None
    );
}

#[test]
fn sight_uses_light_senses_walls_and_invisibility() {
    let mut e = fight(
        vec![
            creature("Human", Side::Party, p(0, 5), Size::Medium, 5),
            creature("Goblin", Side::Enemy, p(6, 5), Size::Medium, 5),
            creature("Hidden", Side::Enemy, p(6, 9), Size::Medium, 5),
        ],
        TerrainSpec {
            lighting: Some(Light::Darkness),
            walls: vec![p(3, 7)],
            ..Default::default()
        },
    );
    // Give the goblin darkvision through its stat block, as an SRD goblin has.
    e.write("test", &serde_json::json!({}), |call| {
        let enc = load(call, None)?;
        let id = enc
            .order
            .iter()
            .find(|c| c.name == "Goblin")
            .unwrap()
            .character_id
            .clone();
        let mut c = tabletop_engine::combat::sheet(call, &id)?;
        c.stat_block.as_mut().unwrap().senses = vec!["darkvision 60 ft.".into()];
        assert_eq!(senses_of(&c).darkvision_ft, 60);
        tabletop_engine::combat::put_sheet(call, &c)
    })
    .unwrap();
    let look = |e: &mut Engine<SqliteStore>, from: &str, to: &str| {
        e.read(|call| {
            check_line_of_sight(
                call,
                &SightRequest {
                    from: named(from),
                    to: named(to),
                    ..Default::default()
                },
            )
        })
        .unwrap()
    };
    let human = look(&mut e, "Human", "Goblin");
    assert!(human.line_of_sight && !human.can_see, "{}", human.text());
    assert_eq!(human.visibility.visibility, Visibility::HeavilyObscured);
    let goblin = look(&mut e, "Goblin", "Human");
    assert!(goblin.can_see, "{}", goblin.text());
    assert!(goblin.text().contains("darkvision"), "{}", goblin.text());
    let wall = look(&mut e, "Human", "Hidden");
    assert!(!wall.line_of_sight, "{}", wall.text());
    assert!(wall.text().contains("a wall at (3, 7)"), "{}", wall.text());
    // An invisible human is unseen even by darkvision.
    e.write("test", &serde_json::json!({}), |call| {
        let enc = load(call, None)?;
        let id = enc
            .order
            .iter()
            .find(|c| c.name == "Human")
            .unwrap()
            .character_id
            .clone();
        let mut c = tabletop_engine::combat::sheet(call, &id)?;
        c.conditions
            .push(tabletop_engine::character::ConditionEntry {
                by: None,
                ends_on: None,
                condition: Condition::Invisible,
                level: None,
                source: "test".into(),
                duration: None,
            });
        tabletop_engine::combat::put_sheet(call, &c)
    })
    .unwrap();
    let goblin = look(&mut e, "Goblin", "Human");
    assert!(
        goblin.unseen_invisible && !goblin.can_see,
        "{}",
        goblin.text()
    );
}

#[test]
fn paths_avoid_walls_cost_what_they_report_and_warn_of_opportunity_attacks() {
    let walls: Vec<Position> = (0..8).map(|y| p(5, y)).collect();
    let mut e = fight(
        vec![
            creature("Runner", Side::Party, p(2, 2), Size::Medium, 5),
            creature("Guard", Side::Enemy, p(3, 2), Size::Medium, 5),
            creature("Pikeman", Side::Enemy, p(2, 5), Size::Medium, 10),
        ],
        TerrainSpec {
            walls,
            difficult: vec![p(4, 8)],
            ..Default::default()
        },
    );
    let out = e
        .read(|call| {
            calculate_movement(
                call,
                &MovementRequest {
                    mover: Who {
                        name: Some("Runner".into()),
                        id: None,
                    },
                    to: Some(p(8, 2)),
                    movement_ft: Some(60),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    let path = out.path.as_ref().expect("a route around the wall");
    let walls_hit = path.squares.iter().filter(|q| q.x == 5 && q.y < 8).count();
    assert_eq!(walls_hit, 0, "{:?}", path.squares);
    assert_eq!(path.step_costs_ft.iter().sum::<u32>(), path.cost_ft);
    assert!(
        path.squares.iter().any(|q| q.y >= 8),
        "goes around the wall's end"
    );
    let names: Vec<&str> = out
        .opportunity_attacks
        .iter()
        .map(|o| o.name.as_str())
        .collect();
    assert!(names.contains(&"Guard"), "{}", out.text());
    assert!(
        out.text().contains("Warning: opportunity attacks from"),
        "{}",
        out.text()
    );
    // Reach with the movement left: inline creatures walk 30 ft; nothing spent yet.
    let reach = e
        .read(|call| {
            calculate_movement(
                call,
                &MovementRequest {
                    mode: MoveMode::Reach,
                    mover: Who {
                        name: Some("Runner".into()),
                        id: None,
                    },
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(reach.budget_ft, Some(30));
    assert!(
        reach
            .reachable
            .iter()
            .all(|(q, c)| *c <= 30 && !(q.x == 5 && q.y < 8))
    );
    assert!(
        !reach.reachable.iter().any(|(q, _)| *q == p(3, 2)),
        "cannot stop on the guard"
    );
    // Movement already spent this turn shrinks the budget; a fly speed from the stat block
    // becomes the budget when flying.
    e.write("test", &serde_json::json!({}), |call| {
        let mut enc = load(call, None)?;
        let id = enc
            .order
            .iter()
            .find(|c| c.name == "Runner")
            .unwrap()
            .character_id
            .clone();
        enc.combatant_mut(&id).unwrap().economy.movement_used_ft = 20;
        tabletop_engine::combat::save(call, &enc)
    })
    .unwrap();
    let runner = Who {
        name: Some("Runner".into()),
        id: None,
    };
    let left = e
        .read(|call| {
            calculate_movement(
                call,
                &MovementRequest {
                    mode: MoveMode::Reach,
                    mover: runner.clone(),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(left.budget_ft, Some(10));
    assert!(left.reachable.iter().all(|(_, c)| *c <= 10));
    // No fly speed: asked to fly, the answer says so.
    let err = e
        .read(|call| {
            calculate_movement(
                call,
                &MovementRequest {
                    mode: MoveMode::Reach,
                    mover: Who {
                        name: Some("Runner".into()),
                        id: None,
                    },
                    locomotion: Locomotion::Fly,
                    ..Default::default()
                },
            )
        })
        .unwrap_err();
    assert!(err.to_string().contains("no fly speed"), "{err}");
    e.write("test", &serde_json::json!({}), |call| {
        let enc = load(call, None)?;
        let id = enc
            .order
            .iter()
            .find(|c| c.name == "Runner")
            .unwrap()
            .character_id
            .clone();
        let mut c = tabletop_engine::combat::sheet(call, &id)?;
        c.stat_block
            .as_mut()
            .unwrap()
            .other_speeds
            .insert("fly".into(), 60);
        tabletop_engine::combat::put_sheet(call, &c)
    })
    .unwrap();
    let fly = e
        .read(|call| {
            calculate_movement(
                call,
                &MovementRequest {
                    mode: MoveMode::Reach,
                    mover: runner.clone(),
                    locomotion: Locomotion::Fly,
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(
        fly.budget_ft,
        Some(40),
        "fly 60 minus the 20 ft already moved"
    );
    let adj = e
        .read(|call| {
            calculate_movement(
                call,
                &MovementRequest {
                    mode: MoveMode::Adjacent,
                    mover: Who {
                        name: Some("Runner".into()),
                        id: None,
                    },
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(adj.adjacent.len(), 8);
    assert!(
        adj.adjacent
            .iter()
            .any(|n| n.occupant.as_deref() == Some("Guard"))
    );
}

#[test]
fn terrain_changes_are_recorded_timed_and_refused_under_creatures() {
    let mut e = fight(
        vec![
            creature("Ada", Side::Party, p(1, 1), Size::Medium, 5),
            creature("Gob", Side::Enemy, p(8, 8), Size::Medium, 5),
        ],
        TerrainSpec {
            difficult: vec![p(4, 4)],
            ..Default::default()
        },
    );
    let run = |e: &mut Engine<SqliteStore>, req: TerrainRequest| {
        e.write("modify_terrain", &serde_json::json!({}), |call| {
            modify_terrain(call, &req)
        })
    };
    let web = run(
        &mut e,
        TerrainRequest {
            operation: TerrainOp::Add,
            kind: Some(TerrainKind::Difficult),
            rect: Some((p(3, 3), p(5, 5))),
            rounds: Some(10),
            source: Some("Web".into()),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(web.changed.len(), 9);
    let timed = web.timed.unwrap();
    assert_eq!(timed.expires_round, 11);
    assert_eq!(timed.squares.len(), timed.previous.len());
    let i = timed.squares.iter().position(|q| *q == p(4, 4)).unwrap();
    assert_eq!(
        timed.previous[i],
        Terrain::Difficult,
        "what was there is kept for expiry"
    );
    let stored = e.read(|call| load(call, None)).unwrap();
    assert_eq!(stored.timed_terrain.len(), 1);
    assert_eq!(stored.map.terrain(p(3, 3)).unwrap(), &Terrain::Difficult);
    // A wall on Ada is refused, naming her; nothing changes.
    let err = run(
        &mut e,
        TerrainRequest {
            operation: TerrainOp::Add,
            kind: Some(TerrainKind::Wall),
            squares: vec![p(0, 1), p(1, 1)],
            ..Default::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("Ada stands there"), "{err}");
    let stored = e.read(|call| load(call, None)).unwrap();
    assert_eq!(stored.map.terrain(p(0, 1)).unwrap(), &Terrain::Open);
    // Clearing difficult terrain forgets the timed record of those squares.
    let cleared = run(
        &mut e,
        TerrainRequest {
            operation: TerrainOp::Clear,
            kind: Some(TerrainKind::Difficult),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(cleared.changed.len(), 9);
    let stored = e.read(|call| load(call, None)).unwrap();
    assert!(stored.timed_terrain.is_empty());
}

#[test]
fn props_block_and_cover_as_declared() {
    let mut e = fight(
        vec![
            creature("Ada", Side::Party, p(0, 5), Size::Medium, 5),
            creature("Gob", Side::Enemy, p(6, 5), Size::Medium, 5),
        ],
        TerrainSpec::default(),
    );
    let run = |e: &mut Engine<SqliteStore>, req: PropRequest| {
        e.write("place_prop", &serde_json::json!({}), |call| {
            place_prop(call, &req)
        })
    };
    let placed = run(
        &mut e,
        PropRequest {
            operation: PropOp::Place,
            fields: PropFields {
                name: Some("Tapestry".into()),
                position: Some(p(3, 5)),
                blocks_sight: Some(true),
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(placed.prop.as_ref().unwrap().id, "tapestry-1");
    let sight = e
        .read(|call| {
            check_line_of_sight(
                call,
                &SightRequest {
                    from: named("Ada"),
                    to: named("Gob"),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert!(
        !sight.line_of_sight && sight.text().contains("the Tapestry"),
        "{}",
        sight.text()
    );
    run(
        &mut e,
        PropRequest {
            operation: PropOp::Move,
            prop_id: Some("Tapestry".into()),
            fields: PropFields {
                position: Some(p(3, 9)),
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .unwrap();
    let list = run(&mut e, PropRequest::default()).unwrap();
    assert_eq!(list.props[0].position, p(3, 9));
    // A blocking prop cannot be dropped on a creature.
    let err = run(
        &mut e,
        PropRequest {
            operation: PropOp::Place,
            fields: PropFields {
                name: Some("Crate".into()),
                position: Some(p(6, 5)),
                blocks_movement: Some(true),
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("occupied"), "{err}");
    let removed = run(
        &mut e,
        PropRequest {
            operation: PropOp::Remove,
            prop_id: Some("tapestry-1".into()),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(removed.props.is_empty());
}

#[test]
fn the_battlefield_renders_with_tokens_and_a_legend() {
    let mut e = fight(
        vec![
            creature("Ada", Side::Party, p(1, 1), Size::Medium, 5),
            creature("Goblin 1", Side::Enemy, p(3, 1), Size::Medium, 5),
        ],
        TerrainSpec {
            width: Some(6),
            height: Some(4),
            walls: vec![p(2, 3)],
            ..Default::default()
        },
    );
    let full = e
        .read(|call| {
            render_battlefield(
                call,
                &RenderRequest {
                    legend: LegendDetail::Full,
                    ..Default::default()
                },
            )
        })
        .unwrap();
    let text = full.text();
    assert!(text.starts_with("Battlefield"), "{text}");
    assert!(text.contains("G1 Goblin 1 (enemy, HP 10/10)"), "{text}");
    assert!(text.contains("# wall"), "{text}");
    let focused = e
        .read(|call| {
            render_battlefield(
                call,
                &RenderRequest {
                    focus: Who {
                        name: Some("Ada".into()),
                        id: None,
                    },
                    radius_ft: Some(5),
                    legend: LegendDetail::None,
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!((focused.viewport.width, focused.viewport.height), (3, 3));
    assert!(!focused.text().contains("wall"), "{}", focused.text());
}
