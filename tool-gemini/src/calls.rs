//! Function calls read out of a Gemini `generateContent` response, and the
//! `functionResponse` parts that answer them.

use serde_json::{Map, Value, json};
pub use tool_core::ResponseError;
use tool_core::{ErrorCategory, OutputKind, ToolCall, ToolError, ToolOutput};

/// The provider name of these calls.
pub const PROVIDER: &str = "gemini";

/// One `functionCall` part: the provider-neutral [`ToolCall`] a `Toolbox`
/// runs, and the `id` Gemini gave it, if any.
///
/// Gemini does not always give an id (older models leave it out); the
/// call's `call_id` is then `"{name}#{n}"` (`n` its place in the response),
/// unique within the response for the runtime, and the `functionResponse`
/// leaves the id out as well.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeminiCall {
    /// The call as the runtime runs it.
    pub call: ToolCall,
    /// Gemini's `functionCall.id`, when it gave one.
    pub id: Option<String>,
}

/// The function calls of one response, in order, with the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeminiCalls {
    /// The model, as the response's `modelVersion` names it (empty when the
    /// response does not say).
    pub model: String,
    /// The calls, in the order of their parts.
    pub calls: Vec<GeminiCall>,
    /// The candidate's `content` as it came, to append to the history
    /// unchanged (it carries Gemini 3's thought signatures); `None` when
    /// the response has no candidate.
    pub content: Option<Value>,
    /// The `finishReason` of the candidate the calls (or, without calls,
    /// the content) come from, as it came; `None` when it has none.
    pub finish_reason: Option<String>,
}

impl GeminiCalls {
    /// True when the model answered without calling a function.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// The `ToolCall`s alone, in order.
    pub fn tool_calls(&self) -> Vec<ToolCall> {
        self.calls.iter().map(|c| c.call.clone()).collect()
    }

    /// True when the calls are the model's finished decision and may run:
    /// their candidate finished with `STOP` (or there are no calls). A
    /// candidate that finished for any other reason (`MAX_TOKENS`,
    /// `MALFORMED_FUNCTION_CALL`, `SAFETY`, `RECITATION`, `OTHER`,
    /// `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`, a reason this version does
    /// not know) may hold calls cut off or withheld, and one without a
    /// `finishReason` (a streamed chunk before the last) is not whole yet:
    /// their calls are answered [`not_run`], never run.
    pub fn may_run(&self) -> bool {
        self.calls.is_empty() || self.finish_reason.as_deref() == Some(FINISHED)
    }
}

/// The one `finishReason` whose calls may run.
const FINISHED: &str = "STOP";

/// The error answering each call of a candidate that did not finish with
/// `STOP` (`finish_reason` as [`GeminiCalls::finish_reason`] holds it):
/// `CALL_NOT_RUN`.
///
/// ```
/// assert_eq!(
///     tool_contract::gemini::not_run(Some("MAX_TOKENS")).model_text(),
///     "Error [CALL_NOT_RUN]: The call did not run: the answer finished with \"MAX_TOKENS\", \
///      not \"STOP\", so its calls may be cut off or withheld. Make the call again if it is \
///      still needed."
/// );
/// ```
pub fn not_run(finish_reason: Option<&str>) -> ToolError {
    let why = match finish_reason {
        // Quoted, escaped and cut as every echo of a provider's text is.
        Some(reason) => format!(
            "the answer finished with {}, not \"{FINISHED}\", so its calls may be cut off or \
             withheld",
            tool_core::words::echo(reason)
        ),
        None => "the answer has no finishReason, so it is not whole (a streamed chunk before \
                 the last)"
            .to_owned(),
    };
    ToolError::new(
        ToolError::CALL_NOT_RUN,
        ErrorCategory::Aborted,
        format!("The call did not run: {why}. Make the call again if it is still needed."),
    )
}

/// The arguments of a `functionCall` as the text the parser reads: `args`
/// is a JSON object and may be missing (= `{}`).
///
/// The one place where Gemini's object arguments become text; once the
/// parser takes a JSON object directly, this is where it changes.
fn arguments_text(args: Option<&Value>) -> String {
    match args {
        None | Some(Value::Null) => "{}".to_owned(),
        // A `Value` always serializes; the fallback keeps this total.
        Some(args) => serde_json::to_string(args).unwrap_or_else(|_| "{}".to_owned()),
    }
}

