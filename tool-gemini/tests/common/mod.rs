//! Helpers and the rich tool set shared by the Gemini tests.
#![allow(dead_code)]

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use tool_contract::{Money, Tool};
use tool_gemini::{Dialect, GeminiRule, to_gemini_schema};

/// Compares `actual` with `tests/golden/NAME`, or writes the file when
/// `TOOL_GEMINI_BLESS=1` is set.
pub fn golden(name: &str, actual: &Value) {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "golden", name]
        .iter()
        .collect();
    let text = format!("{}\n", serde_json::to_string_pretty(actual).unwrap());
    if std::env::var_os("TOOL_GEMINI_BLESS").is_some() {
        std::fs::write(&path, text).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read golden file {}: {e}; run with TOOL_GEMINI_BLESS=1 to write it",
            path.display()
        )
    });
    assert_eq!(text, expected, "{} differs", path.display());
}

/// Compiles `schema` in `dialect`, expecting success with a schema.
pub fn compile(schema: &Value, dialect: Dialect) -> Value {
    let compiled = to_gemini_schema(schema, dialect)
        .unwrap_or_else(|e| panic!("expected {schema} to compile, got {e}"))
        .expect("expected parameters");
    assert_conformant(&compiled, dialect);
    compiled
}

/// Asserts that compiling fails with exactly this path, rule and message.
pub fn refused(schema: &Value, dialect: Dialect, path: &str, rule: GeminiRule, message: &str) {
    let error = to_gemini_schema(schema, dialect).expect_err("expected the schema to be refused");
    assert_eq!(
        (error.path(), error.rule(), error.message()),
        (path, rule, message),
        "for {schema}"
    );
}

/// A category in the shop's tree, with the categories below it.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Category {
    /// Name of the category as the shop shows it, e.g. "Shoes".
    pub name: String,
    /// Categories below this one; absent for a leaf.
    pub children: Option<Vec<Category>>,
}

/// How urgent the search is.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// Whenever there is time.
    Low,
    /// Before anything else.
    High,
}

/// Where the order goes.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Shipping {
    /// Ship to a street address.
    Address {
        /// Street and house number, e.g. "Main St 1".
        street: String,
    },
    /// Pick the order up in a store.
    Pickup {
        /// Store code as printed on the receipt, e.g. "BER-1".
        store: String,
    },
}

/// Search the signed-in customer's orders by text, date, category and price.
#[derive(Debug, Tool)]
pub struct SearchOrders {
    /// Words to look for in item names, e.g. "running shoes".
    #[tool(min_length = 1, max_length = 100, pattern = "^[a-z ]+$")]
    pub text: String,
    /// Only orders placed on or after this day, e.g. "2026-01-31".
    #[tool(format = "date")]
    pub placed_after: Option<String>,
    /// Only orders placed before this moment, e.g. "2026-02-01T00:00:00Z".
    #[tool(format = "date-time")]
    pub placed_before: Option<String>,
    /// How urgent the search is; absent for low.
    pub priority: Option<Priority>,
    /// How many orders to return at most.
    #[tool(minimum = 1, maximum = 50)]
    pub max_results: u32,
    /// Labels the orders must carry, e.g. ["gift"].
    #[tool(max_items = 5, items(min_length = 1))]
    pub labels: Vec<String>,
    /// Category to search in, with its sub-categories.
    pub category: Option<Category>,
    /// Most the order may have cost, e.g. 50.00 EUR.
    pub price_limit: Option<Money>,
    /// Only orders shipped this way.
    pub shipping: Shipping,
    /// Whether to include orders that are still drafts.
    pub include_drafts: bool,
    /// Request id for tracing, e.g. "3f2b7c1e-...".
    #[tool(format = "uuid")]
    pub request_id: String,
}

/// List the stores of the shop with their codes and opening hours.
#[derive(Debug, Tool)]
pub struct ListStores {}

/// Asserts what every compiled schema must satisfy, node by node: only the
/// keywords the dialect takes (docs/providers-dialects.md 2.2 for `parameters`,
/// 2.3's list for `parametersJsonSchema`), every node typed (or a union or
/// a reference), `type` a single name, `enum` only on strings, `format`
/// only `date-time`, `$ref` alone, `items` exactly on arrays, `required`
/// naming properties, property names in Gemini's alphabet.
pub fn assert_conformant(schema: &Value, dialect: Dialect) {
    let allowed: &[&str] = match dialect {
        Dialect::OpenApiParameters => &[
            "type",
            "format",
            "description",
            "nullable",
            "enum",
            "items",
            "minItems",
            "maxItems",
            "properties",
            "required",
            "minimum",
            "maximum",
            "anyOf",
        ],
        Dialect::ParametersJsonSchema => &[
            "$defs",
            "$ref",
            "type",
            "format",
            "description",
            "enum",
            "items",
            "minItems",
            "maxItems",
            "minimum",
            "maximum",
            "anyOf",
            "properties",
            "additionalProperties",
            "required",
        ],
    };
    let mut stack = vec![(schema, "#".to_owned())];
    while let Some((node, path)) = stack.pop() {
        let map = node
            .as_object()
            .unwrap_or_else(|| panic!("{path}: not an object"));
        for key in map.keys() {
            assert!(
                allowed.contains(&key.as_str()),
                "{path}: `{key}` in {dialect:?}"
            );
        }
        if map.contains_key("$ref") {
            assert_eq!(map.len(), 1, "{path}: keywords beside `$ref`");
            continue;
        }
        let ty = map
            .get("type")
            .map(|t| t.as_str().unwrap_or_else(|| panic!("{path}: type {t}")));
        assert!(ty.is_some() || map.contains_key("anyOf"), "{path}: untyped");
        assert!(
            dialect == Dialect::ParametersJsonSchema || ty != Some("null"),
            "{path}: null type"
        );
        if map.contains_key("enum") {
            assert_eq!(ty, Some("string"), "{path}: enum on {ty:?}");
            assert!(
                map["enum"].as_array().unwrap().iter().all(Value::is_string),
                "{path}"
            );
        }
        if let Some(format) = map.get("format") {
            assert_eq!(
                (ty, format.as_str()),
                (Some("string"), Some("date-time")),
                "{path}"
            );
        }
        assert_eq!(
            map.contains_key("items"),
            ty == Some("array"),
            "{path}: items"
        );
        if let Some(Value::Object(properties)) = map.get("properties") {
            assert!(
                dialect == Dialect::ParametersJsonSchema || !properties.is_empty(),
                "{path}"
            );
            for (name, property) in properties {
                assert!(
                    name.len() <= 64
                        && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                    "{path}: property name {name}"
                );
                stack.push((property, format!("{path}/properties/{name}")));
            }
            for name in map
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                assert!(
                    properties.contains_key(name.as_str().unwrap()),
                    "{path}: {name}"
                );
            }
        }
        if let Some(Value::Object(defs)) = map.get("$defs") {
            assert_eq!(path, "#", "$defs below the root");
            for (name, def) in defs {
                stack.push((def, format!("#/$defs/{name}")));
            }
        }
        if let Some(items) = map.get("items") {
            stack.push((items, format!("{path}/items")));
        }
        if let Some(values @ Value::Object(_)) = map.get("additionalProperties") {
            stack.push((values, format!("{path}/additionalProperties")));
        }
        for (i, branch) in map
            .get("anyOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            stack.push((branch, format!("{path}/anyOf/{i}")));
        }
    }
}
