//! Tool definitions for the Chat Completions and Responses APIs.

use serde_json::{Value, json};
use tool_core::{ChoiceMode, Narrowing, Tool, ToolContract};

use crate::budget::{BudgetLimit, SchemaUsage, check_budget};
use crate::cache::strict_schema_for;
use crate::calls::Api;
use crate::error::{StrictRule, StrictSchemaError};

/// `T`'s tool definition for the Chat Completions API, in strict mode:
/// `{"type": "function", "function": {"name", "description", "parameters", "strict": true}}`.
pub fn chat_completions_tool<T: Tool>() -> Result<Value, StrictSchemaError> {
    chat_completions_tool_for(T::contract())
}

/// `T`'s tool definition for the Responses API, in strict mode:
/// `{"type": "function", "name", "description", "parameters", "strict": true}`.
pub fn responses_tool<T: Tool>() -> Result<Value, StrictSchemaError> {
    responses_tool_for(T::contract())
}

/// A contract's strict tool definition for the Chat Completions API.
pub fn chat_completions_tool_for(
    contract: &'static ToolContract,
) -> Result<Value, StrictSchemaError> {
    let parameters = strict_schema_for(contract)?;
    Ok(chat_completions(contract, parameters.clone(), true))
}

/// A contract's strict tool definition for the Responses API.
pub fn responses_tool_for(contract: &'static ToolContract) -> Result<Value, StrictSchemaError> {
    let parameters = strict_schema_for(contract)?;
    Ok(responses(contract, parameters.clone(), true))
}

/// `T`'s tool definition for the Chat Completions API with `"strict": false`
/// and the provider-neutral input schema as it is.
///
/// Without strict mode the model may leave out required properties or add
/// others; the tool's parser still rejects such calls. Use it only for a
/// schema strict mode cannot express.
pub fn chat_completions_tool_non_strict<T: Tool>() -> Value {
    let contract = T::contract();
    chat_completions(contract, contract.input_schema().clone(), false)
}

/// `T`'s tool definition for the Responses API with `"strict": false` written
/// out (the Responses API makes a tool strict when `strict` is left out) and
/// the provider-neutral input schema as it is.
pub fn responses_tool_non_strict<T: Tool>() -> Value {
    let contract = T::contract();
    responses(contract, contract.input_schema().clone(), false)
}

