//! The agent loop over the OpenAI Responses API or the Anthropic Messages
//! API: the example tools offered as strict definitions, the model's tool
//! calls answered by a `Toolbox`, the results sent back, until the model
//! answers in text.
//!
//! Without an API key it replays a recorded conversation (no network, no
//! TLS): the model looks the stock up in two warehouses at once, gets a
//! reservation's arguments wrong and corrects them, and the reservation
//! waits for the customer's approval, which the loop shows and never gives
//! itself. The customer approves in the app, the model repeats the call,
//! and it runs. What the loop does not act on (reasoning or thinking, a web
//! search, an item or block type it does not know) is skipped, and with
//! the Messages API sent back unchanged. Each request the loop sends is
//! checked against the recorded one, exactly.
//!
//! ```text
//! cargo run --example agent_loop                 # replay, by previous_response_id
//! cargo run --example agent_loop -- --resend     # replay, resending the items
//! cargo run --example agent_loop -- --anthropic  # replay the Messages API recording
//! OPENAI_API_KEY=sk-... cargo run -p tool-contract-examples --features live --example agent_loop
//! ANTHROPIC_API_KEY=sk-ant-... cargo run -p tool-contract-examples --features live --example agent_loop -- --anthropic
//! OPENAI_API_KEY=sk-... cargo run -p tool-contract-examples --features live --example agent_loop -- --record my-recording
//! ```
//!
//! Live, it talks to `OPENAI_BASE_URL` (default `https://api.openai.com/v1`;
//! any server with the Responses API) with the model `OPENAI_MODEL`
//! (default `gpt-5-mini`), or with `--anthropic` to `ANTHROPIC_BASE_URL`
//! (default `https://api.anthropic.com/v1`) with the model
//! `ANTHROPIC_MODEL` (default `claude-sonnet-4-5`), and asks on the
//! terminal before it grants an approval. With `--record DIR` the live
//! conversation goes through a `transport::Recorder`, which writes what was
//! sent and answered into `DIR` as the files `Replay::from_dir` replays (the
//! recordings under `examples/agent/recorded/` have that layout).

#[path = "agent/shop.rs"]
mod shop;
#[path = "tools/mod.rs"]
mod tools;

use tool_contract::anthropic::agent as messages;
use tool_contract::approval::Approvals;
use tool_contract::openai::agent::{Continuation, ResponsesAgent, Turn, TurnEnd};
use tool_contract::prelude::*;
#[cfg(feature = "live")]
use tool_contract::transport::Recorder;
use tool_contract::transport::Transport;

type Error = Box<dyn std::error::Error>;

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    match run().await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), Error> {
    if std::env::args().any(|arg| arg == "--anthropic") {
        return match std::env::var("ANTHROPIC_API_KEY") {
            Ok(key) if !key.is_empty() => anthropic_live(&key).await,
            _ => anthropic_replay().await,
        };
    }
    let continuation = if std::env::args().any(|arg| arg == "--resend") {
        Continuation::Resend
    } else {
        Continuation::PreviousResponseId
    };
    match std::env::var("OPENAI_API_KEY") {
        Ok(key) if !key.is_empty() => live(&key, continuation).await,
        _ => replay(continuation).await,
    }
}

/// The recorded conversation, every request checked against the recording.
async fn replay(continuation: Continuation) -> Result<(), Error> {
    println!(
        "== replaying the recorded conversation ({continuation:?}); set OPENAI_API_KEY to talk to the API"
    );
    let stock = shop::stock();
    let toolbox = shop::toolbox(&stock, shop::recorded_clock);
    let mut replay = shop::recorded(continuation)?;
    let approvals = Approvals::new();
    let session = shop::session(&approvals);
    let settings = shop::settings(shop::MODEL, continuation);
    let mut agent = ResponsesAgent::new(&toolbox, &mut replay, settings)?;
    show_tools(agent.tools());

    let turn = say(&mut agent, shop::QUESTION, &session).await?;
    for request in turn.approval_requests() {
        println!(
            "app asks     approve {}({})?",
            request.tool,
            request.arguments.as_str()
        );
        println!("customer     approves (recorded)");
        approvals.grant(request.approve(format!("appr-{}", request.call_id)));
    }
    say(&mut agent, shop::APPROVED, &session).await?;
    drop(agent);
    if !replay.is_done() {
        return Err("the loop stopped before the recording did".into());
    }
    println!(
        "\n== all {} recorded requests were sent as recorded",
        replay.answered()
    );
    Ok(())
}

