//! OpenAI: strict schemas, Chat Completions and Responses tool definitions,
//! calls, streams, outputs, budgets; with `runtime` the agent loop.

#[cfg(feature = "runtime")]
pub use tool_openai::agent;
pub use tool_openai::{
    Answer, Api, BudgetError, BudgetLimit, CallRecord, ChatCompletionsStream, OverBudget,
    ResponseCalls, ResponseError, ResponsesStream, SchemaUsage, StreamError, StreamErrorKind,
    StrictRule, StrictSchemaError, StrictViolation, ToolRound, ToolSetError, allowed_tools,
    answer_chat_completions, answer_responses, answer_tool_calls, chat_completions_calls,
    chat_completions_tool, chat_completions_tool_for, chat_completions_tool_non_strict,
    check_budget, check_strict_schema, check_tool_set, not_run, responses_calls, responses_tool,
    responses_tool_for, responses_tool_non_strict, schema_usage, stream_limits, strict_schema,
    strict_schema_for, to_strict_json_schema, tools_for_chat_completions, tools_for_responses,
    unfinished, unknown_tool,
};
