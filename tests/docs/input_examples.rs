//! Input examples on the contract (`#[tool(example = r#"{...}"#)]`): each
//! parsed by the tool's own parser when the contract is checked (a
//! refused one names its index, path and the parser's message), sent as
//! Anthropic's `input_examples` and in the other providers' descriptions
//! in the shared words, shown on the Markdown page and in the catalog, and
//! part of the fingerprint.
#![allow(dead_code)]

use serde_json::json;
use tool_contract::docs::Catalog;
use tool_contract::lock::LockedTool;
use tool_contract::{CallContext, Tool, ToolError, Toolbox};

/// The shop the conversation belongs to.
#[derive(Clone, Debug)]
pub struct ShopId(pub String);

/// Reserve units of one SKU until the hold runs out.
#[derive(Tool)]
#[tool(
    effect = "write",
    idempotent,
    example = r#"{"sku": "SKU-1042", "quantity": 2}"#,
    example = r#"{"quantity": 5, "sku": "SKU-7"}"#
)]
pub struct ReserveUnits {
    /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
    #[tool(min_length = 1, max_length = 64)]
    pub sku: String,
    /// How many units to hold.
    #[tool(minimum = 1, maximum = 1000)]
    pub quantity: u32,
    /// The shop, from the session: never the example's.
    #[tool(inject)]
    pub shop: ShopId,
}

/// Reserve units of one SKU until the hold runs out.
#[derive(Tool)]
#[tool(
    effect = "write",
    idempotent,
    example = r#"{"sku": "SKU-1042", "quantity": 2}"#,
    example = r#"{"sku": "SKU-1042", "quantity": 5000}"#
)]
pub struct ReserveTooMany {
    /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
    #[tool(min_length = 1, max_length = 64)]
    pub sku: String,
    /// How many units to hold.
    #[tool(minimum = 1, maximum = 1000)]
    pub quantity: u32,
}

/// Reserve units of one SKU until the hold runs out.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct ReserveWithout {
    /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
    #[tool(min_length = 1, max_length = 64)]
    pub sku: String,
    /// How many units to hold.
    #[tool(minimum = 1, maximum = 1000)]
    pub quantity: u32,
}

const DESCRIBED: &str = "Reserve units of one SKU until the hold runs out.\n\nExample arguments:\n\
    {\"sku\":\"SKU-1042\",\"quantity\":2}\n{\"quantity\":5,\"sku\":\"SKU-7\"}";
const WITH_EXAMPLE_FINGERPRINT: &str =
    "6587c322a1f5559e09e971f6edfcbb7700304ae57749303b6664d2b1aa317be2";
const REFUSED: &str = "tool `reserve_too_many` has an example its parser refuses: example 1 at \
    `$.quantity`: expected a number of at most 1000, got 5000";

#[test]
fn the_contract_keeps_its_examples_in_order() {
    let contract = ReserveUnits::contract();
    assert_eq!(
        contract.examples(),
        [
            r#"{"sku": "SKU-1042", "quantity": 2}"#,
            r#"{"quantity": 5, "sku": "SKU-7"}"#
        ]
    );
    assert_eq!(
        contract.example_values(),
        [
            json!({"sku": "SKU-1042", "quantity": 2}),
            json!({"quantity": 5, "sku": "SKU-7"})
        ]
    );
    assert_eq!(contract.description_with_examples(), DESCRIBED);
    assert_eq!(
        ReserveWithout::contract().description_with_examples(),
        "Reserve units of one SKU until the hold runs out."
    );
    // An injected field is the session's: an example without it parses.
    assert_eq!(contract.check_rules(), Ok(()));
}

#[test]
fn an_example_the_parser_refuses_fails_the_contract_check_with_its_index_path_and_message() {
    let error = ReserveTooMany::contract().check_rules().unwrap_err();
    let example = error.example_error().unwrap();
    assert_eq!(
        (example.index(), example.path(), example.message()),
        (
            1,
            "$.quantity",
            "expected a number of at most 1000, got 5000"
        )
    );
    assert_eq!(error.to_string(), REFUSED);

    let mut toolbox = Toolbox::new();
    let refused = toolbox
        .try_register(|_: ReserveTooMany, _: CallContext| async {
            Ok::<_, ToolError>("held".to_owned())
        })
        .err()
        .unwrap();
    assert_eq!(refused.to_string(), REFUSED);
    assert!(toolbox.is_empty());

    let catalog = Catalog::new()
        .with::<ReserveUnits>()
        .with::<ReserveTooMany>();
    assert_eq!(catalog.check().unwrap_err().to_string(), REFUSED);
}

