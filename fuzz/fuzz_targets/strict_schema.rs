//! `to_strict_json_schema` over arbitrary JSON: input that starts with `{`
//! or `[` is read as JSON text, anything else builds a value from schema
//! keywords. No panic, and every schema it emits passes the strict checker
//! and compiles again to itself.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tool_contract::openai::{check_strict_schema, to_strict_json_schema};
use tool_contract_fuzz::ValueBuilder;

const KEYS: &[&str] = &[
    "type",
    "properties",
    "required",
    "items",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "$defs",
    "definitions",
    "enum",
    "const",
    "additionalProperties",
    "description",
    "title",
    "default",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "not",
    "if",
    "prefixItems",
    "nullable",
    "examples",
    "exclusiveMaximum",
    "components",
    "schemas",
    "Pet",
    "a",
    "b",
    "a b",
    "a/b",
    "a~b",
];

const STRINGS: &[&str] = &[
    "object",
    "string",
    "integer",
    "number",
    "boolean",
    "array",
    "null",
    "#",
    "#/$defs/a",
    "#/$defs/b",
    "#/definitions/a",
    "#/$defs/a~1b",
    "#/$defs/a~0b",
    "#/properties/a",
    "#/properties/a/anyOf/0",
    "#/$defs/a/allOf/1",
    "#/$defs/a%20b",
    "#/$defs/a%2",
    "#/components/schemas/Pet",
    "#/definitions/b",
    "(?=a)",
    "(?<!a)b",
    "(",
    "[(?=]",
    "\\(?=a\\)",
    "^[a-z]+$",
    "(a)\\1",
    "uuid",
    "date-time",
    "uint32",
    "int64",
    "email",
    "a",
    "b",
    "",
];

fuzz_target!(|data: &[u8]| {
    let schema: Value = match data.first() {
        Some(b'{' | b'[') => match serde_json::from_slice(data) {
            Ok(value) => value,
            Err(_) => return,
        },
        _ => {
            let mut u = Unstructured::new(data);
            let builder = ValueBuilder {
                keys: KEYS,
                strings: STRINGS,
                max_depth: 6,
            };
            match builder.object(&mut u, 0) {
                Ok(map) => Value::Object(map),
                Err(_) => return,
            }
        }
    };
    if let Ok(once) = to_strict_json_schema(&schema) {
        if let Err(violations) = check_strict_schema(&once) {
            panic!("{schema} compiled to {once}, which breaks {violations:?}");
        }
        match to_strict_json_schema(&once) {
            Ok(twice) => assert_eq!(twice, once, "{schema} does not compile to a fixed point"),
            Err(error) => panic!("{schema} compiled to {once}, which does not compile: {error}"),
        }
    }
});
