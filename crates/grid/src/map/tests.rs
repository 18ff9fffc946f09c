use super::*;

#[test]
fn dimensions_are_validated() {
    assert!(BattleMap::new(1, 1).is_ok());
    assert!(BattleMap::new(200, 200).is_ok());
    let e = BattleMap::new(0, 20).unwrap_err().to_string();
    assert_eq!(
        e,
        "map size 0×20 is invalid; width and height must each be 1–200"
    );
    assert!(BattleMap::new(20, 201).is_err());
}

#[test]
fn off_map_error_names_the_fix() {
    let mut m = BattleMap::new(20, 20).unwrap();
    let e = m
        .place_creature("gob", Position::new(25, 3), Size::Medium)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "position (25, 3) is off the 20×20 map; x must be 0–19 and y 0–19"
    );
    let e = m
        .place_creature("ogre", Position::new(19, 3), Size::Large)
        .unwrap_err()
        .to_string();
    assert!(e.contains("x is 0–18 and y 0–18"), "{e}");
    assert!(m.terrain(Position::new(-1, 0)).is_err());
    let e = m
        .place_creature("bird", Position::new_3d(1, 1, i32::MAX), Size::Tiny)
        .unwrap_err()
        .to_string();
    assert!(e.contains("must be -2000–2000"), "{e}");
}

#[test]
fn creatures_do_not_overlap_unless_tiny() {
    let mut m = BattleMap::new(10, 10).unwrap();
    m.place_creature("ogre", Position::new(2, 2), Size::Large)
        .unwrap();
    let e = m
        .place_creature("gob", Position::new(3, 3), Size::Medium)
        .unwrap_err()
        .to_string();
    assert!(e.contains("occupied by 'ogre'"), "{e}");
    m.place_creature("rat", Position::new(3, 3), Size::Tiny)
        .unwrap();
    m.place_creature("gob", Position::new(4, 4), Size::Medium)
        .unwrap();
    assert!(
        m.place_creature("gob", Position::new(6, 6), Size::Medium)
            .unwrap_err()
            .to_string()
            .contains("already on the map")
    );
    // A flyer above the ogre's space is fine.
    m.place_creature("bat", Position::new_3d(2, 2, 2), Size::Small)
        .unwrap();
    assert!(m.move_creature("gob", Position::new(2, 3)).is_err());
    m.move_creature("gob", Position::new(5, 5)).unwrap();
    assert_eq!(m.creature("gob").unwrap().position, Position::new(5, 5));
    assert!(
        m.move_creature("nobody", Position::new(1, 1))
            .unwrap_err()
            .to_string()
            .contains("known creatures: bat, gob, ogre, rat")
    );
    assert_eq!(m.creatures_at(Position::new(2, 2)).count(), 2);
    assert_eq!(
        m.creature_distance_ft("ogre", "gob", crate::geometry::Metric::Grid5e)
            .unwrap(),
        10
    );
    assert_eq!(m.adjacent(Position::new(0, 0)).len(), 3);
    assert_eq!(m.adjacent(Position::new(5, 5)).len(), 8);
    assert_eq!(m.creatures_at(Position::new(3, 2)).count(), 1);
}

#[test]
fn walls_doors_and_props_block() {
    let mut m = BattleMap::new(10, 10).unwrap();
    m.set_terrain(Position::new(1, 1), Terrain::Wall).unwrap();
    let e = m
        .place_creature("gob", Position::new(1, 1), Size::Medium)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "cannot place medium creature 'gob' at (1, 1): the square is a wall; choose another square"
    );
    m.set_door(Position::new(2, 1), DoorState::Closed).unwrap();
    assert!(m.blocks_movement(Position::new(2, 1)) && m.blocks_sight(Position::new(2, 1)));
    m.set_door(Position::new(2, 1), DoorState::Open).unwrap();
    assert!(!m.blocks_movement(Position::new(2, 1)) && !m.blocks_sight(Position::new(2, 1)));
    assert!(m.set_door(Position::new(1, 1), DoorState::Open).is_err());
    m.set_terrain(Position::new(3, 3), Terrain::LOW_WALL)
        .unwrap();
    assert!(m.blocks_movement(Position::new(3, 3)) && !m.blocks_sight(Position::new(3, 3)));
    m.set_terrain(Position::new(3, 3), Terrain::LowWall { passable: true })
        .unwrap();
    assert!(!m.blocks_movement(Position::new(3, 3)));
    assert_eq!(m.remove_door(Position::new(2, 1)).unwrap(), DoorState::Open);
    assert!(
        m.remove_door(Position::new(2, 1))
            .unwrap_err()
            .to_string()
            .contains("no door at (2, 1)")
    );
}

