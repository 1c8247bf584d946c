use tool_contract::Tool;

/// Search the product catalog by free text. Returns at most 20 products.
#[derive(Tool)]
#[tool(title = " ")]
pub struct SearchProducts {
    /// Words to search for, e.g. "red running shoes".
    pub query: String,
}

fn main() {}
