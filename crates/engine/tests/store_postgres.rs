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

#[path = "../../../test-support/pg_env.rs"]
mod pg_env;

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
        "the database schema is version 99, newer than this Tabletop knows (up to 6); nothing \
         was changed. Upgrade Tabletop, or point it at another database"
    );
    assert_eq!(count(&url, "SELECT version FROM tabletop_schema"), 99);
}

#[test]
fn a_connection_lost_in_the_middle_of_a_call_writes_nothing_and_the_next_call_reconnects() {
    let Some(url) = pg_env::fresh_database("pg_lost_mid_call") else {
        return;
    };
    let mut e = open(&url, Some(3));
    let id = create(&mut e, "Brom");
    let kill = format!(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()"
    );
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
            pg_env::execute(&url, &kill).unwrap();
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
        .map(|_| {
            let url = url.clone();
            let id = id.clone();
            std::thread::spawn(move || {
                let mut e = open(&url, None);
                for _ in 0..25 {
                    e.write("update_character", &json!({}), |call| {
                        let mut c = call.tx_ref().character(call.campaign(), &id)?.unwrap();
                        c.xp += 1;
                        call.tx().put_character(call.campaign(), &c)?;
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
    let xp = e
        .read(|call| Ok(call.tx_ref().character(call.campaign(), &id)?.unwrap().xp))
        .unwrap();
    assert_eq!(xp, 100, "every one of the 100 increments is there");
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
