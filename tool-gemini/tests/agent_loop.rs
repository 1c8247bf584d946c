//! The agent loop over Gemini's `generateContent`, replayed: a recorded
//! conversation through the example's shop (two parallel `functionCall`
//! parts without ids, an argument error the model corrects, a call
//! waiting for approval, thoughts with their signatures passed back
//! unchanged, a final answer; then the approved call and the last answer)
//! with every request (the whole conversation each time) checked against
//! the recording as exact JSON; and how the loop ends a turn on the other
//! finish reasons, refuses a call id Gemini repeats, and refuses settings
//! that would overwrite its keys.
#![cfg(feature = "runtime")]

#[path = "../../examples/agent/shop.rs"]
mod shop;
#[path = "../../examples/tools/mod.rs"]
mod tools;

use serde_json::{Value, json};
use tool_contract::approval::Approvals;
use tool_contract::gemini::agent::{
    AgentError, AgentSettings, GeminiAgent, Turn, TurnEnd, generate_content_path,
};
use tool_contract::transport::{Exchange, Recorder, Replay};
use tool_contract::{CallContext, Session, Tool, ToolError, Toolbox};

const APPROVAL_REQUIRED: &str = "Error [APPROVAL_REQUIRED]: This call needs the user's approval \
     before it runs. Ask the user to approve it, then make the same call again with the same \
     arguments.";
const FIRST_ANSWER: &str = "Berlin (BER-1) has 12 blue mugs SKU-1042 in stock; Hamburg (HAM-1) \
     has none. I can hold 2 in Berlin for 60 minutes, but the reservation needs your approval: \
     please confirm it in the app.";
const LAST_ANSWER: &str = "Done: 2 blue mugs SKU-1042 are held for you in Berlin until 10:00 UTC \
     (reservation RSV-acme-2).";
const RESERVATION: &str =
    r#"{"reservation_id":"RSV-acme-2","expires_at":"2026-05-04T10:00:00.000Z"}"#;
const STOCK_12: &str = r#"{"sku":"SKU-1042","available":12,"reserved":0}"#;
const STOCK_0: &str = r#"{"sku":"SKU-1042","available":0,"reserved":0}"#;
const TOO_LONG: &str =
    "Error [INVALID_ARGUMENTS]: $.sku: expected at most 64 characters, got 82 characters";

/// `(runtime call id, Gemini's id, tool, text the model reads)`.
type Answered = (String, Option<String>, String, String);

/// What each call answered in each step was.
fn answered(turn: &Turn) -> Vec<Vec<Answered>> {
    turn.steps
        .iter()
        .map(|step| {
            step.round
                .results
                .iter()
                .map(|(call, result)| {
                    (
                        call.call.call_id.clone(),
                        call.id.clone(),
                        call.call.name.clone(),
                        result.model_text().unwrap_or_default(),
                    )
                })
                .collect()
        })
        .collect()
}

fn call(id: &str, tool: &str, text: &str) -> Answered {
    (id.to_owned(), None, tool.to_owned(), text.to_owned())
}

fn texts(turn: &Turn) -> Vec<&str> {
    turn.steps.iter().map(|step| step.text.as_str()).collect()
}

fn skipped(turn: &Turn) -> Vec<Vec<&str>> {
    turn.steps
        .iter()
        .map(|step| step.skipped.iter().map(String::as_str).collect())
        .collect()
}

fn reasons(turn: &Turn) -> Vec<&str> {
    turn.steps
        .iter()
        .map(|step| step.stop_reason.as_str())
        .collect()
}

