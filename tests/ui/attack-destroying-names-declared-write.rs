//! Names that destroy, wherever the verb stands, declared `write`: each is refused.

use tool_contract::Tool;

/// Delete an order for good; nothing of it is kept.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct OrderDelete {
    /// The order, e.g. "A-10293".
    #[tool(pattern = "^A-[0-9]+$")]
    pub order_ref: String,
}

/// As an administrator, delete a user account and all of its data.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct AdminDeleteUser {
    /// The user, e.g. "U-5".
    #[tool(pattern = "^U-[0-9]+$")]
    pub user_ref: String,
}

/// Close a customer's bank account for good and pay out the balance.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct CloseBankAccount {
    /// The account, e.g. "ACC-5".
    #[tool(pattern = "^ACC-[0-9]+$")]
    pub account_ref: String,
}

/// Ban a customer from the shop for good.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct BanCustomer {
    /// The customer, e.g. "CU-5".
    #[tool(pattern = "^CU-[0-9]+$")]
    pub customer_ref: String,
}

/// Empty the customer's shopping cart, removing every item in it.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct ClearCart {
    /// The cart, e.g. "CART-5".
    #[tool(pattern = "^CART-[0-9]+$")]
    pub cart_ref: String,
}

fn main() {}
