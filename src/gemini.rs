//! Gemini `generateContent`: function declarations in both schema dialects,
//! `toolConfig`, function calls, and `functionResponse` parts; with
//! `runtime` the agent loop.

#[cfg(feature = "runtime")]
pub use tool_gemini::agent;
pub use tool_gemini::{
    Answer, Dialect, FunctionCalling, GeminiCall, GeminiCalls, GeminiRound, GeminiRule,
    GeminiSchemaError, GenerateContent, ResponseError, ToolSetError, function_declaration,
    function_declaration_for, function_response, function_responses_content,
    generate_content_calls, not_run, to_gemini_schema, tools_for_gemini,
};
