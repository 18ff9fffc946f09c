//! The shared store: PostgreSQL, for several server processes (or machines) on one set of
//! campaigns.
//!
//! # Client and threads
//! The [`super::Store`] traits are synchronous and the server calls the engine directly on its
//! tokio worker threads (no `spawn_blocking`). The sync `postgres` crate runs its own runtime and
//! panics when used from inside another one, so this store uses `tokio-postgres`: each
//! connection's I/O task runs on one small background runtime owned by this module (its own
//! thread, never dropped), and a call waits for its query with `futures_executor::block_on`,
//! which works on any thread, a runtime's worker included (it blocks that worker for the
//! query, as the SQLite store blocks it for its file I/O).
//!
//! # Concurrency
//! Write transactions run at READ COMMITTED and start by locking their campaign's row
//! ([`super::Tx::lock_campaign`], `SELECT … FOR NO KEY UPDATE`): the writers of one campaign run
//! one at a time whichever process they come from, each reading what the previous one
//! committed, so no update is lost, the dice stream stays one stream and a campaign's event
//! sequence numbers follow its commit order. Reads run at REPEATABLE READ (one snapshot).
//! A serialization failure or a deadlock (SQLSTATE 40001/40P01) is reported as
//! [`StoreError::Conflict`], which the engine retries a bounded number of times by re-running the
//! whole use case.

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::sync::LazyLock;
use std::time::Duration;

use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, NoTls, Statement};

use super::{StoreError, Transaction};

mod character_docs;
mod memory;
mod pipe;
mod rows;
mod search;
mod tx;

pub use tx::PgTx;

/// The PostgreSQL migrations, in step with the SQLite ones (same numbers, same tables and
/// columns; `store_schema` tests compare them).
pub(crate) const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../../migrations/postgres/001_initial.sql")),
    (2, include_str!("../../migrations/postgres/002_world.sql")),
    (
        3,
        include_str!("../../migrations/postgres/003_encounters.sql"),
    ),
    (
        4,
        include_str!("../../migrations/postgres/004_list_index.sql"),
    ),
    (
        5,
        include_str!("../../migrations/postgres/005_campaign_ids.sql"),
    ),
    (6, include_str!("../../migrations/postgres/006_tokens.sql")),
    (7, include_str!("../../migrations/postgres/007_memory.sql")),
    // 8 is SQLite's alone (its event numbering); PostgreSQL's sequence needs no change.
    (
        9,
        include_str!("../../migrations/postgres/009_character_sheets.sql"),
    ),
];

/// The background runtime driving every connection's socket (one thread, lives as long as the
/// process: a runtime must not be dropped on another runtime's thread).
static IO: LazyLock<tokio::runtime::Runtime> = LazyLock::new(|| {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("tabletop-pg")
        .enable_all()
        .build()
        .expect("the PostgreSQL I/O runtime starts")
});

/// Waits for a client future on the calling thread (see the module notes).
pub(crate) fn wait<F: Future>(f: F) -> F::Output {
    futures_executor::block_on(f)
}

/// A [`super::Store`] on a PostgreSQL database.
pub struct PgStore {
    config: tokio_postgres::Config,
    /// The URL with its password hidden, for messages.
    shown: String,
    conn: Option<PgConn>,
}

/// One open connection and its prepared statements.
pub(crate) struct PgConn {
    pub(crate) client: Client,
    stmts: RefCell<HashMap<String, Statement>>,
    /// Characters decoded from their stored text (see [`super::decoded`]).
    pub(crate) decoded: super::decoded::Decoded,
}

