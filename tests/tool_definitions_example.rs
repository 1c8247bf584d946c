//! `cargo run --example tool_definitions -- <dialect>` (issue 14, item 7):
//! every dialect the example offers writes the example tool set, kept as a
//! golden file (`tests/examples_golden/`, written again with
//! `TOOL_CONTRACT_BLESS=1`), and the dialects that other golden tests
//! already pin print exactly what those pin.

#[allow(dead_code)]
#[path = "../examples/tool_definitions.rs"]
mod tool_definitions;

use std::path::PathBuf;

use serde_json::Value;
use tool_definitions::{DIALECTS, contracts, usage};

fn read(path: &PathBuf) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
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
        let text = format!("{}\n", serde_json::to_string_pretty(&value).unwrap());
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/examples_golden")
            .join(format!("tool_definitions.{}.json", dialect.name));
        if std::env::var_os("TOOL_CONTRACT_BLESS").is_some_and(|v| v == "1") {
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        let golden = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run with TOOL_CONTRACT_BLESS=1 to write it",
                path.display()
            )
        });
        assert_eq!(text, golden, "{}", dialect.name);
    }
}

/// The dialects whose definitions other golden tests pin print the same.
#[test]
fn the_dialects_print_what_their_own_golden_tests_pin() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // That golden file lists the tools by name.
    let mut tools = written("openai-responses")["tools"]
        .as_array()
        .unwrap()
        .clone();
    tools.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    assert_eq!(
        Value::Array(tools),
        read(&root.join("tests/openai/golden/example_tools.responses.json"))
    );
    for (name, file) in [
        ("gemini", "example_tools.json_schema.json"),
        ("gemini-openapi", "example_tools.openapi.json"),
    ] {
        let golden = read(&root.join("tool-gemini/tests/golden").join(file));
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
