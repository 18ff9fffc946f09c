//! The storage layer's error: the one type a store reports, kept apart from the store traits so
//! the engine's error type can wrap it without importing the whole store.

/// A failure of the storage layer (I/O, corruption, a migration).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another process held the campaign's database for longer than the busy timeout.
    #[error(
        "the campaign is busy: another session kept it locked for {seconds} s; retry the call in a moment (nothing was changed)"
    )]
    Busy {
        /// How long the store waited.
        seconds: u64,
    },
    /// A write referred to a record another session removed meanwhile.
    #[error(
        "the call refers to something that no longer exists in this campaign (removed by another session?); nothing was changed: look it up again and retry"
    )]
    Vanished,
    /// The underlying database reported an error.
    #[error("database error: {0}")]
    Database(String),
    /// A stored document could not be read back.
    #[error("stored {what} is unreadable: {detail}")]
    Corrupt {
        /// What was being read.
        what: String,
        /// The decoder's message.
        detail: String,
    },
    /// Another writer of the same campaign conflicted with this one (PostgreSQL: a
    /// serialization failure or a deadlock) and the bounded retries did not get through.
    #[error(
        "the campaign is busy (other servers are writing to it at the same time: {0}); nothing \
         of this call was written, retry it"
    )]
    Conflict(String),
    /// The database server cannot be reached or went away; nothing of the call was committed.
    #[error("{0}")]
    Unavailable(String),
    /// The disk (or the database server's storage) holding the campaign store is full.
    #[error(
        "the disk holding the campaign store is full, so this call could not be written (nothing \
         of it was): free space on that disk ({0}), then retry"
    )]
    Full(String),
    /// The database was migrated by a newer Tabletop.
    #[error(
        "the database schema is version {found}, newer than this Tabletop knows (up to \
         {known}); nothing was changed. Upgrade Tabletop, or point it at another database"
    )]
    SchemaTooNew {
        /// The database's schema version.
        found: i64,
        /// The newest version this build knows.
        known: i64,
    },
}

impl StoreError {
    /// Whether re-running the whole call may succeed (a write conflict).
    pub fn is_conflict(&self) -> bool {
        matches!(self, StoreError::Conflict(_))
    }
}

/// How long a call waits for another session's write before answering "busy".
pub const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        use rusqlite::ffi::ErrorCode;
        match e.sqlite_error_code() {
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Busy {
                seconds: BUSY_TIMEOUT.as_secs(),
            },
            Some(ErrorCode::DiskFull) => {
                StoreError::Full("SQLite: database or disk is full".into())
            }
            Some(ErrorCode::ConstraintViolation)
                if e.to_string().contains("FOREIGN KEY constraint failed") =>
            {
                StoreError::Vanished
            }
            _ => StoreError::Database(e.to_string()),
        }
    }
}
