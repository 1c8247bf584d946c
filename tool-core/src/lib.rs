//! Provider-neutral core of [tool-contract]: the [`Tool`] trait and tool
//! contracts, the trusted [`Session`], the parser's runtime half and its
//! errors, [`Money`], the contract in words, and how a call ends.
//!
//! Applications use it through the `tool-contract` facade crate, which
//! re-exports everything here together with `#[derive(Tool)]`.
//!
//! | folder | what it holds |
//! | --- | --- |
//! | [`contract`] | [`Tool`], [`ToolContract`] and its parts, [`Money`], [`Session`], fingerprints |
//! | [`parse`] | the generated parser's runtime half: strict objects, constraints, formats, paths |
//! | [`words`] | the contract in words: Markdown pages, catalogs, model-facing messages, the one renderer of units and constraints |
//! | [`outcome`] | [`ToolOutput`], [`ToolError`], [`ToolCall`], canonical arguments, the stream assemblers' bounds and error |
//!
//! [tool-contract]: https://github.com/tool-contract/tool-contract
#![deny(missing_docs)]

mod budget;
pub mod contract;
pub mod dialect;
pub mod exposure;
pub mod outcome;
pub mod parse;
pub mod provider;
pub mod refs;
pub mod words;

pub use contract::{
    Approval, AsIdempotencyKey, Constraint, ContractError, ContractRule, Currency, DataClass, Date,
    DeclaredError, Deprecation, Effect, ErrorCategory, ExampleError, FieldContract, Idempotency,
    Money, NumberBound, OutputContract, Policy, Presence, Recovery, RuleViolation, Session,
    SignedMoney, Tool, ToolContract, Version, VersionConflict, VersionGuard, Waiver,
};
pub use exposure::{ChoiceMode, Exposure, Narrowing};
pub use outcome::{HandlerError, OutputKind, ResponseError, ToolCall, ToolError, ToolOutput};
pub use parse::{ArgumentError, ArgumentErrorKind, EnumCase, SchemaError};

/// What the code that `#[derive(Tool)]` generates refers to. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::contract::{
        Approval, AsIdempotencyKey, Constraint, ContractParts, ContractRule, DataClass, Date,
        DeclaredError, Deprecation, Effect, ErrorCategory, FieldContract, Idempotency, NumberBound,
        OutputContract, Policy, Presence, Recovery, Session, Tool, ToolContract, Version, Waiver,
        args_schema, no_examples, root_schema_of, schema_of,
    };
    pub use crate::parse::ArgumentError;
    pub use crate::parse::{
        ItemsValue, NumberValue, Pattern, StringValue, format, max_items, max_length, maximum,
        min_items, min_length, minimum, pattern,
    };
    pub use crate::parse::{
        ParseState, inject, inject_optional, last_call_read_fast, next_key, next_value, parse_map,
        session_holds, with_exact_reader_only,
    };
    pub use schemars;
    pub use serde;
    pub use serde::de;
    pub use serde_json::Value;
}
