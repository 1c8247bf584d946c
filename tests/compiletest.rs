//! The derive's compile-time rules, as a user meets them: every program
//! under `tests/ui` fails to compile with its committed message, and every
//! program under `tests/ui-pass` compiles.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui-pass/*.rs");
}
