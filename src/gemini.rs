//! Gemini `generateContent`: function declarations in both schema dialects,
//! `toolConfig`, function calls, and `functionResponse` parts.

pub use tool_gemini::{
    Dialect, FunctionCalling, GeminiCall, GeminiCalls, GeminiRule, GeminiSchemaError,
    ResponseError, ToolSetError, function_declaration, function_declaration_for, function_response,
    function_responses_content, generate_content_calls, not_run, to_gemini_schema,
    tools_for_gemini,
};
#[cfg(feature = "runtime")]
pub use tool_gemini::{GeminiRound, GeminiToolboxExt};
