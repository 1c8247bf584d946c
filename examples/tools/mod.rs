//! The example tools: a small shop's order and inventory tools.
//!
//! Shared by the examples (`#[path]`-included) and by the integration tests.
//! Nested types name the facade's copies of serde and schemars
//! (`#[serde(crate = ...)]`, `#[schemars(crate = ...)]`).
#![allow(dead_code)]

// Through the facade's re-exports: the examples' package depends on
// `tool-contract` alone, which proves an application needs nothing more.
use tool_contract::schemars::JsonSchema;
use tool_contract::serde::{Deserialize, Serialize};
use tool_contract::{Money, Tool};

/// The signed-in customer, put into the session by the application.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomerId(pub String);

/// The tenant (shop) the conversation belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TenantId(pub String);

/// Why the customer wants a refund.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
#[serde(rename_all = "snake_case")]
pub enum RefundReason {
    /// The item arrived damaged.
    Damaged,
    /// The order arrived after the promised date.
    Late,
    /// Any other reason; explain it in `note`.
    Other,
}

/// A refund that was drafted but not submitted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct RefundDraft {
    /// The draft's id, e.g. "RD-1".
    pub draft_id: String,
    /// What the refund would pay back.
    pub amount: Money,
}

/// Create a refund draft for an order that the signed-in customer may refund.
///
/// Use it when the customer asks for their money back. It does not submit
/// the refund (a person reviews drafts). Returns the draft id and the amount.
#[derive(Debug, Tool)]
#[tool(
    version = "3.0.0",
    effect = "write",
    idempotent,
    output = RefundDraft,
    data = "confidential",
    timeout_ms = 10_000,
    errors(
        ORDER_NOT_FOUND(
            meaning = "No order with this reference belongs to the customer; ask them to check the reference.",
            category = "not_found",
            recovery = "ask_user"
        ),
        AMOUNT_TOO_HIGH = "The amount is more than was paid; use at most the order total."
    )
)]
pub struct CreateRefundDraft {
    /// Order reference exactly as the app shows it to the customer, e.g. "A-10293".
    #[tool(min_length = 1, pattern = "^[A-Z]-[0-9]+$")]
    pub order_ref: String,
    /// Why the customer wants the refund.
    pub reason: RefundReason,
    /// Amount to refund; null refunds the whole order.
    pub amount: Option<Money>,
    /// Anything the customer said about the refund, in their words.
    #[tool(max_length = 500)]
    pub note: Option<String>,
    /// Signed-in customer; taken from the trusted session, never from the model.
    #[tool(inject)]
    pub customer: CustomerId,
}

/// Stock of one item in one warehouse.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct StockLevel {
    /// The item's stock keeping unit.
    pub sku: String,
    /// Units on the shelf that nobody has reserved.
    pub available: u32,
    /// Units reserved for orders that are not shipped yet.
    pub reserved: u32,
}

/// Look up how many units of an item are in stock.
///
/// Use it before promising a delivery or reserving stock. Read-only.
#[derive(Debug, Tool)]
#[tool(output = StockLevel, data = "internal", timeout_ms = 2_000)]
pub struct GetInventory {
    /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
    #[tool(min_length = 1, max_length = 64)]
    pub sku: String,
    /// Warehouse code such as "BER-1"; null means all warehouses.
    pub warehouse: Option<String>,
    /// Whether to count units already reserved for other orders.
    #[tool(default)]
    pub include_reserved: bool,
    /// The shop the conversation belongs to.
    #[tool(inject)]
    pub tenant: TenantId,
}

/// A hold on stock for one order line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct Reservation {
    /// The reservation's id.
    pub reservation_id: String,
    /// When the hold lapses, as an RFC 3339 date-time.
    pub expires_at: String,
}

/// Reserve units of an item for the customer's order until checkout.
///
/// Use it after the customer confirmed quantity and item. The hold can be
/// released, so it is a reversible write; it needs the customer's approval.
#[derive(Debug, Tool)]
#[tool(
    effect = "write",
    approval = "required",
    output = Reservation,
    timeout_ms = 5_000,
    errors(
        OUT_OF_STOCK(
            meaning = "Not enough units are available; tell the customer how many are.",
            category = "conflict",
            recovery = "ask_user"
        )
    )
)]
pub struct ReserveInventory {
    /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
    #[tool(min_length = 1, max_length = 64)]
    pub sku: String,
    /// How many units to hold.
    #[tool(minimum = 1, maximum = 1000)]
    pub quantity: u32,
    /// How long to hold the units before releasing them.
    #[tool(unit = "minutes", minimum = 5, maximum = 1440)]
    pub hold: Option<u32>,
    /// A key the model makes up once per reservation (e.g. a UUID) and
    /// repeats when it retries, so a retry does not reserve twice.
    #[tool(idempotency_key, format = "uuid")]
    pub request_id: String,
    /// The shop the conversation belongs to.
    #[tool(inject)]
    pub tenant: TenantId,
}
