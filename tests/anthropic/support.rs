//! Helpers for the `anthropic_*` tests: JSON files under `tests/anthropic/`.
#![allow(dead_code)]

use std::path::PathBuf;

use serde_json::Value;

/// `tests/anthropic/<relative>`.
pub fn path(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/anthropic")
        .join(relative)
}

/// Reads `tests/anthropic/<relative>` as JSON.
pub fn read(relative: &str) -> Value {
    let path = path(relative);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// Compares `actual` with `tests/anthropic/golden/<name>`, or rewrites the
/// file when `TOOL_ANTHROPIC_BLESS=1`.
pub fn golden(name: &str, actual: &Value) {
    let path = path(&format!("golden/{name}"));
    let text = format!("{}\n", serde_json::to_string_pretty(actual).expect("JSON"));
    if std::env::var_os("TOOL_ANTHROPIC_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, text).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e}; run with TOOL_ANTHROPIC_BLESS=1 to write it",
            path.display()
        )
    });
    assert_eq!(
        text,
        expected,
        "{} differs; run with TOOL_ANTHROPIC_BLESS=1 to rewrite it, then read the diff",
        path.display()
    );
}
