//! `cargo run --example tool_definitions -- <dialect>`:
//! every dialect the example offers writes the example tool set, kept as a
//! golden file (`tests/examples_golden/`, written again with
//! `TOOL_CONTRACT_BLESS=1`), and the dialects that other golden tests
//! already pin print exactly what those pin.

use crate::tool_definitions;

use serde_json::Value;
use tool_definitions::{DIALECTS, contracts, usage};

/// JSON files under the package; the golden files under
/// `tests/examples_golden/`.
mod files {
    const DIR: &str = "";
    const GOLDEN: &str = "tests/examples_golden";
    const BLESS: &str = "TOOL_CONTRACT_BLESS";

    include!("../files/golden.rs");
}

fn written(name: &str) -> Value {
    let dialect = DIALECTS
        .iter()
        .find(|d| d.name == name)
        .unwrap_or_else(|| panic!("no dialect {name}"));
    (dialect.write)(&contracts()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn every_dialect_writes_the_example_tools_as_its_golden_file() {
    let names: Vec<&str> = DIALECTS.iter().map(|d| d.name).collect();
    let mut expected = vec![
        "openai-chat",
        "openai-responses",
        "anthropic",
        "gemini",
        "gemini-openapi",
    ];
    if cfg!(feature = "mcp") {
        expected.insert(3, "mcp");
    }
    assert_eq!(names, expected);
    for dialect in DIALECTS {
        let value =
            (dialect.write)(&contracts()).unwrap_or_else(|e| panic!("{}: {e}", dialect.name));
        files::golden(&format!("tool_definitions.{}.json", dialect.name), &value);
    }
}

/// The dialects whose definitions other golden tests pin print the same.
#[test]
fn the_dialects_print_what_their_own_golden_tests_pin() {
    // That golden file lists the tools by name.
    let mut tools = written("openai-responses")["tools"]
        .as_array()
        .unwrap()
        .clone();
    tools.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    assert_eq!(
        Value::Array(tools),
        files::read("tests/openai/golden/example_tools.responses.json")
    );
    for (name, file) in [
        ("gemini", "example_tools.json_schema.json"),
        ("gemini-openapi", "example_tools.openapi.json"),
    ] {
        let golden = files::read(&format!("tool-gemini/tests/golden/{file}"));
        assert_eq!(written(name)["tools"], golden["tools"], "{name}");
        assert_eq!(
            written(name)["toolConfig"],
            serde_json::json!({"functionCallingConfig": {"mode": "AUTO"}})
        );
    }
    // Every Anthropic definition is strict and closed at the root.
    for tool in written("anthropic")["tools"].as_array().unwrap() {
        assert_eq!(tool["strict"], true, "{tool}");
        assert_eq!(
            tool["input_schema"]["additionalProperties"], false,
            "{tool}"
        );
    }
}

#[test]
fn the_usage_lists_every_dialect() {
    let text = usage();
    assert!(text.starts_with("usage: cargo run --example tool_definitions -- <dialect>\n"));
    for dialect in DIALECTS {
        assert!(
            text.contains(&format!("  {:<18} {}\n", dialect.name, dialect.about)),
            "{text}"
        );
    }
}
