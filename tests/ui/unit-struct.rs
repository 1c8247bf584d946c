use tool_contract::Tool;

/// List the warehouses the shop ships from, with their codes and cities.
#[derive(Tool)]
pub struct ListWarehouses;

fn main() {}
