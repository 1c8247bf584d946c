//! `#[derive(ToolArgs)]`: nested argument types with the field keys of
//! `#[derive(Tool)]`; their schema states the constraints (which the parser
//! enforces through the schema) and is marked as judged at compile time.

use serde_json::json;
use tool_contract::{Money, Session, Tool, ToolArgs};

/// Filters for a product search.
#[derive(ToolArgs, Debug, PartialEq)]
pub struct Filters {
    /// The brand, e.g. "Acme".
    #[tool(max_length = 5)]
    pub brand: Option<String>,
    /// Lowest rating, from 1 to 5 stars.
    #[tool(minimum = 1, maximum = 5)]
    pub min_rating: Option<u8>,
    /// Who to tell about new matches.
    #[tool(max_items = 3, items(format = "email", max_length = 254))]
    pub notify: Vec<String>,
    /// Highest price, at most 500.00.
    #[tool(minimum = 0, maximum = 50_000)]
    pub max_price: Option<Money>,
    /// How long to keep the search, in minutes.
    #[tool(default, unit = "minutes", rename = "keepFor")]
    pub keep_for: u32,
}

/// How to sort the results.
#[derive(ToolArgs, Debug, PartialEq)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Sort {
    /// Best rated first.
    Rating,
    /// Cheapest first, within a window.
    Price {
        /// Skip the cheapest N results.
        skip: u32,
    },
}

/// Search the product catalog with filters. Read-only.
#[derive(Tool, Debug)]
pub struct SearchCatalog {
    /// What to filter by.
    pub filters: Filters,
    /// How to sort.
    pub sort: Option<Sort>,
}

