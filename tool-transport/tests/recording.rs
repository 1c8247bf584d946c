//! A conversation recorded through `Recorder` and replayed from the files
//! it wrote: the same requests get the same responses, what got no
//! response is not recorded, and the files read back are the ones written.

use std::future::{Future, ready};
use std::io;
use std::path::PathBuf;
use std::pin::pin;
use std::task::{Context, Waker};

use serde_json::{Value, json};
use tool_transport::{Exchange, Recorder, Replay, Transport, TransportError};

/// A scripted model: answers the n-th request with the n-th scripted
/// result, whatever it asks.
struct Scripted {
    answers: Vec<Result<Value, TransportError>>,
    sent: usize,
}

impl Transport for Scripted {
    fn send(
        &mut self,
        _path: &str,
        _request: &Value,
    ) -> impl Future<Output = Result<Value, TransportError>> + Send {
        let answer =
            self.answers
                .get(self.sent)
                .cloned()
                .unwrap_or(Err(TransportError::Exhausted {
                    recorded: self.answers.len(),
                }));
        self.sent += 1;
        ready(answer)
    }
}

/// A fresh directory under the system's temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("tool-transport-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn block_on<F: Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}

fn tools() -> Value {
    json!([{"type": "function", "name": "get_inventory", "strict": true,
        "parameters": {"type": "object", "properties": {}, "required": [], "additionalProperties": false}}])
}

fn requests() -> Vec<Value> {
    vec![
        json!({"model": "m", "input": [{"role": "user", "content": "Stock?"}], "tools": tools()}),
        json!({"model": "m", "previous_response_id": "resp_1",
            "input": [{"type": "function_call_output", "call_id": "call_1", "output": "12"}],
            "tools": tools()}),
        // Other tools: kept in the request.
        json!({"model": "m", "previous_response_id": "resp_2", "input": [], "tools": []}),
    ]
}

fn responses() -> Vec<Value> {
    vec![
        json!({"id": "resp_1", "status": "completed", "output": [{"type": "function_call",
            "call_id": "call_1", "name": "get_inventory", "arguments": "{}"}]}),
        json!({"id": "resp_2", "status": "completed", "output": [{"type": "message",
            "content": [{"type": "output_text", "text": "12 in stock — ünïcode"}]}]}),
        json!({"id": "resp_3", "status": "completed", "output": []}),
    ]
}

#[test]
fn a_recorded_conversation_replays_from_its_files() {
    let dir = TempDir::new("round-trip");
    let mut recorder = Recorder::new(Scripted {
        answers: responses().into_iter().map(Ok).collect(),
        sent: 0,
    });
    let answers: Vec<Value> = requests()
        .iter()
        .map(|request| block_on(recorder.send("responses", request)).unwrap())
        .collect();
    assert_eq!(answers, responses());
    assert_eq!(recorder.exchanges().len(), 3);
    recorder.write_to(&dir.0).unwrap();

    // The files: the shared tools once, the requests pointing at them.
    let read = |name: &str| std::fs::read_to_string(dir.0.join(name)).unwrap();
    assert_eq!(
        read("tools.json"),
        format!("{}\n", serde_json::to_string_pretty(&tools()).unwrap())
    );
    let written: Value = serde_json::from_str(&read("requests.json")).unwrap();
    assert_eq!(written[0]["tools"], "<tools.json>");
    assert_eq!(written[1]["tools"], "<tools.json>");
    assert_eq!(written[2]["tools"], json!([]));
    assert_eq!(
        read("responses.json"),
        format!("{}\n", serde_json::to_string_pretty(&responses()).unwrap())
    );

    let mut replay = Replay::from_dir(&dir.0, "responses").unwrap();
    assert_eq!(replay, recorder.replay());
    for (request, response) in requests().iter().zip(responses()) {
        assert_eq!(block_on(replay.send("responses", request)), Ok(response));
    }
    assert!(replay.is_done());
    assert_eq!(
        block_on(replay.send("responses", &requests()[0])),
        Err(TransportError::Exhausted { recorded: 3 })
    );
    // Written again from the replay's exchanges: the same files.
    let (_, exchanges) = recorder.into_parts();
    let again = TempDir::new("round-trip-again");
    let mut copy = Recorder::new(Replay::new(exchanges));
    for request in requests() {
        block_on(copy.send("responses", &request)).unwrap();
    }
    copy.write_to(&again.0).unwrap();
    for name in ["requests.json", "responses.json", "tools.json"] {
        assert_eq!(
            std::fs::read(again.0.join(name)).unwrap(),
            read(name).into_bytes(),
            "{name}"
        );
    }
}

