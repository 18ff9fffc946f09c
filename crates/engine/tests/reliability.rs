//! Reliability under attack (issue 25): campaign ids are never reused and a deleted campaign is
//! noticed by a server still holding it; an import is validated input, cannot collide with ids
//! made later, is bounded in time and is all or nothing.

use super::common;

use tabletop_engine::SqliteStore;
use tabletop_engine::campaign::{self, CampaignExport};
use tabletop_engine::character::CharacterRef;
use tabletop_engine::sheet::get_character;
use tabletop_engine::store::{Store, Transaction};

fn export(db: &std::path::Path, name: &str) -> CampaignExport {
    let mut store = SqliteStore::open(db).unwrap();
    let tx = store.begin(false).unwrap();
    campaign::export(&tx, name).unwrap()
}

fn import(db: &std::path::Path, data: &CampaignExport, name: &str) -> Result<String, String> {
    let mut store = SqliteStore::open(db).unwrap();
    let mut tx = store.begin(true).unwrap();
    let out = campaign::import(&mut tx, data, Some(name)).map_err(|e| e.to_string())?;
    tx.commit().unwrap();
    Ok(out)
}

fn campaigns(db: &std::path::Path) -> Vec<(String, u64)> {
    let mut store = SqliteStore::open(db).unwrap();
    let tx = store.begin(false).unwrap();
    campaign::list(&tx)
        .unwrap()
        .into_iter()
        .map(|c| (c.name, c.characters))
        .collect()
}

fn character_ids(db: &std::path::Path, name: &str) -> Vec<(String, String)> {
    let mut ids: Vec<(String, String)> = export(db, name)
        .characters
        .into_iter()
        .map(|c| (c.id, c.name))
        .collect();
    ids.sort();
    ids
}

/// A campaign "src" with one fighter ("Imported", ch1) and a pinned dice stream.
fn source(db: &std::path::Path) -> CampaignExport {
    let mut e = common::open(db, "src", Some(7));
    assert_eq!(
        common::create(&mut e, common::fighter("Imported", [12; 6])),
        "ch1"
    );
    drop(e);
    export(db, "src")
}

#[test]
fn a_deleted_campaign_is_noticed_and_its_id_never_serves_another_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let mut alpha = common::open(&db, "alpha", Some(1));
    assert_eq!(
        common::create(&mut alpha, common::fighter("Aria", [12; 6])),
        "ch1"
    );
    // Another process deletes alpha, then someone creates beta.
    {
        let mut store = SqliteStore::open(&db).unwrap();
        let mut tx = store.begin(true).unwrap();
        campaign::delete(&mut tx, "alpha").unwrap();
        tx.commit().unwrap();
    }
    let mut beta = common::open(&db, "beta", Some(2));
    assert_eq!(
        common::create(&mut beta, common::fighter("Bram", [10; 6])),
        "ch1"
    );
    let expected = "campaign alpha was deleted (by another process) after this server opened it; \
                    nothing was read or written. Restart the server to start it afresh, or open \
                    another campaign";
    // Reads and writes of the alpha engine refuse; neither touches beta.
    let read = alpha
        .read(|call| get_character(call, CharacterRef::new(Some("ch1"), None)))
        .unwrap_err();
    assert_eq!(read.to_string(), expected);
    let write = alpha
        .write("create_character", &serde_json::json!({}), |call| {
            tabletop_engine::creation::create_character(call, common::fighter("Intruder", [10; 6]))
        })
        .unwrap_err();
    assert_eq!(write.to_string(), expected);
    assert_eq!(
        character_ids(&db, "beta"),
        vec![("ch1".into(), "Bram".into())]
    );
    assert_eq!(campaigns(&db), vec![("beta".into(), 1)]);
    // A new campaign named alpha is another campaign: the old engine still refuses.
    let mut alpha2 = common::open(&db, "alpha", None);
    assert_eq!(
        common::create(&mut alpha2, common::fighter("New", [10; 6])),
        "ch1"
    );
    let again = alpha
        .read(|call| get_character(call, CharacterRef::new(Some("ch1"), None)))
        .unwrap_err();
    assert_eq!(again.to_string(), expected);
    assert_eq!(
        character_ids(&db, "alpha"),
        vec![("ch1".into(), "New".into())]
    );
}

#[test]
fn an_imported_id_is_never_overwritten_by_characters_created_later() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let mut data = source(&db);
    data.characters[0].id = "ch1000002".into();
    import(&db, &data, "copy").unwrap();
    let mut e = common::open(&db, "copy", None);
    assert_eq!(
        common::create(&mut e, common::fighter("First", [10; 6])),
        "ch1000003"
    );
    assert_eq!(
        common::create(&mut e, common::fighter("Second", [10; 6])),
        "ch1000004"
    );
    drop(e);
    assert_eq!(
        character_ids(&db, "copy"),
        vec![
            ("ch1000002".into(), "Imported".into()),
            ("ch1000003".into(), "First".into()),
            ("ch1000004".into(), "Second".into()),
        ]
    );
}

