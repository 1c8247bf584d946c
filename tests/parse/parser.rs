//! The generated argument parser: one test per rule, each asserting the exact
//! value, error code, JSON path and message.

use schemars::JsonSchema;
use serde::Deserialize;
use tool_contract::{ArgumentError, Currency, Money, Session, Tool};

#[derive(Clone, Debug, PartialEq)]
struct CustomerId(String);

#[derive(Clone, Debug, PartialEq)]
struct Locale(String);

/// One line of an order.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct LineItem {
    /// Stock keeping unit.
    sku: String,
    /// Units wanted.
    quantity: u32,
}

/// How fast the order ships.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Priority {
    Low,
    Normal,
    Urgent,
}

fn default_copies() -> u8 {
    1
}

/// Place an order for the signed-in customer from items in the catalog.
#[derive(Debug, PartialEq, Tool)]
#[tool(effect = "write")]
struct PlaceOrder {
    /// The customer's own reference for the order, e.g. "PO-1234".
    #[tool(min_length = 3, max_length = 12, pattern = "^PO-[0-9]+$")]
    reference: String,
    /// How fast the order must ship.
    priority: Priority,
    /// What to order, one line per item.
    #[tool(min_items = 1, max_items = 3)]
    items: Vec<LineItem>,
    /// A message printed on the packing slip; null for none.
    gift_note: Option<String>,
    /// The most the customer wants to spend; null for no limit.
    budget: Option<Money>,
    /// How many printed invoices to include.
    #[tool(default = default_copies, minimum = 1, maximum = 5)]
    copies: u8,
    /// Where to send the confirmation.
    #[tool(format = "email", rename = "contactEmail")]
    contact_email: Option<String>,
    /// Whether to ship by express courier.
    #[tool(default)]
    express: bool,
    /// A key the model makes up once per order and repeats on retries.
    #[tool(idempotency_key)]
    request_id: String,
    /// The signed-in customer.
    #[tool(inject)]
    customer: CustomerId,
    /// The customer's language, when the app knows it.
    #[tool(inject)]
    locale: Option<Locale>,
}

fn session() -> Session {
    Session::new().with(CustomerId("cus_1".into()))
}

const VALID: &str = r#"{
    "reference": "PO-42",
    "priority": "urgent",
    "items": [{"sku": "SKU-1", "quantity": 2}],
    "gift_note": "Happy birthday",
    "budget": {"amount_minor": 5000, "currency": "EUR"},
    "copies": 2,
    "contactEmail": "ana@example.com",
    "express": true,
    "request_id": "r-1"
}"#;

fn parse(arguments: &str) -> Result<PlaceOrder, ArgumentError> {
    PlaceOrder::from_arguments(arguments, &session())
}

/// Replaces the value of one top-level key of `VALID` (or removes the key).
fn with(key: &str, value: Option<&str>) -> String {
    let mut doc: serde_json::Map<String, serde_json::Value> = serde_json::from_str(VALID).unwrap();
    match value {
        Some(v) => {
            doc.insert(key.into(), serde_json::from_str(v).unwrap());
        }
        None => {
            doc.remove(key);
        }
    }
    serde_json::to_string(&doc).unwrap()
}

#[track_caller]
fn assert_error(arguments: &str, path: &str, message: &str) {
    let error = parse(arguments).expect_err("the arguments should be rejected");
    assert_eq!(error.code(), "INVALID_ARGUMENTS");
    assert_eq!((error.path(), error.message()), (path, message));
}

#[test]
fn valid_arguments_fill_every_field() {
    let order = parse(VALID).unwrap();
    assert_eq!(
        order,
        PlaceOrder {
            reference: "PO-42".into(),
            priority: Priority::Urgent,
            items: vec![LineItem {
                sku: "SKU-1".into(),
                quantity: 2
            }],
            gift_note: Some("Happy birthday".into()),
            budget: Some(Money::new(5000, Currency::EUR)),
            copies: 2,
            contact_email: Some("ana@example.com".into()),
            express: true,
            request_id: "r-1".into(),
            customer: CustomerId("cus_1".into()),
            locale: None,
        }
    );
    assert_eq!(order.idempotency_key().as_deref(), Some("r-1"));
}

