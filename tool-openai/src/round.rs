//! One round of the agent loop: answer every tool call of a response.

use serde_json::Value;
use tool_core::provider::{Provider, Round};
use tool_core::{ToolCall, ToolContract, ToolError, ToolOutput, Version};

use crate::calls::{
    Api, CallRecord, ResponseCalls, ResponseError, chat_completions_calls, not_run,
    responses_calls, unfinished,
};

/// What answering one response's tool calls gives: the outcome of each call,
/// the messages or items to send back ([`Answer`]), and whether the loop
/// must stop.
///
/// `R` is what each call ended with: a [`ToolOutput`] when a closure
/// answered the calls ([`answer_chat_completions`], [`answer_responses`]),
/// or the runtime's `CallResult` when a `Toolbox` did
/// (`toolbox.answer(&Api::ChatCompletions, &response, &session)`, cargo
/// feature `runtime`).
///
/// ```
/// use tool_contract::{ToolCall, ToolOutput};
/// use tool_contract::openai::{Api, ResponseCalls, ToolRound};
///
/// let call = ToolCall::new("call_1", "get_inventory", "{}");
/// let results = vec![(call, ToolOutput::success("12 in stock"))];
/// let calls = ResponseCalls::new(Api::Responses, "gpt-4.1", Vec::new());
/// let round = ToolRound::from_results(calls, results, &[]);
/// assert_eq!(round.answer.items[0]["output"], "12 in stock");
/// assert!(!round.stop);
/// ```
pub type ToolRound<R = ToolOutput> = Round<Api, R>;

/// What an OpenAI round sends back.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The API the response came from; it decides the shape of `items`.
    pub api: Api,
    /// What to append to the conversation, in call order: `{"role": "tool",
    /// ...}` messages (Chat Completions) or `function_call_output` items
    /// (Responses); a fatal outcome writes none. The model's own turn goes
    /// before them: the assistant message of the response, or its `output`
    /// items (or use `previous_response_id`).
    pub items: Vec<Value>,
    /// A record of each answered call: provider, API, model, tool and the
    /// version of its contract.
    pub records: Vec<CallRecord>,
}

/// Chat Completions (`Api::ChatCompletions`) and the Responses API
/// (`Api::Responses`): calls read by [`chat_completions_calls`] and
/// [`responses_calls`]; the calls of a Responses response that did not
/// complete ([`unfinished`]) are answered [`not_run`].
impl Provider for Api {
    type Call = ToolCall;
    type Calls = ResponseCalls;
    type Answer = Answer;

    fn calls(&self, response: &Value) -> Result<ResponseCalls, ResponseError> {
        match self {
            Api::ChatCompletions => chat_completions_calls(response),
            Api::Responses => responses_calls(response),
        }
    }

    fn not_run(&self, response: &Value, _calls: &ResponseCalls) -> Option<ToolError> {
        match self {
            Api::ChatCompletions => None,
            Api::Responses => unfinished(response).map(|reason| not_run(&reason)),
        }
    }

    fn refusal(_calls: &ResponseCalls) -> Option<ToolError> {
        None
    }

    fn model(calls: &ResponseCalls) -> &str {
        &calls.model
    }

    fn list(calls: &ResponseCalls) -> &[ToolCall] {
        &calls.calls
    }

    fn answer<R: AsRef<ToolOutput>>(
        calls: ResponseCalls,
        results: &[(ToolCall, R)],
        _stop: bool,
        version: &dyn Fn(&ToolCall, &R) -> Option<Version>,
    ) -> Answer {
        let api = calls.api;
        let items = results
            .iter()
            .filter_map(|(call, outcome)| api.output_item(call, outcome.as_ref()))
            .collect();
        let records = results
            .iter()
            .map(|(call, outcome)| CallRecord::new(api, &calls.model, call, version(call, outcome)))
            .collect();
        Answer {
            api,
            items,
            records,
        }
    }
}

/// Answers every tool call of a Chat Completions response with a
/// synchronous closure.
///
/// `contracts` are the tools that were offered. A call of a tool not among
/// them is answered with `UNKNOWN_TOOL` (listing the tools there are)
/// without calling `run`; every other call is passed to `run`, which parses
/// the arguments (see [`ToolCall::parse`]) and runs the tool. Calls after a
/// fatal outcome are not run. To run the calls through the runtime's async
/// `Toolbox` instead (approvals, idempotency, timeouts, audit records), use
/// `toolbox.answer(&Api::ChatCompletions, &response, &session)` (cargo
/// feature `runtime`).
///
/// ```
/// use serde_json::json;
/// use tool_contract::ToolOutput;
///
/// let response = json!({
///     "model": "gpt-4.1-2025-04-14",
///     "choices": [{"index": 0, "message": {"role": "assistant", "content": null,
///         "tool_calls": [{"id": "call_1", "type": "function",
///             "function": {"name": "lookup_weather", "arguments": "{}"}}]}}]
/// });
/// let round = tool_contract::openai::answer_chat_completions(&response, &[], |_| ToolOutput::success("sunny"))?;
/// assert_eq!(
///     round.answer.items,
///     [json!({"role": "tool", "tool_call_id": "call_1",
///         "content": "Error [UNKNOWN_TOOL]: There is no tool named \"lookup_weather\"; no tools are available."})]
/// );
/// # Ok::<(), tool_contract::openai::ResponseError>(())
/// ```
pub fn answer_chat_completions(
    response: &Value,
    contracts: &[&'static ToolContract],
    run: impl FnMut(&ToolCall) -> ToolOutput,
) -> Result<ToolRound, ResponseError> {
    let calls = chat_completions_calls(response)?;
    Ok(answer_tool_calls(calls, contracts, run))
}

/// Answers every tool call of a Responses API response with a synchronous
/// closure; as [`answer_chat_completions`], with `function_call_output`
/// items. The calls of a response that did not complete
/// ([`unfinished`](crate::unfinished)) are not run: each is answered
/// [`not_run`](crate::not_run), a known tool or not (a name may be cut off
/// too), as the runtime refuses before it looks the tool up.
pub fn answer_responses(
    response: &Value,
    contracts: &[&'static ToolContract],
    run: impl FnMut(&ToolCall) -> ToolOutput,
) -> Result<ToolRound, ResponseError> {
    let calls = responses_calls(response)?;
    let refusal = Api::Responses.not_run(response, &calls);
    Ok(Round::answer_with(calls, refusal, contracts, run))
}

/// Answers calls already read from a response (or built with
/// [`ResponseCalls::new`]); see [`answer_chat_completions`].
pub fn answer_tool_calls(
    calls: ResponseCalls,
    contracts: &[&'static ToolContract],
    run: impl FnMut(&ToolCall) -> ToolOutput,
) -> ToolRound {
    Round::answer_with(calls, None, contracts, run)
}
