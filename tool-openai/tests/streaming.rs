//! Whole tool calls from streamed responses, over recorded chunk and event
//! sequences (`tests/streams/*.jsonl`, one `data:` payload a line): calls
//! come out whole, in order, when their end arrives; a stream cut off at
//! any point gives an error and never a half call.

use serde_json::{Value, json};
use tool_core::ToolCall;
use tool_openai::{
    Api, ChatCompletionsStream, MAX_STREAMED_ARGUMENT_BYTES, ResponsesStream, StreamError,
    StreamErrorKind,
};

fn fixture(name: &str) -> Vec<Value> {
    let path = format!("{}/tests/streams/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn call(id: &str, name: &str, arguments: &str) -> ToolCall {
    ToolCall::new(id, name, arguments)
}

/// Pushes every chunk; gives the calls each push gave out, by event number.
fn push_chat(stream: &mut ChatCompletionsStream, chunks: &[Value]) -> Vec<(usize, ToolCall)> {
    let mut out = Vec::new();
    for (i, chunk) in chunks.iter().enumerate() {
        for whole in stream.push(chunk).unwrap() {
            out.push((i, whole));
        }
    }
    out
}

fn chat_error(chunks: &[Value]) -> StreamError {
    let mut stream = ChatCompletionsStream::new();
    for chunk in chunks {
        if let Err(error) = stream.push(chunk) {
            return error;
        }
    }
    stream
        .finish()
        .expect_err("expected the stream to be refused")
}

fn responses_error(events: &[Value]) -> StreamError {
    let mut stream = ResponsesStream::new();
    for event in events {
        if let Err(error) = stream.push(event) {
            return error;
        }
    }
    stream
        .finish()
        .expect_err("expected the stream to be refused")
}

fn parts(error: &StreamError) -> (StreamErrorKind, Option<usize>, &str, &str) {
    (error.kind(), error.event(), error.path(), error.message())
}

use StreamErrorKind::{Api as ApiError, Malformed, TooLarge, Truncated};

fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|id| (*id).to_owned()).collect()
}

// ---- Chat Completions ----

