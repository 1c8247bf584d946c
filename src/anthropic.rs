//! Anthropic Messages: strict tool definitions, budgets, `tool_use` calls
//! (whole or streamed), `tool_result` blocks; with `runtime` the agent loop.

#[cfg(feature = "runtime")]
pub use tool_anthropic::agent;
pub use tool_anthropic::{
    BudgetError, INPUT_EXAMPLES_BETA, Limit, NullablePlan, OverBudget, ResponseCalls,
    ResponseError, StreamAssembler, StreamError, StreamErrorKind, StrictRule, StrictSchemaError,
    ToolChoice, ToolRound, ToolSet, ToolSetError, Usage, answer_calls, answer_tool_use, not_run,
    results_message, stream_limits, to_strict_input_schema, tool, tool_for, tool_non_strict,
    tool_result, tool_use_calls,
};
