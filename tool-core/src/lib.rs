//! Provider-neutral runtime of [tool-contract]: the [`Tool`] trait, tool
//! contracts, the trusted [`Session`], argument parsing support and errors,
//! [`Money`], and the JSON Schemas of a tool's input and output.
//!
//! Applications use it through the `tool-contract` facade crate, which
//! re-exports everything here together with `#[derive(Tool)]`.
//!
//! [tool-contract]: https://github.com/tool-contract/tool-contract
#![deny(missing_docs)]

pub mod constraint;
mod contract;
mod error;
pub mod formats;
mod humanize;
mod money;
mod parse;
mod path;
mod schema;
mod session;
mod strict;
mod tool;

pub use contract::{
    Approval, Bound, Constraint, DataClass, DeclaredError, Effect, ErrorCategory, FieldContract,
    Idempotency, OutputContract, Policy, Presence, Recovery, Rule, ToolContract, Version, Waiver,
};
pub use error::{ArgumentError, ArgumentErrorKind};
pub use money::{Currency, Money};
pub use path::field_path;
pub use schema::{SchemaFn, schema_settings};
pub use session::{DEFAULT_MAX_ARGUMENT_BYTES, Session};
pub use tool::{IdempotencyKey, Tool};

// --- outputs, errors and dispatch (issue 4): modules and re-exports go here ---
mod approval;
mod audit;
mod canonical;
mod idempotency;
mod model_result;
mod output;
#[cfg(feature = "runtime")]
pub mod runtime;
pub use approval::{ApprovalCheck, ApprovalGrant, ApprovalRequest, Approvals};
pub use audit::{AUDIT_SCHEMA_VERSION, AuditRecord, Subject, Subjects};
pub use canonical::{arguments_sha256, canonical_arguments, canonical_json};
pub use idempotency::{
    BoxFuture, Claim, IdempotencyError, IdempotencyRecord, IdempotencyScope, IdempotencyStore,
    InMemoryIdempotencyStore,
};
pub use model_result::{
    Delivery, Execution, ExecutionOutcome, MODEL_RESULT_SCHEMA_VERSION, ModelResult, Provenance,
    ResultStatus, Trust, format_rfc3339,
};
pub use output::{OutputKind, ToolError, ToolOutput};
#[cfg(feature = "runtime")]
pub use runtime::{AbortHandle, CallContext, CallResult, ToolCall, Toolbox};

// --- docs, catalog, fingerprints and lock files (issue 5): modules and re-exports go here ---
mod catalog;
mod change;
mod describe;
mod diff;
mod docs;
mod fingerprint;
mod lock;
mod schema_diff;
pub use catalog::{CATALOG_FORMAT, Catalog};
pub use change::{Bump, Change, ChangeKind};
pub use lock::{
    ContractLock, Drift, LOCK_FORMAT, LockError, LockMode, LockedTool, UPDATE_LOCK_ENV,
    check_contracts_locked,
};

/// What the code that `#[derive(Tool)]` generates refers to. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::constraint::{
        Pattern, format, max_items, max_length, maximum, min_items, min_length, minimum, pattern,
    };
    pub use crate::contract::ContractParts;
    pub use crate::parse::{ParseState, inject, inject_optional, next_key, next_value, parse_map};
    pub use crate::schema::{root_schema_of, schema_of};
    pub use crate::{
        Approval, ArgumentError, Bound, Constraint, DataClass, DeclaredError, Effect,
        ErrorCategory, FieldContract, Idempotency, IdempotencyKey, OutputContract, Policy,
        Presence, Recovery, Rule, Session, Tool, ToolContract, Version, Waiver,
    };
    pub use serde::de;
    pub use serde_json::Value;

    // Temporary: the names tool-core takes in the rename happening beside
    // this change; these three lines go at the merge.
    pub use crate::Bound as NumberBound;
    pub use crate::IdempotencyKey as AsIdempotencyKey;
    pub use crate::Rule as ContractRule;
}
