//! Tests of the SQLite store.

use super::*;
use crate::store::Store;

#[test]
fn a_dropped_transaction_rolls_back_and_the_next_one_starts_clean() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = SqliteStore::open(&dir.path().join("t.sqlite")).unwrap();
    {
        let mut tx = store.begin(true).unwrap();
        tx.ensure_campaign("lost").unwrap();
    }
    {
        let mut tx = store.begin(true).unwrap();
        tx.ensure_campaign("kept").unwrap();
        tx.commit().unwrap();
    }
    let tx = store.begin(false).unwrap();
    assert_eq!(tx.find_campaign("lost").unwrap(), None);
    assert!(tx.find_campaign("kept").unwrap().is_some());
    drop(tx);
    // A transaction left open on the connection is ended by the next begin.
    store.conn.execute_batch("BEGIN").unwrap();
    let mut tx = store.begin(true).unwrap();
    let id = tx.ensure_campaign("again").unwrap();
    assert_eq!(tx.next_id(id, "ch").unwrap(), 1);
    tx.commit().unwrap();
    assert!(store.conn.is_autocommit());
}

#[test]
fn durability_picks_the_sync_level_and_a_commit_outlives_an_unclosed_connection() {
    let dir = tempfile::tempdir().unwrap();
    let sync = |s: &SqliteStore| -> (i64, String) {
        let level = s
            .conn
            .query_row("PRAGMA synchronous", [], |r| r.get(0))
            .unwrap();
        let journal = s
            .conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        (level, journal)
    };
    let path = dir.path().join("d.sqlite");
    let mut store = SqliteStore::open(&path).unwrap();
    assert_eq!(sync(&store), (1, "wal".to_string()), "default: NORMAL");
    let power = SqliteStore::open_with(&dir.path().join("p.sqlite"), Durability::Power).unwrap();
    assert_eq!(sync(&power), (2, "wal".to_string()), "power: FULL");
    let mut tx = store.begin(true).unwrap();
    tx.ensure_campaign("kept").unwrap();
    tx.commit().unwrap();
    // No close, no checkpoint: the commit lives only in the WAL file, as after a kill.
    std::mem::forget(store);
    let mut again = SqliteStore::open(&path).unwrap();
    let tx = again.begin(false).unwrap();
    assert!(tx.find_campaign("kept").unwrap().is_some());
}

/// An event with no arguments, rolls or changes, made by `tool`.
pub(super) fn draft(tool: &str) -> EventDraft {
    EventDraft {
        tool: tool.into(),
        args: serde_json::json!({}),
        rolls: Vec::new(),
        changes: Vec::new(),
    }
}

#[test]
fn event_numbers_rise_and_a_deleted_campaign_never_gives_its_numbers_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = SqliteStore::open(&dir.path().join("e.sqlite")).unwrap();
    let mut tx = store.begin(true).unwrap();
    let a = tx.ensure_campaign("a").unwrap();
    let b = tx.ensure_campaign("b").unwrap();
    assert_eq!(tx.append_event(a, &draft("one")).unwrap(), 1);
    assert_eq!(tx.append_event(b, &draft("two")).unwrap(), 2);
    assert_eq!(tx.append_event(b, &draft("three")).unwrap(), 3);
    assert!(tx.delete_campaign("b").unwrap());
    // Events 2 and 3 went with b; a's next event is 4, past them, so a reader that saw 3 as the
    // newest number still sees a larger one.
    assert_eq!(tx.append_event(a, &draft("four")).unwrap(), 4);
    let c = tx.ensure_campaign("b").unwrap();
    assert_eq!(tx.append_event(c, &draft("five")).unwrap(), 5);
    tx.commit().unwrap();
    let tx = store.begin(false).unwrap();
    let seqs: Vec<i64> = tx.all_events(a).unwrap().iter().map(|e| e.seq).collect();
    assert_eq!(seqs, vec![1, 4]);
}