#[test]
fn null_and_absent_both_give_none_for_options() {
    let null = parse(&with("gift_note", Some("null"))).unwrap();
    let absent = parse(&with("gift_note", None)).unwrap();
    assert_eq!(null.gift_note, None);
    assert_eq!(absent.gift_note, None);
    let no_budget = parse(&with("budget", None)).unwrap();
    assert_eq!(no_budget.budget, None);
}

#[test]
fn null_and_absent_give_the_default_for_default_fields() {
    assert_eq!(parse(&with("copies", None)).unwrap().copies, 1);
    assert_eq!(parse(&with("copies", Some("null"))).unwrap().copies, 1);
    assert!(!parse(&with("express", None)).unwrap().express);
    assert!(!parse(&with("express", Some("null"))).unwrap().express);
}

#[test]
fn unknown_fields_are_rejected_with_a_suggestion() {
    assert_error(
        &with("priorty", Some("\"low\"")),
        "$.priorty",
        "unknown field \"priorty\"; expected one of \"reference\", \"priority\", \"items\", \"gift_note\", \"budget\", \"copies\", \"contactEmail\", \"express\", \"request_id\" (did you mean \"priority\"?)",
    );
}

#[test]
fn the_rust_name_of_a_renamed_field_is_unknown() {
    let error = parse(&with("contact_email", Some("\"a@example.com\""))).unwrap_err();
    assert_eq!(error.path(), "$.contact_email");
    assert!(
        error
            .message()
            .ends_with("(did you mean \"contactEmail\"?)"),
        "{error}"
    );
}

#[test]
fn duplicate_fields_are_rejected() {
    let arguments = VALID.replacen("\"copies\": 2", "\"copies\": 2, \"copies\": 3", 1);
    assert_error(
        &arguments,
        "$.copies",
        "field \"copies\" is given more than once; give each field once",
    );
}

#[test]
fn wrong_types_say_what_was_expected_and_given() {
    assert_error(
        &with("copies", Some("\"2\"")),
        "$.copies",
        // `copies` is declared from 1 to 5: the message names those bounds,
        // not the range of its `u8`.
        "expected an integer from 1 to 5, got the string \"2\"",
    );
    assert_error(
        &with("express", Some("1")),
        "$.express",
        "expected a boolean, got the integer 1",
    );
    assert_error(
        &with("items", Some("{}")),
        "$.items",
        "expected an array, got an object",
    );
}

