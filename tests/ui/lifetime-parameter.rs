use tool_contract::Tool;

/// Search the product catalog by free text. Returns at most 20 products.
#[derive(Tool)]
pub struct SearchProducts<'a> {
    /// Words to search for, e.g. "red running shoes".
    pub query: &'a str,
}

fn main() {}
