//! Issue 18 D: one distance rule for ranges and templates. A sphere covers the squares whose
//! distance from its origin by the campaign's metric (5-5-5) is within its radius, the rule
//! `measure_distance` and spell ranges use; the `calculate_aoe` preview and the resolved spell
//! agree on who is caught.

use super::fidelity;

use fidelity::{Table, WIZARD};
use serde_json::json;
use tabletop_engine::combat::spatial::Point;
use tabletop_engine::combat::spatial::area::{AoeRequest, calculate_aoe};
use tabletop_engine::combat::spatial::measure::{MeasureRequest, measure_distance};
use tabletop_grid::Position;

fn sq(x: i32, y: i32) -> Point {
    Point::square(Position::new(x, y))
}

#[test]
fn a_fireball_covers_what_measure_distance_says_and_the_preview_agrees() {
    // Wren (2, 4) aims at (8, 8), 30 ft away. Goblins: (11, 11) 15 ft diagonally, (12, 12) and
    // (12, 5) 20 ft (both outside a round template: 28 and 25 ft straight), (13, 8) 25 ft.
    let Some(mut t) = Table::new(
        7,
        &[WIZARD],
        vec![(
            "goblin",
            "Goblin",
            vec![(11, 11), (12, 12), (12, 5), (13, 8)],
            5,
        )],
        (16, 16),
    ) else {
        return;
    };
    let dist = |t: &mut Table, x: i32, y: i32| {
        t.e.read(|call| {
            measure_distance(
                call,
                &MeasureRequest {
                    from: sq(8, 8),
                    to: sq(x, y),
                    ..Default::default()
                },
            )
        })
        .unwrap()
        .distance_ft
    };
    assert_eq!(dist(&mut t, 11, 11), 15);
    assert_eq!(dist(&mut t, 12, 12), 20);
    assert_eq!(dist(&mut t, 12, 5), 20);
    assert_eq!(dist(&mut t, 13, 8), 25);
    let preview =
        t.e.read(|call| {
            calculate_aoe(
                call,
                &AoeRequest {
                    shape: "sphere".into(),
                    size_ft: 20,
                    origin: sq(8, 8),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    // 5-5-5 from a square: the 9 × 9 block (4..=12, 4..=12).
    assert_eq!(preview.count, 81);
    assert_eq!(preview.bounds, Some([4, 4, 12, 12]));
    let mut caught: Vec<String> = preview.creatures.iter().map(|c| c.id.clone()).collect();
    caught.sort();
    let id = |t: &Table, n: &str| t.ids[n].clone();
    assert_eq!(
        caught,
        vec![id(&t, "Goblin 1"), id(&t, "Goblin 2"), id(&t, "Goblin 3")]
    );
    for (x, y) in [(11, 11), (12, 12), (12, 5)] {
        assert!(preview.squares.contains(&Position::new(x, y)), "({x}, {y})");
    }
    assert!(!preview.squares.contains(&Position::new(13, 8)));
    t.turn_of("Wren");
    let o = t
        .act(json!({"actorName": "Wren", "actionType": "cast_spell", "spell": "Fireball", "to": {"x": 8, "y": 8}}))
        .unwrap();
    assert_eq!(
        o.headline,
        "Fireball (3rd level): Goblin 1 saves for half, Goblin 1 takes 14 fire (7 → 0 HP) and dies; \
         Goblin 2 saves for half, Goblin 2 takes 14 fire (7 → 0 HP) and dies; \
         Goblin 3 saves for half, Goblin 3 takes 14 fire (7 → 0 HP) and dies."
    );
    // The resolved spell hits exactly the creatures the preview listed, on the preview's squares.
    let mut hit: Vec<String> = o.details["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap().to_string())
        .collect();
    hit.sort();
    assert_eq!(hit, caught);
    let gob4 = id(&t, "Goblin 4");
    let enc = t.enc();
    let left = enc.map.creature(&gob4).unwrap();
    assert_eq!(left.position, Position::new(13, 8));
    assert!(!preview.squares.contains(&left.position));
}
