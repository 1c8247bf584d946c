//! The contract rules at every depth, judged from a contract's input schema.
//!
//! `#[derive(Tool)]` judges a tool's own fields at compile time and
//! `#[derive(ToolArgs)]` the fields of a nested type. A plain
//! `#[derive(Deserialize, JsonSchema)]` type (from the application or from
//! another crate) is seen by no derive of ours, so its properties are judged
//! here, from the schema, when the contract is checked: by
//! `Toolbox::register`, by a [`Catalog`](crate::words::Catalog) and by the
//! lock check. The names are read with the same lists and the messages use
//! the same words as the compile-time rules (`tool_words::judge`):
//!
//! - `untyped_amount`: a property named like money (`price`, `refund_amount`)
//!   typed `number`, `string`, or `integer` without minor units and a
//!   `currency` beside it;
//! - `model_identity`: a property named for who is acting or what they may do
//!   (`user_id`, `tenant_id`, `role`, `is_admin`, `permissions`, `login`,
//!   `sudo`, ...): every property of the input schema is supplied by the model;
//! - `boolean_pair`: two boolean properties of one object for one state
//!   (`show_x`/`hide_x`, `is_active`/`is_cancelled`);
//! - `free_form_command`: a string property (or a list of strings) whose
//!   name or description says it holds a program (`sql`, `command`,
//!   `script`, `expression`, "a shell command", ...) with neither a
//!   `pattern` nor a `maxLength` with a `format`; an enum of strings is
//!   not free-form, and search text (`query`, `keywords`) is no program
//!   (see [`command_word`] for where the line is); a list of tuples
//!   holding strings (`commands: Vec<(String, String)>`) is judged by its
//!   strings;
//! - `untyped_destination`: in a tool that is `open_world` and not `read`,
//!   a string property (or a list of strings) at any depth named for a
//!   destination (`email`, `to`, `recipient`, `webhook_url`, ...) with
//!   neither a destination `format` (`email`, `uri`, `hostname`, ...) nor
//!   a `pattern`: the runtime's recipient policy reads a destination by its
//!   format (a `#[derive(ToolArgs)]` type does not know the tool it is
//!   used in, so this is judged here, for the tool).
//!
//! A type alias is judged by what it is: `type Dollars = f64; amount:
//! Dollars` is a `number` in the schema, on a tool's own field, in a
//! `#[derive(ToolArgs)]` type and in a plain one. A rule is waived for the
//! whole tool by `#[tool(allow(rule = "reason"))]` on the struct, or for
//! everything inside one field by the same key on that field; the waivers
//! of a `#[derive(ToolArgs)]` type (on the type or a field) are in its
//! schema under `"x-tool-allow"` and apply to its own properties.

use std::collections::HashSet;
use std::error::Error;
use std::fmt;

use serde_json::{Map, Value};
use tool_words::judge::{
    AmountProblem, boolean_pair, boolean_pair_message, command_word, currency_name,
    destination_format, destination_name, free_form_command_message, identity_name_on,
    model_identity_message, money_name, untyped_amount_message, untyped_destination_message, words,
};

use super::conflict::VersionConflict;
use super::input_schema::ALLOW_KEY;
use super::policy::Effect;
use super::tool_contract::ToolContract;
use super::waiver::ContractRule;
use crate::parse::{ArgumentErrorKind, SchemaError};

/// A tool whose contract cannot be served: it breaks a rule inside a
/// nested type (every violation found, each with its rule, where it is and
/// the message), its input schema cannot be enforced, or its version
/// conflicts with a version of the same name already served.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContractError {
    tool: &'static str,
    violations: Vec<RuleViolation>,
    schema: Option<Box<SchemaError>>,
    conflict: Option<Box<VersionConflict>>,
    example: Option<Box<ExampleError>>,
}

/// An example of the tool's arguments (`#[tool(example = "...")]`) that
/// its own parser refuses: which one, where, and the parser's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExampleError {
    index: usize,
    path: String,
    message: String,
}

