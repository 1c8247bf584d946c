use tool_contract::Tool;

/// Get the weather forecast for one city for the next three days.
#[derive(Tool)]
#[tool(name = "get weather")]
pub struct GetWeather {
    /// City name as the user wrote it, e.g. "Berlin".
    pub city: String,
}

fn main() {}
