//! Names and fields that look like the new rules' targets but are honest:
//! none of `misleading_name`, `free_form_command`, `open_world_write` or
//! `untyped_destination` fires here.

use tool_contract::{Tool, ToolArgs};

/// Search the product catalog by free text. Read-only.
#[derive(Tool)]
pub struct SearchProducts {
    /// What the customer is looking for, e.g. "red running shoes".
    pub query: String,
    /// The customer's question as typed, e.g. "shoes for rain".
    pub user_query: Option<String>,
    /// Words that must appear, e.g. ["waterproof"].
    pub keywords: Vec<String>,
    /// Free text matched against titles only, e.g. "trail".
    pub search_text: Option<String>,
    /// At most this many products, e.g. 20.
    #[tool(minimum = 1, maximum = 100)]
    pub max_results: Option<u32>,
    /// A discount code to price the results with, e.g. "SPRING25".
    pub discount_code: Option<String>,
    /// Two-letter country code for prices and stock, e.g. "FR".
    pub country_code: Option<String>,
}

/// List the signed-in customer's orders, newest first. Read-only.
#[derive(Tool)]
pub struct ListOrders {
    /// At most this many orders per page, e.g. 20.
    #[tool(minimum = 1, maximum = 100)]
    pub limit: u32,
    /// Which page, from 1.
    #[tool(minimum = 1)]
    pub page: u32,
}

/// Current weather and today's forecast for a city. Read-only.
#[derive(Tool)]
pub struct GetWeather {
    /// City name, optionally with country, e.g. "Lyon, FR".
    pub city: String,
}

/// Check where an order is: shipped, in transit or delivered. Read-only.
#[derive(Tool)]
pub struct CheckOrderStatus {
    /// Order reference as printed on the receipt, e.g. "ORD-1042".
    pub order_ref: String,
}

/// Public profile of a shop member, looked up by the name they chose.
#[derive(Tool)]
pub struct GetMemberProfile {
    /// The member's public handle, e.g. "ana_runs".
    pub username: String,
    /// Which saved script of the member to show, e.g. "scr_1".
    pub script_id: Option<String>,
    /// Which email template the member uses, by name.
    pub template_name: Option<String>,
}

/// Prepare a refund for one order as a draft that a person reviews; nothing
/// is paid until the draft is submitted.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct CreateRefundDraft {
    /// Order reference as printed on the receipt, e.g. "ORD-1042".
    pub order_ref: String,
}

/// Show what the next invoice of a subscription will contain. Read-only.
#[derive(Tool)]
pub struct PreviewInvoice {
    /// Subscription reference, e.g. "sub_7".
    pub subscription_ref: String,
}

/// Mail a password-reset link to the address of an account.
#[derive(Tool)]
#[tool(effect = "write", idempotent = false, open_world, approval = "required")]
pub struct SendPasswordReset {
    /// The account's email address, e.g. "ana@example.com".
    #[tool(format = "email", max_length = 254)]
    pub email: String,
    /// Also notify these addresses, e.g. ["it@example.com"].
    #[tool(max_items = 5, items(format = "email"))]
    pub cc: Vec<String>,
    /// Where to report that the mail went out.
    #[tool(format = "uri")]
    pub callback_url: Option<String>,
    /// A phone to text the code to, in E.164, e.g. "+33612345678".
    #[tool(pattern = "^\\+[1-9][0-9]{6,14}$")]
    pub phone_number: Option<String>,
    /// The date the link stops working, e.g. "2025-01-31".
    #[tool(format = "date")]
    pub to_date: Option<String>,
}

/// Pay for the cart and place the order.
#[derive(Tool)]
#[tool(effect = "write", approval = "required", idempotent = false)]
pub struct CheckoutCart {
    /// Cart reference, e.g. "cart_3".
    pub cart_ref: String,
}

/// Mark a support ticket as solved; it can be reopened.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct CloseTicket {
    /// Ticket reference, e.g. "T-12".
    pub ticket_ref: String,
}

/// Throw away a draft order the customer no longer wants.
#[derive(Tool)]
#[tool(effect = "destructive", approval = "required", idempotent)]
pub struct CancelOrderDraft {
    /// Draft reference, e.g. "draft_4".
    pub draft_ref: String,
}

/// Which report the warehouse runs.
#[derive(ToolArgs)]
pub enum ReportCommand {
    /// Sales per day.
    DailySales,
    /// Refunds per week.
    WeeklyRefunds,
}

/// Run one of the warehouse's saved reports. Read-only.
#[derive(Tool)]
pub struct ViewReport {
    /// Which report to run.
    pub command: ReportCommand,
    /// A saved filter, by its code, e.g. "F_EU_2025".
    #[tool(pattern = "^F_[A-Z0-9_]{1,32}$")]
    pub filter_expression: Option<String>,
}

fn main() {
    assert_eq!(SearchProducts::contract().name(), "search_products");
    assert!(SendPasswordReset::contract().waivers().is_empty());
    assert!(SendPasswordReset::contract().field("cc").unwrap().destination());
    assert!(!SendPasswordReset::contract().field("to_date").unwrap().destination());
    for contract in [
        SearchProducts::contract(),
        ListOrders::contract(),
        GetWeather::contract(),
        CheckOrderStatus::contract(),
        GetMemberProfile::contract(),
        CreateRefundDraft::contract(),
        PreviewInvoice::contract(),
        SendPasswordReset::contract(),
        CheckoutCart::contract(),
        CloseTicket::contract(),
        CancelOrderDraft::contract(),
        ViewReport::contract(),
    ] {
        assert_eq!(contract.check_rules(), Ok(()), "{}", contract.name());
    }
}