#[test]
fn the_schema_states_every_key() {
    let schema = SearchCatalog::input_schema();
    assert_eq!(
        schema["$defs"]["Filters"],
        json!({
            "description": "Filters for a product search.",
            "type": "object",
            "properties": {
                "brand": {
                    "description": "The brand, e.g. \"Acme\".",
                    "type": ["string", "null"],
                    "maxLength": 5
                },
                "min_rating": {
                    "description": "Lowest rating, from 1 to 5 stars.",
                    "type": ["integer", "null"],
                    "format": "uint8",
                    "minimum": 1,
                    "maximum": 5
                },
                "notify": {
                    "description": "Who to tell about new matches. Each item: An email address such as \"ana@example.com\". At most 254 characters.",
                    "type": "array",
                    "items": {"type": "string", "format": "email", "maxLength": 254},
                    "maxItems": 3
                },
                "max_price": {
                    "description": "Highest price, at most 500.00.",
                    "anyOf": [
                        {
                            "description": "An amount of money in integer minor units of an ISO 4217 currency.",
                "type": "object",
                "properties": {
                    "amount_minor": {
                        "type": "integer",
                        "description": "The amount in the currency's minor unit, e.g. 1999 for 19.99 USD or 500 for 500 JPY; never negative.",
                        "minimum": 0, "maximum": 50000
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
                "keepFor": {
                    "description": "How long to keep the search, in minutes. Unit: minutes.",
                    "type": "integer",
                    "format": "uint32",
                    "minimum": 0,
                    "default": 0
                }
            },
            "additionalProperties": false,
            "required": ["notify"]
        })
    );
    SearchCatalog::contract().check_rules().unwrap();
}

#[test]
fn parsing_goes_through_serde_with_the_tool_keys() {
    let call = SearchCatalog::from_arguments(
        r#"{"filters": {"brand": "Acme", "notify": ["a@example.com"], "keepFor": 5},
            "sort": {"kind": "price", "skip": 2}}"#,
        &Session::new(),
    )
    .unwrap();
    assert_eq!(call.filters.keep_for, 5);
    assert_eq!(call.filters.brand.as_deref(), Some("Acme"));
    assert_eq!(call.sort, Some(Sort::Price { skip: 2 }));
    let unknown = SearchCatalog::from_arguments(
        r#"{"filters": {"notify": [], "bogus": 1}, "sort": null}"#,
        &Session::new(),
    )
    .unwrap_err();
    assert!(unknown.to_string().contains("bogus"), "{unknown}");
}

#[test]
fn nested_constraints_are_enforced_when_read() {
    let too_long = SearchCatalog::from_arguments(
        r#"{"filters": {"brand": "much-too-long", "notify": []}, "sort": null}"#,
        &Session::new(),
    )
    .unwrap_err();
    assert_eq!(too_long.code(), "INVALID_ARGUMENTS");
    assert_eq!(too_long.path(), "$.filters.brand");
    assert_eq!(
        too_long.to_string(),
        "$.filters.brand: expected at most 5 characters, got 13 characters"
    );
    let bad_item = SearchCatalog::from_arguments(
        r#"{"filters": {"notify": ["ana@example.com", "nope"]}, "sort": null}"#,
        &Session::new(),
    )
    .unwrap_err();
    assert_eq!(
        bad_item.to_string(),
        "$.filters.notify[1]: expected an email address such as \"ana@example.com\", got \"nope\""
    );
    let rating = SearchCatalog::from_arguments(
        r#"{"filters": {"min_rating": 9, "notify": []}, "sort": null}"#,
        &Session::new(),
    )
    .unwrap_err();
    assert_eq!(
        rating.to_string(),
        "$.filters.min_rating: expected a number of at most 5, got 9"
    );
}

#[test]
fn the_openai_strict_schema_compiles_and_drops_the_mark() {
    let strict = tool_contract::openai::strict_schema::<SearchCatalog>().unwrap();
    let text = strict.to_string();
    assert!(!text.contains("x-tool-allow"), "{text}");
    assert!(text.contains("\"additionalProperties\":false"), "{text}");
}

/// A currency amount as an alias: the derive sees `Dollars`, the schema a
/// `number`.
pub type Dollars = f64;

/// A campaign budget.
#[derive(ToolArgs)]
#[tool(allow(boolean_pair = "mirrors the ad network's two flags"))]
pub struct Budget {
    /// Most to spend.
    pub amount: Dollars,
    /// The part the customer plays in the ad, e.g. "narrator".
    #[tool(allow(model_identity = "a part in the story, not a permission"))]
    pub role: String,
    /// Whether the campaign runs.
    pub is_active: bool,
    /// Whether the campaign was cancelled.
    pub is_cancelled: bool,
}

/// Plan an ad campaign within a budget. Read-only.
#[derive(Tool)]
pub struct PlanAdCampaign {
    /// The budget to plan within.
    pub budget: Budget,
}

#[test]
fn waivers_travel_in_the_schema_and_aliases_are_judged_at_start_up() {
    let schema = PlanAdCampaign::input_schema();
    assert_eq!(
        schema["$defs"]["Budget"]["x-tool-allow"],
        json!({"": ["boolean_pair"], "role": ["model_identity"]})
    );
    let error = PlanAdCampaign::contract().check_rules().unwrap_err();
    let found: Vec<&str> = error.violations().iter().map(|v| v.path()).collect();
    assert_eq!(found, vec!["$.budget.amount"]);
    assert!(
        error.violations()[0]
            .message()
            .starts_with("`Budget.amount` is an amount of money typed `number`"),
        "{error}"
    );
}

/// When a delivery may arrive.
#[derive(ToolArgs, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryWindow {
    /// IANA time zone of the address, e.g. "Europe/Berlin".
    #[tool(max_length = 40)]
    pub time_zone: String,
    /// Earliest hour of the day, from 6 to 22.
    #[tool(minimum = 6, maximum = 22)]
    pub earliest_hour: u8,
}

/// Show the delivery slots that fit a window. Read-only.
#[derive(Tool, Debug)]
pub struct ShowDeliverySlots {
    /// The window the customer wants.
    pub window: DeliveryWindow,
}

#[test]
fn rename_all_on_a_nested_type_keeps_each_fields_constraints() {
    let schema = ShowDeliverySlots::input_schema();
    assert_eq!(
        schema["$defs"]["DeliveryWindow"]["properties"]["timeZone"]["maxLength"],
        json!(40)
    );
    assert_eq!(
        schema["$defs"]["DeliveryWindow"]["properties"]["earliestHour"]["maximum"],
        json!(22)
    );
    let error = ShowDeliverySlots::from_arguments(
        r#"{"window": {"timeZone": "Europe/Berlin", "earliestHour": 23}}"#,
        &Session::new(),
    )
    .unwrap_err();
    assert_eq!(
        (error.path(), error.message()),
        (
            "$.window.earliestHour",
            "expected a number of at most 22, got 23"
        )
    );
}
