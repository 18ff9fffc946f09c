//! End to end over the real binary: a party explores a dungeon (a locked door, a hidden passage,
//! a one-way chute), notes are found by a word in the middle of a sentence, the session context
//! reads the same after a restart, and bad inputs are answered with errors that name the fix.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use tabletop_server::client::{Answer, Client};

/// Spawns the server; a seed is given only on the first start (reseeding writes an event).
async fn spawn(dir: &Path, seed: bool) -> Client {
    let mut args = vec!["--data-dir".to_string(), dir.display().to_string()];
    if seed {
        args.extend(["--seed".to_string(), "2024".to_string()]);
    }
    Client::spawn(&PathBuf::from(env!("CARGO_BIN_EXE_tabletop")), &args)
        .await
        .unwrap()
}

async fn ok(c: &Client, tool: &str, args: Value) -> Answer {
    let a = c.call(tool, args.clone()).await.unwrap();
    assert!(!a.is_error, "{tool} {args} failed: {}", a.text);
    a
}

async fn err(c: &Client, tool: &str, args: Value, needles: &[&str]) {
    let a = c.call(tool, args.clone()).await.unwrap();
    assert!(
        a.is_error,
        "{tool} {args} should fail but answered: {}",
        a.text
    );
    for n in needles {
        assert!(
            a.text.contains(n),
            "{tool} {args}: error lacks '{n}': {}",
            a.text
        );
    }
}

async fn hero(c: &Client, name: &str, equipment: &[&str]) {
    ok(
        c,
        "create_character",
        json!({"name": name, "customClass": {"name": "Fighter", "hitDie": 10}, "saves": ["str", "con"],
               "stats": {"str": 16, "dex": 12, "con": 14, "int": 10, "wis": 12, "cha": 8},
               "skills": ["athletics", "perception"], "equipment": equipment}),
    )
    .await;
}

/// Entrance → (locked door, key: Brass Key) → Armory; Entrance → (hidden passage, DC 1) →
/// Shrine; Shrine → (one-way chute) → Pit; Pit → (stairs) → Entrance.
async fn dungeon(c: &Client) {
    for (name, kind, light) in [
        ("Entrance", "room", "dim"),
        ("Armory", "room", "dark"),
        ("Shrine", "chapel", "dim"),
        ("Pit", "cavern", "dark"),
    ] {
        ok(
            c,
            "manage_location",
            json!({"operation": "create", "name": name, "type": kind, "lighting": light,
                   "description": format!("The {name} of the sunken keep.")}),
        )
        .await;
    }
    let a = ok(
        c,
        "manage_location",
        json!({"operation": "link", "fromLocationId": "Entrance", "toLocationId": "Armory",
               "connectionType": "door", "lockDC": 25, "keyItem": "Brass Key"}),
    )
    .await;
    assert!(
        a.text.contains("locked DC 25, key: Brass Key"),
        "{}",
        a.text
    );
    ok(
        c,
        "manage_location",
        json!({"operation": "link", "fromLocationId": "entrance", "toLocationId": "shrine",
               "connectionType": "hidden", "findDC": 1, "travelMinutes": 5}),
    )
    .await;
    ok(
        c,
        "manage_location",
        json!({"operation": "link", "fromLocationId": "Shrine", "toLocationId": "Pit",
               "connectionType": "passage", "oneWay": true, "description": "a slick chute"}),
    )
    .await;
    ok(
        c,
        "manage_location",
        json!({"operation": "link", "fromLocationId": "Pit", "toLocationId": "Entrance", "connectionType": "stairs", "travelMinutes": 2}),
    )
    .await;
}

