//! The storage layer's error: the one type a store reports, kept apart from the store traits so
//! the engine's error type can wrap it without importing the whole store.

/// A failure of the storage layer (I/O, corruption, a migration).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
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
}