#[test]
fn a_request_that_got_no_response_is_not_recorded() {
    let refused = TransportError::Status {
        status: 429,
        message: "Rate limit reached".to_owned(),
    };
    let mut recorder = Recorder::new(Scripted {
        answers: vec![Ok(json!({"id": "resp_1"})), Err(refused.clone())],
        sent: 0,
    });
    assert_eq!(
        block_on(recorder.send("responses", &json!({"n": 1}))),
        Ok(json!({"id": "resp_1"}))
    );
    assert_eq!(
        block_on(recorder.send("responses", &json!({"n": 2}))),
        Err(refused)
    );
    assert_eq!(
        recorder.exchanges(),
        [Exchange::new(
            "responses",
            json!({"n": 1}),
            json!({"id": "resp_1"})
        )]
    );

    // A send whose future is dropped before it answers is not recorded.
    struct Never;
    impl Transport for Never {
        fn send(
            &mut self,
            _path: &str,
            _request: &Value,
        ) -> impl Future<Output = Result<Value, TransportError>> + Send {
            std::future::pending()
        }
    }
    let mut recorder = Recorder::new(Never);
    {
        let request = json!({"n": 1});
        let mut sending = pin!(recorder.send("responses", &request));
        let mut cx = Context::from_waker(Waker::noop());
        assert!(sending.as_mut().poll(&mut cx).is_pending());
    }
    assert_eq!(recorder.exchanges(), []);
}

#[test]
fn a_recording_holds_one_endpoint() {
    let dir = TempDir::new("two-endpoints");
    let mut recorder = Recorder::new(Scripted {
        answers: vec![Ok(json!({})), Ok(json!({}))],
        sent: 0,
    });
    block_on(recorder.send("responses", &json!({}))).unwrap();
    block_on(recorder.send("messages", &json!({}))).unwrap();
    let error = recorder.write_to(&dir.0).unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
    assert_eq!(
        error.to_string(),
        "request 1 went to `messages`, the first to `responses`; a recording holds one \
         endpoint, so record each endpoint with its own recorder"
    );
    assert!(!dir.0.exists());
}

#[test]
fn requests_without_shared_tools_are_written_as_sent() {
    // No request has tools: no tools.json (one left from an earlier
    // recording is removed). A request whose tools are the placeholder
    // text itself: nothing is factored out, so it reads back as sent.
    for sent in [
        json!({"input": "Hi"}),
        json!({"input": "Hi", "tools": "<tools.json>"}),
    ] {
        let dir = TempDir::new("no-tools");
        std::fs::create_dir_all(&dir.0).unwrap();
        std::fs::write(dir.0.join("tools.json"), "[]").unwrap();
        let mut recorder = Recorder::new(Scripted {
            answers: vec![Ok(json!({"id": "resp_1"}))],
            sent: 0,
        });
        block_on(recorder.send("responses", &sent)).unwrap();
        recorder.write_to(&dir.0).unwrap();
        assert!(!dir.0.join("tools.json").exists(), "{sent}");
        let mut replay = Replay::from_dir(&dir.0, "responses").unwrap();
        assert_eq!(
            block_on(replay.send("responses", &sent)),
            Ok(json!({"id": "resp_1"}))
        );
    }
}

#[test]
fn files_that_do_not_make_a_recording_are_refused_with_the_file() {
    let error = |requests: &str, responses: &str, tools: Option<&str>| {
        let error = Replay::from_files("responses", requests, responses, tools).unwrap_err();
        (error.kind(), error.to_string())
    };
    assert_eq!(
        error("[{}, {}]", "[{}]", None),
        (
            io::ErrorKind::InvalidData,
            "requests.json: 2 requests and 1 responses are recorded; each request needs its \
             response"
                .to_owned()
        )
    );
    assert_eq!(
        error("{}", "[]", None),
        (
            io::ErrorKind::InvalidData,
            "requests.json: not a JSON array: invalid type: map, expected a sequence at line 1 \
             column 0"
                .to_owned()
        )
    );
    assert_eq!(error("[]", "[]", Some("[")).0, io::ErrorKind::InvalidData);
    let missing = TempDir::new("missing");
    let error = Replay::from_dir(&missing.0, "responses").unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::NotFound);
    assert!(
        error
            .to_string()
            .starts_with(&missing.0.join("requests.json").display().to_string()),
        "{error}"
    );
}

/// Numbers are written so that they read back as the same numbers: a
/// tool's computed result sent back in the next request (`0.1 + 0.2`), a
/// price, a tiny or huge float, integers past 2^53. Parsing them back
/// inexactly would make the replay of the very conversation recorded
/// report a mismatch.
#[test]
fn numbers_replay_as_the_numbers_recorded() {
    let numbers = json!([
        0.1 + 0.2,
        0.136_456_700_000_000_01,
        0.196_456_699_999_999_98,
        1.071_566_039_146_582_6e-75,
        -1.603_964_615_428_183e143,
        1.586_084_611_999_269_7e-265,
        f64::MIN_POSITIVE,
        f64::MAX,
        u64::MAX,
        i64::MIN,
        -0.0
    ]);
    let request = json!({"model": "m", "input": [{"type": "function_call_output",
        "call_id": "c1", "output": numbers.clone()}], "temperature": 0.7});
    let response = json!({"output": [], "numbers": numbers});
    let mut recorder = Recorder::new(Replay::new(vec![Exchange::new(
        "responses",
        request.clone(),
        response.clone(),
    )]));
    assert_eq!(
        block_on(recorder.send("responses", &request)).unwrap(),
        response
    );
    let dir = TempDir::new("numbers");
    recorder.write_to(&dir.0).unwrap();
    let mut replay = Replay::from_dir(&dir.0, "responses").unwrap();
    assert_eq!(block_on(replay.send("responses", &request)), Ok(response));
    assert!(replay.is_done());
}