#[test]
fn the_event_numbers_migration_keeps_the_log_and_continues_past_every_number_used() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite");
    {
        // A database as version 7 left it: AUTOINCREMENT numbers, the newest ones deleted.
        let mut conn = Connection::open(&path).unwrap();
        migrations().to_version(&mut conn, 7).unwrap();
        conn.execute_batch(
            "INSERT INTO campaigns (id, name, created_at) VALUES (1, 'a', 'x'), (2, 'b', 'x');
             INSERT INTO events (campaign_id, at, tool, args, rolls, changes)
                 VALUES (1, 't1', 'one', '{}', '[]', '[]'), (2, 't2', 'two', '{}', '[]', '[]'),
                        (2, 't3', 'three', '{}', '[]', '[]');
             DELETE FROM campaigns WHERE id = 2;",
        )
        .unwrap();
    }
    let mut store = SqliteStore::open(&path).unwrap();
    let mut tx = store.begin(true).unwrap();
    let a = tx.find_campaign("a").unwrap().unwrap();
    let kept = tx.all_events(a).unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(
        (kept[0].seq, kept[0].tool.as_str(), kept[0].at.as_str()),
        (1, "one", "t1")
    );
    assert_eq!(tx.append_event(a, &draft("four")).unwrap(), 4);
    // Still append-only.
    let err = tx
        .execute("UPDATE events SET tool = 'x' WHERE seq = 1", [])
        .unwrap_err();
    assert!(err.to_string().contains("append-only"), "{err}");
}

fn sheeted(name: &str, level: u32) -> Character {
    let mut c: Character = serde_json::from_value(serde_json::json!({
        "id": name.to_lowercase(), "name": name, "kind": "pc", "level": level,
        "abilities": {"str": 10, "dex": 10, "con": 10, "int": 10, "wis": 10, "cha": 10},
        "proficiencyBonus": 2, "armorClass": 10, "armorSource": "none", "speed": 30,
        "size": "medium", "maxHp": 9, "hp": 9, "hitDie": 8, "hitDice": 1
    }))
    .unwrap();
    c.derived = Some(std::sync::Arc::new(crate::model::build::Derived {
        level,
        max_hp: 9,
        features: vec!["Second Wind".into()],
        ..Default::default()
    }));
    c
}

fn sheet_rows(store: &SqliteStore) -> Vec<(String, String)> {
    let mut stmt = store
        .conn
        .prepare("SELECT id, derived FROM character_sheets ORDER BY id")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn a_sheet_is_stored_apart_and_written_only_when_it_changes() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = SqliteStore::open(&dir.path().join("s.sqlite")).unwrap();
    let mut c = sheeted("Ona", 1);
    let mut tx = store.begin(true).unwrap();
    let a = tx.ensure_campaign("a").unwrap();
    tx.put_character(a, &c).unwrap();
    assert_eq!(tx.tx.changes(), 1, "a new sheet is written");
    tx.commit().unwrap();
    // Written by a transaction that did not read it: the upsert leaves an equal sheet alone.
    let mut tx = store.begin(true).unwrap();
    c.hp = 4;
    tx.put_character(a, &c).unwrap();
    assert_eq!(tx.tx.changes(), 0, "the same sheet is left alone");
    tx.commit().unwrap();
    let rows = sheet_rows(&store);
    assert_eq!(rows.len(), 1);
    assert_eq!(
        rows[0].1,
        serde_json::to_string(c.derived.as_deref().unwrap()).unwrap()
    );
    let doc: String = store
        .conn
        .query_row("SELECT doc FROM characters", [], |r| r.get(0))
        .unwrap();
    assert!(
        !doc.contains("derived") && doc.contains("\"hp\":4"),
        "{doc}"
    );
    // A fresh store reads the character whole from its two texts.
    let mut fresh = SqliteStore::open(&dir.path().join("s.sqlite")).unwrap();
    let tx = fresh.begin(false).unwrap();
    assert_eq!(tx.character(a, "ona").unwrap(), Some(c.clone()));
    assert_eq!(tx.characters_named(a, "ONA").unwrap(), vec![c.clone()]);
    drop(tx);
    // A new derivation replaces the row; a character without one has none; deleting the
    // character (or its campaign) takes its sheet along.
    let mut tx = store.begin(true).unwrap();
    let up = sheeted("Ona", 2);
    tx.put_character(a, &up).unwrap();
    assert_eq!(tx.tx.changes(), 1);
    let mut plain = sheeted("Bo", 1);
    plain.derived = None;
    tx.put_character(a, &plain).unwrap();
    tx.put_character(a, &sheeted("Cy", 1)).unwrap();
    tx.commit().unwrap();
    let rows = sheet_rows(&store);
    assert_eq!(
        rows.iter().map(|r| r.0.as_str()).collect::<Vec<_>>(),
        vec!["cy", "ona"]
    );
    assert!(rows[1].1.contains("\"level\":2"));
    let mut tx = store.begin(true).unwrap();
    assert!(tx.delete_character(a, "ona").unwrap());
    assert!(tx.delete_campaign("a").unwrap());
    tx.commit().unwrap();
    assert!(sheet_rows(&store).is_empty());
}