/// The recorded conversation through the example's shop: the question,
/// the customer approving what the loop surfaced, the follow-up. Every
/// request must be the recorded one (the replay compares exact JSON) and
/// come in order; the replay is done at the end.
#[tokio::test]
async fn the_recorded_conversation_replays_request_for_request() {
    let stock = shop::stock();
    let toolbox = shop::toolbox(&stock, shop::recorded_clock);
    let mut replay = shop::recorded_gemini().expect("the recording loads");
    let approvals = Approvals::new();
    let session = shop::session(&approvals);
    let settings = shop::gemini_settings(shop::GEMINI_MODEL);
    let mut agent = GeminiAgent::new(&toolbox, &mut replay, settings).expect("the tools declare");
    let first = agent.send(shop::QUESTION, &session).await.unwrap();

    assert_eq!(
        answered(&first),
        [
            vec![
                call("get_inventory#0", "get_inventory", STOCK_12),
                call("get_inventory#1", "get_inventory", STOCK_0),
            ],
            vec![call("reserve_inventory#0", "reserve_inventory", TOO_LONG)],
            vec![call(
                "reserve_inventory#0",
                "reserve_inventory",
                APPROVAL_REQUIRED
            )],
            vec![],
        ]
    );
    assert_eq!(reasons(&first), ["STOP", "STOP", "STOP", "STOP"]);
    assert_eq!(skipped(&first), [vec!["thought"], vec![], vec![], vec![]]);
    assert_eq!(
        texts(&first),
        [
            "I'll check both warehouses.",
            "Berlin has 12 in stock, Hamburg none. I'll hold two in Berlin.",
            "The SKU must be the code alone; trying again.",
            FIRST_ANSWER,
        ]
    );
    // The argument error goes back as an `error` response the model reads.
    assert_eq!(
        first.steps[1].round.answer.user_content,
        Some(json!({"role": "user", "parts": [{"functionResponse": {
            "name": "reserve_inventory",
            "response": {"error": TOO_LONG}
        }}]}))
    );
    assert!(first.steps.iter().all(|step| step.not_run.is_empty()));
    assert_eq!(first.end, TurnEnd::Answer(FIRST_ANSWER.to_owned()));
    let requests: Vec<(&str, &str, &str)> = first
        .approval_requests()
        .map(|r| (r.call_id.as_str(), r.tool.as_str(), r.arguments.as_str()))
        .collect();
    assert_eq!(
        requests,
        [(
            "reserve_inventory#0",
            "reserve_inventory",
            r#"{"hold":60,"quantity":2,"request_id":"6f1c2a9e-4d1b-4c5e-9f0a-2b7d3e8c1a45","sku":"SKU-1042"}"#
        )]
    );
    // Nothing was reserved before the approval.
    assert_eq!(
        stock.lock().unwrap()[&("SKU-1042".into(), "BER-1".into())],
        (12, 0)
    );

    for request in first.approval_requests() {
        approvals.grant(request.approve("appr-1"));
    }
    let second = agent.send(shop::APPROVED, &session).await.unwrap();
    assert_eq!(
        answered(&second),
        [
            vec![call(
                "reserve_inventory#0",
                "reserve_inventory",
                RESERVATION
            )],
            vec![]
        ]
    );
    assert_eq!(skipped(&second), [vec!["thought"], vec![]]);
    assert_eq!(second.end, TurnEnd::Answer(LAST_ANSWER.to_owned()));
    assert_eq!(second.answer(), Some(LAST_ANSWER));
    assert_eq!(second.approval_requests().count(), 0);
    assert_eq!(
        stock.lock().unwrap()[&("SKU-1042".into(), "BER-1".into())],
        (10, 2)
    );
    // The whole conversation went back with the last request: 4 model
    // turns and 4 user turns before the follow-up, then the approved call
    // and its response; the thought signatures unchanged.
    assert_eq!(agent.conversation().contents().len(), 12);
    assert_eq!(
        agent.conversation().contents()[1]["parts"][2]["thoughtSignature"],
        json!(
            "CiQB0e2Kb7vR3mX9pQ2sT5uW8yA1cE4gI7kM0oQ3sU6wY9aC2eG5iK8mO1qS4uW7yA0cE3gI6kM9oQ2sU5wY8aC1eG4iK7mO0qS3uW6yA9cE2g="
        )
    );
    drop(agent);
    assert!(replay.is_done(), "{} of 6 requests sent", replay.answered());
}

