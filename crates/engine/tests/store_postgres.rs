//! PostgreSQL-only behaviour: bad URLs, a server that is down or goes away in the middle of a
//! call, a schema from a newer Tabletop, and concurrent writers on one campaign. Needs
//! `TABLETOP_TEST_DATABASE_URL` (see `test-support/pg_env.rs`); skipped with a message without
//! it, failing under CI.

use serde_json::json;
use tabletop_engine::creation::{
    AbilityMethod, CreateMode, CreateRequest, CustomClass, create_character,
};
use tabletop_engine::store::{StoreError, Transaction, Tx};
use tabletop_engine::update::{HpChange, UpdateRequest, update_character};
use tabletop_engine::{Engine, EngineError, EngineOptions, PgStore, Store};
use tabletop_rules::Ability;

use super::pg_env;

fn open(url: &str, seed: Option<u64>) -> Engine<PgStore> {
    Engine::open(
        PgStore::open(url).unwrap(),
        "shared",
        EngineOptions {
            seed,
            compendium: tabletop_engine::compendium::CompendiumSource::none(),
        },
    )
    .unwrap()
}

fn create(e: &mut Engine<PgStore>, name: &str) -> String {
    e.write("create_character", &json!({}), |call| {
        create_character(
            call,
            CreateRequest {
                name: name.into(),
                custom_class: Some(CustomClass {
                    name: "Fighter".into(),
                    hit_die: 10,
                    saves: vec![Ability::Strength, Ability::Constitution],
                    spellcasting_ability: None,
                    skill_choices: None,
                }),
                method: AbilityMethod::Manual,
                scores: Some(
                    Ability::ALL
                        .iter()
                        .copied()
                        .zip([16, 12, 14, 8, 10, 10])
                        .collect(),
                ),
                mode: CreateMode::Create,
                ..Default::default()
            },
        )
    })
    .unwrap()
    .character
    .id
}

fn count(url: &str, sql: &str) -> i64 {
    pg_env::rows(url, sql)[0][0].parse().unwrap()
}

#[test]
fn a_url_that_is_not_postgres_says_how_to_write_one() {
    let err = PgStore::open("mysql://ana:secret@db/tt")
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("is not a PostgreSQL URL")
            && err.contains("postgres://USER:PASSWORD@HOST:PORT/DATABASE"),
        "{err}"
    );
    assert!(!err.contains("secret"), "the password is not shown: {err}");
}

#[test]
fn a_server_that_is_down_is_named_with_the_fix() {
    // Port 1 on loopback: nothing listens there.
    let err = PgStore::open("postgres://ana:secret@127.0.0.1:1/tt")
        .err()
        .unwrap();
    assert!(matches!(err, StoreError::Unavailable(_)), "{err:?}");
    let text = err.to_string();
    assert!(
        text.starts_with("cannot connect to PostgreSQL at postgres://ana:***@127.0.0.1:1/tt")
            && text.contains("check that the server is running")
            && text.contains("TABLETOP_DATABASE_URL"),
        "{text}"
    );
}

#[test]
fn a_schema_from_a_newer_tabletop_is_refused_untouched() {
    let Some(url) = pg_env::fresh_database("pg_newer_schema") else {
        return;
    };
    drop(PgStore::open(&url).unwrap());
    pg_env::execute(&url, "UPDATE tabletop_schema SET version = 99").unwrap();
    let err = PgStore::open(&url).err().unwrap();
    assert_eq!(
        err.to_string(),
        "the database schema is version 99, newer than this Tabletop knows (up to 9); nothing \
         was changed. Upgrade Tabletop, or point it at another database"
    );
    assert_eq!(count(&url, "SELECT version FROM tabletop_schema"), 99);
}

/// As on SQLite: the derived sheet is a row of its own, written again only when it changes, and
/// a fresh connection reads the character whole from its two texts.
#[test]
fn a_sheet_is_stored_apart_and_an_hp_change_leaves_it_alone() {
    let Some(url) = pg_env::fresh_database("pg_sheets") else {
        return;
    };
    let mut e = open(&url, Some(3));
    let id = create(&mut e, "Ona");
    let sheet_sql = format!("SELECT derived FROM character_sheets WHERE id = '{id}'");
    let first = pg_env::rows(&url, &sheet_sql);
    assert_eq!(first.len(), 1);
    assert!(first[0][0].contains("\"maxHpSources\""), "{first:?}");
    e.write("update_character", &json!({}), |call| {
        update_character(
            call,
            tabletop_engine::character::CharacterRef::new(Some(&id), None),
            UpdateRequest {
                hp: Some(HpChange::Damage(3)),
                ..Default::default()
            },
        )
    })
    .unwrap();
    assert_eq!(
        pg_env::rows(&url, &sheet_sql),
        first,
        "the sheet row is unchanged"
    );
    let doc = &pg_env::rows(&url, "SELECT doc FROM characters")[0][0];
    assert!(!doc.contains("\"derived\""), "{doc}");
    let read = |e: &mut Engine<PgStore>| {
        e.read(|call| {
            tabletop_engine::characters::get_character(
                call,
                tabletop_engine::character::CharacterRef::new(Some(&id), None),
            )
        })
        .map(|s| serde_json::to_value(s).unwrap())
        .unwrap()
    };
    let here = read(&mut e);
    assert_eq!(read(&mut open(&url, Some(3))), here);
    assert_eq!(
        here["character"]["maxHp"].as_u64().unwrap() - 3,
        here["character"]["hp"].as_u64().unwrap()
    );
    pg_env::execute(&url, "DELETE FROM campaigns").unwrap();
    assert_eq!(count(&url, "SELECT COUNT(*) FROM character_sheets"), 0);
}

