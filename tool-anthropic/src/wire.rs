//! Tool definitions as the Messages API takes them (`{name, description,
//! input_schema, strict}`), tool sets checked against the per-request
//! budgets, and `tool_choice`.

use std::fmt;

use serde_json::{Value, json};
use tool_core::{ChoiceMode, EnumCase, Narrowing, Tool, ToolCall, ToolContract};

use crate::budget::{Limit, Planned, Usage, plan};
use crate::calls::{ResponseCalls, ResponseError, tool_use_calls};
use crate::compile::{StrictInput, compile};
use crate::error::{StrictRule, StrictSchemaError};

/// The strict definition of `T`: `{"name", "description", "input_schema",
/// "strict": true}`, every optional field absent. To send several tools,
/// build a [`ToolSet`], which checks the per-request budgets.
///
/// ```
/// use tool_contract::Tool;
///
/// /// Look up the opening hours of one store.
/// #[derive(Tool)]
/// pub struct GetStoreHours {
///     /// Store code as printed on the receipt, e.g. "BER-1".
///     pub store: String,
/// }
///
/// let tool = tool_contract::anthropic::tool::<GetStoreHours>()?;
/// assert_eq!(tool["name"], "get_store_hours");
/// assert_eq!(tool["strict"], true);
/// assert_eq!(tool["input_schema"]["additionalProperties"], false);
/// # Ok::<(), tool_contract::anthropic::StrictSchemaError>(())
/// ```
pub fn tool<T: Tool>() -> Result<Value, StrictSchemaError> {
    tool_for(T::contract())
}

/// [`tool`] for a contract.
pub fn tool_for(contract: &'static ToolContract) -> Result<Value, StrictSchemaError> {
    let input = compile(contract.input_schema())?;
    Ok(definition(contract, input.schema, true))
}

/// The non-strict definition of `T`: its input schema as it is, with
/// `"strict": false`, for a tool strict mode cannot express or one left out
/// of the strict budget. The parser checks the arguments either way.
pub fn tool_non_strict<T: Tool>() -> Value {
    definition(T::contract(), T::input_schema().clone(), false)
}

/// The `anthropic-beta` header value a request needs when a tool carries
/// `input_examples` (a tool that declares examples).
pub const INPUT_EXAMPLES_BETA: &str = "advanced-tool-use-2025-11-20";

fn definition(contract: &ToolContract, input_schema: Value, strict: bool) -> Value {
    let mut definition = json!({
        "name": contract.name(),
        "description": contract.description(),
        "input_schema": input_schema,
        "strict": strict,
    });
    // Each example must be valid by the input schema: the tool's own
    // parser took it when the contract was checked. The request needs the
    // beta header `INPUT_EXAMPLES_BETA`.
    let examples = contract.example_values();
    if !examples.is_empty() {
        definition["input_examples"] = Value::Array(examples);
    }
    definition
}

/// Why a tool set cannot be sent: one of tool-core's
/// [`ToolSetError`](tool_core::dialect::ToolSetError)s, in Anthropic's
/// words, with its [`BudgetError`](crate::BudgetError) of [`Limit`]s.
pub type ToolSetError = tool_core::dialect::ToolSetError<StrictRule>;

impl tool_core::dialect::ToolSetRules for StrictRule {
    type Limit = Limit;

    fn invalid_name(name: &str) -> String {
        format!(
            "tool name {name:?} does not match ^[a-zA-Z0-9_-]{{1,64}}$, which Anthropic requires"
        )
    }

    fn duplicate_name(name: &str) -> String {
        format!("two tools are named {name:?}; tool names must be unique in a request")
    }

    fn schema(tool: &str, error: &StrictSchemaError) -> String {
        format!("tool {tool}: {error}")
    }
}

struct Entry {
    contract: &'static ToolContract,
    strict: bool,
    definition: Value,
}

