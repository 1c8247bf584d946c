use tool_contract::Tool;

/// Search the product catalog by free text. Returns at most 20 products.
#[derive(Tool)]
pub struct SearchProducts<Q> {
    /// Words to search for, e.g. "red running shoes".
    pub query: Q,
}

fn main() {}
