//! Arguments that arrive as a JSON object (Anthropic `tool_use.input`,
//! Gemini `functionCall.args`, MCP `arguments`): `Tool::from_value` and
//! `Tool::from_object` give exactly what `from_arguments` gives for the same
//! document as text, whatever the key order; `null` and absent are the same
//! for an `Option`; enum values match ignoring case only when a call says
//! so.

use proptest::prelude::*;
use proptest::test_runner::Config;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use tool_contract::{ArgumentError, EnumCase, Money, Session, Tool, ToolCall};

/// Why the customer wants a refund.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Reason {
    /// Arrived damaged.
    Damaged,
    /// Arrived late.
    Late,
}

/// Where to send the refund.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Account {
    /// The account holder.
    holder: String,
    /// The bank's code, if known.
    bank: Option<String>,
}

/// Create a refund draft.
#[derive(Debug, PartialEq, Tool)]
#[tool(effect = "write", idempotent = false)]
struct CreateRefund {
    /// Order reference, e.g. "A-1".
    #[tool(min_length = 1, max_length = 16)]
    order_ref: String,
    /// Why the refund.
    reason: Reason,
    /// Amount; null refunds the whole order.
    amount: Option<Money>,
    /// How many items.
    #[tool(minimum = 1, maximum = 10)]
    items: u32,
    /// Where to pay.
    account: Option<Account>,
    /// Labels the support team filters drafts by, e.g. "vip".
    #[tool(max_items = 2)]
    tags: Vec<String>,
}

fn parse_value(value: &Value) -> Result<CreateRefund, ArgumentError> {
    CreateRefund::from_value(value, &Session::new())
}

fn parse_text(text: &str) -> Result<CreateRefund, ArgumentError> {
    CreateRefund::from_arguments(text, &Session::new())
}

fn same<T: std::fmt::Debug + PartialEq>(
    a: &Result<T, ArgumentError>,
    b: &Result<T, ArgumentError>,
) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => a == b,
        (Err(a), Err(b)) => {
            a.path() == b.path() && a.message() == b.message() && a.code() == b.code()
        }
        _ => false,
    }
}

#[test]
fn absent_and_null_are_the_same_for_an_option() {
    let absent =
        parse_value(&json!({"order_ref": "A-1", "reason": "late", "items": 1, "tags": []}))
            .unwrap();
    let null = parse_value(&json!({
        "order_ref": "A-1", "reason": "late", "items": 1, "tags": [],
        "amount": null, "account": null
    }))
    .unwrap();
    assert_eq!(absent, null);
    assert_eq!(absent.amount, None);
    assert_eq!(absent.account, None);
    let nested = parse_value(&json!({
        "order_ref": "A-1", "reason": "late", "items": 1, "tags": [],
        "account": {"holder": "Ada", "bank": null}
    }))
    .unwrap();
    assert_eq!(
        nested.account,
        Some(Account {
            holder: "Ada".into(),
            bank: None
        })
    );
}

#[test]
fn key_order_never_matters() {
    // Anthropic writes required keys first, then optional ones.
    let required_first = json!({"items": 2, "order_ref": "A-1", "reason": "damaged", "tags": ["x"], "amount": {"amount_minor": 150, "currency": "EUR"}});
    let mut reversed = Map::new();
    for (key, value) in required_first.as_object().unwrap().iter().rev() {
        reversed.insert(key.clone(), value.clone());
    }
    let a = parse_value(&required_first).unwrap();
    let b = CreateRefund::from_object(&reversed, &Session::new()).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.items, 2);
    assert_eq!(a.amount.unwrap().to_string(), "1.50 EUR");
}

#[test]
fn a_value_that_is_not_an_object_is_refused_at_the_root_as_its_text_is() {
    for (value, message) in [
        (
            json!([1]),
            "expected the arguments as a JSON object, got an array",
        ),
        (
            json!("x"),
            "expected the arguments as a JSON object, got a string",
        ),
        (
            json!(null),
            "expected the arguments as a JSON object, got null",
        ),
        (
            json!(3),
            "expected the arguments as a JSON object, got a number",
        ),
        (
            json!(true),
            "expected the arguments as a JSON object, got a boolean",
        ),
    ] {
        let error = parse_value(&value).unwrap_err();
        assert_eq!(error.path(), "$", "{value}");
        assert!(
            error.message().starts_with(message),
            "{value}: {}",
            error.message()
        );
        assert!(same(&parse_value(&value), &parse_text(&value.to_string())));
    }
}

#[test]
fn every_error_path_is_the_text_paths() {
    let cases = [
        (
            json!({"order_ref": "", "reason": "late", "items": 1, "tags": []}),
            "$.order_ref",
        ),
        (
            json!({"order_ref": "A", "reason": "lost", "items": 1, "tags": []}),
            "$.reason",
        ),
        (
            json!({"order_ref": "A", "reason": "late", "items": 11, "tags": []}),
            "$.items",
        ),
        (
            json!({"order_ref": "A", "reason": "late", "items": 1, "tags": ["a", "b", "c"]}),
            "$.tags",
        ),
        (
            json!({"order_ref": "A", "reason": "late", "items": 1, "tags": [], "extra": 1}),
            "$.extra",
        ),
        (
            json!({"reason": "late", "items": 1, "tags": []}),
            "$.order_ref",
        ),
        (
            json!({"order_ref": "A", "reason": "late", "items": 1, "tags": [], "account": {"bank": "x"}}),
            "$.account.holder",
        ),
        (
            json!({"order_ref": "A", "reason": "late", "items": 1, "tags": [], "amount": {"amount_minor": 1.5, "currency": "EUR"}}),
            "$.amount.amount_minor",
        ),
    ];
    for (value, path) in cases {
        let from_value = parse_value(&value);
        let error = from_value.as_ref().unwrap_err();
        assert_eq!(error.path(), path, "{value}");
        assert!(
            same(&from_value, &parse_text(&value.to_string())),
            "{value}"
        );
    }
}

