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
