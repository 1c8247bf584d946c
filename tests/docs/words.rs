//! One wording of the contract: a field's unit and constraints read the
//! same in the Markdown page, in the OpenAI strict schema's descriptions and
//! in the rustdoc section of `#[derive(Tool)]` (tool-macros' `doc_section`
//! tests assert the same strings for the same struct).

use serde_json::json;
use tool_contract::Tool;
use tool_contract::openai::strict_schema;

/// Book a courier pickup for a parcel that is packed and labelled.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct BookPickup {
    /// Where the courier reports the pickup.
    #[tool(format = "uri", max_length = 200)]
    pub callback_url: String,
    /// How long the courier waits at the door.
    #[tool(unit = "minutes", minimum = 1, maximum = 30)]
    pub wait: u32,
}

/// The words of `callback_url`: strict mode drops `format: uri` and
/// `maxLength`, so the OpenAI schema says both in the description.
const CALLBACK_URL: &str =
    "An absolute URI such as \"https://example.com/path\". At most 200 characters.";

/// The words of `wait`: strict mode keeps `minimum` and `maximum`, so the
/// OpenAI schema says only the unit in words.
const WAIT: &str = "Unit: minutes. From 1 to 30.";

#[test]
fn the_markdown_page_states_the_words() {
    let page = BookPickup::contract().to_markdown();
    let rows: Vec<&str> = page
        .lines()
        .filter(|line| line.starts_with("| `"))
        .collect();
    assert_eq!(
        rows,
        [
            format!(
                "| `callback_url` | string | required | {CALLBACK_URL} | Where the courier reports the pickup. |"
            ),
            format!(
                "| `wait` | integer | required | {WAIT} | How long the courier waits at the door. |"
            ),
        ]
    );
}

#[test]
fn the_openai_descriptions_state_the_words_strict_mode_drops() {
    let schema = strict_schema::<BookPickup>().unwrap();
    assert_eq!(
        schema["properties"],
        json!({
            "callback_url": {
                "type": "string",
                "description": format!("Where the courier reports the pickup. {CALLBACK_URL}"),
            },
            "wait": {
                "type": "integer",
                "description": "How long the courier waits at the door. Unit: minutes.",
                "minimum": 1,
                "maximum": 30,
            },
        })
    );
}

#[test]
fn the_input_schema_states_the_unit_after_the_description() {
    assert_eq!(
        BookPickup::input_schema()["properties"]["wait"]["description"],
        "How long the courier waits at the door. Unit: minutes."
    );
}
