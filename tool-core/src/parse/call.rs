//! One tool call as it reaches the runtime from any provider adapter.

use serde::{Deserialize, Serialize};

/// One tool call as the model made it.
///
/// ```json
/// {"call_id": "call_7", "name": "get_inventory", "arguments": "{\"sku\":\"SKU-1042\"}"}
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's id of the call, echoed back with the output.
    pub call_id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments as the model wrote them: JSON text.
    pub arguments: String,
}

impl ToolCall {
    /// A call of `name` with `arguments` (JSON text).
    pub fn new(
        call_id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<String>,
    ) -> Self {
        ToolCall {
            call_id: call_id.into(),
            name: name.into(),
            arguments: arguments.into(),
        }
    }
}
