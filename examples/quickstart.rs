//! The main example: one tool's contract, its OpenAI tool definition with the
//! strict schema, and a model's call parsed into the struct.
//!
//! Run it with `cargo run --example quickstart`.

#[path = "tools/mod.rs"]
mod tools;

use tool_contract::serde_json;
use tool_contract::{Session, Tool, openai};
use tools::{CreateRefundDraft, CustomerId};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let contract = CreateRefundDraft::contract();
    println!("== contract");
    println!("name:        {}", contract.name());
    println!("version:     {}", contract.version());
    println!("effect:      {:?}", contract.effect());
    println!("idempotency: {:?}", contract.idempotency());
    println!("approval:    {:?}", contract.approval());
    println!("timeout_ms:  {:?}", contract.timeout_ms());
    println!("data class:  {:?}", contract.data_class());
    println!("description: {}", contract.description());
    println!(
        "input schema:\n{}",
        serde_json::to_string_pretty(CreateRefundDraft::input_schema())?
    );

    println!("\n== OpenAI Chat Completions tool (strict)");
    let tool = openai::chat_completions_tool::<CreateRefundDraft>()?;
    println!("{}", serde_json::to_string_pretty(&tool)?);

    // The session carries what the application trusts; the model never sets it.
    let session = Session::new().with(CustomerId("cus_42".into()));

    println!("\n== a call from the model");
    let arguments = r#"{"order_ref": "A-10293", "reason": "damaged", "amount": {"amount_minor": 1999, "currency": "USD"}, "note": null}"#;
    println!("arguments: {arguments}");
    let call = CreateRefundDraft::from_arguments(arguments, &session)?;
    println!("parsed:    {call:?}");

    println!("\n== a call the model got wrong");
    let arguments = r#"{"order_ref": "A-10293", "reason": "Broken", "amount": null, "note": null}"#;
    println!("arguments: {arguments}");
    match CreateRefundDraft::from_arguments(arguments, &session) {
        Ok(call) => println!("parsed:    {call:?}"),
        Err(error) => println!("Error [{}]: {error}", error.code()),
    }
    Ok(())
}