#[test]
fn chat_parallel_calls_are_whole_at_finish_reason() {
    let chunks = fixture("chat_parallel.jsonl");
    let mut stream = ChatCompletionsStream::new();
    let given = push_chat(&mut stream, &chunks);
    let expected = [
        call("call_inv_1", "get_inventory", r#"{"sku":"SKU-1042"}"#),
        call(
            "call_ord_2",
            "get_order_status",
            r#"{"order_ref": "A-10293"}"#,
        ),
    ];
    // Both at chunk 12, the one with `finish_reason: "tool_calls"`.
    assert_eq!(
        given,
        [(12, expected[0].clone()), (12, expected[1].clone())]
    );
    let calls = stream.finish().unwrap();
    assert_eq!(calls.api, Api::ChatCompletions);
    assert_eq!(calls.model, "gpt-4.1-2025-04-14");
    assert_eq!(calls.calls, expected);
}

#[test]
fn chat_interleaved_fragments_join_by_index() {
    let chunks = fixture("chat_interleaved.jsonl");
    let mut stream = ChatCompletionsStream::new();
    push_chat(&mut stream, &chunks);
    assert_eq!(
        stream.finish().unwrap().calls,
        [
            call("call_a", "get_inventory", r#"{"sku": "SKU-1"}"#),
            call("call_b", "get_inventory", r#"{"sku": "SKU-2"}"#),
        ]
    );
}

#[test]
fn chat_stream_cut_off_anywhere_gives_no_call() {
    let chunks = fixture("chat_parallel.jsonl");
    // Every prefix that stops before the finishing chunk (12).
    for end in 0..12 {
        let mut stream = ChatCompletionsStream::new();
        assert_eq!(push_chat(&mut stream, &chunks[..end]), [], "prefix {end}");
        let error = stream.finish().unwrap_err();
        let (expected, open_calls) = match end {
            0 => (
                "the stream ended before its first chunk".to_owned(),
                ids(&[]),
            ),
            _ => {
                let open = if end >= 8 { 2 } else { 1 };
                (
                    format!(
                        "the stream ended before choice 0 finished with {open} tool call(s) not \
                         yet whole; it was cut off, so no call is given out"
                    ),
                    ids(&["call_inv_1", "call_ord_2"][..open]),
                )
            }
        };
        assert_eq!(
            parts(&error),
            (Truncated, None, "$", expected.as_str()),
            "prefix {end}"
        );
        assert_eq!(error.open_calls(), open_calls, "prefix {end}");
    }
}

#[test]
fn chat_finish_for_length_is_a_cut_off_call() {
    let mut chunks = fixture("chat_parallel.jsonl");
    chunks[12]["choices"][0]["finish_reason"] = json!("length");
    let error = chat_error(&chunks);
    assert_eq!(
        parts(&error),
        (
            Truncated,
            Some(12),
            "$.choices[0].finish_reason",
            "the choice with tool calls finished for `length`, so its last call may be cut off; \
             no call is given out"
        )
    );
    assert_eq!(error.open_calls(), ids(&["call_inv_1", "call_ord_2"]));
}

#[test]
fn chat_text_only_stream_has_no_calls() {
    let chunks = [
        json!({"model": "gpt-4.1", "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}, "finish_reason": null}]}),
        json!({"model": "gpt-4.1", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
    ];
    let mut stream = ChatCompletionsStream::new();
    assert_eq!(push_chat(&mut stream, &chunks), []);
    let calls = stream.finish().unwrap();
    assert!(calls.is_empty());
}

#[test]
fn chat_two_choices_with_calls_are_refused() {
    let first = |choice: usize, id: &str| {
        json!({"model": "m", "choices": [{"index": choice, "delta": {"tool_calls": [
            {"index": 0, "id": id, "type": "function", "function": {"name": "f", "arguments": "{}"}}
        ]}, "finish_reason": null}]})
    };
    let error = chat_error(&[first(0, "a"), first(1, "b")]);
    assert_eq!(
        parts(&error),
        (
            Malformed,
            Some(1),
            "$.choices[0].delta.tool_calls",
            "choices 0 and 1 both have tool calls; they are alternatives and only one can be \
             answered, so request `n: 1` when offering tools"
        )
    );
}

#[test]
fn chat_hostile_chunks_are_refused_with_a_path() {
    let cases = [
        (
            json!({"error": {"message": "Rate limit reached"}}),
            ApiError,
            "$.error",
            "the API answered with an error: Rate limit reached",
        ),
        (
            json!("data"),
            Malformed,
            "$",
            "expected an object, got a string",
        ),
        (
            json!({"choices": [{"index": -1, "delta": {}}]}),
            Malformed,
            "$.choices[0].index",
            "expected a non-negative integer, got -1",
        ),
        (
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"function": {"arguments": "{"}}]}}]}),
            Malformed,
            "$.choices[0].delta.tool_calls[0].index",
            "missing, and there is no call to add this fragment to",
        ),
        (
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": 7}}]}}]}),
            Malformed,
            "$.choices[0].delta.tool_calls[0].function.arguments",
            "expected a string, got a number",
        ),
        (
            json!({"choices": {"index": 0}}),
            Malformed,
            "$.choices",
            "expected an array, got an object",
        ),
    ];
    for (chunk, kind, path, message) in cases {
        let error = chat_error(std::slice::from_ref(&chunk));
        assert_eq!(parts(&error), (kind, Some(0), path, message), "{chunk}");
    }
}

#[test]
fn chat_fragments_without_index_join_by_id_or_follow_the_last_call() {
    // Some OpenAI-compatible servers leave `index` out of tool-call deltas.
    let fragment = |tool_call: Value| json!({"model": "m", "choices": [{"index": 0, "delta": {"tool_calls": [tool_call]}}]});
    let chunks = [
        fragment(
            json!({"id": "a", "type": "function", "function": {"name": "f", "arguments": "{\"x\":"}}),
        ),
        fragment(json!({"function": {"arguments": "1}"}})),
        fragment(
            json!({"id": "b", "type": "function", "function": {"name": "g", "arguments": "{}"}}),
        ),
        json!({"model": "m", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    ];
    let mut stream = ChatCompletionsStream::new();
    push_chat(&mut stream, &chunks);
    assert_eq!(
        stream.finish().unwrap().calls,
        [call("a", "f", r#"{"x":1}"#), call("b", "g", "{}")]
    );
}

#[test]
fn chat_a_call_that_changes_its_id_is_refused() {
    let chunks = [
        json!({"model": "m", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "a", "function": {"name": "f", "arguments": ""}}]}}]}),
        json!({"model": "m", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "b", "function": {"arguments": "{}"}}]}}]}),
    ];
    assert_eq!(
        parts(&chat_error(&chunks)),
        (
            Malformed,
            Some(1),
            "$.choices[0].delta.tool_calls[0].id",
            "call 0 already has the id `a`, not `b`"
        )
    );
}

