//! OpenAI's per-request limits checked when a tool set is built from real
//! contracts: two tools that each fit alone, but not together, are refused
//! by `tools_for_responses`, `tools_for_chat_completions` and
//! `check_tool_set` before any request, naming the tools.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;
use tool_contract::Tool;
use tool_contract::openai::{
    BudgetLimit, ToolSetError, check_tool_set, tools_for_chat_completions, tools_for_responses,
};

/// A color name out of a palette of `N` ("c0", "c1", ...): a string enum of
/// `N` values in the schema.
macro_rules! palette {
    ($name:ident, $n:expr) => {
        #[doc = concat!("A color out of a palette of ", stringify!($n), " named colors.")]
        #[derive(Debug, Deserialize)]
        pub struct $name(pub String);

        impl JsonSchema for $name {
            fn schema_name() -> Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                let values: Vec<String> = (0..$n).map(|i| format!("c{i}")).collect();
                json_schema!({
                    "type": "string",
                    "enum": values,
                    "description": concat!("A color out of a palette of ", stringify!($n), ".")
                })
            }
        }
    };
}

palette!(Palette500, 500);
palette!(Palette501, 501);

/// Paint a wall of the customer's room preview in one color.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct PaintWallPreview {
    /// The color to paint the wall, e.g. "c12".
    pub color: Palette500,
}

/// Paint the door of the customer's room preview in one color.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct PaintDoorPreview {
    /// The color to paint the door, e.g. "c12".
    pub color: Palette500,
}

/// Paint the roof of the customer's house preview in one color.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct PaintRoofPreview {
    /// The color to paint the roof, e.g. "c12".
    pub color: Palette501,
}

#[test]
fn a_set_at_the_enum_limit_is_offered() {
    let set = [PaintWallPreview::contract(), PaintDoorPreview::contract()];
    let usage = check_tool_set(&set).unwrap();
    assert_eq!(usage.enum_values, 1000);
    assert_eq!(tools_for_responses(&set).unwrap().len(), 2);
}

#[test]
fn a_set_over_the_enum_limit_is_refused_naming_the_tools() {
    let set = [PaintWallPreview::contract(), PaintRoofPreview::contract()];
    // Each fits alone.
    assert!(check_tool_set(&set[..1]).is_ok());
    assert!(check_tool_set(&set[1..]).is_ok());
    let error = tools_for_chat_completions(&set).unwrap_err();
    let ToolSetError::Budget(budget) = &error else {
        panic!("expected Budget, got {error}");
    };
    assert_eq!(budget.over.len(), 1);
    assert_eq!(budget.over[0].limit, BudgetLimit::EnumValues);
    assert_eq!(budget.over[0].spent, 1001);
    assert_eq!(
        budget.over[0].tools,
        [
            ("paint_roof_preview".to_owned(), 501),
            ("paint_wall_preview".to_owned(), 500)
        ]
    );
    assert_eq!(
        error.to_string(),
        "the tool set is over OpenAI's per-request limits: 1001 enum values (at most 1000), \
         from `paint_roof_preview` 501, `paint_wall_preview` 500; offer fewer tools per request \
         or shrink the largest ones"
    );
    assert_eq!(tools_for_responses(&set), Err(error.clone()));
    assert_eq!(check_tool_set(&set), Err(error));
}