impl ExampleError {
    /// The example's index, counting from 0 in the order written.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Where the parser stopped, as a JSON path: `$.quantity`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The parser's message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// One rule broken at one property of a nested type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleViolation {
    rule: ContractRule,
    path: String,
    message: String,
}

impl ContractError {
    /// The name of the tool.
    pub fn tool(&self) -> &'static str {
        self.tool
    }

    /// Every violation, in schema order.
    pub fn violations(&self) -> &[RuleViolation] {
        &self.violations
    }

    /// Why the parser could not enforce the input schema, when that is the
    /// error ([`ToolContract::check`]); the rules are judged only after it.
    pub fn schema_error(&self) -> Option<&SchemaError> {
        self.schema.as_deref()
    }

    /// Why this version of the tool cannot be served beside the versions
    /// of its name already served, when that is the error.
    pub fn version_conflict(&self) -> Option<&VersionConflict> {
        self.conflict.as_deref()
    }

    /// The example the tool's parser refuses, when that is the error.
    pub fn example_error(&self) -> Option<&ExampleError> {
        self.example.as_deref()
    }

    /// The error of a version of `tool` that conflicts with the versions
    /// of its name already served.
    pub fn conflict(tool: &'static str, conflict: VersionConflict) -> Self {
        ContractError {
            tool,
            violations: Vec::new(),
            schema: None,
            conflict: Some(Box::new(conflict)),
            example: None,
        }
    }
}

impl RuleViolation {
    /// The rule broken.
    pub fn rule(&self) -> ContractRule {
        self.rule
    }

    /// Where, as a JSON path into the arguments: `$.filters.price`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What is wrong and what to write instead, naming the type and field.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ContractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(conflict) = &self.conflict {
            return conflict.describe(self.tool, f);
        }
        if let Some(schema) = &self.schema {
            return write!(
                f,
                "tool `{}` has an input schema the parser cannot enforce: {schema}",
                self.tool
            );
        }
        if let Some(example) = &self.example {
            return write!(
                f,
                "tool `{}` has an example its parser refuses: example {} at `{}`: {}",
                self.tool, example.index, example.path, example.message
            );
        }
        write!(f, "tool `{}` breaks the contract rules:", self.tool)?;
        for v in &self.violations {
            write!(f, "\n- at `{}`: {}", v.path, v.message)?;
        }
        Ok(())
    }
}

impl Error for ContractError {}

