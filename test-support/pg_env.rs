//! Where the tests find PostgreSQL, shared by the test code of every crate (included with
//! `#[path]`, so it needs no crate of its own).
//!
//! `TABLETOP_TEST_DATABASE_URL` names a server and a database the tests may create databases
//! from (`postgres://postgres@127.0.0.1:5432/postgres`). Each test gets a database of its own,
//! created fresh (named after the test). Without the variable: with `CI` set the test panics
//! (a missing database is a failure there, never a silent pass); otherwise the test is skipped
//! with a line written straight to stderr (past libtest's capture) naming the variable.

#![allow(dead_code)]

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The environment variable naming the test server.
pub const VAR: &str = "TABLETOP_TEST_DATABASE_URL";

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// The test server's URL, or `None` (reported) when none is configured outside CI.
pub fn base_url(test: &str) -> Option<String> {
    match std::env::var(VAR) {
        Ok(u) if !u.trim().is_empty() => Some(u.trim().to_string()),
        _ => {
            if in_ci() {
                panic!(
                    "{test}: {VAR} is not set and CI is set: the PostgreSQL tests must run in CI"
                );
            }
            static SKIPPED: AtomicUsize = AtomicUsize::new(0);
            let n = SKIPPED.fetch_add(1, Ordering::Relaxed) + 1;
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {test}: no PostgreSQL for the tests (set {VAR}=postgres://USER@HOST:PORT/DB \
                 to run them; CI=1 turns this into a failure) [{n} skipped in this binary]"
            );
            None
        }
    }
}

/// `url` with its database replaced by `db`.
pub fn with_database(url: &str, db: &str) -> String {
    let (head, query) = match url.split_once('?') {
        Some((h, q)) => (h, Some(q)),
        None => (url, None),
    };
    let scheme_end = head.find("://").map_or(0, |i| i + 3);
    let base = match head[scheme_end..].find('/') {
        Some(i) => &head[..scheme_end + i],
        None => head,
    };
    match query {
        Some(q) => format!("{base}/{db}?{q}"),
        None => format!("{base}/{db}"),
    }
}

/// A fresh, empty database for `test` (dropped first if a previous run left it), or `None`
/// when no test server is configured (see [`base_url`]).
pub fn fresh_database(test: &str) -> Option<String> {
    let base = base_url(test)?;
    let name: String = format!("tt_{test}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    let admin = base.clone();
    let db = name.clone();
    // On a thread of its own: the caller may be inside a tokio runtime.
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let (client, conn) = tokio_postgres::connect(&admin, tokio_postgres::NoTls)
                .await
                .unwrap_or_else(|e| panic!("cannot reach the test PostgreSQL at {VAR}: {e}"));
            tokio::spawn(conn);
            client
                .batch_execute(&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"))
                .await
                .unwrap();
            client
                .batch_execute(&format!("CREATE DATABASE {db}"))
                .await
                .unwrap();
        });
    })
    .join()
    .unwrap();
    Some(with_database(&base, &name))
}

/// Runs `sql` on the database at `url` (outside any store: to break or inspect it).
pub fn execute(url: &str, sql: &str) -> Result<(), String> {
    let url = url.to_string();
    let sql = sql.to_string();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .map_err(|e| e.to_string())?;
            tokio::spawn(conn);
            client.batch_execute(&sql).await.map_err(|e| e.to_string())
        })
    })
    .join()
    .unwrap()
}

/// The rows of `sql` on the database at `url`, every column read as text.
pub fn rows(url: &str, sql: &str) -> Vec<Vec<String>> {
    let url = url.to_string();
    let sql = sql.to_string();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .unwrap();
            tokio::spawn(conn);
            client
                .simple_query(&sql)
                .await
                .unwrap()
                .into_iter()
                .filter_map(|m| match m {
                    tokio_postgres::SimpleQueryMessage::Row(r) => Some(
                        (0..r.len())
                            .map(|i| r.get(i).unwrap_or_default().to_string())
                            .collect(),
                    ),
                    _ => None,
                })
                .collect()
        })
    })
    .join()
    .unwrap()
}
