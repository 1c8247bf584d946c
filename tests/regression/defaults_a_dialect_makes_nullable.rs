//! OpenAI's strict mode makes every optional property required and
//! nullable, so a strict model sends `null` for a field it does not give.
//! Nested `#[serde(default)]` and `ToolArgs` `#[tool(default)]` fields were
//! refused for that `null` (`$.options.count: expected an integer from 0 to
//! 255, got null`), though the top-level defaults took it. What a dialect
//! tells the model it may send, the reader accepts and means the intended
//! value: here, the default. Both readers give the same outcome.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tool_contract::{Tool, ToolArgs};

use crate::readers::{Outcome, agreed};

fn refusal(path: &str, message: &str) -> Outcome {
    Err(("INVALID_ARGUMENTS".into(), path.into(), message.into()))
}

/// How a listing is printed.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    /// Columns per row; absent for 3.
    #[serde(default = "three")]
    pub columns: u8,
    /// Whether to print prices.
    #[serde(default)]
    pub prices: bool,
    /// A caption, or null for none.
    pub caption: Option<String>,
}

fn three() -> u8 {
    3
}

/// Paging of the listing.
#[derive(Debug, ToolArgs)]
pub struct Paging {
    /// Results per page, 10 when absent.
    #[tool(default = ten, minimum = 1, maximum = 50)]
    pub size: u32,
}

fn ten() -> u32 {
    10
}

/// A layout or the name of a saved one.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum LayoutChoice {
    /// A layout given in full.
    Given(Layout),
    /// The name of a saved layout.
    Saved(String),
}

/// List the products of one category.
#[derive(Debug, Tool)]
pub struct ListProducts {
    /// The category's code, e.g. "shoes".
    pub category: String,
    /// How to lay the listing out.
    pub layout: Option<Layout>,
    /// Which page to show.
    pub paging: Option<Paging>,
    /// A layout or a saved layout's name.
    pub choice: Option<LayoutChoice>,
}

#[test]
fn the_strict_schema_makes_nested_defaults_required_and_nullable() {
    let strict = tool_contract::openai::strict_schema::<ListProducts>().unwrap();
    let layout = &strict["$defs"]["Layout"];
    assert_eq!(layout["required"], json!(["columns", "prices", "caption"]));
    assert_eq!(
        layout["properties"]["columns"]["type"],
        json!(["integer", "null"])
    );
    assert_eq!(
        layout["properties"]["prices"]["type"],
        json!(["boolean", "null"])
    );
}

