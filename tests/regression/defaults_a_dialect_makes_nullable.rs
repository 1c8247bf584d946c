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
