//! The rich tool set in both Gemini dialects, compared with committed
//! golden files (`TOOL_GEMINI_BLESS=1` rewrites them; review the diff).

mod common;

use serde_json::json;
use tool_contract::Tool;
use tool_gemini::{
    Dialect, ToolSetError, function_declaration, function_declaration_for, tools_for_gemini,
};

use common::{ListStores, SearchOrders, assert_conformant, golden};

#[test]
fn search_orders_as_parameters_json_schema() {
    let declaration = function_declaration::<SearchOrders>().unwrap();
    assert_conformant(
        &declaration["parametersJsonSchema"],
        Dialect::ParametersJsonSchema,
    );
    golden("search_orders.json_schema.json", &declaration);
}

#[test]
fn search_orders_as_openapi_parameters_is_refused_for_its_recursion() {
    // `Category` refers to itself: `parameters` has no `$ref` to say it.
    let error =
        function_declaration_for(SearchOrders::contract(), Dialect::OpenApiParameters).unwrap_err();
    assert_eq!(error.path(), "#/$defs/Category");
    assert_eq!(
        error.message(),
        "`Category` refers back to itself; Gemini `parameters` has no `$ref`, so a recursive \
         type cannot be written out; use `parametersJsonSchema` (`Dialect::ParametersJsonSchema`) or give \
         the type a fixed depth"
    );
}

/// The same tool without the recursive field, for `parameters`.
mod flat {
    use tool_contract::{Money, Tool};

    pub use super::common::{Priority, Shipping};

    /// Search the signed-in customer's orders by text, date and price.
    #[derive(Debug, Tool)]
    #[allow(dead_code)]
    pub struct SearchOrders {
        /// Words to look for in item names, e.g. "running shoes".
        #[tool(min_length = 1, max_length = 100, pattern = "^[a-z ]+$")]
        pub text: String,
        /// Only orders placed on or after this day, e.g. "2026-01-31".
        #[tool(format = "date")]
        pub placed_after: Option<String>,
        /// Only orders placed before this moment, e.g. "2026-02-01T00:00:00Z".
        #[tool(format = "date-time")]
        pub placed_before: Option<String>,
        /// How urgent the search is; absent for low.
        pub priority: Option<Priority>,
        /// How many orders to return at most.
        #[tool(minimum = 1, maximum = 50)]
        pub max_results: u32,
        /// Labels the orders must carry, e.g. ["gift"].
        #[tool(max_items = 5, items(min_length = 1))]
        pub labels: Vec<String>,
        /// Most the order may have cost, e.g. 50.00 EUR.
        pub price_limit: Option<Money>,
        /// Only orders shipped this way.
        pub shipping: Shipping,
        /// Whether to include orders that are still drafts.
        pub include_drafts: bool,
    }
}

#[test]
fn flat_search_orders_in_both_dialects() {
    let contract = flat::SearchOrders::contract();
    let openapi = function_declaration_for(contract, Dialect::OpenApiParameters).unwrap();
    assert_conformant(&openapi["parameters"], Dialect::OpenApiParameters);
    golden("flat_search_orders.openapi.json", &openapi);
    let json_schema = function_declaration_for(contract, Dialect::ParametersJsonSchema).unwrap();
    assert_conformant(
        &json_schema["parametersJsonSchema"],
        Dialect::ParametersJsonSchema,
    );
    golden("flat_search_orders.json_schema.json", &json_schema);
}

#[test]
fn a_tool_without_arguments_omits_its_schema_in_both_dialects() {
    // "parameters.properties: should be non-empty for OBJECT type"
    // (pipecat-flows#110, agno#2112): the schema is left out.
    let expected = json!({
        "name": "list_stores",
        "description": "List the stores of the shop with their codes and opening hours."
    });
    for dialect in [Dialect::ParametersJsonSchema, Dialect::OpenApiParameters] {
        assert_eq!(
            function_declaration_for(ListStores::contract(), dialect).unwrap(),
            expected
        );
    }
}

#[test]
fn a_tool_set_is_one_function_declarations_entry() {
    let tools = tools_for_gemini(
        &[flat::SearchOrders::contract(), ListStores::contract()],
        Dialect::OpenApiParameters,
    )
    .unwrap();
    let declarations = tools[0]["functionDeclarations"].as_array().unwrap();
    let names: Vec<&str> = declarations
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["search_orders", "list_stores"]);
    assert_eq!(tools.as_array().unwrap().len(), 1);
    assert!(declarations[0].get("parameters").is_some());
    assert!(declarations[0].get("parametersJsonSchema").is_none());
}

/// Look up how many units of an item are in stock, e.g. before promising a delivery.
#[derive(Tool)]
#[tool(name = "get_inventory")]
pub struct GetInventoryOne {
    /// Stock keeping unit, e.g. "SKU-1042".
    pub sku: String,
}

/// Look up how many units of an item are in stock in one warehouse, e.g. "BER".
#[derive(Tool)]
#[tool(name = "get_inventory")]
pub struct GetInventoryTwo {
    /// Stock keeping unit, e.g. "SKU-1042".
    pub sku: String,
}

#[test]
fn two_tools_of_one_name_are_refused() {
    let error = tools_for_gemini(
        &[GetInventoryOne::contract(), GetInventoryTwo::contract()],
        Dialect::ParametersJsonSchema,
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "two tools are named `get_inventory`; give each tool its own name, or offer only one"
    );
}

#[test]
fn a_name_gemini_does_not_take_is_refused() {
    // Gemini: "Must start with a letter or an underscore" (FunctionDeclaration.name).
    // `#[derive(Tool)]` already refuses such a name (the shared rule,
    // `tests/ui/tool-name-starts-with-digit.rs`), so a derived contract
    // never reaches this check; the message is what it would say.
    let error = ToolSetError::InvalidName {
        name: "1_get_store_hours",
    };
    assert_eq!(
        error.to_string(),
        "tool name `1_get_store_hours` is not one Gemini takes: a letter or `_` first, then \
         letters, digits, `_`, `.`, `:` or `-`, at most 64 in all"
    );
}
