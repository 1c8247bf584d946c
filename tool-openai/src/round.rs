//! One round of the agent loop: answer every tool call of a response.

use serde_json::{Value, json};
use tool_core::{ToolCall, ToolContract, ToolError, ToolOutput, Version};

use crate::calls::{
    Api, CallRecord, ResponseCalls, ResponseError, chat_completions_calls, not_run,
    responses_calls, unfinished,
};

/// What answering one response's tool calls gives: the outcome of each call,
/// the messages or items to send back, and whether the loop must stop.
///
/// `R` is what each call ended with: a [`ToolOutput`] when a closure
/// answered the calls ([`answer_chat_completions`], [`answer_responses`]),
/// or the runtime's `CallResult` (the output with its model result, audit
/// record and approval request) when a `Toolbox` did (`ToolboxExt`, cargo
/// feature `runtime`).
#[derive(Clone, Debug, PartialEq)]
pub struct ToolRound<R = ToolOutput> {
    /// The API the response came from; it decides the shape of `items`.
    pub api: Api,
    /// The model that made the calls, as the response names it.
    pub model: String,
    /// Each call that was answered, with its outcome, in call order.
    pub results: Vec<(ToolCall, R)>,
    /// Calls that were not run because an earlier call was fatal.
    pub unanswered: Vec<ToolCall>,
    /// What to append to the conversation, in call order: `{"role": "tool",
    /// ...}` messages (Chat Completions) or `function_call_output` items
    /// (Responses). The model's own turn goes before them: the assistant
    /// message of the response, or its `output` items (or use
    /// `previous_response_id`).
    pub items: Vec<Value>,
    /// True when a call ended fatally: no output was written for it, and
    /// nothing more should be sent to the model.
    pub stop: bool,
    records: Vec<CallRecord>,
}

impl<R> ToolRound<R> {
    /// True when the response had no tool calls: the model answered in text
    /// and the loop is over.
    pub fn is_final_answer(&self) -> bool {
        self.results.is_empty() && self.unanswered.is_empty()
    }

    /// A record of each answered call: provider, API, model, tool and the
    /// version of its contract.
    pub fn records(&self) -> Vec<CallRecord> {
        self.records.clone()
    }
}

impl<R: AsRef<ToolOutput>> ToolRound<R> {
    /// The round for calls that were run elsewhere, for instance
    /// concurrently by a dispatcher of one's own: each non-fatal outcome is
    /// written in the order given, in the shape `api` expects, and `stop`
    /// is set when any outcome is fatal. `contracts` (the offered tools)
    /// give the contract versions of the records. Answer unknown tools with
    /// [`unknown_tool`] before running.
    ///
    /// ```
    /// use tool_contract::{ToolCall, ToolOutput};
    /// use tool_contract::openai::{Api, ToolRound};
    ///
    /// let call = ToolCall::new("call_1", "get_inventory", "{}");
    /// let results = vec![(call, ToolOutput::success("12 in stock"))];
    /// let round = ToolRound::from_results(Api::Responses, "gpt-4.1", results, &[]);
    /// assert_eq!(round.items[0]["output"], "12 in stock");
    /// assert!(!round.stop);
    /// ```
    pub fn from_results(
        api: Api,
        model: impl Into<String>,
        results: Vec<(ToolCall, R)>,
        contracts: &[&'static ToolContract],
    ) -> ToolRound<R> {
        ToolRound::build(api, model.into(), results, Vec::new(), |call, _| {
            call.contract_in(contracts).map(ToolContract::version)
        })
    }

    /// The first call that ended fatally, with its outcome: the reason the
    /// round says [`stop`](Self::stop).
    pub fn fatal(&self) -> Option<&(ToolCall, R)> {
        self.results
            .iter()
            .find(|(_, outcome)| outcome.as_ref().is_fatal())
    }

    /// The round of `results`, whose records take the contract version of
    /// each call from `version`.
    pub(crate) fn build(
        api: Api,
        model: String,
        results: Vec<(ToolCall, R)>,
        unanswered: Vec<ToolCall>,
        version: impl Fn(&ToolCall, &R) -> Option<Version>,
    ) -> ToolRound<R> {
        let items = results
            .iter()
            .filter_map(|(call, outcome)| api.output_item(call, outcome.as_ref()))
            .collect();
        let stop = results
            .iter()
            .any(|(_, outcome)| outcome.as_ref().is_fatal());
        let records = results
            .iter()
            .map(|(call, outcome)| CallRecord::new(api, &model, call, version(call, outcome)))
            .collect();
        ToolRound {
            api,
            model,
            results,
            unanswered,
            items,
            stop,
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
/// `ToolboxExt::answer_chat_completions` (cargo feature `runtime`).
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
///     round.items,
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
/// [`not_run`](crate::not_run).
pub fn answer_responses(
    response: &Value,
    contracts: &[&'static ToolContract],
    run: impl FnMut(&ToolCall) -> ToolOutput,
) -> Result<ToolRound, ResponseError> {
    let calls = responses_calls(response)?;
    if let Some(reason) = unfinished(response) {
        // Every call answered not run, a known tool or not (a name may be
        // cut off too), as the runtime refuses before it looks the tool up.
        let error = not_run(&reason);
        let ResponseCalls { api, model, calls } = calls;
        let results = calls
            .into_iter()
            .map(|call| (call, ToolOutput::respond_to_model(error.clone())))
            .collect();
        return Ok(ToolRound::build(
            api,
            model,
            results,
            Vec::new(),
            |call, _| call.contract_in(contracts).map(ToolContract::version),
        ));
    }
    Ok(answer_tool_calls(calls, contracts, run))
}

/// Answers calls already read from a response (or built with
/// [`ResponseCalls::new`]); see [`answer_chat_completions`].
pub fn answer_tool_calls(
    calls: ResponseCalls,
    contracts: &[&'static ToolContract],
    mut run: impl FnMut(&ToolCall) -> ToolOutput,
) -> ToolRound {
    let ResponseCalls { api, model, calls } = calls;
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
    ToolRound::build(api, model, results, calls.collect(), |call, _| {
        call.contract_in(contracts).map(ToolContract::version)
    })
}

/// `UNKNOWN_TOOL`: the model called a tool that was not offered (the same
/// error the runtime's `Toolbox` answers), with the name and the offered
/// tools in the details.
pub fn unknown_tool(name: &str, contracts: &[&'static ToolContract]) -> ToolOutput {
    let known: Vec<&str> = contracts.iter().map(|c| c.name()).collect();
    ToolOutput::RespondToModel {
        error: ToolError::unknown_tool(name, known.iter().copied()),
        details: json!({"tool": name, "known_tools": known}),
    }
}
