use tool_contract::ToolArgs;

/// A postcode.
#[derive(ToolArgs)]
pub struct Postcode(pub String);

fn main() {}
