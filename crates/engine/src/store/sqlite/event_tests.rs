//! Tests of the event log's sparse campaign index (`migrations/011_event_marks.sql`): what it
//! marks, and that every read through it gives what a read of the whole log gives.

use rusqlite::Connection;

use super::super::SqliteStore;
use super::super::tests::draft;
use super::*;
use crate::store::{Store, Transaction, Tx};

/// The marked numbers of campaign `c`, from the table.
fn marks(tx: &SqliteTx<'_>, c: CampaignId) -> Vec<i64> {
    tx.tx
        .prepare("SELECT seq FROM events WHERE campaign_id = ?1 AND mark = 1 ORDER BY seq")
        .unwrap()
        .query_map([c.0], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn a_campaign_played_alone_marks_one_event_in_sixteen_and_campaigns_in_turn_mark_every_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = SqliteStore::open(&dir.path().join("m.sqlite")).unwrap();
    let mut tx = store.begin(true).unwrap();
    let a = tx.ensure_campaign("a").unwrap();
    let b = tx.ensure_campaign("b").unwrap();
    for _ in 0..40 {
        tx.append_event(a, &draft("alone")).unwrap();
    }
    // 1 starts the log, then every multiple of 16.
    assert_eq!(marks(&tx, a), vec![1, 16, 32]);
    for _ in 0..3 {
        tx.append_event(b, &draft("b")).unwrap();
        tx.append_event(a, &draft("a")).unwrap();
    }
    assert_eq!(marks(&tx, a), vec![1, 16, 32, 42, 44, 46]);
    assert_eq!(marks(&tx, b), vec![41, 43, 45]);
    // A deleted campaign's numbers leave a gap: the event after it starts a run again.
    for _ in 0..2 {
        tx.append_event(b, &draft("b")).unwrap();
    }
    assert!(tx.delete_campaign("b").unwrap());
    assert_eq!(tx.append_event(a, &draft("after")).unwrap(), 49);
    assert_eq!(tx.append_event(a, &draft("after")).unwrap(), 50);
    assert_eq!(marks(&tx, a), vec![1, 16, 32, 42, 44, 46, 49]);
}

/// A small deterministic generator (the test must fail the same way every time).
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// What a read of the whole log says of campaign `c`: its events' numbers, tools and states.
fn scanned(tx: &SqliteTx<'_>, c: CampaignId) -> Vec<(i64, String, Option<String>)> {
    tx.tx
        .prepare(
            "SELECT seq, tool, rng FROM events NOT INDEXED WHERE campaign_id = ?1 ORDER BY seq",
        )
        .unwrap()
        .query_map([c.0], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn every_read_through_the_sparse_index_gives_what_a_read_of_the_whole_log_gives() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = SqliteStore::open(&dir.path().join("r.sqlite")).unwrap();
    let mut rng = Lcg(19);
    let names = ["a", "b", "c"];
    let mut states = 0;
    for step in 0..60 {
        let mut tx = store.begin(true).unwrap();
        // Bursts of one campaign, campaigns in turn, and now and then a campaign deleted (and
        // made again later, under a new id).
        let burst = 1 + rng.below(40);
        let turns = rng.below(2) == 0;
        let first = rng.below(3) as usize;
        for k in 0..burst {
            let name = names[if turns {
                (first + k as usize) % 3
            } else {
                first
            }];
            let c = tx.ensure_campaign(name).unwrap();
            if rng.below(3) == 0 {
                states += 1;
                tx.set_rng_state(c, &format!("s{states}")).unwrap();
            }
            tx.append_event(c, &draft(&format!("{name}{step}.{k}")))
                .unwrap();
        }
        if rng.below(8) == 0 {
            tx.delete_campaign(names[rng.below(3) as usize]).unwrap();
        }
        tx.commit().unwrap();
        let tx = store.begin(false).unwrap();
        for name in names {
            let Some(c) = tx.find_campaign(name).unwrap() else {
                continue;
            };
            let whole = scanned(&tx, c);
            let all: Vec<(i64, String)> = tx
                .all_events(c)
                .unwrap()
                .into_iter()
                .map(|e| (e.seq, e.tool))
                .collect();
            let expected: Vec<(i64, String)> =
                whole.iter().map(|(n, t, _)| (*n, t.clone())).collect();
            assert_eq!(all, expected, "step {step}, campaign {name}");
            for limit in [1, 2, 5, 17, 40, 1000] {
                let recent: Vec<i64> = tx
                    .recent_events(c, limit)
                    .unwrap()
                    .iter()
                    .map(|e| e.seq)
                    .collect();
                let newest: Vec<i64> = whole.iter().rev().take(limit).map(|e| e.0).collect();
                assert_eq!(
                    recent, newest,
                    "step {step}, campaign {name}, limit {limit}"
                );
            }
            let count = tx
                .list_campaigns()
                .unwrap()
                .into_iter()
                .find(|i| i.name == name)
                .unwrap()
                .events;
            assert_eq!(count, whole.len() as u64, "step {step}, campaign {name}");
            // The stream's state: the newest event's, read through the newest run.
            let state: Option<String> = tx
                .tx
                .query_row(&format!("SELECT {NEWEST_EVENT_RNG}"), [c.0], |r| r.get(0))
                .unwrap();
            assert_eq!(
                state,
                whole.last().and_then(|e| e.2.clone()),
                "step {step}, campaign {name}"
            );
        }
    }
}

/// Every read of a campaign's events searches the sparse index and ranges of numbers: none
/// reads the whole log.
#[test]
fn reads_of_a_campaigns_events_search_and_never_scan_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plan.sqlite");
    drop(SqliteStore::open(&path).unwrap());
    let conn = Connection::open(&path).unwrap();
    let reads = [
        format!("SELECT {NEWEST_EVENT_RNG}"),
        NEWEST_IN_TABLE.to_string(),
        concat!(
            event_runs!(),
            "SELECT ev.seq FROM runs, events ev
             WHERE ev.seq >= runs.s AND ev.seq < runs.e AND ev.campaign_id = ?1
             ORDER BY ev.seq DESC LIMIT ?2"
        )
        .to_string(),
    ];
    for sql in reads {
        let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
        let args = vec![1_i64; stmt.parameter_count()];
        let plan: Vec<String> = stmt
            .query_map(rusqlite::params_from_iter(args), |r| r.get::<_, String>(3))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        for step in &plan {
            let table = step.split_whitespace().nth(1);
            if matches!(table, Some("events" | "ev")) {
                assert!(step.starts_with("SEARCH"), "{sql}: {plan:?}");
            }
        }
    }
}

/// A log from before the sparse index (version 10) keeps every event marked, reads as it did,
/// and numbers on by the rule.
#[test]
fn a_log_from_before_the_sparse_index_is_all_marked_and_reads_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old10.sqlite");
    {
        let mut conn = Connection::open(&path).unwrap();
        super::super::migrations()
            .to_version(&mut conn, 10)
            .unwrap();
        conn.execute_batch(
            "INSERT INTO campaigns (id, name, created_at) VALUES (1, 'a', 'x'), (2, 'b', 'x');
             INSERT INTO events (seq, campaign_id, at, tool, args, rolls, changes, rng)
                 VALUES (1, 1, 't1', 'one', '{}', '[]', '[]', 'a1'),
                        (2, 2, 't2', 'two', '{}', '[]', '[]', 'b2'),
                        (3, 1, 't3', 'three', '{}', '[]', '[]', 'a3'),
                        (4, 1, 't4', 'four', '{}', '[]', '[]', 'a4');",
        )
        .unwrap();
    }
    let mut store = SqliteStore::open(&path).unwrap();
    let mut tx = store.begin(true).unwrap();
    let (a, b) = (CampaignId(1), CampaignId(2));
    assert_eq!(marks(&tx, a), vec![1, 3, 4]);
    assert_eq!(marks(&tx, b), vec![2]);
    assert_eq!(tx.rng_state(a).unwrap().as_deref(), Some("a4"));
    assert_eq!(tx.rng_state(b).unwrap().as_deref(), Some("b2"));
    assert_eq!(tx.append_event(a, &draft("five")).unwrap(), 5);
    assert_eq!(tx.append_event(b, &draft("six")).unwrap(), 6);
    assert_eq!(marks(&tx, a), vec![1, 3, 4], "5 follows a's 4");
    assert_eq!(marks(&tx, b), vec![2, 6]);
    let seqs: Vec<i64> = tx.all_events(a).unwrap().iter().map(|e| e.seq).collect();
    assert_eq!(seqs, vec![1, 3, 4, 5]);
    let recent: Vec<i64> = tx
        .recent_events(a, 3)
        .unwrap()
        .iter()
        .map(|e| e.seq)
        .collect();
    assert_eq!(recent, vec![5, 4, 3]);
    // The event of a call that rolled nothing carries the newest state on.
    assert_eq!(tx.rng_state(a).unwrap().as_deref(), Some("a4"));
}

/// A connection numbers and marks from the newest event it remembers only while no other
/// connection has committed since (a debug build also checks every use against the table).
#[test]
fn two_connections_in_turn_number_and_mark_from_the_table_not_from_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.sqlite");
    let mut one = SqliteStore::open(&path).unwrap();
    let mut two = SqliteStore::open(&path).unwrap();
    let append = |store: &mut SqliteStore, name: &str| {
        let mut tx = store.begin(true).unwrap();
        let c = tx.ensure_campaign(name).unwrap();
        let n = tx.append_event(c, &draft(name)).unwrap();
        tx.commit().unwrap();
        n
    };
    assert_eq!(append(&mut one, "a"), 1);
    assert_eq!(append(&mut one, "a"), 2);
    assert_eq!(append(&mut two, "b"), 3);
    // One remembers 2 as the newest (of a): the table says 3 (of b).
    assert_eq!(append(&mut one, "a"), 4);
    assert_eq!(append(&mut two, "a"), 5);
    assert_eq!(append(&mut two, "a"), 6);
    let tx = one.begin(false).unwrap();
    let a = tx.find_campaign("a").unwrap().unwrap();
    assert_eq!(marks(&tx, a), vec![1, 4]);
}
