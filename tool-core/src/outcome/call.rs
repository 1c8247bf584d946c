//! One tool call as it reaches the runtime from any provider adapter.

use serde::{Deserialize, Serialize};

use super::output::{ToolError, ToolOutput};
use crate::contract::{Session, Tool, ToolContract};

/// One tool call as the model made it: what every provider adapter reads out
/// of a response and what the runtime's `Toolbox` runs.
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

    /// Whether this is a call of `T`.
    pub fn is<T: Tool>(&self) -> bool {
        self.name == T::contract().name()
    }

    /// The contract of the called tool among `contracts` (the tools that
    /// were offered); `None` when none has this name.
    pub fn contract_in(
        &self,
        contracts: &[&'static ToolContract],
    ) -> Option<&'static ToolContract> {
        contracts.iter().copied().find(|c| c.name() == self.name)
    }

    /// Parses the arguments with `T`'s own parser; injected fields come from
    /// `session`. For dispatchers of one's own; a `Toolbox` parses by itself.
    ///
    /// The error is the outcome to answer the call with: `INVALID_ARGUMENTS`
    /// with the parser's message when the model got the arguments wrong,
    /// `INTERNAL` when the application did (a value missing from the
    /// session, or a call of another tool).
    ///
    /// ```
    /// use tool_contract::{Session, Tool, ToolCall};
    ///
    /// /// Look up the opening hours of one store.
    /// #[derive(Tool)]
    /// pub struct GetStoreHours {
    ///     /// Store code as printed on the receipt, e.g. "BER-1".
    ///     pub store: String,
    /// }
    ///
    /// let call = ToolCall::new("call_1", "get_store_hours", r#"{"store": "BER-1"}"#);
    /// assert!(call.is::<GetStoreHours>());
    /// let parsed = call.parse::<GetStoreHours>(&Session::new()).ok().unwrap();
    /// assert_eq!(parsed.store, "BER-1");
    /// ```
    // The error is the outcome itself, handed straight back as the call's
    // answer; boxing it would only add a step for every caller.
    #[allow(clippy::result_large_err)]
    pub fn parse<T: Tool>(&self, session: &Session) -> Result<T, ToolOutput> {
        if !self.is::<T>() {
            return Err(ToolOutput::respond_to_model(ToolError::internal()));
        }
        T::from_arguments(&self.arguments, session)
            .map_err(|error| ToolOutput::respond_to_model(ToolError::from(error)))
    }
}