#[test]
fn a_struct_is_read_from_an_object_only_never_from_a_positional_array() {
    assert_error(
        &with("items", Some(r#"[["SKU-1", 2]]"#)),
        "$.items[0]",
        "expected an object (LineItem), got an array",
    );
    assert_error(
        &with("budget", Some(r#"[5000, "EUR"]"#)),
        "$.budget",
        "expected an object (Money), got an array",
    );
}

#[test]
fn null_for_a_required_field_is_a_type_error() {
    assert_error(
        &with("reference", Some("null")),
        "$.reference",
        "expected a string, got null",
    );
}

#[test]
fn enum_values_of_another_kind_are_type_errors() {
    assert_error(
        &with("priority", Some("2")),
        "$.priority",
        "expected one of the allowed values (a string), got a number",
    );
    assert_error(
        &with("priority", Some("null")),
        "$.priority",
        "expected one of the allowed values (a string), got null",
    );
}

#[test]
fn enum_values_outside_the_enum_list_the_allowed_ones() {
    assert_error(
        &with("priority", Some("\"URGENT\"")),
        "$.priority",
        "\"URGENT\" is not an allowed value; expected one of \"low\", \"normal\", \"urgent\" (did you mean \"urgent\"?)",
    );
    assert_error(
        &with("priority", Some("\"asap\"")),
        "$.priority",
        "\"asap\" is not an allowed value; expected one of \"low\", \"normal\", \"urgent\"",
    );
}

#[test]
fn string_constraints_are_enforced() {
    assert_error(
        &with("reference", Some("\"PO\"")),
        "$.reference",
        "expected at least 3 characters, got 2 characters",
    );
    assert_error(
        &with("reference", Some("\"PO-1234567890\"")),
        "$.reference",
        "expected at most 12 characters, got 13 characters",
    );
    assert_error(
        &with("reference", Some("\"XX-12\"")),
        "$.reference",
        "expected a string matching the pattern \"^PO-[0-9]+$\", got \"XX-12\"",
    );
    assert_error(
        &with("contactEmail", Some("\"ana\"")),
        "$.contactEmail",
        "expected an email address such as \"ana@example.com\", got \"ana\"",
    );
    // A null optional value is not checked against the constraints.
    assert_eq!(
        parse(&with("contactEmail", Some("null")))
            .unwrap()
            .contact_email,
        None
    );
}

#[test]
fn range_and_item_constraints_are_enforced() {
    assert_error(
        &with("copies", Some("0")),
        "$.copies",
        "expected a number of at least 1, got 0",
    );
    assert_error(
        &with("copies", Some("6")),
        "$.copies",
        "expected a number of at most 5, got 6",
    );
    assert_error(
        &with("items", Some("[]")),
        "$.items",
        "expected at least 1 item, got 0 items",
    );
    let four = r#"[{"sku":"a","quantity":1},{"sku":"b","quantity":1},{"sku":"c","quantity":1},{"sku":"d","quantity":1}]"#;
    assert_error(
        &with("items", Some(four)),
        "$.items",
        "expected at most 3 items, got 4 items",
    );
}

#[test]
fn nested_errors_carry_the_full_path() {
    let items = r#"[{"sku": "a", "quantity": 1}, {"sku": "b", "quantity": -1}]"#;
    assert_error(
        &with("items", Some(items)),
        "$.items[1].quantity",
        "expected an integer from 0 to 4294967295, got the integer -1",
    );
    assert_error(
        &with("items", Some(r#"[{"quantity": 1}]"#)),
        "$.items[0].sku",
        "missing required field \"sku\"",
    );
    assert_error(
        &with(
            "items",
            Some(r#"[{"sku": "a", "quantity": 1, "color": "red"}]"#),
        ),
        "$.items[0].color",
        "unknown field \"color\"; expected one of \"sku\", \"quantity\"",
    );
    assert_error(
        &with(
            "budget",
            Some(r#"{"amount_minor": 100, "currency": "eur"}"#),
        ),
        "$.budget.currency",
        "expected an ISO 4217 currency code of three uppercase letters, such as \"USD\", got the string \"eur\"",
    );
}

#[test]
fn missing_required_fields_are_all_named() {
    assert_error(
        "{}",
        "$.reference",
        "missing required fields \"reference\", \"priority\", \"items\", \"request_id\"",
    );
    assert_error(
        &with("items", None),
        "$.items",
        "missing required field \"items\"",
    );
    // An empty argument string means no arguments at all.
    assert_error(
        "",
        "$.reference",
        "missing required fields \"reference\", \"priority\", \"items\", \"request_id\"",
    );
}

#[test]
fn injected_fields_come_from_the_session_and_never_from_the_model() {
    assert_error(
        &with("customer", Some("\"cus_attacker\"")),
        "$.customer",
        "field \"customer\" is set by the application from the trusted session, not by the model; remove it from the arguments",
    );
    assert_error(
        &with("locale", Some("\"de\"")),
        "$.locale",
        "field \"locale\" is set by the application from the trusted session, not by the model; remove it from the arguments",
    );
    let with_locale = session().with(Locale("de-DE".into()));
    let order = PlaceOrder::from_arguments(VALID, &with_locale).unwrap();
    assert_eq!(order.locale, Some(Locale("de-DE".into())));
}

#[test]
fn a_missing_session_value_is_the_applications_error() {
    let error = PlaceOrder::from_arguments(VALID, &Session::new()).unwrap_err();
    assert_eq!(error.code(), "MISSING_SESSION_VALUE");
    assert!(!error.is_model_error());
    assert_eq!(error.path(), "$.customer");
    assert_eq!(
        error.message(),
        "the session holds no `parse::parser::CustomerId` for the injected field \"customer\"; the application must add it with `Session::with`"
    );
}

#[test]
fn oversized_input_is_refused_before_parsing() {
    let small = session().with_max_argument_bytes(64);
    let error = PlaceOrder::from_arguments(VALID, &small).unwrap_err();
    assert_eq!(error.path(), "$");
    assert_eq!(
        error.message(),
        format!(
            "the arguments are {} bytes long; at most 64 bytes are accepted",
            VALID.len()
        )
    );
    let huge = format!("{{\"gift_note\": \"{}\"}}", "x".repeat(2 << 20));
    let error = parse(&huge).unwrap_err();
    assert_eq!(
        error.message(),
        "the arguments are 2097169 bytes long; at most 1048576 bytes are accepted"
    );
}

#[test]
fn malformed_json_and_other_roots_are_refused() {
    assert_error(
        "[1, 2]",
        "$",
        "expected the arguments as a JSON object, got an array",
    );
    assert_error(
        "  \"text\"",
        "$",
        "expected the arguments as a JSON object, got a string",
    );
    assert_error(
        "null",
        "$",
        "expected the arguments as a JSON object, got null",
    );
    assert_error(
        "hello",
        "$",
        "expected the arguments as a JSON object, got text that is not JSON",
    );
    assert_error(
        &format!("{VALID} trailing"),
        "$",
        &format!(
            "invalid JSON: unexpected text after the end of the JSON object (at line 11, column {})",
            VALID.lines().last().unwrap().len() + 2
        ),
    );
    assert_error(
        r#"{"reference": "PO-1", "copies": NaN}"#,
        "$.copies",
        "invalid JSON: expected a JSON value (NaN, Infinity, comments and unquoted words are not JSON) (at line 1, column 33)",
    );
    assert_error(
        r#"{"reference": "PO-1", "items": [{"sku": "a", "quantity": 1},]}"#,
        "$.items",
        "invalid JSON: a trailing comma is not allowed in JSON (at line 1, column 61)",
    );
    assert_error(
        r#"{"reference": "PO-1""#,
        "$.reference",
        "the JSON text ends in the middle of an object (at line 1, column 20)",
    );
}

#[test]
fn deep_nesting_stops_at_the_first_value_of_the_wrong_shape() {
    // Typed fields never descend into nesting they do not expect, and an
    // unknown key is refused before its value is read.
    let deep = format!("{{\"items\": {}", "[".repeat(100_000));
    assert_error(
        &deep,
        "$.items[0]",
        "expected an object (LineItem), got an array",
    );
    let deep = format!("{{\"x\": {}", "{\"x\": ".repeat(100_000));
    let error = parse(&deep).unwrap_err();
    assert_eq!(error.path(), "$.x");
    assert!(
        error.message().starts_with("unknown field \"x\""),
        "{error}"
    );
}

/// Quote what a number of loyalty points is worth, e.g. before a purchase.
#[derive(Debug, PartialEq, Tool)]
struct GetPointsQuote {
    /// How many points, exactly as the account shows them.
    points: u128,
    /// How many points the account owes, negative when in debt.
    owed: Option<i128>,
}

fn points(arguments: &str) -> Result<GetPointsQuote, String> {
    GetPointsQuote::from_arguments(arguments, &Session::new()).map_err(|e| e.to_string())
}

/// 128-bit fields read digits exactly, whole floats as the integers they
/// are, and refuse a fraction, a string and a number out of range with the
/// type's words, not "invalid JSON".
#[test]
fn integers_of_128_bits() {
    let exact = GetPointsQuote {
        points: 18_446_744_073_709_551_617,
        owed: Some(-170_141_183_460_469_231_731_687_303_715_884_105_728),
    };
    assert_eq!(
        points(
            r#"{"points": 18446744073709551617, "owed": -170141183460469231731687303715884105728}"#
        ),
        Ok(exact)
    );
    let whole = GetPointsQuote {
        points: 100,
        owed: Some(-3),
    };
    assert_eq!(points(r#"{"points": 1e2, "owed": -3.0}"#), Ok(whole));
    assert_eq!(
        points(r#"{"points": 1.5}"#),
        Err("$.points: expected an integer from 0 to 340282366920938463463374607431768211455, got the number 1.5".to_owned())
    );
    assert_eq!(
        points(r#"{"points": "5"}"#),
        Err(r#"$.points: expected an integer from 0 to 340282366920938463463374607431768211455, got the string "5""#.to_owned())
    );
    assert_eq!(
        points(r#"{"points": 340282366920938463463374607431768211456}"#),
        Err("$.points: expected an integer from 0 to 340282366920938463463374607431768211455, got the integer 340282366920938463463374607431768211456".to_owned())
    );
    let long = format!(r#"{{"points": 1, "owed": -{}}}"#, "9".repeat(60));
    assert_eq!(
        points(&long),
        Err("$.owed: expected an integer from -170141183460469231731687303715884105728 to 170141183460469231731687303715884105727, got a number of 60 digits".to_owned())
    );
}
