//! The differential check of tests/parse/schema_agreement.rs, driven by the
//! fuzzer's bytes: a document drawn from the rich tool's input schema (each
//! choice one byte; the first byte sets how often a node is mutated) is
//! parsed exactly when the `jsonschema` crate accepts it against the input
//! schema, with the one documented exception (null for a defaulted field).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_contract::Tool;

#[path = "../../tests/schema_agree/mod.rs"]
mod schema_agree;

use schema_agree::{Rng, SearchAndPay, generate, parser_accepts, schema_accepts};

fuzz_target!(|data: &[u8]| {
    let Some((&mutate, choices)) = data.split_first() else {
        return;
    };
    let schema = SearchAndPay::input_schema();
    let document = generate(
        schema,
        schema,
        &mut Rng::from_bytes(choices),
        u64::from(mutate % 40),
        0,
    );
    let expected = schema_accepts(&document);
    let parsed = parser_accepts(&document);
    assert_eq!(parsed.is_ok(), expected, "{document} -> {parsed:?}");
});