#[test]
fn a_huge_imported_id_advances_the_counter_in_one_step() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let mut data = source(&db);
    data.characters[0].id = "ch99999999999".into();
    import(&db, &data, "copy").unwrap();
    let mut e = common::open(&db, "copy", None);
    assert_eq!(
        common::create(&mut e, common::fighter("Next", [10; 6])),
        "ch100000000000"
    );
}

#[test]
fn malformed_or_out_of_range_ids_are_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let data = source(&db);
    for (bad, shown) in [
        ("ch1000000000000", "ch1000000000000"),
        ("ch0", "ch0"),
        ("ch01", "ch01"),
        ("loc3", "loc3"),
        ("ch", "ch"),
        ("ch-5", "ch-5"),
        (
            &"x".repeat(5000) as &str,
            &format!("{}…", "x".repeat(40)) as &str,
        ),
    ] {
        let mut d = data.clone();
        d.characters[0].id = bad.to_string();
        assert_eq!(
            import(&db, &d, "copy").unwrap_err(),
            format!(
                "characters[0].id: '{shown}' is not a well-formed id: expected 'ch' followed by a \
                 number from 1 to 999999999999 (no leading zeros), e.g. 'ch1'"
            )
        );
    }
    assert_eq!(campaigns(&db), vec![("src".into(), 1)]);
}

#[test]
fn two_records_with_one_id_are_refused_with_both_places_named() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let mut data = source(&db);
    let mut twin = data.characters[0].clone();
    twin.name = "Twin".into();
    let mut other = data.characters[0].clone();
    other.id = "ch2".into();
    data.characters.push(other);
    data.characters.push(twin);
    assert_eq!(
        import(&db, &data, "copy").unwrap_err(),
        "characters[2].id: id 'ch1' appears twice (characters[0] and characters[2]); every id in \
         an export is unique within its kind"
    );
    assert_eq!(campaigns(&db), vec![("src".into(), 1)]);
}

#[test]
fn campaign_names_and_the_dice_stream_are_validated_like_any_input() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let data = source(&db);
    assert_eq!(
        import(&db, &data, "   ").unwrap_err(),
        "name: a campaign name is 1–64 characters; this one has 0"
    );
    assert_eq!(
        import(&db, &data, &"n".repeat(5000)).unwrap_err(),
        format!(
            "name: a campaign name is 1–64 characters; this one has 5000 (starts '{}…')",
            "n".repeat(40)
        )
    );
    assert_eq!(
        import(&db, &data, "two\nlines").unwrap_err(),
        "name: a campaign name may not hold control characters (line breaks, tabs, …)"
    );
    // The name inside the file is checked when no name is given.
    let mut unnamed = data.clone();
    unnamed.name = String::new();
    let mut store = SqliteStore::open(&db).unwrap();
    let mut tx = store.begin(true).unwrap();
    assert_eq!(
        campaign::import(&mut tx, &unnamed, None)
            .unwrap_err()
            .to_string(),
        "name (in the file): a campaign name is 1–64 characters; this one has 0"
    );
    drop(tx);
    drop(store);
    let mut garbage = data.clone();
    garbage.rng_state = Some("not a dice stream".into());
    let err = import(&db, &garbage, "copy").unwrap_err();
    assert!(
        err.starts_with(
            "rngState: the dice-stream state does not decode (expected ident at line 1 column 2)"
        ),
        "{err}"
    );
    assert_eq!(campaigns(&db), vec![("src".into(), 1)]);
    // A 64-character name (counted in characters, not bytes) is accepted, trimmed.
    let long = "é".repeat(64);
    assert_eq!(import(&db, &data, &format!("  {long} ")).unwrap(), long);
}

#[test]
fn references_to_records_not_imported_are_refused_before_any_write() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let data = source(&db);
    let mut party: tabletop_engine::model::party::Party =
        serde_json::from_value(serde_json::json!({
            "id": "pt1", "name": "Band", "description": "", "locationId": null, "leaderId": null,
            "active": true, "elapsedMinutes": 0,
            "members": [{"characterId": "ch9", "role": "member", "active": true}]
        }))
        .unwrap();
    let mut d = data.clone();
    d.parties.push(party.clone());
    assert_eq!(
        import(&db, &d, "copy").unwrap_err(),
        "parties[0].members[0].characterId: character 'ch9' is not among the imported characters"
    );
    party.members[0].character_id = "ch1".into();
    let mut second = party.clone();
    second.id = "pt2".into();
    let mut d = data.clone();
    d.parties = vec![party, second];
    assert_eq!(
        import(&db, &d, "copy").unwrap_err(),
        "parties[1].members[0].characterId: character 'ch1' is already a member of party 'pt1'; a \
         character belongs to one party at most"
    );
    assert_eq!(campaigns(&db), vec![("src".into(), 1)]);
}
