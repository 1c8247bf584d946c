//! A tool call and how it ends: the [`ToolCall`] every provider adapter
//! hands the runtime, [`ToolOutput`] and [`ToolError`], and the canonical
//! form of a call's arguments that approvals and audit records are bound to,
//! the bounds every stream assembler holds a streamed response to
//! ([`stream_limits`]) and the error of every stream assembler
//! ([`StreamError`]).

mod call;
mod canonical;
mod output;
mod response;
mod stream_error;
pub mod stream_limits;

pub use call::ToolCall;
pub use canonical::{
    CanonicalArguments, arguments_sha256, canonical_arguments, canonical_json, key_order,
    sha256_hex,
};
pub use output::{HandlerError, OutputKind, ToolError, ToolOutput};
pub use response::{ResponseError, json_kind};
pub use stream_error::{StreamError, StreamErrorKind};