#[test]
fn chat_a_call_without_id_or_name_is_refused_when_it_finishes() {
    let no_id = [
        json!({"model": "m", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 3, "function": {"name": "f", "arguments": "{}"}}]}}]}),
        json!({"model": "m", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    ];
    assert_eq!(
        parts(&chat_error(&no_id)),
        (
            Malformed,
            Some(1),
            "$.choices[0]",
            "call 3 finished without an `id`"
        )
    );
    let no_name = [
        json!({"model": "m", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c", "function": {"arguments": "{}"}}]}}]}),
        json!({"model": "m", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    ];
    assert_eq!(
        parts(&chat_error(&no_name)),
        (
            Malformed,
            Some(1),
            "$.choices[0]",
            "call 0 (`c`) finished without a name"
        )
    );
}

#[test]
fn chat_a_choice_that_goes_on_after_finishing_is_refused() {
    let mut chunks = fixture("chat_parallel.jsonl");
    chunks.insert(13, chunks[5].clone());
    assert_eq!(
        parts(&chat_error(&chunks)),
        (
            Malformed,
            Some(13),
            "$.choices[0]",
            "choice 0 goes on after it finished (\"tool_calls\")"
        )
    );
}

#[test]
fn chat_a_huge_call_is_refused_before_it_is_held() {
    let piece = "x".repeat(MAX_STREAMED_ARGUMENT_BYTES / 2);
    let fragment = |text: &str| json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c", "function": {"name": "f", "arguments": text}}]}}]});
    let error = chat_error(&[fragment(&piece), fragment(&piece), fragment("y")]);
    assert_eq!(
        parts(&error),
        (
            TooLarge,
            Some(2),
            "$.choices[0].delta.tool_calls[0].function.arguments",
            "the call's arguments grow past 16777216 bytes; the stream is refused"
        )
    );
}

// ---- Responses ----

#[test]
fn responses_calls_are_given_at_response_completed() {
    let events = fixture("responses_parallel.jsonl");
    let mut stream = ResponsesStream::new();
    let mut given = Vec::new();
    for (i, event) in events.iter().enumerate() {
        for whole in stream.push(event).unwrap() {
            given.push((i, whole));
        }
    }
    let first = call("call_inv_1", "get_inventory", r#"{"sku":"SKU-1042"}"#);
    let second = call(
        "call_ord_2",
        "get_order_status",
        r#"{"order_ref":"A-10293"}"#,
    );
    // Closed at events 11 and 16; given only once the response completed.
    assert_eq!(given, [(17, first.clone()), (17, second.clone())]);
    let calls = stream.finish().unwrap();
    assert_eq!(calls.api, Api::Responses);
    assert_eq!(calls.model, "gpt-4.1-2025-04-14");
    assert_eq!(calls.calls, [first, second]);
}

#[test]
fn responses_stream_cut_off_anywhere_is_an_error() {
    let events = fixture("responses_parallel.jsonl");
    for end in 0..events.len() - 1 {
        let mut stream = ResponsesStream::new();
        for event in &events[..end] {
            stream.push(event).unwrap();
        }
        let open = match end {
            5..=11 => " with call(s) call_inv_1 still open",
            13..=16 => " with call(s) call_ord_2 still open",
            _ => "",
        };
        let expected = format!(
            "the stream ended before `response.completed`{open}; it was cut off, so no call is \
             given out"
        );
        // None is given before `response.completed`: the calls done are
        // held back as well as the open ones.
        let open_calls = match end {
            0..=4 => ids(&[]),
            5..=12 => ids(&["call_inv_1"]),
            _ => ids(&["call_inv_1", "call_ord_2"]),
        };
        let error = stream.finish().unwrap_err();
        assert_eq!(
            parts(&error),
            (Truncated, None, "$", expected.as_str()),
            "prefix {end}"
        );
        assert_eq!(error.open_calls(), open_calls, "prefix {end}");
    }
}

#[test]
fn responses_incomplete_or_failed_is_an_error() {
    let mut events = fixture("responses_parallel.jsonl");
    events.truncate(8);
    events.push(json!({"type": "response.incomplete", "response": {
        "id": "resp_1", "status": "incomplete",
        "incomplete_details": {"reason": "max_output_tokens"}}}));
    let error = responses_error(&events);
    assert_eq!(
        parts(&error),
        (
            Truncated,
            Some(8),
            "$.type",
            "the response ended as `response.incomplete` (max_output_tokens); no call is given out"
        )
    );
    assert_eq!(error.open_calls(), ids(&["call_inv_1"]));
    events[8] = json!({"type": "response.failed", "response": {"status": "failed",
        "error": {"code": "server_error", "message": "The model failed."}}});
    assert_eq!(
        parts(&responses_error(&events)),
        (
            ApiError,
            Some(8),
            "$.type",
            "the response ended as `response.failed` (The model failed.); no call is given out"
        )
    );
    events[8] = json!({"type": "error", "code": "ERR_SOMETHING", "message": "Something went wrong", "param": null});
    assert_eq!(
        parts(&responses_error(&events)),
        (
            ApiError,
            Some(8),
            "$",
            "the API sent an error: Something went wrong"
        )
    );
}

#[test]
fn responses_completed_with_an_open_call_is_refused() {
    let events = fixture("responses_parallel.jsonl");
    let mut cut: Vec<Value> = events[..8].to_vec();
    cut.push(events[17].clone());
    let error = responses_error(&cut);
    assert_eq!(
        parts(&error),
        (
            Truncated,
            Some(8),
            "$",
            "the response completed with call `call_inv_1` still open"
        )
    );
    assert_eq!(error.open_calls(), ids(&["call_inv_1"]));
}

#[test]
fn responses_hostile_events_are_refused_with_a_path() {
    let events = fixture("responses_parallel.jsonl");
    let opened = &events[..5];
    let with = |event: Value| {
        let mut list = opened.to_vec();
        list.push(event);
        list
    };
    let cases = [
        (
            json!({"type": "response.function_call_arguments.delta", "item_id": "fc_9", "output_index": 7, "delta": "{"}),
            Malformed,
            "$.output_index",
            "arguments for output 7, which is no open function call",
        ),
        (
            json!({"type": "response.function_call_arguments.delta", "item_id": "fc_9", "output_index": 1, "delta": "{"}),
            Malformed,
            "$.item_id",
            "item `fc_9` at the output index of item `fc_1`",
        ),
        (
            json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 1}),
            Malformed,
            "$.delta",
            "missing",
        ),
        (
            json!({"type": "response.output_item.done", "output_index": 1, "item": {
                "type": "function_call", "id": "fc_1", "call_id": "call_other", "name": "get_inventory",
                "arguments": "{}", "status": "completed"}}),
            Malformed,
            "$.item.call_id",
            "output 1 opened as call `call_inv_1`, done as `call_other`",
        ),
        (
            json!({"type": "response.output_item.done", "output_index": 1, "item": {
                "type": "function_call", "id": "fc_1", "call_id": "call_inv_1", "name": "get_inventory",
                "arguments": "{\"sku\":", "status": "incomplete"}}),
            Truncated,
            "$.item.status",
            "call `call_inv_1` is done with status `incomplete`; it is not whole",
        ),
        (
            json!({"type": "response.output_item.done", "output_index": 4, "item": {
                "type": "function_call", "call_id": "x", "name": "f", "arguments": "{}"}}),
            Malformed,
            "$.output_index",
            "output 4 is done but was never added",
        ),
        (
            json!({"type": "response.output_item.added", "output_index": 1, "item": {
                "type": "function_call", "call_id": "x", "name": "f", "arguments": ""}}),
            Malformed,
            "$.output_index",
            "output 1 is opened twice",
        ),
        (
            json!({"type": "response.output_item.added", "output_index": 2, "item": {
                "type": "function_call", "name": "f", "arguments": ""}}),
            Malformed,
            "$.item.call_id",
            "missing",
        ),
        (json!({"delta": "x"}), Malformed, "$.type", "missing"),
    ];
    for (event, kind, path, message) in cases {
        let error = responses_error(&with(event.clone()));
        assert_eq!(parts(&error), (kind, Some(5), path, message), "{event}");
    }
}

#[test]
fn responses_an_event_after_completed_is_refused() {
    let mut events = fixture("responses_parallel.jsonl");
    events.push(events[4].clone());
    assert_eq!(
        parts(&responses_error(&events)),
        (
            Malformed,
            Some(18),
            "$",
            "an event after `response.completed`"
        )
    );
}

#[test]
fn responses_done_arguments_replace_the_deltas() {
    // A dropped delta: the `done` event's whole text wins.
    let mut events = fixture("responses_parallel.jsonl");
    events.remove(6);
    let mut stream = ResponsesStream::new();
    let mut given = Vec::new();
    for event in &events {
        given.extend(stream.push(event).unwrap());
    }
    assert_eq!(given[0].arguments, r#"{"sku":"SKU-1042"}"#);
}

#[test]
fn chat_a_huge_index_neither_panics_nor_allocates() {
    let chunks = [
        json!({"model": "m", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": u64::MAX, "id": "a", "function": {"name": "f", "arguments": "{}"}}]}}]}),
        // No index, a new id: the next index after the largest saturates
        // onto the same call, whose id differs.
        json!({"model": "m", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"id": "b", "function": {"name": "g", "arguments": "{}"}}]}}]}),
    ];
    assert_eq!(
        parts(&chat_error(&chunks)),
        (
            Malformed,
            Some(1),
            "$.choices[0].delta.tool_calls[0].id",
            "call 18446744073709551615 already has the id `a`, not `b`"
        )
    );
}

/// One call streamed whole, then `response.completed` carrying `response`.
fn streamed_call_then(response: Value) -> Vec<Value> {
    let item = |status: &str| {
        json!({"type": "function_call", "id": "fc_1", "call_id": "call_1",
               "name": "get_inventory", "arguments": "{}", "status": status})
    };
    vec![
        json!({"type": "response.created", "response": {"model": "gpt-4.1", "output": []}}),
        json!({"type": "response.output_item.added", "output_index": 0, "item": item("in_progress")}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": item("completed")}),
        json!({"type": "response.completed", "response": response}),
    ]
}

#[test]
fn responses_a_completed_event_whose_response_did_not_complete_gives_no_call() {
    // The whole-response reader answers every call of these responses
    // CALL_NOT_RUN; the stream refuses them, even after the call was
    // streamed as completed.
    let repeated_in_progress = json!({"model": "gpt-4.1", "status": "completed", "output": [
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_inventory",
         "arguments": "{}", "status": "in_progress"}]});
    let cut = json!({"model": "gpt-4.1", "status": "incomplete",
        "incomplete_details": {"reason": "max_output_tokens"}, "output": []});
    let cancelled = json!({"model": "gpt-4.1", "status": "cancelled", "output": []});
    for (response, reason) in [
        (repeated_in_progress, "function_call call_1 is in_progress"),
        (cut, "max_output_tokens"),
        (cancelled, "cancelled"),
    ] {
        assert_eq!(tool_openai::unfinished(&response).as_deref(), Some(reason));
        let events = streamed_call_then(response);
        let mut stream = ResponsesStream::new();
        for event in &events[..3] {
            assert_eq!(stream.push(event).unwrap(), Vec::new());
        }
        let error = stream.push(&events[3]).unwrap_err();
        assert_eq!(
            parts(&error),
            (
                Truncated,
                Some(3),
                "$.response",
                format!(
                    "`response.completed` carries a response that did not complete \
                     (\"{reason}\"); no call is given out"
                )
                .as_str()
            )
        );
        // Streamed whole, but held back with its response.
        assert_eq!(error.open_calls(), ids(&["call_1"]));
    }
}

#[test]
fn responses_a_completed_response_with_completed_calls_still_gives_them() {
    let whole = json!({"model": "gpt-4.1", "status": "completed", "output": [
        {"type": "message", "id": "msg_1", "status": "in_progress", "content": []},
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_inventory",
         "arguments": "{}", "status": "completed"}]});
    assert_eq!(tool_openai::unfinished(&whole), None);
    let mut stream = ResponsesStream::new();
    let mut given = Vec::new();
    for event in &streamed_call_then(whole) {
        given.extend(stream.push(event).unwrap());
    }
    assert_eq!(given, vec![call("call_1", "get_inventory", "{}")]);
}

