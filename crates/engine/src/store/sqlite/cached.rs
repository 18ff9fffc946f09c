//! Statements through the connection's cache: each SQL text is parsed once per connection, not
//! once per call (the store's one-shot `query_row`/`execute` calls go through here).

impl super::SqliteTx<'_> {
    /// `query_row` through the connection's statement cache: a statement is parsed once per
    /// connection, not once per call.
    pub(super) fn query_row<T, P: rusqlite::Params>(
        &self,
        sql: &str,
        params: P,
        f: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<T> {
        self.tx.prepare_cached(sql)?.query_row(params, f)
    }

    /// `execute` through the connection's statement cache.
    pub(super) fn execute<P: rusqlite::Params>(
        &self,
        sql: &str,
        params: P,
    ) -> rusqlite::Result<usize> {
        self.tx.prepare_cached(sql)?.execute(params)
    }
}
