//! The contract of one tool, built once by the derive.

use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

use serde_json::Value;

use super::deprecation::Deprecation;
use super::errors::{DeclaredError, OutputContract};
use super::field::FieldContract;
use super::input_schema::{build_input_schema, build_output_schema};
use super::policy::{Approval, DataClass, Effect, Idempotency, Policy};
use super::version::Version;
use super::waiver::Waiver;
use crate::parse::ArgumentError;
use crate::parse::schema::{CompiledSchema, SchemaError};

/// Everything a tool declares about itself: name, description, version,
/// execution policy, inputs, output and error codes.
///
/// A contract is built once by `#[derive(Tool)]` as a `static` and reached
/// through [`Tool::contract`](crate::Tool::contract). Its schemas are computed
/// on first use and cached for the life of the process.
pub struct ToolContract {
    parts: ContractParts,
    input_schema: OnceLock<Value>,
    output_schema: OnceLock<Value>,
    compiled: OnceLock<Result<CompiledSchema, SchemaError>>,
}

/// The pieces a contract is built from; written by the derive.
#[doc(hidden)]
pub struct ContractParts {
    pub name: &'static str,
    pub rust_name: &'static str,
    pub title: Option<&'static str>,
    pub description: &'static str,
    pub version: Version,
    pub deprecation: Option<Deprecation>,
    pub policy: Policy,
    pub fields: &'static [FieldContract],
    pub output: OutputContract,
    pub errors: &'static [DeclaredError],
    pub waivers: &'static [Waiver],
    /// `#[tool(example = "...")]`, each the JSON text of arguments.
    pub examples: &'static [&'static str],
    /// The tool's own parser over an example, with an empty session.
    pub parse_example: fn(&str) -> Result<(), ArgumentError>,
}

/// What a contract without examples parses them with: nothing to parse.
#[doc(hidden)]
pub fn no_examples(_: &str) -> Result<(), ArgumentError> {
    Ok(())
}

impl ToolContract {
    #[doc(hidden)]
    pub const fn __new(parts: ContractParts) -> Self {
        ToolContract {
            parts,
            input_schema: OnceLock::new(),
            output_schema: OnceLock::new(),
            compiled: OnceLock::new(),
        }
    }

