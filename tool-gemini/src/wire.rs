//! Function declarations, the request's `tools`, and `toolConfig`.

use serde_json::{Map, Value, json};
use tool_core::{ChoiceMode, Narrowing, Tool, ToolContract};

use crate::compile::{Dialect, to_gemini_schema};
use crate::error::{GeminiRule, GeminiSchemaError};

/// `T`'s `FunctionDeclaration` with `parametersJsonSchema`:
/// `{"name", "description", "parametersJsonSchema"}` (no schema for a tool
/// without arguments).
pub fn function_declaration<T: Tool>() -> Result<Value, GeminiSchemaError> {
    function_declaration_for(T::contract(), Dialect::ParametersJsonSchema)
}

/// A contract's `FunctionDeclaration` in `dialect`.
pub fn function_declaration_for(
    contract: &ToolContract,
    dialect: Dialect,
) -> Result<Value, GeminiSchemaError> {
    let mut declaration = Map::new();
    declaration.insert("name".to_owned(), Value::String(contract.name().to_owned()));
    declaration.insert(
        "description".to_owned(),
        Value::String(contract.description_with_examples().into_owned()),
    );
    if let Some(schema) = to_gemini_schema(contract.input_schema(), dialect)? {
        declaration.insert(dialect.field().to_owned(), schema);
    }
    Ok(Value::Object(declaration))
}

/// The request's `tools` for a set of tools, in order:
/// `[{"functionDeclarations": [...]}]`.
///
/// ```no_run
/// # fn tools() -> Vec<&'static tool_contract::ToolContract> { Vec::new() }
/// use tool_contract::gemini::{Dialect, FunctionCalling, tools_for_gemini};
///
/// let request = serde_json::json!({
///     "contents": [{"role": "user", "parts": [{"text": "Is SKU-1042 in stock?"}]}],
///     "tools": tools_for_gemini(&tools(), Dialect::ParametersJsonSchema)?,
///     "toolConfig": FunctionCalling::Auto.tool_config(),
/// });
/// # Ok::<(), tool_contract::gemini::ToolSetError>(())
/// ```
pub fn tools_for_gemini(
    contracts: &[&ToolContract],
    dialect: Dialect,
) -> Result<Value, ToolSetError> {
    let mut declarations = Vec::with_capacity(contracts.len());
    for (i, contract) in contracts.iter().enumerate() {
        let name = contract.name();
        if !valid_function_name(name) {
            return Err(ToolSetError::InvalidName { name });
        }
        if contracts[..i].iter().any(|earlier| earlier.name() == name) {
            return Err(ToolSetError::DuplicateName { name });
        }
        let declaration = function_declaration_for(contract, dialect)
            .map_err(|error| ToolSetError::Schema { tool: name, error })?;
        declarations.push(declaration);
    }
    Ok(json!([{ "functionDeclarations": declarations }]))
}

/// Gemini's rule for function names, at its strictest across the Gemini
/// API and Vertex: a letter or `_` first, then letters, digits, `_`, `.`,
/// `:` or `-`, at most 64 in all.
fn valid_function_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    (1..=64).contains(&bytes.len())
        && (bytes[0].is_ascii_alphabetic() || bytes[0] == b'_')
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-'))
}

/// `toolConfig.functionCallingConfig`: whether and which functions the
/// model may call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FunctionCalling {
    /// `AUTO` (the default): the model chooses between text and calls.
    Auto,
    /// `ANY`: the model must call a function; with names, one of these
    /// (`allowedFunctionNames`).
    Any(Vec<String>),
    /// `VALIDATED`: calls are checked against the declarations by
    /// constrained decoding, text stays possible; with names, only these.
    Validated(Vec<String>),
    /// `NONE`: no calls. (Not named `None`, which would shadow
    /// `Option::None` in an application's error messages.)
    NoCalls,
}

impl FunctionCalling {
    /// The calling config that narrows a turn to `narrowing`'s tools:
    /// `ANY` with `allowedFunctionNames` when a call is required,
    /// `VALIDATED` with them when the model may also answer, `NONE` when
    /// it may call no tool.
    ///
    /// ```
    /// use tool_contract::Narrowing;
    /// use tool_contract::gemini::FunctionCalling;
    ///
    /// assert_eq!(
    ///     FunctionCalling::narrowed(&Narrowing::auto(["get_inventory"])),
    ///     FunctionCalling::Validated(vec!["get_inventory".into()])
    /// );
    /// ```
    pub fn narrowed(narrowing: &Narrowing) -> Self {
        let names = narrowing.tools().to_vec();
        match narrowing.mode() {
            ChoiceMode::Required => FunctionCalling::Any(names),
            ChoiceMode::Auto if names.is_empty() => FunctionCalling::NoCalls,
            ChoiceMode::Auto => FunctionCalling::Validated(names),
        }
    }

    /// The `toolConfig` object of a request.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_contract::gemini::FunctionCalling;
    ///
    /// assert_eq!(
    ///     FunctionCalling::Any(vec!["get_inventory".into()]).tool_config(),
    ///     json!({"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_inventory"]}})
    /// );
    /// ```
    pub fn tool_config(&self) -> Value {
        let (mode, names) = match self {
            FunctionCalling::Auto => ("AUTO", None),
            FunctionCalling::Any(names) => ("ANY", Some(names)),
            FunctionCalling::Validated(names) => ("VALIDATED", Some(names)),
            FunctionCalling::NoCalls => ("NONE", None),
        };
        let mut config = Map::new();
        config.insert("mode".to_owned(), Value::String(mode.to_owned()));
        // "This should only be set when the Mode is ANY or VALIDATED."
        if let Some(names) = names.filter(|n| !n.is_empty()) {
            config.insert("allowedFunctionNames".to_owned(), json!(names));
        }
        json!({ "functionCallingConfig": config })
    }
}

/// Why a set of tools cannot be offered to Gemini together: one of
/// tool-core's [`ToolSetError`](tool_core::dialect::ToolSetError)s, in
/// Gemini's words (Gemini has no per-request limits: its limit type is
/// `Infallible`, so `Budget` never occurs).
pub type ToolSetError = tool_core::dialect::ToolSetError<GeminiRule>;

impl tool_core::dialect::ToolSetRules for GeminiRule {
    type Limit = std::convert::Infallible;

    fn invalid_name(name: &str) -> String {
        format!(
            "tool name `{name}` is not one Gemini takes: a letter or `_` first, then letters, \
             digits, `_`, `.`, `:` or `-`, at most 64 in all"
        )
    }

    fn duplicate_name(name: &str) -> String {
        format!("two tools are named `{name}`; give each tool its own name, or offer only one")
    }

    fn schema(tool: &str, error: &GeminiSchemaError) -> String {
        format!(
            "tool `{tool}` cannot be declared to Gemini: {} ({}): {}",
            error.path(),
            error.rule(),
            error.message()
        )
    }
}
