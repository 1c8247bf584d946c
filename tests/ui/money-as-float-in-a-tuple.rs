use tool_contract::Tool;

/// Find products of the catalog within a price range, for the signed-in
/// customer's search. Returns matching product ids.
#[derive(Tool)]
pub struct FindProducts {
    /// The category to search, e.g. "shoes".
    pub category: String,
    /// The lowest and highest price, e.g. [10.0, 25.5].
    pub price_range: (f32, f32),
    /// The price to beat, as a one-item list.
    pub price: Option<(f64,)>,
}

fn main() {}
