//! Values the parser reads whole (choices, tags, maps) and values serde's
//! own readers judged before the schema could: a recursive untagged enum
//! whose time doubled with every level, keys given twice that serde_json's
//! `Value` kept the last of (a tag included), a tuple with one item too
//! many and numbers beyond a type's range answered as "invalid JSON".
//!
//! Each test asserts that both readers (the fast one and the exact path)
//! give the same exact outcome.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use tool_contract::{Tool, ToolArgs};

use crate::readers::{Outcome, agreed};

fn refusal(path: &str, message: &str) -> Outcome {
    Err(("INVALID_ARGUMENTS".into(), path.into(), message.into()))
}

/// A tree of small numbers, every level a choice between two identical
/// list shapes (which is what made each level cost twice the one below).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Nest {
    /// A leaf.
    Leaf(u8),
    /// A list of trees.
    Many(Vec<Nest>),
    /// Another list of trees.
    Also(Vec<Nest>),
}

/// Store a tree of small numbers.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct StoreTree {
    /// The tree, e.g. [1, [2, 3]].
    pub tree: Nest,
}

fn nested(depth: usize, leaf: &str) -> String {
    let mut text = leaf.to_owned();
    for _ in 0..depth {
        text = format!("[{text}]");
    }
    format!("{{\"tree\": {text}}}")
}

#[test]
fn a_recursive_untagged_enum_is_read_at_any_depth_it_takes() {
    // 21 levels took 5.4 s; 100 would have taken longer than the universe.
    let text = nested(100, "7");
    let want = format!(
        "StoreTree {{ tree: {}Leaf(7){} }}",
        "Many([".repeat(100),
        "])".repeat(100)
    );
    assert_eq!(agreed::<StoreTree>(&text), Ok(want));
    // Refused deep down: every level's two list shapes fail on the same leaf.
    let path = format!("$.tree{}", "[0]".repeat(100));
    assert_eq!(
        agreed::<StoreTree>(&nested(100, "\"x\"")),
        refusal(
            &path,
            "the string \"x\" matches none of the 3 allowed shapes described in the schema"
        )
    );
}

#[test]
fn a_recursive_untagged_enum_is_refused_in_bounded_time_for_a_leaf_beyond_its_type() {
    // The schema's `maximum: 255` beside `format: uint8` was left to
    // serde (it enforces the type's range), so the check passed 300 at
    // every level for both list shapes and serde's untagged enum tried
    // them all: 18 levels took a second, each level twice the one below.
    let path = format!("$.tree{}", "[0]".repeat(100));
    assert_eq!(
        agreed::<StoreTree>(&nested(100, "300")),
        refusal(
            &path,
            "expected an integer from 0 to 255, got the integer 300"
        )
    );
    assert_eq!(
        agreed::<StoreTree>(&nested(100, "-1")),
        refusal(
            &path,
            "expected an integer from 0 to 255, got the integer -1"
        )
    );
    assert_eq!(
        agreed::<StoreTree>(&nested(3, "255")),
        Ok("StoreTree { tree: Many([Many([Many([Leaf(255)])])]) }".into())
    );
    // A label's count is an `i32` of at least 0: the range is checked in
    // the choice too, with the declared bound.
    assert_eq!(
        agreed::<DrawShape>(
            r#"{"shape": {"kind": "circle", "radius": 1}, "label": {"n": 2147483648}}"#
        ),
        refusal(
            "$.label.n",
            "expected an integer from 0 to 2147483647, got the integer 2147483648"
        )
    );
}

/// A shape, tagged by its kind.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Shape {
    /// A circle.
    Circle {
        /// Its radius.
        radius: u32,
    },
    /// A square.
    Square {
        /// Its side, at most 100.
        #[schemars(range(max = 100))]
        side: u32,
    },
}

/// A label's choice of a text or a count.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Label {
    /// A count at least 0.
    Count {
        /// The count.
        #[schemars(range(min = 0))]
        n: i32,
    },
    /// A text.
    Text(String),
}

