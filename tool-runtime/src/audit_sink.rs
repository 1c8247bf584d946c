//! Where the toolbox writes its audit records as calls run: an
//! [`AuditSink`] set with
//! [`Toolbox::with_audit_sink`](crate::Toolbox::with_audit_sink).
//!
//! # When records are written
//!
//! - A call of a write or destructive tool is announced with
//!   [`AuditSink::started`] before its handler runs (and before its
//!   approval is used). If that write fails, or does not answer within
//!   half the toolbox's [claim grace](crate::Toolbox::with_claim_grace),
//!   the call is not run: the model reads `POLICY_STORE_UNAVAILABLE`
//!   (retry later), outcome `not_started`.
//!   If the sink panics (building its future, polling it, or dropping it)
//!   the call is not run either: a fatal `INTERNAL`, outcome
//!   `not_started`, its idempotency key freed and its grant unused, the
//!   panic's message in the record's `internal_detail`.
//! - Every call, whatever its tool, ends with [`AuditSink::ended`], before
//!   the toolbox returns the result the model will read. For a read, or a
//!   call refused before it was announced (unknown tool, invalid
//!   arguments, a replayed or refused idempotency key), that is the only
//!   write. A write or destructive call that requires approval is
//!   announced before its grant is looked up (so a failing sink leaves the
//!   grant for the retry): when it is then refused (`APPROVAL_REQUIRED`, an
//!   approval store that fails), it has both entries, its end with outcome
//!   `not_started`. If `ended` fails or panics, the call keeps its result
//!   (a read has run and changed nothing) and the failure is reported in
//!   the returned record's `internal_detail` and as a `tracing` error
//!   event. For a write or destructive call the `started` entry stays, with
//!   its outcome unknown until an end is written.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::store_fault::StoreFault;

use crate::audit::{AuditRecord, Subject};
use crate::idempotency::BoxFuture;
use tool_core::Version;

/// What is known of a write or destructive call just before it runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditStart {
    /// Always [`AUDIT_SCHEMA_VERSION`](crate::audit::AUDIT_SCHEMA_VERSION).
    pub schema_version: String,
    /// The provider's id of the call.
    pub call_id: String,
    /// The tool's name.
    pub tool: String,
    /// The contract version the call is served at (an older version's,
    /// when the call is upgraded into a newer version's handler).
    pub contract_version: Version,
    /// Who the call is made for, from the session's
    /// [`Subjects`](crate::audit::Subjects).
    pub subjects: Vec<Subject>,
    /// When the call started, RFC 3339 in UTC with milliseconds.
    pub started_at: String,
    /// SHA-256 of the canonical arguments.
    pub arguments_sha256: String,
    /// The value of the tool's idempotency key, if it has one.
    pub idempotency_key: Option<String>,
}

/// The sink's reference to the entry [`AuditSink::started`] wrote, which
/// [`AuditSink::ended`] completes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AuditEntry(u64);

impl AuditEntry {
    /// An entry with the sink's id for it (e.g. a row id).
    pub fn new(id: u64) -> Self {
        AuditEntry(id)
    }

    /// The sink's id of the entry.
    pub fn id(self) -> u64 {
        self.0
    }
}

/// A failure of an [`AuditSink`] (e.g. its database is unreachable).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditSinkError {
    fault: StoreFault,
    message: String,
}

impl AuditSinkError {
    /// A failure of a store that did not answer or could not be reached
    /// ([`StoreFault::Unavailable`]), with an internal message.
    pub fn new(message: impl Into<String>) -> Self {
        AuditSinkError {
            fault: StoreFault::Unavailable,
            message: message.into(),
        }
    }

    /// A failure of a store that is not set up to serve the runtime
    /// ([`StoreFault::Misconfigured`]: its tables missing, a grant lacking),
    /// with an internal message that says what to fix.
    pub fn misconfigured(message: impl Into<String>) -> Self {
        AuditSinkError {
            fault: StoreFault::Misconfigured,
            message: message.into(),
        }
    }

    /// What kind of failure it is.
    pub fn fault(&self) -> StoreFault {
        self.fault
    }

    /// The internal message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for AuditSinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "audit sink failed: {}", self.message)
    }
}

impl std::error::Error for AuditSinkError {}

/// Where the toolbox writes the audit record of each call (see the
/// [module documentation](self) for when).
pub trait AuditSink: Send + Sync {
    /// Writes that a write or destructive call is about to run; its outcome
    /// is unknown until [`ended`](Self::ended) is written.
    fn started<'a>(
        &'a self,
        start: &'a AuditStart,
    ) -> BoxFuture<'a, Result<AuditEntry, AuditSinkError>>;

    /// Writes the finished record of a call; `entry` is what
    /// [`started`](Self::started) returned for it, if it was announced.
    fn ended<'a>(
        &'a self,
        entry: Option<AuditEntry>,
        record: &'a AuditRecord,
    ) -> BoxFuture<'a, Result<(), AuditSinkError>>;
}