/// The conversation recorded again through a `Recorder` over the
/// recording (the scripted model) writes the files it replays from, byte
/// for byte.
#[tokio::test]
async fn recording_the_conversation_writes_the_files_it_replays_from() {
    let dir = std::env::temp_dir().join(format!("gemini-recording-{}", std::process::id()));
    let stock = shop::stock();
    let toolbox = shop::toolbox(&stock, shop::recorded_clock);
    let mut recorder = Recorder::new(shop::recorded_gemini().unwrap());
    let approvals = Approvals::new();
    let session = shop::session(&approvals);
    let settings = shop::gemini_settings(shop::GEMINI_MODEL);
    let mut agent = GeminiAgent::new(&toolbox, &mut recorder, settings).unwrap();
    let first = agent.send(shop::QUESTION, &session).await.unwrap();
    for request in first.approval_requests() {
        approvals.grant(request.approve("appr-1"));
    }
    agent.send(shop::APPROVED, &session).await.unwrap();
    drop(agent);
    assert_eq!(recorder.exchanges().len(), 6);
    recorder.write_to(&dir).unwrap();
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    assert_eq!(read("requests.json"), shop::GEMINI_REQUESTS);
    assert_eq!(read("responses.json"), shop::GEMINI_RESPONSES);
    assert_eq!(read("tools.json"), shop::GEMINI_TOOLS);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Count how often the counter ran, e.g. to see that a call did not run.
#[derive(Tool)]
pub struct BumpCounter {
    /// What the bump is for, e.g. "a".
    pub note: String,
}

fn counting_toolbox() -> (Toolbox, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    let runs = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = runs.clone();
    let mut toolbox = Toolbox::new();
    toolbox.register(move |call: BumpCounter, _cx: CallContext| {
        let counter = counter.clone();
        async move {
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Ok::<_, ToolError>(format!("bumped {}", call.note))
        }
    });
    (toolbox, runs)
}

const MODEL: &str = "gemini-2.5-flash";

fn model_turn(parts: Value, finish_reason: &str) -> Value {
    json!({"candidates": [{"content": {"role": "model", "parts": parts},
        "finishReason": finish_reason}], "modelVersion": MODEL})
}

fn question(text: &str) -> Value {
    json!({"role": "user", "parts": [{"text": text}]})
}

fn request(tools: &[Value], contents: Value) -> Value {
    json!({"contents": contents, "tools": tools})
}

fn bump(id: Option<&str>, note: &str) -> Value {
    match id {
        Some(id) => {
            json!({"functionCall": {"id": id, "name": "bump_counter", "args": {"note": note}}})
        }
        None => json!({"functionCall": {"name": "bump_counter", "args": {"note": note}}}),
    }
}

fn tools() -> Vec<Value> {
    let contracts = [BumpCounter::contract()];
    let tools = tool_contract::gemini::tools_for_gemini(
        &contracts,
        tool_contract::gemini::Dialect::ParametersJsonSchema,
    )
    .unwrap();
    tools.as_array().unwrap().clone()
}

/// A candidate cut off at `MAX_TOKENS` ends the turn `Incomplete`; its
/// call never runs and is answered `CALL_NOT_RUN` before the next
/// message. `SAFETY` ends it `Refused` with the text there is.
#[tokio::test]
async fn other_finish_reasons_end_the_turn_and_run_no_call() {
    let (toolbox, runs) = counting_toolbox();
    let tools = tools();
    let cut = model_turn(
        json!([{"text": "Bumping."}, bump(Some("fc-1"), "a")]),
        "MAX_TOKENS",
    );
    let not_run = json!({"role": "user", "parts": [
        {"functionResponse": {"id": "fc-1", "name": "bump_counter", "response": {"error":
            "Error [CALL_NOT_RUN]: The call did not run: the answer finished with \"MAX_TOKENS\", \
             not \"STOP\", so its calls may be cut off or withheld. Make the call again if it is \
             still needed."}}},
        {"text": "Go on."}
    ]});
    let blocked = model_turn(json!([{"text": "I can't help with that."}]), "SAFETY");
    let path = generate_content_path(MODEL);
    let mut replay = Replay::new(vec![
        Exchange::new(
            &path,
            request(&tools, json!([question("Bump a.")])),
            cut.clone(),
        ),
        Exchange::new(
            &path,
            request(
                &tools,
                json!([
                    question("Bump a."),
                    cut["candidates"][0]["content"],
                    not_run
                ]),
            ),
            blocked,
        ),
    ]);
    let mut agent = GeminiAgent::new(&toolbox, &mut replay, AgentSettings::new(MODEL)).unwrap();
    let turn = agent.send("Bump a.", &Session::new()).await.unwrap();
    assert_eq!(turn.end, TurnEnd::Incomplete("MAX_TOKENS".to_owned()));
    assert_eq!(turn.steps[0].not_run.len(), 1);
    assert_eq!(turn.steps[0].text, "Bumping.");
    let turn = agent.send("Go on.", &Session::new()).await.unwrap();
    assert_eq!(
        turn.end,
        TurnEnd::Refused("I can't help with that.".to_owned())
    );
    assert_eq!(runs.load(std::sync::atomic::Ordering::SeqCst), 0);
    drop(agent);
    assert!(replay.is_done());
}

/// A candidate blocked before it had any content (no `content`, only
/// `finishReason: "SAFETY"`) ends the turn `Refused`, not as a response
/// without a reason; one with no reason at all is `Incomplete`.
#[tokio::test]
async fn a_candidate_blocked_without_content_is_a_refusal() {
    let (toolbox, _) = counting_toolbox();
    let tools = tools();
    let path = generate_content_path(MODEL);
    let blocked =
        json!({"candidates": [{"finishReason": "SAFETY", "index": 0}], "modelVersion": MODEL});
    let empty = json!({"candidates": [], "modelVersion": MODEL});
    let mut replay = Replay::new(vec![
        Exchange::new(
            &path,
            request(&tools, json!([question("Bump a.")])),
            blocked,
        ),
        Exchange::new(
            &path,
            request(&tools, json!([question("Bump a."), question("Bump b.")])),
            empty,
        ),
    ]);
    let mut agent = GeminiAgent::new(&toolbox, &mut replay, AgentSettings::new(MODEL)).unwrap();
    let turn = agent.send("Bump a.", &Session::new()).await.unwrap();
    assert_eq!(turn.end, TurnEnd::Refused(String::new()));
    assert_eq!(turn.steps[0].stop_reason, "SAFETY");
    let turn = agent.send("Bump b.", &Session::new()).await.unwrap();
    assert_eq!(turn.end, TurnEnd::Incomplete("no finishReason".to_owned()));
    drop(agent);
    assert!(replay.is_done());
}

/// Calls without ids are named by their place in their own response, so
/// the next response may name one alike and it runs; an id Gemini gave
/// that comes again in a later response is refused before anything of
/// that response runs (the call would run a second time).
#[tokio::test]
async fn a_repeated_gemini_id_is_refused_and_calls_without_ids_run() {
    let (toolbox, runs) = counting_toolbox();
    let tools = tools();
    let first = model_turn(json!([bump(None, "a"), bump(Some("fc-1"), "b")]), "STOP");
    let answers = json!({"role": "user", "parts": [
        {"functionResponse": {"name": "bump_counter", "response": {"output": "bumped a"}}},
        {"functionResponse": {"id": "fc-1", "name": "bump_counter", "response": {"output": "bumped b"}}}
    ]});
    let again = model_turn(json!([bump(None, "c"), bump(Some("fc-1"), "d")]), "STOP");
    let path = generate_content_path(MODEL);
    let mut replay = Replay::new(vec![
        Exchange::new(
            &path,
            request(&tools, json!([question("Bump.")])),
            first.clone(),
        ),
        Exchange::new(
            &path,
            request(
                &tools,
                json!([
                    question("Bump."),
                    first["candidates"][0]["content"],
                    answers
                ]),
            ),
            again,
        ),
    ]);
    let mut agent = GeminiAgent::new(&toolbox, &mut replay, AgentSettings::new(MODEL)).unwrap();
    let error = agent.send("Bump.", &Session::new()).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the response cannot be read: $.candidates[0].content.parts[1].functionCall.id: the \
         function call id `fc-1` was answered in an earlier response of this conversation; \
         running it would run that call a second time, so nothing of this response runs"
    );
    assert_eq!(runs.load(std::sync::atomic::Ordering::SeqCst), 2);
    assert!(matches!(
        agent.send("Again.", &Session::new()).await,
        Err(AgentError::Stopped)
    ));
}