#[cfg(feature = "live")]
async fn live(key: &str, continuation: Continuation) -> Result<(), Error> {
    use std::time::SystemTime;

    use tool_contract::transport::HttpTransport;

    let base_url =
        std::env::var("OPENAI_BASE_URL").unwrap_or_else(|_| "https://api.openai.com/v1".to_owned());
    let model = std::env::var("OPENAI_MODEL").unwrap_or_else(|_| shop::MODEL.to_owned());
    println!("== talking to {base_url} as {model} ({continuation:?})");
    let stock = shop::stock();
    let toolbox = shop::toolbox(&stock, SystemTime::now);
    let mut transport = Recorder::new(HttpTransport::new(base_url).bearer(key));
    let approvals = Approvals::new();
    let session = shop::session(&approvals);
    let settings = shop::settings(&model, continuation);
    let mut agent = ResponsesAgent::new(&toolbox, &mut transport, settings)?;
    show_tools(agent.tools());
    let talked = talk(&mut agent, &approvals, &session).await;
    drop(agent);
    keep_recording(&transport)?;
    talked
}

/// The live conversation over the Responses API: the question, then the
/// follow-up after each approval the customer gives on the terminal.
#[cfg(feature = "live")]
async fn talk<T: Transport>(
    agent: &mut ResponsesAgent<'_, T>,
    approvals: &Approvals,
    session: &Session,
) -> Result<(), Error> {
    let mut message = shop::QUESTION.to_owned();
    for _ in 0..4 {
        let turn = say(agent, &message, session).await?;
        if turn.end == TurnEnd::Stopped {
            return Ok(());
        }
        let mut approved = 0;
        for request in turn.approval_requests() {
            println!(
                "app asks     approve {}({})? [y/N]",
                request.tool,
                request.arguments.as_str()
            );
            let mut line = String::new();
            std::io::stdin().read_line(&mut line)?;
            if line.trim().eq_ignore_ascii_case("y") {
                approvals.grant(request.approve(format!("appr-{}", request.call_id)));
                approved += 1;
            }
        }
        if approved == 0 {
            return Ok(());
        }
        message = shop::APPROVED.to_owned();
    }
    Ok(())
}

/// With `--record DIR`, writes what the live conversation sent and got
/// into `DIR` (`requests.json`, `responses.json`, `tools.json`), the files
/// `Replay::from_dir` replays.
#[cfg(feature = "live")]
fn keep_recording<T>(recorder: &Recorder<T>) -> Result<(), Error> {
    let mut args = std::env::args().skip_while(|arg| arg != "--record");
    if args.next().is_none() {
        return Ok(());
    }
    let dir = args.next().ok_or("`--record` needs a directory")?;
    recorder.write_to(&dir)?;
    println!(
        "\n== recorded {} exchanges into {dir}",
        recorder.exchanges().len()
    );
    Ok(())
}

#[cfg(not(feature = "live"))]
async fn live(_key: &str, continuation: Continuation) -> Result<(), Error> {
    println!(
        "OPENAI_API_KEY is set, but this build has no HTTP client: build with `--features live` to talk to the API."
    );
    replay(continuation).await
}

fn show_tools(tools: &[tool_contract::serde_json::Value]) {
    let names: Vec<&str> = tools
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    println!("tools        {} (strict)", names.join(", "));
}

/// One user turn: the message, then each response of the model and the
/// calls answered in it.
async fn say<T: Transport>(
    agent: &mut ResponsesAgent<'_, T>,
    message: &str,
    session: &Session,
) -> Result<Turn, Error> {
    println!("\ncustomer     {message}");
    let turn = agent.send(message, session).await?;
    for step in &turn.steps {
        let id = step.response["id"].as_str().unwrap_or("?");
        println!("--- response {id}");
        if !step.skipped.is_empty() {
            println!("skipped      {}", step.skipped.join(", "));
        }
        for (call, result) in &step.round.results {
            println!("model calls  {}({})", call.name, call.arguments);
            match result.model_text() {
                Some(text) => println!("model reads  {}", text.replace('\n', "\n             ")),
                None => println!("model reads  nothing: the run stops (fatal)"),
            }
        }
        if !step.text.is_empty() {
            println!("model says   {}", step.text);
        }
    }
    match &turn.end {
        TurnEnd::Answer(_) => {}
        TurnEnd::Refused(_) => println!("(the model refused)"),
        TurnEnd::Incomplete(reason) => println!("(the response was cut off: {reason})"),
        TurnEnd::RequestLimit => println!("(the turn reached its request limit)"),
        TurnEnd::Stopped => println!("(a call failed fatally; the conversation stops)"),
    }
    Ok(turn)
}