#[tokio::test]
async fn a_party_explores_a_dungeon_and_the_context_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let c = spawn(dir.path(), true).await;
    hero(&c, "Rook", &["rope"]).await;
    hero(&c, "Wren", &["brass key", "torch"]).await;
    dungeon(&c).await;
    let a = ok(
        &c,
        "manage_party",
        json!({"operation": "create", "name": "Lanterns", "characterName": "Rook", "locationId": "Entrance"}),
    )
    .await;
    assert!(a.text.contains("active party"), "{}", a.text);
    let a = ok(
        &c,
        "manage_party",
        json!({"operation": "add_member", "characterName": "Wren", "role": "companion"}),
    )
    .await;
    assert!(a.text.contains("Rook (ch1), leader"), "{}", a.text);
    // Status shows the known exits only, and hints the DM at the hidden one.
    let a = ok(&c, "move_party", json!({"operation": "status"})).await;
    assert!(a.text.contains("door → Armory"), "{}", a.text);
    assert!(!a.text.contains("Shrine"), "hidden: {}", a.text);
    assert!(
        a.text.contains("Pit"),
        "the stairs from the pit come back: {}",
        a.text
    );
    assert!(a.text.contains("1 hidden way"), "{}", a.text);
    // The locked door opens with the key Wren carries.
    let a = ok(
        &c,
        "move_party",
        json!({"operation": "move", "to": "Armory"}),
    )
    .await;
    assert!(
        a.text.contains("unlocked with Wren's Brass Key"),
        "{}",
        a.text
    );
    ok(
        &c,
        "move_party",
        json!({"operation": "move", "to": "Entrance"}),
    )
    .await;
    // The hidden passage must be found first.
    err(
        &c,
        "move_party",
        json!({"operation": "move", "to": "Shrine"}),
        &["hidden", "search"],
    )
    .await;
    let a = ok(
        &c,
        "move_party",
        json!({"operation": "search", "characterName": "Wren"}),
    )
    .await;
    assert!(a.text.contains("found a hidden way"), "{}", a.text);
    let a = ok(
        &c,
        "move_party",
        json!({"operation": "move", "to": "Shrine"}),
    )
    .await;
    assert!(a.text.contains("(5 min"), "{}", a.text);
    // Down the chute; there is no way back up.
    ok(&c, "move_party", json!({"operation": "move", "to": "Pit"})).await;
    err(
        &c,
        "move_party",
        json!({"operation": "move", "to": "Shrine"}),
        &["one-way", "force"],
    )
    .await;
    let a = ok(&c, "move_party", json!({"operation": "history"})).await;
    assert!(a.text.contains("Shrine → Pit"), "{}", a.text);
    assert_eq!(a.structured["entries"].as_array().unwrap().len(), 4);
    // Notes: a word from the middle of a sentence.
    ok(
        &c,
        "manage_notes",
        json!({"operation": "add", "content": "The abbot hid the reliquary beneath the shrine floor.",
               "type": "clue", "importance": "critical", "tags": ["abbot"]}),
    )
    .await;
    ok(
        &c,
        "manage_notes",
        json!({"operation": "add", "content": "Wren fears deep water.", "type": "npc", "visibility": "player"}),
    )
    .await;
    let a = ok(
        &c,
        "manage_notes",
        json!({"operation": "search", "query": "reliquary"}),
    )
    .await;
    assert!(a.text.contains("nt1"), "{}", a.text);
    let a = ok(
        &c,
        "manage_notes",
        json!({"operation": "search", "query": "water", "importance": "high"}),
    )
    .await;
    assert!(a.text.starts_with("No notes match"), "{}", a.text);
    let a = ok(&c, "manage_notes", json!({"operation": "list", "limit": 1})).await;
    assert!(
        a.text.contains("nt2") && a.text.contains("More: page 2"),
        "{}",
        a.text
    );
    // The context, then a restart.
    let before = ok(&c, "get_session_context", json!({"format": "detailed"})).await;
    for needle in [
        "Lanterns",
        "Rook (ch1), leader",
        "**Location** Pit",
        "stairs → Entrance",
        "no active encounter",
        "reliquary",
        "Last events",
    ] {
        assert!(
            before.text.contains(needle),
            "lacks {needle}: {}",
            before.text
        );
    }
    let brief = ok(
        &c,
        "get_session_context",
        json!({"format": "brief", "include": ["party", "location"]}),
    )
    .await;
    assert!(!brief.text.contains("Last events") && brief.text.len() < before.text.len());
    c.close().await.unwrap();
    let c = spawn(dir.path(), false).await;
    let after = ok(&c, "get_session_context", json!({"format": "detailed"})).await;
    assert_eq!(before.text, after.text);
    assert_eq!(before.structured, after.structured);
    c.close().await.unwrap();
}

