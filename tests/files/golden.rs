// JSON files of the tests and their golden files, shared by the provider
// tests' support modules (`include!`d): the includer defines `DIR` (the
// folder under the package, e.g. `tests/openai`), `GOLDEN` (the golden
// files' folder inside it, or "" for `DIR` itself) and `BLESS` (the
// variable that rewrites them, e.g. `TOOL_OPENAI_BLESS`).

use std::path::PathBuf;

use serde_json::Value;

/// `<DIR>/<relative>`.
pub fn path(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(DIR)
        .join(relative)
}

/// Reads `<DIR>/<relative>` as JSON.
pub fn read(relative: &str) -> Value {
    let path = path(relative);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// Compares `actual` with `<DIR>/<GOLDEN>/<name>`, or rewrites the file
/// when the variable `BLESS` is `1`.
pub fn golden(name: &str, actual: &Value) {
    let path = path(GOLDEN).join(name);
    let text = format!("{}\n", serde_json::to_string_pretty(actual).expect("JSON"));
    if std::env::var_os(BLESS).is_some_and(|v| v == "1") {
        std::fs::write(&path, text).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e}; run with {BLESS}=1 to write it",
            path.display()
        )
    });
    assert_eq!(
        text,
        expected,
        "{} differs; run with {BLESS}=1 to rewrite it, then read the diff",
        path.display()
    );
}
