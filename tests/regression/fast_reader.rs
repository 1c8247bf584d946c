//! Attacks on the fast reader (`tool-core/src/parse/fast.rs`): texts where
//! the fast reader and the exact path (serde_json with the schema walk of
//! `guided.rs`) give different answers, and texts the input schema refuses
//! that the parser accepts.
//!
//! Tests marked `// holds` probe a corner that held when the attack was
//! written; the others failed then and pass since the fixes (an `f32` read
//! as serde_json reads it and judged in single precision; the JSON type the
//! schema states checked at every value, with no shortcut that trusts the
//! Rust type; serde_json's `RawValue` key refused; a form feed is not "no
//! arguments"). The sections below describe each attack as it was found.

use crate::readers;

use std::collections::{BTreeMap, HashMap};

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tool_contract::{Session, Tool};

use readers::{both, outcome, schema_accepts};

fn refused<T: Tool + std::fmt::Debug>(text: &str, path: &str) {
    match T::from_arguments(text, &Session::new()) {
        Ok(v) => panic!(
            "accepted {text:?} as {v:?}; the schema refuses it (expected INVALID_ARGUMENTS at {path})"
        ),
        Err(e) => {
            assert_eq!(e.code(), "INVALID_ARGUMENTS", "{text}: {e}");
            assert_eq!(e.path(), path, "{text}: {e}");
        }
    }
}

// ---------------------------------------------------------------------------
// f32: serde_json is built with `float_roundtrip` (the workspace enables
// it), so its `deserialize_f32` parses the digits straight to single
// precision (and calls a value beyond f32 "number out of range"). The fast
// reader parses every float as f64 and hands it to the f32 visitor, which
// rounds it a second time with `as f32`.
// ---------------------------------------------------------------------------

/// Set the gain of the amplifier.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct SetGain {
    /// The gain factor.
    pub gain: f32,
    /// Per-channel trims.
    pub trims: Option<Vec<f32>>,
}

