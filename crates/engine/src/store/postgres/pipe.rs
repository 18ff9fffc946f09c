//! One PostgreSQL transaction on one connection, and how it spends round trips: the `BEGIN`
//! and the writes nothing waits for travel with the next statement (see [`PgTx`]). The SQL of
//! each store operation is in `tx.rs`.

use std::cell::{Cell, RefCell};
use std::future::Future;

use tokio_postgres::types::ToSql;
use tokio_postgres::{Row, Statement};

use super::rows::decode;
use super::{PgConn, pg_error, wait};
use crate::store::StoreError;

/// One PostgreSQL transaction; rolled back on drop unless committed.
///
/// Round trips are what a write costs on PostgreSQL, so a transaction sends as few as it can:
/// its `BEGIN` goes out with its first statement, and writes whose answer nothing waits for
/// ([`PgTx::exec_later`]: the character, the dice state, the event) are sent with the next
/// statement or with `COMMIT`, pipelined on the one connection. The database runs them in the
/// order they were issued, so a later read sees them; the first error fails the whole call and
/// nothing of it is committed.
pub struct PgTx<'a> {
    pub(super) conn: &'a PgConn,
    /// Whether COMMIT or ROLLBACK is still due.
    pub(super) open: bool,
    /// The `BEGIN …` not sent yet.
    begin: Cell<Option<&'static str>>,
    /// Writes not sent yet, in order.
    queued: RefCell<Vec<Queued>>,
}

/// A write held back to travel with the next statement.
struct Queued {
    stmt: Statement,
    params: Vec<Box<dyn ToSql + Sync + Send>>,
}

impl<'a> PgTx<'a> {
    pub(super) fn new(conn: &'a PgConn, begin: &'static str) -> Self {
        Self {
            conn,
            open: true,
            begin: Cell::new(Some(begin)),
            queued: RefCell::default(),
        }
    }

    /// Whether no write is waiting to be sent.
    pub(super) fn queued_is_empty(&self) -> bool {
        self.queued.borrow().is_empty()
    }

    /// Whether anything was sent to the database (else there is nothing to commit or roll back).
    pub(super) fn started(&self) -> bool {
        self.begin.get().is_none()
    }

    /// Runs `last` after whatever is still held back (the `BEGIN`, queued writes), all in one
    /// round trip; the first error wins.
    pub(super) fn send<T>(
        &self,
        last: impl Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> Result<T, StoreError> {
        let begin = self.begin.take();
        let queued = std::mem::take(&mut *self.queued.borrow_mut());
        if begin.is_none() && queued.is_empty() {
            return wait(last).map_err(pg_error);
        }
        let client = &self.conn.client;
        let params: Vec<Vec<&(dyn ToSql + Sync)>> = queued
            .iter()
            .map(|q| {
                q.params
                    .iter()
                    .map(|p| p.as_ref() as &(dyn ToSql + Sync))
                    .collect()
            })
            .collect();
        wait(async {
            let begin = async {
                match begin {
                    Some(sql) => client.batch_execute(sql).await,
                    None => Ok(()),
                }
            };
            let writes = futures_util::future::join_all(
                queued
                    .iter()
                    .zip(&params)
                    .map(|(q, p)| client.execute(&q.stmt, p)),
            );
            // Polled together: each request is written before any answer is awaited.
            let (b, w, l) = futures_util::join!(begin, writes, last);
            b?;
            for r in w {
                r?;
            }
            l
        })
        .map_err(pg_error)
    }

    /// Queues a write whose answer nothing needs; it is sent with the next statement or COMMIT.
    pub(super) fn exec_later(
        &self,
        sql: &str,
        params: Vec<Box<dyn ToSql + Sync + Send>>,
    ) -> Result<(), StoreError> {
        let stmt = self.conn.stmt(sql)?;
        self.queued.borrow_mut().push(Queued { stmt, params });
        Ok(())
    }

    pub(super) fn query(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<Row>, StoreError> {
        let stmt = self.conn.stmt(sql)?;
        self.send(self.conn.client.query(&stmt, params))
    }

    pub(super) fn query_opt(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<Row>, StoreError> {
        let stmt = self.conn.stmt(sql)?;
        self.send(self.conn.client.query_opt(&stmt, params))
    }

    pub(super) fn exec(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<u64, StoreError> {
        let stmt = self.conn.stmt(sql)?;
        self.send(self.conn.client.execute(&stmt, params))
    }

    pub(super) fn docs(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<String>, StoreError> {
        Ok(self
            .query(sql, params)?
            .iter()
            .map(|r| r.get::<_, String>(0))
            .collect())
    }

    pub(super) fn doc<T: serde::de::DeserializeOwned>(
        &self,
        what: &str,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<T>, StoreError> {
        self.query_opt(sql, params)?
            .map(|r| decode(what, &r.get::<_, String>(0)))
            .transpose()
    }

    pub(super) fn count(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<u64, StoreError> {
        let n: i64 = self.query_opt(sql, params)?.map(|r| r.get(0)).unwrap_or(0);
        Ok(n.max(0) as u64)
    }
}
