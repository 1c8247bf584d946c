//! Attacks on object arguments and the case folding
//! of enum values for Anthropic strict calls: the fold must change the
//! casing of enum values and nothing else, so that a mis-cased call parses
//! exactly as the same call written with the right casing.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tool_contract::anthropic::{StreamAssembler, ToolSet};
use tool_contract::{EnumCase, Session, Tool, ToolCall};

/// How fast to ship.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Speed {
    /// Next day.
    Fast,
    /// Within a week.
    Slow,
}

/// Ship a batch of serial-numbered parts.
#[derive(Debug, PartialEq, Tool)]
#[tool(effect = "write", idempotent = false)]
struct ShipParts {
    /// How fast to ship.
    speed: Speed,
    /// The first serial number of the batch, e.g. 123456789012345678901.
    first_serial: u128,
}

const SERIAL: u128 = 123_456_789_012_345_678_901;

/// The control: written with the declared casing, the serial number (above
/// `u64::MAX`) parses exactly, with or without case folding.
#[test]
fn a_large_serial_parses_when_the_enum_is_cased_right() {
    let text = r#"{"speed":"fast","first_serial":123456789012345678901}"#;
    for case in [EnumCase::Exact, EnumCase::Insensitive] {
        let call = ShipParts::from_arguments_with(text, &Session::new(), case).unwrap();
        assert_eq!(call.first_serial, SERIAL);
        assert_eq!(call.speed, Speed::Fast);
    }
}

/// The break: the same call with `"FAST"` is folded by reading the whole
/// text into a `serde_json::Value` (no arbitrary precision) and writing it
/// back, which turns every integer above `u64::MAX` into an `f64`
/// (`1.2345678901234568e20`): the fold changes a number, not just the
/// enum's casing, and the call is refused (or, for an `f64` field, read
/// as another value) only because the model mis-cased an enum.
#[test]
fn folding_an_enum_value_keeps_a_large_integer_exact() {
    let text = r#"{"speed":"FAST","first_serial":123456789012345678901}"#;
    let call = ShipParts::from_arguments_with(text, &Session::new(), EnumCase::Insensitive);
    let call = call.map_err(|e| e.to_string()).unwrap();
    assert_eq!(call.first_serial, SERIAL);
    assert_eq!(call.speed, Speed::Fast);
    // The call's own path does the same.
    let call = ToolCall::new("toolu_1", "ship_parts", text).with_enum_case(EnumCase::Insensitive);
    assert_eq!(
        call.arguments_to_parse(ShipParts::input_schema(), &Session::new()),
        r#"{"speed":"fast","first_serial":123456789012345678901}"#
    );
}

/// The same break where a user meets it: a streamed Anthropic call keeps
/// the model's text exactly (the assembler joins `partial_json`), and the
/// strict tool set marks the call for case folding, which rewrites the
/// serial number.
#[test]
fn a_streamed_strict_call_with_a_mis_cased_enum_keeps_its_serial_number() {
    let tools = ToolSet::new(&[ShipParts::contract()]).unwrap();
    let mut stream = StreamAssembler::new();
    for event in [
        json!({"type": "message_start", "message": {"model": "m", "content": []}}),
        json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "tool_use", "id": "toolu_1", "name": "ship_parts", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta",
            "partial_json": "{\"speed\": \"Fast\", \"first_serial\": 123456789012345678901}"}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
        json!({"type": "message_stop"}),
    ] {
        stream.push(&event).unwrap();
    }
    let mut calls = stream.finish().unwrap().calls;
    tools.mark(&mut calls[0]);
    assert_eq!(calls[0].enum_case, EnumCase::Insensitive);
    let parsed = calls[0]
        .parse::<ShipParts>(&Session::new())
        .map_err(|e| format!("{e:?}"))
        .unwrap();
    assert_eq!(parsed.first_serial, SERIAL);
    assert_eq!(parsed.speed, Speed::Fast);
}

/// The case fold once walked the whole argument rebuilding, per string,
/// the schemas at its place and lower-casing every allowed value: items ×
/// variants work (10,000 items of a 250-value enum, 70 KB, took about 11 s
/// in a debug build), for a call the parser then refuses at once
/// (`maxItems: 10`). The fold now gathers each place of the schema once
/// (`tool-core/src/parse/fold.rs`, unit test
/// `a_place_is_gathered_once_for_all_its_values`); here the same call is
/// folded item by item, every byte but the folded strings kept (the
/// parser then refuses it for its length, as it would unfolded).
#[test]
fn a_long_array_of_a_large_enum_is_folded_item_by_item() {
    let variants: Vec<serde_json::Value> = (0..250)
        .map(|n| json!({"const": format!("C{n:03}"), "description": format!("Country {n}.")}))
        .collect();
    let schema = json!({"type": "object", "properties": {
        "countries": {"type": "array", "items": {"$ref": "#/$defs/Country"}, "maxItems": 10}
    }, "required": ["countries"], "$defs": {"Country": {"oneOf": variants}}});
    let items: Vec<String> = (0..10_000)
        .map(|n| format!("\"c{:03}\"", n % 250))
        .collect();
    let text = format!("{{\"countries\":[{}]}}", items.join(","));
    assert_eq!(text.len(), 70_015);
    let call = ToolCall::new("toolu_1", "pick_countries", text.as_str())
        .with_enum_case(EnumCase::Insensitive);
    let folded = call.arguments_to_parse(&schema, &Session::new());
    assert_eq!(
        folded,
        text.to_uppercase().replace("COUNTRIES", "countries")
    );
}