/// The strict Chat Completions definitions of a set of tools, in order, for
/// a request's `tools`.
///
/// ```no_run
/// # fn tools() -> Vec<&'static tool_contract::ToolContract> { Vec::new() }
/// let contracts = tools(); // e.g. vec![GetInventory::contract(), ReserveInventory::contract()]
/// let request = serde_json::json!({
///     "model": "gpt-4.1",
///     "messages": [{"role": "user", "content": "Is SKU-1042 in stock?"}],
///     "tools": tool_contract::openai::tools_for_chat_completions(&contracts)?,
/// });
/// # Ok::<(), tool_contract::openai::ToolSetError>(())
/// ```
pub fn tools_for_chat_completions(
    contracts: &[&'static ToolContract],
) -> Result<Vec<Value>, ToolSetError> {
    tool_set(contracts, chat_completions_tool_for)
}

/// The strict Responses definitions of a set of tools, in order, for a
/// request's `tools`.
pub fn tools_for_responses(
    contracts: &[&'static ToolContract],
) -> Result<Vec<Value>, ToolSetError> {
    tool_set(contracts, responses_tool_for)
}

/// Checks that a set of tools can be offered together in one strict
/// request, without writing the definitions: each name is valid and used
/// once, each schema compiles, and together they stay within OpenAI's
/// per-request limits ([`check_budget`]). Gives what the set spends.
///
/// [`tools_for_chat_completions`] and [`tools_for_responses`] make the same
/// checks; call this one at start-up to fail before the first request.
pub fn check_tool_set(contracts: &[&'static ToolContract]) -> Result<SchemaUsage, ToolSetError> {
    let mut schemas = Vec::with_capacity(contracts.len());
    for (i, contract) in contracts.iter().enumerate() {
        let name = contract.name();
        if !valid_name(name) {
            return Err(ToolSetError::InvalidName { name });
        }
        if contracts[..i].iter().any(|earlier| earlier.name() == name) {
            return Err(ToolSetError::DuplicateName { name });
        }
        let schema = strict_schema_for(contract)
            .map_err(|error| ToolSetError::Schema { tool: name, error })?;
        schemas.push((name, schema));
    }
    check_budget(schemas).map_err(ToolSetError::Budget)
}

fn tool_set(
    contracts: &[&'static ToolContract],
    define: fn(&'static ToolContract) -> Result<Value, StrictSchemaError>,
) -> Result<Vec<Value>, ToolSetError> {
    check_tool_set(contracts)?;
    let mut tools = Vec::with_capacity(contracts.len());
    for contract in contracts {
        let tool = define(contract).map_err(|error| ToolSetError::Schema {
            tool: contract.name(),
            error,
        })?;
        tools.push(tool);
    }
    Ok(tools)
}

/// OpenAI's rule for function names: `^[a-zA-Z0-9_-]{1,64}$`.
fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn chat_completions(contract: &ToolContract, parameters: Value, strict: bool) -> Value {
    json!({
        "type": "function",
        "function": {
            "name": contract.name(),
            "description": contract.description_with_examples(),
            "parameters": parameters,
            "strict": strict,
        }
    })
}

fn responses(contract: &ToolContract, parameters: Value, strict: bool) -> Value {
    json!({
        "type": "function",
        "name": contract.name(),
        "description": contract.description_with_examples(),
        "parameters": parameters,
        "strict": strict,
    })
}

/// Why a set of tools cannot be offered to the model together: one of
/// tool-core's [`ToolSetError`](tool_core::dialect::ToolSetError)s, in
/// OpenAI's words, with its [`BudgetError`](crate::BudgetError) of
/// [`BudgetLimit`]s.
pub type ToolSetError = tool_core::dialect::ToolSetError<StrictRule>;

impl tool_core::dialect::ToolSetRules for StrictRule {
    type Limit = BudgetLimit;

    fn invalid_name(name: &str) -> String {
        format!(
            "tool name `{name}` does not match `^[a-zA-Z0-9_-]{{1,64}}$`; use 1 to 64 letters, \
             digits, `_` or `-`"
        )
    }

    fn duplicate_name(name: &str) -> String {
        format!("two tools are named `{name}`; give each tool its own name, or offer only one")
    }

    fn schema(tool: &str, error: &StrictSchemaError) -> String {
        format!("tool `{tool}` cannot be strict: {error}")
    }
}

/// The `tool_choice` that narrows a turn to `narrowing`'s tools without
/// changing the `tools` array (so the prompt cache holds):
/// `{"type": "allowed_tools", "mode": "auto" | "required", "tools": [...]}`
/// for the Responses API, `{"type": "allowed_tools", "allowed_tools":
/// {"mode", "tools"}}` for Chat Completions; `"none"` for a turn that may
/// call no tool.
///
/// ```
/// use serde_json::json;
/// use tool_contract::Narrowing;
/// use tool_contract::openai::{Api, allowed_tools};
///
/// let narrowing = Narrowing::required(["get_inventory"]);
/// assert_eq!(
///     allowed_tools(Api::Responses, &narrowing),
///     json!({"type": "allowed_tools", "mode": "required", "tools": [{"type": "function", "name": "get_inventory"}]})
/// );
/// assert_eq!(
///     allowed_tools(Api::ChatCompletions, &narrowing),
///     json!({"type": "allowed_tools", "allowed_tools": {"mode": "required",
///         "tools": [{"type": "function", "function": {"name": "get_inventory"}}]}})
/// );
/// assert_eq!(allowed_tools(Api::Responses, &Narrowing::auto(Vec::<String>::new())), json!("none"));
/// ```
pub fn allowed_tools(api: Api, narrowing: &Narrowing) -> Value {
    if narrowing.tools().is_empty() && narrowing.mode() == ChoiceMode::Auto {
        return json!("none");
    }
    let mode = match narrowing.mode() {
        ChoiceMode::Auto => "auto",
        ChoiceMode::Required => "required",
    };
    let names = narrowing.tools().iter();
    match api {
        Api::Responses => {
            let tools: Vec<Value> = names
                .map(|name| json!({"type": "function", "name": name}))
                .collect();
            json!({"type": "allowed_tools", "mode": mode, "tools": tools})
        }
        Api::ChatCompletions => {
            let tools: Vec<Value> = names
                .map(|name| json!({"type": "function", "function": {"name": name}}))
                .collect();
            json!({"type": "allowed_tools", "allowed_tools": {"mode": mode, "tools": tools}})
        }
    }
}
