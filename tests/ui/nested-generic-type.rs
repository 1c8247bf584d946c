use tool_contract::ToolArgs;

/// A page of something.
#[derive(ToolArgs)]
pub struct Page<T> {
    /// The entries on this page, in the order the search ranked them.
    pub items: Vec<T>,
}

fn main() {}
