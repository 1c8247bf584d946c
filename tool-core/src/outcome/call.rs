//! One tool call as it reaches the runtime from any provider adapter.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::output::{ToolError, ToolOutput};
use crate::contract::{Session, Tool, ToolContract};
use crate::parse::{EnumCase, arguments_text, fold_enum_case};

/// One tool call as the model made it: what every provider adapter reads out
/// of a response and what the runtime's `Toolbox` runs.
///
/// ```json
/// {"call_id": "call_7", "name": "get_inventory", "arguments": "{\"sku\":\"SKU-1042\"}"}
/// ```
///
/// Arguments that arrive as a JSON object (Anthropic, Gemini, MCP) are held
/// as their compact text ([`ToolCall::with_object`]): the parser, the
/// canonical form approvals are bound to and the audit hash all read text.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's id of the call, echoed back with the output.
    pub call_id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments as the model wrote them: JSON text.
    pub arguments: String,
    /// How string `enum` and `const` values are matched: exactly (the
    /// default), or ignoring letter case for calls from a provider that
    /// does not guarantee it (Anthropic's strict tools); set by the adapter
    /// that read the call.
    #[serde(default, skip_serializing_if = "EnumCase::is_exact")]
    pub enum_case: EnumCase,
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
            enum_case: EnumCase::Exact,
        }
    }

    /// A call whose arguments arrived as a JSON value (Anthropic
    /// `tool_use.input`, Gemini `functionCall.args`, MCP `arguments`),
    /// held as compact JSON text; `None` (Gemini omits `args` for a call
    /// without arguments) is the empty object `{}`. This is where every
    /// adapter maps a missing `args`. A value that is not an object is kept
    /// as it is and refused by the parser at `$`, as its text would be.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_contract::ToolCall;
    ///
    /// let call = ToolCall::with_object("toolu_1", "get_store_hours", Some(&json!({"store": "BER-1"})));
    /// assert_eq!(call.arguments, r#"{"store":"BER-1"}"#);
    /// assert_eq!(ToolCall::with_object("c", "ping", None).arguments, "{}");
    /// ```
    pub fn with_object(
        call_id: impl Into<String>,
        name: impl Into<String>,
        arguments: Option<&Value>,
    ) -> Self {
        let text = match arguments {
            Some(value) => arguments_text(value),
            None => "{}".to_owned(),
        };
        ToolCall::new(call_id, name, text)
    }

    /// The call with its enum values matched as `enum_case` says.
    #[must_use]
    pub fn with_enum_case(mut self, enum_case: EnumCase) -> Self {
        self.enum_case = enum_case;
        self
    }

    /// The arguments text the parser of a tool with input schema `schema`
    /// reads: as written, or with enum values folded to their declared
    /// casing when the call matches them ignoring case. Arguments longer
    /// than the session accepts are left for the parser to refuse unread.
    pub fn arguments_to_parse(&self, schema: &Value, session: &Session) -> Cow<'_, str> {
        match self.enum_case {
            EnumCase::Exact => Cow::Borrowed(&self.arguments),
            EnumCase::Insensitive if self.arguments.len() > session.max_argument_bytes() => {
                Cow::Borrowed(&self.arguments)
            }
            EnumCase::Insensitive => match fold_enum_case(schema, &self.arguments) {
                Some(folded) => Cow::Owned(folded),
                None => Cow::Borrowed(&self.arguments),
            },
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
        T::from_arguments_with(&self.arguments, session, self.enum_case)
            .map_err(|error| ToolOutput::respond_to_model(ToolError::from(error)))
    }
}

/// A call is its own runtime call (the [`Provider::Call`] of the providers
/// whose calls carry nothing more).
///
/// [`Provider::Call`]: crate::provider::Provider::Call
impl AsRef<ToolCall> for ToolCall {
    fn as_ref(&self) -> &ToolCall {
        self
    }
}