/// Double rounding: the decimal lies just above the midpoint between the
/// f32 values 1.0 and 1.0000001; f64 rounds it to the midpoint exactly and
/// `as f32` then ties to even (1.0). serde_json's single-precision parse
/// gives 1.0000001. Fast: gain 1.0; exact: gain 1.0000001.
#[test]
fn f32_double_rounding_disagrees() {
    both::<SetGain>(r#"{"gain": 1.000000059604644775390625001}"#);
}

/// Same at depth, inside a list.
#[test]
fn f32_double_rounding_disagrees_in_a_list() {
    both::<SetGain>(r#"{"gain": 1, "trims": [0.5, 1.000000059604644775390625001]}"#);
}

/// Beyond f32's range: serde_json (single precision) says "number out of
/// range"; the fast reader reads 1e39 as f64 and `as f32` makes it
/// infinity, and the call is accepted with gain = inf.
#[test]
fn f32_beyond_its_range_is_accepted_as_infinity_by_the_fast_reader() {
    both::<SetGain>(r#"{"gain": 1e39}"#);
}

#[test]
fn f32_beyond_its_range_is_refused() {
    refused::<SetGain>(r#"{"gain": 1e39}"#, "$.gain");
    refused::<SetGain>(r#"{"gain": -3.5e38}"#, "$.gain");
}

/// The knob of a mixer.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Knob {
    /// Where the knob is, at most 0.1.
    #[schemars(range(max = 0.1))]
    pub ratio: f32,
}

/// The smallest step of a fader.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Step {
    /// The step, at least 1e-46.
    #[schemars(range(min = 1e-46))]
    pub size: f32,
}

/// Turn the knobs of the mixer.
#[derive(Debug, Tool)]
pub struct TurnKnob {
    /// Where to turn the mixer's knob, e.g. {"ratio": 0.05}.
    pub knob: Knob,
    /// The fader's step; null for the default.
    pub step: Option<Step>,
}

/// The bound is checked against the number the reader read: the exact path
/// reads 0.1 as the f32 0.100000001490116 and refuses it (above the
/// maximum 0.1); the fast reader checks the f64 0.1 and accepts.
#[test]
fn f32_bound_is_judged_on_different_numbers() {
    both::<TurnKnob>(r#"{"knob": {"ratio": 0.1}}"#);
}

/// 2e-46 is above the minimum 1e-46, but f32 holds it as 0.0: the exact
/// path refuses (0 < minimum); the fast reader accepts and the tool gets
/// size = 0.0, below its own minimum.
#[test]
fn f32_below_its_minimum_after_rounding() {
    both::<TurnKnob>(r#"{"knob": {"ratio": 0.05}, "step": {"size": 2e-46}}"#);
}

// holds: a float that f32 holds exactly gets the same answer.
#[test]
fn f32_exact_values_agree() {
    for text in [
        r#"{"gain": 0.5}"#,
        r#"{"gain": -0.0}"#,
        r#"{"gain": 16777217}"#,
        r#"{"gain": 1e-50}"#,
        r#"{"gain": 3.4028235e38}"#,
        r#"{"gain": 1.5, "trims": null}"#,
        r#"{"gain": 1.5, "trims": []}"#,
    ] {
        both::<SetGain>(text);
    }
}

// ---------------------------------------------------------------------------
// The schema's type is not enforced for a value a type reads with
// `deserialize_any` (neither path checks the JSON type of a scalar, or
// whether null is allowed: serde's visitor is trusted to).
// ---------------------------------------------------------------------------

/// A note kept with a ticket.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Memo {
    /// The memo's text.
    #[schemars(with = "String")]
    pub text: Value,
}

/// Open a support ticket.
#[derive(Debug, Tool)]
pub struct OpenTicket {
    /// What the customer wrote, e.g. {"text": "broken"}.
    pub memo: Memo,
}

/// The schema says `"type": "string"` for `$.memo.text`; a number, an
/// object, null are accepted by both paths.
#[test]
fn a_scalar_type_the_schema_states_is_enforced() {
    for text in [
        r#"{"memo": {"text": 5}}"#,
        r#"{"memo": {"text": null}}"#,
        r#"{"memo": {"text": {"a": 1}}}"#,
        r#"{"memo": {"text": [1]}}"#,
    ] {
        let doc: Value = serde_json::from_str(text).unwrap();
        assert!(!schema_accepts::<OpenTicket>(&doc), "{text}");
    }
    let accepted: Vec<String> = [
        r#"{"memo": {"text": 5}}"#,
        r#"{"memo": {"text": null}}"#,
        r#"{"memo": {"text": {"a": 1}}}"#,
        r#"{"memo": {"text": [1]}}"#,
    ]
    .iter()
    .filter_map(|text| {
        OpenTicket::from_arguments(text, &Session::new())
            .ok()
            .map(|v| format!("{text} -> {v:?}"))
    })
    .collect();
    assert!(
        accepted.is_empty(),
        "the schema refuses these, the parser accepts: {accepted:#?}"
    );
}

// holds: the same tool's valid call is read fast and agrees.
#[test]
fn memo_valid_agrees() {
    assert!(both::<OpenTicket>(r#"{"memo": {"text": "hi"}}"#));
    both::<OpenTicket>(r#"{"memo": {"text": 5}}"#);
}

// ---------------------------------------------------------------------------
// The root: "empty arguments" is decided with Rust's `is_ascii_whitespace`,
// which includes form feed (not JSON whitespace).
// ---------------------------------------------------------------------------

/// List the open tickets.
#[derive(Debug, Tool)]
pub struct ListTickets {
    /// Page, from 0; null for the first.
    pub page: Option<u32>,
}

/// A lone form feed is not JSON, nor empty: it is taken as "no arguments".
#[test]
fn a_form_feed_alone_is_not_no_arguments() {
    refused::<ListTickets>("\u{c}", "$");
    refused::<ListTickets>(" \u{c} ", "$");
}

// holds: JSON whitespace alone, and a form feed before a real object.
#[test]
fn root_whitespace_corners_agree() {
    for text in [
        "",
        " \n\t\r",
        "\u{c}{}",
        "{}\u{c}",
        "\u{feff}{}",
        "{}\u{a0}",
        "{\"page\": 1}  ",
        "{\"page\": 1} {}",
        "{\"page\": 1",
        "{\"page\": 1,}",
        "{\"page\": 1}}",
        "{\"page\" : 1 , \"page\": 2}",
        "{\"page\": -0}",
        "{\"page\": 0e0}",
        "{\"page\": 1.0}",
        "{\"page\": 4294967296}",
        "{\"page\": 18446744073709551616}",
        "{\"page\": \u{c}1}",
        "{\"pa\\u0067e\": 1}",
        "{\"page\\u0000\": 1}",
        "{\"page\": null}",
        "{\"page\": nul}",
        "{\"page\": nulll}",
    ] {
        both::<ListTickets>(text);
    }
}

// ---------------------------------------------------------------------------
// Corners that hold (the two readers agree).
// ---------------------------------------------------------------------------

/// A labelled bag of things.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Bag {
    /// Labels by name.
    pub labels: HashMap<String, u8>,
    /// Counts by name, ordered.
    pub counts: BTreeMap<String, i64>,
    /// One letter.
    pub letter: char,
    /// A pair.
    pub pair: (u8, String),
    /// Maybe maybe a number.
    #[serde(default)]
    pub maybe: Option<Option<u16>>,
    /// Big number.
    pub big: u128,
    /// Signed big number.
    pub signed_big: i128,
    /// Old name too.
    #[serde(alias = "oldName")]
    pub new_name: Option<String>,
    /// Nested lists.
    pub grid: Option<Vec<Option<Vec<i8>>>>,
    /// A newtype.
    pub tag: Tag,
    /// A tuple struct.
    pub point: Point,
    /// A unit struct.
    pub marker: Option<Marker>,
    /// Raw bytes as numbers.
    pub bytes: Vec<u8>,
}

/// A tag.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Tag(pub String);

/// A point.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Point(pub i32, pub i32);

/// A marker.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Marker;

/// A tree.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct TreeNode {
    /// The node's name.
    pub name: String,
    /// Its children.
    pub children: Vec<TreeNode>,
    /// Its parent's copy.
    pub up: Option<Box<TreeNode>>,
}

/// A shape, every representation.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind")]
pub enum Shape {
    /// A circle.
    Circle {
        /// Radius.
        r: u8,
    },
    /// Nothing.
    Empty,
}

/// A colour.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// Red.
    Red,
    /// Blue.
    Blue,
}

/// An external enum.
#[derive(Debug, Deserialize, JsonSchema)]
pub enum Ext {
    /// A unit.
    Unit,
    /// A newtype.
    New(u8),
    /// A tuple.
    Tup(u8, u8),
    /// A struct.
    St {
        /// A.
        a: u8,
    },
}

/// Untagged.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Either {
    /// A number.
    Num(u32),
    /// A text.
    Text(String),
}

/// Adjacent.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
pub enum Adj {
    /// A.
    A(u8),
    /// B.
    B,
}

/// Flattened parts.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Outer {
    /// Own field.
    pub own: u8,
    /// Flattened.
    #[serde(flatten)]
    pub inner: Inner,
}

/// Inner part.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Inner {
    /// A float.
    pub level: f32,
    /// A word.
    #[schemars(length(max = 3))]
    pub word: String,
}

/// Anything.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Anything {
    /// Any JSON.
    pub data: Value,
    /// A JSON object.
    pub map: Option<serde_json::Map<String, Value>>,
}

