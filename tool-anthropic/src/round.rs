//! One round of the agent loop: every `tool_use` of a response answered
//! with `tool_result` blocks, all in one user message before any text.

use serde_json::{Value, json};
use tool_core::provider::{Provider, Round};
use tool_core::{ErrorCategory, ToolCall, ToolContract, ToolError, ToolOutput, Version};

use crate::calls::{ResponseCalls, ResponseError};
use crate::wire::ToolSet;

/// The `tool_result` block answering `call`: `{"type": "tool_result",
/// "tool_use_id", "content", "is_error"}`, `is_error` true when the model
/// is told of an error; `None` for a fatal outcome, which is not sent.
///
/// ```
/// use tool_contract::{ToolCall, ToolOutput};
///
/// let call = ToolCall::new("toolu_01", "get_store_hours", "{}");
/// let block = tool_contract::anthropic::tool_result(&call, &ToolOutput::success("9-18")).unwrap();
/// assert_eq!(
///     block,
///     serde_json::json!({"type": "tool_result", "tool_use_id": "toolu_01", "content": "9-18", "is_error": false})
/// );
/// ```
pub fn tool_result(call: &ToolCall, output: &ToolOutput) -> Option<Value> {
    let text = output.model_text()?;
    Some(json!({
        "type": "tool_result",
        "tool_use_id": call.call_id,
        "content": text,
        "is_error": matches!(output, ToolOutput::RespondToModel { .. }),
    }))
}

/// The user message that answers a turn: every `tool_result` block first,
/// then `text` if any ("In the user message containing tool results, the
/// tool_result blocks must come FIRST in the content array. Any text must
/// come AFTER all tool results.").
pub fn results_message(results: Vec<Value>, text: Option<&str>) -> Value {
    let mut content = results;
    if let Some(text) = text {
        content.push(json!({"type": "text", "text": text}));
    }
    json!({"role": "user", "content": content})
}

/// What answering one response's tool calls gives; its
/// [`answer`](Round::answer) is the user message to send after the
/// assistant's message: one `tool_result` per answered call, in call
/// order; `None` when there is nothing to send (no calls, or the round
/// stopped: every `tool_use` needs its `tool_result` in the next message
/// ("`tool_use` ids were found without `tool_result` blocks immediately
/// after"), so a round that stops writes no message at all).
///
/// `R` is a [`ToolOutput`] when a closure answered the calls
/// ([`answer_tool_use`]) or the runtime's `CallResult` when a `Toolbox` did
/// (`toolbox.answer(&tool_set, &response, &session)`, cargo feature
/// `runtime`).
///
/// ```
/// use serde_json::json;
/// use tool_contract::{CallContext, Session, Tool, Toolbox};
/// use tool_contract::anthropic::ToolSet;
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
/// let round = runtime.block_on(toolbox.answer(&tools, &response, &Session::new()))?;
/// assert_eq!(round.answer.unwrap()["content"][0]["content"], "BER-1: 9-18");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type ToolRound<R = ToolOutput> = Round<ToolSet, R>;

/// The Messages API, read through the request's [`ToolSet`] (so calls of
/// strict tools match enum values ignoring case): the calls of a response
/// that stopped for another reason than `tool_use` are answered
/// [`not_run`]; the answer is one user message of `tool_result` blocks.
impl Provider for ToolSet {
    type Call = ToolCall;
    type Calls = ResponseCalls;
    type Answer = Option<Value>;

    fn calls(&self, response: &Value) -> Result<ResponseCalls, ResponseError> {
        ToolSet::calls(self, response)
    }

    fn refusal(calls: &ResponseCalls) -> Option<ToolError> {
        not_run(calls.stop_reason.as_deref())
    }

    fn model(calls: &ResponseCalls) -> &str {
        &calls.model
    }

    fn list(calls: &ResponseCalls) -> &[ToolCall] {
        &calls.calls
    }

    fn answer<R: AsRef<ToolOutput>>(
        _calls: ResponseCalls,
        results: &[(ToolCall, R)],
        stop: bool,
        _version: &dyn Fn(&ToolCall, &R) -> Option<Version>,
    ) -> Option<Value> {
        let blocks: Vec<Value> = results
            .iter()
            .filter_map(|(call, outcome)| tool_result(call, outcome.as_ref()))
            .collect();
        (!stop && !blocks.is_empty()).then(|| results_message(blocks, None))
    }
}

/// Answers every `tool_use` of a Messages API response with a synchronous
/// closure: calls of tools not in `tools` get `UNKNOWN_TOOL`, calls after a
/// fatal outcome are not run. Calls of strict tools match enum values
/// ignoring case (see [`ToolCall::parse`]).
pub fn answer_tool_use(
    response: &Value,
    tools: &ToolSet,
    run: impl FnMut(&ToolCall) -> ToolOutput,
) -> Result<ToolRound, ResponseError> {
    Ok(answer_calls(
        tools.calls(response)?,
        &tools.contracts(),
        run,
    ))
}

/// Answers calls already read (or assembled from a stream).
///
/// The calls of a response that stopped for another reason than
/// `tool_use` (`max_tokens` may have cut a `tool_use` block short) are not
/// run: each is answered with `Error [CALL_NOT_RUN]` ([`not_run`]).
pub fn answer_calls(
    calls: ResponseCalls,
    contracts: &[&'static ToolContract],
    run: impl FnMut(&ToolCall) -> ToolOutput,
) -> ToolRound {
    let refusal = ToolSet::refusal(&calls);
    Round::answer_with(calls, refusal, contracts, run)
}

/// The error answering the calls of a response that stopped with
/// `stop_reason`, when that is not `tool_use`: the model had not finished
/// deciding them, so they are not run. A response without a stop reason
/// (`null`, as an unfinished message carries, or none) is not known to
/// have finished either. `None` for `tool_use`.
///
/// ```
/// let error = tool_contract::anthropic::not_run(Some("max_tokens")).unwrap();
/// assert_eq!(
///     error.model_text(),
///     "Error [CALL_NOT_RUN]: The call did not run: the response stopped with \"max_tokens\", \
///      not \"tool_use\", so its input may be incomplete. Make the call again if it is still \
///      needed."
/// );
/// assert!(tool_contract::anthropic::not_run(Some("tool_use")).is_none());
/// assert!(tool_contract::anthropic::not_run(None).is_some());
/// ```
pub fn not_run(stop_reason: Option<&str>) -> Option<ToolError> {
    let why = match stop_reason {
        Some("tool_use") => return None,
        Some(reason) => format!("the response stopped with \"{reason}\", not \"tool_use\""),
        None => "the response gave no stop reason".to_owned(),
    };
    Some(ToolError::new(
        ToolError::CALL_NOT_RUN,
        ErrorCategory::Aborted,
        format!(
            "The call did not run: {why}, so its input may be incomplete. Make the call again if \
             it is still needed."
        ),
    ))
}
