//! The protected audit record of a tool call, and the subject references
//! the application puts into the session for it.

use serde::{Deserialize, Serialize};

use crate::model_result::{Delivery, ExecutionOutcome};
use tool_core::OutputKind;
use tool_core::Version;

/// The `schema_version` of every [`AuditRecord`].
pub const AUDIT_SCHEMA_VERSION: &str = "tool-audit-v1";

/// What the application keeps about one call: never sent to the model.
///
/// It names who the call was for (the [`Subjects`] of the session), which
/// tool and contract version ran, how it ended and how long it took, and
/// binds all of it to the exact arguments through their SHA-256 (see
/// [`arguments_sha256`](tool_core::outcome::arguments_sha256)) rather than the arguments
/// themselves, which may hold personal data. It also keeps what the model
/// must not see: the internal reason of an `INTERNAL` error, and an error
/// code the tool answered with that its contract does not declare.
///
/// # JSON
///
/// ```json
/// {
///   "schema_version": "tool-audit-v1",
///   "call_id": "call_7",
///   "tool": "reserve_inventory",
///   "contract_version": "1.0.0",
///   "subjects": [{"kind": "tenant", "id": "acme"}, {"kind": "customer", "id": "cus_42"}],
///   "started_at": "2026-05-04T09:30:00.000Z",
///   "duration_ms": 41,
///   "arguments_sha256": "5f0c…(64 hex digits)",
///   "result": "success",
///   "error_code": null,
///   "outcome": "completed",
///   "delivery": "fresh",
///   "approval_id": "appr-1",
///   "idempotency_key": "0b7e9a52-…",
///   "undeclared_error_code": null,
///   "internal_detail": null
/// }
/// ```
///
/// `contract_version` is `null` for a call of an unknown tool; `result` is
/// `"success"`, `"respond_to_model"` or `"fatal"`; `outcome` and `delivery`
/// are as in the model result's `execution`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditRecord {
    /// Always [`AUDIT_SCHEMA_VERSION`].
    pub schema_version: String,
    /// The provider's id of the call.
    pub call_id: String,
    /// The tool name the model called (cut to 256 characters).
    pub tool: String,
    /// The contract version the call was served at (an older version's,
    /// when the call was upgraded into a newer version's handler); `None`
    /// for an unknown tool or a pin to a version that is not served.
    pub contract_version: Option<Version>,
    /// Who the call was made for, from the session's [`Subjects`].
    pub subjects: Vec<Subject>,
    /// When the call started, RFC 3339 in UTC with milliseconds.
    pub started_at: String,
    /// How long the call took, in milliseconds.
    pub duration_ms: u64,
    /// SHA-256 of the canonical arguments, 64 lowercase hex digits.
    pub arguments_sha256: String,
    /// Which of the three outcomes the call ended with.
    pub result: OutputKind,
    /// The error code the call ended with, if it did not succeed.
    pub error_code: Option<String>,
    /// How far the call got.
    pub outcome: ExecutionOutcome,
    /// Whether the result was replayed from an earlier call.
    pub delivery: Delivery,
    /// The id of the approval this call used, if it needed one.
    pub approval_id: Option<String>,
    /// The value of the tool's idempotency key, if it has one.
    pub idempotency_key: Option<String>,
    /// A code the tool answered with that its contract does not declare;
    /// the model was told `INTERNAL` instead.
    pub undeclared_error_code: Option<String>,
    /// Why the call failed internally (a panic, also one while the
    /// handler's future was dropped; a missing session value or runtime
    /// service such as `Approvals` or `Subjects`; a broken contract; an
    /// output that would not serialize; a handler that overran its time
    /// limit by blocking), the cause of a handler's error and the words of
    /// an undeclared one; never shown to the model.
    pub internal_detail: Option<String>,
}

/// A reference to someone or something a call is made for or about: the
/// signed-in user, the tenant, the case.
///
/// ```json
/// {"kind": "customer", "id": "cus_42"}
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Subject {
    /// What the id refers to, e.g. `tenant` or `customer`.
    pub kind: String,
    /// The reference, e.g. `cus_42`: an id, never a name or other
    /// personal data.
    pub id: String,
}

/// The subject references of a session, which every audit record of its
/// calls names; also the scope of idempotency keys, so that two customers
/// who happen to send the same key never see each other's results.
///
/// Put one into the [`Session`](tool_core::Session):
///
/// ```
/// use tool_contract::Session;
/// use tool_contract::audit::Subjects;
///
/// let session = Session::new().with(Subjects::new().with("tenant", "acme").with("customer", "cus_42"));
/// let subjects = session.get::<Subjects>().unwrap();
/// assert_eq!(subjects.as_slice()[1].id, "cus_42");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Subjects(Vec<Subject>);

impl Subjects {
    /// No subjects.
    pub fn new() -> Self {
        Subjects(Vec::new())
    }

    /// Adds a reference and returns the set.
    #[must_use]
    pub fn with(mut self, kind: impl Into<String>, id: impl Into<String>) -> Self {
        self.push(kind, id);
        self
    }

    /// Adds a reference.
    pub fn push(&mut self, kind: impl Into<String>, id: impl Into<String>) {
        self.0.push(Subject {
            kind: kind.into(),
            id: id.into(),
        });
    }

    /// The references in the order they were added.
    pub fn as_slice(&self) -> &[Subject] {
        &self.0
    }
}

impl FromIterator<Subject> for Subjects {
    fn from_iter<I: IntoIterator<Item = Subject>>(iter: I) -> Self {
        Subjects(iter.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_serializes_every_field_and_reads_back() {
        let record = AuditRecord {
            schema_version: AUDIT_SCHEMA_VERSION.into(),
            call_id: "call_1".into(),
            tool: "lookup_thing".into(),
            contract_version: None,
            subjects: Subjects::new().with("tenant", "acme").as_slice().to_vec(),
            started_at: "1970-01-01T00:00:00.000Z".into(),
            duration_ms: 3,
            arguments_sha256: "00".repeat(32),
            result: OutputKind::RespondToModel,
            error_code: Some("UNKNOWN_TOOL".into()),
            outcome: ExecutionOutcome::NotStarted,
            delivery: Delivery::Fresh,
            approval_id: None,
            idempotency_key: None,
            undeclared_error_code: None,
            internal_detail: None,
        };
        let json = serde_json::to_string(&record).unwrap();
        assert_eq!(
            json,
            format!(
                r#"{{"schema_version":"tool-audit-v1","call_id":"call_1","tool":"lookup_thing","contract_version":null,"subjects":[{{"kind":"tenant","id":"acme"}}],"started_at":"1970-01-01T00:00:00.000Z","duration_ms":3,"arguments_sha256":"{}","result":"respond_to_model","error_code":"UNKNOWN_TOOL","outcome":"not_started","delivery":"fresh","approval_id":null,"idempotency_key":null,"undeclared_error_code":null,"internal_detail":null}}"#,
                "00".repeat(32)
            )
        );
        assert_eq!(serde_json::from_str::<AuditRecord>(&json).unwrap(), record);
    }
}
