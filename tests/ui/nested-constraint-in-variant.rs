use tool_contract::ToolArgs;

/// Where to ship.
#[derive(ToolArgs)]
pub enum Destination {
    /// A pickup point.
    Pickup {
        /// The pickup point's code, e.g. "PP-1".
        #[tool(max_length = 8)]
        code: String,
    },
}

fn main() {}
