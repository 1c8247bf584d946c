use tool_contract::ToolArgs;

/// Where to ship.
#[derive(ToolArgs)]
pub enum Destination {
    /// A point on the map.
    Point(f64, f64),
}

fn main() {}
