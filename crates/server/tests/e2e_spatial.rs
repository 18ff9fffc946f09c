//! The spatial tools end to end through the real server: one scene, each tool's answer leading
//! with its result, legacy shapes of the same names converted, bad inputs answered with the fix.

use serde_json::json;

use super::common;

use common::Session;

/// A 12×10 room: a wall column at x = 6 (y 0–6), a low wall at (3, 5), a pillar at (2, 2).
async fn scene(s: &Session) {
    let walls: Vec<_> = (0..7).map(|y| json!({"x": 6, "y": y})).collect();
    s.ok(
        "create_encounter",
        json!({
            "name": "Crypt",
            "participants": [
                {"name": "Ada", "hp": 20, "ac": 15, "side": "party", "position": {"x": 0, "y": 5},
                 "attacks": [{"name": "Bow", "bonus": 5, "damage": "1d8+3", "range": [80, 320]}]},
                {"name": "Bob", "hp": 20, "ac": 15, "side": "party", "position": {"x": 0, "y": 0},
                 "attacks": [{"name": "Axe", "bonus": 5, "damage": "1d8+3"}]},
                {"name": "Archer", "hp": 11, "ac": 13, "side": "enemy", "position": {"x": 5, "y": 5},
                 "attacks": [{"name": "Bow", "bonus": 4, "damage": "1d6+2", "range": [80, 320]}]},
                {"name": "Skulker", "hp": 11, "ac": 13, "side": "enemy", "position": {"x": 4, "y": 4},
                 "attacks": [{"name": "Glaive", "bonus": 4, "damage": "1d10+2", "reach": 10}]},
                {"name": "Lurker", "hp": 11, "ac": 13, "side": "enemy", "position": {"x": 8, "y": 3},
                 "attacks": [{"name": "Claw", "bonus": 4, "damage": "1d6"}]}
            ],
            "terrain": {"width": 12, "height": 10, "walls": walls,
                        "lowWalls": [{"x": 4, "y": 5}], "obstacles": [{"x": 2, "y": 2}]}
        }),
    )
    .await;
}