/// The function calls of a `generateContent` response
/// (`candidates[].content.parts[].functionCall`), in order.
///
/// Parts of other kinds (text, thoughts, inline data) are left out. A
/// response whose prompt was blocked, or with calls in more than one
/// candidate (`candidateCount` > 1), is an error. The candidate's
/// `finishReason` is kept: calls may run only when it is `STOP`
/// ([`GeminiCalls::may_run`]).
///
/// ```
/// use serde_json::json;
/// use tool_contract::gemini::generate_content_calls;
///
/// let response = json!({"modelVersion": "gemini-2.5-flash", "candidates": [{"content": {
///     "role": "model",
///     "parts": [{"functionCall": {"id": "fc-1", "name": "get_inventory", "args": {"sku": "SKU-1"}}},
///               {"functionCall": {"name": "list_stores"}}]}, "finishReason": "STOP"}]});
/// let calls = generate_content_calls(&response)?;
/// assert!(calls.may_run());
/// assert_eq!(calls.calls[0].call.arguments, r#"{"sku":"SKU-1"}"#);
/// assert_eq!(calls.calls[1].call.call_id, "list_stores#1");
/// assert_eq!(calls.calls[1].call.arguments, "{}");
/// # Ok::<(), tool_contract::gemini::ResponseError>(())
/// ```
pub fn generate_content_calls(response: &Value) -> Result<GeminiCalls, ResponseError> {
    let response = object(response, "$")?;
    if let Some(error) = response.get("error") {
        let message = error
            .get("message")
            .and_then(Value::as_str)
            .map_or_else(|| error.to_string(), str::to_owned);
        return Err(ResponseError::new(
            "$.error",
            format!("the API answered with an error: {message}"),
        ));
    }
    let model = match response.get("modelVersion") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(model)) => model.clone(),
        Some(other) => {
            return Err(ResponseError::new(
                "$.modelVersion",
                format!("expected a string, got {other}"),
            ));
        }
    };
    let candidates = match response.get("candidates") {
        None | Some(Value::Null) => {
            let reason = response
                .get("promptFeedback")
                .and_then(|f| f.get("blockReason"))
                .and_then(Value::as_str);
            if let Some(reason) = reason {
                return Err(ResponseError::new(
                    "$.promptFeedback.blockReason",
                    format!("the prompt was blocked ({reason}); there is no candidate"),
                ));
            }
            return Ok(GeminiCalls {
                model,
                calls: Vec::new(),
                content: None,
                finish_reason: None,
            });
        }
        Some(Value::Array(candidates)) => candidates,
        Some(other) => {
            return Err(ResponseError::new(
                "$.candidates",
                format!("expected an array, got {other}"),
            ));
        }
    };
    let mut calls = Vec::new();
    let mut content = None;
    let mut finish_reason = None;
    let mut with_calls = 0;
    for (i, candidate) in candidates.iter().enumerate() {
        let at = format!("$.candidates[{i}]");
        let candidate = object(candidate, &at)?;
        let reason = match candidate.get("finishReason") {
            None | Some(Value::Null) => None,
            Some(Value::String(reason)) => Some(reason.clone()),
            Some(other) => {
                return Err(ResponseError::new(
                    format!("{at}.finishReason"),
                    format!("expected a string, got {other}"),
                ));
            }
        };
        let Some(candidate_content) = candidate.get("content").filter(|c| !c.is_null()) else {
            continue;
        };
        let at = format!("{at}.content");
        let parts = match object(candidate_content, &at)?.get("parts") {
            None | Some(Value::Null) => continue,
            Some(Value::Array(parts)) => parts,
            Some(other) => {
                return Err(ResponseError::new(
                    format!("{at}.parts"),
                    format!("expected an array, got {other}"),
                ));
            }
        };
        let before = calls.len();
        for (j, part) in parts.iter().enumerate() {
            let at = format!("{at}.parts[{j}]");
            let Some(function_call) = object(part, &at)?.get("functionCall") else {
                continue;
            };
            let at = format!("{at}.functionCall");
            let function_call = object(function_call, &at)?;
            let name = match function_call.get("name") {
                Some(Value::String(name)) if !name.is_empty() => name,
                _ => {
                    return Err(ResponseError::new(
                        format!("{at}.name"),
                        "missing or not a string",
                    ));
                }
            };
            let id = match function_call.get("id") {
                None | Some(Value::Null) => None,
                Some(Value::String(id)) => Some(id.clone()),
                Some(other) => {
                    return Err(ResponseError::new(
                        format!("{at}.id"),
                        format!("expected a string, got {other}"),
                    ));
                }
            };
            if let Some(id) = &id
                && calls.iter().any(|c: &GeminiCall| c.id.as_ref() == Some(id))
            {
                return Err(ResponseError::new(
                    format!("{at}.id"),
                    format!(
                        "a second function call with the id `{id}`; two calls with one id \
                         cannot be told apart (their responses would answer either), so no \
                         call is given out"
                    ),
                ));
            }
            // The runtime's id; a call without one is named after its tool
            // and position below, once every id the API gave is known.
            let call_id = id.clone().unwrap_or_default();
            let arguments = arguments_text(function_call.get("args"));
            calls.push(GeminiCall {
                call: ToolCall::new(call_id, name.as_str(), arguments),
                id,
            });
        }
        if calls.len() > before {
            with_calls += 1;
            content = Some(candidate_content.clone());
            finish_reason = reason;
        } else if content.is_none() {
            content = Some(candidate_content.clone());
            finish_reason = reason;
        }
    }
    name_unnamed_calls(&mut calls);
    if with_calls > 1 {
        return Err(ResponseError::new(
            "$.candidates",
            format!(
                "{with_calls} candidates have function calls; they are alternatives and only one \
                 can be answered, so request `candidateCount: 1` when offering tools"
            ),
        ));
    }
    Ok(GeminiCalls {
        model,
        calls,
        content,
        finish_reason,
    })
}

