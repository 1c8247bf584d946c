//! `Money` and `SignedMoney` enforce their whole schema in their own
//! `Deserialize` (closed object, integer amount, not negative for `Money`,
//! ISO 4217 currency), so plain `serde_json` reads them as the tool parser
//! does; the parser then skips its schema walk beside them, but only for
//! these two types and only where the schema is exactly theirs.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use tool_contract::{ArgumentError, Currency, Money, Session, SignedMoney, Tool};

fn serde_error<T: for<'de> Deserialize<'de> + std::fmt::Debug>(json: &str) -> String {
    serde_json::from_str::<T>(json).unwrap_err().to_string()
}

#[test]
fn plain_serde_reads_money_as_its_schema_says() {
    assert_eq!(
        serde_error::<Money>(r#"{"amount_minor": -5, "currency": "EUR"}"#),
        "expected a number of at least 0, got -5 at line 1 column 19"
    );
    assert_eq!(
        serde_json::from_str::<SignedMoney>(r#"{"amount_minor": -5, "currency": "EUR"}"#).unwrap(),
        SignedMoney(Money::new(-5, Currency::EUR))
    );
    assert_eq!(
        serde_error::<Money>(r#"{"amount_minor": 5, "currency": "EUR", "note": 1}"#),
        "unknown field `note`, expected `amount_minor` or `currency` at line 1 column 45"
    );
    assert_eq!(
        serde_error::<Money>(r#"{"amount_minor": 5}"#),
        "missing field `currency` at line 1 column 19"
    );
    assert_eq!(
        serde_error::<Money>(r#"{"amount_minor": 5, "amount_minor": 6, "currency": "EUR"}"#),
        "duplicate field `amount_minor` at line 1 column 34"
    );
    assert_eq!(
        serde_error::<Money>(r#"[5, "EUR"]"#),
        "invalid type: sequence, expected struct Money at line 1 column 1"
    );
    assert_eq!(
        serde_error::<Money>(r#"{"amount_minor": 2.5, "currency": "EUR"}"#),
        "invalid type: floating point `2.5`, expected i64 at line 1 column 20"
    );
    assert_eq!(
        serde_error::<Money>(r#"{"amount_minor": 9223372036854775808, "currency": "EUR"}"#),
        "invalid value: integer `9223372036854775808`, expected i64 at line 1 column 36"
    );
    // JSON Schema counts `-0` and `2.0` as integers.
    for (json, amount) in [("-0", 0), ("2.0", 2), ("-0.0", 0)] {
        let money: Money =
            serde_json::from_str(&format!(r#"{{"amount_minor": {json}, "currency": "JPY"}}"#))
                .unwrap();
        assert_eq!(money, Money::new(amount, Currency::JPY), "{json}");
    }
    assert_eq!(
        serde_error::<SignedMoney>(r#"{"amount_minor": -2.5, "currency": "EUR"}"#),
        "invalid type: floating point `-2.5`, expected i64 at line 1 column 21"
    );
}

/// One line of an order.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Line {
    /// Stock keeping unit.
    pub sku: String,
    /// Price of one unit.
    pub unit_price: Money,
    /// A correction, may be negative.
    pub adjustment: Option<SignedMoney>,
}

/// Record the lines of a purchase order the signed-in buyer typed in.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct RecordPurchaseLines {
    /// The lines, in the order the buyer typed them.
    pub lines: Vec<Line>,
}

fn record(arguments: &str) -> Result<RecordPurchaseLines, ArgumentError> {
    RecordPurchaseLines::from_arguments(arguments, &Session::new())
}

fn refused(result: Result<impl std::fmt::Debug, ArgumentError>) -> (String, String, String) {
    let error = result.unwrap_err();
    (
        error.code().to_owned(),
        error.path().to_owned(),
        error.message().to_owned(),
    )
}

fn triple(code: &str, path: &str, message: &str) -> (String, String, String) {
    (code.to_owned(), path.to_owned(), message.to_owned())
}

#[test]
fn money_at_depth_keeps_its_paths_and_messages() {
    let line = |price: &str| {
        format!(
            r#"{{"lines": [{{"sku": "A", "unit_price": {{"amount_minor": 1, "currency": "EUR"}}, "adjustment": null}}, {{"sku": "B", "unit_price": {price}, "adjustment": {{"amount_minor": -3, "currency": "USD"}}}}]}}"#
        )
    };
    let ok = record(&line(r#"{"amount_minor": 250, "currency": "EUR"}"#)).unwrap();
    assert_eq!(ok.lines[1].unit_price, Money::new(250, Currency::EUR));
    assert_eq!(
        ok.lines[1].adjustment,
        Some(SignedMoney(Money::new(-3, Currency::USD)))
    );
    assert_eq!(
        refused(record(&line(
            r#"{"amount_minor": -250, "currency": "EUR"}"#
        ))),
        triple(
            "INVALID_ARGUMENTS",
            "$.lines[1].unit_price.amount_minor",
            "expected a number of at least 0, got -250"
        )
    );
    assert_eq!(
        refused(record(&line(r#"{"amount_minor": 250, "currency": "XYZ"}"#))),
        triple(
            "INVALID_ARGUMENTS",
            "$.lines[1].unit_price.currency",
            "\"XYZ\" is not an ISO 4217 currency code; use e.g. \"EUR\", \"USD\""
        )
    );
    assert_eq!(
        refused(record(&line(
            r#"{"amount_minor": 250, "currency": "EUR", "tax": 5}"#
        ))),
        triple(
            "INVALID_ARGUMENTS",
            "$.lines[1].unit_price.tax",
            "unknown field \"tax\"; expected one of \"amount_minor\", \"currency\""
        )
    );
    assert_eq!(
        refused(record(&line(r#"{"amount_minor": 250}"#))),
        triple(
            "INVALID_ARGUMENTS",
            "$.lines[1].unit_price.currency",
            "missing required field \"currency\""
        )
    );
    assert_eq!(
        refused(record(&line(r#"[250, "EUR"]"#))),
        triple(
            "INVALID_ARGUMENTS",
            "$.lines[1].unit_price",
            "expected an object (Money), got an array"
        )
    );
}

/// A type of the application that says it is `Money` in its schema (the
/// very same schema) but reads any amount: the parser cannot rely on its
/// `Deserialize`, and walks the schema beside it.
#[derive(Debug, Deserialize)]
#[serde(rename = "$tool_contract::Money")]
pub struct LookAlike {
    pub amount_minor: i64,
    pub currency: String,
}

impl JsonSchema for LookAlike {
    fn schema_name() -> Cow<'static, str> {
        "Money".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        Money::json_schema(generator)
    }
}

/// Set the price of a catalog item the signed-in seller owns.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct SetItemPrice {
    /// The new price.
    pub price: LookAlike,
}

#[test]
fn a_look_alike_of_money_is_held_to_the_schema_by_the_parser() {
    let parse = |arguments: &str| SetItemPrice::from_arguments(arguments, &Session::new());
    assert_eq!(
        refused(parse(
            r#"{"price": {"amount_minor": -1, "currency": "EUR"}}"#
        )),
        triple(
            "INVALID_ARGUMENTS",
            "$.price.amount_minor",
            "expected a number of at least 0, got -1"
        )
    );
    assert_eq!(
        refused(parse(
            r#"{"price": {"amount_minor": 1, "currency": "eur"}}"#
        )),
        triple(
            "INVALID_ARGUMENTS",
            "$.price.currency",
            "expected a string matching the pattern \"^[A-Z]{3}$\", got \"eur\""
        )
    );
    assert_eq!(
        refused(parse(
            r#"{"price": {"amount_minor": 1, "currency": "EUR", "x": 1}}"#
        )),
        triple(
            "INVALID_ARGUMENTS",
            "$.price.x",
            "unknown field \"x\"; expected one of \"amount_minor\", \"currency\""
        )
    );
    let ok = parse(r#"{"price": {"amount_minor": 1, "currency": "EUR"}}"#).unwrap();
    assert_eq!(
        (ok.price.amount_minor, ok.price.currency.as_str()),
        (1, "EUR")
    );
}
