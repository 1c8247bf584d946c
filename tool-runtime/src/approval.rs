//! Approvals for tools whose contract says `approval = "required"`: each is
//! bound to one tool, one contract version, one exact argument hash and the
//! session's subjects, and is used up by the call it approves.
//!
//! # Scope
//!
//! A grant authorizes exactly the call the user saw: the same tool, the same
//! contract version, the same canonical arguments (see
//! [`CanonicalArguments`]: exact
//! integers, `null` and absent alike where the contract reads them alike)
//! and the same [`Subjects`] of the session, so a
//! grant made in customer A's session does not run the call in customer
//! B's, even when both sessions share one [`Approvals`]. The version is the
//! one the call is served at: a grant of a call at an older version served
//! through a newer handler (`Toolbox::serve_older`) names the older version,
//! so it never runs a call at the newer one, even with the same arguments. A tool that takes
//! injected values needs a non-empty `Subjects` in the session, and every approved tool
//! needs one source of grants, `Approvals` there or an [`ApprovalStore`] on the toolbox
//! (not both): without them the call is the application's
//! configuration error (fatal `INTERNAL`, the reason in the audit record),
//! not an `APPROVAL_REQUIRED` the user could never satisfy.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use crate::audit::{Subject, Subjects};
use crate::idempotency::BoxFuture;
use serde::{Deserialize, Serialize};

use crate::store_fault::StoreFault;
use tool_core::Tool;
use tool_core::Version;
use tool_core::outcome::{CanonicalArguments, arguments_sha256};

/// What a call that needs an approval asks for: shown to the user, who
/// approves exactly this call (or does not).
///
/// The runtime returns it when it refuses a call with `APPROVAL_REQUIRED`.
///
/// ```json
/// {
///   "call_id": "call_2",
///   "tool": "reserve_inventory",
///   "contract_version": "1.0.0",
///   "subjects": [{"kind": "customer", "id": "cus_42"}],
///   "arguments_sha256": "…64 hex digits…",
///   "arguments": {"quantity": 2, "request_id": "0b7e9a52-…", "sku": "SKU-1042"}
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalRequest {
    /// The id of the call that was refused.
    pub call_id: String,
    /// The tool's name.
    pub tool: String,
    /// The contract version the approval must name.
    pub contract_version: Version,
    /// The session's subjects, whom the approval is for.
    pub subjects: Vec<Subject>,
    /// The SHA-256 of the canonical arguments the approval must name.
    pub arguments_sha256: String,
    /// The canonical arguments, to show the user exactly what they approve
    /// (every number as the model wrote it).
    pub arguments: CanonicalArguments,
}

impl ApprovalRequest {
    /// The grant that approves exactly this call; `approval_id` is the
    /// application's id for the user's decision, kept in the audit record.
    pub fn approve(&self, approval_id: impl Into<String>) -> ApprovalGrant {
        ApprovalGrant {
            approval_id: approval_id.into(),
            tool: self.tool.clone(),
            contract_version: self.contract_version,
            subjects: self.subjects.clone(),
            arguments_sha256: self.arguments_sha256.clone(),
        }
    }
}

/// A user's approval of one call: this tool, this contract version, these
/// exact arguments, for these subjects. Good for one call.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ApprovalGrant {
    /// The application's id for the approval, kept in the audit record.
    pub approval_id: String,
    /// The tool's name.
    pub tool: String,
    /// The contract version approved.
    pub contract_version: Version,
    /// The subjects of the session the approval holds in (empty for a
    /// session without [`Subjects`]).
    pub subjects: Vec<Subject>,
    /// The SHA-256 of the canonical arguments approved.
    pub arguments_sha256: String,
}

impl ApprovalGrant {
    /// An approval of a call of `tool` at `contract_version` with the
    /// arguments whose hash is `arguments_sha256`, in a session without
    /// subjects (see [`for_subjects`](Self::for_subjects)).
    pub fn new(
        approval_id: impl Into<String>,
        tool: impl Into<String>,
        contract_version: Version,
        arguments_sha256: impl Into<String>,
    ) -> Self {
        ApprovalGrant {
            approval_id: approval_id.into(),
            tool: tool.into(),
            contract_version,
            subjects: Vec::new(),
            arguments_sha256: arguments_sha256.into(),
        }
    }

    /// The same approval, held only in sessions with these subjects.
    #[must_use]
    pub fn for_subjects(mut self, subjects: &Subjects) -> Self {
        self.subjects = subjects.as_slice().to_vec();
        self
    }