/// The recorded Messages API conversation, every request (the whole
/// conversation each time) checked against the recording.
async fn anthropic_replay() -> Result<(), Error> {
    println!(
        "== replaying the recorded Messages API conversation; set ANTHROPIC_API_KEY to talk to the API"
    );
    let stock = shop::stock();
    let toolbox = shop::toolbox(&stock, shop::recorded_clock);
    let mut replay = shop::recorded_anthropic()?;
    let approvals = Approvals::new();
    let session = shop::session(&approvals);
    let settings = shop::anthropic_settings(shop::ANTHROPIC_MODEL);
    let mut agent = messages::MessagesAgent::new(&toolbox, &mut replay, settings)?;
    show_tools(agent.tools());

    let turn = say_messages(&mut agent, shop::QUESTION, &session).await?;
    for request in turn.approval_requests() {
        println!(
            "app asks     approve {}({})?",
            request.tool,
            request.arguments.as_str()
        );
        println!("customer     approves (recorded)");
        approvals.grant(request.approve(format!("appr-{}", request.call_id)));
    }
    say_messages(&mut agent, shop::APPROVED, &session).await?;
    drop(agent);
    if !replay.is_done() {
        return Err("the loop stopped before the recording did".into());
    }
    println!(
        "\n== all {} recorded requests were sent as recorded",
        replay.answered()
    );
    Ok(())
}

#[cfg(feature = "live")]
async fn anthropic_live(key: &str) -> Result<(), Error> {
    use std::time::SystemTime;

    let base_url =
        std::env::var("ANTHROPIC_BASE_URL").unwrap_or_else(|_| messages::API_BASE_URL.to_owned());
    let model =
        std::env::var("ANTHROPIC_MODEL").unwrap_or_else(|_| shop::ANTHROPIC_MODEL.to_owned());
    println!("== talking to {base_url} as {model} (Messages API)");
    let stock = shop::stock();
    let toolbox = shop::toolbox(&stock, SystemTime::now);
    let mut transport = Recorder::new(messages::http_transport(base_url, key));
    let approvals = Approvals::new();
    let session = shop::session(&approvals);
    let settings = shop::anthropic_settings(&model);
    let mut agent = messages::MessagesAgent::new(&toolbox, &mut transport, settings)?;
    show_tools(agent.tools());
    let talked = talk_messages(&mut agent, &approvals, &session).await;
    drop(agent);
    keep_recording(&transport)?;
    talked
}

/// The live conversation over the Messages API, as [`talk`].
#[cfg(feature = "live")]
async fn talk_messages<T: Transport>(
    agent: &mut messages::MessagesAgent<'_, T>,
    approvals: &Approvals,
    session: &Session,
) -> Result<(), Error> {
    let mut message = shop::QUESTION.to_owned();
    for _ in 0..4 {
        let turn = say_messages(agent, &message, session).await?;
        if turn.end == messages::TurnEnd::Stopped {
            return Ok(());
        }
        let mut approved = 0;
        for request in turn.approval_requests() {
            println!(
                "app asks     approve {}({})? [y/N]",
                request.tool,
                request.arguments.as_str()
            );
            let mut line = String::new();
            std::io::stdin().read_line(&mut line)?;
            if line.trim().eq_ignore_ascii_case("y") {
                approvals.grant(request.approve(format!("appr-{}", request.call_id)));
                approved += 1;
            }
        }
        if approved == 0 {
            return Ok(());
        }
        message = shop::APPROVED.to_owned();
    }
    Ok(())
}

#[cfg(not(feature = "live"))]
async fn anthropic_live(_key: &str) -> Result<(), Error> {
    println!(
        "ANTHROPIC_API_KEY is set, but this build has no HTTP client: build with `--features live` to talk to the API."
    );
    anthropic_replay().await
}

/// One user turn over the Messages API: the message, then each response
/// of the model and the calls answered in it.
async fn say_messages<T: Transport>(
    agent: &mut messages::MessagesAgent<'_, T>,
    message: &str,
    session: &Session,
) -> Result<messages::Turn, Error> {
    println!("\ncustomer     {message}");
    let turn = agent.send(message, session).await?;
    for step in &turn.steps {
        let id = step.response["id"].as_str().unwrap_or("?");
        println!("--- response {id} ({})", step.stop_reason);
        if !step.skipped.is_empty() {
            println!(
                "skipped      {} (sent back as they are)",
                step.skipped.join(", ")
            );
        }
        if !step.text.is_empty() {
            println!("model says   {}", step.text);
        }
        for (call, result) in &step.round.results {
            println!("model calls  {}({})", call.name, call.arguments);
            match result.model_text() {
                Some(text) => println!("model reads  {}", text.replace('\n', "\n             ")),
                None => println!("model reads  nothing: the run stops (fatal)"),
            }
        }
        for call in &step.not_run {
            println!(
                "model calls  {}({}): not run, the response stopped with {}",
                call.name, call.arguments, step.stop_reason
            );
        }
    }
    match &turn.end {
        messages::TurnEnd::Answer(_) => {}
        messages::TurnEnd::Refused(_) => println!("(the model refused)"),
        messages::TurnEnd::Incomplete(reason) => println!("(the response was cut off: {reason})"),
        messages::TurnEnd::RequestLimit => println!("(the turn reached its request limit)"),
        messages::TurnEnd::Stopped => println!("(a call failed fatally; the conversation stops)"),
    }
    Ok(turn)
}
