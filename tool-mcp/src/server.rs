//! The hand-written rmcp `ServerHandler` over a `Toolbox`.

use std::collections::HashMap;
use std::fmt;
use std::future::{Future, poll_fn};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::pin;
use std::sync::Arc;

use jsonschema::Validator;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CustomRequest, CustomResult, ErrorCode,
    Implementation, ListToolsResult, PaginatedRequestParams, RequestId, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use tool_core::{OutputKind, Session, ToolCall, ToolContract, ToolError, ToolOutput};
use tool_runtime::model_result::ResultStatus;
use tool_runtime::{AbortHandle, CallResult, Toolbox, VersionError};

use crate::definition::{mcp_tool, requires_object_output};
use crate::result::{
    FATAL_MESSAGE, call_tool_result, sent_structured_content, too_large, too_large_error,
};
use crate::transport::{CallAbort, RawArguments};

/// Builds the session of one request from its rmcp context (its `_meta`,
/// the client's info, the extensions a transport puts there).
type SessionFn = dyn Fn(&RequestContext<RoleServer>) -> Session + Send + Sync;

/// Sees the [`CallResult`] of every call: its audit record, its approval
/// request, its fatal reason.
type ResultFn = dyn Fn(&CallResult) + Send + Sync;

/// An MCP server of a [`Toolbox`]'s tools: an rmcp [`ServerHandler`]
/// written by hand, without rmcp's macros.
///
/// - `initialize` and `server/discover` name the application (the name and
///   version given to [`new`](Self::new)) and offer tools;
/// - `tools/list` gives every registered tool, sorted by name, in the MCP
///   dialect ([`mcp_tool`]) of the peer's revision, each at the version
///   the peer's session is offered ([`tools_for`](Self::tools_for): its
///   `VersionPins`, else the newest that is not retired);
/// - `tools/call` runs the call through the toolbox, with its approvals,
///   idempotent replays, time limits and audit records, in the session the
///   application builds ([`with_session`](Self::with_session),
///   [`with_session_fn`](Self::with_session_fn)); a client's
///   `notifications/cancelled` aborts the call (`ABORTED`). The answer is
///   [`call_tool_result`](crate::call_tool_result)'s.
///
/// Clients on 2025-11-25 (the `initialize` handshake) and on 2026-07-28
/// (`server/discover` and per-request `_meta`) are served; rmcp negotiates
/// the revision.
///
/// ```no_run
/// use tool_contract::mcp::McpServer;
/// use tool_contract::{CallContext, Tool, ToolError, Toolbox};
///
/// /// Look up the opening hours of one store, e.g. before promising a pickup.
/// #[derive(Tool)]
/// pub struct GetStoreHours {
///     /// Store code as printed on the receipt, e.g. "BER-1".
///     pub store: String,
/// }
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let mut toolbox = Toolbox::new();
/// toolbox.register(|call: GetStoreHours, _cx: CallContext| async move {
///     Ok::<_, ToolError>(format!("{} opens Mon-Sat 9:00-20:00.", call.store))
/// });
/// let server = McpServer::new(toolbox, "store-hours", "1.0.0");
/// tool_contract::mcp::serve_stdio(server).await?;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct McpServer {
    toolbox: Arc<Toolbox>,
    info: Implementation,
    instructions: Option<String>,
    session: Arc<SessionFn>,
    on_result: Option<Arc<ResultFn>>,
    /// The definitions a session without `VersionPins` gets, for peers
    /// that require object output and for the others, each sorted by name.
    tools_object_output: Arc<[Tool]>,
    tools_any_output: Arc<[Tool]>,
    /// Every served version's definitions and compiled output schemas, by
    /// tool name and major version: a success is checked against the
    /// schema its peer was given before it is sent.
    versions: Arc<HashMap<(String, u64), Definitions>>,
}

/// One served version as MCP peers get it: its definition for peers that
/// require object output and for the others, and their output schemas
/// compiled (`None`: none, or it did not compile, and is not checked).
struct Definitions {
    object_output: Tool,
    any_output: Tool,
    object_validator: Option<Validator>,
    any_validator: Option<Validator>,
}

impl Definitions {
    fn tool(&self, object_output: bool) -> &Tool {
        if object_output {
            &self.object_output
        } else {
            &self.any_output
        }
    }

