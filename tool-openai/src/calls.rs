//! Tool calls read out of Chat Completions and Responses API responses.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
pub use tool_core::ResponseError;
use tool_core::{ErrorCategory, ToolCall, ToolContract, ToolError, ToolOutput, Version};

/// The provider name in every [`CallRecord`].
pub const PROVIDER: &str = "openai";

/// Which OpenAI API a call came from; it decides the shape of the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Api {
    /// `POST /v1/chat/completions`: calls in `choices[].message.tool_calls[]`,
    /// outputs as `{"role": "tool", ...}` messages.
    ChatCompletions,
    /// `POST /v1/responses`: calls as `function_call` output items, outputs as
    /// `function_call_output` input items.
    Responses,
}

impl Api {
    /// `chat_completions` or `responses`.
    pub fn as_str(self) -> &'static str {
        match self {
            Api::ChatCompletions => "chat_completions",
            Api::Responses => "responses",
        }
    }

    /// The message (Chat Completions) or input item (Responses) that answers
    /// `call` with the outcome's model text; `None` for a fatal outcome,
    /// which writes nothing.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_contract::{ToolCall, ToolOutput};
    /// use tool_contract::openai::Api;
    ///
    /// let call = ToolCall::new("call_1", "get_inventory", "{}");
    /// assert_eq!(
    ///     Api::Responses.output_item(&call, &ToolOutput::success("12 in stock")),
    ///     Some(json!({"type": "function_call_output", "call_id": "call_1", "output": "12 in stock"}))
    /// );
    /// ```
    pub fn output_item(self, call: &ToolCall, output: &ToolOutput) -> Option<Value> {
        let text = output.model_text()?;
        Some(match self {
            Api::ChatCompletions => json!({
                "role": "tool",
                "tool_call_id": call.call_id,
                "content": text,
            }),
            Api::Responses => json!({
                "type": "function_call_output",
                "call_id": call.call_id,
                "output": text,
            }),
        })
    }
}

/// The tool calls of one response, in order, with the facts about where
/// they come from that the calls themselves do not carry: the API (which
/// decides the shape of the answers) and the model.
///
/// Each call is the provider-neutral [`ToolCall`] that a `Toolbox` runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResponseCalls {
    /// The API the response came from.
    pub api: Api,
    /// The model that made the calls, as the response names it
    /// (e.g. `gpt-4.1-2025-04-14`).
    pub model: String,
    /// The function calls, in the order the model made them.
    pub calls: Vec<ToolCall>,
}

impl ResponseCalls {
    /// Calls made by `model` through `api`.
    pub fn new(api: Api, model: impl Into<String>, calls: Vec<ToolCall>) -> Self {
        ResponseCalls {
            api,
            model: model.into(),
            calls,
        }
    }

    /// Always `"openai"`.
    pub fn provider(&self) -> &'static str {
        PROVIDER
    }

    /// True when the response has no function calls: the model answered in
    /// text.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// What to record about `call`, one of these calls; its contract
    /// version is looked up by name in `contracts`.
    pub fn record(&self, call: &ToolCall, contracts: &[&'static ToolContract]) -> CallRecord {
        let version = call.contract_in(contracts).map(ToolContract::version);
        CallRecord::new(self.api, &self.model, call, version)
    }
}

/// What is recorded about each call: provider, API, model, tool and the
/// version of the tool's contract.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallRecord {
    /// Always `"openai"`.
    pub provider: String,
    /// The API the call came from.
    pub api: Api,
    /// The model that made the call.
    pub model: String,
    /// The call's id.
    pub call_id: String,
    /// The tool name the model called.
    pub tool: String,
    /// The version of the tool's contract; `None` for an unknown tool.
    pub contract_version: Option<Version>,
}

impl CallRecord {
    /// The record of `call`, made by `model` through `api` and handled by
    /// the contract at `contract_version` (`None` for an unknown tool).
    pub fn new(
        api: Api,
        model: impl Into<String>,
        call: &ToolCall,
        contract_version: Option<Version>,
    ) -> Self {
        CallRecord {
            provider: PROVIDER.to_owned(),
            api,
            model: model.into(),
            call_id: call.call_id.clone(),
            tool: call.name.clone(),
            contract_version,
        }
    }
}

