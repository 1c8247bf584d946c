//! What kind of failure a store reported ([`StoreFault`]), which decides
//! how the runtime answers the call that needed the store.

use std::fmt;

/// What kind of failure an [`IdempotencyStore`](crate::idempotency::IdempotencyStore),
/// [`ApprovalStore`](crate::approval::ApprovalStore) or
/// [`AuditSink`](crate::audit_sink::AuditSink) reported: whether a later
/// try can help.
///
/// A call that needed the store before it ran is not run either way:
/// - [`Unavailable`](Self::Unavailable): the model reads
///   `POLICY_STORE_UNAVAILABLE` and is told to try again in a moment;
/// - [`Misconfigured`](Self::Misconfigured): no retry can help, so the
///   call ends as a fatal `INTERNAL` (the run stops; the store's message is
///   in the audit record's `internal_detail`), instead of the model being
///   told to retry a call that will be refused forever.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StoreFault {
    /// The store did not answer in time, or could not be reached (a
    /// database down, frozen or out of connections).
    #[default]
    Unavailable,
    /// The store is not set up to serve the runtime: its tables are
    /// missing or older than its code, or the application's role lacks a
    /// grant. Someone must fix the deployment.
    Misconfigured,
}

impl StoreFault {
    /// A stable name for logs and metrics: `unavailable` or `misconfigured`.
    pub fn as_str(self) -> &'static str {
        match self {
            StoreFault::Unavailable => "unavailable",
            StoreFault::Misconfigured => "misconfigured",
        }
    }
}

impl fmt::Display for StoreFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_have_stable_names() {
        assert_eq!(StoreFault::default(), StoreFault::Unavailable);
        assert_eq!(StoreFault::Unavailable.to_string(), "unavailable");
        assert_eq!(StoreFault::Misconfigured.to_string(), "misconfigured");
    }
}
