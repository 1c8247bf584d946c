//! Per-item constraints on lists (`items(...)`) and bounds on `Money`
//! (`minimum`/`maximum` in minor units), on a tool's own fields: stated in
//! the schema, in the description words, and enforced by the parser.

use serde_json::json;
use tool_contract::{Money, Session, Tool};

/// Send a receipt of an order to the given addresses, with an optional
/// goodwill credit.
#[derive(Tool, Debug)]
#[tool(effect = "write", idempotent)]
pub struct SendReceipt {
    /// Where to send the receipt.
    #[tool(max_items = 5, items(format = "email", max_length = 254))]
    pub recipients: Vec<String>,
    /// A goodwill credit, at most 50.00.
    #[tool(maximum = 5000)]
    pub credit: Option<Money>,
    /// The fee to charge, from 1.00 to 10.00.
    #[tool(minimum = 100, maximum = 1000)]
    pub fee: Money,
}

#[test]
fn items_and_money_bounds_are_in_the_schema() {
    let schema = SendReceipt::input_schema();
    assert_eq!(
        schema["properties"],
        json!({
            "recipients": {
                "description": "Where to send the receipt. Each item: An email address such as \"ana@example.com\". At most 254 characters.",
                "type": "array",
                "items": {"type": "string", "format": "email", "maxLength": 254},
                "maxItems": 5
            },
            "credit": {
                "description": "A goodwill credit, at most 50.00.",
                "anyOf": [
                    {
                        "description": "An amount of money in integer minor units of an ISO 4217 currency.",
                "type": "object",
                "properties": {
                    "amount_minor": {
                        "type": "integer",
                        "description": "The amount in the currency's minor unit, e.g. 1999 for 19.99 USD or 500 for 500 JPY; never negative.",
                        "minimum": 0,
                        "maximum": 5000
                    },
                    "currency": {
                        "description": "ISO 4217 currency code, e.g. \"USD\"; the parser checks it against the ISO 4217 list.",
                        "type": "string",
                        "pattern": "^[A-Z]{3}$"
                    }
                },
                "required": ["amount_minor", "currency"],
                "additionalProperties": false
                    },
                    {"type": "null"}
                ]
            },
            "fee": {
                "description": "The fee to charge, from 1.00 to 10.00.",
                "type": "object",
                "properties": {
                    "amount_minor": {
                        "type": "integer",
                        "description": "The amount in the currency's minor unit, e.g. 1999 for 19.99 USD or 500 for 500 JPY; never negative.",
                        "minimum": 100, "maximum": 1000
                    },
                    "currency": {
                        "description": "ISO 4217 currency code, e.g. \"USD\"; the parser checks it against the ISO 4217 list.",
                        "type": "string",
                        "pattern": "^[A-Z]{3}$"
                    }
                },
                "required": ["amount_minor", "currency"],
                "additionalProperties": false
            }
        })
    );
}

fn parse(arguments: &str) -> Result<SendReceipt, tool_contract::ArgumentError> {
    SendReceipt::from_arguments(arguments, &Session::new())
}

#[test]
fn each_item_is_checked_with_its_index_in_the_path() {
    let error = parse(
        r#"{"recipients": ["ana@example.com", "not-an-address"],
            "fee": {"amount_minor": 100, "currency": "EUR"}}"#,
    )
    .unwrap_err();
    assert_eq!(error.code(), "INVALID_ARGUMENTS");
    assert_eq!(error.path(), "$.recipients[1]");
}

#[test]
fn money_bounds_check_the_amount_in_minor_units() {
    let error =
        parse(r#"{"recipients": [], "fee": {"amount_minor": 99, "currency": "EUR"}}"#).unwrap_err();
    assert_eq!(error.code(), "INVALID_ARGUMENTS");
    assert_eq!(error.path(), "$.fee.amount_minor");
    assert_eq!(error.message(), "expected a number of at least 100, got 99");
    let error = parse(
        r#"{"recipients": [], "credit": {"amount_minor": 5001, "currency": "EUR"},
            "fee": {"amount_minor": 100, "currency": "EUR"}}"#,
    )
    .unwrap_err();
    assert_eq!(error.path(), "$.credit.amount_minor");
    let ok = parse(
        r#"{"recipients": ["ana@example.com"], "credit": null,
            "fee": {"amount_minor": 1000, "currency": "EUR"}}"#,
    )
    .unwrap();
    assert_eq!(ok.fee.amount_minor, 1000);
}

#[test]
fn the_openai_strict_schema_keeps_item_and_money_bounds() {
    // Strict mode takes no keyword beside a `$ref`: a bounded `Money` field
    // holds its own copy of `Money`'s schema.
    let strict = tool_contract::openai::strict_schema::<SendReceipt>().unwrap();
    let fee = &strict["properties"]["fee"]["properties"]["amount_minor"];
    assert_eq!(fee["type"], "integer");
    assert_eq!(
        strict["properties"]["recipients"]["items"]["type"],
        "string"
    );
}