impl ToolContract {
    /// Checks that the parser can enforce the input schema ([`ToolContract::check`]),
    /// then judges the nested types of the input schema by the contract rules;
    /// see [`rules`](crate::contract::rules) for what is judged and how to waive a rule.
    ///
    /// ```
    /// use tool_contract::Tool;
    /// use tool_contract::schemars::JsonSchema;
    /// use tool_contract::serde::Deserialize;
    ///
    /// /// Filters for a product search.
    /// #[derive(Deserialize, JsonSchema)]
    /// #[serde(crate = "tool_contract::serde")]
    /// #[schemars(crate = "tool_contract::schemars")]
    /// pub struct Filters {
    ///     /// Highest price.
    ///     pub price: f64,
    /// }
    ///
    /// /// Search the product catalog by filters. Read-only.
    /// #[derive(Tool)]
    /// pub struct SearchProducts {
    ///     /// What to filter by.
    ///     pub filters: Filters,
    /// }
    ///
    /// let error = SearchProducts::contract().check_rules().unwrap_err();
    /// assert_eq!(error.violations()[0].path(), "$.filters.price");
    /// assert!(error.violations()[0].message().starts_with(
    ///     "`Filters.price` is an amount of money typed `number`"
    /// ));
    /// ```
    pub fn check_rules(&self) -> Result<(), ContractError> {
        if let Err(schema) = self.check() {
            return Err(ContractError {
                tool: self.name(),
                violations: Vec::new(),
                schema: Some(Box::new(schema)),
                conflict: None,
                example: None,
            });
        }
        // Each example parses as a call would (an injected value is the
        // session's, not the example's: its absence is not the example's).
        for (index, text) in self.examples().iter().enumerate() {
            if let Err(error) = self.parse_example(text)
                && error.kind() != ArgumentErrorKind::MissingSessionValue
            {
                return Err(ContractError {
                    tool: self.name(),
                    violations: Vec::new(),
                    schema: None,
                    conflict: None,
                    example: Some(Box::new(ExampleError {
                        index,
                        path: error.path().to_owned(),
                        message: error.message().to_owned(),
                    })),
                });
            }
        }
        let root = self.input_schema();
        let empty = Map::new();
        let defs = root
            .get("$defs")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let tool_waived: Vec<ContractRule> = self
            .waivers()
            .iter()
            .filter(|w| w.field().is_none())
            .map(|w| w.rule())
            .collect();
        let mut walk = Walk {
            defs,
            read: self.effect() == Effect::Read,
            outbound: self.open_world() && self.effect() != Effect::Read,
            seen: HashSet::new(),
            violations: Vec::new(),
        };
        let waived_for = |name: &str| {
            let mut waived = tool_waived.clone();
            waived.extend(
                self.waivers()
                    .iter()
                    .filter(|w| w.field() == Some(name))
                    .map(|w| w.rule()),
            );
            waived
        };
        let properties = root.get("properties").and_then(Value::as_object);
        if let Some(properties) = properties {
            // The tool's own fields were judged at compile time by their
            // syntax; judged again by their schema, a type alias shows what
            // it is (`type Dollars = f64; amount: Dollars` is a `number`).
            walk.judge(self.rust_name(), "$", properties, &waived_for);
        }
        for (name, schema) in properties.into_iter().flatten() {
            walk.visit(schema, &format!("$.{name}"), None, &waived_for(name));
        }
        if walk.violations.is_empty() {
            Ok(())
        } else {
            Err(ContractError {
                tool: self.name(),
                violations: walk.violations,
                schema: None,
                conflict: None,
                example: None,
            })
        }
    }
}

/// The rule spelled `name` (`untyped_amount`).
fn rule_named(name: &str) -> Option<ContractRule> {
    [
        ContractRule::UntypedAmount,
        ContractRule::UntypedQuantity,
        ContractRule::ModelIdentity,
        ContractRule::BooleanPair,
        ContractRule::VagueName,
        ContractRule::MisleadingName,
        ContractRule::FreeFormCommand,
        ContractRule::OpenWorldWrite,
        ContractRule::UntypedDestination,
    ]
    .into_iter()
    .find(|rule| rule.as_str() == name)
}

struct Walk<'a> {
    defs: &'a Map<String, Value>,
    /// Whether the tool only reads: a public handle (`username`) is then
    /// what is looked up, not who is acting.
    read: bool,
    /// Whether the tool is `open_world` and not `read`: its destinations
    /// must carry a format (`untyped_destination`).
    outbound: bool,
    /// (definition, waived rules) already judged: recursive types end.
    seen: HashSet<(String, Vec<ContractRule>)>,
    violations: Vec<RuleViolation>,
}

/// What a property holds, as the rules ask.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Number,
    Integer,
    Text,
    Enum,
    Bool,
    Other,
}

impl Kind {
    fn json(self) -> &'static str {
        match self {
            Kind::Number => "number",
            Kind::Integer => "integer",
            Kind::Text => "string",
            Kind::Bool => "boolean",
            Kind::Enum | Kind::Other => "value",
        }
    }
}

impl<'a> Walk<'a> {
    fn definition(&self, schema: &Value) -> Option<(&'a str, &'a Value)> {
        let reference = schema.get("$ref")?.as_str()?;
        let name = reference.rsplit('/').next()?;
        self.defs.get_key_value(name).map(|(k, v)| (k.as_str(), v))
    }

