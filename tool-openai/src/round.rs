//! One round of the agent loop: answer every tool call of a response.

use serde_json::{Value, json};
use tool_core::{ToolContract, ToolError, ToolOutput};

use crate::calls::{CallRecord, ResponseError, ToolCall, chat_completions_calls, responses_calls};

/// What answering one response's tool calls gives: the outcome of each call,
/// the messages or items to send back, and whether the loop must stop.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolRound {
    /// Each call that was answered, with its outcome, in call order. A fatal
    /// outcome is the last one.
    pub results: Vec<(ToolCall, ToolOutput)>,
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
}

impl ToolRound {
    /// True when the response had no tool calls: the model answered in text
    /// and the loop is over.
    pub fn is_final_answer(&self) -> bool {
        self.results.is_empty() && self.unanswered.is_empty()
    }

    /// The round for calls that were run elsewhere, for instance
    /// concurrently by an async dispatcher: each non-fatal outcome is
    /// written in the order given, and `stop` is set when any outcome is
    /// fatal. Answer unknown tools with [`unknown_tool`] before running.
    ///
    /// ```
    /// use tool_contract::ToolOutput;
    /// use tool_contract::openai::{Api, ToolCall, ToolRound};
    ///
    /// let call = ToolCall::new(Api::Responses, "gpt-4.1", "call_1", "get_inventory", "{}", &[]);
    /// let round = ToolRound::from_results(vec![(call, ToolOutput::success("12 in stock"))]);
    /// assert_eq!(round.items[0]["output"], "12 in stock");
    /// assert!(!round.stop);
    /// ```
    pub fn from_results(results: Vec<(ToolCall, ToolOutput)>) -> ToolRound {
        let items = results
            .iter()
            .filter_map(|(call, output)| call.output_item(output))
            .collect();
        let stop = results.iter().any(|(_, output)| output.is_fatal());
        ToolRound {
            results,
            unanswered: Vec::new(),
            items,
            stop,
        }
    }

    /// A record of each answered call.
    pub fn records(&self) -> Vec<CallRecord> {
        self.results.iter().map(|(call, _)| call.record()).collect()
    }
}

/// Answers every tool call of a Chat Completions response.
///
/// `contracts` are the tools that were offered. A call of a tool not among
/// them is answered with `UNKNOWN_TOOL` (listing the tools there are)
/// without calling `run`; every other call is passed to `run`, which parses
/// the arguments (see [`ToolCall::parse`]) and runs the tool. Calls after a
/// fatal outcome are not run.
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
    let calls = chat_completions_calls(response, contracts)?;
    Ok(answer_tool_calls(calls, contracts, run))
}

/// Answers every tool call of a Responses API response; as
/// [`answer_chat_completions`], with `function_call_output` items.
pub fn answer_responses(
    response: &Value,
    contracts: &[&'static ToolContract],
    run: impl FnMut(&ToolCall) -> ToolOutput,
) -> Result<ToolRound, ResponseError> {
    let calls = responses_calls(response, contracts)?;
    Ok(answer_tool_calls(calls, contracts, run))
}

/// Answers calls already read from a response (or built with
/// [`ToolCall::new`]); see [`answer_chat_completions`].
pub fn answer_tool_calls(
    calls: Vec<ToolCall>,
    contracts: &[&'static ToolContract],
    mut run: impl FnMut(&ToolCall) -> ToolOutput,
) -> ToolRound {
    let mut results = Vec::with_capacity(calls.len());
    let mut calls = calls.into_iter();
    for call in calls.by_ref() {
        let output = match call.contract() {
            Some(_) => run(&call),
            None => unknown_tool(call.name(), contracts),
        };
        let fatal = output.is_fatal();
        results.push((call, output));
        if fatal {
            break;
        }
    }
    let mut round = ToolRound::from_results(results);
    round.unanswered.extend(calls);
    round
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