    fn validator(&self, object_output: bool) -> Option<&Validator> {
        if object_output {
            self.object_validator.as_ref()
        } else {
            self.any_validator.as_ref()
        }
    }
}

/// The key of a served version: its name and major version.
fn key(contract: &ToolContract) -> (String, u64) {
    (contract.name().to_owned(), contract.version().major)
}

/// Compiles an `outputSchema` of a definition.
fn compile(tool: &Tool) -> Option<Validator> {
    let schema = Value::Object(tool.output_schema.as_deref()?.clone());
    jsonschema::draft202012::options().build(&schema).ok()
}

impl McpServer {
    /// A server of `toolbox`'s tools that names itself `name` at `version`
    /// (the application's, not rmcp's); every call runs in an empty
    /// [`Session`] until [`with_session`](Self::with_session) or
    /// [`with_session_fn`](Self::with_session_fn) says otherwise.
    ///
    /// The tool definitions are built here, once.
    pub fn new(
        toolbox: impl Into<Arc<Toolbox>>,
        name: impl Into<String>,
        version: impl Into<String>,
    ) -> Self {
        let toolbox = toolbox.into();
        let legacy = Some(&rmcp::model::ProtocolVersion::V_2025_11_25);
        let current = Some(&rmcp::model::ProtocolVersion::V_2026_07_28);
        let versions: HashMap<(String, u64), Definitions> = toolbox
            .served_contracts()
            .map(|contract| {
                let object_output = mcp_tool(contract, legacy);
                let any_output = mcp_tool(contract, current);
                let definitions = Definitions {
                    object_validator: compile(&object_output),
                    any_validator: compile(&any_output),
                    object_output,
                    any_output,
                };
                (key(contract), definitions)
            })
            .collect();
        let defaults: Vec<&Definitions> = toolbox
            .contracts()
            .filter_map(|contract| versions.get(&key(contract)))
            .collect();
        let tools_object_output = defaults.iter().map(|d| d.object_output.clone()).collect();
        let tools_any_output = defaults.iter().map(|d| d.any_output.clone()).collect();
        McpServer {
            versions: Arc::new(versions),
            toolbox,
            info: Implementation::new(name, version),
            instructions: None,
            session: Arc::new(|_| Session::new()),
            on_result: None,
            tools_object_output,
            tools_any_output,
        }
    }

    /// Sets what the server tells the client about using its tools
    /// (`instructions`, which many hosts put into the model's context).
    #[must_use]
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Runs every call in a clone of `session`: the session of the
    /// connection. Clones share what the session holds by `Arc`, such as
    /// `Approvals`, so an approval granted after the server started counts.
    #[must_use]
    pub fn with_session(mut self, session: Session) -> Self {
        self.session = Arc::new(move |_| session.clone());
        self
    }

    /// Builds the session of each call from its request: the client's
    /// info, the request's `_meta`, or what a transport put into the
    /// context's extensions (an HTTP request's headers, after the
    /// transport's authentication).
    ///
    /// The session also says which version of each tool the peer sees: put
    /// `VersionPins` into it (e.g. for a host known to be on an older
    /// version), and `tools/list` lists and `tools/call` runs each tool at
    /// the version pinned, else at its newest that is not retired.
    ///
    /// The client writes `_meta` and its info: never take an identity, a
    /// tenant or an approval from them; those come from the application's
    /// own authentication. A panic in `session` fails that request (a call,
    /// or a `tools/list`) with a JSON-RPC internal error and leaves the
    /// connection serving.
    #[must_use]
    pub fn with_session_fn(
        mut self,
        session: impl Fn(&RequestContext<RoleServer>) -> Session + Send + Sync + 'static,
    ) -> Self {
        self.session = Arc::new(session);
        self
    }

    /// Hands the [`CallResult`] of every call to `on_result`, before the
    /// client gets its answer: the audit record to keep (a fatal outcome's
    /// reason is only there), the approval request to show the user. A
    /// panic in it is caught; the client still gets its answer.
    #[must_use]
    pub fn on_result(mut self, on_result: impl Fn(&CallResult) + Send + Sync + 'static) -> Self {
        self.on_result = Some(Arc::new(on_result));
        self
    }

    /// The toolbox whose tools the server offers.
    pub fn toolbox(&self) -> &Toolbox {
        &self.toolbox
    }