/// Store a bag of things.
#[derive(Debug, Tool)]
pub struct StoreBag {
    /// What goes in the stored bag; null for nothing.
    pub bag: Option<Bag>,
    /// A family of named nodes; null for none.
    pub tree: Option<TreeNode>,
    /// Figures to draw, each tagged by kind; null for none.
    pub shapes: Option<Vec<Shape>>,
    /// Paint to use in order; null for none.
    pub colours: Option<Vec<Option<Colour>>>,
    /// Externally tagged values in order; null for none.
    pub exts: Option<Vec<Ext>>,
    /// Numbers or texts in order; null for none.
    pub either: Option<Vec<Either>>,
    /// Adjacently tagged values; null for none.
    pub adj: Option<Vec<Adj>>,
    /// A record with flattened parts; null for none.
    pub outer: Option<Outer>,
    /// Free JSON kept with the bag; null for none.
    pub any: Option<Anything>,
    /// A word of at most 20 characters.
    #[tool(max_length = 20)]
    pub word: Option<String>,
}

fn bag(fields: &str) -> String {
    let base = r#""labels": {"a": 1}, "counts": {"x": -1}, "letter": "z", "pair": [1, "p"], "big": 1, "signedBig": -1, "tag": "t", "point": [1, 2], "bytes": [0, 255]"#;
    format!(r#"{{"bag": {{{base}{fields}}}}}"#)
}

// holds
#[test]
fn serde_shapes_agree() {
    let mut texts = vec![
        bag(""),
        bag(r#", "maybe": null"#),
        bag(r#", "maybe": 5"#),
        bag(r#", "oldName": "o""#),
        bag(r#", "newName": "n""#),
        bag(r#", "newName": "n", "oldName": "o""#),
        bag(r#", "grid": [null, [1, -128], []]"#),
        bag(r#", "grid": [[128]]"#),
        bag(r#", "marker": null"#),
        bag(r#", "marker": {}"#),
        bag(r#", "bogus": 1"#),
        bag(r#", "labels": {"a": 2}"#),
        bag(r#", "big": 340282366920938463463374607431768211455"#),
        bag(r#", "big": 1e2"#),
        bag(r#", "big": -1"#),
        bag(r#", "signedBig": -170141183460469231731687303715884105728"#),
        bag(r#", "letter": "\u00e9""#),
        bag(r#", "letter": "ab""#),
        bag(r#", "letter": "\ud83d\ude00""#),
        bag(r#", "letter": 5"#),
        bag(r#", "pair": [1, "p", 2]"#),
        bag(r#", "pair": {"0": 1}"#),
        bag(r#", "point": [1]"#),
        bag(r#", "bytes": "AAE=""#),
    ];
    texts.push(r#"{"bag": {"labels": {"\ud800": 1}}}"#.to_owned());
    texts.push(
        r#"{"bag": {"labels": {"a\u0000": 1, "a\u0000": 2}, "counts": {"k": 1, "k": 2}, "letter": "z", "pair": [1, "p"], "big": 1, "signedBig": -1, "tag": "t", "point": [1, 2], "bytes": []}}"#
            .to_owned(),
    );
    for t in [
        r#"{"tree": {"name": "a", "children": [{"name": "b", "children": [], "up": null}], "up": {"name": "p", "children": []}}}"#,
        r#"{"tree": {"name": "a", "children": [{"name": "b", "children": [], "bogus": 1}]}}"#,
        r#"{"shapes": [{"kind": "Circle", "r": 1}, {"kind": "Empty"}, {"r": 2, "kind": "Circle"}]}"#,
        r#"{"shapes": [{"kind": "Circle", "r": 1.0}]}"#,
        r#"{"shapes": [{"kind": "Empty", "extra": 1}]}"#,
        r#"{"colours": ["red", null, "blue"]}"#,
        r#"{"colours": [{"red": null}]}"#,
        r#"{"colours": ["r\u0065d"]}"#,
        r#"{"colours": ["Red"]}"#,
        r#"{"exts": ["Unit", {"New": 1}, {"Tup": [1, 2]}, {"St": {"a": 1}}]}"#,
        r#"{"exts": [{"Unit": null}]}"#,
        r#"{"exts": [{"St": [1]}]}"#,
        r#"{"exts": [{"New": 1, "Tup": [1, 2]}]}"#,
        r#"{"either": [1, "x", 1.0, -0, 4294967296]}"#,
        r#"{"adj": [{"t": "A", "c": 1}, {"t": "B"}, {"c": 2, "t": "A"}]}"#,
        r#"{"outer": {"own": 1, "level": 0.5, "word": "abc"}}"#,
        r#"{"outer": {"own": 1, "level": 1.000000059604644775390625001, "word": "abc"}}"#,
        r#"{"outer": {"own": 1, "level": 0.5, "word": "abcd"}}"#,
        r#"{"outer": {"own": 1, "level": 0.5, "word": "abc", "zzz": 1}}"#,
        r#"{"any": {"data": {"a": 1, "a": 2, "b": [-0, 1e400]}}}"#,
        r#"{"any": {"data": {"a": 1, "b": 2, "a": 3}}}"#,
        r#"{"any": {"data": {"$serde_json::private::RawValue": "[1, 2]"}}}"#,
        r#"{"any": {"data": 1e-400}}"#,
        r#"{"any": {"data": -9223372036854775808}}"#,
        r#"{"any": {"data": -9223372036854775809}}"#,
        r#"{"any": {"data": 18446744073709551615}}"#,
        r#"{"any": {"data": 18446744073709551616}}"#,
        r#"{"any": {"data": 0.30000000000000000000000000000000001}}"#,
        r#"{"any": {"data": "\ud83d\ude00 \/ \u0000"}}"#,
        r#"{"any": {"data": ["\udc00"]}}"#,
        r#"{"any": {"data": null, "map": {"k": "\ud800\u0041"}}}"#,
        r#"{"any": {"data": null, "map": {"k": [1,]}}}"#,
        r#"{"any": {"data": null, "map": {"k": [1}}}"#,
        r#"{"any": {"data": null, "map": null}}"#,
    ] {
        texts.push(t.to_owned());
    }
    for text in &texts {
        both::<StoreBag>(text);
    }
    // Not vacuous: the contract compiles and the plain calls are read.
    assert!(StoreBag::from_arguments(&bag(""), &Session::new()).is_ok());
    assert!(both::<StoreBag>(
        r#"{"shapes": [{"kind": "Empty"}], "exts": ["Unit", {"New": 1}], "any": {"data": [1, "x"]}}"#
    ));
}

// holds: strings of every length up to 40 with a quote, a backslash escape,
// a control character or a multi-byte character at every offset.
#[test]
fn long_strings_around_chunk_boundaries_agree() {
    let specials = [
        "\\\"",
        "\\\\",
        "\\n",
        "\\u00e9",
        "\u{e9}",
        "\u{1F600}",
        "\u{1}",
        "\"",
        "\\",
    ];
    for len in 0..40 {
        for at in 0..=len {
            for s in specials {
                let mut body = "x".repeat(len);
                body.insert_str(at, s);
                let text = format!(r#"{{"word": "{body}"}}"#);
                both::<StoreBag>(&text);
                let text = format!(r#"{{"any": {{"data": {{"{body}": 1}}}}}}"#);
                both::<StoreBag>(&text);
            }
        }
    }
}

// holds: nesting around the fast reader's limit (100) and serde_json's (128).
#[test]
fn deep_nesting_agrees() {
    for depth in [95, 96, 97, 98, 99, 100, 101, 125, 126, 127, 128, 129] {
        let text = format!(
            r#"{{"any": {{"data": {}1{}}}}}"#,
            "[".repeat(depth),
            "]".repeat(depth)
        );
        both::<StoreBag>(&text);
        let text = format!(
            r#"{{"any": {{"data": {}1{}}}}}"#,
            r#"{"a":"#.repeat(depth),
            "}".repeat(depth)
        );
        both::<StoreBag>(&text);
    }
}

// holds: the derive's own checks agree on both paths.
#[test]
fn tool_level_corners_agree() {
    for text in [
        r#"{"word": "\ud800"}"#,
        r#"{"word": "aaaaaaaaaaaaaaaaaaaaa"}"#,
        r#"{"word": "aaaaaaaaaaaaaaaaaaa\u00e9"}"#,
        r#"{"word": null, "word": "a"}"#,
        r#"{"wo\u0072d": "a"}"#,
        r#"{"bogus": 1}"#,
        r#"{"word": "a"}garbage"#,
        "{\"word\": \"a\u{7f}\"}",
        "{\"word\": \"a\u{1f}\"}",
    ] {
        both::<StoreBag>(text);
    }
    let doc = json!({"word": "a"});
    assert!(schema_accepts::<StoreBag>(&doc));
}

// ---------------------------------------------------------------------------
// Probe: single-variant enums (a oneOf of one may be folded away) and what
// the walk checks inside an enum's variant.
// ---------------------------------------------------------------------------

/// One way to pay.
#[derive(Debug, Deserialize, JsonSchema)]
pub enum OnlyCard {
    /// A card, by its last digits.
    Card {
        /// The last four digits.
        #[schemars(regex(pattern = r"^[0-9]{4}$"))]
        last4: String,
    },
}

/// One size.
#[derive(Debug, Deserialize, JsonSchema)]
pub enum OnlySize {
    /// The size in centimetres, at most 5.
    Cm(#[schemars(range(max = 5))] u8),
}

/// Buy a ticket with one way to pay.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct BuyTicket {
    /// How to pay, e.g. {"Card": {"last4": "1234"}}.
    pub method: OnlyCard,
    /// The ticket's size, e.g. {"Cm": 3}; null for the default.
    pub size: Option<OnlySize>,
}

// holds: the compiler keeps a oneOf of one (the value is buffered and
// checked whole). The schema says `last4` matches ^[0-9]{4}$ and the size is at most 5.
#[test]
fn a_single_variant_enum_is_held_to_its_schema() {
    let mut accepted = Vec::new();
    for text in [
        r#"{"method": {"Card": {"last4": "12345"}}}"#,
        r#"{"method": {"Card": {"last4": "1234", "bogus": 1}}}"#,
        r#"{"method": {"Card": {"last4": "1234"}}, "size": {"Cm": 9}}"#,
    ] {
        let doc: Value = serde_json::from_str(text).unwrap();
        let schema = schema_accepts::<BuyTicket>(&doc);
        both::<BuyTicket>(text);
        if let Ok(v) = BuyTicket::from_arguments(text, &Session::new())
            && !schema
        {
            accepted.push(format!("{text} -> {v:?}"));
        }
    }
    assert!(
        accepted.is_empty(),
        "the schema refuses these, the parser accepts: {accepted:#?}"
    );
}

// holds
#[test]
fn single_variant_enum_valid_agrees() {
    both::<BuyTicket>(r#"{"method": {"Card": {"last4": "1234"}}, "size": {"Cm": 3}}"#);
    both::<BuyTicket>(r#"{"method": "Card"}"#);
    both::<BuyTicket>(r#"{"method": {"Card": {"last4": "1234"}, "Card": {"last4": "1234"}}}"#);
}

// ---------------------------------------------------------------------------
// serde_json's `Value` turns an object with the one key
// "$serde_json::private::RawValue" (raw_value feature, enabled) into the
// JSON its string holds: the schema is checked on the object, the tool
// gets something else.
// ---------------------------------------------------------------------------

/// Attributes of a product.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Attrs {
    /// Attribute values by name, all strings.
    #[schemars(with = "BTreeMap<String, String>")]
    pub values: Value,
}

/// Tag a product with attributes.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct TagProduct {
    /// The attributes, e.g. {"values": {"colour": "red"}}.
    pub attrs: Attrs,
}

/// The text meets the schema (an object of strings) on both paths, and the
/// tool is handed an array of numbers.
#[test]
fn a_raw_value_token_key_changes_the_value_after_the_check() {
    let text = r#"{"attrs": {"values": {"$serde_json::private::RawValue": "[1, 2]"}}}"#;
    // Built with `json!` (inserted, not parsed: serde_json's own parse of
    // the text makes the array already).
    let doc = json!({"attrs": {"values": {"$serde_json::private::RawValue": "[1, 2]"}}});
    assert!(schema_accepts::<TagProduct>(&doc));
    both::<TagProduct>(text);
    match TagProduct::from_arguments(text, &Session::new()) {
        Ok(v) => assert!(
            v.attrs.values.is_object(),
            "the schema says object of strings; the tool got {:?}",
            v.attrs.values
        ),
        Err(e) => assert_eq!(e.code(), "INVALID_ARGUMENTS"),
    }
}

// holds (probe): a recursive type nested near both limits does not
// overflow the stack on either path (each level is read through the
// generated visitors and, on the exact path, the walk's wrappers).
#[test]
fn deep_recursive_type_agrees() {
    for depth in [40, 49, 50, 51, 63, 64, 98, 99, 100, 101, 126, 127, 128] {
        let mut text = String::from(r#"{"name": "x", "children": []}"#);
        for _ in 0..depth {
            text = format!(r#"{{"name": "x", "children": [], "up": {text}}}"#);
        }
        both::<StoreBag>(&format!(r#"{{"tree": {text}}}"#));
        let mut text = String::from(r#"{"name": "x", "children": []}"#);
        for _ in 0..depth / 2 {
            text = format!(r#"{{"name": "x", "children": [{text}]}}"#);
        }
        both::<StoreBag>(&format!(r#"{{"tree": {text}}}"#));
    }
}

// ---------------------------------------------------------------------------
// `#[serde(flatten)]`: serde reads the flattened fields' values with
// `deserialize_any` into its own buffer and fills the types from that, so
// a struct there is filled from an array and a unit-only enum from
// `{"variant": null}`, whatever the walk's node says.
// ---------------------------------------------------------------------------

/// A place.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Place {
    /// Street and number.
    pub street: String,
    /// The city.
    pub city: String,
}

/// Where something is.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Located {
    /// The place, an object.
    pub place: Place,
    /// Its colour, a string.
    pub colour: Colour,
}

/// A pickup request.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Pickup {
    /// Boxes to take.
    pub boxes: u8,
    /// Where.
    #[serde(flatten)]
    pub at: Located,
}

/// Book a pickup of parcels.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct BookPickup {
    /// The pickup, e.g. {"boxes": 1, "place": {"street": "Main St 1", "city": "Berlin"}, "colour": "red"}.
    pub pickup: Pickup,
}

/// The schema says `place` is an object and `colour` a string; through the
/// flatten, an array fills the struct (fields in declaration order) and an
/// object `{"red": null}` the enum.
#[test]
fn flattened_fields_keep_the_schema() {
    let valid = r#"{"pickup": {"boxes": 1, "place": {"street": "Main St 1", "city": "Berlin"}, "colour": "red"}}"#;
    assert!(BookPickup::from_arguments(valid, &Session::new()).is_ok());
    let schema = serde_json::to_string(BookPickup::input_schema()).unwrap();
    let mut accepted = Vec::new();
    for (text, doc) in [
        (
            r#"{"pickup": {"boxes": 1, "place": ["Main St 1", "Berlin"], "colour": "red"}}"#,
            json!({"pickup": {"boxes": 1, "place": ["Main St 1", "Berlin"], "colour": "red"}}),
        ),
        (
            r#"{"pickup": {"boxes": 1, "place": {"street": "Main St 1", "city": "Berlin"}, "colour": {"red": null}}}"#,
            json!({"pickup": {"boxes": 1, "place": {"street": "Main St 1", "city": "Berlin"}, "colour": {"red": null}}}),
        ),
    ] {
        assert!(!schema_accepts::<BookPickup>(&doc), "{text}");
        both::<BookPickup>(text);
        if let Ok(v) = BookPickup::from_arguments(text, &Session::new()) {
            accepted.push(format!("{text} -> {v:?}"));
        }
    }
    assert!(
        accepted.is_empty(),
        "the schema refuses these, the parser accepts: {accepted:#?}\nschema: {schema}"
    );
}

/// Each attack above, with the exact answer now given (both paths agree on
/// each, as the tests above check).
#[test]
fn the_attacks_get_exact_answers() {
    let err = |path: &str, message: &str| {
        Err((
            "INVALID_ARGUMENTS".to_owned(),
            path.to_owned(),
            message.to_owned(),
        ))
    };
    // serde_json reads an `f32` in single precision here (its
    // `float_roundtrip` feature is on in this build, through jsonschema)
    // and refuses a number beyond it as "out of range"; the text is valid
    // JSON, so the refusal names the number, not the JSON.
    assert_eq!(
        outcome::<SetGain>(r#"{"gain": 1e39}"#),
        err(
            "$.gain",
            "expected a number a 32-bit float can hold (between -340282350000000000000000000000000000000 \
             and 340282350000000000000000000000000000000), got a number beyond it"
        )
    );
    assert_eq!(
        outcome::<SetGain>(r#"{"gain": 1.000000059604644775390625001}"#),
        Ok("SetGain { gain: 1.0000001, trims: None }".to_owned())
    );
    // A 32-bit float's bounds are judged as the type holds the numbers.
    assert_eq!(
        outcome::<TurnKnob>(r#"{"knob": {"ratio": 0.1}}"#),
        Ok("TurnKnob { knob: Knob { ratio: 0.1 }, step: None }".to_owned())
    );
    assert_eq!(
        outcome::<TurnKnob>(r#"{"knob": {"ratio": 0.10000001}}"#),
        err(
            "$.knob.ratio",
            "expected a number of at most 0.1, got 0.10000000894069672"
        )
    );
    // The JSON type the schema states, whatever the Rust type takes.
    for (value, got) in [
        ("5", "the number 5"),
        ("null", "null"),
        (r#"{"a": 1}"#, "an object"),
        ("[1]", "an array"),
        ("true", "the boolean true"),
    ] {
        assert_eq!(
            outcome::<OpenTicket>(&format!(r#"{{"memo": {{"text": {value}}}}}"#)),
            err("$.memo.text", &format!("expected a string, got {got}"))
        );
    }
    assert_eq!(
        outcome::<TagProduct>(
            r#"{"attrs": {"values": {"$serde_json::private::RawValue": "[1, 2]"}}}"#
        ),
        err(
            "$.attrs.values[\"$serde_json::private::RawValue\"]",
            "the key \"$serde_json::private::RawValue\" is reserved by serde_json; use another name"
        )
    );
    assert_eq!(
        outcome::<BookPickup>(
            r#"{"pickup": {"boxes": 1, "place": ["Main St 1", "Berlin"], "colour": "red"}}"#
        ),
        err("$.pickup.place", "expected an object, got an array")
    );
    assert_eq!(
        outcome::<BookPickup>(
            r#"{"pickup": {"boxes": 1, "place": {"street": "Main St 1", "city": "Berlin"}, "colour": {"red": null}}}"#
        ),
        err("$.pickup.colour", "expected a string, got an object")
    );
    assert_eq!(
        outcome::<ListTickets>(" \u{c} "),
        err(
            "$",
            "invalid JSON: expected a JSON value (NaN, Infinity, comments and unquoted words are not JSON) (at line 1, column 2)"
        )
    );
}

/// A note kept as the JSON text the model wrote.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct RawNote {
    /// Any JSON, kept as written.
    #[schemars(with = "serde_json::Value")]
    pub any: Box<serde_json::value::RawValue>,
    /// JSON that must be a string, kept as written.
    #[schemars(with = "String")]
    pub text: Box<serde_json::value::RawValue>,
}

/// Keep a note on a parcel.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct KeepNote {
    /// The note, e.g. {"any": [1, 2], "text": "hi"}.
    pub note: RawNote,
}

/// `RawValue` fields (serde_json hands them to the visitor under its
/// reserved key, which is no key of the arguments): kept as written when
/// their schema says nothing, checked against it when it does (the text is
/// then written again by serde_json).
#[test]
fn raw_values_are_read_and_held_to_their_schema() {
    let text = r#"{"note": {"any": [1,  2, {"a": null}], "text": "hi"}}"#;
    assert!(!both::<KeepNote>(text));
    let note = KeepNote::from_arguments(text, &Session::new()).unwrap();
    assert_eq!(note.note.any.get(), r#"[1,  2, {"a": null}]"#);
    assert_eq!(note.note.text.get(), r#""hi""#);
    assert_eq!(
        outcome::<KeepNote>(r#"{"note": {"any": 1, "text": 5}}"#),
        Err((
            "INVALID_ARGUMENTS".to_owned(),
            "$.note.text".to_owned(),
            "expected a string, got the number 5".to_owned()
        ))
    );
}