#[test]
fn chat_a_finish_reason_is_kept_cut() {
    // 4,096 choices may each finish; what is kept of each reason is the
    // cut echo an error shows, not the text.
    let reason = "r".repeat(1 << 20);
    let chunks = [
        json!({"model": "m", "choices": [{"index": 1, "delta": {}, "finish_reason": reason}]}),
        json!({"choices": [{"index": 1, "delta": {"content": "more"}}]}),
    ];
    assert_eq!(
        parts(&chat_error(&chunks)),
        (
            Malformed,
            Some(1),
            "$.choices[0]",
            format!(
                "choice 1 goes on after it finished (\"{}\"… (1048576 bytes))",
                "r".repeat(64)
            )
            .as_str()
        )
    );
}

/// `function_call_arguments.done` gives a call's whole text: a delta after
/// it would grow text said to be whole, and an item done and then added
/// again at its output index would be a second call where the
/// whole-response reader sees one item.
#[test]
fn responses_a_call_does_not_grow_or_reopen_after_it_is_whole() {
    let item = |call_id: &str, status: &str| {
        json!({"type": "function_call", "id": "fc_1", "call_id": call_id,
               "name": "get_inventory", "arguments": "", "status": status})
    };
    let created =
        json!({"type": "response.created", "response": {"model": "gpt-4.1", "output": []}});
    let added = json!({"type": "response.output_item.added", "output_index": 0, "item": item("call_1", "in_progress")});
    let args_done = json!({"type": "response.function_call_arguments.done", "output_index": 0,
        "item_id": "fc_1", "arguments": "{}"});
    let late_delta = json!({"type": "response.function_call_arguments.delta", "output_index": 0,
        "item_id": "fc_1", "delta": "{\"sku\": 1}"});
    assert_eq!(
        parts(&responses_error(&[
            created.clone(),
            added.clone(),
            args_done.clone(),
            late_delta
        ])),
        (
            Malformed,
            Some(3),
            "$.delta",
            "arguments for call `call_1` after its `response.function_call_arguments.done`"
        )
    );
    let mut done_item = item("call_1", "completed");
    done_item["arguments"] = json!("{}");
    let done = json!({"type": "response.output_item.done", "output_index": 0, "item": done_item});
    let again = json!({"type": "response.output_item.added", "output_index": 0, "item": item("call_2", "in_progress")});
    assert_eq!(
        parts(&responses_error(&[created, added, args_done, done, again])),
        (
            Malformed,
            Some(4),
            "$.output_index",
            "output 0 is opened twice"
        )
    );
}