/// A combatant's character id.
async fn id_of(s: &Session, name: &str) -> serde_json::Value {
    let e = s.ok("get_encounter", json!({})).await;
    e.structured["combatants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap()["id"]
        .clone()
}

#[tokio::test]
async fn measure_distance() {
    let s = Session::start(5).await;
    scene(&s).await;
    let a = s
        .ok(
            "measure_distance",
            json!({"from": {"x": 0, "y": 0}, "to": {"x": 3, "y": 3}}),
        )
        .await;
    assert!(
        a.text
            .starts_with("(0, 0) → (3, 3): 15 ft (3 squares, grid_5e)"),
        "{}",
        a.text
    );
    let a = s
        .ok(
            "measure_distance",
            json!({"from": {"x": 0, "y": 0}, "to": {"x": 4, "y": 4}, "mode": "grid_alt"}),
        )
        .await;
    assert_eq!(a.structured["distanceFt"], 30, "{}", a.text);
    let a = s
        .ok(
            "measure_distance",
            json!({"fromName": "Ada", "toName": "archer", "rangeFt": 30}),
        )
        .await;
    assert!(a.text.starts_with("Ada → Archer: 25 ft"), "{}", a.text);
    assert!(a.text.contains("Within 30 ft: yes"), "{}", a.text);
    // The legacy shape: participant ids as strings.
    let (ada, bob) = (id_of(&s, "Ada").await, id_of(&s, "Bob").await);
    let a = s
        .ok("measure_distance", json!({"from": ada, "to": bob}))
        .await;
    assert_eq!(a.structured["distanceFt"], 25, "{}", a.text);
    s.err(
        "measure_distance",
        json!({"from": {"x": 30, "y": 0}, "toName": "Ada"}),
        &["off the 12×10 map", "x must be 0–11"],
    )
    .await;
    s.err(
        "measure_distance",
        json!({"toName": "Ada"}),
        &["from", "fromId"],
    )
    .await;
}

#[tokio::test]
async fn calculate_aoe() {
    let s = Session::start(5).await;
    scene(&s).await;
    // A fireball centred beside the wall: the Lurker behind it is spared.
    let a = s
        .ok(
            "calculate_aoe",
            json!({"shape": "sphere", "sizeFt": 20, "origin": {"x": 4, "y": 3}}),
        )
        .await;
    assert!(
        a.text
            .starts_with("A 20-ft-radius sphere from (4, 3) covers"),
        "{}",
        a.text
    );
    assert!(
        a.text.contains("Skulker (enemy)") && a.text.contains("Archer (enemy"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("Lurker"), "{}", a.text);
    let squares = a.structured["squares"].as_array().unwrap();
    assert!(
        squares
            .iter()
            .all(|q| q["x"].as_i64().unwrap() != 6 || q["y"].as_i64().unwrap() > 6)
    );
    // A 15-ft cone from Bob toward the south-east: the pillar's shadow.
    let a = s
        .ok(
            "calculate_aoe",
            json!({"shape": "cone", "sizeFt": 15, "originName": "Bob", "direction": "SE", "excludeCaster": true}),
        )
        .await;
    assert!(a.text.contains("no combatants"), "{}", a.text);
    // Legacy: circle with a radius in squares.
    let a = s
        .ok(
            "calculate_aoe",
            json!({"shape": "circle", "radius": 4, "center": {"x": 4, "y": 3}}),
        )
        .await;
    assert!(a.text.starts_with("A 20-ft-radius sphere"), "{}", a.text);
    s.err(
        "calculate_aoe",
        json!({"shape": "sphere", "sizeFt": -5, "origin": {"x": 1, "y": 1}}),
        &["sizeFt", "positive"],
    )
    .await;
    s.err(
        "calculate_aoe",
        json!({"shape": "blob", "sizeFt": 10, "origin": {"x": 1, "y": 1}}),
        &["allowed: sphere, cylinder, cone, cube, line"],
    )
    .await;
}

#[tokio::test]
async fn check_line_of_sight_and_cover() {
    let s = Session::start(5).await;
    scene(&s).await;
    let a = s
        .ok(
            "check_line_of_sight",
            json!({"fromName": "Ada", "toName": "Lurker"}),
        )
        .await;
    assert!(
        a.text
            .starts_with("No line of sight from Ada to Lurker: blocked by a wall"),
        "{}",
        a.text
    );
    let a = s
        .ok(
            "check_line_of_sight",
            json!({"fromName": "Ada", "toName": "Archer"}),
        )
        .await;
    assert!(a.text.starts_with("Ada can see Archer"), "{}", a.text);
    let a = s
        .ok(
            "check_cover",
            json!({"fromName": "Ada", "toName": "Archer"}),
        )
        .await;
    assert!(
        a.text.starts_with("Archer has half cover: +2 AC"),
        "{}",
        a.text
    );
    assert_eq!(a.structured["report"]["cover"], "half");
    let a = s
        .ok(
            "check_cover",
            json!({"fromName": "Bob", "toName": "Skulker"}),
        )
        .await;
    assert_eq!(
        a.structured["report"]["cover"], "threeQuarters",
        "{}",
        a.text
    );
    // The legacy servers' shape: attacker and target ids.
    let (ada, archer) = (id_of(&s, "Ada").await, id_of(&s, "Archer").await);
    let a = s
        .ok(
            "check_flanking",
            json!({"attackerId": ada, "targetId": archer}),
        )
        .await;
    assert!(a.text.starts_with("Archer has half cover"), "{}", a.text);
}

#[tokio::test]
async fn place_prop() {
    let s = Session::start(5).await;
    scene(&s).await;
    let a = s
        .ok(
            "place_prop",
            json!({"operation": "place", "name": "Sarcophagus", "position": {"x": 2, "y": 5}, "blocksMovement": true, "cover": "three_quarters", "hp": 30, "ac": 17}),
        )
        .await;
    assert!(
        a.text
            .starts_with("Placed Sarcophagus (sarcophagus-1) at (2, 5)"),
        "{}",
        a.text
    );
    // Legacy shape: propType and cover three_quarter.
    let a = s
        .ok(
            "place_prop",
            json!({"label": "Curtain", "propType": "structure", "x": 8, "y": 8}),
        )
        .await;
    assert!(a.text.contains("blocks sight"), "{}", a.text);
    let a = s.ok("place_prop", json!({"operation": "list"})).await;
    assert!(a.text.starts_with("2 props on the map."), "{}", a.text);
    s.err(
        "place_prop",
        json!({"operation": "place", "name": "Crate", "position": {"x": 0, "y": 5}, "blocksMovement": true}),
        &["occupied"],
    )
    .await;
    s.ok(
        "place_prop",
        json!({"operation": "remove", "propId": "curtain-1"}),
    )
    .await;
}

#[tokio::test]
async fn calculate_movement() {
    let s = Session::start(5).await;
    scene(&s).await;
    let a = s
        .ok(
            "calculate_movement",
            json!({"moverName": "Ada", "to": {"x": 9, "y": 5}, "movementFt": 60}),
        )
        .await;
    assert!(
        a.text.starts_with("Path for Ada from (0, 5) to (9, 5):"),
        "{}",
        a.text
    );
    let path = &a.structured["path"];
    let cost: u64 = path["stepCostsFt"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(cost, path["costFt"].as_u64().unwrap());
    assert!(
        a.text.contains("Warning: opportunity attacks from"),
        "{}",
        a.text
    );
    let a = s
        .ok(
            "calculate_movement",
            json!({"moverName": "Bob", "mode": "reach"}),
        )
        .await;
    assert!(a.text.starts_with("Bob can reach"), "{}", a.text);
    let a = s.ok("get_adjacent_squares", json!({"x": 5, "y": 5})).await;
    assert!(a.text.starts_with("8 squares around"), "{}", a.text);
    s.err(
        "calculate_movement",
        json!({"moverName": "Ada", "to": {"x": 6, "y": 2}}),
        &["a wall"],
    )
    .await;
}

#[tokio::test]
async fn modify_terrain() {
    let s = Session::start(5).await;
    scene(&s).await;
    let a = s
        .ok(
            "modify_terrain",
            json!({"terrain": "difficult", "rect": {"x": 1, "y": 7, "width": 3, "height": 2}, "rounds": 10, "source": "Web"}),
        )
        .await;
    assert!(
        a.text
            .starts_with("6 squares became difficult terrain (Web) until the start of round 11."),
        "{}",
        a.text
    );
    let e = s
        .ok("get_encounter", json!({"verbosity": "detailed"}))
        .await;
    assert_eq!(e.structured["timedTerrain"][0]["expiresRound"], 11);
    s.err(
        "modify_terrain",
        json!({"terrain": "wall", "squares": [{"x": 0, "y": 5}]}),
        &["Ada stands there"],
    )
    .await;
    let a = s
        .ok(
            "update_terrain",
            json!({"type": "water", "positions": ["10,8", "11,8"]}),
        )
        .await;
    assert!(a.text.starts_with("2 squares became water."), "{}", a.text);
    let a = s
        .ok(
            "modify_terrain",
            json!({"operation": "clear", "terrain": "water"}),
        )
        .await;
    assert!(
        a.text.starts_with("2 squares of water cleared"),
        "{}",
        a.text
    );
}

#[tokio::test]
async fn render_battlefield() {
    let s = Session::start(5).await;
    scene(&s).await;
    let a = s
        .ok("render_battlefield", json!({"legendDetail": "full"}))
        .await;
    assert!(a.text.starts_with("Battlefield enc"), "{}", a.text);
    assert!(a.text.contains("Ad Ada (party, HP 20/20)"), "{}", a.text);
    assert!(a.text.contains("# wall"), "{}", a.text);
    let a = s
        .ok(
            "render_battlefield",
            json!({"focusName": "Lurker", "radiusFt": 5, "legendDetail": "none"}),
        )
        .await;
    assert_eq!(a.structured["viewport"]["width"], 3, "{}", a.text);
    let a = s
        .ok(
            "render_battlefield",
            json!({"format": "png", "focusName": "Ada"}),
        )
        .await;
    assert_eq!(a.images, 1, "{}", a.text);
    assert!(
        a.text.starts_with("Battlefield") && a.text.contains("PNG image attached"),
        "{}",
        a.text
    );
    assert!(
        !a.text.contains(". . ."),
        "the caption leaves the drawing to the image: {}",
        a.text
    );
    let a = s.ok("combat_map", json!({"action": "render"})).await;
    assert!(a.text.starts_with("Battlefield"), "{}", a.text);
    s.err(
        "combat_map",
        json!({"action": "paint"}),
        &["measure, aoe, render"],
    )
    .await;
    s.err(
        "render_battlefield",
        json!({"viewport": {"x": 0, "y": 0, "width": 0, "height": 3}}),
        &["viewport", "at least 1"],
    )
    .await;
}