#[test]
fn anthropic_gets_input_examples_and_the_others_read_them_in_the_description() {
    let contracts = [ReserveUnits::contract()];
    let examples = json!([{"sku": "SKU-1042", "quantity": 2}, {"quantity": 5, "sku": "SKU-7"}]);
    let anthropic = tool_contract::anthropic::ToolSet::new(&contracts)
        .unwrap()
        .definitions();
    assert_eq!(
        anthropic[0]["description"],
        ReserveUnits::contract().description()
    );
    assert_eq!(anthropic[0]["input_examples"], examples);
    assert_eq!(
        tool_contract::anthropic::INPUT_EXAMPLES_BETA,
        "advanced-tool-use-2025-11-20"
    );

    let responses = tool_contract::openai::tools_for_responses(&contracts).unwrap();
    assert_eq!(responses[0]["description"], DESCRIBED);
    assert_eq!(responses[0].get("input_examples"), None);
    let chat = tool_contract::openai::tools_for_chat_completions(&contracts).unwrap();
    assert_eq!(chat[0]["function"]["description"], DESCRIBED);
    let gemini = tool_contract::gemini::tools_for_gemini(
        &contracts,
        tool_contract::gemini::Dialect::ParametersJsonSchema,
    )
    .unwrap();
    assert_eq!(
        gemini[0]["functionDeclarations"][0]["description"],
        DESCRIBED
    );

    // A tool without examples has no `input_examples` and its description.
    let without = [ReserveWithout::contract()];
    let anthropic = tool_contract::anthropic::ToolSet::new(&without)
        .unwrap()
        .definitions();
    assert_eq!(anthropic[0].get("input_examples"), None);
}

#[test]
fn the_page_and_the_catalog_show_the_examples() {
    let page = ReserveUnits::contract().to_markdown();
    let start = page.find("## Examples").expect("an Examples section");
    let end = page.find("## Output").unwrap();
    assert_eq!(
        &page[start..end],
        "## Examples\n\n```json\n{\n  \"sku\": \"SKU-1042\",\n  \"quantity\": 2\n}\n```\n\
         ```json\n{\n  \"quantity\": 5,\n  \"sku\": \"SKU-7\"\n}\n```\n\n"
    );
    assert!(
        !ReserveWithout::contract()
            .to_markdown()
            .contains("Examples")
    );
    let json = serde_json::to_value(ReserveUnits::contract()).unwrap();
    assert_eq!(
        json["examples"],
        json!([{"sku": "SKU-1042", "quantity": 2}, {"quantity": 5, "sku": "SKU-7"}])
    );
    let json = serde_json::to_value(ReserveWithout::contract()).unwrap();
    assert_eq!(json.get("examples"), None);
}

/// `ReserveWithout` again, with one example: the
/// same contract but for its examples.
mod twin {
    use tool_contract::Tool;

    /// Reserve units of one SKU until the hold runs out.
    #[derive(Tool)]
    #[tool(
        name = "reserve_without",
        effect = "write",
        idempotent,
        example = r#"{"sku": "SKU-1042", "quantity": 2}"#
    )]
    pub struct ReserveWithout {
        /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
        #[tool(min_length = 1, max_length = 64)]
        pub sku: String,
        /// How many units to hold.
        #[tool(minimum = 1, maximum = 1000)]
        pub quantity: u32,
    }
}

#[test]
fn examples_are_part_of_the_fingerprint_and_the_lock_records_them() {
    let plain = ReserveWithout::contract();
    let with = twin::ReserveWithout::contract();
    assert_eq!(plain.name(), with.name());
    assert_ne!(plain.fingerprint(), with.fingerprint());
    assert_eq!(with.fingerprint(), WITH_EXAMPLE_FINGERPRINT);
    let locked = LockedTool::from_contract(with);
    assert_eq!(locked.examples, [json!({"quantity": 2, "sku": "SKU-1042"})]);
    assert_eq!(locked.fingerprint, with.fingerprint());
    let text = serde_json::to_value(&locked).unwrap();
    assert_eq!(
        text["examples"],
        json!([{"quantity": 2, "sku": "SKU-1042"}])
    );
    // A tool without examples writes no `examples` key, so its entry and
    // fingerprint are what they were.
    let locked = serde_json::to_value(LockedTool::from_contract(plain)).unwrap();
    assert_eq!(locked.get("examples"), None);
}

/// JSON files under the package; the golden files under
/// `tests/examples_golden/`.
mod files {
    const DIR: &str = "";
    const GOLDEN: &str = "tests/examples_golden";
    const BLESS: &str = "TOOL_CONTRACT_BLESS";

    include!("../files/golden.rs");
}

#[test]
fn each_providers_definition_of_a_tool_with_examples_is_its_golden_file() {
    let contracts = [ReserveUnits::contract()];
    let definitions = json!({
        "anthropic": tool_contract::anthropic::ToolSet::new(&contracts).unwrap().definitions(),
        "openai-responses": tool_contract::openai::tools_for_responses(&contracts).unwrap(),
        "openai-chat": tool_contract::openai::tools_for_chat_completions(&contracts).unwrap(),
        "gemini": tool_contract::gemini::tools_for_gemini(
            &contracts,
            tool_contract::gemini::Dialect::ParametersJsonSchema,
        )
        .unwrap(),
    });
    files::golden("input_examples.definitions.json", &definitions);
}
