//! The recorded-replay transport: requests checked exactly, the first
//! difference named by its JSON path, the recording never advanced by a
//! request that differs, and a request after the last one refused.

use serde_json::{Value, json};
use tool_transport::{Exchange, Replay, Transport, TransportError, first_difference};

fn diff(expected: Value, found: Value) -> Option<(String, String, String)> {
    first_difference(&expected, &found)
}

fn at(path: &str, expected: &str, found: &str) -> Option<(String, String, String)> {
    Some((path.to_owned(), expected.to_owned(), found.to_owned()))
}

#[test]
fn equal_documents_have_no_difference_whatever_their_key_order() {
    assert_eq!(
        diff(
            json!({"a": 1, "b": [true, null, {"c": "x", "d": 2.5}]}),
            json!({"b": [true, null, {"d": 2.5, "c": "x"}], "a": 1})
        ),
        None
    );
}

#[test]
fn the_first_difference_is_named_by_its_path() {
    assert_eq!(
        diff(json!({"input": [1, 2, 3]}), json!({"input": [1, 2]})),
        at("$.input[2]", "3", "absent")
    );
    assert_eq!(
        diff(json!({"input": [1]}), json!({"input": [1, {"x": 1}]})),
        at("$.input[1]", "absent", r#"{"x":1}"#)
    );
    assert_eq!(
        diff(json!({"model": "m"}), json!({"model": "m", "store": false})),
        at("$.store", "absent", "false")
    );
    assert_eq!(
        diff(json!({"model": "m", "tools": []}), json!({"model": "m"})),
        at("$.tools", "[]", "absent")
    );
    // A number is not its text, and 1 is not 1.0.
    assert_eq!(
        diff(json!({"n": 1}), json!({"n": "1"})),
        at("$.n", "1", r#""1""#)
    );
    assert_eq!(diff(json!([1]), json!([1.0])), at("$[0]", "1", "1.0"));
    // An object is not an array, at the root too.
    assert_eq!(diff(json!({}), json!([])), at("$", "{}", "[]"));
}

#[test]
fn keys_that_are_not_plain_words_are_quoted_in_the_path() {
    assert_eq!(
        diff(
            json!({"a.b": {"": {"x y": [0, {"\"q\"": 1}]}}}),
            json!({"a.b": {"": {"x y": [0, {"\"q\"": 2}]}}})
        ),
        at(r#"$["a.b"][""]["x y"][1]["\"q\""]"#, "1", "2")
    );
}

#[test]
fn long_values_are_shortened_to_200_characters() {
    let long = "é".repeat(500);
    let (path, expected, found) = diff(json!({"t": long}), json!({"t": "short"})).unwrap();
    assert_eq!(path, "$.t");
    assert_eq!(expected, format!("\"{}…", "é".repeat(199)));
    assert_eq!(found, r#""short""#);
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}

fn two_exchanges() -> Replay {
    Replay::new(vec![
        Exchange::new("responses", json!({"n": 1}), json!({"id": "r1"})),
        Exchange::new("responses", json!({"n": 2}), json!({"id": "r2"})),
    ])
}

#[test]
fn a_request_that_differs_does_not_advance_the_recording() {
    let mut replay = two_exchanges();
    assert_eq!(
        block_on(replay.send("responses", &json!({"n": 2}))),
        Err(TransportError::Mismatch {
            exchange: 0,
            at: "$.n".to_owned(),
            expected: "1".to_owned(),
            found: "2".to_owned(),
        })
    );
    assert_eq!(replay.answered(), 0);
    assert_eq!(
        block_on(replay.send("messages", &json!({"n": 1}))),
        Err(TransportError::Mismatch {
            exchange: 0,
            at: "path".to_owned(),
            expected: "responses".to_owned(),
            found: "messages".to_owned(),
        })
    );
    assert_eq!(
        block_on(replay.send("responses", &json!({"n": 1}))),
        Ok(json!({"id": "r1"}))
    );
    assert!(!replay.is_done());
    assert_eq!(
        block_on(replay.send("responses", &json!({"n": 2}))),
        Ok(json!({"id": "r2"}))
    );
    assert!(replay.is_done());
    let error = block_on(replay.send("responses", &json!({"n": 3}))).unwrap_err();
    assert_eq!(error, TransportError::Exhausted { recorded: 2 });
    assert_eq!(
        error.to_string(),
        "the loop sent a request after the 2 recorded ones; nothing is left to replay"
    );
}

#[test]
fn errors_say_what_happened() {
    let cases = [
        (
            TransportError::Status {
                status: 400,
                message: "No tool call found for function call output with call_id call_1."
                    .to_owned(),
            },
            "the provider answered 400: No tool call found for function call output with \
             call_id call_1.",
        ),
        (
            TransportError::Mismatch {
                exchange: 3,
                at: "$.input[0].call_id".to_owned(),
                expected: "\"call_1\"".to_owned(),
                found: "\"call_2\"".to_owned(),
            },
            "request 3 differs from the recording at $.input[0].call_id: recorded \"call_1\", \
             sent \"call_2\"",
        ),
        (
            TransportError::Body {
                message: "EOF while parsing a value at line 1 column 0".to_owned(),
            },
            "the provider's answer is not JSON: EOF while parsing a value at line 1 column 0",
        ),
    ];
    for (error, text) in cases {
        assert_eq!(error.to_string(), text);
    }
}

#[cfg(feature = "live")]
#[test]
fn the_http_transport_joins_base_url_and_path_with_one_slash() {
    use tool_transport::HttpTransport;
    let transport = HttpTransport::new("https://api.openai.com/v1/");
    assert_eq!(
        transport.url("responses"),
        "https://api.openai.com/v1/responses"
    );
    assert_eq!(
        transport.url("/responses"),
        "https://api.openai.com/v1/responses"
    );
    let local = HttpTransport::new("http://localhost:8080/v1");
    assert_eq!(local.url("responses"), "http://localhost:8080/v1/responses");
}

#[cfg(feature = "live")]
#[test]
fn the_http_transport_never_shows_a_header_value() {
    use tool_transport::HttpTransport;
    let transport = HttpTransport::new("http://127.0.0.1:9/v1")
        .bearer("sk-secret")
        .header("x-api-key", "sk-other\nsecret");
    let shown = format!("{transport:?}");
    assert_eq!(
        shown,
        r#"HttpTransport { base_url: "http://127.0.0.1:9/v1", headers: ["authorization", "x-api-key"], timeout: 120s, max_body_bytes: 33554432, .. }"#
    );
    // The value with a line break is refused before anything is sent.
    let mut transport = transport;
    let error = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(transport.send("responses", &json!({})))
        .unwrap_err();
    assert_eq!(
        error,
        TransportError::Header {
            name: "x-api-key".to_owned()
        }
    );
    assert_eq!(
        error.to_string(),
        "the header `x-api-key` has a name or value HTTP does not allow (the value is not shown)"
    );
}