#[test]
fn a_value_nested_beyond_the_parsers_depth_is_refused_like_its_text() {
    let mut deep = json!("leaf");
    for _ in 0..5_000 {
        // Built by hand: `json!` would copy `deep` through serde, recursively.
        let mut map = Map::new();
        map.insert("tags".to_owned(), Value::Array(vec![deep]));
        deep = Value::Object(map);
    }
    let error = parse_value(&deep).unwrap_err();
    let mut text = String::new();
    for _ in 0..200 {
        text.push_str("{\"tags\":[");
    }
    let from_text = parse_text(&text).unwrap_err();
    assert_eq!(
        (error.path(), error.message()),
        (from_text.path(), from_text.message())
    );
    let mut stack = vec![deep];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
}

#[test]
fn enum_values_match_ignoring_case_only_when_the_call_says_so() {
    let text = r#"{"order_ref":"A-1","reason":"DAMAGED","items":1,"tags":[]}"#;
    let exact = parse_text(text).unwrap_err();
    assert_eq!(exact.path(), "$.reason");
    let folded =
        CreateRefund::from_arguments_with(text, &Session::new(), EnumCase::Insensitive).unwrap();
    assert_eq!(folded.reason, Reason::Damaged);
    let call = ToolCall::with_object(
        "toolu_1",
        "create_refund",
        Some(&serde_json::from_str(text).unwrap()),
    );
    let refused = call.parse::<CreateRefund>(&Session::new()).unwrap_err();
    assert_eq!(
        refused.error().map(|e| e.code.as_ref()),
        Some("INVALID_ARGUMENTS")
    );
    let call = call.with_enum_case(EnumCase::Insensitive);
    assert_eq!(
        call.parse::<CreateRefund>(&Session::new())
            .ok()
            .unwrap()
            .reason,
        Reason::Damaged
    );
    // Other errors stay what they are.
    let wrong = r#"{"order_ref":"A-1","reason":"LOST","items":1,"tags":[]}"#;
    let a = CreateRefund::from_arguments_with(wrong, &Session::new(), EnumCase::Insensitive);
    assert!(same(&a, &parse_text(wrong)));
    assert_eq!(a.unwrap_err().path(), "$.reason");
}

#[test]
fn a_missing_args_is_the_empty_object() {
    let call = ToolCall::with_object("c1", "create_refund", None);
    assert_eq!(call.arguments, "{}");
    let error = call.parse::<CreateRefund>(&Session::new()).unwrap_err();
    assert_eq!(
        error.model_text().as_deref(),
        parse_text("{}")
            .map(|_| ())
            .map_err(|e| tool_contract::ToolOutput::respond_to_model(e.into()))
            .unwrap_err()
            .model_text()
            .as_deref()
    );
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-20i64..20).prop_map(Value::from),
        prop_oneof![
            Just("A-1"),
            Just(""),
            Just("late"),
            Just("LATE"),
            Just("damaged"),
            Just("1.50"),
            Just("EUR"),
            Just("x")
        ]
        .prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(4, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("order_ref"),
                        Just("reason"),
                        Just("amount"),
                        Just("items"),
                        Just("account"),
                        Just("tags"),
                        Just("holder"),
                        Just("bank"),
                        Just("currency"),
                        Just("amount_minor"),
                        Just("extra")
                    ],
                    inner
                ),
                0..7
            )
            .prop_map(|pairs| Value::Object(
                pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
            )),
        ]
    })
}

proptest! {
    #![proptest_config(Config { cases: 2_000, failure_persistence: None, ..Config::default() })]

    /// Any value, valid or not: `from_value` is `from_arguments` of its text.
    #[test]
    fn from_value_is_from_arguments_of_the_text(value in json_value()) {
        let text = value.to_string();
        prop_assert!(same(&parse_value(&value), &parse_text(&text)));
        if let Value::Object(map) = &value {
            prop_assert!(same(&CreateRefund::from_object(map, &Session::new()), &parse_text(&text)));
        }
    }
}

#[test]
fn arguments_over_the_size_limit_are_refused_unread_also_when_folding_case() {
    let session = Session::new().with_max_argument_bytes(64);
    let long = format!(
        r#"{{"order_ref":"A-1","reason":"LATE","items":1,"tags":["{}"]}}"#,
        "x".repeat(100)
    );
    let exact = CreateRefund::from_arguments(&long, &session).unwrap_err();
    let folded =
        CreateRefund::from_arguments_with(&long, &session, EnumCase::Insensitive).unwrap_err();
    assert_eq!(
        (folded.path(), folded.message()),
        (exact.path(), exact.message())
    );
    assert_eq!(
        exact.message(),
        format!(
            "the arguments are {} bytes long; at most 64 bytes are accepted",
            long.len()
        )
    );
    let call =
        ToolCall::new("t", "create_refund", long.as_str()).with_enum_case(EnumCase::Insensitive);
    assert_eq!(
        call.arguments_to_parse(CreateRefund::input_schema(), &session),
        long.as_str()
    );
}
