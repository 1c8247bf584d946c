//! A response's `tool_use` blocks answered by the runtime's `Toolbox`
//! (cargo feature `runtime`): the calls read here, run there, the
//! `tool_result` blocks written back here.

use std::future::Future;

use serde_json::Value;
use tool_core::Session;
use tool_runtime::approval::ApprovalRequest;
use tool_runtime::audit::AuditRecord;
use tool_runtime::{AbortHandle, CallResult, Toolbox};

use crate::calls::{ResponseCalls, ResponseError};
use crate::round::{ToolRound, not_run};
use crate::wire::ToolSet;

/// Answers a Messages API response through a [`Toolbox`]: every
/// `tool_use` block runs as one turn (concurrently where the contracts
/// allow, with approvals, idempotent replays, time limits and audit
/// records), and the round holds the user message of `tool_result` blocks
/// to send back.
///
/// ```
/// use serde_json::json;
/// use tool_contract::{CallContext, Session, Tool, Toolbox};
/// use tool_contract::anthropic::{ToolSet, ToolboxExt};
///
/// /// Look up the opening hours of one store.
/// #[derive(Tool)]
/// pub struct GetStoreHours {
///     /// Store code as printed on the receipt, e.g. "BER-1".
///     pub store: String,
/// }
///
/// let mut toolbox = Toolbox::new();
/// toolbox.register(|call: GetStoreHours, _cx: CallContext| async move {
///     Ok::<_, tool_contract::ToolError>(format!("{}: 9-18", call.store))
/// });
/// let tools = ToolSet::new(&[GetStoreHours::contract()])?;
/// let response = json!({"model": "claude-sonnet-4-5", "stop_reason": "tool_use", "content": [
///     {"type": "tool_use", "id": "toolu_01", "name": "get_store_hours", "input": {"store": "BER-1"}}
/// ]});
/// let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
/// let round = runtime.block_on(toolbox.answer_tool_use(&response, &tools, &Session::new()))?;
/// assert_eq!(round.message.unwrap()["content"][0]["content"], "BER-1: 9-18");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait ToolboxExt: sealed::Sealed {
    /// Runs every `tool_use` of `response` (read through `tools`, so calls
    /// of strict tools match enum values ignoring case).
    fn answer_tool_use(
        &self,
        response: &Value,
        tools: &ToolSet,
        session: &Session,
    ) -> impl Future<Output = Result<ToolRound<CallResult>, ResponseError>> + Send;

    /// Runs calls already read or assembled from a stream, as one turn.
    fn answer_anthropic_calls(
        &self,
        calls: ResponseCalls,
        session: &Session,
        abort: &AbortHandle,
    ) -> impl Future<Output = ToolRound<CallResult>> + Send;
}

impl ToolboxExt for Toolbox {
    async fn answer_tool_use(
        &self,
        response: &Value,
        tools: &ToolSet,
        session: &Session,
    ) -> Result<ToolRound<CallResult>, ResponseError> {
        let calls = tools.calls(response)?;
        Ok(self
            .answer_anthropic_calls(calls, session, &AbortHandle::new())
            .await)
    }

    async fn answer_anthropic_calls(
        &self,
        calls: ResponseCalls,
        session: &Session,
        abort: &AbortHandle,
    ) -> ToolRound<CallResult> {
        let ResponseCalls {
            model,
            calls,
            stop_reason,
        } = calls;
        // A response that stopped for another reason than `tool_use`: its
        // calls are answered as not run, each with its audit record.
        if let Some(error) = not_run(stop_reason.as_deref()) {
            let results = self
                .answer_turn_without_running(&calls, session, &error)
                .await;
            return ToolRound::build(model, calls.into_iter().zip(results).collect(), Vec::new());
        }
        let outcomes = self.call_turn(&calls, session, abort).await;
        ToolRound::build(model, calls.into_iter().zip(outcomes).collect(), Vec::new())
    }
}

impl ToolRound<CallResult> {
    /// The approval requests of the calls refused with `APPROVAL_REQUIRED`,
    /// in call order: what to show the user. Once the user approves
    /// ([`ApprovalRequest::approve`], granted into the session's
    /// `Approvals`), the same call runs.
    pub fn approval_requests(&self) -> impl Iterator<Item = &ApprovalRequest> {
        self.results
            .iter()
            .filter_map(|(_, result)| result.approval_request.as_ref())
    }

    /// The audit record of every call, in call order: what the application
    /// keeps, never sent to the model.
    pub fn audit_records(&self) -> impl Iterator<Item = &AuditRecord> {
        self.results.iter().map(|(_, result)| &result.audit)
    }
}

mod sealed {
    pub trait Sealed {}

    impl Sealed for super::Toolbox {}
}
