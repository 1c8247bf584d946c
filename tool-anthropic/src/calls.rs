//! The `tool_use` blocks of a Messages API response, read as the
//! provider-neutral calls the runtime runs.

use serde_json::{Map, Value};
pub use tool_core::ResponseError;
use tool_core::ToolCall;

/// The provider name in records and logs.
pub const PROVIDER: &str = "anthropic";

/// The tool calls of one response, in order, with the model that made them
/// and why it stopped (`tool_use`, `end_turn`, `max_tokens`, `refusal`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResponseCalls {
    /// The model, as the response names it.
    pub model: String,
    /// The response's `stop_reason`, if any. Calls are run only with
    /// `tool_use`: with another reason or none (`max_tokens` may cut a
    /// block short) they are answered `CALL_NOT_RUN` ([`not_run`](crate::not_run)).
    pub stop_reason: Option<String>,
    /// The calls, in the order of their `tool_use` blocks.
    pub calls: Vec<ToolCall>,
}

impl ResponseCalls {
    /// Whether the response has no tool calls.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }
}

/// The `tool_use` blocks of a Messages API response (`content[]`), in
/// order. Other blocks (`text`, `thinking`, server tools) are skipped. The
/// `input` object becomes the call's arguments as compact JSON text
/// ([`ToolCall::with_object`]); the calls match enum values exactly; read
/// them through a [`ToolSet`](crate::ToolSet) to match those of strict
/// tools ignoring case.
///
/// ```
/// use serde_json::json;
///
/// let response = json!({
///     "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
///     "stop_reason": "tool_use",
///     "content": [
///         {"type": "text", "text": "Checking."},
///         {"type": "tool_use", "id": "toolu_01", "name": "get_store_hours", "input": {"store": "BER-1"}}
///     ]
/// });
/// let calls = tool_contract::anthropic::tool_use_calls(&response)?;
/// assert_eq!(calls.calls[0].arguments, r#"{"store":"BER-1"}"#);
/// assert_eq!(calls.stop_reason.as_deref(), Some("tool_use"));
/// # Ok::<(), tool_contract::anthropic::ResponseError>(())
/// ```
pub fn tool_use_calls(response: &Value) -> Result<ResponseCalls, ResponseError> {
    let Some(response) = response.as_object() else {
        return Err(ResponseError::new(
            "$",
            format!("expected an object, got {}", kind(response)),
        ));
    };
    if response.get("type").and_then(Value::as_str) == Some("error") {
        let message = response
            .get("error")
            .and_then(|e| e.get("message"))
            .and_then(Value::as_str)
            .unwrap_or("no message");
        return Err(ResponseError::new(
            "$.error",
            format!("the API answered with an error: {message}"),
        ));
    }
    let model = match response.get("model") {
        Some(Value::String(model)) => model.clone(),
        None => String::new(),
        Some(other) => {
            return Err(ResponseError::new(
                "$.model",
                format!("expected a string, got {}", kind(other)),
            ));
        }
    };
    let stop_reason = match response.get("stop_reason") {
        None | Some(Value::Null) => None,
        Some(Value::String(reason)) => Some(reason.clone()),
        Some(other) => {
            return Err(ResponseError::new(
                "$.stop_reason",
                format!("expected a string, got {}", kind(other)),
            ));
        }
    };
    let content = match response.get("content") {
        Some(Value::Array(content)) => content,
        Some(other) => {
            return Err(ResponseError::new(
                "$.content",
                format!("expected an array, got {}", kind(other)),
            ));
        }
        None => return Err(ResponseError::new("$", "missing `content`")),
    };
    let mut calls = Vec::new();
    for (index, block) in content.iter().enumerate() {
        let at = format!("$.content[{index}]");
        let Some(block) = block.as_object() else {
            return Err(ResponseError::new(
                &at,
                format!("expected an object, got {}", kind(block)),
            ));
        };
        if block.get("type").and_then(Value::as_str) != Some("tool_use") {
            continue;
        }
        let id = string(block, "id", &at)?;
        let name = string(block, "name", &at)?;
        if calls.iter().any(|call: &ToolCall| call.call_id == id) {
            return Err(ResponseError::new(
                format!("{at}.id"),
                format!(
                    "a second tool_use block with the id `{id}`; two calls with one id cannot \
                     be told apart (their results would answer either), so no call is given out"
                ),
            ));
        }
        calls.push(ToolCall::with_object(id, name, block.get("input")));
    }
    Ok(ResponseCalls {
        model,
        stop_reason,
        calls,
    })
}

fn string<'v>(
    block: &'v Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<&'v str, ResponseError> {
    match block.get(key) {
        Some(Value::String(text)) => Ok(text),
        Some(other) => Err(ResponseError::new(
            format!("{at}.{key}"),
            format!("expected a string, got {}", kind(other)),
        )),
        None => Err(ResponseError::new(at, format!("missing `{key}`"))),
    }
}

pub(crate) use tool_core::outcome::json_kind as kind;