    /// The tool definitions a peer on a revision that requires object
    /// output (`true`: 2025-11-25 and earlier) or not gets in a session
    /// without `VersionPins`, sorted by name: each tool at its newest
    /// version that is not retired when the server was built.
    pub fn tools(&self, object_output: bool) -> &[Tool] {
        if object_output {
            &self.tools_object_output
        } else {
            &self.tools_any_output
        }
    }

    /// The tool definitions `tools/list` gives in `session` (the one
    /// [`with_session`](Self::with_session) or
    /// [`with_session_fn`](Self::with_session_fn) builds for the peer),
    /// sorted by name: one version of each tool, the one the session's
    /// `VersionPins` name, else the newest that is not retired
    /// ([`Toolbox::contracts_for`]), so that a peer pinned to a version
    /// lists and calls only it. A pin that cannot be served is the
    /// [`VersionError`], which `tools/list` answers as a JSON-RPC internal
    /// error (`-32603`) naming it and its code.
    pub fn tools_for(
        &self,
        session: &Session,
        object_output: bool,
    ) -> Result<Vec<Tool>, VersionError> {
        Ok(self
            .toolbox
            .contracts_for(session)?
            .into_iter()
            .filter_map(|contract| self.versions.get(&key(contract)))
            .map(|definitions| definitions.tool(object_output).clone())
            .collect())
    }

    /// The session of one request, or the JSON-RPC error of a session
    /// function that panicked (the application's closures run inside the
    /// connection's task: a panic in one fails this request, not the
    /// connection).
    fn session(&self, context: &RequestContext<RoleServer>) -> Result<Session, ErrorData> {
        catch_unwind(AssertUnwindSafe(|| (self.session)(context)))
            .map_err(|_| ErrorData::internal_error(FATAL_MESSAGE, None))
    }

    /// Runs one `tools/call` as [`ServerHandler::call_tool`] does, with the
    /// request's cancellation token and session.
    async fn run(
        &self,
        request: CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let object_output = requires_object_output(context.protocol_version().as_ref());
        // The arguments as the client wrote them, when the transport kept
        // them (`serve`): rmcp's map has rounded integers beyond 64 bits
        // and kept the last of a repeated key.
        let raw = context.extensions.get::<RawArguments>();
        let arguments = match (raw, &request.arguments) {
            (Some(RawArguments(raw)), _) => raw.to_string(),
            (None, Some(arguments)) => serde_json::to_string(arguments)
                .map_err(|error| ErrorData::invalid_params(error.to_string(), None))?,
            (None, None) => "{}".to_owned(),
        };
        let call = ToolCall::new(call_id(&context.id), request.name.as_ref(), arguments);
        let session = self.session(context)?;
        // The transport of `serve` aborts the call through its own handle
        // on the client's `notifications/cancelled`; other transports
        // cancel `context.ct`.
        let abort = context
            .extensions
            .get::<CallAbort>()
            .map_or_else(AbortHandle::new, |CallAbort(abort)| abort.clone());
        let result = until_cancelled(
            self.toolbox.call_with_abort(&call, &session, &abort),
            context.ct.cancelled(),
            &abort,
        )
        .await;
        // The version the call was served at; a call pinned to a version
        // that is not served is still a call of a known tool.
        let contract = match result.version() {
            Some(version) => self.toolbox.contract_at(&call.name, version.major),
            None => self.toolbox.contract(&call.name),
        };
        let mut result = result;
        if let Some(contract) = contract {
            if let Some(error) = too_large(contract, &result.output) {
                let detail = format!(
                    "the output's text was cut at the toolbox's content limit and the output is no string: sent as `{}`",
                    error.code
                );
                answer_instead(&mut result, error, detail);
            }
            self.check_output(contract, &mut result, object_output);
        }
        if let Some(on_result) = &self.on_result {
            let _ = catch_unwind(AssertUnwindSafe(|| on_result(&result)));
        }
        call_tool_result(&result, contract, object_output).map(CallToolResponse::from)
    }

