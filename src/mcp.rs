//! A [`Toolbox`](crate::Toolbox) served over the Model Context Protocol through rmcp (see
//! `examples/mcp_server.rs`).

pub use tool_mcp::{
    FATAL_MESSAGE, META_APPROVAL, META_DATA_CLASS, META_DEPRECATED, META_ERROR, META_PREFIX,
    META_TRUNCATED, META_VERSION, McpServer, RESULT_TOO_LARGE, ServeError, VALUE_KEY, annotations,
    call_tool_result, display_title, input_schema, mcp_tool, output_schema, requires_object_output,
    serve, serve_stdio, wraps,
};
/// The types of rmcp, the MCP SDK, that this module's signatures use.
pub mod rmcp {
    pub use tool_mcp::rmcp::{ErrorData, RoleServer, ServerHandler};
    /// rmcp's wire model, as far as this module's signatures use it.
    pub mod model {
        pub use tool_mcp::rmcp::model::{
            CallToolResult, ErrorCode, ProtocolVersion, Tool, ToolAnnotations,
        };
    }
    /// Why a connection did not start ([`ServeError::Start`](crate::mcp::ServeError::Start)).
    pub mod service {
        pub use tool_mcp::rmcp::service::ServerInitializeError;
    }
}
