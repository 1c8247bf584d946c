//! The stores' error: a message for the audit record, never for the model.

use std::fmt;

/// A failure of the database or the pool: unreachable, a lost connection,
/// a statement timeout, a constraint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreError {
    message: String,
}

impl StoreError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        StoreError {
            message: message.into(),
        }
    }

    /// What failed.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StoreError {}

impl From<tokio_postgres::Error> for StoreError {
    fn from(error: tokio_postgres::Error) -> Self {
        // The server's own message (e.g. "canceling statement due to
        // statement timeout") says more than the driver's summary.
        match error.as_db_error() {
            Some(db) => StoreError::new(format!("{}: {}", db.code().code(), db.message())),
            None => {
                // The driver's summary ("error connecting to server") and
                // the cause under it ("Connection refused").
                let mut message = error.to_string();
                let mut source = std::error::Error::source(&error);
                while let Some(cause) = source {
                    message.push_str(&format!(": {cause}"));
                    source = cause.source();
                }
                StoreError::new(message)
            }
        }
    }
}

impl From<deadpool_postgres::PoolError> for StoreError {
    fn from(error: deadpool_postgres::PoolError) -> Self {
        match error {
            deadpool_postgres::PoolError::Backend(error) => StoreError::from(error),
            other => StoreError::new(format!("no database connection: {other}")),
        }
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(error: serde_json::Error) -> Self {
        StoreError::new(format!("a stored value did not read back: {error}"))
    }
}