/// The tools of one request, checked before any request is made: names,
/// strict schemas, and Anthropic's per-request budgets across the strict
/// tools (20 strict tools, 24 optional parameters, 16 parameters with
/// `anyOf` or a type array).
///
/// Every `Option` field starts "absent" (optional, not nullable). When the
/// optional parameters are over budget, fields become "required and
/// nullable" (the parser reads `null` as absent) until the set fits, those
/// whose schema already is a union first since they cost no union
/// parameter; when nothing fits, the error names the limit and the fields.
///
/// Calls read through the set ([`ToolSet::calls`]) match enum values of
/// strict tools ignoring letter case, as Anthropic does not guarantee it.
///
/// ```
/// use tool_contract::Tool;
/// use tool_contract::anthropic::ToolSet;
///
/// /// Look up the opening hours of one store.
/// #[derive(Tool)]
/// pub struct GetStoreHours {
///     /// Store code as printed on the receipt, e.g. "BER-1".
///     pub store: String,
///     /// The day to look at, e.g. "monday"; null for today.
///     pub day: Option<String>,
/// }
///
/// let tools = ToolSet::new(&[GetStoreHours::contract()])?;
/// let definitions = tools.definitions();
/// assert_eq!(definitions[0]["input_schema"]["required"], serde_json::json!(["store"]));
/// assert_eq!(tools.usage().optional_parameters, 1);
/// assert!(tools.nullable_fields().is_empty());
/// # Ok::<(), tool_contract::anthropic::ToolSetError>(())
/// ```
pub struct ToolSet {
    tools: Vec<Entry>,
    nullable: Vec<String>,
    usage: Usage,
}

impl ToolSet {
    /// A set of strict tools.
    pub fn new(strict: &[&'static ToolContract]) -> Result<ToolSet, ToolSetError> {
        ToolSet::with_non_strict(strict, &[])
    }

    /// A set of strict tools and tools sent with `strict: false` (their
    /// schema as it is; they spend none of the strict budgets).
    pub fn with_non_strict(
        strict: &[&'static ToolContract],
        non_strict: &[&'static ToolContract],
    ) -> Result<ToolSet, ToolSetError> {
        let mut names: Vec<&str> = Vec::new();
        for contract in strict.iter().chain(non_strict) {
            let name = contract.name();
            if !valid_name(name) {
                return Err(ToolSetError::InvalidName { name });
            }
            if names.contains(&name) {
                return Err(ToolSetError::DuplicateName { name });
            }
            names.push(name);
        }
        let mut inputs: Vec<StrictInput> = Vec::with_capacity(strict.len());
        for contract in strict {
            let input = compile(contract.input_schema()).map_err(|error| ToolSetError::Schema {
                tool: contract.name(),
                error,
            })?;
            inputs.push(input);
        }
        let mut planned: Vec<Planned<'_>> = strict
            .iter()
            .zip(inputs.iter_mut())
            .map(|(contract, input)| Planned {
                tool: contract.name(),
                input,
            })
            .collect();
        let (nullable, usage) = plan(&mut planned).map_err(ToolSetError::Budget)?;
        let mut tools: Vec<Entry> = strict
            .iter()
            .zip(inputs)
            .map(|(contract, input)| Entry {
                contract,
                strict: true,
                definition: definition(contract, input.schema, true),
            })
            .collect();
        tools.extend(non_strict.iter().map(|contract| Entry {
            contract,
            strict: false,
            definition: definition(contract, contract.input_schema().clone(), false),
        }));
        Ok(ToolSet {
            tools,
            nullable,
            usage,
        })
    }

    /// The request's `tools` array, strict tools first, in the order given.
    pub fn definitions(&self) -> Vec<Value> {
        self.tools.iter().map(|t| t.definition.clone()).collect()
    }

    /// The contracts of the set, in the order of [`definitions`](Self::definitions).
    pub fn contracts(&self) -> Vec<&'static ToolContract> {
        self.tools.iter().map(|t| t.contract).collect()
    }

    /// Whether the tool named `name` is in the set with `strict: true`.
    pub fn is_strict(&self, name: &str) -> bool {
        self.tools
            .iter()
            .any(|t| t.strict && t.contract.name() == name)
    }

    /// The `Option` fields (`tool.field`) made required and nullable to
    /// fit the optional-parameter budget; every other one is absent.
    pub fn nullable_fields(&self) -> &[String] {
        &self.nullable
    }

    /// What the strict tools spend of the per-request limits.
    pub fn usage(&self) -> Usage {
        self.usage
    }

    /// The `tool_use` blocks of a Messages API response as calls, those of
    /// strict tools marked to match enum values ignoring letter case
    /// ([`EnumCase::Insensitive`]).
    pub fn calls(&self, response: &Value) -> Result<ResponseCalls, ResponseError> {
        let mut calls = tool_use_calls(response)?;
        for call in &mut calls.calls {
            self.mark(call);
        }
        Ok(calls)
    }

    /// Marks a call of a strict tool of this set to match enum values
    /// ignoring letter case (for calls assembled from a stream).
    pub fn mark(&self, call: &mut ToolCall) {
        if self.is_strict(&call.name) {
            call.enum_case = EnumCase::Insensitive;
        }
    }
}

impl fmt::Debug for ToolSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolSet")
            .field(
                "tools",
                &self
                    .tools
                    .iter()
                    .map(|t| (t.contract.name(), t.strict))
                    .collect::<Vec<_>>(),
            )
            .field("nullable", &self.nullable)
            .field("usage", &self.usage)
            .finish()
    }
}

fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// How the model may use the tools: the request's `tool_choice`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolChoice {
    /// The model decides (the API's default).
    Auto {
        /// At most one tool call per turn.
        disable_parallel_tool_use: bool,
    },
    /// The model must call some tool.
    Any {
        /// Exactly one tool call per turn.
        disable_parallel_tool_use: bool,
    },
    /// The model must call this tool.
    Tool {
        /// The tool's name.
        name: String,
        /// Exactly one tool call per turn.
        disable_parallel_tool_use: bool,
    },
    /// The model may not call tools.
    None,
}

impl ToolChoice {
    /// The choice that narrows a turn offering `offered` tools to
    /// `narrowing`'s, keeping `disable_parallel_tool_use`: one required
    /// tool is `tool`, more `any`, none `none`, else `auto`. Anthropic has
    /// no choice of several tools, so a turn narrowed to some of them is
    /// `auto` or `any` over all the definitions: the runtime refuses a
    /// call outside the narrowed set (`TOOL_NOT_OFFERED`).
    ///
    /// ```
    /// use tool_contract::Narrowing;
    /// use tool_contract::anthropic::ToolChoice;
    ///
    /// assert_eq!(
    ///     ToolChoice::narrowed(&Narrowing::required(["get_inventory"]), false),
    ///     ToolChoice::Tool { name: "get_inventory".into(), disable_parallel_tool_use: false }
    /// );
    /// assert_eq!(ToolChoice::narrowed(&Narrowing::auto(Vec::<String>::new()), false), ToolChoice::None);
    /// ```
    pub fn narrowed(narrowing: &Narrowing, disable_parallel_tool_use: bool) -> Self {
        match (narrowing.mode(), narrowing.tools()) {
            (ChoiceMode::Auto, []) => ToolChoice::None,
            (ChoiceMode::Auto, _) => ToolChoice::Auto {
                disable_parallel_tool_use,
            },
            (ChoiceMode::Required, [name]) => ToolChoice::Tool {
                name: name.clone(),
                disable_parallel_tool_use,
            },
            (ChoiceMode::Required, _) => ToolChoice::Any {
                disable_parallel_tool_use,
            },
        }
    }

    /// The `tool_choice` value: `{"type": "auto"}`, `{"type": "any"}`,
    /// `{"type": "tool", "name": ...}` or `{"type": "none"}`, with
    /// `disable_parallel_tool_use` when set.
    ///
    /// ```
    /// use tool_contract::anthropic::ToolChoice;
    ///
    /// let choice = ToolChoice::Tool { name: "get_store_hours".into(), disable_parallel_tool_use: true };
    /// assert_eq!(
    ///     choice.to_json(),
    ///     serde_json::json!({"type": "tool", "name": "get_store_hours", "disable_parallel_tool_use": true})
    /// );
    /// ```
    pub fn to_json(&self) -> Value {
        let (mut value, disable) = match self {
            ToolChoice::Auto {
                disable_parallel_tool_use,
            } => (json!({"type": "auto"}), *disable_parallel_tool_use),
            ToolChoice::Any {
                disable_parallel_tool_use,
            } => (json!({"type": "any"}), *disable_parallel_tool_use),
            ToolChoice::Tool {
                name,
                disable_parallel_tool_use,
            } => (
                json!({"type": "tool", "name": name}),
                *disable_parallel_tool_use,
            ),
            ToolChoice::None => (json!({"type": "none"}), false),
        };
        if disable {
            value["disable_parallel_tool_use"] = Value::Bool(true);
        }
        value
    }
}
