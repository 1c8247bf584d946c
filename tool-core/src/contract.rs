//! The static contract of a tool: what `#[derive(Tool)]` declares.

use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::schema::{self, SchemaFn};

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
}

/// The pieces a contract is built from; written by the derive.
#[doc(hidden)]
pub struct ContractParts {
    pub name: &'static str,
    pub rust_name: &'static str,
    pub description: &'static str,
    pub version: Version,
    pub policy: Policy,
    pub fields: &'static [FieldContract],
    pub output: OutputContract,
    pub errors: &'static [DeclaredError],
    pub waivers: &'static [Waiver],
}

impl ToolContract {
    #[doc(hidden)]
    pub const fn __new(parts: ContractParts) -> Self {
        ToolContract {
            parts,
            input_schema: OnceLock::new(),
            output_schema: OnceLock::new(),
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

    /// What the tool does and when to use it, as the model reads it.
    pub fn description(&self) -> &'static str {
        self.parts.description
    }

    /// The contract's semantic version.
    pub fn version(&self) -> Version {
        self.parts.version
    }

    /// The execution policy: effect, idempotency, approval, timeout, data class.
    pub fn policy(&self) -> &Policy {
        &self.parts.policy
    }

    /// What the tool does to the world.
    pub fn effect(&self) -> Effect {
        self.parts.policy.effect
    }

    /// Whether running the tool twice with the same arguments is safe.
    pub fn idempotency(&self) -> Idempotency {
        self.parts.policy.idempotency
    }

    /// Whether a call must be approved before it runs.
    pub fn approval(&self) -> Approval {
        self.parts.policy.approval
    }

    /// The longest a call may run, if the contract bounds it.
    pub fn timeout_ms(&self) -> Option<u64> {
        self.parts.policy.timeout_ms
    }

    /// Whether the tool reaches systems outside the application's control.
    pub fn open_world(&self) -> bool {
        self.parts.policy.open_world
    }

    /// The most sensitive class of data the tool reads or returns.
    pub fn data_class(&self) -> DataClass {
        self.parts.policy.data_class
    }

    /// Every field of the struct in declaration order, injected ones included.
    pub fn fields(&self) -> &'static [FieldContract] {
        self.parts.fields
    }

    /// The field with this JSON name, if any.
    pub fn field(&self, name: &str) -> Option<&'static FieldContract> {
        self.parts.fields.iter().find(|f| f.name == name)
    }

    /// The fields the model supplies (not injected from the session).
    pub fn model_fields(&self) -> impl Iterator<Item = &'static FieldContract> {
        self.parts.fields.iter().filter(|f| !f.injected)
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
        self.parts.errors.iter().find(|e| e.code == code)
    }

    /// Contract rules waived on this tool or its fields, each with its reason.
    pub fn waivers(&self) -> &'static [Waiver] {
        self.parts.waivers
    }

    /// Provider-neutral JSON Schema (2020-12) of the model-supplied arguments.
    ///
    /// Built on first use and cached: later calls return the same reference.
    pub fn input_schema(&self) -> &Value {
        self.input_schema
            .get_or_init(|| schema::build_input_schema(self))
    }

    /// JSON Schema (2020-12) of the tool's output, built once and cached.
    pub fn output_schema(&self) -> &Value {
        self.output_schema
            .get_or_init(|| schema::build_output_schema(self.parts.output.schema))
    }
}

impl fmt::Debug for ToolContract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolContract")
            .field("name", &self.parts.name)
            .field("version", &self.parts.version)
            .field("policy", &self.parts.policy)
            .field("fields", &self.parts.fields)
            .field("output", &self.parts.output)
            .field("errors", &self.parts.errors)
            .field("waivers", &self.parts.waivers)
            .finish_non_exhaustive()
    }
}

/// A `MAJOR.MINOR.PATCH` contract version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// Incremented when a change can break a caller: a field removed or
    /// retyped, a unit, meaning or effect changed.
    pub major: u64,
    /// Incremented when the contract grows compatibly: an optional field or an
    /// enum value added.
    pub minor: u64,
    /// Incremented for changes that do not alter the wire contract, such as a
    /// reworded description.
    pub patch: u64,
}

impl Version {
    /// A version from its three parts.
    pub const fn new(major: u64, minor: u64, patch: u64) -> Self {
        Version {
            major,
            minor,
            patch,
        }
    }

