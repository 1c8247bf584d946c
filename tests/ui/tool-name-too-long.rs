use tool_contract::Tool;

/// Get the weather forecast for one city for the next three days.
#[derive(Tool)]
#[tool(name = "get_the_weather_forecast_for_one_city_for_the_next_three_days_please")]
pub struct GetWeather {
    /// City name as the user wrote it, e.g. "Berlin".
    pub city: String,
}

fn main() {}
