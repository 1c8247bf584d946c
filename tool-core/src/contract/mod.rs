//! The static contract of a tool: what `#[derive(Tool)]` declares, and the
//! types it is made of (policy, fields, output and errors, version and
//! deprecation, money, the trusted session).

mod conflict;
mod deprecation;
mod errors;
mod field;
pub mod fingerprint;
mod input_schema;
mod money;
pub(crate) mod money_de;
mod policy;
pub mod rules;
mod schema;
mod session;
mod tool;
mod tool_contract;
mod version;
mod waiver;

pub use conflict::{VersionConflict, VersionGuard};
pub use deprecation::{Date, Deprecation, deprecation_json};
pub use errors::{DeclaredError, ErrorCategory, OutputContract, Recovery};
pub use field::{
    Constraint, FieldContract, NumberBound, Presence, SessionProbe, bound_from_json, bound_json,
    constraint_json,
};
pub use input_schema::args_schema;
pub use money::{Currency, Money, SignedMoney};
pub use policy::{Approval, DataClass, Effect, Idempotency, Policy};
pub use rules::{ContractError, ExampleError, RuleViolation};
pub use schema::{SchemaFn, root_schema_of, schema_of, schema_settings};
pub use session::{DEFAULT_MAX_ARGUMENT_BYTES, Session};
pub use tool::{AsIdempotencyKey, Tool};
pub use tool_contract::{ContractParts, ToolContract, no_examples};
pub use version::Version;
pub use waiver::{ContractRule, Waiver};
