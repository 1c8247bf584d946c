//! What the tests of the two readers share (tests/parse/fast_agrees.rs,
//! tests/regression/fast_reader.rs, tests/regression/parser_type_checks.rs): a call's answer as
//! comparable text, the check that the fast reader and the exact path give
//! the same answer, and the reference validator.

#![allow(dead_code)]

use serde_json::Value;
use tool_contract::__private::{last_call_read_fast, with_exact_reader_only};
use tool_contract::{Session, Tool};

/// A call's answer: the value's `Debug` text, or the error's code, path and
/// message.
pub type Outcome = Result<String, (String, String, String)>;

/// What `T::from_arguments(text)` gives, with an empty session.
pub fn outcome<T: Tool + std::fmt::Debug>(text: &str) -> Outcome {
    T::from_arguments(text, &Session::new())
        .map(|v| format!("{v:?}"))
        .map_err(|e| {
            (
                e.code().to_owned(),
                e.path().to_owned(),
                e.message().to_owned(),
            )
        })
}

/// Asserts that both readers give the same answer for `text`; returns it
/// and whether the fast reader read the arguments object (what the
/// generated code judges after it, a missing required field, is the same
/// code on both paths).
fn answer<T: Tool + std::fmt::Debug>(text: &str) -> (Outcome, bool) {
    let fast = outcome::<T>(text);
    let read_fast = last_call_read_fast();
    let exact = with_exact_reader_only(|| outcome::<T>(text));
    assert!(!last_call_read_fast(), "the exact path read {text}");
    assert_eq!(
        fast, exact,
        "the readers disagree on {text} (left: the fast reader answered: {read_fast}; right: the exact path)"
    );
    (fast, read_fast)
}

/// Whether the fast reader read `text` (both readers' answers asserted to
/// be the same).
pub fn both<T: Tool + std::fmt::Debug>(text: &str) -> bool {
    answer::<T>(text).1
}

/// The answer both readers give for `text` (asserted to be the same).
pub fn agreed<T: Tool + std::fmt::Debug>(text: &str) -> Outcome {
    answer::<T>(text).0
}

/// Whether the `jsonschema` crate accepts `document` against the tool's
/// input schema, formats checked.
pub fn schema_accepts<T: Tool>(document: &Value) -> bool {
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(T::input_schema())
        .unwrap()
        .is_valid(document)
}
