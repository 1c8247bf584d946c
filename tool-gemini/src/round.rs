//! Gemini's provider contract: a `generateContent` response's function
//! calls read, refused when their candidate did not finish with `STOP`,
//! and answered with one user content of `functionResponse` parts.

use serde_json::Value;
use tool_core::provider::{Provider, Round};
use tool_core::{ResponseError, ToolCall, ToolError, ToolOutput, Version};

use crate::calls::{
    GeminiCall, GeminiCalls, function_response, function_responses_content, generate_content_calls,
    not_run,
};

/// Gemini's `generateContent` (and each chunk of `streamGenerateContent`):
/// the provider a `Toolbox` answers with
/// (`toolbox.answer(&GenerateContent, &response, &session)`, cargo feature
/// `runtime`).
///
/// The calls are one turn with everything the toolbox applies: unknown
/// tools and invalid arguments answered for the model, approvals,
/// idempotent replays, time limits, audit records. The calls of a
/// candidate that did not finish with `STOP` ([`GeminiCalls::may_run`])
/// are not run: each is answered [`not_run`] (`CALL_NOT_RUN`), with its
/// audit record.
///
/// ```
/// use serde_json::json;
/// use tool_contract::gemini::GenerateContent;
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
/// let response = json!({"modelVersion": "gemini-2.5-flash", "candidates": [{"content": {"role": "model",
///     "parts": [{"functionCall": {"id": "fc-1", "name": "get_store_hours", "args": {"store": "BER-1"}}}]},
///     "finishReason": "STOP"}]});
/// let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
/// let round = runtime.block_on(toolbox.answer(&GenerateContent, &response, &Session::new()))?;
/// assert_eq!(round.answer.user_content, Some(json!({"role": "user", "parts": [{"functionResponse": {
///     "id": "fc-1", "name": "get_store_hours",
///     "response": {"output": "BER-1 opens Mon-Sat 9:00-20:00."}}}]})));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GenerateContent;

/// The calls of one model turn with their outcomes, and the user turn that
/// answers them ([`Answer`]).
pub type GeminiRound<R = ToolOutput> = Round<GenerateContent, R>;

/// What a Gemini round sends back: the model's turn and the user turn that
/// answers it, to append to the history in that order.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The model's turn as it came, to append to the history first
    /// (unchanged, for Gemini 3's thought signatures); `None` without a
    /// candidate.
    pub model_content: Option<Value>,
    /// The user turn with every `functionResponse`, in call order, to
    /// append after the model's turn; `None` when there were no calls or
    /// the run must stop.
    pub user_content: Option<Value>,
}

impl AsRef<ToolCall> for GeminiCall {
    fn as_ref(&self) -> &ToolCall {
        &self.call
    }
}

impl Provider for GenerateContent {
    type Call = GeminiCall;
    type Calls = GeminiCalls;
    type Answer = Answer;

    fn calls(&self, response: &Value) -> Result<GeminiCalls, ResponseError> {
        generate_content_calls(response)
    }

    fn refusal(calls: &GeminiCalls) -> Option<ToolError> {
        (!calls.may_run()).then(|| not_run(calls.finish_reason.as_deref()))
    }

    fn model(calls: &GeminiCalls) -> &str {
        &calls.model
    }

    fn list(calls: &GeminiCalls) -> &[GeminiCall] {
        &calls.calls
    }

    /// Only the ids Gemini gave: a call without one is named after its
    /// tool and place in its response (`get_inventory#0`), which the next
    /// response may name again.
    fn provider_id(call: &GeminiCall) -> Option<&str> {
        call.id.as_deref()
    }

    fn answer<R: AsRef<ToolOutput>>(
        calls: GeminiCalls,
        results: &[(GeminiCall, R)],
        stop: bool,
        _version: &dyn Fn(&ToolCall, &R) -> Option<Version>,
    ) -> Answer {
        let parts: Vec<Value> = results
            .iter()
            .filter_map(|(call, outcome)| function_response(call, outcome.as_ref()))
            .collect();
        let user_content = (!stop && !parts.is_empty()).then(|| function_responses_content(parts));
        Answer {
            model_content: calls.content,
            user_content,
        }
    }
}
