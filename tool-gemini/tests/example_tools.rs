//! The examples' tool set (`examples/tools/mod.rs`) as Gemini `tools` in
//! both dialects: what `cargo run --example tool_definitions -- gemini`
//! and `-- gemini-openapi` print, kept as golden files.

#[path = "../../examples/tools/mod.rs"]
mod tools;

mod common;

use serde_json::json;
use tool_contract::Tool;
use tool_gemini::{Dialect, tools_for_gemini};

use common::{assert_conformant, golden};

#[test]
fn the_example_tools_in_both_dialects() {
    let contracts = [
        tools::GetInventory::contract(),
        tools::ReserveInventory::contract(),
        tools::CreateRefundDraft::contract(),
    ];
    for (dialect, file) in [
        (
            Dialect::ParametersJsonSchema,
            "example_tools.json_schema.json",
        ),
        (Dialect::OpenApiParameters, "example_tools.openapi.json"),
    ] {
        let tools = tools_for_gemini(&contracts, dialect).unwrap();
        for declaration in tools[0]["functionDeclarations"].as_array().unwrap() {
            assert_conformant(&declaration[dialect.field()], dialect);
        }
        // Injected fields (the customer, the tenant) never reach the model.
        let text = tools.to_string();
        assert!(
            !text.contains("customer\":") && !text.contains("tenant"),
            "{text}"
        );
        golden(file, &json!({ "tools": tools }));
    }
}