#[test]
fn a_connection_lost_in_the_middle_of_a_call_writes_nothing_and_the_next_call_reconnects() {
    let Some(url) = pg_env::fresh_database("pg_lost_mid_call") else {
        return;
    };
    let mut e = open(&url, Some(3));
    let id = create(&mut e, "Brom");
    let kill = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()";
    let err = e
        .write("update_character", &json!({}), |call| {
            let out = update_character(
                call,
                tabletop_engine::character::CharacterRef::new(Some(&id), None),
                UpdateRequest {
                    hp: Some(HpChange::Damage(3)),
                    ..Default::default()
                },
            )?;
            // The server drops this connection after the change, before the commit.
            pg_env::execute(&url, kill).unwrap();
            Ok(out)
        })
        .err()
        .unwrap();
    let text = err.to_string();
    assert!(
        matches!(err, EngineError::Store(StoreError::Unavailable(_)))
            && text.contains("nothing of it was written")
            && text.contains("Check that the database server is running"),
        "{text}"
    );
    // Nothing half-written: the HP and the event log are as before; the next call reconnects.
    let hp = e
        .read(|call| Ok(call.tx_ref().character(call.campaign(), &id)?.unwrap().hp))
        .unwrap();
    assert_eq!(hp, 12);
    assert_eq!(
        count(
            &url,
            "SELECT COUNT(*) FROM events WHERE tool = 'update_character'"
        ),
        0
    );
}

#[test]
fn writers_on_one_campaign_from_several_connections_lose_nothing() {
    let Some(url) = pg_env::fresh_database("pg_concurrent_writers") else {
        return;
    };
    let mut first = open(&url, Some(5));
    let id = create(&mut first, "Brom");
    drop(first);
    let threads: Vec<_> = (0..4)
        .map(|w| {
            let url = url.clone();
            let id = id.clone();
            std::thread::spawn(move || {
                let mut e = open(&url, None);
                for i in 0..25 {
                    e.write("update_character", &json!({}), |call| {
                        let mut c = call.tx_ref().character(call.campaign(), &id)?.unwrap();
                        c.equipment.push(format!("w{w}-{i}"));
                        let campaign = call.campaign();
                        call.tx().put_character(campaign, &c)?;
                        Ok(())
                    })
                    .unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let mut e = open(&url, None);
    let mut got = e
        .read(|call| {
            Ok(call
                .tx_ref()
                .character(call.campaign(), &id)?
                .unwrap()
                .equipment)
        })
        .unwrap();
    got.sort();
    let mut want: Vec<String> = (0..4)
        .flat_map(|w| (0..25).map(move |i| format!("w{w}-{i}")))
        .collect();
    want.sort();
    assert_eq!(got, want, "every one of the 100 writes is there");
    assert_eq!(
        count(
            &url,
            "SELECT COUNT(*) FROM events WHERE tool = 'update_character'"
        ),
        100
    );
}

#[test]
fn a_read_transaction_cannot_write() {
    let Some(url) = pg_env::fresh_database("pg_read_only") else {
        return;
    };
    let mut store = PgStore::open(&url).unwrap();
    let mut tx = store.begin(false).unwrap();
    let err = tx.ensure_campaign("x").err().unwrap().to_string();
    assert!(err.contains("read-only"), "{err}");
    drop(tx);
    let mut tx = store.begin(true).unwrap();
    tx.ensure_campaign("x").unwrap();
    tx.commit().unwrap();
}

#[test]
fn a_deadlock_between_two_writers_is_retried_by_running_the_call_again() {
    let Some(url) = pg_env::fresh_database("pg_deadlock_retry") else {
        return;
    };
    let open_named = |name: &str| {
        Engine::open(
            PgStore::open(&url).unwrap(),
            name,
            EngineOptions {
                seed: Some(1),
                compendium: tabletop_engine::compendium::CompendiumSource::none(),
            },
        )
        .unwrap()
    };
    let mut a = open_named("a");
    let b = open_named("b");
    let id_of = |e: &mut Engine<PgStore>, name: &str| {
        let name = name.to_string();
        e.admin(move |tx| Ok(tx.find_campaign(&name)?.unwrap()))
            .unwrap()
    };
    let (ida, idb) = (id_of(&mut a, "a"), id_of(&mut a, "b"));
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
    let attempts = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let run = |mut e: Engine<PgStore>, other: tabletop_engine::store::CampaignId| {
        let barrier = barrier.clone();
        let attempts = attempts.clone();
        std::thread::spawn(move || {
            let mut first = true;
            e.write_retrying("cross", &json!({}), |call| {
                attempts.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                // Each holds its own campaign; the first time both then reach for the other's.
                if std::mem::take(&mut first) {
                    barrier.wait();
                }
                call.tx().set_rng_state(other, "{}")?;
                Ok(())
            })
        })
    };
    let ta = run(a, idb);
    let tb = run(b, ida);
    let (ra, rb) = (ta.join().unwrap(), tb.join().unwrap());
    assert!(ra.is_ok() && rb.is_ok(), "{ra:?} {rb:?}");
    assert_eq!(
        attempts.load(std::sync::atomic::Ordering::SeqCst),
        3,
        "the writer PostgreSQL chose as the deadlock victim ran its whole call again"
    );
    assert_eq!(
        count(&url, "SELECT COUNT(*) FROM events WHERE tool = 'cross'"),
        2
    );
}

#[test]
fn a_conflict_that_outlasts_the_retries_says_the_campaign_is_busy() {
    let text = StoreError::Conflict("40P01: deadlock detected".into()).to_string();
    assert_eq!(
        text,
        "the campaign is busy (other servers are writing to it at the same time: 40P01: \
         deadlock detected); nothing of this call was written, retry it"
    );
}
