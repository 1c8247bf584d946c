//! The stores' error: what failed (a message for the audit record, never
//! for the model) and its kind (whether a retry can help).

use std::fmt;

/// What kind of failure a [`StoreError`] is: whether waiting helps, or the
/// deployment must be fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StoreErrorKind {
    /// The database did not answer in time, refused or lost the
    /// connection, or the pool had no free connection: a later try may
    /// succeed.
    Unavailable,
    /// The database is not prepared for the stores: their tables are
    /// missing or older than this crate (run [`migrate`](crate::migrate)),
    /// or the application's role lacks a grant. Retrying does not help;
    /// [`check`](crate::check) names what is missing.
    Configuration,
    /// The value cannot be stored as given: an approval id longer than 512
    /// bytes, holding U+0000, or already taken by another grant.
    Refused,
    /// Anything else the database reported (a constraint, a value that did
    /// not read back).
    Database,
}

impl StoreErrorKind {
    /// A stable name for logs and metrics: `unavailable`, `configuration`,
    /// `refused` or `database`.
    pub fn as_str(self) -> &'static str {
        match self {
            StoreErrorKind::Unavailable => "unavailable",
            StoreErrorKind::Configuration => "configuration",
            StoreErrorKind::Refused => "refused",
            StoreErrorKind::Database => "database",
        }
    }
}

impl fmt::Display for StoreErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A failure of the database or the pool: unreachable, a lost connection,
/// a statement timeout, a missing table or grant, a value refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreError {
    kind: StoreErrorKind,
    message: String,
}

impl StoreError {
    /// An error of kind [`StoreErrorKind::Database`].
    pub(crate) fn new(message: impl Into<String>) -> Self {
        StoreError::of(StoreErrorKind::Database, message)
    }

    pub(crate) fn of(kind: StoreErrorKind, message: impl Into<String>) -> Self {
        StoreError {
            kind,
            message: message.into(),
        }
    }

    /// What failed.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether a retry can help ([`StoreErrorKind::Unavailable`]) or the
    /// deployment or the value must change.
    pub fn kind(&self) -> StoreErrorKind {
        self.kind
    }
}

impl StoreError {
    /// The runtime's error of the store trait (`IdempotencyError`,
    /// `ApprovalStoreError`, `AuditSinkError`) for this failure, built with
    /// `unavailable` or `misconfigured`: a database that is not prepared
    /// ([`StoreErrorKind::Configuration`]) is a configuration error the
    /// runtime ends the call on (fatal `INTERNAL`), since no retry helps;
    /// every other failure is `POLICY_STORE_UNAVAILABLE` (retry later).
    pub(crate) fn to_runtime<E>(
        &self,
        unavailable: fn(String) -> E,
        misconfigured: fn(String) -> E,
    ) -> E {
        match self.kind {
            StoreErrorKind::Configuration => misconfigured(self.to_string()),
            _ => unavailable(self.to_string()),
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StoreError {}

/// What a SQLSTATE says about the failure, and what to add to the server's
/// message so that a person knows what to do.
fn classify(code: &str) -> (StoreErrorKind, &'static str) {
    match code {
        // undefined_table, undefined_column, undefined_function,
        // invalid_schema_name: the schema is not (fully) migrated.
        "42P01" | "42703" | "42883" | "3F000" => (
            StoreErrorKind::Configuration,
            "; the tool-contract tables are missing or older than this version of tool-store-postgres: run `migrate()` as the role that owns the schema before the first call (`check()` at start-up names what is missing)",
        ),
        // insufficient_privilege.
        "42501" => (
            StoreErrorKind::Configuration,
            "; the application's role lacks a grant the stores need (`check()` names them; the README lists the grants)",
        ),
        // Connection exceptions, operator intervention (shutdown,
        // statement timeout, cancel), insufficient resources, lock waits,
        // serialization failures and deadlocks: the next try may succeed.
        _ if code.starts_with("08")
            || code.starts_with("57")
            || code.starts_with("53")
            || code.starts_with("40")
            || code == "55P03" =>
        {
            (StoreErrorKind::Unavailable, "")
        }
        _ => (StoreErrorKind::Database, ""),
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(error: tokio_postgres::Error) -> Self {
        // The server's own message (e.g. "canceling statement due to
        // statement timeout") says more than the driver's summary.
        match error.as_db_error() {
            Some(db) => {
                let (kind, advice) = classify(db.code().code());
                StoreError::of(
                    kind,
                    format!("{}: {}{advice}", db.code().code(), db.message()),
                )
            }
            None => {
                // The driver's summary ("error connecting to server") and
                // the cause under it ("Connection refused").
                let mut message = error.to_string();
                let mut source = std::error::Error::source(&error);
                while let Some(cause) = source {
                    message.push_str(&format!(": {cause}"));
                    source = cause.source();
                }
                StoreError::of(StoreErrorKind::Unavailable, message)
            }
        }
    }
}

impl From<deadpool_postgres::PoolError> for StoreError {
    fn from(error: deadpool_postgres::PoolError) -> Self {
        match error {
            deadpool_postgres::PoolError::Backend(error) => StoreError::from(error),
            other => StoreError::of(
                StoreErrorKind::Unavailable,
                format!("no database connection: {other}"),
            ),
        }
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(error: serde_json::Error) -> Self {
        StoreError::new(format!("a stored value did not read back: {error}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlstates_are_sorted_by_what_helps() {
        let kinds: Vec<StoreErrorKind> = ["42P01", "42501", "57014", "08006", "40P01", "23505"]
            .into_iter()
            .map(|code| classify(code).0)
            .collect();
        assert_eq!(
            kinds,
            [
                StoreErrorKind::Configuration,
                StoreErrorKind::Configuration,
                StoreErrorKind::Unavailable,
                StoreErrorKind::Unavailable,
                StoreErrorKind::Unavailable,
                StoreErrorKind::Database,
            ]
        );
    }
}
