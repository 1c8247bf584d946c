//! The async dispatcher (cargo feature `runtime`): a [`Toolbox`] of tools
//! with their handlers that parses each call, enforces its contract's
//! policy (approval, idempotency, timeout), runs it, and returns the
//! [`ToolOutput`] together with the model result and the audit record.
//!
//! Calls run on the caller's task, on a Tokio runtime with its time driver
//! enabled (`tokio::time` timers bound every call). Handlers must not block
//! the thread: wrap blocking work in `tokio::task::spawn_blocking`.
//!
//! Register each tool with an async handler that takes the parsed call and
//! a [`CallContext`] and returns `Result<T::Output, E>` with
//! `E: Into<ToolError>`; the facade crate's `examples/conversation.rs` runs
//! a whole conversation.
//!
//! [`ToolError`]: crate::ToolError

mod abort;
mod handler;
mod messages;
mod pipeline;
mod toolbox;

use serde::{Deserialize, Serialize};

pub use abort::AbortHandle;
pub use handler::CallContext;
pub use toolbox::Toolbox;

use crate::approval::ApprovalRequest;
use crate::audit::AuditRecord;
use crate::model_result::ModelResult;
use crate::output::ToolOutput;

/// One tool call as the model made it.
///
/// ```json
/// {"call_id": "call_7", "name": "get_inventory", "arguments": "{\"sku\":\"SKU-1042\"}"}
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's id of the call, echoed back with the output.
    pub call_id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments as the model wrote them: JSON text.
    pub arguments: String,
}

impl ToolCall {
    /// A call of `name` with `arguments` (JSON text).
    pub fn new(
        call_id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<String>,
    ) -> Self {
        ToolCall {
            call_id: call_id.into(),
            name: name.into(),
            arguments: arguments.into(),
        }
    }
}

/// How one call ended: the output, its projection for the model, the audit
/// record for the application, and what to ask the user to approve.
#[derive(Clone, Debug, PartialEq)]
pub struct CallResult {
    /// The outcome; its [`model_text`](ToolOutput::model_text) is what the
    /// model reads.
    pub output: ToolOutput,
    /// The structured result for the model; `None` when the output is fatal.
    pub model_result: Option<ModelResult>,
    /// What the application keeps; never sent to the model.
    pub audit: AuditRecord,
    /// Set when the call was refused with `APPROVAL_REQUIRED`: the call to
    /// show the user, whose approval ([`ApprovalRequest::approve`]) lets the
    /// same call run.
    pub approval_request: Option<ApprovalRequest>,
}

impl CallResult {
    /// The text the model reads; `None` when the output is fatal.
    pub fn model_text(&self) -> Option<String> {
        self.output.model_text()
    }

    /// True when the run must stop: the output is fatal.
    pub fn is_fatal(&self) -> bool {
        self.output.is_fatal()
    }
}