    /// Parses `MAJOR.MINOR.PATCH` (three unsigned integers without leading zeros).
    pub fn parse(text: &str) -> Option<Version> {
        let mut parts = text.split('.');
        let mut next = || -> Option<u64> {
            let part = parts.next()?;
            let valid = !part.is_empty()
                && part.bytes().all(|b| b.is_ascii_digit())
                && (part == "0" || !part.starts_with('0'));
            if valid { part.parse().ok() } else { None }
        };
        let version = Version::new(next()?, next()?, next()?);
        parts.next().is_none().then_some(version)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

impl Serialize for Version {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Version::parse(&text).ok_or_else(|| {
            serde::de::Error::invalid_value(
                serde::de::Unexpected::Str(&text),
                &"a version MAJOR.MINOR.PATCH",
            )
        })
    }
}

/// How a tool may be run: declared on the struct, enforced by the runtime.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Policy {
    /// What the tool does to the world.
    pub effect: Effect,
    /// Whether a repeated call is safe.
    pub idempotency: Idempotency,
    /// Whether a call needs an approval first.
    pub approval: Approval,
    /// The longest a call may run, in milliseconds; `None` leaves it to the runtime.
    pub timeout_ms: Option<u64>,
    /// Whether the tool reaches systems outside the application's control
    /// (the web, third-party APIs).
    pub open_world: bool,
    /// The most sensitive class of data the tool touches.
    pub data_class: DataClass,
}

/// What a tool does to the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Reads only; nothing changes.
    Read,
    /// Changes state in a way that can be undone or is expected.
    Write,
    /// Deletes or changes state in a way that cannot be undone.
    Destructive,
}

/// Whether a tool may be run twice with the same arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Idempotency {
    /// Not stated (allowed only for read tools, which are idempotent by nature).
    Unspecified,
    /// Running it again with the same arguments has no further effect.
    Idempotent,
    /// Each run has its own effect.
    NotIdempotent,
    /// Runs with the same value of this field are the same operation.
    Keyed {
        /// The JSON name of the idempotency-key field.
        field: &'static str,
    },
}

/// Whether a call must be approved before it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Approval {
    /// Runs without an approval.
    None,
    /// Runs only with an approval bound to this tool, version and arguments.
    Required,
}

/// The most sensitive class of data a tool reads or returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DataClass {
    /// Anyone may see it.
    Public,
    /// Anyone in the organisation may see it (the default).
    Internal,
    /// Only those who need it may see it.
    Confidential,
    /// Regulated or secret data.
    Restricted,
}

/// One field of the tool's struct.
#[derive(Debug)]
pub struct FieldContract {
    /// The JSON property name the model uses.
    pub name: &'static str,
    /// The Rust field name.
    pub rust_name: &'static str,
    /// The field's Rust type as written in the struct.
    pub rust_type: &'static str,
    /// The field's doc comment (or `description = "..."`).
    pub description: &'static str,
    /// Whether the model must give the field.
    pub presence: Presence,
    /// True when the value comes from the [`Session`](crate::Session), never from the model.
    pub injected: bool,
    /// The unit of a quantity (`#[tool(unit = "...")]`).
    pub unit: Option<&'static str>,
    /// Constraints the parser enforces and the schema states.
    pub constraints: &'static [Constraint],
    /// True for the field marked `#[tool(idempotency_key)]`.
    pub idempotency_key: bool,
    /// Builds the field type's schema; `None` for injected fields.
    #[doc(hidden)]
    pub schema: Option<SchemaFn>,
}

/// Whether a model-supplied field must be present.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Presence {
    /// Must be present and not null.
    Required,
    /// `Option<T>`: null or absent gives `None`.
    Optional,
    /// `#[tool(default)]`: null or absent gives the default value.
    Defaulted,
}

/// A constraint on a field's value, checked by the parser.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Constraint {
    /// At least this many characters (Unicode scalar values).
    MinLength(u64),
    /// At most this many characters.
    MaxLength(u64),
    /// Matches this regular expression (unanchored, as in JSON Schema).
    Pattern(&'static str),
    /// At least this value.
    Minimum(Bound),
    /// At most this value.
    Maximum(Bound),
    /// At least this many items.
    MinItems(u64),
    /// At most this many items.
    MaxItems(u64),
    /// A JSON Schema `format` (see [`crate::formats`]).
    Format(&'static str),
}

impl Constraint {
    /// The JSON Schema keyword for this constraint.
    pub fn keyword(&self) -> &'static str {
        match self {
            Constraint::MinLength(_) => "minLength",
            Constraint::MaxLength(_) => "maxLength",
            Constraint::Pattern(_) => "pattern",
            Constraint::Minimum(_) => "minimum",
            Constraint::Maximum(_) => "maximum",
            Constraint::MinItems(_) => "minItems",
            Constraint::MaxItems(_) => "maxItems",
            Constraint::Format(_) => "format",
        }
    }

    /// The JSON value of the keyword.
    pub fn value(&self) -> Value {
        match *self {
            Constraint::MinLength(n)
            | Constraint::MaxLength(n)
            | Constraint::MinItems(n)
            | Constraint::MaxItems(n) => Value::from(n),
            Constraint::Pattern(s) | Constraint::Format(s) => Value::from(s),
            Constraint::Minimum(b) | Constraint::Maximum(b) => b.to_json(),
        }
    }
}

/// A numeric bound as written in the attribute.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// A negative integer.
    Int(i64),
    /// A non-negative integer.
    UInt(u64),
    /// A number with a fraction or exponent.
    Float(f64),
}

