//! A rich tool set for the MCP definitions: nested types, enums, optional
//! fields, recursion, a tool without arguments and a non-object output.
#![allow(dead_code)]

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tool_contract::Tool;

/// The signed-in customer, put into the session by the application.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomerId(pub String);

/// How urgent a ticket is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// Answer within a week.
    Low,
    /// Answer within a day.
    Normal,
    /// Answer within the hour.
    Urgent,
}

/// A postal address.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Address {
    /// Street and house number, e.g. "Hauptstr. 5".
    pub street: String,
    /// City name, e.g. "Berlin".
    pub city: String,
    /// Postal code as the post writes it, e.g. "10115".
    pub postal_code: Option<String>,
}

/// How a parcel reaches the customer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Delivery {
    /// Picked up at a store.
    Pickup {
        /// Store code, e.g. "BER-1".
        store: String,
    },
    /// Shipped to an address.
    Ship {
        /// Where to ship.
        address: Address,
        /// How urgent the shipment is; normal when absent.
        priority: Option<Priority>,
    },
}

/// A category of the catalog, with its subcategories.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Category {
    /// Category name, e.g. "Shoes".
    pub name: String,
    /// Subcategories, each a category of its own.
    pub children: Vec<Category>,
}

/// Open a support ticket for the signed-in customer about one order.
///
/// Use it when the customer reports a problem the chat cannot solve.
/// Returns the ticket number.
#[derive(Debug, Tool)]
#[tool(
    title = "Open support ticket",
    effect = "write",
    idempotent = false,
    data = "confidential",
    output = TicketNumber,
    errors(ORDER_NOT_FOUND = "No order with this reference belongs to the customer.")
)]
pub struct OpenSupportTicket {
    /// Order reference exactly as the app shows it, e.g. "A-10293".
    #[tool(min_length = 1)]
    pub order_ref: String,
    /// What went wrong, in the customer's words.
    #[tool(max_length = 2000)]
    pub summary: String,
    /// How urgent the ticket is; normal when absent.
    pub priority: Option<Priority>,
    /// How the replacement reaches the customer, if one is sent.
    pub delivery: Option<Delivery>,
    /// Signed-in customer; taken from the trusted session, never from the model.
    #[tool(inject)]
    pub customer: CustomerId,
}

/// A ticket's number.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TicketNumber {
    /// The ticket's number, e.g. "T-1".
    pub ticket: String,
    /// When the customer gets an answer, as an RFC 3339 date-time; unknown
    /// when null.
    pub answer_by: Option<String>,
}

/// Replace the catalog's category tree below one category.
///
/// Use it when the shop owner rearranges the catalog. It cannot be undone.
#[derive(Debug, Tool)]
#[tool(effect = "destructive", approval = "required", idempotent)]
pub struct ReplaceCategoryTree {
    /// Name of the category whose subtree is replaced, e.g. "Shoes".
    #[tool(min_length = 1)]
    pub parent: String,
    /// The new subtree.
    pub tree: Category,
    /// Categories to keep even if the new tree leaves them out.
    #[tool(default)]
    pub keep: Vec<String>,
}

/// List the codes of the warehouses the shop ships from.
///
/// Use it before asking which warehouse to check. Read-only.
#[derive(Debug, Tool)]
#[tool(output = Vec<String>, data = "public")]
pub struct ListWarehouses {}

/// Look up the weather at a city from a public weather service.
///
/// Use it when the customer asks whether a delivery may be delayed.
#[derive(Debug, Tool)]
#[tool(open_world, output = f64)]
pub struct GetCityTemperature {
    /// City name, e.g. "Berlin".
    #[tool(min_length = 1)]
    pub city: String,
    /// Units of the answer; celsius when absent.
    pub fahrenheit: Option<bool>,
}