/// Settings may not set what the loop writes itself.
#[test]
fn settings_that_set_a_loop_key_are_refused() {
    let (toolbox, _) = counting_toolbox();
    for key in ["contents", "tools", "toolConfig", "systemInstruction"] {
        let mut settings = AgentSettings::new(MODEL);
        settings.extra.insert(key.to_owned(), json!(1));
        let error = GeminiAgent::new(&toolbox, Replay::new(Vec::new()), settings)
            .err()
            .expect("refused");
        assert!(
            matches!(&error, AgentError::ReservedKey(k) if k == key),
            "{error}"
        );
        assert_eq!(
            error.to_string(),
            format!(
                "`{key}` is the loop's to set (it writes contents, tools, toolConfig and \
                 systemInstruction, and reads whole responses, never a stream); leave it out of \
                 the extra request keys"
            )
        );
    }
}

/// A turn narrowed to `get_inventory` sends the same declarations with
/// `toolConfig.functionCallingConfig` `ANY` and `allowedFunctionNames`
/// (over the settings' calling mode); a call of another tool is refused
/// `TOOL_NOT_OFFERED` naming the offered one, and does not run.
#[tokio::test]
async fn a_narrowed_turn_names_its_functions_and_refuses_a_call_of_another() {
    let stock = shop::stock();
    let toolbox = shop::toolbox(&stock, shop::recorded_clock);
    let contracts: Vec<_> = toolbox.contracts().collect();
    let tools = tool_contract::gemini::tools_for_gemini(
        &contracts,
        tool_contract::gemini::Dialect::ParametersJsonSchema,
    )
    .unwrap();
    let reserve = json!({"functionCall": {"id": "fc-1", "name": "reserve_inventory", "args":
        {"sku": "SKU-1042", "quantity": 2, "hold": 60,
         "request_id": "6f1c2a9e-4d1b-4c5e-9f0a-2b7d3e8c1a45"}}});
    let called = model_turn(json!([reserve]), "STOP");
    let tool_config = json!({"functionCallingConfig": {"mode": "ANY",
        "allowedFunctionNames": ["get_inventory"]}});
    let refused = json!({"role": "user", "parts": [{"functionResponse": {"id": "fc-1",
        "name": "reserve_inventory", "response": {"error": "Error [TOOL_NOT_OFFERED]: The tool \
        \"reserve_inventory\" is not offered in this turn. Use one of: get_inventory."}}}]});
    let path = generate_content_path(MODEL);
    let mut replay = Replay::new(vec![
        Exchange::new(
            &path,
            json!({"contents": [question("Hold 2 mugs.")], "tools": tools,
                "toolConfig": tool_config}),
            called.clone(),
        ),
        Exchange::new(
            &path,
            json!({"contents": [question("Hold 2 mugs."), called["candidates"][0]["content"],
                refused], "tools": tools, "toolConfig": tool_config}),
            model_turn(json!([{"text": "Only the stock now."}]), "STOP"),
        ),
    ]);
    let mut settings = AgentSettings::new(MODEL);
    settings.function_calling = Some(tool_contract::gemini::FunctionCalling::Auto);
    let mut agent = GeminiAgent::new(&toolbox, &mut replay, settings).unwrap();
    agent
        .narrow(tool_contract::Narrowing::required(["get_inventory"]))
        .unwrap();
    let session = shop::session(&Approvals::new());
    let turn = agent.send("Hold 2 mugs.", &session).await.unwrap();
    assert_eq!(
        answered(&turn)[0],
        [(
            "fc-1".to_owned(),
            Some("fc-1".to_owned()),
            "reserve_inventory".to_owned(),
            "Error [TOOL_NOT_OFFERED]: The tool \"reserve_inventory\" is not offered in this \
             turn. Use one of: get_inventory."
                .to_owned()
        )]
    );
    assert_eq!(turn.answer(), Some("Only the stock now."));
    drop(agent);
    assert!(replay.is_done());
}