impl Bound {
    /// The bound as a JSON number (integers stay integers).
    pub fn to_json(self) -> Value {
        match self {
            Bound::Int(n) => Value::from(n),
            Bound::UInt(n) => Value::from(n),
            Bound::Float(n) => Value::from(n),
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::Int(n) => write!(f, "{n}"),
            Bound::UInt(n) => write!(f, "{n}"),
            Bound::Float(n) => write!(f, "{n}"),
        }
    }
}

/// What the tool returns.
#[derive(Clone, Copy)]
pub struct OutputContract {
    /// The Rust type named in `output = ...` (`String` when none is declared).
    pub rust_type: &'static str,
    /// True when the struct declares `output = ...`.
    pub declared: bool,
    #[doc(hidden)]
    pub schema: SchemaFn,
}

impl fmt::Debug for OutputContract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OutputContract")
            .field("rust_type", &self.rust_type)
            .field("declared", &self.declared)
            .finish_non_exhaustive()
    }
}

/// An error code the tool declares with `errors(CODE = "...")`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DeclaredError {
    /// Stable `SCREAMING_SNAKE_CASE` code.
    pub code: &'static str,
    /// What it means and what the model (or user) should do.
    pub meaning: &'static str,
    /// What kind of failure it is, when declared.
    pub category: Option<ErrorCategory>,
    /// How to recover, when declared.
    pub recovery: Option<Recovery>,
}

/// The kind of failure behind an error code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCategory {
    /// The arguments are wrong.
    InvalidArguments,
    /// What the arguments name does not exist.
    NotFound,
    /// The caller may not do this.
    Permission,
    /// An approval is needed first.
    Approval,
    /// The state changed underneath the call.
    Conflict,
    /// Too many calls.
    RateLimit,
    /// The call took too long.
    Timeout,
    /// The call was cancelled.
    Aborted,
    /// A system the tool depends on failed.
    Upstream,
    /// A bug or an unexpected failure.
    Internal,
}

impl ErrorCategory {
    /// The snake_case name used in JSON and docs.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCategory::InvalidArguments => "invalid_arguments",
            ErrorCategory::NotFound => "not_found",
            ErrorCategory::Permission => "permission",
            ErrorCategory::Approval => "approval",
            ErrorCategory::Conflict => "conflict",
            ErrorCategory::RateLimit => "rate_limit",
            ErrorCategory::Timeout => "timeout",
            ErrorCategory::Aborted => "aborted",
            ErrorCategory::Upstream => "upstream",
            ErrorCategory::Internal => "internal",
        }
    }
}

/// What to do after an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recovery {
    /// Call again with corrected arguments.
    FixArguments,
    /// Call again as is.
    Retry,
    /// Call again after a while.
    RetryLater,
    /// Ask for an approval, then call again.
    RequestApproval,
    /// Ask the user.
    AskUser,
    /// Nothing will help.
    None,
}

impl Recovery {
    /// The snake_case name used in JSON and docs.
    pub fn as_str(self) -> &'static str {
        match self {
            Recovery::FixArguments => "fix_arguments",
            Recovery::Retry => "retry",
            Recovery::RetryLater => "retry_later",
            Recovery::RequestApproval => "request_approval",
            Recovery::AskUser => "ask_user",
            Recovery::None => "none",
        }
    }
}

/// A contract rule that the declaration waives, with the reason given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Waiver {
    /// The rule's name, e.g. `model_identity`.
    pub rule: Rule,
    /// The field it applies to, or `None` for the whole tool.
    pub field: Option<&'static str>,
    /// Why the rule does not apply here.
    pub reason: &'static str,
}

/// The contract rules that judge names, which a declaration may waive with a reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// A money-like field that is not `Money` or `*_minor` + `currency`.
    UntypedAmount,
    /// A duration-like number without a unit.
    UntypedQuantity,
    /// An identity (`user_id`, `role`, ...) the model could choose.
    ModelIdentity,
    /// Two booleans that encode one state.
    BooleanPair,
    /// A vague tool name, or one that is not `verb_object`.
    VagueName,
}

impl Rule {
    /// The rule's name as written in `allow(...)`.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::UntypedAmount => "untyped_amount",
            Rule::UntypedQuantity => "untyped_quantity",
            Rule::ModelIdentity => "model_identity",
            Rule::BooleanPair => "boolean_pair",
            Rule::VagueName => "vague_name",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_parse_accepts_semver_triples_only() {
        assert_eq!(Version::parse("2.10.0"), Some(Version::new(2, 10, 0)));
        assert_eq!(Version::parse("0.0.0"), Some(Version::new(0, 0, 0)));
        for bad in [
            "", "1", "1.2", "1.2.3.4", "01.2.3", "1.-2.3", "1.2.x", "1..3", " 1.2.3",
        ] {
            assert_eq!(Version::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn version_serializes_as_string() {
        let v = Version::new(1, 4, 2);
        assert_eq!(serde_json::to_value(v).unwrap(), Value::from("1.4.2"));
        let back: Version = serde_json::from_str("\"1.4.2\"").unwrap();
        assert_eq!(back, v);
        let err = serde_json::from_str::<Version>("\"1.4\"").unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid value: string \"1.4\", expected a version MAJOR.MINOR.PATCH"
        );
    }
}
