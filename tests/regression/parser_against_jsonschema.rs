//! Differential attacks on the parser (the parse-speed changes): documents
//! the `jsonschema` crate judges one way against `T::input_schema()` and
//! `T::from_arguments` the other.

use serde_json::{Value, json};
use tool_contract::{Session, Tool};

fn schema_accepts<T: Tool>(document: &Value) -> bool {
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(T::input_schema())
        .unwrap()
        .is_valid(document)
}

fn parse<T: Tool>(document: &Value) -> Result<(), String> {
    T::from_arguments(&document.to_string(), &Session::new())
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Quote what a number of loyalty points is worth, e.g. before a purchase.
#[derive(Debug, Tool)]
pub struct GetPointsQuote {
    /// How many points, exactly as the account shows them.
    pub points: u128,
    /// How many points the account owes, negative when in debt.
    pub owed: Option<i128>,
}

/// JSON Schema's `integer` includes whole floats (`100.0`, `1e2`, `-3.0`),
/// and the parser reads them into `u64`/`i64` fields (and Money amounts),
/// but a `u128`/`i128` field refuses them, and with a false message: the
/// JSON is valid.
#[test]
fn whole_floats_are_integers_for_128_bit_fields_too() {
    let mut disagreements = Vec::new();
    for document in [
        json!({"points": 100.0}),
        json!({"points": 1e2}),
        json!({"points": 5, "owed": -3.0}),
    ] {
        let schema = schema_accepts::<GetPointsQuote>(&document);
        let parsed = parse::<GetPointsQuote>(&document);
        if schema != parsed.is_ok() {
            disagreements.push(format!("{document}: schema {schema}, parser {parsed:?}"));
        }
    }
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}

/// A fraction for an integer field is refused by both, but the message
/// says the JSON is invalid, which it is not; a model told "invalid JSON"
/// fixes its quoting, not the number.
#[test]
fn a_fraction_for_a_128_bit_field_is_not_called_invalid_json() {
    let error = parse::<GetPointsQuote>(&json!({"points": 1.5})).unwrap_err();
    assert!(!error.contains("invalid JSON"), "{error}");
}

/// Label a product for the catalog search with a few free words.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct LabelProduct {
    /// Words to add, e.g. ["lamp", "brass"]; two at most.
    #[tool(max_items = 2, min_items = 1)]
    pub words: Vec<String>,
    /// Whether each word is shown, e.g. [true, false]; two at most.
    #[tool(max_items = 2)]
    pub shown: Vec<bool>,
}

/// Held: the passthrough items still count against the list's bounds.
#[test]
fn passthrough_items_are_counted() {
    for document in [
        json!({"words": ["a", "b", "c"], "shown": []}),
        json!({"words": [], "shown": []}),
        json!({"words": ["a"], "shown": [true, false, true]}),
        json!({"words": ["a", 1], "shown": []}),
        json!({"words": ["a"], "shown": [null]}),
    ] {
        let schema = schema_accepts::<LabelProduct>(&document);
        let parsed = parse::<LabelProduct>(&document);
        assert_eq!(schema, parsed.is_ok(), "{document}: {parsed:?}");
    }
}

fn five() -> u32 {
    5
}

/// Set how many copies of a receipt are printed.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct SetReceiptCopies {
    /// How many copies, from 5 to 9; 5 when not given.
    #[tool(default = five, minimum = 5, maximum = 9)]
    pub copies: u32,
    /// A footer line, at most 4 characters; empty when not given.
    #[tool(default, max_length = 4, pattern = "^[a-z]*$")]
    pub footer: String,
    /// Which printer, at most 3 characters, or none.
    #[tool(max_length = 3)]
    pub printer: Option<String>,
}

/// Held: the derive's own checks no longer run, and the schema walk still
/// checks defaulted and optional top-level fields.
#[test]
fn defaulted_and_optional_fields_keep_their_constraints() {
    for document in [
        json!({"copies": 4}),
        json!({"copies": 10}),
        json!({"copies": 9.0}),
        json!({"footer": "abcde"}),
        json!({"footer": "AB"}),
        json!({"printer": "abcd"}),
        json!({"printer": "ab"}),
        json!({}),
    ] {
        let schema = schema_accepts::<SetReceiptCopies>(&document);
        let parsed = parse::<SetReceiptCopies>(&document);
        assert_eq!(schema, parsed.is_ok(), "{document}: {parsed:?}");
    }
}