/// Sheet rows a statement tried to write: a BEFORE INSERT trigger fires for every upsert, the
/// ones that then leave an equal sheet alone included.
fn sheet_attempts(store: &SqliteStore) -> Vec<String> {
    let mut stmt = store
        .conn
        .prepare("SELECT id FROM temp.sheet_attempts ORDER BY rowid")
        .unwrap();
    let ids = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    store
        .conn
        .execute("DELETE FROM temp.sheet_attempts", [])
        .unwrap();
    ids
}

#[test]
fn a_character_written_back_with_the_sheet_it_was_read_with_leaves_the_sheet_row_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = SqliteStore::open(&dir.path().join("s.sqlite")).unwrap();
    store
        .conn
        .execute_batch(
            "CREATE TEMP TABLE sheet_attempts (id TEXT);
             CREATE TEMP TRIGGER count_sheet_attempts BEFORE INSERT ON main.character_sheets
             BEGIN INSERT INTO sheet_attempts VALUES (new.id); END;",
        )
        .unwrap();
    let mut tx = store.begin(true).unwrap();
    let a = tx.ensure_campaign("a").unwrap();
    tx.put_character(a, &sheeted("Ona", 1)).unwrap();
    let mut plain = sheeted("Bo", 1);
    plain.derived = None;
    tx.put_character(a, &plain).unwrap();
    tx.commit().unwrap();
    assert_eq!(sheet_attempts(&store), vec!["ona"]);

    // Read by name or by id, then written back: hit points change, the sheet does not.
    let mut tx = store.begin(true).unwrap();
    let mut c = tx.characters_named(a, "ona").unwrap().remove(0);
    c.hp = 3;
    tx.put_character(a, &c).unwrap();
    let mut c = tx.character(a, "ona").unwrap().unwrap();
    c.hp = 2;
    tx.put_character(a, &c).unwrap();
    tx.commit().unwrap();
    assert!(sheet_attempts(&store).is_empty());

    // A new derivation is written once, then known as written.
    let mut tx = store.begin(true).unwrap();
    let mut c = tx.character(a, "ona").unwrap().unwrap();
    c.derived = sheeted("Ona", 2).derived;
    tx.put_character(a, &c).unwrap();
    c.hp = 1;
    tx.put_character(a, &c).unwrap();
    // A character read without a sheet row gains one when written with a sheet.
    let mut bo = tx.character(a, "bo").unwrap().unwrap();
    bo.derived = sheeted("Bo", 1).derived;
    tx.put_character(a, &bo).unwrap();
    tx.commit().unwrap();
    assert_eq!(sheet_attempts(&store), vec!["ona", "bo"]);
    let rows = sheet_rows(&store);
    assert_eq!(rows.len(), 2);
    assert!(rows[1].1.contains("\"level\":2"), "{rows:?}");

    // A delete takes the sheet row with it: the character written again gets it back.
    let mut tx = store.begin(true).unwrap();
    let c = tx.character(a, "ona").unwrap().unwrap();
    assert!(tx.delete_character(a, "ona").unwrap());
    tx.put_character(a, &c).unwrap();
    tx.commit().unwrap();
    assert_eq!(sheet_attempts(&store), vec!["ona"]);
    let mut fresh = SqliteStore::open(&dir.path().join("s.sqlite")).unwrap();
    let tx = fresh.begin(false).unwrap();
    assert_eq!(tx.character(a, "ona").unwrap(), Some(c));

    // A read-only transaction's reads are not carried into the next write.
    drop(tx);
    let tx = store.begin(false).unwrap();
    let c = tx.character(a, "ona").unwrap().unwrap();
    drop(tx);
    let mut tx = store.begin(true).unwrap();
    tx.put_character(a, &c).unwrap();
    tx.commit().unwrap();
    assert_eq!(sheet_attempts(&store), vec!["ona"]);
}

