//! A deprecated version in the docs: its page says when it stops working
//! and what to use instead, a catalog of both versions lists each with
//! its sunset, and the catalog's JSON carries the deprecation (only for
//! the version that has one).

use serde_json::json;
use tool_contract::Tool;
use tool_contract::docs::Catalog;

use crate::markdown::assert_expected;
use crate::versions_support::{CreateRefundDraftV1, CreateRefundDraftV2, NOTE, NOTICE};

#[test]
fn the_page_of_a_deprecated_version_names_its_sunset_and_note() {
    let page = CreateRefundDraftV1::contract().to_markdown();
    assert_expected(&page, "create_refund_draft_v1.md");
    let policy: Vec<&str> = page
        .lines()
        .filter(|l| l.starts_with("- **"))
        .take(2)
        .collect();
    assert_eq!(
        policy,
        [
            "- **Version:** 1.3.0",
            "- **Deprecated:** this version stops working on 2026-09-30 (UTC); calls from then on are refused. Use version 2, which asks where the refund goes.",
        ]
    );
    // The description the model reads ends with the notice, on the page too.
    assert!(page.contains(&format!("\n\n{NOTICE}\n")));
    let v2 = CreateRefundDraftV2::contract().to_markdown();
    assert!(!v2.contains("Deprecated"), "{v2}");
}

#[test]
fn a_catalog_of_both_versions_lists_each_with_its_sunset() {
    let catalog = Catalog::new()
        .with_title("Refund desk")
        .with::<CreateRefundDraftV2>()
        .with::<CreateRefundDraftV1>();
    catalog.check().unwrap();
    let markdown = catalog.to_markdown();
    let contents: Vec<&str> = markdown
        .lines()
        .skip_while(|line| *line != "## Contents")
        .skip(4)
        .take_while(|line| line.starts_with('|'))
        .collect();
    assert_eq!(
        contents,
        [
            "| [create_refund_draft](#create_refund_draft) | 2.0.0 | `write` | `none` | Create a refund draft for an order of the signed-in customer, refunded where the customer chose. |",
            "| [create_refund_draft](#create_refund_draft-1) | 1.3.0 (deprecated, sunset 2026-09-30) | `write` | `none` | Create a refund draft for an order of the signed-in customer; the refund goes back to the original payment. |",
        ]
    );
    let json = catalog.to_json();
    let tools = json["tools"].as_array().unwrap();
    assert_eq!(tools[0].get("deprecation"), None);
    assert_eq!(
        tools[1]["deprecation"],
        json!({"sunset": "2026-09-30", "note": NOTE})
    );
    let keys: Vec<&str> = tools[1]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .take(5)
        .collect();
    assert_eq!(
        keys,
        ["name", "rust_name", "version", "deprecation", "fingerprint"]
    );
}
