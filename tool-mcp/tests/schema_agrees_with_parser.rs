//! The MCP inputSchema against the parser: "whatever the MCP schema
//! accepts, the contract's parser accepts", and a document the parser
//! accepts (the way serde writes it) should not be refused by the schema
//! hosts validate against.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tool_contract::mcp::input_schema;
use tool_contract::{Session, Tool};

/// Where the results page starts.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Paging {
    /// Which page, from 1.
    pub page: u32,
}

/// How to sort.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "order", rename_all = "snake_case")]
pub enum Order {
    /// Newest first.
    Newest,
    /// Cheapest first, from a price.
    Cheapest {
        /// Lowest price in cents.
        from_cents: u32,
    },
}

/// A search with paging and order flattened in.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Search {
    /// Words to look for.
    pub text: String,
    /// Paging.
    #[serde(flatten)]
    pub paging: Paging,
    /// Order.
    #[serde(flatten)]
    pub order: Order,
}

/// Search the product catalog with paging and an order.
#[derive(Debug, Tool)]
pub struct SearchCatalog {
    /// The search, e.g. {"text": "lamp", "page": 1, "order": "newest"}.
    pub search: Search,
}

fn mcp_accepts(schema: &Value, document: &Value) -> Result<(), String> {
    let validator = jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| e.to_string())?;
    validator
        .validate(document)
        .map_err(|e| format!("{e} at {}", e.instance_path()))
}

/// A plain serde type with a flattened internally tagged enum: the
/// contract closes the parent object and every `oneOf` branch, so no
/// document meets the schema (a branch forbids `text`/`page`, the parent
/// forbids `order`), and the parser refuses what serde itself writes. The
/// tool registers and can never be called; the MCP `inputSchema` (closed
/// at every depth) accepts nothing either.
#[tokio::test]
async fn a_flattened_tagged_enum_is_callable_or_refused_at_registration() {
    let mut toolbox = tool_contract::Toolbox::new();
    let registered = toolbox
        .try_register(
            |_: SearchCatalog, _: tool_contract::CallContext| async move {
                Ok::<_, tool_contract::ToolError>("found".to_owned())
            },
        )
        .is_ok();
    let mcp = Value::Object(input_schema(SearchCatalog::input_schema()));
    let mut refused = Vec::new();
    for document in [
        json!({"search": {"text": "lamp", "page": 1, "order": "newest"}}),
        json!({"search": {"text": "lamp", "page": 2, "order": "cheapest", "from_cents": 500}}),
    ] {
        // serde reads it as the type says.
        assert!(serde_json::from_value::<Search>(document["search"].clone()).is_ok());
        let parsed = SearchCatalog::from_arguments(&document.to_string(), &Session::new());
        let contract = mcp_accepts(SearchCatalog::input_schema(), &document);
        let by_mcp = mcp_accepts(&mcp, &document);
        if parsed.is_err() || by_mcp.is_err() {
            refused.push(format!(
                "{document}: parser {:?}; contract schema {contract:?}; MCP schema {by_mcp:?}",
                parsed.err().map(|e| e.to_string())
            ));
        }
    }
    assert!(
        !registered || refused.is_empty(),
        "registered, yet serde's own documents are refused: {refused:#?}\ncontract schema: {}",
        SearchCatalog::input_schema()
    );
}

/// Stock counts by warehouse code.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct StockCounts {
    /// Units on hand by warehouse code, e.g. {"BER": 3}.
    pub by_warehouse: std::collections::BTreeMap<String, u32>,
}

/// Record a stock count of the warehouses.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct RecordStockCount {
    /// The counts, e.g. {"by_warehouse": {"BER": 3}}.
    pub counts: StockCounts,
}

/// Held: a map in a plain nested type keeps its value schema over MCP.
#[tokio::test]
async fn a_map_in_a_plain_type_agrees_everywhere() {
    let mut toolbox = tool_contract::Toolbox::new();
    let registered = toolbox
        .try_register(
            |_: RecordStockCount, _: tool_contract::CallContext| async move {
                Ok::<_, tool_contract::ToolError>("ok".to_owned())
            },
        )
        .map(|_| ())
        .map_err(|e| e.to_string());
    let mcp = Value::Object(input_schema(RecordStockCount::input_schema()));
    let document = json!({"counts": {"by_warehouse": {"BER": 3}}});
    assert!(registered.is_ok());
    assert!(RecordStockCount::from_arguments(&document.to_string(), &Session::new()).is_ok());
    assert!(mcp_accepts(RecordStockCount::input_schema(), &document).is_ok());
    assert!(mcp_accepts(&mcp, &document).is_ok());
}

/// A price floor.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Floor {
    /// Lowest price in cents.
    pub from_cents: u32,
}

/// How to sort, a variant holding a struct.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "order", rename_all = "snake_case")]
pub enum SortBy {
    /// Newest first.
    Newest,
    /// Cheapest first, from a price.
    Cheapest(Floor),
}

/// A search with paging and an order holding a struct flattened in.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SearchBy {
    /// Words to look for.
    pub text: String,
    /// Order.
    #[serde(flatten)]
    pub order: SortBy,
}

/// Search the product catalog with an order.
#[derive(Debug, Tool)]
pub struct SearchCatalogBy {
    /// The search, e.g. {"text": "lamp", "order": "newest"}.
    pub search: SearchBy,
}

/// The same with a variant that holds a struct: what serde reads, the
/// contract's schema, the MCP schema and the parser accept.
#[test]
fn a_flattened_tagged_enum_with_a_struct_variant_is_callable() {
    let mcp = Value::Object(input_schema(SearchCatalogBy::input_schema()));
    for document in [
        json!({"search": {"text": "lamp", "order": "newest"}}),
        json!({"search": {"text": "lamp", "order": "cheapest", "from_cents": 500}}),
    ] {
        assert!(serde_json::from_value::<SearchBy>(document["search"].clone()).is_ok());
        let parsed = SearchCatalogBy::from_arguments(&document.to_string(), &Session::new());
        assert_eq!(
            parsed.err().map(|e| e.to_string()),
            None,
            "{document} against {}",
            SearchCatalogBy::input_schema()
        );
        assert_eq!(
            mcp_accepts(SearchCatalogBy::input_schema(), &document),
            Ok(())
        );
        assert_eq!(mcp_accepts(&mcp, &document), Ok(()), "{mcp}");
    }
    let invented = json!({"search": {"text": "lamp", "order": "newest", "from_cents": 5}});
    let refused = SearchCatalogBy::from_arguments(&invented.to_string(), &Session::new())
        .map(|_| ())
        .unwrap_err();
    assert_eq!(refused.path(), "$.search.from_cents");
    assert!(mcp_accepts(&mcp, &invented).is_err());
}