#[test]
fn a_character_stored_with_its_sheet_inside_reads_whole_and_is_split_at_its_next_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite");
    let c = sheeted("Ona", 3);
    {
        // As version 8 stored it: one document, the sheet inside.
        let mut conn = Connection::open(&path).unwrap();
        migrations().to_version(&mut conn, 8).unwrap();
        conn.execute(
            "INSERT INTO campaigns (id, name, created_at) VALUES (1, 'a', 'x');",
            [],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO characters (campaign_id, id, name, name_key, kind, class_key, level, doc,
                                     created_at, updated_at)
             VALUES (1, 'ona', 'Ona', 'ona', 'pc', NULL, 3, ?1, 'x', 'x')",
            [serde_json::to_string(&c).unwrap()],
        )
        .unwrap();
    }
    let mut store = SqliteStore::open(&path).unwrap();
    let mut tx = store.begin(true).unwrap();
    let a = tx.find_campaign("a").unwrap().unwrap();
    assert_eq!(tx.character(a, "ona").unwrap(), Some(c.clone()));
    let (list, total) = tx.list_characters(a, &Default::default(), 10, 0).unwrap();
    assert_eq!((list, total), (vec![c.clone()], 1));
    tx.put_character(a, &c).unwrap();
    tx.commit().unwrap();
    assert_eq!(sheet_rows(&store).len(), 1);
    let tx = store.begin(false).unwrap();
    assert_eq!(tx.character(a, "ona").unwrap(), Some(c));
}

