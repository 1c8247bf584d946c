//! The example tool set's definitions as each provider's request JSON.
//!
//! Run it with `cargo run --example tool_definitions -- <dialect>`, one of
//! `openai-chat`, `openai-responses`, `anthropic`, `gemini`,
//! `gemini-openapi`, and `mcp` with `--features mcp`
//! (`cargo run --example tool_definitions --features mcp -- mcp`). It prints
//! the request's `tools` (and, where the provider has one, the tool-choice
//! setting) exactly as it is sent; an unknown dialect prints the usage and
//! exits with status 2.

#[path = "tools/mod.rs"]
mod tools;

use std::process::ExitCode;

use tool_contract::serde_json::{self, Value, json};
use tool_contract::{Tool, ToolContract, anthropic, gemini, openai};

/// The example tools, in the order every dialect lists them.
pub(crate) fn contracts() -> Vec<&'static ToolContract> {
    vec![
        tools::GetInventory::contract(),
        tools::ReserveInventory::contract(),
        tools::CreateRefundDraft::contract(),
    ]
}

/// What writing a dialect's request fragment gives.
pub(crate) type Written = Result<Value, Box<dyn std::error::Error>>;

/// One provider dialect: its name on the command line, what it is, and how
/// it writes the request fragment that offers the tools.
pub(crate) struct Dialect {
    pub(crate) name: &'static str,
    pub(crate) about: &'static str,
    pub(crate) write: fn(&[&'static ToolContract]) -> Written,
}

/// Every dialect; a new provider is one entry here.
pub(crate) const DIALECTS: &[Dialect] = &[
    Dialect {
        name: "openai-chat",
        about: "OpenAI Chat Completions `tools`, strict",
        write: |contracts| Ok(json!({"tools": openai::tools_for_chat_completions(contracts)?})),
    },
    Dialect {
        name: "openai-responses",
        about: "OpenAI Responses API `tools`, strict",
        write: |contracts| Ok(json!({"tools": openai::tools_for_responses(contracts)?})),
    },
    Dialect {
        name: "anthropic",
        about: "Anthropic Messages `tools`, strict, within the per-request budgets",
        write: |contracts| {
            let set = anthropic::ToolSet::new(contracts)?;
            Ok(json!({"tools": set.definitions()}))
        },
    },
    #[cfg(feature = "mcp")]
    Dialect {
        name: "mcp",
        about: "MCP `tools/list` result for the newest revision (needs `--features mcp`)",
        write: |contracts| {
            let tools: Vec<_> = contracts
                .iter()
                .map(|contract| tool_contract::mcp::mcp_tool(contract, None))
                .collect();
            Ok(json!({"tools": tools}))
        },
    },
    Dialect {
        name: "gemini",
        about: "Gemini `tools` with `parametersJsonSchema`, and `toolConfig`",
        write: |contracts| {
            Ok(json!({
                "tools": gemini::tools_for_gemini(contracts, gemini::Dialect::ParametersJsonSchema)?,
                "toolConfig": gemini::FunctionCalling::Auto.tool_config(),
            }))
        },
    },
    Dialect {
        name: "gemini-openapi",
        about: "Gemini `tools` with the OpenAPI-subset `parameters` (older models)",
        write: |contracts| {
            Ok(json!({
                "tools": gemini::tools_for_gemini(contracts, gemini::Dialect::OpenApiParameters)?,
                "toolConfig": gemini::FunctionCalling::Auto.tool_config(),
            }))
        },
    },
];

pub(crate) fn usage() -> String {
    let mut text =
        String::from("usage: cargo run --example tool_definitions -- <dialect>\n\ndialects:\n");
    for dialect in DIALECTS {
        text.push_str(&format!("  {:<18} {}\n", dialect.name, dialect.about));
    }
    text
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let chosen = match args.as_slice() {
        [one] => DIALECTS.iter().find(|d| d.name == one.as_str()),
        _ => None,
    };
    let Some(dialect) = chosen else {
        eprint!("{}", usage());
        return ExitCode::from(2);
    };
    let written =
        (dialect.write)(&contracts()).and_then(|value| Ok(serde_json::to_string_pretty(&value)?));
    match written {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("cannot write the {} definitions: {error}", dialect.name);
            ExitCode::FAILURE
        }
    }
}
