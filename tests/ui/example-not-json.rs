use tool_contract::Tool;

/// Reserve units of one SKU in a warehouse until the hold runs out.
#[derive(Tool)]
#[tool(
    effect = "write",
    idempotent,
    example = r#"{"sku": "SKU-1042", "quantity": 2,}"#,
    example = r#"["SKU-1042", 2]"#
)]
pub struct ReserveUnits {
    /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
    pub sku: String,
    /// How many units to hold.
    #[tool(minimum = 1, maximum = 1000)]
    pub quantity: u32,
}

fn main() {}