    /// A success whose structured content does not meet the tool's own
    /// output schema (a NaN or infinite float, which serde_json writes as
    /// `null`; a `Serialize` impl that disagrees with its `JsonSchema`) is
    /// not sent as one: the client's SDK would refuse it, or the model
    /// would read a value the schema says cannot be. It becomes the
    /// runtime's `INTERNAL` error (`isError: true`, the model told no
    /// more), with what failed in the audit record's `internal_detail`,
    /// which [`on_result`](Self::on_result) sees. A string output cut at the
    /// toolbox's content limit that its schema refuses is
    /// [`RESULT_TOO_LARGE`](crate::RESULT_TOO_LARGE) instead.
    fn check_output(&self, contract: &ToolContract, result: &mut CallResult, object_output: bool) {
        if !matches!(result.output, ToolOutput::Success { .. }) {
            return;
        }
        let Some(validator) = self
            .versions
            .get(&key(contract))
            .and_then(|definitions| definitions.validator(object_output))
        else {
            return;
        };
        let structured = sent_structured_content(contract, &result.output, object_output);
        let Err(error) = validator.validate(&structured) else {
            return;
        };
        let detail = format!(
            "the output does not meet the tool's output schema: {error} at `{}` (structuredContent {})",
            error.instance_path(),
            cut(&structured.to_string(), 512)
        );
        // A cut string that its schema refuses (a `pattern`, an `enum`):
        // the output was too large, not wrong.
        let error = match &result.output {
            ToolOutput::Success {
                truncated: true,
                content_text,
                details,
                ..
            } => too_large_error(content_text, details),
            _ => ToolError::internal(),
        };
        answer_instead(result, error, detail);
    }
}

/// Makes a success that is not sent as one `error` for the model, in the
/// model result and the audit record too (`detail`: why, for the audit).
fn answer_instead(result: &mut CallResult, error: ToolError, detail: String) {
    if let Some(model_result) = &mut result.model_result {
        model_result.status = ResultStatus::Error;
        model_result.data = Value::Null;
        model_result.error = Some(error.clone());
    }
    result.audit.result = OutputKind::RespondToModel;
    result.audit.error_code = Some(error.code.to_string());
    result.audit.internal_detail = Some(detail);
    result.output = ToolOutput::RespondToModel {
        error,
        details: Value::Null,
    };
}

/// `text` cut to at most `max` bytes, at a character boundary.
fn cut(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The call id of a request: its JSON-RPC id, cut to 128 characters (the
/// client chooses it, and the audit record keeps it).
fn call_id(id: &RequestId) -> String {
    let id = id.to_string();
    match id.char_indices().nth(128) {
        Some((end, _)) => id[..end].to_owned(),
        None => id,
    }
}

/// Polls `call` to its end; once `cancelled` is ready, aborts the call
/// (which then ends as `ABORTED`, or as it was about to).
async fn until_cancelled(
    call: impl Future<Output = CallResult>,
    cancelled: impl Future<Output = ()>,
    abort: &AbortHandle,
) -> CallResult {
    let mut call = pin!(call);
    let mut cancelled = pin!(cancelled);
    let mut fired = false;
    poll_fn(|cx| {
        if !fired && cancelled.as_mut().poll(cx).is_ready() {
            fired = true;
            abort.abort();
        }
        call.as_mut().poll(cx)
    })
    .await
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder().enable_tools().build();
        let config = ServerConfig::new(capabilities).with_server_info(self.info.clone());
        match &self.instructions {
            Some(instructions) => config.with_instructions(instructions.clone()),
            None => config,
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let object_output = requires_object_output(context.protocol_version().as_ref());
        let session = self.session(&context)?;
        let tools = self.tools_for(&session, object_output).map_err(|error| {
            ErrorData::internal_error(error.to_string(), Some(json!({"code": error.code()})))
        })?;
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.run(request, &context).await
    }

    /// rmcp hands a `tools/call` or `tools/list` whose params it cannot
    /// read (`arguments` that are not an object, a `name` that is not a
    /// string) over as a custom request; it is a malformed request
    /// (`-32602`), not an unknown method.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        match request.method.as_str() {
            "tools/call" => Err(ErrorData::invalid_params(
                "malformed tools/call: `params` needs a `name` string and, if any, an `arguments` object",
                None,
            )),
            "tools/list" => Err(ErrorData::invalid_params(
                "malformed tools/list: `params` may hold only a `cursor` string and `_meta`",
                None,
            )),
            _ => Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            )),
        }
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools_any_output
            .iter()
            .find(|tool| tool.name == name)
            .cloned()
    }
}

impl fmt::Debug for McpServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpServer")
            .field("name", &self.info.name)
            .field("version", &self.info.version)
            .field("toolbox", &self.toolbox)
            .finish_non_exhaustive()
    }
}
