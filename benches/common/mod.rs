//! The tools the benchmarks measure: a realistic 11-field order tool, the
//! same tool with constraints, and a plain `#[derive(Deserialize)]` twin.
#![allow(dead_code)]

use schemars::JsonSchema;
use serde::Deserialize;
use tool_contract::{Money, SignedMoney, Tool};

/// How fast the order ships.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// Ships within a week.
    Low,
    /// Ships within two days.
    Normal,
    /// Ships today.
    Urgent,
}

/// A postal address.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
pub struct Address {
    /// Street and number.
    pub street: String,
    /// City name.
    pub city: String,
    /// Postal code as written in the country.
    pub postal_code: String,
    /// ISO 3166-1 alpha-2 country code.
    pub country: String,
}

/// One line of an order.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
pub struct LineItem {
    /// Stock keeping unit.
    pub sku: String,
    /// Units wanted.
    pub quantity: u32,
    /// Price of one unit.
    pub unit_price: Money,
}

/// Place an order for the signed-in customer from items in the catalog.
///
/// Use it once the customer confirmed the items, the address and the total.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct PlaceOrder {
    /// The customer's own reference for the order, e.g. "A-1234".
    pub order_ref: String,
    /// How fast the order must ship.
    pub priority: Priority,
    /// Where to deliver the order.
    pub shipping_address: Address,
    /// What to order, one line per item.
    pub items: Vec<LineItem>,
    /// What the customer expects to pay in total.
    pub total: Money,
    /// A voucher's reduction; null for none.
    pub discount: Option<SignedMoney>,
    /// Where to send the confirmation; null to skip it.
    pub contact_email: Option<String>,
    /// A message printed on the packing slip; null for none.
    pub gift_note: Option<String>,
    /// Labels the customer gave the order.
    pub tags: Vec<String>,
    /// Whether to ship by express courier.
    pub express: bool,
    /// The day the customer wants the delivery, as an ISO 8601 date; null for any day.
    pub delivery_date: Option<String>,
}

/// Place an order for the signed-in customer from items in the catalog.
///
/// The same fields as [`PlaceOrder`], each with the constraints a real tool
/// would state: a pattern and lengths, formats, item counts.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent, name = "place_order")]
pub struct PlaceOrderChecked {
    /// The customer's own reference for the order, e.g. "A-1234".
    #[tool(min_length = 3, max_length = 16, pattern = "^[A-Z]-[0-9]+$")]
    pub order_ref: String,
    /// How fast the order must ship.
    pub priority: Priority,
    /// Where to deliver the order.
    pub shipping_address: Address,
    /// What to order, one line per item.
    #[tool(min_items = 1, max_items = 50)]
    pub items: Vec<LineItem>,
    /// What the customer expects to pay in total.
    pub total: Money,
    /// A voucher's reduction; null for none.
    pub discount: Option<SignedMoney>,
    /// Where to send the confirmation; null to skip it.
    #[tool(format = "email")]
    pub contact_email: Option<String>,
    /// A message printed on the packing slip; null for none.
    #[tool(max_length = 500)]
    pub gift_note: Option<String>,
    /// Labels the customer gave the order.
    #[tool(max_items = 10)]
    pub tags: Vec<String>,
    /// Whether to ship by express courier.
    pub express: bool,
    /// The day the customer wants the delivery; null for any day.
    #[tool(format = "date")]
    pub delivery_date: Option<String>,
}

/// A postal address with the constraints a real tool states.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
pub struct CheckedAddress {
    /// Street and number.
    #[schemars(length(min = 1, max = 100))]
    pub street: String,
    /// City name.
    #[schemars(length(min = 1, max = 60))]
    pub city: String,
    /// Postal code as written in the country.
    #[schemars(length(min = 3, max = 10))]
    pub postal_code: String,
    /// ISO 3166-1 alpha-2 country code.
    #[schemars(regex(pattern = r"^[A-Z]{2}$"))]
    pub country: String,
}