/// The function calls of a Chat Completions response
/// (`choices[].message.tool_calls[]`), in order, with the model that made
/// them.
///
/// Calls of other kinds (`type` other than `function`) are left out. A
/// response with tool calls in more than one choice (`n` > 1) is an error:
/// the choices are alternatives, and only one can be answered.
pub fn chat_completions_calls(response: &Value) -> Result<ResponseCalls, ResponseError> {
    let response = object(response, "$")?;
    api_error(response)?;
    let model = string_field(response, "model", "$")?;
    let choices = array_field(response, "choices", "$")?;
    let mut calls = Vec::new();
    let mut choices_with_calls = 0;
    for (i, choice) in choices.iter().enumerate() {
        let at = format!("$.choices[{i}]");
        let message = object_field(object(choice, &at)?, "message", &at)?;
        let at = format!("{at}.message");
        let tool_calls = match message.get("tool_calls") {
            None | Some(Value::Null) => continue,
            Some(Value::Array(tool_calls)) => tool_calls,
            Some(_) => {
                return Err(ResponseError::new(
                    format!("{at}.tool_calls"),
                    "not an array",
                ));
            }
        };
        if !tool_calls.is_empty() {
            choices_with_calls += 1;
            // As the stream assembler: a choice cut off by the token limit
            // or the content filter may hold a call whose arguments were
            // cut short; none of its calls is given out.
            let choice_at = at.trim_end_matches(".message");
            if let Some(Value::String(reason)) = object(choice, choice_at)?.get("finish_reason")
                && matches!(reason.as_str(), "length" | "content_filter")
            {
                return Err(ResponseError::new(
                    format!("{choice_at}.finish_reason"),
                    format!(
                        "the choice finished with `{reason}` while calling tools; its calls may \
                         be cut off, so no call is given out"
                    ),
                ));
            }
        }
        // Ids are compared within a choice; several choices with calls are
        // refused as alternatives below.
        let choice_start = calls.len();
        for (j, tool_call) in tool_calls.iter().enumerate() {
            let at = format!("{at}.tool_calls[{j}]");
            let tool_call = object(tool_call, &at)?;
            if tool_call.get("type").is_some_and(|t| t != "function") {
                continue;
            }
            let id = string_field(tool_call, "id", &at)?;
            let function = object_field(tool_call, "function", &at)?;
            let at = format!("{at}.function");
            let name = string_field(function, "name", &at)?;
            let arguments = string_field(function, "arguments", &at)?;
            refuse_shared_id(&calls[choice_start..], id, &at.replace(".function", ".id"))?;
            calls.push(ToolCall::new(id, name, arguments));
        }
    }
    if choices_with_calls > 1 {
        return Err(ResponseError::new(
            "$.choices",
            format!(
                "{choices_with_calls} choices have tool calls; they are alternatives and only \
                 one can be answered, so request `n: 1` when offering tools"
            ),
        ));
    }
    Ok(ResponseCalls::new(Api::ChatCompletions, model, calls))
}

/// The function calls of a Responses API response (`output[]` items of type
/// `function_call`), in order, with the model that made them. Other items
/// (messages, reasoning, built-in tool calls) are left out.
pub fn responses_calls(response: &Value) -> Result<ResponseCalls, ResponseError> {
    let response = object(response, "$")?;
    // A response object has a `status`; its `error` is why it failed (see
    // `unfinished`), not an error body.
    if !response.contains_key("status") {
        api_error(response)?;
    }
    let model = string_field(response, "model", "$")?;
    let output = array_field(response, "output", "$")?;
    let mut calls = Vec::new();
    for (i, item) in output.iter().enumerate() {
        let at = format!("$.output[{i}]");
        let item = object(item, &at)?;
        if string_field(item, "type", &at)? != "function_call" {
            continue;
        }
        let call_id = string_field(item, "call_id", &at)?;
        let name = string_field(item, "name", &at)?;
        let arguments = string_field(item, "arguments", &at)?;
        refuse_shared_id(&calls, call_id, &format!("{at}.call_id"))?;
        calls.push(ToolCall::new(call_id, name, arguments));
    }
    Ok(ResponseCalls::new(Api::Responses, model, calls))
}

/// Why a Responses API response did not complete, when it did not: for
/// `"status": "incomplete"` the reason it was cut off
/// (`incomplete_details.reason`, `unknown` when it does not say), for any
/// other status but `completed` the status (`cancelled`, `failed`,
/// `in_progress`, ...). In a completed response (or one without a
/// status: compatible servers leave it out), a `function_call` item whose
/// own `status` is not `completed` is not whole either: the reason is then
/// `function_call {call_id} is {status}`. `None` when the response and
/// every call in it are whole. The calls of a response that did not
/// complete are not the model's finished decision: they are answered
/// [`not_run`], never run, all of them (the stream assembler refuses such a
/// response whole as well).
///
/// ```
/// use serde_json::json;
/// use tool_contract::openai::unfinished;
///
/// let cut = json!({"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}});
/// assert_eq!(unfinished(&cut).as_deref(), Some("max_output_tokens"));
/// assert_eq!(unfinished(&json!({"status": "cancelled"})).as_deref(), Some("cancelled"));
/// assert_eq!(unfinished(&json!({"status": "completed"})), None);
/// let half = json!({"status": "completed", "output": [
///     {"type": "function_call", "call_id": "call_2", "status": "in_progress"}]});
/// assert_eq!(unfinished(&half).as_deref(), Some("function_call call_2 is in_progress"));
/// ```
pub fn unfinished(response: &Value) -> Option<String> {
    match &response["status"] {
        Value::String(status) if status == "incomplete" => {
            return Some(
                response["incomplete_details"]["reason"]
                    .as_str()
                    .unwrap_or("unknown")
                    .to_owned(),
            );
        }
        Value::String(status) if status == "completed" => {}
        Value::String(status) => return Some(status.clone()),
        Value::Null => {}
        other => return Some(other.to_string()),
    }
    unfinished_call(response)
}

