//! The catalog of the example tools: the committed `TOOLS.md` is what
//! `cargo run --example catalog` prints, and the JSON document's shape.

use crate::catalog_example;

use serde_json::json;
use tool_contract::{Tool, docs::CATALOG_FORMAT, docs::Catalog};

use catalog_example::tools;

#[test]
fn tools_md_is_what_the_catalog_example_prints() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/TOOLS.md");
    let committed = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
        .replace("\r\n", "\n");
    assert_eq!(
        catalog_example::catalog().to_markdown(),
        committed,
        "TOOLS.md is out of date; run `cargo run --example catalog > TOOLS.md`"
    );
}

#[test]
fn the_example_tools_keep_the_contract_rules_at_every_depth() {
    catalog_example::catalog().check().unwrap();
}

#[test]
fn the_table_of_contents_links_every_tool_in_order() {
    let markdown = catalog_example::catalog().to_markdown();
    let contents: Vec<&str> = markdown
        .lines()
        .skip_while(|line| *line != "## Contents")
        .skip(4)
        .take_while(|line| line.starts_with('|'))
        .collect();
    assert_eq!(
        contents,
        [
            "| [get_inventory](#get_inventory) | 1.0.0 | `read` | `none` | Look up how many units of an item are in stock. |",
            "| [reserve_inventory](#reserve_inventory) | 1.0.0 | `write` | `required` | Reserve units of an item for the customer's order until checkout. |",
            "| [create_refund_draft](#create_refund_draft) | 3.0.0 | `write` | `none` | Create a refund draft for an order that the signed-in customer may refund. |",
        ]
    );
    let headings: Vec<&str> = markdown.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(
        headings,
        [
            "## Contents",
            "## get_inventory",
            "## reserve_inventory",
            "## create_refund_draft"
        ]
    );
    // Each tool's page sits one level below the catalog title.
    let page = tools::GetInventory::contract().to_markdown();
    let section = markdown
        .split("\n## get_inventory\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## reserve_inventory\n").next())
        .unwrap();
    let demoted = page
        .replace("\n## ", "\n### ")
        .replacen("# get_inventory\n", "", 1);
    assert_eq!(section, demoted);
}

#[test]
fn a_repeated_name_gets_its_own_anchor() {
    let catalog = Catalog::new()
        .with::<tools::GetInventory>()
        .with::<tools::GetInventory>();
    let markdown = catalog.to_markdown();
    assert!(
        markdown.contains("| [get_inventory](#get_inventory) |"),
        "{markdown}"
    );
    assert!(
        markdown.contains("| [get_inventory](#get_inventory-1) |"),
        "{markdown}"
    );
}

#[test]
fn the_catalog_json_has_every_contract_with_its_schemas() {
    let contract = tools::GetInventory::contract();
    let catalog: Catalog = [contract].into_iter().collect();
    let expected = json!({
        "format": "tool-contract-catalog/1",
        "title": "Tools",
        "tools": [{
            "name": "get_inventory",
            "rust_name": "GetInventory",
            "version": "1.0.0",
            "fingerprint": contract.fingerprint(),
            "description": "Look up how many units of an item are in stock.\n\nUse it before promising a delivery or reserving stock. Read-only.",
            "policy": {
                "effect": "read",
                "idempotency": {"kind": "unspecified"},
                "approval": "none",
                "timeout_ms": 2000,
                "open_world": false,
                "data_class": "internal"
            },
            "fields": [
                {
                    "name": "sku",
                    "rust_name": "sku",
                    "rust_type": "String",
                    "description": "Stock keeping unit as printed on the product page, e.g. \"SKU-1042\".",
                    "presence": "required",
                    "injected": false,
                    "unit": null,
                    "constraints": {"minLength": 1, "maxLength": 64},
                    "idempotency_key": false
                },
                {
                    "name": "warehouse",
                    "rust_name": "warehouse",
                    "rust_type": "Option<String>",
                    "description": "Warehouse code such as \"BER-1\"; null means all warehouses.",
                    "presence": "optional",
                    "injected": false,
                    "unit": null,
                    "constraints": {},
                    "idempotency_key": false
                },
                {
                    "name": "include_reserved",
                    "rust_name": "include_reserved",
                    "rust_type": "bool",
                    "description": "Whether to count units already reserved for other orders.",
                    "presence": "defaulted",
                    "injected": false,
                    "unit": null,
                    "constraints": {},
                    "idempotency_key": false
                },
                {
                    "name": "tenant",
                    "rust_name": "tenant",
                    "rust_type": "TenantId",
                    "description": "The shop the conversation belongs to.",
                    "presence": "required",
                    "injected": true,
                    "unit": null,
                    "constraints": {},
                    "idempotency_key": false
                }
            ],
            "input_schema": contract.input_schema(),
            "output": {
                "rust_type": "StockLevel",
                "declared": true,
                "schema": contract.output_schema()
            },
            "errors": [],
            "waivers": []
        }]
    });
    assert_eq!(catalog.to_json(), expected);
    assert_eq!(serde_json::to_value(&catalog).unwrap(), expected);
    assert_eq!(CATALOG_FORMAT, "tool-contract-catalog/1");
    // Keys keep the documented order.
    let text = serde_json::to_string(&catalog.to_json()["tools"][0]).unwrap();
    let order: Vec<usize> = [
        "\"name\"",
        "\"rust_name\"",
        "\"version\"",
        "\"fingerprint\"",
        "\"description\"",
        "\"policy\"",
        "\"fields\"",
        "\"input_schema\"",
        "\"output\"",
        "\"errors\"",
        "\"waivers\"",
    ]
    .iter()
    .map(|key| text.find(key).unwrap())
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
}

#[test]
fn errors_and_keyed_idempotency_in_json() {
    let json = serde_json::to_value(tools::ReserveInventory::contract()).unwrap();
    assert_eq!(
        json["policy"]["idempotency"],
        json!({"kind": "keyed", "field": "request_id"})
    );
    assert_eq!(
        json["errors"],
        json!([{
            "code": "OUT_OF_STOCK",
            "meaning": "Not enough units are available; tell the customer how many are.",
            "category": "conflict",
            "recovery": "ask_user"
        }])
    );
    assert_eq!(json["fields"][2]["unit"], "minutes");
    assert_eq!(
        json["fields"][2]["constraints"],
        json!({"minimum": 5, "maximum": 1440})
    );
    assert_eq!(json["fields"][3]["idempotency_key"], true);
    assert_eq!(json["fields"][3]["constraints"], json!({"format": "uuid"}));
}