impl PgConn {
    /// A prepared statement for `sql`, prepared once per connection.
    pub(crate) fn stmt(&self, sql: &str) -> Result<Statement, StoreError> {
        if let Some(s) = self.stmts.borrow().get(sql) {
            return Ok(s.clone());
        }
        let s = wait(self.client.prepare(sql)).map_err(pg_error)?;
        let mut cache = self.stmts.borrow_mut();
        if cache.len() >= 256 {
            cache.clear();
        }
        cache.insert(sql.to_string(), s.clone());
        Ok(s)
    }
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/db`) and brings
    /// its schema up to date.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        let shown = hide_password(url);
        let mut config: tokio_postgres::Config = url.parse().map_err(|e| {
            StoreError::Database(format!(
                "the database URL {shown} is not a PostgreSQL URL ({e}); write it as \
                 postgres://USER:PASSWORD@HOST:PORT/DATABASE"
            ))
        })?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(5));
        }
        config.keepalives_idle(Duration::from_secs(30));
        config.application_name("tabletop");
        let mut store = Self {
            config,
            shown,
            conn: None,
        };
        store.connect()?;
        store.migrate()?;
        Ok(store)
    }

    /// The URL in use, password hidden.
    pub fn url(&self) -> &str {
        &self.shown
    }

    fn connect(&mut self) -> Result<&PgConn, StoreError> {
        if self.conn.as_ref().is_some_and(|c| c.client.is_closed()) {
            self.conn = None;
        }
        if self.conn.is_none() {
            let config = self.config.clone();
            let task = IO.spawn(async move {
                let (client, connection) = config.connect(NoTls).await?;
                tokio::spawn(async move {
                    if let Err(e) = connection.await {
                        tracing::warn!("PostgreSQL connection ended: {e}");
                    }
                });
                Ok::<_, tokio_postgres::Error>(client)
            });
            let client = wait(task)
                .map_err(|e| StoreError::Database(format!("PostgreSQL connect task: {e}")))?
                .map_err(|e| {
                    StoreError::Unavailable(format!(
                        "cannot connect to PostgreSQL at {}: {}; check that the server is \
                         running and that --database / TABLETOP_DATABASE_URL names the right \
                         host, port, user, password and database",
                        self.shown,
                        detail(&e)
                    ))
                })?;
            self.conn = Some(PgConn {
                client,
                stmts: RefCell::new(HashMap::new()),
                decoded: Default::default(),
            });
        }
        self.conn
            .as_ref()
            .ok_or_else(|| StoreError::Database("internal: no PostgreSQL connection".into()))
    }

    /// Applies the missing migrations, one transaction each, under an advisory lock so that
    /// processes starting together migrate once. Refuses a schema newer than this build.
    fn migrate(&mut self) -> Result<(), StoreError> {
        let known = MIGRATIONS.last().map_or(0, |m| m.0);
        let conn = self.connect()?;
        let run = |sql: &str| wait(conn.client.batch_execute(sql)).map_err(pg_error);
        run("BEGIN; SELECT pg_advisory_xact_lock(7361626);
             CREATE TABLE IF NOT EXISTS tabletop_schema (version BIGINT NOT NULL);
             INSERT INTO tabletop_schema (version)
                 SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM tabletop_schema);")?;
        let result = (|| {
            let row = wait(
                conn.client
                    .query_one("SELECT version FROM tabletop_schema", &[]),
            )
            .map_err(pg_error)?;
            let current: i64 = row.get(0);
            if current > known {
                return Err(StoreError::SchemaTooNew {
                    found: current,
                    known,
                });
            }
            for (n, sql) in MIGRATIONS.iter().filter(|m| m.0 > current) {
                run(sql).map_err(|e| {
                    StoreError::Database(format!(
                        "migration {n} failed: {e}; nothing of it was applied"
                    ))
                })?;
                wait(
                    conn.client
                        .execute("UPDATE tabletop_schema SET version = $1", &[n]),
                )
                .map_err(pg_error)?;
            }
            Ok(())
        })();
        match result {
            Ok(()) => run("COMMIT"),
            Err(e) => {
                let _ = run("ROLLBACK");
                Err(e)
            }
        }
    }
}

impl super::Store for PgStore {
    type Txn<'a> = PgTx<'a>;

    fn begin(&mut self, write: bool) -> Result<PgTx<'_>, StoreError> {
        let begin = if write {
            "BEGIN ISOLATION LEVEL READ COMMITTED"
        } else {
            "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        };
        // A connection lost since the last call (server restart, network) is replaced here;
        // the BEGIN itself travels with the transaction's first statement.
        if self.conn.as_ref().is_some_and(|c| c.client.is_closed()) {
            self.conn = None;
        }
        let conn = self.connect()?;
        Ok(PgTx::new(conn, begin))
    }
}

impl Transaction for PgTx<'_> {
    fn commit(mut self) -> Result<(), StoreError> {
        self.open = false;
        if !self.started() && self.queued_is_empty() {
            // Nothing was sent: nothing to commit.
            return Ok(());
        }
        let done = self.send(self.conn.client.batch_execute("COMMIT"));
        if done.is_err() && !self.conn.client.is_closed() {
            let _ = wait(self.conn.client.batch_execute("ROLLBACK"));
        }
        done
    }
}

impl Drop for PgTx<'_> {
    fn drop(&mut self) {
        // Queued writes are dropped unsent; a BEGIN never sent needs no ROLLBACK.
        if self.open && self.started() && !self.conn.client.is_closed() {
            // Nothing to report to; a failure here leaves a closed connection, replaced by
            // the next `begin`.
            let _ = wait(self.conn.client.batch_execute("ROLLBACK"));
        }
    }
}

/// A PostgreSQL error as a store error: conflicts become [`StoreError::Conflict`], a lost
/// connection [`StoreError::Unavailable`].
pub(crate) fn pg_error(e: tokio_postgres::Error) -> StoreError {
    if let Some(code) = e.code() {
        if *code == SqlState::T_R_SERIALIZATION_FAILURE || *code == SqlState::T_R_DEADLOCK_DETECTED
        {
            return StoreError::Conflict(detail(&e));
        }
        if *code == SqlState::ADMIN_SHUTDOWN
            || *code == SqlState::CRASH_SHUTDOWN
            || *code == SqlState::CANNOT_CONNECT_NOW
        {
            return unavailable(&e);
        }
        if *code == SqlState::DISK_FULL {
            return StoreError::Full(format!("PostgreSQL: {}", detail(&e)));
        }
        return StoreError::Database(detail(&e));
    }
    if e.is_closed() || std::error::Error::source(&e).is_some_and(|s| s.is::<std::io::Error>()) {
        return unavailable(&e);
    }
    StoreError::Database(detail(&e))
}

fn unavailable(e: &tokio_postgres::Error) -> StoreError {
    StoreError::Unavailable(format!(
        "the connection to PostgreSQL was lost ({}); the call was not committed, so nothing \
         of it was written. Check that the database server is running, then retry (the next \
         call reconnects)",
        detail(e)
    ))
}

/// The database's own message (`tokio_postgres::Error`'s Display hides it behind "db error").
fn detail(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{}: {}", db.code().code(), db.message()),
        None => match std::error::Error::source(e) {
            Some(s) => format!("{e}: {s}"),
            None => e.to_string(),
        },
    }
}

/// `postgres://user:secret@host/db` → `postgres://user:***@host/db` (key=value strings: the
/// `password=` value).
pub fn hide_password(url: &str) -> String {
    if let Some(start) = url.find("://").map(|i| i + 3) {
        let rest = &url[start..];
        let authority = rest.find('/').map_or(rest, |i| &rest[..i]);
        if let Some(at) = authority.rfind('@') {
            let userinfo = &authority[..at];
            if let Some(colon) = userinfo.find(':') {
                return format!("{}{}:***{}", &url[..start], &userinfo[..colon], &rest[at..]);
            }
        }
        return url.to_string();
    }
    url.split_whitespace()
        .map(|kv| {
            if kv.starts_with("password=") {
                "password=***"
            } else {
                kv
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn passwords_are_hidden_in_messages() {
        assert_eq!(
            super::hide_password("postgres://ana:s3cret@db:5432/tt"),
            "postgres://ana:***@db:5432/tt"
        );
        assert_eq!(
            super::hide_password("postgres://ana@db/tt"),
            "postgres://ana@db/tt"
        );
        assert_eq!(
            super::hide_password("mysql://ana:pw@db/tt"),
            "mysql://ana:***@db/tt"
        );
        assert_eq!(
            super::hide_password("host=db password=x user=y"),
            "host=db password=*** user=y"
        );
    }
}