/// Stickers by name.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    /// How many of each sticker.
    #[serde(default)]
    pub counts: BTreeMap<String, u8>,
    /// Free notes for the printer, any JSON.
    pub notes: Option<serde_json::Value>,
}

/// Draw a shape with a label.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct DrawShape {
    /// The shape to draw, e.g. {"kind": "square", "side": 3}.
    pub shape: Shape,
    /// The label under it, a count or a text.
    pub label: Option<Label>,
    /// The sticker sheet to use.
    pub sheet: Option<Sheet>,
}

#[test]
fn a_key_given_twice_is_refused_inside_tagged_and_untagged_values_and_maps() {
    // Controls: each key once.
    assert_eq!(
        agreed::<DrawShape>(r#"{"shape": {"kind": "square", "side": 1}, "label": {"n": 2}, "sheet": {"counts": {"a": 1, "b": 2}}}"#),
        Ok(r#"DrawShape { shape: Square { side: 1 }, label: Some(Count { n: 2 }), sheet: Some(Sheet { counts: {"a": 1, "b": 2}, notes: None }) }"#.into())
    );
    // The tag twice: serde_json's `Value` kept the last and read a square.
    assert_eq!(
        agreed::<DrawShape>(r#"{"shape": {"kind": "circle", "kind": "square", "side": 1}}"#),
        refusal(
            "$.shape.kind",
            "field \"kind\" is given more than once; give each field once"
        )
    );
    // A field twice: the first, over the bound, was never checked.
    assert_eq!(
        agreed::<DrawShape>(r#"{"shape": {"kind": "square", "side": 70000, "side": 1}}"#),
        refusal(
            "$.shape.side",
            "field \"side\" is given more than once; give each field once"
        )
    );
    // Inside an untagged choice.
    assert_eq!(
        agreed::<DrawShape>(
            r#"{"shape": {"kind": "circle", "radius": 1}, "label": {"n": -1, "n": 1}}"#
        ),
        refusal(
            "$.label.n",
            "field \"n\" is given more than once; give each field once"
        )
    );
    // A map's key twice.
    assert_eq!(
        agreed::<DrawShape>(
            r#"{"shape": {"kind": "circle", "radius": 1}, "sheet": {"counts": {"a": 1, "a": 2}}}"#
        ),
        refusal(
            "$.sheet.counts.a",
            "field \"a\" is given more than once; give each field once"
        )
    );
    // Free JSON: serde_json's `Value` would keep the last.
    assert_eq!(
        agreed::<DrawShape>(
            r#"{"shape": {"kind": "circle", "radius": 1}, "sheet": {"notes": {"x": [{"k": 1, "k": 2}]}}}"#
        ),
        refusal(
            "$.sheet.notes.x[0].k",
            "field \"k\" is given more than once; give each field once"
        )
    );
}

/// The corners of a box.
#[derive(Debug, ToolArgs)]
pub struct Corners {
    /// The lower corner as x and y.
    pub low: (u8, u8),
    /// A scale as a 32-bit float.
    pub scale: Option<f32>,
}

/// Find the shapes inside a box.
#[derive(Debug, Tool)]
pub struct FindShapes {
    /// The box's corners.
    pub corners: Corners,
    /// Sizes to look for.
    pub sizes: Option<Vec<u32>>,
}

#[test]
fn valid_json_with_a_wrong_value_is_not_called_invalid_json() {
    assert_eq!(
        agreed::<FindShapes>(r#"{"corners": {"low": [1, 2], "scale": 0.5}}"#),
        Ok("FindShapes { corners: Corners { low: (1, 2), scale: Some(0.5) }, sizes: None }".into())
    );
    // One item past the tuple: "unexpected text after the end of the JSON object".
    assert_eq!(
        agreed::<FindShapes>(r#"{"corners": {"low": [1, 2, 3], "scale": null}}"#),
        refusal("$.corners.low", "expected at most 2 items, got 3 items")
    );
    // Beyond a 32-bit float: "a number is out of range (at line 1, column ...)".
    assert_eq!(
        agreed::<FindShapes>(r#"{"corners": {"low": [1, 2], "scale": 1e300}}"#),
        refusal(
            "$.corners.scale",
            "expected a number a 32-bit float can hold (between -340282350000000000000000000000000000000 \
             and 340282350000000000000000000000000000000), got a number beyond it"
        )
    );
    // Beyond a 64-bit float, where an integer is expected.
    assert_eq!(
        agreed::<FindShapes>(r#"{"corners": {"low": [1, 2], "scale": null}, "sizes": [1, 1e400]}"#),
        refusal(
            "$.sizes[1]",
            "expected an integer, got a number beyond what a 64-bit float can hold"
        )
    );
    // Beyond a 64-bit float inside a value read whole (a choice).
    assert_eq!(
        agreed::<DrawShape>(r#"{"shape": {"kind": "circle", "radius": 1}, "label": {"n": 1e400}}"#),
        refusal(
            "$.label.n",
            "expected a number a 64-bit float can hold (between -1.7976931348623157e308 and \
             1.7976931348623157e308), got a number beyond it"
        )
    );
}

/// A move: a new piece or a pair of a square and a label.
#[derive(Debug, Deserialize, JsonSchema)]
pub enum Move {
    /// A new piece on a square.
    New {
        /// The square, 0 to 63.
        square: u8,
    },
    /// A square and its label.
    Pair(u8, String),
}

/// Play one move on the board.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct PlayMove {
    /// The move to play.
    pub play: Move,
}

#[test]
fn a_refused_choice_is_explained_by_the_variant_its_key_names() {
    assert_eq!(
        agreed::<PlayMove>(r#"{"play": {"Pair": [1, "a"]}}"#),
        Ok("PlayMove { play: Pair(1, \"a\") }".into())
    );
    // Both variants refuse it at the same depth; the value names `Pair`,
    // so that is the variant explained (it was "unknown field Pair;
    // expected one of New").
    assert_eq!(
        agreed::<PlayMove>(r#"{"play": {"Pair": [1, "a", 2]}}"#),
        refusal("$.play.Pair", "expected at most 2 items, got 3 items")
    );
}

/// A colour name that serde reads with its own function (the schema says a
/// string; the function takes only "red" and "blue").
fn colour<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let name = String::deserialize(d)?;
    match name.as_str() {
        "red" | "blue" => Ok(name),
        other => Err(serde::de::Error::custom(format!(
            "unknown colour {other:?}; expected \"red\" or \"blue\""
        ))),
    }
}

/// A stroke of a colour.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Stroke {
    /// The colour's name, "red" or "blue".
    #[serde(deserialize_with = "colour")]
    pub colour: String,
}

/// A mark, externally tagged.
#[derive(Debug, Deserialize, JsonSchema)]
pub enum Mark {
    /// A dot.
    Dot {
        /// Its size.
        size: u8,
    },
    /// A line with a stroke.
    Line {
        /// The line's stroke.
        stroke: Stroke,
    },
}

/// A mark, adjacently tagged.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
pub enum Tagged {
    /// A dot.
    Dot(u8),
    /// A line with a stroke.
    Line(Stroke),
}

/// Draw marks on the page.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct DrawMarks {
    /// A mark, e.g. {"Line": {"stroke": {"colour": "red"}}}.
    pub mark: Mark,
    /// A tagged mark, e.g. {"t": "Line", "c": {"colour": "red"}}.
    pub tagged: Option<Tagged>,
}

#[test]
fn serde_errors_inside_a_value_read_whole_name_the_value() {
    assert_eq!(
        agreed::<DrawMarks>(r#"{"mark": {"Line": {"stroke": {"colour": "red"}}}, "tagged": {"t": "Line", "c": {"colour": "blue"}}}"#),
        Ok("DrawMarks { mark: Line { stroke: Stroke { colour: \"red\" } }, tagged: Some(Line(Stroke { colour: \"blue\" })) }".into())
    );
    // Both were named at the enum ($.mark, $.tagged).
    assert_eq!(
        agreed::<DrawMarks>(r#"{"mark": {"Line": {"stroke": {"colour": "green"}}}}"#),
        refusal(
            "$.mark.Line.stroke.colour",
            "unknown colour \"green\"; expected \"red\" or \"blue\""
        )
    );
    assert_eq!(
        agreed::<DrawMarks>(
            r#"{"mark": {"Dot": {"size": 1}}, "tagged": {"t": "Line", "c": {"colour": "green"}}}"#
        ),
        refusal(
            "$.tagged.c.colour",
            "unknown colour \"green\"; expected \"red\" or \"blue\""
        )
    );
}

/// A lamp's brightness by switch state: the map's keys are booleans,
/// which serde_json reads from the key's text (`"true"`, `"false"`).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Switches {
    /// The brightness when on and off, e.g. {"true": 80, "false": 0}.
    pub by_state: BTreeMap<bool, u8>,
}

/// Set a lamp's brightness for each switch state.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct SetLamp {
    /// The brightness by switch state.
    pub switches: Switches,
}

#[test]
fn a_key_given_twice_is_refused_in_a_map_keyed_by_booleans() {
    assert_eq!(
        agreed::<SetLamp>(r#"{"switches": {"by_state": {"true": 80, "false": 0}}}"#),
        Ok("SetLamp { switches: Switches { by_state: {false: 0, true: 80} } }".into())
    );
    // serde's map kept the last value.
    assert_eq!(
        agreed::<SetLamp>(r#"{"switches": {"by_state": {"true": 80, "true": 0}}}"#),
        refusal(
            "$.switches.by_state.true",
            "field \"true\" is given more than once; give each field once"
        )
    );
    // A value under such a key is named at its key, not at `[""]`.
    assert_eq!(
        agreed::<SetLamp>(r#"{"switches": {"by_state": {"false": 300}}}"#),
        refusal(
            "$.switches.by_state.false",
            "expected an integer from 0 to 255, got the integer 300"
        )
    );
    // A key that is no boolean: serde_json called one that starts like
    // `false` invalid JSON, and echoed others without their first letter.
    assert_eq!(
        agreed::<SetLamp>(r#"{"switches": {"by_state": {"full": 100}}}"#),
        refusal(
            "$.switches.by_state.full",
            "expected a boolean, got the string \"full\""
        )
    );
    assert_eq!(
        agreed::<SetLamp>(r#"{"switches": {"by_state": {"on": 100}}}"#),
        refusal(
            "$.switches.by_state.on",
            "expected a boolean, got the string \"on\""
        )
    );
}

/// Notes for the printer: free JSON, and the same kept as its text.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PrinterNotes {
    /// Any JSON.
    pub free: Option<serde_json::Value>,
    /// Any JSON, kept as written.
    #[schemars(with = "Option<serde_json::Value>")]
    pub raw: Option<Box<serde_json::value::RawValue>>,
}

/// A number of copies, or notes for the printer.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum CopiesOrNotes {
    /// How many copies.
    Copies(u8),
    /// Notes for the printer.
    Notes(PrinterNotes),
}

/// Print a label sheet with notes for the printer.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct PrintSheet {
    /// Notes for the printer, e.g. {"free": {"tray": 2}}.
    pub notes: Option<PrinterNotes>,
    /// Copies or notes, e.g. 2.
    pub copies: Option<CopiesOrNotes>,
    /// Names printed on the sheet, each once, e.g. ["a", "b"].
    pub names: Option<std::collections::BTreeSet<String>>,
    /// Codes of the printers to use, each once, e.g. [3, 4].
    pub printers: Option<std::collections::BTreeSet<u32>>,
    /// Stickers by name, e.g. {"counts": {"a": 1}}.
    pub sheet: Option<Sheet>,
}

#[test]
fn serde_json_raw_value_key_is_refused_inside_a_value_read_whole() {
    // In free JSON read while streaming: refused (the control).
    let refused =
        "the key \"$serde_json::private::RawValue\" is reserved by serde_json; use another name";
    assert_eq!(
        agreed::<PrintSheet>(r#"{"notes": {"free": {"$serde_json::private::RawValue": "[1]"}}}"#),
        refusal("$.notes.free[\"$serde_json::private::RawValue\"]", refused)
    );
    // Inside a choice, the checked value was an object holding a string;
    // serde_json's `Value` then read the string as JSON: the application
    // got `{"a": 2}`, a key given twice and a value nobody checked.
    assert_eq!(
        agreed::<PrintSheet>(
            r#"{"copies": {"free": {"$serde_json::private::RawValue": "{\"a\": 1, \"a\": 2}"}}}"#
        ),
        refusal("$.copies.free[\"$serde_json::private::RawValue\"]", refused)
    );
}

#[test]
fn a_key_given_twice_is_refused_inside_a_raw_value() {
    assert_eq!(
        agreed::<PrintSheet>(r#"{"notes": {"raw": {"tray": 2,  "x": [1.0e2]}}}"#),
        Ok("PrintSheet { notes: Some(PrinterNotes { free: None, raw: Some(RawValue({\"tray\": 2,  \"x\": [1.0e2]})) }), \
            copies: None, names: None, printers: None, sheet: None }"
            .into())
    );
    // Kept as written, so the application would read the last.
    assert_eq!(
        agreed::<PrintSheet>(r#"{"notes": {"raw": {"tray": 2, "x": [{"k": 1, "\u006b": 2}]}}}"#),
        refusal(
            "$.notes.raw.x[0].k",
            "field \"k\" is given more than once; give each field once"
        )
    );
    // Inside a choice (read whole), as before.
    assert_eq!(
        agreed::<PrintSheet>(r#"{"copies": {"raw": {"tray": 2, "tray": 3}}}"#),
        refusal(
            "$.copies.raw.tray",
            "field \"tray\" is given more than once; give each field once"
        )
    );
}

#[test]
fn a_large_set_is_judged_in_time_linear_in_its_items() {
    // Every pair compared: 100 000 names took minutes.
    let names: Vec<String> = (0..100_000).map(|i| format!("\"n{i}\"")).collect();
    let text = format!(r#"{{"names": [{}]}}"#, names.join(","));
    let answer = agreed::<PrintSheet>(&text);
    assert!(
        answer.as_ref().is_ok_and(|v| v.starts_with(
            "PrintSheet { notes: None, copies: None, names: Some({\"n0\", \"n1\", \"n10\", "
        )),
        "{answer:?}"
    );
    // A repeat is named by its first pair, as before; 7 and 7.0 are the
    // same number to JSON Schema.
    assert_eq!(
        agreed::<PrintSheet>(r#"{"printers": [7, 8, 9, 8, 7.0]}"#),
        refusal("$.printers", "expected unique items, item 3 repeats item 1")
    );
    assert_eq!(
        agreed::<PrintSheet>(r#"{"printers": [7, 8, 7.0]}"#),
        refusal("$.printers", "expected unique items, item 2 repeats item 0")
    );
    let mut names = names;
    names.push("\"n99999\"".into());
    let text = format!(r#"{{"names": [{}]}}"#, names.join(","));
    assert_eq!(
        agreed::<PrintSheet>(&text),
        refusal(
            "$.names",
            "expected unique items, item 100000 repeats item 99999"
        )
    );
}

#[test]
fn a_large_map_is_read_in_one_pass() {
    // The fast reader compared each key with every one before it: 80 000
    // keys took longer than reading them a hundred times.
    let keys: Vec<String> = (0..80_000)
        .map(|i| format!("\"k{i}\":{}", i % 200))
        .collect();
    let text = format!(r#"{{"sheet": {{"counts": {{{}}}}}}}"#, keys.join(","));
    assert!(
        crate::readers::both::<PrintSheet>(&text),
        "the fast reader stepped aside"
    );
    let text = format!(r#"{{"sheet": {{"notes": {{{}}}}}}}"#, keys.join(","));
    assert!(
        crate::readers::both::<PrintSheet>(&text),
        "the fast reader stepped aside"
    );
}

/// Quote what an account's loyalty points are worth.
#[derive(Debug, Tool)]
pub struct QuoteLoyaltyPoints {
    /// How many points, counted in 128 bits, e.g. 1200.
    pub points: u128,
    /// The balance owed in points, negative for a debt, e.g. -30.
    pub owed: Option<i128>,
}

#[test]
fn a_number_beyond_f64_is_named_as_such_for_128_bit_integers() {
    assert_eq!(
        agreed::<QuoteLoyaltyPoints>(r#"{"points": 340282366920938463463374607431768211455, "owed": -5}"#),
        Ok("QuoteLoyaltyPoints { points: 340282366920938463463374607431768211455, owed: Some(-5) }".into())
    );
    // "got the number inf".
    assert_eq!(
        agreed::<QuoteLoyaltyPoints>(r#"{"points": 1e400}"#),
        refusal(
            "$.points",
            "expected an integer of at least 0, got a number beyond what a 64-bit float can hold"
        )
    );
    assert_eq!(
        agreed::<QuoteLoyaltyPoints>(r#"{"points": 1, "owed": -1e400}"#),
        refusal(
            "$.owed",
            "expected an integer or null, got a number beyond what a 64-bit float can hold"
        )
    );
    // A negative number for an unsigned type was echoed whole: a message
    // as long as the arguments.
    let digits = "9".repeat(100_000);
    assert_eq!(
        agreed::<QuoteLoyaltyPoints>(&format!(r#"{{"points": -{digits}}}"#)),
        refusal(
            "$.points",
            "expected an integer from 0 to 340282366920938463463374607431768211455, got a number of 100000 digits"
        )
    );
}

/// A move of a robot arm, tagged by the variant's name.
#[derive(Debug, Deserialize, JsonSchema)]
pub enum ArmMove {
    /// Lift by a height.
    Lift {
        /// How high.
        height: u8,
    },
    /// Go to a point.
    To(u8, u8),
    /// Stop.
    Stop,
}

/// Move a robot arm.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct MoveArm {
    /// The move, e.g. {"To": [1, 2]}.
    pub step: ArmMove,
}

#[test]
fn a_tuple_with_too_many_items_is_named_inside_an_externally_tagged_enum() {
    assert_eq!(
        agreed::<MoveArm>(r#"{"step": {"To": [1, 2]}}"#),
        Ok("MoveArm { step: To(1, 2) }".into())
    );
    // The first variant's refusal won the tie: `unknown field "To";
    // expected one of "Lift"`, for the variant the model named.
    assert_eq!(
        agreed::<MoveArm>(r#"{"step": {"To": [1, 2, 3]}}"#),
        refusal("$.step.To", "expected at most 2 items, got 3 items")
    );
    assert_eq!(
        agreed::<MoveArm>(r#"{"step": {"To": [1]}}"#),
        refusal("$.step.To", "expected at least 2 items, got 1 item")
    );
    assert_eq!(
        agreed::<MoveArm>(r#"{"step": {"Lift": {"height": 1, "depth": 2}}}"#),
        refusal(
            "$.step.Lift.depth",
            "unknown field \"depth\"; expected one of \"height\""
        )
    );
}

/// A tree of large counts, every level a choice between two identical
/// list shapes.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Tally {
    /// A count.
    Leaf(u64),
    /// A list of trees.
    Many(Vec<Tally>),
    /// Another list of trees.
    Also(Vec<Tally>),
}

/// A meter's reading: a total, or a note.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Reading {
    /// A total count.
    Total {
        /// The count.
        total: u64,
    },
    /// A note.
    Note(String),
}

/// Store a tree of large counts.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct StoreTally {
    /// The tree, e.g. [1, [2, 3]].
    pub tree: Tally,
    /// A reading, e.g. {"total": 5}.
    pub reading: Option<Reading>,
}

#[test]
fn a_recursive_untagged_enum_is_read_in_bounded_time_when_serde_would_refuse_its_leaf() {
    let want = format!(
        "StoreTally {{ tree: {}Leaf(18446744073709551615){}, reading: None }}",
        "Many([".repeat(100),
        "])".repeat(100)
    );
    assert_eq!(
        agreed::<StoreTally>(&nested(100, "18446744073709551615")),
        Ok(want)
    );
    // `1e19` is an integer to JSON Schema, so every level held for both
    // list shapes, but serde reads a float from 2^53 up into no integer
    // type (the streaming path refuses it for that): serde's untagged enum
    // tried both shapes at every level, and 20 levels took seconds.
    let path = format!("$.tree{}", "[0]".repeat(100));
    assert_eq!(
        agreed::<StoreTally>(&nested(100, "1e19")),
        refusal(
            &path,
            "expected an integer, got 1e+19 (from 2^53 up, write a whole number in digits, without a fraction or an exponent)"
        )
    );
    // Deeper than the choice, the number is named where it is.
    assert_eq!(
        agreed::<StoreTally>(r#"{"tree": 1, "reading": {"total": 1e19}}"#),
        refusal(
            "$.reading.total",
            "expected an integer, got 1e+19 (from 2^53 up, write a whole number in digits, without a fraction or an exponent)"
        )
    );
    assert_eq!(
        agreed::<StoreTally>(r#"{"tree": 1, "reading": {"total": 1e15}}"#),
        Ok("StoreTally { tree: Leaf(1), reading: Some(Total { total: 1000000000000000 }) }".into())
    );
}

/// A span: a pair of positions, or a named one.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Span {
    /// From and to.
    Pair((u8, u8)),
    /// A named span.
    Name(String),
}

/// Highlight a span of a line.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct HighlightSpan {
    /// The span, e.g. [2, 5] or "word".
    pub span: Span,
}

#[test]
fn a_tuple_with_too_many_items_is_named_inside_an_untagged_enum() {
    assert_eq!(
        agreed::<HighlightSpan>(r#"{"span": [2, 5]}"#),
        Ok("HighlightSpan { span: Pair((2, 5)) }".into())
    );
    // Only one shape is an array: its refusal is the one the model needs
    // ("an array matches none of the 2 allowed shapes").
    assert_eq!(
        agreed::<HighlightSpan>(r#"{"span": [2, 5, 9]}"#),
        refusal("$.span", "expected at most 2 items, got 3 items")
    );
    // None is a number: no shape is named.
    assert_eq!(
        agreed::<HighlightSpan>(r#"{"span": 2}"#),
        refusal(
            "$.span",
            "the number 2 matches none of the 2 allowed shapes described in the schema"
        )
    );
}

/// An expression: a number, or the negation or absolute value of one.
/// The variants that wrap an expression have the expression's own schema.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Expr {
    /// A number.
    Lit(u8),
    /// Its negation.
    Neg(Box<Expr>),
    /// Its absolute value.
    Abs(Box<Expr>),
}

/// Evaluate an arithmetic expression and return its value.
#[derive(Debug, Tool)]
#[tool(effect = "read")]
pub struct EvaluateExpression {
    /// The expression, e.g. 5.
    pub expression: Expr,
}

#[test]
fn a_choice_that_refers_to_itself_is_refused_without_overflowing_the_stack() {
    assert_eq!(
        agreed::<EvaluateExpression>(r#"{"expression": 5}"#),
        Ok("EvaluateExpression { expression: Lit(5) }".into())
    );
    // The check judged the same value against the same choice without end
    // and overflowed the stack: the process aborted.
    assert_eq!(
        agreed::<EvaluateExpression>(r#"{"expression": "x"}"#),
        refusal(
            "$.expression",
            "the string \"x\" matches none of the 3 allowed shapes described in the schema"
        )
    );
}
