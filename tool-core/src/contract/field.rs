//! One field of a tool: presence, constraints and where its value comes from.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::schema::SchemaFn;

/// One field of the tool's struct.
#[derive(Debug)]
pub struct FieldContract {
    name: &'static str,
    rust_name: &'static str,
    rust_type: &'static str,
    description: &'static str,
    presence: Presence,
    injected: bool,
    unit: Option<&'static str>,
    constraints: &'static [Constraint],
    idempotency_key: bool,
    schema: Option<SchemaFn>,
}

impl FieldContract {
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub const fn __new(
        name: &'static str,
        rust_name: &'static str,
        rust_type: &'static str,
        description: &'static str,
        presence: Presence,
        injected: bool,
        unit: Option<&'static str>,
        constraints: &'static [Constraint],
        idempotency_key: bool,
        schema: Option<SchemaFn>,
    ) -> Self {
        FieldContract {
            name,
            rust_name,
            rust_type,
            description,
            presence,
            injected,
            unit,
            constraints,
            idempotency_key,
            schema,
        }
    }

    /// The JSON property name the model uses.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The Rust field name.
    pub const fn rust_name(&self) -> &'static str {
        self.rust_name
    }

    /// The field's Rust type as written in the struct.
    pub const fn rust_type(&self) -> &'static str {
        self.rust_type
    }

    /// The field's doc comment (or `description = "..."`).
    pub const fn description(&self) -> &'static str {
        self.description
    }

    /// Whether the model must give the field.
    pub const fn presence(&self) -> Presence {
        self.presence
    }

    /// True when the value comes from the [`Session`](crate::Session), never from the model.
    pub const fn injected(&self) -> bool {
        self.injected
    }

    /// The unit of a quantity (`#[tool(unit = "...")]`).
    pub const fn unit(&self) -> Option<&'static str> {
        self.unit
    }

    /// Constraints the parser enforces and the schema states.
    pub const fn constraints(&self) -> &'static [Constraint] {
        self.constraints
    }

    /// True for the field marked `#[tool(idempotency_key)]`.
    pub const fn idempotency_key(&self) -> bool {
        self.idempotency_key
    }

    /// Builds the field type's schema; `None` for injected fields.
    #[doc(hidden)]
    pub const fn schema(&self) -> Option<SchemaFn> {
        self.schema
    }
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
    Minimum(NumberBound),
    /// At most this value.
    Maximum(NumberBound),
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
pub enum NumberBound {
    /// A negative integer.
    Int(i64),
    /// A non-negative integer.
    UInt(u64),
    /// A number with a fraction or exponent.
    Float(f64),
}

impl NumberBound {
    /// The bound as a JSON number (integers stay integers).
    pub fn to_json(self) -> Value {
        match self {
            NumberBound::Int(n) => Value::from(n),
            NumberBound::UInt(n) => Value::from(n),
            NumberBound::Float(n) => Value::from(n),
        }
    }
}

impl fmt::Display for NumberBound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumberBound::Int(n) => write!(f, "{n}"),
            NumberBound::UInt(n) => write!(f, "{n}"),
            NumberBound::Float(n) => write!(f, "{n}"),
        }
    }
}
