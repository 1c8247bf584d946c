//! A Gemini response answered through the runtime's `Toolbox`: valid,
//! invalid and unknown calls in one turn, object args parsed like text.
#![cfg(feature = "runtime")]

use serde_json::json;
use tool_contract::{CallContext, Session, Tool, ToolError, Toolbox};
use tool_gemini::GeminiToolboxExt;

/// Look up how many units of an item are in stock, e.g. before promising a delivery.
#[derive(Tool)]
pub struct GetInventory {
    /// Stock keeping unit, e.g. "SKU-1042".
    #[tool(min_length = 1)]
    pub sku: String,
    /// Warehouse code, e.g. "BER"; absent for all warehouses.
    pub warehouse: Option<String>,
}

fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox.register(|call: GetInventory, _cx: CallContext| async move {
        let at = call.warehouse.as_deref().unwrap_or("all warehouses");
        Ok::<_, ToolError>(format!("12 units of {} in {at}", call.sku))
    });
    toolbox
}

#[test]
fn a_turn_is_answered_with_one_user_content() {
    let response = json!({"modelVersion": "gemini-2.5-flash", "candidates": [{"content": {"role": "model", "parts": [
        // Keys out of order and `null` for the option: same as absent.
        {"functionCall": {"id": "a", "name": "get_inventory", "args": {"warehouse": null, "sku": "SKU-1"}}},
        {"functionCall": {"id": "b", "name": "get_inventory", "args": {"sku": ""}}},
        {"functionCall": {"id": "c", "name": "get_inventry"}}
    ]}}]});
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let round = runtime
        .block_on(toolbox().answer_generate_content(&response, &Session::new()))
        .unwrap();
    assert!(!round.stop && !round.is_final_answer());
    assert_eq!(round.model, "gemini-2.5-flash");
    let parts = round.user_content.as_ref().unwrap()["parts"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(
        parts[0],
        json!({"functionResponse": {"id": "a", "name": "get_inventory",
            "response": {"output": "12 units of SKU-1 in all warehouses"}}})
    );
    assert_eq!(parts[1]["functionResponse"]["id"], "b");
    let error = parts[1]["functionResponse"]["response"]["error"]
        .as_str()
        .unwrap();
    assert_eq!(
        error,
        "Error [INVALID_ARGUMENTS]: $.sku: expected at least 1 character, got 0 characters"
    );
    assert_eq!(
        parts[2]["functionResponse"]["response"]["error"],
        "Error [UNKNOWN_TOOL]: There is no tool named \"get_inventry\". Use one of: get_inventory."
    );
    assert_eq!(round.user_content.as_ref().unwrap()["role"], "user");
}
