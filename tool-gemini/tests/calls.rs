//! Function calls read from `generateContent` responses and the
//! `functionResponse` parts written back; `toolConfig` modes.

use serde_json::json;
use tool_contract::{ToolCall, ToolError, ToolOutput};
use tool_gemini::{
    FunctionCalling, GeminiCall, function_response, function_responses_content,
    generate_content_calls,
};

/// A recorded Gemini 2.5 response with two parallel calls, a thought
/// signature and usage metadata.
fn recorded() -> serde_json::Value {
    json!({
        "candidates": [{
            "content": {"role": "model", "parts": [
                {"functionCall": {"id": "3vq1", "name": "get_inventory", "args": {"sku": "SKU-1042", "warehouse": null}},
                 "thoughtSignature": "CiQBVKhc..."},
                {"functionCall": {"id": "8kd2", "name": "list_stores"}}
            ]},
            "finishReason": "STOP",
            "index": 0
        }],
        "usageMetadata": {"promptTokenCount": 120, "candidatesTokenCount": 30, "totalTokenCount": 150},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "abc123"
    })
}

#[test]
fn calls_are_read_in_order_with_object_args_as_text() {
    let calls = generate_content_calls(&recorded()).unwrap();
    assert_eq!(calls.model, "gemini-2.5-flash");
    assert_eq!(
        calls.calls,
        [
            GeminiCall {
                call: ToolCall::new(
                    "3vq1",
                    "get_inventory",
                    r#"{"sku":"SKU-1042","warehouse":null}"#
                ),
                id: Some("3vq1".into()),
            },
            // A missing `args` is `{}` (opencode PR #43111).
            GeminiCall {
                call: ToolCall::new("8kd2", "list_stores", "{}"),
                id: Some("8kd2".into()),
            },
        ]
    );
    // The model's turn goes back unchanged, thought signature included.
    assert_eq!(
        calls.content,
        Some(recorded()["candidates"][0]["content"].clone())
    );
}

#[test]
fn calls_without_ids_get_unique_ids_and_answer_without_one() {
    let response = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"text": "Checking."},
        {"functionCall": {"name": "get_inventory", "args": {"sku": "A"}}},
        {"functionCall": {"name": "get_inventory", "args": {"sku": "B"}}}
    ]}}]});
    let calls = generate_content_calls(&response).unwrap();
    let ids: Vec<&str> = calls
        .calls
        .iter()
        .map(|c| c.call.call_id.as_str())
        .collect();
    assert_eq!(ids, ["get_inventory#0", "get_inventory#1"]);
    assert_eq!(calls.model, "");
    assert_eq!(
        function_response(&calls.calls[0], &ToolOutput::success("3 in stock")),
        Some(
            json!({"functionResponse": {"name": "get_inventory", "response": {"output": "3 in stock"}}})
        )
    );
}

#[test]
fn outputs_are_output_or_error_and_fatal_answers_nothing() {
    let call = GeminiCall {
        call: ToolCall::new("3vq1", "get_inventory", "{}"),
        id: Some("3vq1".into()),
    };
    let error = ToolError::not_found("SKU_NOT_FOUND", "No item has this SKU.");
    assert_eq!(
        function_response(&call, &ToolOutput::respond_to_model(error.clone())),
        Some(
            json!({"functionResponse": {"id": "3vq1", "name": "get_inventory",
            "response": {"error": "Error [SKU_NOT_FOUND]: No item has this SKU."}}})
        )
    );
    assert_eq!(function_response(&call, &ToolOutput::fatal(error)), None);
    assert_eq!(
        function_responses_content(vec![json!({"functionResponse": {}})]),
        json!({"role": "user", "parts": [{"functionResponse": {}}]})
    );
}

#[test]
fn text_only_and_blocked_responses() {
    let text = json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Hello"}]}}],
                      "modelVersion": "gemini-2.5-pro"});
    let calls = generate_content_calls(&text).unwrap();
    assert!(calls.is_empty());
    let blocked = json!({"promptFeedback": {"blockReason": "SAFETY"}});
    let error = generate_content_calls(&blocked).unwrap_err();
    assert_eq!(
        (error.path(), error.message()),
        (
            "$.promptFeedback.blockReason",
            "the prompt was blocked (SAFETY); there is no candidate"
        )
    );
}

#[test]
fn hostile_responses_are_errors_with_a_path() {
    let cases = [
        (
            json!({"error": {"code": 400, "message": "Invalid JSON payload received.", "status": "INVALID_ARGUMENT"}}),
            "$.error",
            "the API answered with an error: Invalid JSON payload received.",
        ),
        (
            json!({"candidates": [{"content": {"parts": [{"functionCall": {"args": {}}}]}}]}),
            "$.candidates[0].content.parts[0].functionCall.name",
            "missing or not a string",
        ),
        (
            json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "id": 3}}]}}]}),
            "$.candidates[0].content.parts[0].functionCall.id",
            "expected a string, got 3",
        ),
        (
            json!({"candidates": [{"content": {"parts": {"functionCall": {}}}}]}),
            "$.candidates[0].content.parts",
            "expected an array, got {\"functionCall\":{}}",
        ),
        (
            json!({"candidates": [
                {"content": {"parts": [{"functionCall": {"name": "f"}}]}},
                {"content": {"parts": [{"functionCall": {"name": "g"}}]}}
            ]}),
            "$.candidates",
            "2 candidates have function calls; they are alternatives and only one can be \
             answered, so request `candidateCount: 1` when offering tools",
        ),
        (json!([]), "$", "expected an object, got []"),
    ];
    for (response, path, message) in cases {
        let error = generate_content_calls(&response).unwrap_err();
        assert_eq!(
            (error.path(), error.message()),
            (path, message),
            "{response}"
        );
    }
}

