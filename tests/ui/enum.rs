use tool_contract::Tool;

/// Look up an order by its reference or by its tracking number.
#[derive(Tool)]
pub enum FindOrder {
    /// Order reference exactly as the app shows it to the user, e.g. "A-10293".
    ByReference { order_ref: String },
    /// Tracking number as printed on the parcel.
    ByTracking { tracking_number: String },
}

fn main() {}
