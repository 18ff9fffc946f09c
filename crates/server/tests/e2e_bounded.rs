//! End to end over the real binary, the reproductions of issue 25 on bounded input and clear
//! errors: oversized text refused with its cap, errors quoting a short prefix only, a big map's PNG
//! scaled with the way to a full-size part, errors in the schema's words, not-found answers that
//! list what exists, no wrap-around on caller numbers and no negative amounts applied as 0.

use serde_json::json;

use super::common;

use common::Session;

fn x40() -> String {
    "x".repeat(40)
}

#[tokio::test]
async fn oversized_text_is_refused_with_its_cap_and_a_short_prefix() {
    let s = Session::start(3).await;
    // A 1 MB reason: over the whole call's cap before any field's.
    let big = "x".repeat(1 << 20);
    let a = s
        .client
        .call("roll_dice", json!({"expression": "1d20", "reason": big}))
        .await
        .unwrap();
    assert!(a.is_error);
    assert_eq!(
        a.text,
        "arguments for roll_dice are 1048609 bytes; the cap is 1048576 bytes per call (see the README's input limits): send less text or split the work over several calls"
    );
    let a = s
        .client
        .call(
            "roll_dice",
            json!({"expression": "1d20", "reason": "x".repeat(100_000)}),
        )
        .await
        .unwrap();
    assert!(a.is_error);
    assert_eq!(
        a.text,
        format!(
            "roll_dice: reason is 100000 characters; the cap is 500 (see the README's input limits). It begins '{}…'",
            x40()
        )
    );
    // Free text kept in the campaign: a note, an encounter name, a party's description.
    for (tool, args, field, cap) in [
        (
            "manage_notes",
            json!({"operation": "add", "content": "x".repeat(10_001)}),
            "content",
            10_000,
        ),
        (
            "create_encounter",
            json!({"name": "x".repeat(5_000), "participants": []}),
            "name",
            100,
        ),
        (
            "manage_party",
            json!({"operation": "create", "name": "P", "description": "x".repeat(4_001)}),
            "description",
            4_000,
        ),
    ] {
        let a = s.client.call(tool, args).await.unwrap();
        assert!(a.is_error, "{tool}: {}", a.text);
        assert!(
            a.text.starts_with(&format!("{tool}: {field} is ")),
            "{tool}: {}",
            a.text
        );
        assert!(
            a.text.contains(&format!("; the cap is {cap} ")),
            "{tool}: {}",
            a.text
        );
        assert!(
            a.text.ends_with(&format!("It begins '{}…'", x40())),
            "{}",
            a.text
        );
    }
    // At the cap it is accepted.
    s.ok(
        "roll_dice",
        json!({"expression": "1d20", "reason": "y".repeat(500)}),
    )
    .await;
}

#[tokio::test]
async fn not_found_lists_what_exists_and_quotes_a_prefix_only() {
    let s = Session::start(3).await;
    s.ok(
        "create_character",
        json!({"name": "Aria", "customClass": {"name": "Fighter", "hitDie": 10},
               "stats": {"str": 16, "dex": 12, "con": 14, "int": 10, "wis": 10, "cha": 8}}),
    )
    .await;
    let a = s
        .client
        .call("get_character", json!({"characterName": "pt1"}))
        .await
        .unwrap();
    assert!(a.is_error);
    assert_eq!(
        a.text,
        "no character 'pt1' in this campaign; characters: Aria (ch1)"
    );
    let long = "N".repeat(90);
    let a = s
        .client
        .call("get_character", json!({"characterName": long}))
        .await
        .unwrap();
    assert_eq!(
        a.text,
        format!(
            "no character '{}…' in this campaign; characters: Aria (ch1)",
            "N".repeat(40)
        )
    );
}