#[tokio::test]
async fn bad_world_inputs_name_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let c = spawn(dir.path(), true).await;
    hero(&c, "Rook", &[]).await;
    hero(&c, "Wren", &[]).await;
    dungeon(&c).await;
    err(
        &c,
        "manage_location",
        json!({"operation": "get", "name": "Armoury"}),
        &["no location 'Armoury'", "did you mean 'Armory (loc2)'"],
    )
    .await;
    err(
        &c,
        "manage_location",
        json!({"operation": "create", "name": "Hall", "lockDC": 12}),
        &["does not use lockDC", "link"],
    )
    .await;
    err(
        &c,
        "manage_location",
        json!({"operation": "link", "fromLocationId": "Entrance", "toLocationId": "Pit", "lockDC": 99}),
        &["1–40"],
    )
    .await;
    err(
        &c,
        "manage_location",
        json!({"operation": "teleport"}),
        &["allowed: create, get"],
    )
    .await;
    ok(
        &c,
        "manage_party",
        json!({"operation": "create", "name": "Lanterns", "characterName": "Rook", "locationId": "Entrance"}),
    )
    .await;
    err(
        &c,
        "manage_party",
        json!({"operation": "create", "name": "Rivals", "characterName": "Rook"}),
        &["already in party 'Lanterns' (pt1)", "remove_member"],
    )
    .await;
    err(
        &c,
        "manage_party",
        json!({"operation": "add_member", "characterName": "Rook"}),
        &["already a member"],
    )
    .await;
    err(
        &c,
        "manage_party",
        json!({"operation": "add_member", "characterName": "Wren", "role": "boss"}),
        &["allowed: leader, member"],
    )
    .await;
    err(
        &c,
        "move_party",
        json!({"operation": "move", "to": "Shrinee"}),
        &["did you mean 'Shrine (loc3)'"],
    )
    .await;
    err(
        &c,
        "move_party",
        json!({"operation": "move", "to": "Armory"}),
        &["locked (DC 25, key: Brass Key)", "unlock", "force: true"],
    )
    .await;
    err(
        &c,
        "move_party",
        json!({"operation": "move", "to": "Armory", "unlock": "key"}),
        &["carries 'Brass Key'", "pick"],
    )
    .await;
    err(
        &c,
        "move_party",
        json!({"operation": "move", "connectionId": "cn9"}),
        &["no exit 'cn9'", "known exits: Armory (cn1)"],
    )
    .await;
    err(
        &c,
        "move_party",
        json!({"operation": "move"}),
        &["say where to"],
    )
    .await;
    let a = ok(
        &c,
        "move_party",
        json!({"operation": "move", "to": "Armory", "force": true}),
    )
    .await;
    assert!(a.text.contains("forced open by the DM"), "{}", a.text);
    err(
        &c,
        "move_party",
        json!({"operation": "move", "to": "Pit"}),
        &["no way from Armory to Pit"],
    )
    .await;
    err(
        &c,
        "manage_notes",
        json!({"operation": "add", "content": "x", "type": "rumour"}),
        &["allowed: plot_thread", "type"],
    )
    .await;
    err(
        &c,
        "manage_notes",
        json!({"operation": "add", "content": "   "}),
        &["content", "needs content"],
    )
    .await;
    err(
        &c,
        "manage_notes",
        json!({"operation": "get", "noteId": "nt42"}),
        &["no note 'nt42'", "list or search"],
    )
    .await;
    err(
        &c,
        "manage_notes",
        json!({"operation": "search"}),
        &["query"],
    )
    .await;
    err(
        &c,
        "get_session_context",
        json!({"include": ["party", "weather"]}),
        &["allowed: party, location, encounter, notes, events"],
    )
    .await;
    err(
        &c,
        "get_session_context",
        json!({"partyName": "Nobody"}),
        &["no party 'Nobody'", "Lanterns (pt1)"],
    )
    .await;
    // Deleting a member's character takes it out of the party; deleting a place says what it
    // affected.
    let a = ok(&c, "delete_character", json!({"characterName": "Rook"})).await;
    assert!(
        a.text.contains("membership of party 'Lanterns'"),
        "{}",
        a.text
    );
    let a = ok(
        &c,
        "manage_location",
        json!({"operation": "delete", "name": "Entrance"}),
    )
    .await;
    assert!(a.text.contains("Removed 3 connection(s)"), "{}", a.text);
    c.close().await.unwrap();
}
