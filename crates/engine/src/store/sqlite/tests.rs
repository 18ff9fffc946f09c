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

fn draft(tool: &str) -> EventDraft {
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