    /// The tool's name as the model sees it, e.g. `create_refund_draft`.
    pub fn name(&self) -> &'static str {
        self.parts.name
    }

    /// The name of the Rust struct that declares the tool.
    pub fn rust_name(&self) -> &'static str {
        self.parts.rust_name
    }

    /// The short name a person reads (`#[tool(title = "...")]`), e.g.
    /// "Create refund draft"; `None` when the struct gives none. Hosts show
    /// it instead of the name (MCP's `title`); the model reads the name.
    pub fn title(&self) -> Option<&'static str> {
        self.parts.title
    }

    /// What the tool does and when to use it, as the model reads it: the
    /// struct's doc comment (or `description = "..."`), and for a
    /// [deprecated](Self::deprecation) version the
    /// [notice](Deprecation::notice) as its last paragraph.
    pub fn description(&self) -> &'static str {
        self.parts.description
    }

    /// The contract's semantic version.
    pub fn version(&self) -> Version {
        self.parts.version
    }

    /// When this version is deprecated (`#[tool(deprecated(sunset = "...",
    /// note = "..."))]`): the day it stops being served and what to use
    /// instead; `None` for a version that is not.
    pub fn deprecation(&self) -> Option<&Deprecation> {
        self.parts.deprecation.as_ref()
    }

    /// The execution policy: effect, idempotency, approval, timeout, data class.
    pub fn policy(&self) -> &Policy {
        &self.parts.policy
    }

    /// What the tool does to the world.
    pub fn effect(&self) -> Effect {
        self.parts.policy.effect()
    }

    /// Whether running the tool twice with the same arguments is safe.
    pub fn idempotency(&self) -> Idempotency {
        self.parts.policy.idempotency()
    }

    /// Whether a call must be approved before it runs.
    pub fn approval(&self) -> Approval {
        self.parts.policy.approval()
    }

    /// The longest a call may run, if the contract bounds it.
    pub fn timeout_ms(&self) -> Option<u64> {
        self.parts.policy.timeout_ms()
    }

    /// Whether the tool reaches systems outside the application's control.
    pub fn open_world(&self) -> bool {
        self.parts.policy.open_world()
    }

    /// The most sensitive class of data the tool reads or returns.
    pub fn data_class(&self) -> DataClass {
        self.parts.policy.data_class()
    }

    /// Every field of the struct in declaration order, injected ones included.
    pub fn fields(&self) -> &'static [FieldContract] {
        self.parts.fields
    }

    /// The field with this JSON name, if any.
    pub fn field(&self, name: &str) -> Option<&'static FieldContract> {
        self.parts.fields.iter().find(|f| f.name() == name)
    }

    /// The fields the model supplies (not injected from the session).
    pub fn model_fields(&self) -> impl Iterator<Item = &'static FieldContract> {
        self.parts.fields.iter().filter(|f| !f.injected())
    }

    /// The declared output.
    pub fn output(&self) -> &OutputContract {
        &self.parts.output
    }

    /// The error codes the tool may answer with.
    pub fn errors(&self) -> &'static [DeclaredError] {
        self.parts.errors
    }

    /// The declared error with this code, if any.
    pub fn declared_error(&self, code: &str) -> Option<&'static DeclaredError> {
        self.parts.errors.iter().find(|e| e.code() == code)
    }

    /// Contract rules waived on this tool or its fields, each with its reason.
    pub fn waivers(&self) -> &'static [Waiver] {
        self.parts.waivers
    }

    /// The examples of arguments the tool declares
    /// (`#[tool(example = r#"{...}"#)]`), as JSON text in the order
    /// written; each is valid JSON (the derive checks it) and is parsed by
    /// the tool's own parser when the contract is checked
    /// ([`check_rules`](Self::check_rules)). Anthropic gets them as
    /// `input_examples`, the other providers in the description
    /// ([`description_with_examples`](Self::description_with_examples)).
    pub fn examples(&self) -> &'static [&'static str] {
        self.parts.examples
    }

    /// The [examples](Self::examples) as JSON values.
    pub fn example_values(&self) -> Vec<Value> {
        self.parts
            .examples
            .iter()
            .filter_map(|text| serde_json::from_str(text).ok())
            .collect()
    }

    /// The description with the examples as its last paragraph, in the
    /// shared words ([`tool_words::examples_paragraph`]), for providers
    /// without an examples field; the description itself when there are
    /// none.
    pub fn description_with_examples(&self) -> Cow<'static, str> {
        let examples = self.example_values();
        if examples.is_empty() {
            return Cow::Borrowed(self.description());
        }
        let texts: Vec<String> = examples.iter().map(Value::to_string).collect();
        Cow::Owned(tool_words::examples_paragraph(self.description(), &texts))
    }

    /// The tool's own parser over example `text` (an empty session: a
    /// value injected from it is not the example's).
    pub(crate) fn parse_example(&self, text: &str) -> Result<(), ArgumentError> {
        (self.parts.parse_example)(text)
    }

    /// Provider-neutral JSON Schema (2020-12) of the model-supplied arguments.
    ///
    /// Built on first use and cached: later calls return the same reference.
    pub fn input_schema(&self) -> &Value {
        self.input_schema
            .get_or_init(|| build_input_schema(self.parts.fields))
    }

    /// Checks that the parser enforces everything the input schema says, at
    /// every depth, including the schemas of plain `Deserialize + JsonSchema`
    /// types from other crates.
    ///
    /// A schema keyword the parser cannot check (`not`, `if`/`then`,
    /// `patternProperties`, `dependentSchemas`, an unknown string `format`,
    /// an invalid `pattern`, ...) is an error naming the keyword and its JSON
    /// pointer, so a tool whose contract would promise more than is enforced
    /// is refused when it is registered rather than silently loosened.
    /// The compiled schema is cached: later calls and every parse reuse it.
    pub fn check(&self) -> Result<(), SchemaError> {
        self.compiled().map(|_| ()).map_err(Clone::clone)
    }

    /// The input schema compiled for the parser, built once.
    pub(crate) fn compiled(&self) -> Result<&CompiledSchema, &SchemaError> {
        self.compiled
            .get_or_init(|| {
                CompiledSchema::compile(self.input_schema())
                    .map(|c| c.with_fields(self.parts.fields.iter().map(|f| f.name())))
            })
            .as_ref()
    }

    /// JSON Schema (2020-12) of the tool's output, built once and cached.
    pub fn output_schema(&self) -> &Value {
        self.output_schema
            .get_or_init(|| build_output_schema(self.parts.output.schema()))
    }
}

impl fmt::Debug for ToolContract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolContract")
            .field("name", &self.parts.name)
            .field("version", &self.parts.version)
            .field("deprecation", &self.parts.deprecation)
            .field("policy", &self.parts.policy)
            .field("fields", &self.parts.fields)
            .field("output", &self.parts.output)
            .field("errors", &self.parts.errors)
            .field("waivers", &self.parts.waivers)
            .finish_non_exhaustive()
    }
}