#[test]
fn prop_lifecycle() {
    let mut m = BattleMap::new(10, 10).unwrap();
    let mut table = Prop::new("table", "oak table", Position::new(4, 4));
    table.footprint = Footprint {
        width_ft: 10,
        length_ft: 5,
    };
    table.blocks_movement = true;
    table.cover = Cover::Half;
    m.place_prop(table.clone()).unwrap();
    assert!(m.blocks_movement(Position::new(5, 4)));
    assert!(
        m.place_creature("gob", Position::new(5, 4), Size::Medium)
            .unwrap_err()
            .to_string()
            .contains("prop 'table'")
    );
    assert!(m.place_prop(table).is_err());
    m.move_prop("table", Position::new(0, 0)).unwrap();
    assert!(!m.blocks_movement(Position::new(5, 4)));
    assert!(m.blocks_movement(Position::new(1, 0)));
    m.update_prop("table", |p| p.blocks_sight = true).unwrap();
    assert!(m.blocks_sight(Position::new(0, 0)));
    let e = m
        .move_prop("table", Position::new(9, 0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("extend off the 10×10 map"), "{e}");
    assert_eq!(m.prop("table").unwrap().position, Position::new(0, 0));
    let mut bad = Prop::new("rug", "rug", Position::new(2, 2));
    bad.footprint.width_ft = 0;
    assert!(
        m.place_prop(bad.clone())
            .unwrap_err()
            .to_string()
            .contains("must be a positive number of feet")
    );
    bad.footprint.width_ft = 7;
    assert!(
        m.place_prop(bad)
            .unwrap_err()
            .to_string()
            .contains("multiple of 5 ft (got 7); round it to 5 or 10")
    );
    assert_eq!(m.props().count(), 1);
    m.remove_prop("table").unwrap();
    assert!(!m.blocks_movement(Position::new(0, 0)));
    assert!(m.remove_prop("table").is_err());
}

#[test]
fn serde_round_trip_is_sparse() {
    let mut m = BattleMap::new(30, 20).unwrap();
    m.set_terrain(
        Position::new(3, 3),
        Terrain::Hazard {
            name: "fire".into(),
            damage: Some("1d10 fire".into()),
        },
    )
    .unwrap();
    m.set_terrain(Position::new(4, 3), Terrain::Wall).unwrap();
    m.set_elevation_ft(Position::new(5, 5), 10).unwrap();
    m.set_light(Position::new(6, 6), Some(Light::Dim)).unwrap();
    m.set_door(Position::new(7, 7), DoorState::Locked).unwrap();
    m.place_prop(Prop::new("chest", "chest", Position::new(8, 8)))
        .unwrap();
    m.place_creature("gob", Position::new(1, 1), Size::Small)
        .unwrap();
    let json = serde_json::to_string(&m).unwrap();
    assert!(json.len() < 1000, "{json}");
    assert!(
        json.contains("\"kind\":\"hazard\"") && json.contains("\"elevationFt\":10"),
        "{json}"
    );
    let back: BattleMap = serde_json::from_str(&json).unwrap();
    assert_eq!(back, m);
    let bad = r#"{"width":0,"height":5}"#;
    assert!(
        serde_json::from_str::<BattleMap>(bad)
            .unwrap_err()
            .to_string()
            .contains("must each be 1–200")
    );
    let t: Terrain = serde_json::from_str(r#"{"kind":"low_wall"}"#).unwrap();
    assert_eq!(t, Terrain::LOW_WALL);
}

#[test]
fn heavily_obscured_squares_block_sight_into_out_of_and_through_them() {
    use crate::sight::SightOptions;
    let mut m = BattleMap::new(10, 3).unwrap();
    let (a, b) = (Position::new(0, 1), Position::new(9, 1));
    let opts = SightOptions::default();
    assert!(m.line_of_sight(a, b, &opts).unwrap().clear);
    m.set_obscured(Position::new(5, 1), true).unwrap();
    let through = m.line_of_sight(a, b, &opts).unwrap();
    assert!(!through.clear);
    assert_eq!(through.blocked_at, Some(Position::new(5, 1)));
    // Out of it and into it: the fogged endpoint blocks.
    let out = m.line_of_sight(Position::new(5, 1), b, &opts).unwrap();
    assert_eq!(out.blocked_at, Some(Position::new(5, 1)));
    let into = m.line_of_sight(a, Position::new(5, 1), &opts).unwrap();
    assert_eq!(into.blocked_at, Some(Position::new(5, 1)));
    // It survives the round trip through the stored form, and clears.
    let back: BattleMap = serde_json::from_value(serde_json::to_value(&m).unwrap()).unwrap();
    assert!(back.obscured(Position::new(5, 1)));
    m.set_obscured(Position::new(5, 1), false).unwrap();
    assert!(m.line_of_sight(a, b, &opts).unwrap().clear);
}
