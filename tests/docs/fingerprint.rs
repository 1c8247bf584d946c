//! Contract fingerprints: stable for one contract, independent of the order
//! of fields, error codes and JSON keys, and changed by any change.
#![allow(dead_code)]

use serde_json::Value;
use tool_contract::{Tool, ToolContract, audit::canonical_json, lock::LockedTool};

mod base {
    use tool_contract::Tool;

    /// Look up how many units of an item are in stock.
    #[derive(Tool)]
    #[tool(
        name = "count_stock",
        timeout_ms = 2_000,
        errors(
            UNKNOWN_SKU = "No item has this SKU; ask the customer to check it.",
            WAREHOUSE_DOWN(meaning = "The warehouse system is down.", recovery = "retry_later")
        )
    )]
    pub struct CountStock {
        /// Stock keeping unit, e.g. "SKU-1042".
        #[tool(min_length = 1)]
        pub sku: String,
        /// Warehouse code such as "BER-1"; null means all warehouses.
        pub warehouse: Option<String>,
    }
}

/// The same contract with the fields and error codes in the other order.
mod reordered {
    use tool_contract::Tool;

    /// Look up how many units of an item are in stock.
    #[derive(Tool)]
    #[tool(
        errors(
            WAREHOUSE_DOWN(recovery = "retry_later", meaning = "The warehouse system is down."),
            UNKNOWN_SKU = "No item has this SKU; ask the customer to check it."
        ),
        timeout_ms = 2_000,
        name = "count_stock"
    )]
    pub struct CountStock {
        /// Warehouse code such as "BER-1"; null means all warehouses.
        pub warehouse: Option<String>,
        /// Stock keeping unit, e.g. "SKU-1042".
        #[tool(min_length = 1)]
        pub sku: String,
    }
}

mod bumped {
    use tool_contract::Tool;

    /// Look up how many units of an item are in stock.
    #[derive(Tool)]
    #[tool(
        name = "count_stock",
        version = "1.0.1",
        timeout_ms = 2_000,
        errors(
            UNKNOWN_SKU = "No item has this SKU; ask the customer to check it.",
            WAREHOUSE_DOWN(meaning = "The warehouse system is down.", recovery = "retry_later")
        )
    )]
    pub struct CountStock {
        /// Stock keeping unit, e.g. "SKU-1042".
        #[tool(min_length = 1)]
        pub sku: String,
        /// Warehouse code such as "BER-1"; null means all warehouses.
        pub warehouse: Option<String>,
    }
}

mod constrained {
    use tool_contract::Tool;

    /// Look up how many units of an item are in stock.
    #[derive(Tool)]
    #[tool(
        name = "count_stock",
        timeout_ms = 2_000,
        errors(
            UNKNOWN_SKU = "No item has this SKU; ask the customer to check it.",
            WAREHOUSE_DOWN(meaning = "The warehouse system is down.", recovery = "retry_later")
        )
    )]
    pub struct CountStock {
        /// Stock keeping unit, e.g. "SKU-1042".
        #[tool(min_length = 2)]
        pub sku: String,
        /// Warehouse code such as "BER-1"; null means all warehouses.
        pub warehouse: Option<String>,
    }
}

mod slower {
    use tool_contract::Tool;

    /// Look up how many units of an item are in stock.
    #[derive(Tool)]
    #[tool(
        name = "count_stock",
        timeout_ms = 3_000,
        errors(
            UNKNOWN_SKU = "No item has this SKU; ask the customer to check it.",
            WAREHOUSE_DOWN(meaning = "The warehouse system is down.", recovery = "retry_later")
        )
    )]
    pub struct CountStock {
        /// Stock keeping unit, e.g. "SKU-1042".
        #[tool(min_length = 1)]
        pub sku: String,
        /// Warehouse code such as "BER-1"; null means all warehouses.
        pub warehouse: Option<String>,
    }
}

mod reworded {
    use tool_contract::Tool;

    /// Count the units of an item that are in stock.
    #[derive(Tool)]
    #[tool(
        name = "count_stock",
        timeout_ms = 2_000,
        errors(
            UNKNOWN_SKU = "No item has this SKU; ask the customer to check it.",
            WAREHOUSE_DOWN(meaning = "The warehouse system is down.", recovery = "retry_later")
        )
    )]
    pub struct CountStock {
        /// Stock keeping unit, e.g. "SKU-1042".
        #[tool(min_length = 1)]
        pub sku: String,
        /// Warehouse code such as "BER-1"; null means all warehouses.
        pub warehouse: Option<String>,
    }
}

mod recovered {
    use tool_contract::Tool;

    /// Look up how many units of an item are in stock.
    #[derive(Tool)]
    #[tool(
        name = "count_stock",
        timeout_ms = 2_000,
        errors(
            UNKNOWN_SKU = "No item has this SKU; ask the customer to check it.",
            WAREHOUSE_DOWN(meaning = "The warehouse system is down.", recovery = "retry")
        )
    )]
    pub struct CountStock {
        /// Stock keeping unit, e.g. "SKU-1042".
        #[tool(min_length = 1)]
        pub sku: String,
        /// Warehouse code such as "BER-1"; null means all warehouses.
        pub warehouse: Option<String>,
    }
}

/// The fingerprint of `base::CountStock`, the same on every machine.
const BASE_FINGERPRINT: &str = "f1a87f3969afdc09aa0e653a3bae7c786062350502b84c71a2c7a0a6d3fee547";

#[test]
fn the_same_contract_gives_the_same_fingerprint_everywhere() {
    let contract = base::CountStock::contract();
    let fingerprint = contract.fingerprint();
    assert_eq!(fingerprint, contract.fingerprint());
    assert_eq!(fingerprint.len(), 64);
    assert!(
        fingerprint
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    );
    assert_eq!(fingerprint, BASE_FINGERPRINT);
    assert_eq!(LockedTool::from_contract(contract).fingerprint, fingerprint);
}

#[test]
fn the_order_of_fields_error_codes_and_keys_does_not_matter() {
    assert_eq!(
        reordered::CountStock::contract().fingerprint(),
        base::CountStock::contract().fingerprint()
    );
    let a: Value =
        serde_json::from_str(r#"{"b": {"y": 1, "x": [1, {"q": 0, "p": 1}]}, "a": null}"#).unwrap();
    let b: Value =
        serde_json::from_str(r#"{"a": null, "b": {"x": [1, {"p": 1, "q": 0}], "y": 1}}"#).unwrap();
    assert_eq!(canonical_json(&a), canonical_json(&b));
    assert_eq!(
        canonical_json(&a),
        r#"{"a":null,"b":{"x":[1,{"p":1,"q":0}],"y":1}}"#
    );
}

#[test]
fn any_change_changes_the_fingerprint() {
    let changed: [(&str, &ToolContract); 5] = [
        ("version", bumped::CountStock::contract()),
        ("constraint", constrained::CountStock::contract()),
        ("timeout", slower::CountStock::contract()),
        ("description", reworded::CountStock::contract()),
        ("error recovery", recovered::CountStock::contract()),
    ];
    let base = base::CountStock::contract().fingerprint();
    let mut seen = vec![base.clone()];
    for (what, contract) in changed {
        let fingerprint = contract.fingerprint();
        assert!(
            !seen.contains(&fingerprint),
            "a {what} change left the fingerprint as it was"
        );
        seen.push(fingerprint);
    }
}
