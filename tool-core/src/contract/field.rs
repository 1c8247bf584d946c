//! One field of a tool: presence, constraints and where its value comes from.

use serde::{Deserialize, Serialize};
use serde_json::{Number, Value};

use super::schema::SchemaFn;
use super::session::Session;

/// Whether a session holds the value of an injected field's type: what the
/// derive gives [`FieldContract`] for each required injected field, so that
/// a start-up check finds a missing value without a call.
pub type SessionProbe = fn(&Session) -> bool;

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
    constraints: &'static [Constraint<'static>],
    item_constraints: &'static [Constraint<'static>],
    idempotency_key: bool,
    schema: Option<SchemaFn>,
    session_probe: Option<SessionProbe>,
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
        constraints: &'static [Constraint<'static>],
        item_constraints: &'static [Constraint<'static>],
        idempotency_key: bool,
        schema: Option<SchemaFn>,
        session_probe: Option<SessionProbe>,
    ) -> Self {
        FieldContract {
            session_probe,
            item_constraints,
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
    pub const fn constraints(&self) -> &'static [Constraint<'static>] {
        self.constraints
    }

    /// The constraints on each item of a list field, from
    /// `#[tool(items(...))]`; emitted under the property's `items`.
    pub const fn item_constraints(&self) -> &'static [Constraint<'static>] {
        self.item_constraints
    }

    /// True for the field marked `#[tool(idempotency_key)]`.
    pub const fn idempotency_key(&self) -> bool {
        self.idempotency_key
    }

    /// True when the field's name (its JSON or its Rust name) says where the
    /// tool sends data: `to`, `recipient`, `cc`, `email_address`,
    /// `phone_number`, `webhook_url`, `mail_to`, ... (the words of the
    /// `untyped_destination` rule, `tool_words::judge::destination_name`),
    /// or when it (or each item of it) carries a destination format
    /// (`email`, `uri`, `hostname`, `ipv4`, `ipv6`, ...:
    /// `tool_words::judge::DESTINATION_FORMATS`) whatever its name.
    /// The runtime applies the session's recipient policy to what the model
    /// writes there; nested fields are found from the input schema the same
    /// way.
    ///
    /// ```
    /// use tool_contract::Tool;
    ///
    /// /// Mail a receipt for one order to the address the customer gives.
    /// #[derive(Tool)]
    /// #[tool(effect = "write", idempotent, open_world, approval = "required")]
    /// pub struct SendReceipt {
    ///     /// Where to mail the receipt, e.g. "ana@example.com".
    ///     #[tool(format = "email")]
    ///     pub to: String,
    ///     /// The order whose receipt to send, e.g. "ORD-1".
    ///     pub order_ref: String,
    /// }
    ///
    /// let contract = SendReceipt::contract();
    /// assert!(contract.field("to").unwrap().destination());
    /// assert!(!contract.field("order_ref").unwrap().destination());
    /// ```
    pub fn destination(&self) -> bool {
        if self.injected {
            return false;
        }
        let formatted = self.constraints.iter().chain(self.item_constraints).any(
            |c| matches!(c, Constraint::Format(f) if tool_words::judge::destination_format(f)),
        );
        formatted
            || [self.name, self.rust_name.trim_start_matches("r#")]
                .iter()
                .any(|name| tool_words::judge::destination_name(&tool_words::judge::words(name)))
    }

    /// True when the field is injected, required (not an `Option`), and
    /// `session` holds no value of its type: a call of the tool in that
    /// session ends as a fatal configuration error. [`rust_type`](Self::rust_type)
    /// names the type to add with [`Session::with`].
    pub fn missing_from(&self, session: &Session) -> bool {
        self.session_probe.is_some_and(|holds| !holds(session))
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

// One type for the contract and its words: the derive's rustdoc section
// renders the same constraints at compile time, without tool-core.
pub use tool_words::{Constraint, NumberBound};

impl FieldContract {
    /// The description the model reads in the input schema: the field's
    /// own, then its unit (`"How long to hold the units. Unit: minutes."`).
    pub fn model_description(&self) -> String {
        let described = tool_words::described(self.description, self.unit);
        if self.item_constraints.is_empty() {
            return described;
        }
        let items = tool_words::Words::new()
            .field(None, self.item_constraints)
            .text();
        tool_words::followed_by(&described, &format!("Each item: {items}"))
    }
}

/// The JSON value of a constraint's keyword (`"minLength": 1`).
pub fn constraint_json(constraint: &Constraint<'_>) -> Value {
    match *constraint {
        Constraint::MinLength(n)
        | Constraint::MaxLength(n)
        | Constraint::MinItems(n)
        | Constraint::MaxItems(n) => Value::from(n),
        Constraint::Pattern(s) | Constraint::Format(s) => Value::from(s),
        Constraint::Minimum(b) | Constraint::Maximum(b) => bound_json(b),
    }
}

/// A bound as a JSON number (integers stay integers).
pub fn bound_json(bound: NumberBound) -> Value {
    match bound {
        NumberBound::Int(n) => Value::from(n),
        NumberBound::UInt(n) => Value::from(n),
        NumberBound::Float(n) => Value::from(n),
    }
}

/// A JSON number as a bound (integers stay integers).
pub fn bound_from_json(number: &Number) -> NumberBound {
    if let Some(n) = number.as_u64() {
        NumberBound::UInt(n)
    } else if let Some(n) = number.as_i64() {
        NumberBound::Int(n)
    } else {
        NumberBound::Float(number.as_f64().unwrap_or(f64::NAN))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_keep_integers_exact_both_ways() {
        for bound in [
            NumberBound::Int(i64::MIN),
            NumberBound::UInt(u64::MAX),
            NumberBound::Float(0.5),
        ] {
            let Value::Number(number) = bound_json(bound) else {
                panic!("{bound} is not a JSON number");
            };
            assert_eq!(bound_from_json(&number), bound);
        }
        assert_eq!(
            constraint_json(&Constraint::Maximum(NumberBound::Int(-1))),
            Value::from(-1)
        );
        assert_eq!(
            constraint_json(&Constraint::Pattern("^a")),
            Value::from("^a")
        );
        assert_eq!(constraint_json(&Constraint::MinItems(2)), Value::from(2));
    }
}
