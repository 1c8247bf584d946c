//! One round of the agent loop: every `tool_use` of a response answered
//! with `tool_result` blocks, all in one user message before any text.

use serde_json::{Value, json};
use tool_core::{ErrorCategory, ToolCall, ToolContract, ToolError, ToolOutput};

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

/// What answering one response's tool calls gives.
///
/// `R` is a [`ToolOutput`] when a closure answered the calls
/// ([`answer_tool_use`]) or the runtime's `CallResult` when a `Toolbox` did
/// (`ToolboxExt`, cargo feature `runtime`).
#[derive(Clone, Debug, PartialEq)]
pub struct ToolRound<R = ToolOutput> {
    /// The model that made the calls.
    pub model: String,
    /// Each call answered, with its outcome, in call order.
    pub results: Vec<(ToolCall, R)>,
    /// Calls not run because an earlier call was fatal.
    pub unanswered: Vec<ToolCall>,
    /// The user message to send after the assistant's message: one
    /// `tool_result` per answered call, in call order; `None` when there is
    /// nothing to send (no calls, or the round stopped).
    pub message: Option<Value>,
    /// True when a call ended fatally: nothing should be sent to the model.
    /// Every `tool_use` needs its `tool_result` in the next message
    /// ("`tool_use` ids were found without `tool_result` blocks immediately
    /// after"), so a round that stops writes no message at all.
    pub stop: bool,
}

impl<R: AsRef<ToolOutput>> ToolRound<R> {
    pub(crate) fn build(
        model: String,
        results: Vec<(ToolCall, R)>,
        unanswered: Vec<ToolCall>,
    ) -> Self {
        let stop = !unanswered.is_empty() || results.iter().any(|(_, r)| r.as_ref().is_fatal());
        let blocks: Vec<Value> = results
            .iter()
            .filter_map(|(call, outcome)| tool_result(call, outcome.as_ref()))
            .collect();
        let message = (!stop && !blocks.is_empty()).then(|| results_message(blocks, None));
        ToolRound {
            model,
            results,
            unanswered,
            message,
            stop,
        }
    }
}

impl<R> ToolRound<R> {
    /// True when the response had no tool calls: the model answered in text.
    pub fn is_final_answer(&self) -> bool {
        self.results.is_empty() && self.unanswered.is_empty()
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
    mut run: impl FnMut(&ToolCall) -> ToolOutput,
) -> ToolRound {
    let ResponseCalls {
        model,
        calls,
        stop_reason,
    } = calls;
    if let Some(error) = not_run(stop_reason.as_deref()) {
        let results = calls
            .into_iter()
            .map(|call| (call, ToolOutput::respond_to_model(error.clone())))
            .collect();
        return ToolRound::build(model, results, Vec::new());
    }
    let mut ids: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for call in &calls {
        *ids.entry(call.call_id.clone()).or_default() += 1;
    }
    let mut results = Vec::with_capacity(calls.len());
    let mut calls = calls.into_iter();
    for call in calls.by_ref() {
        // Calls that share an id cannot be told apart by their results:
        // none of them runs (as `Toolbox::call_turn` answers them).
        let shared = ids[&call.call_id] > 1;
        let output = match call.contract_in(contracts) {
            _ if shared => {
                ToolOutput::respond_to_model(ToolError::duplicate_call_id(&call.call_id))
            }
            Some(_) => run(&call),
            None => unknown_tool(&call.name, contracts),
        };
        let fatal = output.is_fatal();
        results.push((call, output));
        if fatal {
            break;
        }
    }
    ToolRound::build(model, results, calls.collect())
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

fn unknown_tool(name: &str, contracts: &[&'static ToolContract]) -> ToolOutput {
    let known: Vec<&str> = contracts.iter().map(|c| c.name()).collect();
    ToolOutput::RespondToModel {
        error: ToolError::unknown_tool(name, known.iter().copied()),
        details: json!({"tool": name, "known_tools": known}),
    }
}