    /// An approval of a call of `T` (at its current contract version) with
    /// exactly this argument text (hashed as the runtime hashes it), in a
    /// session without subjects.
    pub fn for_call<T: Tool>(approval_id: impl Into<String>, arguments: &str) -> Self {
        let contract = T::contract();
        let hash = CanonicalArguments::of(T::input_schema(), arguments)
            .map_or_else(|| arguments_sha256(arguments), |c| c.sha256());
        ApprovalGrant::new(approval_id, contract.name(), contract.version(), hash)
    }

    fn binds(
        &self,
        tool: &str,
        version: Version,
        arguments_sha256: &str,
        subjects: &[Subject],
    ) -> bool {
        self.tool == tool
            && self.contract_version == version
            && self.arguments_sha256 == arguments_sha256
            && self.subjects == subjects
    }
}

/// The approvals of one conversation; put a clone into the
/// [`Session`](tool_core::Session) and grant approvals through another.
///
/// Clones share the same approvals, so a grant made after the session was
/// built still counts, and a grant used by one call is used for all.
///
/// ```
/// use tool_contract::Session;
/// use tool_contract::approval::{ApprovalCheck, ApprovalGrant, Approvals};
/// use tool_contract::contract::Version;
///
/// let approvals = Approvals::new();
/// let session = Session::new().with(approvals.clone());
/// let v1 = Version::new(1, 0, 0);
/// approvals.grant(ApprovalGrant::new("appr-1", "reserve_inventory", v1, "ab12"));
///
/// let in_session = session.get::<Approvals>().unwrap();
/// assert!(matches!(in_session.consume("reserve_inventory", v1, "ab12", &[]), ApprovalCheck::Granted(_)));
/// assert_eq!(in_session.consume("reserve_inventory", v1, "ab12", &[]), ApprovalCheck::AlreadyUsed);
/// assert_eq!(in_session.consume("reserve_inventory", v1, "cd34", &[]), ApprovalCheck::Missing);
/// ```
#[derive(Clone, Default)]
pub struct Approvals {
    grants: Arc<Mutex<Vec<Slot>>>,
}

struct Slot {
    grant: ApprovalGrant,
    used: bool,
}

/// What [`Approvals::consume`] found for a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApprovalCheck {
    /// An unused approval bound to the call; it is now used.
    Granted(ApprovalGrant),
    /// No approval bound to this tool, version and arguments.
    Missing,
    /// Every approval bound to the call has been used by an earlier call.
    AlreadyUsed,
}

impl Approvals {
    /// No approvals.
    pub fn new() -> Self {
        Approvals::default()
    }

    /// Adds an approval.
    pub fn grant(&self, grant: ApprovalGrant) {
        self.lock().push(Slot { grant, used: false });
    }

    /// Takes an unused approval bound to this tool, version, argument hash
    /// and subjects, marking it used, so that no later call can use it again.
    pub fn consume(
        &self,
        tool: &str,
        version: Version,
        arguments_sha256: &str,
        subjects: &[Subject],
    ) -> ApprovalCheck {
        let mut slots = self.lock();
        let mut bound = slots
            .iter_mut()
            .filter(|slot| slot.grant.binds(tool, version, arguments_sha256, subjects))
            .peekable();
        if bound.peek().is_none() {
            return ApprovalCheck::Missing;
        }
        match bound.find(|slot| !slot.used) {
            Some(slot) => {
                slot.used = true;
                ApprovalCheck::Granted(slot.grant.clone())
            }
            None => ApprovalCheck::AlreadyUsed,
        }
    }

    /// How many approvals have not been used yet.
    pub fn unused(&self) -> usize {
        self.lock().iter().filter(|slot| !slot.used).count()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Slot>> {
        // A panic elsewhere cannot leave the list half-written: every
        // change is a single push or flag write.
        self.grants.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl fmt::Debug for Approvals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let slots = self.lock();
        f.debug_struct("Approvals")
            .field("granted", &slots.len())
            .field("unused", &slots.iter().filter(|slot| !slot.used).count())
            .finish()
    }
}

/// A failure of an [`ApprovalStore`] itself (e.g. its database is
/// unreachable). The runtime does not run the call and keeps the message in
/// the audit record only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApprovalStoreError {
    fault: StoreFault,
    message: String,
}