#[test]
fn null_for_a_nested_default_is_the_default() {
    let want = "ListProducts { category: \"shoes\", layout: Some(Layout { columns: 3, prices: false, \
                caption: None }), paging: Some(Paging { size: 10 }), choice: None }";
    // What a strict model sends.
    assert_eq!(
        agreed::<ListProducts>(
            r#"{"category": "shoes", "layout": {"columns": null, "prices": null, "caption": null}, "paging": {"size": null}, "choice": null}"#
        ),
        Ok(want.into())
    );
    // What the other dialects' models send: the keys absent.
    assert_eq!(
        agreed::<ListProducts>(r#"{"category": "shoes", "layout": {}, "paging": {}}"#),
        Ok(want.into())
    );
    // A value is read as given, and still checked.
    assert_eq!(
        agreed::<ListProducts>(r#"{"category": "shoes", "layout": {"columns": 5, "prices": true}, "paging": {"size": 20}}"#),
        Ok("ListProducts { category: \"shoes\", layout: Some(Layout { columns: 5, prices: true, caption: None }), \
            paging: Some(Paging { size: 20 }), choice: None }"
            .into())
    );
    assert_eq!(
        agreed::<ListProducts>(r#"{"category": "shoes", "layout": {"columns": "five"}}"#),
        refusal(
            "$.layout.columns",
            "expected an integer from 0 to 255, got the string \"five\""
        )
    );
    assert_eq!(
        agreed::<ListProducts>(r#"{"category": "shoes", "paging": {"size": 0}}"#),
        refusal("$.paging.size", "expected a number of at least 1, got 0")
    );
    // Given twice, once as null: still a key given twice.
    assert_eq!(
        agreed::<ListProducts>(
            r#"{"category": "shoes", "layout": {"columns": null, "columns": 4}}"#
        ),
        refusal(
            "$.layout.columns",
            "field \"columns\" is given more than once; give each field once"
        )
    );
}

#[test]
fn null_for_a_default_inside_a_choice_is_the_default() {
    assert_eq!(
        agreed::<ListProducts>(
            r#"{"category": "shoes", "choice": {"columns": null, "prices": true, "caption": null}}"#
        ),
        Ok("ListProducts { category: \"shoes\", layout: None, paging: None, choice: Some(Given(Layout { \
            columns: 3, prices: true, caption: None })) }"
            .into())
    );
    assert_eq!(
        agreed::<ListProducts>(r#"{"category": "shoes", "choice": "compact"}"#),
        Ok("ListProducts { category: \"shoes\", layout: None, paging: None, choice: Some(Saved(\"compact\")) }".into())
    );
}

/// A colour of a bin's label.
#[derive(Debug, Deserialize, JsonSchema)]
pub enum LabelColor {
    /// Red.
    Red,
    /// Blue.
    Blue,
}

/// One bin on a shelf.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Bin {
    /// How many items it holds.
    pub count: u8,
    /// The colour of its label.
    pub color: Option<LabelColor>,
    /// Its label's text.
    pub label: Option<String>,
    /// Free notes.
    pub notes: Option<serde_json::Value>,
}

/// A shelf whose lists default to empty and whose tag defaults to none.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Shelf {
    /// Its bins.
    #[serde(default)]
    pub bins: Vec<Bin>,
    /// Serial numbers of the items on it, 128-bit.
    #[serde(default)]
    pub serials: Vec<u128>,
    /// Its tag, kept as written.
    #[serde(default)]
    pub tag: Tag,
}

/// A shelf's tag, kept as the text the model wrote.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Tag {
    /// Any JSON, kept as written.
    #[schemars(with = "Option<serde_json::Value>")]
    pub raw: Option<Box<serde_json::value::RawValue>>,
}

/// The same shelf without defaults: every field optional.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Plain {
    /// Its bins.
    pub bins: Option<Vec<Bin>>,
    /// Serial numbers of the items on it, 128-bit.
    pub serials: Option<Vec<u128>>,
    /// Its tag.
    pub tag: Option<Tag>,
}

/// Stock a shelf.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct StockShelves {
    /// A shelf with defaults.
    pub shelf: Option<Shelf>,
    /// A shelf without (the same length of name: the same columns).
    pub plain: Option<Plain>,
}

