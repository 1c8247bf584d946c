//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::Value;
use tool_openai::{StrictRule, check_strict_schema, to_strict_json_schema};

/// Compiles `schema` and asserts what every compiled schema must satisfy:
/// the strict checker passes, and compiling the output again changes nothing.
pub fn compile(schema: &Value) -> Value {
    let compiled = to_strict_json_schema(schema)
        .unwrap_or_else(|e| panic!("expected {schema} to compile, got {e}"));
    assert_strict(&compiled);
    compiled
}

/// Asserts the checker passes on a compiled schema and that it is a fixed
/// point of the compiler.
pub fn assert_strict(compiled: &Value) {
    if let Err(violations) = check_strict_schema(compiled) {
        let list: Vec<String> = violations.iter().map(ToString::to_string).collect();
        panic!("compiled schema breaks strict rules: {list:#?}\n{compiled:#}");
    }
    let again = to_strict_json_schema(compiled)
        .unwrap_or_else(|e| panic!("compiled schema does not compile again: {e}"));
    assert_eq!(
        &again, compiled,
        "compiling twice differs from compiling once"
    );
}

/// Asserts that compiling fails with exactly this path, rule and message.
pub fn refused(schema: &Value, path: &str, rule: StrictRule, message: &str) {
    let error = to_strict_json_schema(schema).expect_err("expected the schema to be refused");
    assert_eq!(
        (error.path(), error.rule(), error.message()),
        (path, rule, message),
        "for {schema}"
    );
}

/// `tests/<relative>` of this crate.
pub fn test_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(relative)
}

/// Reads a JSON file.
pub fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// Compares `actual` with the golden file, or rewrites the file when
/// `TOOL_OPENAI_BLESS=1`.
pub fn golden(path: &Path, actual: &Value) {
    let text = format!("{}\n", serde_json::to_string_pretty(actual).expect("JSON"));
    if std::env::var_os("TOOL_OPENAI_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("create dir");
        std::fs::write(path, text).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "cannot read golden file {}: {e}; run with TOOL_OPENAI_BLESS=1 to write it",
            path.display()
        )
    });
    assert_eq!(
        text,
        expected,
        "{} differs; run with TOOL_OPENAI_BLESS=1 to rewrite it, then read the diff",
        path.display()
    );
}