#[tokio::test]
async fn errors_speak_json_shapes_not_rust_types() {
    let s = Session::start(3).await;
    s.ok(
        "create_encounter",
        json!({"name": "Bridge", "participants": [
            {"name": "Hero", "hp": 30, "ac": 14, "side": "party", "initiative": 20,
             "position": {"x": 2, "y": 2},
             "attacks": [{"name": "Sword", "bonus": 5, "damage": "1d8", "damageType": "slashing"}]},
            {"name": "Goblin", "hp": 7, "ac": 5, "side": "enemy", "initiative": 10,
             "position": {"x": 3, "y": 2}}
        ]}),
    )
    .await;
    let a = s
        .client
        .call(
            "execute_action",
            json!({"actorName": "Hero", "actionType": "attack", "targets": ["Goblin"]}),
        )
        .await
        .unwrap();
    assert!(a.is_error);
    assert_eq!(
        a.text,
        "invalid arguments for execute_action at 'targets[0]': invalid type: string \"Goblin\", expected an object"
    );
    let a = s
        .client
        .call(
            "execute_action",
            json!({"actorName": "Hero", "actionType": "move", "to": "north"}),
        )
        .await
        .unwrap();
    assert!(a.is_error);
    assert!(
        !a.text.contains("Position") && !a.text.contains("struct"),
        "{}",
        a.text
    );
    assert!(a.text.contains("'to'"), "{}", a.text);
    // A caller's bonus never wraps: out of range is refused with the range.
    let a = s
        .client
        .call(
            "execute_action",
            json!({"actorName": "Hero", "actionType": "attack", "targetName": "Goblin", "bonus": 2147483647}),
        )
        .await
        .unwrap();
    assert_eq!(
        a.text,
        "execute_action: bonus is 2147483647; allowed: -50 to 50"
    );
    let a = s
        .client
        .call(
            "manage_encounter",
            json!({"operation": "add_participant", "participant": {"name": "Ogre", "hp": 50, "ac": 11,
                "attacks": [{"name": "Club", "bonus": 2147483647, "damage": "2d8"}]}}),
        )
        .await
        .unwrap();
    assert!(a.is_error, "{}", a.text);
    assert!(
        a.text.ends_with("bonus is 2147483647; allowed: -50 to 50"),
        "{}",
        a.text
    );
    // Negative amounts are refused, not applied as 0.
    for (action, amount) in [("damage", "-5"), ("heal", "-5"), ("damage", "1d4-10")] {
        let a = s
            .client
            .call(
                "execute_action",
                json!({"actionType": action, "targetName": "Goblin", "amount": amount}),
            )
            .await
            .unwrap();
        assert!(a.is_error, "{action} {amount}: {}", a.text);
        assert!(
            a.text
                .starts_with(&format!("amount: '{amount}' is at most ")),
            "{}",
            a.text
        );
        assert!(
            a.text.contains("damage and healing amounts are 0 or more"),
            "{}",
            a.text
        );
    }
    let g = s.ok("get_encounter", json!({})).await;
    assert!(g.text.contains("Goblin"), "{}", g.text);
}

#[tokio::test]
async fn a_d1_reroll_is_not_suggested_back() {
    let s = Session::start(3).await;
    let a = s
        .client
        .call("roll_dice", json!({"expression": "1d1rr1"}))
        .await
        .unwrap();
    assert!(a.is_error);
    assert!(a.text.contains("cannot reroll a d1"), "{}", a.text);
    assert!(
        !a.text.contains("rr1,") && !a.text.contains("e.g. rr1"),
        "{}",
        a.text
    );
}

#[tokio::test]
async fn a_big_maps_png_is_scaled_and_says_how_to_see_a_part_at_full_size() {
    let s = Session::start(3).await;
    let walls: Vec<_> = (0..200)
        .map(|i| json!({"x": i, "y": (i * 7) % 200}))
        .collect();
    s.ok(
        "create_encounter",
        json!({"name": "Plain", "terrain": {"width": 200, "height": 200, "walls": walls},
               "participants": [{"name": "Hero", "hp": 30, "ac": 14, "side": "party",
                                 "position": {"x": 2, "y": 2}}]}),
    )
    .await;
    let a = s.ok("render_battlefield", json!({"format": "png"})).await;
    assert!(
        a.text.contains("Scaled down to 5 px per square to stay within 1024 px a side and 1000000 bytes; for a part of the map at full size (32 px per square) pass viewport {x, y, width, height} of at most 32×32 squares"),
        "{}",
        a.text
    );
    let png_bytes: usize = a
        .text
        .split("(PNG image attached: ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(png_bytes <= 1_000_000, "{png_bytes}");
    let a = s
        .ok(
            "render_battlefield",
            json!({"format": "png", "viewport": {"x": 0, "y": 0, "width": 32, "height": 32}}),
        )
        .await;
    assert!(
        a.text
            .contains("Drawn at full size (32 px per square; images are at most 1024 px a side)."),
        "{}",
        a.text
    );
}
