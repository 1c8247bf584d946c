#![doc = include_str!("../docs/overview.md")]
#![deny(missing_docs)]

pub use tool_core::{
    ArgumentError, ArgumentErrorKind, ChoiceMode, Currency, EnumCase, Exposure, HandlerError,
    Money, Narrowing, ResponseError, SchemaError, Session, SignedMoney, Tool, ToolCall,
    ToolContract, ToolError, ToolOutput,
};
/// Derives [`Tool`] for a struct with named fields; keys and rules: [`guide`].
pub use tool_macros::Tool;
/// Derives `Deserialize` and `JsonSchema` for a nested argument type, with
/// the field keys and rules of `#[derive(Tool)]` ([`guide`]).
pub use tool_macros::ToolArgs;
#[cfg(feature = "runtime")]
pub use tool_runtime::{CallContext, CallResult, Toolbox};
pub use {schemars, serde, serde_json};

/// The names an application writes daily: `use tool_contract::prelude::*;`.
pub mod prelude {
    pub use tool_core::{ArgumentError, HandlerError, Money, Session, Tool, ToolCall};
    pub use tool_core::{ToolContract, ToolError, ToolOutput};
    pub use tool_macros::{Tool, ToolArgs};
    #[cfg(feature = "runtime")]
    pub use tool_runtime::{CallContext, CallResult, Toolbox};
}

/// The reference: `#[tool(...)]` keys, the rules checked at compile time,
/// nested types, and two versions of one tool served side by side.
///
#[doc = include_str!("../docs/attributes.md")]
#[doc = include_str!("../docs/rules.md")]
#[doc = include_str!("../docs/nested.md")]
#[doc = include_str!("../docs/versions.md")]
pub mod guide {}

/// The parts of a [`ToolContract`]: policy, fields, constraints, output,
/// declared errors, waivers, versions and deprecations, and the formats the
/// parser checks.
pub mod contract {
    pub use tool_core::contract::{DEFAULT_MAX_ARGUMENT_BYTES, schema_settings};
    pub use tool_core::parse::formats;
    pub use tool_core::{
        Approval, AsIdempotencyKey, Constraint, ContractError, ContractRule, Currency, DataClass,
        Date, DeclaredError, Deprecation, Effect, ErrorCategory, ExampleError, FieldContract,
        Idempotency, NumberBound, OutputContract, Policy, Presence, Recovery, RuleViolation,
        Version, VersionConflict, VersionGuard, Waiver,
    };
}

/// Docs written from the contracts: a [`Catalog`](docs::Catalog) of tools'
/// Markdown pages, and the [`Words`](docs::Words) docs and schemas share.
pub mod docs {
    pub use tool_core::words::{
        CATALOG_FORMAT, Catalog, Keyword, MAX_ECHO_CHARS, Words, described, echo,
        examples_paragraph, judge,
    };
}

/// The async [`Toolbox`], what a call gives back, the structured model
/// result, and the versions a session is served.
#[cfg(feature = "runtime")]
pub mod runtime {
    pub use tool_core::{OutputKind, ToolCall};
    pub use tool_runtime::model_result::{
        ContentTrust, Delivery, Execution, ExecutionOutcome, MODEL_RESULT_SCHEMA_VERSION,
        ModelResult, Provenance, ResultStatus, format_rfc3339,
    };
    pub use tool_runtime::{
        AbortHandle, CallContext, CallCount, CallResult, StartupError, StoreFault, Toolbox,
        VersionError, VersionPins,
    };
}

/// The contract every provider adapter implements (definitions, calls,
/// answers; a conversation for the agent loop; a stream assembler), and the
/// one agent loop over any conversation and transport.
pub mod provider {
    pub use tool_core::provider::{
        Assembler, Audited, Conversation, Provider, Reading, Round, TurnEnd, unknown_tool,
    };
    #[cfg(feature = "runtime")]
    pub use tool_runtime::agent::{Agent, AgentError, Step, Turn};
}

/// Approvals bound to one tool, version and exact arguments, and their store.
#[cfg(feature = "runtime")]
pub mod approval {
    pub use tool_runtime::approval::{
        ApprovalCheck, ApprovalGrant, ApprovalLookup, ApprovalRequest, ApprovalStore,
        ApprovalStoreError, Approvals,
    };
}

/// Idempotent replays: the store of keyed calls' results.
#[cfg(feature = "runtime")]
pub mod idempotency {
    pub use tool_runtime::idempotency::{
        BoxFuture, ClaimOutcome, IdempotencyError, IdempotencyRecord, IdempotencyScope,
        IdempotencyStore, InMemoryIdempotencyStore,
    };
}

/// The recipient policy of a session: where a tool may send data.
#[cfg(feature = "runtime")]
pub mod recipients {
    pub use tool_runtime::recipients::{
        RECIPIENT_NOT_ALLOWED, RecipientAllowList, RecipientPolicy, RecipientRule,
    };
}

/// The audit record of each call (never sent to the model), the canonical
/// arguments it is bound to, and the sink that keeps it.
#[cfg(feature = "runtime")]
pub mod audit {
    pub use tool_core::outcome::{
        CanonicalArguments, arguments_sha256, canonical_arguments, canonical_json,
    };
    pub use tool_runtime::audit::{AUDIT_SCHEMA_VERSION, AuditRecord, Subject, Subjects};
    pub use tool_runtime::audit_sink::{AuditEntry, AuditSink, AuditSinkError, AuditStart};
}

/// How the agent loop's requests reach a provider: recorded replay, a
/// recorder, and with the feature `live` the `HttpTransport`.
#[cfg(feature = "runtime")]
pub mod transport {
    #[cfg(feature = "live")]
    pub use tool_transport::HttpTransport;
    pub use tool_transport::{
        Exchange, REQUESTS_FILE, RESPONSES_FILE, Recorder, Replay, TOOLS_FILE, TOOLS_PLACEHOLDER,
        Transport, TransportError, first_difference,
    };
}

#[cfg(feature = "openai")]
pub mod openai;

#[cfg(feature = "anthropic")]
pub mod anthropic;

#[cfg(feature = "gemini")]
pub mod gemini;

#[cfg(feature = "mcp")]
pub mod mcp;

#[cfg(feature = "postgres")]
pub mod store_postgres;

#[cfg(feature = "lock")]
pub mod lock;

/// The README's quick start, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// What the code that `#[derive(Tool)]` generates refers to. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use tool_core::__private::*;
}
