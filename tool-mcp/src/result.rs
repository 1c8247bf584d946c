//! A call's outcome as MCP's `CallToolResult`, or the JSON-RPC error MCP
//! keeps for an unknown tool and a server failure.

use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, MetaObject};
use serde_json::{Map, Value};
use tool_core::{ToolContract, ToolOutput};
use tool_runtime::CallResult;

use crate::definition::META_ERROR;
use crate::output::{VALUE_KEY, wraps};

/// The message of the JSON-RPC error that answers a fatal outcome; the
/// reason stays in the audit record.
pub const FATAL_MESSAGE: &str =
    "The tool failed inside the server; the reason is in the server's audit record.";

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
            let mut answer = CallToolResult::error(vec![ContentBlock::text(error.model_text())]);
            let mut meta = Map::new();
            meta.insert(
                META_ERROR.into(),
                serde_json::to_value(error).unwrap_or(Value::Null),
            );
            answer.meta = Some(MetaObject::from(meta));
            Ok(answer)
        }
        ToolOutput::Success { details, .. } => {
            let text = result.model_text().unwrap_or_default();
            let mut answer = CallToolResult::success(vec![ContentBlock::text(text)]);
            if let Some(contract) = contract.filter(|c| c.output().declared()) {
                answer.structured_content =
                    Some(structured_content(contract, details, object_output));
            }
            Ok(answer)
        }
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