/// The first `function_call` item that is not whole, as the reason
/// `function_call call_2 is incomplete`: an item whose `status` is given
/// and is not `completed` (`incomplete`, `in_progress`, anything else). An
/// item without a `status` is whole (compatible servers leave it out), as
/// the stream assembler reads it.
fn unfinished_call(response: &Value) -> Option<String> {
    let output = response["output"].as_array()?;
    output.iter().find_map(|item| {
        if item["type"] != "function_call" {
            return None;
        }
        let status = match &item["status"] {
            Value::Null => return None,
            Value::String(status) if status == "completed" => return None,
            Value::String(status) => status.clone(),
            other => other.to_string(),
        };
        let call_id = match &item["call_id"] {
            Value::String(id) => id.clone(),
            other => other.to_string(),
        };
        Some(format!("function_call {call_id} is {status}"))
    })
}

/// The error answering each call of a response that did not complete
/// (`reason` as [`unfinished`] gives it): `CALL_NOT_RUN`.
///
/// ```
/// assert_eq!(
///     tool_contract::openai::not_run("max_output_tokens").model_text(),
///     "Error [CALL_NOT_RUN]: The call did not run: the response did not complete \
///      (\"max_output_tokens\"), so its arguments may be incomplete. Make the call again if \
///      it is still needed."
/// );
/// ```
pub fn not_run(reason: &str) -> ToolError {
    ToolError::new(
        ToolError::CALL_NOT_RUN,
        ErrorCategory::Aborted,
        // The reason comes from the response: quoted, escaped and cut as
        // every echo of the model's or a provider's text is.
        format!(
            "The call did not run: the response did not complete ({}), so its arguments may be \
             incomplete. Make the call again if it is still needed.",
            tool_core::words::echo(reason)
        ),
    )
}

/// Refuses a call whose id an earlier call of the response has: a result
/// could not be matched to its call.
fn refuse_shared_id(calls: &[ToolCall], id: &str, at: &str) -> Result<(), ResponseError> {
    if calls.iter().any(|call| call.call_id == id) {
        return Err(ResponseError::new(
            at,
            format!(
                "a second call with the id `{id}`; two calls with one id cannot be told apart \
                 (their outputs would answer either), so no call is given out"
            ),
        ));
    }
    Ok(())
}

/// An error body (`{"error": {"message": ...}}`) instead of a response.
fn api_error(response: &Map<String, Value>) -> Result<(), ResponseError> {
    match response.get("error") {
        None | Some(Value::Null) => Ok(()),
        Some(error) => {
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .map_or_else(|| error.to_string(), str::to_owned);
            Err(ResponseError::new(
                "$.error",
                format!("the API answered with an error: {message}"),
            ))
        }
    }
}

use tool_core::outcome::json_kind as kind;

fn object<'v>(value: &'v Value, at: &str) -> Result<&'v Map<String, Value>, ResponseError> {
    value
        .as_object()
        .ok_or_else(|| ResponseError::new(at, format!("expected an object, got {}", kind(value))))
}

fn field<'v>(map: &'v Map<String, Value>, key: &str, at: &str) -> Result<&'v Value, ResponseError> {
    map.get(key)
        .ok_or_else(|| ResponseError::new(format!("{at}.{key}"), "missing"))
}

fn object_field<'v>(
    map: &'v Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<&'v Map<String, Value>, ResponseError> {
    object(field(map, key, at)?, &format!("{at}.{key}"))
}

fn array_field<'v>(
    map: &'v Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<&'v Vec<Value>, ResponseError> {
    let value = field(map, key, at)?;
    value.as_array().ok_or_else(|| {
        ResponseError::new(
            format!("{at}.{key}"),
            format!("expected an array, got {}", kind(value)),
        )
    })
}

fn string_field<'v>(
    map: &'v Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<&'v str, ResponseError> {
    let value = field(map, key, at)?;
    value.as_str().ok_or_else(|| {
        ResponseError::new(
            format!("{at}.{key}"),
            format!("expected a string, got {}", kind(value)),
        )
    })
}
