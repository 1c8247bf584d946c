use std::collections::HashMap;

use tool_contract::Tool;

/// Search the product catalog by free text and attribute filters.
/// Returns at most 20 products.
#[derive(Tool)]
pub struct SearchProducts {
    /// Words to search for, e.g. "red running shoes".
    pub query: String,
    /// Attribute filters such as {"color": "red"}.
    pub filters: HashMap<String, String>,
}

fn main() {}
