//! The differential property test: the parser and the schema
//! agree at every depth.
//!
//! For a rich set of tools (nested structs, every serde enum representation,
//! lists, sets, optional and defaulted fields, constraints and formats at
//! every depth via schemars attributes), argument documents are generated
//! from the tool's input schema, valid ones and mutations of them (a value
//! of another kind, an unknown key, a missing key, a value just outside a
//! bound, a wrong tag). Each is accepted by `from_arguments` exactly when the
//! `jsonschema` crate accepts it against the input schema (formats checked).
//!
//! The documented exceptions, each tested below:
//! - `null` for a defaulted top-level field means "use the default" (the
//!   strict schema says the field is nullable; the input schema leaves it out
//!   of `required`), so the reference judges the document without that key;
//! - integers beyond the Rust type's range are not generated (serde refuses
//!   them; schemars states no bound for `u64`/`i64`);
//! - `Currency` is checked against the ISO 4217 list, which the schema
//!   states as `^[A-Z]{3}$` and a description (tests/parse/depth.rs).
//!
//! And every document valid against the tool's OpenAI strict schema that
//! also meets the input schema's constraints (which the strict compiler may
//! move into descriptions) is accepted.
//!
//! The same check runs as the fuzz target `schema_agree` (fuzz/).

use crate::schema_agree;

use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::json;
use tool_contract::{Session, Tool};

use schema_agree::{Rng, SearchAndPay, generate, parser_accepts, schema_accepts};

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(2_000))]

    #[test]
    fn the_parser_accepts_exactly_what_the_input_schema_accepts(seed in 1..u64::MAX, mutate in prop_oneof![Just(0u64), 1..30u64]) {
        let schema = SearchAndPay::input_schema();
        let document = generate(schema, schema, &mut Rng::seeded(seed), mutate, 0);
        let expected = schema_accepts(&document);
        let parsed = parser_accepts(&document);
        prop_assert_eq!(parsed.is_ok(), expected, "{} -> {:?}", document, parsed);
    }

    #[test]
    fn what_the_strict_schema_and_the_constraints_accept_is_parsed(seed in 1..u64::MAX) {
        let strict = tool_contract::openai::strict_schema::<SearchAndPay>().unwrap();
        let validator = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(strict)
            .unwrap();
        let document = generate(strict, strict, &mut Rng::seeded(seed), 0, 0);
        if validator.is_valid(&document) && schema_accepts(&document) {
            prop_assert_eq!(parser_accepts(&document), Ok(()), "{}", document);
        }
    }
}

/// The generator reaches both sides: valid documents and refused ones.
#[test]
fn the_generator_reaches_valid_and_invalid_documents() {
    let schema = SearchAndPay::input_schema();
    let (mut valid, mut invalid) = (0, 0);
    for seed in 1..400u64 {
        for mutate in [0, 10] {
            let document = generate(schema, schema, &mut Rng::seeded(seed), mutate, 0);
            if schema_accepts(&document) {
                valid += 1;
            } else {
                invalid += 1;
            }
        }
    }
    assert!(
        valid >= 40 && invalid >= 40,
        "valid {valid}, invalid {invalid}"
    );
}

/// The documented exception: `null` for a defaulted field is the default.
#[test]
fn null_for_a_defaulted_field_is_the_one_exception() {
    let document = json!({"query": "shoes", "page": null, "pairs": []});
    let validator = jsonschema::draft202012::options()
        .build(SearchAndPay::input_schema())
        .unwrap();
    assert!(!validator.is_valid(&document));
    assert!(schema_accepts(&document));
    let parsed = SearchAndPay::from_arguments(&document.to_string(), &Session::new()).unwrap();
    assert_eq!(parsed.page, 0);
}

/// Sets keep serde's duplicates out: the schema says `uniqueItems`.
#[test]
fn duplicate_items_of_a_set_are_refused_as_the_schema_says() {
    let document = json!({"query": "shoes", "pairs": [], "filters": {"country": "UK", "kinds": ["book", "book"]}});
    assert!(!schema_accepts(&document));
    assert_eq!(
        parser_accepts(&document),
        Err("$.filters.kinds: expected unique items, item 1 repeats item 0".to_owned())
    );
}