    fn visit(
        &mut self,
        schema: &Value,
        path: &str,
        type_name: Option<&str>,
        waived: &[ContractRule],
    ) {
        let Some(object) = schema.as_object() else {
            return;
        };
        if let Some((name, def)) = self.definition(schema)
            && self.seen.insert((name.to_owned(), waived.to_vec()))
        {
            self.visit(def, path, Some(name), waived);
        }
        if let Some(properties) = object.get("properties").and_then(Value::as_object) {
            let label = type_name
                .map(str::to_owned)
                .or_else(|| {
                    object
                        .get("title")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                })
                .unwrap_or_else(|| format!("the object at {path}"));
            let allow = object.get(ALLOW_KEY);
            let waived_for = |name: &str| {
                let mut rules = waived.to_vec();
                for key in ["", name] {
                    let listed = allow.and_then(|a| a.get(key)).and_then(Value::as_array);
                    rules.extend(
                        listed
                            .into_iter()
                            .flatten()
                            .filter_map(Value::as_str)
                            .filter_map(rule_named),
                    );
                }
                rules
            };
            self.judge(&label, path, properties, &waived_for);
            for (key, property) in properties {
                self.visit(property, &format!("{path}.{key}"), None, waived);
            }
        }
        if let Some(items) = object.get("items") {
            self.visit(items, &format!("{path}[]"), None, waived);
        }
        for key in ["prefixItems", "anyOf", "oneOf", "allOf"] {
            for branch in object
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                self.visit(branch, path, type_name, waived);
            }
        }
    }

    fn kind(&self, schema: &Value) -> Kind {
        if let Some((_, def)) = self.definition(schema) {
            return self.kind(def);
        }
        if schema.get("enum").is_some() || schema.get("const").is_some() {
            return Kind::Enum;
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(branches) = schema.get(key).and_then(Value::as_array) {
                let kinds: Vec<Kind> = branches
                    .iter()
                    .filter(|b| b.get("type").and_then(Value::as_str) != Some("null"))
                    .map(|b| self.kind(b))
                    .collect();
                // One kind for every branch (`Option<T>`, or an enum of
                // documented string values, each a `const` branch).
                return match kinds.split_first() {
                    Some((first, rest)) if rest.iter().all(|k| k == first) => *first,
                    _ => Kind::Other,
                };
            }
        }
        let types: Vec<&str> = match schema.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let types: Vec<&str> = types.into_iter().filter(|t| *t != "null").collect();
        match types.as_slice() {
            ["number"] => Kind::Number,
            ["integer"] => Kind::Integer,
            ["string"] => Kind::Text,
            ["boolean"] => Kind::Bool,
            _ => Kind::Other,
        }
    }

    /// Whether a property holds text the model writes freely: a string
    /// (or a list of strings) with neither a `pattern` nor a `maxLength`
    /// beside a `format`; an enum or `const` is not free.
    fn free_text(&self, schema: &Value) -> bool {
        let unconstrained = |leaf: &Value| {
            let has = |key: &str| leaf.get(key).is_some();
            !(has("pattern") || (has("maxLength") && has("format")))
        };
        self.text_where(schema, 0, true, &unconstrained)
    }

    /// Whether a property is a string (or a list of strings) that no
    /// destination format or `pattern` lets the recipient policy read.
    fn untyped_text(&self, schema: &Value) -> bool {
        let unreadable = |leaf: &Value| {
            let formatted = leaf
                .get("format")
                .and_then(Value::as_str)
                .is_some_and(destination_format);
            !(formatted || leaf.get("pattern").is_some())
        };
        self.text_where(schema, 0, false, &unreadable)
    }

    /// Whether `schema` is a string that `leaf` judges so, or a list of such
    /// strings (with `tuples`, also a tuple holding one, as
    /// `Vec<(String, String)>` is written: `prefixItems` or `items` as a
    /// list), through `$ref`s and unions of one branch besides `null`.
    fn text_where(
        &self,
        schema: &Value,
        depth: usize,
        tuples: bool,
        leaf: &dyn Fn(&Value) -> bool,
    ) -> bool {
        // `$ref` chains and wrappers end; a deeper one is not plain text.
        if depth > 16 || schema.get("enum").is_some() || schema.get("const").is_some() {
            return false;
        }
        let next = |schema: &Value| self.text_where(schema, depth + 1, tuples, leaf);
        if let Some((_, def)) = self.definition(schema) {
            return next(def);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(branches) = schema.get(key).and_then(Value::as_array) {
                let mut real = branches
                    .iter()
                    .filter(|b| b.get("type").and_then(Value::as_str) != Some("null"));
                return match (real.next(), real.next()) {
                    (Some(only), None) => next(only),
                    _ => false,
                };
            }
        }
        let types: Vec<&str> = match schema.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        match types
            .into_iter()
            .filter(|t| *t != "null")
            .collect::<Vec<_>>()[..]
        {
            ["string"] => leaf(schema),
            ["array"] => {
                let items = schema.get("items");
                let tuple = schema
                    .get("prefixItems")
                    .or(items.filter(|i| i.is_array()))
                    .and_then(Value::as_array)
                    .filter(|_| tuples);
                match tuple {
                    Some(members) => members.iter().any(next),
                    None => items.is_some_and(next),
                }
            }
            _ => false,
        }
    }

    /// Judges the properties of one object; `waived` gives the rules
    /// waived for a property.
    fn judge(
        &mut self,
        type_name: &str,
        path: &str,
        properties: &Map<String, Value>,
        waived_for: &dyn Fn(&str) -> Vec<ContractRule>,
    ) {
        let has_currency = properties.iter().any(|(name, schema)| {
            currency_name(&words(name)) && matches!(self.kind(schema), Kind::Text | Kind::Enum)
        });
        let mut booleans: Vec<&str> = Vec::new();
        for (name, schema) in properties {
            let waived = &waived_for(name);
            let who = format!("`{type_name}.{name}`");
            let at = format!("{path}.{name}");
            let name_words = words(name);
            let kind = self.kind(schema);
            if let Some(minor) = money_name(&name_words) {
                let problem = match kind {
                    Kind::Number => Some(AmountProblem::Float),
                    Kind::Text => Some(AmountProblem::Text),
                    Kind::Integer if minor && has_currency => None,
                    Kind::Integer if minor => Some(AmountProblem::MinorWithoutCurrency),
                    Kind::Integer => Some(AmountProblem::BareInteger),
                    _ => None,
                };
                if let Some(problem) = problem {
                    let message = untyped_amount_message(&who, kind.json(), name, problem);
                    self.report(ContractRule::UntypedAmount, waived, at.clone(), message);
                }
            }
            if self.free_text(schema) {
                let description = schema.get("description").and_then(Value::as_str);
                let found = command_word(std::slice::from_ref(&name_words), description);
                if let Some((word, in_name)) = found {
                    self.report(
                        ContractRule::FreeFormCommand,
                        waived,
                        at.clone(),
                        free_form_command_message(&who, word, in_name),
                    );
                }
            }
            if self.outbound && destination_name(&name_words) && self.untyped_text(schema) {
                self.report(
                    ContractRule::UntypedDestination,
                    waived,
                    at.clone(),
                    untyped_destination_message(&who),
                );
            }
            if identity_name_on(&name_words, self.read) {
                self.report(
                    ContractRule::ModelIdentity,
                    waived,
                    at.clone(),
                    model_identity_message(&who, true),
                );
            }
            if kind == Kind::Bool {
                for other in &booleans {
                    if boolean_pair(&words(other), &name_words) {
                        let first = format!("`{type_name}.{other}`");
                        // Waived on either field of the pair.
                        let mut either = waived.clone();
                        either.extend(waived_for(other));
                        self.report(
                            ContractRule::BooleanPair,
                            &either,
                            at.clone(),
                            boolean_pair_message(&first, &who),
                        );
                    }
                }
                booleans.push(name);
            }
        }
    }

    fn report(
        &mut self,
        rule: ContractRule,
        waived: &[ContractRule],
        path: String,
        message: String,
    ) {
        if !waived.contains(&rule) {
            self.violations.push(RuleViolation {
                rule,
                path,
                message,
            });
        }
    }
}