#[test]
fn a_write_that_keeps_the_listed_columns_updates_the_document_and_one_that_changes_them_the_lists()
{
    let dir = tempfile::tempdir().unwrap();
    let mut store = SqliteStore::open(&dir.path().join("l.sqlite")).unwrap();
    let mut tx = store.begin(true).unwrap();
    let a = tx.ensure_campaign("a").unwrap();
    let mut c = sheeted("Ona", 1);
    tx.put_character(a, &c).unwrap();
    c.hp = 2;
    tx.put_character(a, &c).unwrap();
    c.name = "Una".into();
    c.level = 4;
    tx.put_character(a, &c).unwrap();
    tx.commit().unwrap();
    let tx = store.begin(false).unwrap();
    assert_eq!(tx.characters_named(a, "una").unwrap(), vec![c.clone()]);
    assert!(tx.characters_named(a, "ona").unwrap().is_empty());
    let filter = CharacterFilter {
        min_level: Some(4),
        ..Default::default()
    };
    assert_eq!(tx.list_characters(a, &filter, 10, 0).unwrap(), (vec![c], 1));
    let (created, updated): (String, String) = tx
        .query_row("SELECT created_at, updated_at FROM characters", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert!(
        updated >= created && created.ends_with('Z'),
        "{created} {updated}"
    );
}

fn event_states(store: &SqliteStore) -> Vec<Option<String>> {
    let mut stmt = store
        .conn
        .prepare("SELECT rng FROM events ORDER BY seq")
        .unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn campaign_state(store: &SqliteStore, name: &str) -> Option<String> {
    store
        .conn
        .query_row(
            "SELECT rng_state FROM campaigns WHERE name = ?1",
            [name],
            |r| r.get(0),
        )
        .unwrap()
}

#[test]
fn the_dice_stream_rides_on_the_events_and_a_roll_leaves_the_campaign_row_alone() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = SqliteStore::open(&dir.path().join("r.sqlite")).unwrap();
    // A new campaign's first state, with no event: in the campaign's row.
    let mut tx = store.begin(true).unwrap();
    let a = tx.ensure_campaign("a").unwrap();
    tx.set_rng_state(a, "s0").unwrap();
    tx.commit().unwrap();
    assert_eq!(campaign_state(&store, "a").as_deref(), Some("s0"));
    // A call that rolls nothing: its event carries no state, the row still holds it.
    let mut tx = store.begin(true).unwrap();
    tx.append_event(a, &draft("note")).unwrap();
    assert_eq!(tx.rng_state(a).unwrap().as_deref(), Some("s0"));
    tx.commit().unwrap();
    // A call that rolls: the state is read back in the call, then rides on its event.
    let mut tx = store.begin(true).unwrap();
    tx.set_rng_state(a, "s1").unwrap();
    assert_eq!(tx.rng_state(a).unwrap().as_deref(), Some("s1"));
    tx.append_event(a, &draft("roll")).unwrap();
    tx.commit().unwrap();
    assert_eq!(
        campaign_state(&store, "a").as_deref(),
        Some("s0"),
        "the row is left alone"
    );
    // The next call that rolls nothing carries it on.
    let mut tx = store.begin(true).unwrap();
    tx.append_event(a, &draft("note")).unwrap();
    tx.commit().unwrap();
    assert_eq!(
        event_states(&store),
        vec![None, Some("s1".to_string()), Some("s1".to_string())]
    );
    let tx = store.begin(false).unwrap();
    assert_eq!(tx.rng_state(a).unwrap().as_deref(), Some("s1"));
    drop(tx);
    // A rolled-back call leaves the state as it was.
    {
        let mut tx = store.begin(true).unwrap();
        tx.set_rng_state(a, "lost").unwrap();
        tx.append_event(a, &draft("roll")).unwrap();
    }
    let mut tx = store.begin(true).unwrap();
    assert_eq!(tx.rng_state(a).unwrap().as_deref(), Some("s1"));
    // A state with no event to carry it, once events carry one, is refused, not hidden.
    tx.set_rng_state(a, "s2").unwrap();
    let err = tx.commit().unwrap_err();
    assert!(err.to_string().contains("no event to record it"), "{err}");
    let tx = store.begin(false).unwrap();
    assert_eq!(tx.rng_state(a).unwrap().as_deref(), Some("s1"));
    drop(tx);
    // Two campaigns in one transaction keep their own states.
    let mut tx = store.begin(true).unwrap();
    let b = tx.ensure_campaign("b").unwrap();
    tx.set_rng_state(a, "a2").unwrap();
    tx.append_event(a, &draft("roll")).unwrap();
    tx.set_rng_state(b, "b1").unwrap();
    tx.append_event(b, &draft("roll")).unwrap();
    tx.append_event(a, &draft("note")).unwrap();
    tx.commit().unwrap();
    let tx = store.begin(false).unwrap();
    assert_eq!(tx.rng_state(a).unwrap().as_deref(), Some("a2"));
    assert_eq!(tx.rng_state(b).unwrap().as_deref(), Some("b1"));
}

#[test]
fn a_campaign_from_before_keeps_its_stream_in_its_row_until_an_event_carries_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old9.sqlite");
    {
        let mut conn = Connection::open(&path).unwrap();
        migrations().to_version(&mut conn, 9).unwrap();
        conn.execute_batch(
            "INSERT INTO campaigns (id, name, created_at, rng_state) VALUES (1, 'a', 'x', 'old');
             INSERT INTO events (seq, campaign_id, at, tool, args, rolls, changes)
                 VALUES (1, 1, 't1', 'roll', '{}', '[]', '[]');",
        )
        .unwrap();
    }
    let mut store = SqliteStore::open(&path).unwrap();
    let mut tx = store.begin(true).unwrap();
    let a = tx.find_campaign("a").unwrap().unwrap();
    assert_eq!(tx.rng_state(a).unwrap().as_deref(), Some("old"));
    tx.set_rng_state(a, "new").unwrap();
    tx.append_event(a, &draft("roll")).unwrap();
    tx.commit().unwrap();
    assert_eq!(event_states(&store), vec![None, Some("new".to_string())]);
    let tx = store.begin(false).unwrap();
    assert_eq!(tx.rng_state(a).unwrap().as_deref(), Some("new"));
}