/// A refused stream stays refused: a caller that goes on pushing after an
/// error (logging it, say) gets the first error again from every later
/// push and from `finish`, never the calls of what was left. Here the
/// refused fragment is the middle of a call's arguments, and what is left
/// is whole JSON the model never sent.
#[test]
fn chat_a_refused_stream_stays_refused() {
    let fragment = |text: &str| {
        json!({"model": "m", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "id": "c", "type": "function", "function": {"name": "f", "arguments": text}}]}}]})
    };
    let mut stream = ChatCompletionsStream::new();
    stream.push(&fragment("{\"sku\": \"A")).unwrap();
    let refused = stream
        .push(&fragment(&"x".repeat(MAX_STREAMED_ARGUMENT_BYTES)))
        .unwrap_err();
    assert_eq!(
        parts(&refused),
        (
            TooLarge,
            Some(1),
            "$.choices[0].delta.tool_calls[0].function.arguments",
            "the call's arguments grow past 16777216 bytes; the stream is refused"
        )
    );
    assert_eq!(stream.push(&fragment("\"}")), Err(refused.clone()));
    assert_eq!(
        stream
            .push(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})),
        Err(refused.clone())
    );
    assert_eq!(stream.finish().unwrap_err(), refused);
}

#[test]
fn responses_a_refused_stream_stays_refused() {
    let mut events = streamed_call_then(json!({"model": "gpt-4.1", "status": "incomplete",
        "incomplete_details": {"reason": "max_output_tokens"}}));
    // A second `response.completed`, this one without a status.
    events.push(json!({"type": "response.completed", "response": {"model": "gpt-4.1"}}));
    let mut stream = ResponsesStream::new();
    for event in &events[..3] {
        stream.push(event).unwrap();
    }
    let refused = stream.push(&events[3]).unwrap_err();
    assert_eq!(refused.event(), Some(3));
    assert_eq!(stream.push(&events[4]), Err(refused.clone()));
    assert_eq!(stream.finish().unwrap_err(), refused);
}