/// Gives each call the API sent without an `id` the runtime id
/// `name#position` (`get_weather#1`), made unique against the ids the API
/// gave and each other (`get_weather#1#2` when the API itself used
/// `get_weather#1`), so no two calls of a response share an id.
fn name_unnamed_calls(calls: &mut [GeminiCall]) {
    let mut taken: std::collections::HashSet<String> =
        calls.iter().filter_map(|c| c.id.clone()).collect();
    for (position, call) in calls.iter_mut().enumerate() {
        if call.id.is_some() {
            continue;
        }
        let mut id = format!("{}#{position}", call.call.name);
        let mut suffix = position;
        while taken.contains(&id) {
            suffix += 1;
            id = format!("{}#{position}#{suffix}", call.call.name);
        }
        taken.insert(id.clone());
        call.call.call_id = id;
    }
}

/// The `functionResponse` part that answers `call` with an outcome:
/// `{"functionResponse": {"id", "name", "response": {"output": text}}}`,
/// or `{"error": text}` for an error the model should act on (Gemini has no
/// `is_error`); `None` for a fatal outcome, which answers nothing.
///
/// ```
/// use serde_json::json;
/// use tool_contract::ToolOutput;
/// use tool_contract::gemini::{GeminiCall, function_response};
///
/// let call = GeminiCall { call: tool_contract::ToolCall::new("fc-1", "get_inventory", "{}"), id: Some("fc-1".into()) };
/// assert_eq!(
///     function_response(&call, &ToolOutput::success("12 in stock")),
///     Some(json!({"functionResponse": {"id": "fc-1", "name": "get_inventory",
///         "response": {"output": "12 in stock"}}}))
/// );
/// ```
pub fn function_response(call: &GeminiCall, output: &ToolOutput) -> Option<Value> {
    let text = output.model_text()?;
    let key = match output.kind() {
        OutputKind::Success => "output",
        _ => "error",
    };
    let mut response = Map::new();
    if let Some(id) = &call.id {
        response.insert("id".to_owned(), Value::String(id.clone()));
    }
    response.insert("name".to_owned(), Value::String(call.call.name.clone()));
    response.insert("response".to_owned(), json!({ key: text }));
    Some(json!({ "functionResponse": response }))
}

/// The user turn that answers a model turn: every `functionResponse` part,
/// in call order, in one `{"role": "user", "parts": [...]}` content.
pub fn function_responses_content(parts: Vec<Value>) -> Value {
    json!({"role": "user", "parts": parts})
}

fn object<'v>(value: &'v Value, at: &str) -> Result<&'v Map<String, Value>, ResponseError> {
    value
        .as_object()
        .ok_or_else(|| ResponseError::new(at, format!("expected an object, got {value}")))
}
