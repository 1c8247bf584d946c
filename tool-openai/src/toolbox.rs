//! A response's tool calls answered by the runtime's `Toolbox` (cargo
//! feature `runtime`): the calls read here, run there, the outputs written
//! back here.

use std::future::Future;

use serde_json::Value;
use tool_core::Session;
use tool_runtime::approval::ApprovalRequest;
use tool_runtime::audit::AuditRecord;
use tool_runtime::{AbortHandle, CallResult, Toolbox};

use crate::calls::{
    ResponseCalls, ResponseError, chat_completions_calls, not_run, responses_calls, unfinished,
};
use crate::round::ToolRound;

/// Answers the tool calls of an OpenAI response with a [`Toolbox`], in one
/// call: `toolbox.answer_chat_completions(&response, &session).await?`.
///
/// The calls of the response are one turn and run through
/// [`Toolbox::call_turn`], with everything the toolbox applies to a call:
/// unknown tools and invalid arguments answered for the model, approvals,
/// idempotent replays, time limits, audit records. Reads overlap; a call of
/// a destructive tool runs alone. The [`ToolRound`] holds each call with its
/// [`CallResult`] (output, model result, audit record, approval request),
/// in call order, and the messages or items to append to the conversation.
///
/// A fatal outcome (a handler that panicked, a value missing from the
/// session) writes no item and sets [`stop`](ToolRound::stop): the run must
/// not go on. The other calls of the turn run all the same, as they run
/// together, so nothing is left [`unanswered`](ToolRound::unanswered).
///
/// Items of the response that are not function calls (messages, reasoning,
/// built-in tools) are ignored; a response of another shape is a
/// [`ResponseError`] with the JSON path, and no call runs.
///
/// The trait is implemented for [`Toolbox`] only; the facade's prelude
/// brings it into scope.
///
/// ```
/// use serde_json::json;
/// use tool_contract::openai::ToolboxExt;
/// use tool_contract::{CallContext, Session, Tool, ToolError, Toolbox};
///
/// /// Look up the opening hours of one store, e.g. before promising a pickup.
/// #[derive(Tool)]
/// pub struct GetStoreHours {
///     /// Store code as printed on the receipt, e.g. "BER-1".
///     pub store: String,
/// }
///
/// let mut toolbox = Toolbox::new();
/// toolbox.register(|call: GetStoreHours, _cx: CallContext| async move {
///     Ok::<_, ToolError>(format!("{} opens Mon-Sat 9:00-20:00.", call.store))
/// });
///
/// // The model's turn, as the Chat Completions API returned it.
/// let response = json!({
///     "model": "gpt-4.1-2025-04-14",
///     "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
///         "role": "assistant", "content": null,
///         "tool_calls": [{"id": "call_1", "type": "function", "function":
///             {"name": "get_store_hours", "arguments": "{\"store\":\"BER-1\"}"}}]}}]
/// });
///
/// let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
/// let round = runtime.block_on(toolbox.answer_chat_completions(&response, &Session::new()))?;
/// assert_eq!(
///     round.items,
///     [json!({"role": "tool", "tool_call_id": "call_1", "content": "BER-1 opens Mon-Sat 9:00-20:00."})]
/// );
/// assert!(!round.stop && !round.is_final_answer());
/// let audit: Vec<&str> = round.audit_records().map(|record| record.tool.as_str()).collect();
/// assert_eq!(audit, ["get_store_hours"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait ToolboxExt: sealed::Sealed {
    /// Runs the function calls of a Chat Completions response
    /// (`choices[].message.tool_calls[]`) and gives the `{"role": "tool",
    /// "tool_call_id", "content"}` messages to append after the assistant
    /// message.
    fn answer_chat_completions(
        &self,
        response: &Value,
        session: &Session,
    ) -> impl Future<Output = Result<ToolRound<CallResult>, ResponseError>> + Send;

    /// Runs the function calls of a Responses API response (`output[]`
    /// items of type `function_call`) and gives the
    /// `{"type": "function_call_output", "call_id", "output"}` items to send
    /// as the next request's input.
    fn answer_responses(
        &self,
        response: &Value,
        session: &Session,
    ) -> impl Future<Output = Result<ToolRound<CallResult>, ResponseError>> + Send;

    /// Runs calls already read from a response (or built with
    /// [`ResponseCalls::new`]) as one turn that `abort` can cancel: a
    /// cancelled call answers `ABORTED` (pass a
    /// [`child`](AbortHandle::child) of a run's handle to cancel one turn).
    fn answer_calls(
        &self,
        calls: ResponseCalls,
        session: &Session,
        abort: &AbortHandle,
    ) -> impl Future<Output = ToolRound<CallResult>> + Send;
}

impl ToolboxExt for Toolbox {
    async fn answer_chat_completions(
        &self,
        response: &Value,
        session: &Session,
    ) -> Result<ToolRound<CallResult>, ResponseError> {
        let calls = chat_completions_calls(response)?;
        Ok(self.answer_calls(calls, session, &AbortHandle::new()).await)
    }

    async fn answer_responses(
        &self,
        response: &Value,
        session: &Session,
    ) -> Result<ToolRound<CallResult>, ResponseError> {
        let calls = responses_calls(response)?;
        // A response that did not complete: its calls are answered as not
        // run, each with its audit record.
        if let Some(reason) = unfinished(response) {
            return Ok(answer_without_running(self, calls, session, &reason).await);
        }
        Ok(self.answer_calls(calls, session, &AbortHandle::new()).await)
    }

    async fn answer_calls(
        &self,
        calls: ResponseCalls,
        session: &Session,
        abort: &AbortHandle,
    ) -> ToolRound<CallResult> {
        let ResponseCalls { api, model, calls } = calls;
        let outcomes = self.call_turn(&calls, session, abort).await;
        let results = calls.into_iter().zip(outcomes).collect();
        // The version that handled the call, as its audit record names it.
        ToolRound::build(api, model, results, Vec::new(), |_, result| {
            result.audit.contract_version
        })
    }
}

/// Answers `calls` [`not_run`] (`reason` as [`unfinished`] gives it)
/// without running any of them, each with its audit record.
pub(crate) async fn answer_without_running(
    toolbox: &Toolbox,
    calls: ResponseCalls,
    session: &Session,
    reason: &str,
) -> ToolRound<CallResult> {
    let ResponseCalls { api, model, calls } = calls;
    let outcomes = toolbox
        .answer_turn_without_running(&calls, session, &not_run(reason))
        .await;
    let results = calls.into_iter().zip(outcomes).collect();
    ToolRound::build(api, model, results, Vec::new(), |_, result| {
        result.audit.contract_version
    })
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
    /// Keeps [`ToolboxExt`](super::ToolboxExt) for [`Toolbox`](super::Toolbox),
    /// so methods can be added to it.
    pub trait Sealed {}

    impl Sealed for super::Toolbox {}
}