/// A write reads back the state its own connection last committed without asking the file,
/// and the file's state as soon as another connection has committed since.
#[test]
fn the_dice_stream_another_connection_wrote_is_read_and_not_the_one_this_one_remembers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.sqlite");
    let mut one = SqliteStore::open(&path).unwrap();
    let mut two = SqliteStore::open(&path).unwrap();
    let roll = |store: &mut SqliteStore, state: &str| {
        let mut tx = store.begin(true).unwrap();
        let a = tx.ensure_campaign("a").unwrap();
        let before = tx.rng_state(a).unwrap();
        tx.set_rng_state(a, state).unwrap();
        tx.append_event(a, &draft("roll")).unwrap();
        tx.commit().unwrap();
        before
    };
    assert_eq!(roll(&mut one, "s1"), None);
    assert_eq!(roll(&mut one, "s2").as_deref(), Some("s1"));
    assert_eq!(roll(&mut two, "s3").as_deref(), Some("s2"));
    assert_eq!(
        roll(&mut one, "s4").as_deref(),
        Some("s3"),
        "another connection's state"
    );
    // A call that rolled and was rolled back leaves the remembered state as it was.
    {
        let mut tx = one.begin(true).unwrap();
        let a = tx.find_campaign("a").unwrap().unwrap();
        tx.set_rng_state(a, "lost").unwrap();
        tx.append_event(a, &draft("roll")).unwrap();
    }
    assert_eq!(roll(&mut one, "s5").as_deref(), Some("s4"));
    // A call that rolled nothing copies the state on; a campaign's row written directly (no
    // event to carry it) is read back, not remembered.
    let mut tx = one.begin(true).unwrap();
    let b = tx.ensure_campaign("b").unwrap();
    tx.set_rng_state(b, "b0").unwrap();
    tx.commit().unwrap();
    let mut tx = one.begin(true).unwrap();
    assert_eq!(tx.rng_state(b).unwrap().as_deref(), Some("b0"));
    let a = tx.find_campaign("a").unwrap().unwrap();
    tx.append_event(a, &draft("note")).unwrap();
    assert_eq!(tx.rng_state(a).unwrap().as_deref(), Some("s5"));
    tx.commit().unwrap();
    assert_eq!(roll(&mut two, "s6").as_deref(), Some("s5"));
    assert_eq!(roll(&mut one, "s7").as_deref(), Some("s6"));
    // An event of a call that rolled nothing carries the newest state: the one its connection
    // remembers (`one`), or the stored one when another connection committed since (`two`,
    // which remembers s6).
    let note = |store: &mut SqliteStore| {
        let mut tx = store.begin(true).unwrap();
        let a = tx.find_campaign("a").unwrap().unwrap();
        tx.append_event(a, &draft("note")).unwrap();
        tx.commit().unwrap();
    };
    note(&mut one);
    note(&mut two);
    note(&mut one);
    let states = event_states(&one);
    assert_eq!(
        states[states.len() - 4..],
        [Some("s7"), Some("s7"), Some("s7"), Some("s7")].map(|s| s.map(String::from))
    );
}
