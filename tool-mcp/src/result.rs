//! A call's outcome as MCP's `CallToolResult`, or the JSON-RPC error MCP
//! keeps for an unknown tool and a server failure.

use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, MetaObject};
use serde_json::{Map, Value};
use tool_core::{ErrorCategory, Recovery, ToolContract, ToolError, ToolOutput};
use tool_runtime::CallResult;

use crate::definition::{META_ERROR, META_TRUNCATED};
use crate::output::{VALUE_KEY, wraps};

/// The message of the JSON-RPC error that answers a fatal outcome; the
/// reason stays in the audit record.
pub const FATAL_MESSAGE: &str =
    "The tool failed inside the server; the reason is in the server's audit record.";

/// The code of the error that answers a success too large to send whole
/// whose output is not a string: its text was cut at the toolbox's
/// `with_max_content_bytes` limit, and a cut JSON text meets no output
/// schema (see [`call_tool_result`]).
pub const RESULT_TOO_LARGE: &str = "RESULT_TOO_LARGE";

/// The error that answers a success of `contract` whose text was cut and
/// whose declared output is not a string (`None`: it goes out as a cut
/// success): the tool ran, so the message says so, lest the model repeat a
/// write for a result it would not see either.
pub(crate) fn too_large(contract: &ToolContract, output: &ToolOutput) -> Option<ToolError> {
    let ToolOutput::Success {
        truncated: true,
        content_text,
        details,
        ..
    } = output
    else {
        return None;
    };
    if !contract.output().declared() || details.is_string() {
        return None;
    }
    Some(too_large_error(content_text, details))
}

/// [`RESULT_TOO_LARGE`] for an output `details` whose text was cut to
/// `content_text`: the message gives the bytes that fitted (the cut falls
/// at a character's start, so they may be up to 3 fewer than the limit).
pub(crate) fn too_large_error(content_text: &str, details: &Value) -> ToolError {
    let message = format!(
        "The tool ran and succeeded, but its result ({} bytes as JSON) is more than this server sends whole (only its first {} bytes fit), and a cut result would not be valid; do not repeat the call to see it: ask for less (a narrower request), or ask the user.",
        details.to_string().len(),
        content_text.len()
    );
    ToolError::new(RESULT_TOO_LARGE, ErrorCategory::Conflict, message)
        .with_recovery(Recovery::FixArguments)
}

/// The MCP answer to one call of `contract` (`None`: no tool has the
/// called name), for a peer that requires object output when
/// `object_output` is set:
///
/// - a success is `isError: false` with the model text as a text block;
///   when the tool declares an output, it also carries the output as
///   `structuredContent` (as `{"value": ...}` when its schema was wrapped
///   for the peer, see [`wraps`](crate::wraps)); [`McpServer`](crate::McpServer)
///   checks it against the `outputSchema` the peer was given before this
///   runs (code that calls this itself checks it, or sends what the
///   handler gave);
/// - a success whose text was cut at the toolbox's `with_max_content_bytes`
///   is never sent in a fuller form than its text, as with every provider
///   (the model result's `data` is the cut text too): `_meta` holds
///   `"dev.tool-contract/truncated": true` ([`META_TRUNCATED`](crate::META_TRUNCATED)),
///   the text block the cut text and the runtime's notice, and a string
///   output's `structuredContent` the same cut string; any other declared
///   output (a cut JSON text meets no output schema) is answered
///   `isError: true` with [`RESULT_TOO_LARGE`], which tells the model the
///   tool ran and to ask for less;
/// - every error the model can act on (invalid arguments, a tool's
///   declared error, `APPROVAL_REQUIRED`, `TIMEOUT`, ...) is
///   `isError: true` with the model text (`Error [CODE]: message`) and the
///   error under `_meta["dev.tool-contract/error"]`;
/// - a call of an unknown tool is a JSON-RPC "invalid params" error
///   (`-32602`) with the runtime's message, which names the tools there are;
/// - a fatal outcome is a JSON-RPC internal error (`-32603`) with
///   [`FATAL_MESSAGE`]: the run must stop, and the reason is only in the
///   audit record.
pub fn call_tool_result(
    result: &CallResult,
    contract: Option<&ToolContract>,
    object_output: bool,
) -> Result<CallToolResult, ErrorData> {
    match &result.output {
        ToolOutput::Fatal { .. } => Err(ErrorData::internal_error(FATAL_MESSAGE, None)),
        ToolOutput::RespondToModel { error, .. } => {
            if contract.is_none() {
                return Err(ErrorData::invalid_params(error.safe_message.clone(), None));
            }
            Ok(error_result(error))
        }
        ToolOutput::Success { truncated, .. } => {
            if let Some(error) = contract.and_then(|contract| too_large(contract, &result.output)) {
                return Ok(error_result(&error));
            }
            let text = result.model_text().unwrap_or_default();
            let mut answer = CallToolResult::success(vec![ContentBlock::text(text)]);
            if let Some(contract) = contract.filter(|c| c.output().declared()) {
                answer.structured_content = Some(sent_structured_content(
                    contract,
                    &result.output,
                    object_output,
                ));
            }
            if *truncated {
                let mut meta = Map::new();
                meta.insert(META_TRUNCATED.into(), Value::Bool(true));
                answer.meta = Some(MetaObject::from(meta));
            }
            Ok(answer)
        }
    }
}

/// `isError: true` with the model text, and the error under `_meta`.
fn error_result(error: &ToolError) -> CallToolResult {
    let mut answer = CallToolResult::error(vec![ContentBlock::text(error.model_text())]);
    let mut meta = Map::new();
    meta.insert(
        META_ERROR.into(),
        serde_json::to_value(error).unwrap_or(Value::Null),
    );
    answer.meta = Some(MetaObject::from(meta));
    answer
}

/// The `structuredContent` a success goes out with: its output, or, when
/// its text was cut, the cut text (a string output's; any other is
/// [`too_large`]).
pub(crate) fn sent_structured_content(
    contract: &ToolContract,
    output: &ToolOutput,
    object_output: bool,
) -> Value {
    match output {
        ToolOutput::Success {
            truncated: true,
            content_text,
            ..
        } => structured_content(
            contract,
            &Value::String(content_text.clone()),
            object_output,
        ),
        other => structured_content(contract, other.details(), object_output),
    }
}

/// The output as `structuredContent`: as it is, or as `{"value": ...}`
/// when the output schema the peer got was wrapped.
pub(crate) fn structured_content(
    contract: &ToolContract,
    details: &Value,
    object_output: bool,
) -> Value {
    let wrapped = wraps(contract.output_schema(), object_output);
    if wrapped {
        let mut object = Map::new();
        object.insert(VALUE_KEY.into(), details.clone());
        Value::Object(object)
    } else {
        details.clone()
    }
}