#[test]
fn non_object_args_go_to_the_parser_as_they_are() {
    // The parser answers the model ("expected an object"); nothing is lost.
    let response = json!({"candidates": [{"content": {"parts": [
        {"functionCall": {"name": "f", "args": "sku=1"}},
        {"functionCall": {"name": "g", "args": null}}
    ]}}]});
    let calls = generate_content_calls(&response).unwrap();
    assert_eq!(calls.calls[0].call.arguments, r#""sku=1""#);
    assert_eq!(calls.calls[1].call.arguments, "{}");
}

#[test]
fn function_calling_modes() {
    assert_eq!(
        FunctionCalling::Auto.tool_config(),
        json!({"functionCallingConfig": {"mode": "AUTO"}})
    );
    assert_eq!(
        FunctionCalling::NoCalls.tool_config(),
        json!({"functionCallingConfig": {"mode": "NONE"}})
    );
    assert_eq!(
        FunctionCalling::Any(Vec::new()).tool_config(),
        json!({"functionCallingConfig": {"mode": "ANY"}})
    );
    assert_eq!(
        FunctionCalling::Validated(vec!["get_inventory".into(), "list_stores".into()])
            .tool_config(),
        json!({"functionCallingConfig": {"mode": "VALIDATED",
            "allowedFunctionNames": ["get_inventory", "list_stores"]}})
    );
}

/// An attack: two calls with one id cannot be told apart by their
/// responses, so the response is refused with the place.
#[test]
fn two_calls_with_one_id_are_refused() {
    let response = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"id": "c1", "name": "get_inventory", "args": {"sku": "A"}}},
        {"functionCall": {"id": "c1", "name": "get_inventory", "args": {"sku": "B"}}}
    ]}}]});
    let error = generate_content_calls(&response).expect_err("two calls with one id");
    assert_eq!(
        error.path(),
        "$.candidates[0].content.parts[1].functionCall.id"
    );
    assert_eq!(
        error.message(),
        "a second function call with the id `c1`; two calls with one id cannot be told apart \
         (their responses would answer either), so no call is given out"
    );
}

/// An attack: the id made up for a call without one never equals an
/// id the API gave another call, nor another made-up one.
#[test]
fn made_up_ids_never_equal_an_id_the_api_gave() {
    let response = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"id": "get_inventory#1", "name": "get_inventory", "args": {"sku": "A"}}},
        {"functionCall": {"name": "get_inventory", "args": {"sku": "B"}}},
        {"functionCall": {"id": "get_inventory#2", "name": "get_inventory", "args": {"sku": "C"}}},
        {"functionCall": {"name": "get_inventory", "args": {"sku": "D"}}}
    ]}}]});
    let calls = generate_content_calls(&response).unwrap();
    let ids: Vec<&str> = calls
        .calls
        .iter()
        .map(|c| c.call.call_id.as_str())
        .collect();
    assert_eq!(
        ids,
        [
            "get_inventory#1",
            "get_inventory#1#2",
            "get_inventory#2",
            "get_inventory#3"
        ]
    );
    let api_ids: Vec<Option<&str>> = calls.calls.iter().map(|c| c.id.as_deref()).collect();
    assert_eq!(
        api_ids,
        [Some("get_inventory#1"), None, Some("get_inventory#2"), None]
    );
}

#[test]
fn the_finish_reason_of_the_calling_candidate_is_kept() {
    let calls = generate_content_calls(&recorded()).unwrap();
    assert_eq!(calls.finish_reason.as_deref(), Some("STOP"));
    assert!(calls.may_run());
    let mut cut = recorded();
    cut["candidates"][0]["finishReason"] = json!("MAX_TOKENS");
    let calls = generate_content_calls(&cut).unwrap();
    assert_eq!(calls.finish_reason.as_deref(), Some("MAX_TOKENS"));
    assert!(!calls.may_run());
    cut["candidates"][0]["finishReason"] = json!(3);
    let error = generate_content_calls(&cut).unwrap_err();
    assert_eq!(error.path(), "$.candidates[0].finishReason");
    assert_eq!(error.message(), "expected a string, got 3");
    // A text answer without calls may "run" (there is nothing to run).
    let text = json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]},
        "finishReason": "MAX_TOKENS"}]});
    assert!(generate_content_calls(&text).unwrap().may_run());
}