impl ApprovalStoreError {
    /// A failure of a store that did not answer or could not be reached
    /// ([`StoreFault::Unavailable`]), with an internal message.
    pub fn new(message: impl Into<String>) -> Self {
        ApprovalStoreError {
            fault: StoreFault::Unavailable,
            message: message.into(),
        }
    }

    /// A failure of a store that is not set up to serve the runtime
    /// ([`StoreFault::Misconfigured`]: its tables missing, a grant lacking),
    /// with an internal message that says what to fix.
    pub fn misconfigured(message: impl Into<String>) -> Self {
        ApprovalStoreError {
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

impl fmt::Display for ApprovalStoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "approval store failed: {}", self.message)
    }
}

impl std::error::Error for ApprovalStoreError {}

/// The call an [`ApprovalStore`] is asked to approve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApprovalLookup<'a> {
    /// The tool's name.
    pub tool: &'a str,
    /// The contract version of the tool that runs the call.
    pub contract_version: Version,
    /// The SHA-256 of the call's canonical arguments.
    pub arguments_sha256: &'a str,
    /// The session's subjects.
    pub subjects: &'a [Subject],
}

/// Where the runtime looks for approvals when the toolbox has one
/// ([`Toolbox::with_approval_store`](crate::Toolbox::with_approval_store)):
/// a store shared by several processes, such as a database, in which the
/// application's approval UI records grants. With a store set, a session
/// must not hold [`Approvals`] as well: its grants would never be read, so
/// the call is a configuration error naming both (fatal `INTERNAL`).
///
/// [`consume`](Self::consume) must be atomic: of two concurrent calls that
/// could use one grant, one gets it.
pub trait ApprovalStore: Send + Sync {
    /// Takes an unused, unexpired grant bound to the call, marking it used.
    fn consume<'a>(
        &'a self,
        call: ApprovalLookup<'a>,
    ) -> BoxFuture<'a, Result<ApprovalCheck, ApprovalStoreError>>;

    /// Whether every approved call needs a non-empty [`Subjects`] in its
    /// session (see
    /// [`IdempotencyStore::requires_principal`](crate::idempotency::IdempotencyStore::requires_principal));
    /// the default is `false`.
    fn requires_principal(&self) -> bool {
        false
    }
}

impl ApprovalStore for Approvals {
    fn consume<'a>(
        &'a self,
        call: ApprovalLookup<'a>,
    ) -> BoxFuture<'a, Result<ApprovalCheck, ApprovalStoreError>> {
        let check = Approvals::consume(
            self,
            call.tool,
            call.contract_version,
            call.arguments_sha256,
            call.subjects,
        );
        Box::pin(std::future::ready(Ok(check)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_approval_binds_tool_version_and_arguments_once() {
        let v1 = Version::new(1, 0, 0);
        let approvals = Approvals::new();
        approvals.grant(ApprovalGrant::new("a", "reserve", v1, "h1"));
        approvals.grant(ApprovalGrant::new("b", "reserve", v1, "h1"));
        assert_eq!(
            approvals.consume("release", v1, "h1", &[]),
            ApprovalCheck::Missing
        );
        assert_eq!(
            approvals.consume("reserve", Version::new(1, 1, 0), "h1", &[]),
            ApprovalCheck::Missing
        );
        assert_eq!(
            approvals.consume("reserve", v1, "h2", &[]),
            ApprovalCheck::Missing
        );
        let first = approvals.consume("reserve", v1, "h1", &[]);
        assert!(matches!(first, ApprovalCheck::Granted(ref g) if g.approval_id == "a"));
        assert_eq!(approvals.unused(), 1);
        let second = approvals.consume("reserve", v1, "h1", &[]);
        assert!(matches!(second, ApprovalCheck::Granted(ref g) if g.approval_id == "b"));
        assert_eq!(
            approvals.consume("reserve", v1, "h1", &[]),
            ApprovalCheck::AlreadyUsed
        );
        assert_eq!(
            format!("{approvals:?}"),
            "Approvals { granted: 2, unused: 0 }"
        );
    }

    #[test]
    fn a_request_approves_itself() {
        let request = ApprovalRequest {
            call_id: "c".into(),
            tool: "reserve".into(),
            contract_version: Version::new(2, 0, 0),
            subjects: Vec::new(),
            arguments_sha256: "h".into(),
            arguments: serde_json::from_str("{}").unwrap(),
        };
        assert_eq!(
            request.approve("appr-9"),
            ApprovalGrant::new("appr-9", "reserve", Version::new(2, 0, 0), "h")
        );
    }
}