/// One line of an order, with the constraints a real tool states.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
pub struct CheckedLineItem {
    /// Stock keeping unit.
    #[schemars(length(min = 1, max = 32))]
    pub sku: String,
    /// Units wanted.
    #[schemars(range(min = 1, max = 1000))]
    pub quantity: u32,
    /// Price of one unit.
    pub unit_price: Money,
}

/// Place an order for the signed-in customer from items in the catalog.
///
/// The same fields as [`PlaceOrderChecked`], with nested types that carry
/// their own constraints (schemars attributes) and closed objects, all
/// enforced at every depth.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent, name = "place_order")]
pub struct PlaceOrderNested {
    /// The customer's own reference for the order, e.g. "A-1234".
    #[tool(min_length = 3, max_length = 16)]
    pub order_ref: String,
    /// How fast the order must ship.
    pub priority: Priority,
    /// Where to deliver the order.
    pub shipping_address: CheckedAddress,
    /// What to order, one line per item.
    #[tool(min_items = 1, max_items = 50)]
    pub items: Vec<CheckedLineItem>,
    /// What the customer expects to pay in total.
    pub total: Money,
    /// A voucher's reduction; null for none.
    pub discount: Option<SignedMoney>,
    /// Where to send the confirmation; null to skip it.
    #[tool(max_length = 254)]
    pub contact_email: Option<String>,
    /// A message printed on the packing slip; null for none.
    #[tool(max_length = 500)]
    pub gift_note: Option<String>,
    /// Labels the customer gave the order.
    #[tool(max_items = 10)]
    pub tags: Vec<String>,
    /// Whether to ship by express courier.
    pub express: bool,
    /// The day the customer wants the delivery; null for any day.
    #[tool(max_length = 10)]
    pub delivery_date: Option<String>,
}

/// [`PlaceOrderNested`] as a plain serde struct over the same nested types.
#[derive(Debug, Deserialize)]
pub struct PlaceOrderNestedTwin {
    pub order_ref: String,
    pub priority: Priority,
    pub shipping_address: CheckedAddress,
    pub items: Vec<CheckedLineItem>,
    pub total: Money,
    pub discount: Option<SignedMoney>,
    pub contact_email: Option<String>,
    pub gift_note: Option<String>,
    pub tags: Vec<String>,
    pub express: bool,
    pub delivery_date: Option<String>,
}

/// [`PlaceOrder`] as a plain serde struct: what an application without
/// tool-contract would parse.
#[derive(Debug, Deserialize)]
pub struct PlaceOrderTwin {
    pub order_ref: String,
    pub priority: Priority,
    pub shipping_address: Address,
    pub items: Vec<LineItem>,
    pub total: Money,
    pub discount: Option<SignedMoney>,
    pub contact_email: Option<String>,
    pub gift_note: Option<String>,
    pub tags: Vec<String>,
    pub express: bool,
    pub delivery_date: Option<String>,
}

/// A realistic call's arguments (about 700 bytes), as a model in strict mode
/// writes them: every key present, in schema order.
pub const ARGUMENTS: &str = r#"{"order_ref":"A-10293","priority":"urgent","shipping_address":{"street":"Hauptstraße 12","city":"Berlin","postal_code":"10115","country":"DE"},"items":[{"sku":"SKU-1042","quantity":2,"unit_price":{"amount_minor":1999,"currency":"EUR"}},{"sku":"SKU-2210","quantity":1,"unit_price":{"amount_minor":4500,"currency":"EUR"}},{"sku":"SKU-0007","quantity":12,"unit_price":{"amount_minor":250,"currency":"EUR"}}],"total":{"amount_minor":11498,"currency":"EUR"},"discount":{"amount_minor":-500,"currency":"EUR"},"contact_email":"jane.doe@example.com","gift_note":"Happy birthday, Tom! \u2014 with love from \"the team\"","tags":["birthday","repeat-customer","priority"],"express":true,"delivery_date":"2026-12-03"}"#;