/// What the parser answers for `{"shelf": <value>}` and for `{"plain": <value>}`.
fn twins(value: &str) -> (Outcome, Outcome) {
    let shelf = agreed::<StockShelves>(&format!(r#"{{"shelf": {value}}}"#));
    let plain = agreed::<StockShelves>(&format!(r#"{{"plain": {value}}}"#));
    (shelf, plain)
}

#[test]
fn a_value_given_for_a_nested_default_is_read_as_written() {
    // Errors inside it were named at the defaulted field, not where they are.
    let (shelf, plain) = twins(r#"{"bins": [{"count": 1}, {"count": "x"}]}"#);
    assert_eq!(
        shelf,
        refusal(
            "$.shelf.bins[1].count",
            "expected an integer from 0 to 255, got the string \"x\""
        )
    );
    assert_eq!(
        plain,
        refusal(
            "$.plain.bins[1].count",
            "expected an integer from 0 to 255, got the string \"x\""
        )
    );
    let (shelf, _) = twins(r#"{"bins": [{"count": 1, "color": "Green"}]}"#);
    assert_eq!(
        shelf,
        refusal(
            "$.shelf.bins[0].color",
            "\"Green\" is not an allowed value; expected one of \"Red\", \"Blue\""
        )
    );
    // Integers beyond 64 bits were read through a float, and refused.
    let (shelf, _) = twins(r#"{"serials": [18446744073709551617, 5]}"#);
    assert_eq!(
        shelf,
        Ok("StockShelves { shelf: Some(Shelf { bins: [], serials: [18446744073709551617, 5], tag: Tag { raw: None } }), plain: None }".into())
    );
    // A raw value was written again (`1.0e2` became `100.0`).
    let (shelf, _) =
        twins(r#"{"tag": {"raw": {"n":  1.0e2, "big": 123456789012345678901234567890}}}"#);
    assert_eq!(
        shelf,
        Ok("StockShelves { shelf: Some(Shelf { bins: [], serials: [], tag: Tag { raw: Some(RawValue({\"n\":  1.0e2, \"big\": 123456789012345678901234567890})) } }), plain: None }".into())
    );
    // Errors of the text itself keep their place in it.
    let (shelf, plain) = twins(r#"{"bins": [{"count": 1, "label": "\ud800"}]}"#);
    assert_eq!(
        shelf,
        refusal(
            "$.shelf.bins[0].label",
            "invalid JSON: a string contains an invalid \\u escape (at line 1, column 50)"
        )
    );
    assert_eq!(
        plain,
        refusal(
            "$.plain.bins[0].label",
            "invalid JSON: a string contains an invalid \\u escape (at line 1, column 50)"
        )
    );
}

#[test]
fn a_nested_default_is_held_to_the_depth_limit() {
    // 128 levels of nesting is serde_json's limit (the arguments object,
    // the shelf, its bins and a bin are four), inside a default too: its
    // value was read again from its own text, 128 levels from there.
    let same = |o: Outcome| {
        o.map(|_| ())
            .map_err(|e| (e.0, e.1.replace("plain", "shelf"), e.2))
    };
    for depth in [122, 123, 124, 125, 200] {
        let deep = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        let (shelf, plain) = twins(&format!(r#"{{"bins": [{{"count": 1, "notes": {deep}}}]}}"#));
        assert_eq!(same(shelf), same(plain.clone()), "depth {depth}");
        assert_eq!(plain.is_ok(), depth < 124, "depth {depth}: {plain:?}");
    }
    let deep = format!("{}1{}", "[".repeat(124), "]".repeat(124));
    let (shelf, _) = twins(&format!(r#"{{"bins": [{{"count": 1, "notes": {deep}}}]}}"#));
    assert_eq!(
        shelf,
        refusal(
            "$.shelf.bins[0].notes[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]…",
            "invalid JSON: the JSON is nested more than 128 levels deep (at line 1, column 166)"
        )
    );
}

/// A crate that holds crates and a load of small numbers.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Crate {
    /// The crates inside it.
    #[serde(default)]
    pub inner: Vec<Crate>,
    /// Its load.
    #[serde(default)]
    pub load: Vec<u8>,
    /// Its label.
    #[serde(default)]
    pub label: String,
}

/// Ship a crate of crates.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct ShipCrate {
    /// The outer crate.
    pub outer: Crate,
}

#[test]
fn a_chain_of_nested_defaults_is_read_in_one_pass() {
    // Each level read its whole value again into a `Value`: 60 levels over
    // 100 000 numbers took seconds.
    let load: Vec<String> = (0..100_000).map(|i| (i % 200).to_string()).collect();
    let mut value = format!(r#"{{"load": [{}], "label": null}}"#, load.join(","));
    for _ in 0..60 {
        value = format!(r#"{{"inner": [{value}], "label": "a"}}"#);
    }
    let answer = agreed::<ShipCrate>(&format!(r#"{{"outer": {value}}}"#));
    assert!(
        answer
            .as_ref()
            .is_ok_and(|v| v.starts_with("ShipCrate { outer: Crate { inner: [Crate { inner: [")),
        "{answer:?}"
    );
    // An error deep in the chain is named where it is (a level read from
    // its text kept the place an inner level had found).
    assert_eq!(
        agreed::<ShipCrate>(
            r#"{"outer": {"inner": [{"label": null}, {"inner": [{"load": [1, "x"]}]}]}}"#
        ),
        refusal(
            "$.outer.inner[1].inner[0].load[1]",
            "expected an integer from 0 to 255, got the string \"x\""
        )
    );
    assert_eq!(
        agreed::<ShipCrate>(r#"{"outer": {"inner": [{"inner": [{"label": 5}]}]}}"#),
        refusal(
            "$.outer.inner[0].inner[0].label",
            "expected a string, got the integer 5"
        )
    );
    assert_eq!(
        agreed::<ShipCrate>(r#"{"outer": {"inner": [{"inner": [{"load": [1, "\ud800"]}]}]}}"#),
        refusal(
            "$.outer.inner[0].inner[0].load[1]",
            "invalid JSON: a string contains an invalid \\u escape (at line 1, column 53)"
        )
    );
}
