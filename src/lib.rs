//! Declare the tools an LLM agent may call as plain Rust structs, and get a
//! complete, checked contract from each: name, description, input schema,
//! execution policy, version, an OpenAI strict-mode schema and a parser that
//! reads the model's JSON straight into the struct.
//!
//! ```
//! use serde::Deserialize;
//! use schemars::JsonSchema;
//! use tool_contract::{Money, Session, Tool};
//!
//! #[derive(Clone, Debug, PartialEq)]
//! pub struct CustomerId(pub String);
//!
//! /// Why the customer wants a refund.
//! #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
//! #[serde(rename_all = "snake_case")]
//! pub enum RefundReason { Damaged, Late, Other }
//!
//! /// Create a refund draft for an order that the signed-in user may refund.
//! /// It does not submit the refund. Returns the draft id.
//! #[derive(Debug, Tool)]
//! #[tool(version = "2.0.0", effect = "write", idempotent)]
//! pub struct CreateRefundDraft {
//!     /// Order reference exactly as the app shows it to the user, e.g. "A-10293".
//!     #[tool(min_length = 1)]
//!     pub order_ref: String,
//!     /// Why the customer wants the refund.
//!     pub reason: RefundReason,
//!     /// Amount to refund; null refunds the whole order.
//!     pub amount: Option<Money>,
//!     /// Signed-in customer; taken from the trusted session, never from the model.
//!     #[tool(inject)]
//!     pub customer: CustomerId,
//! }
//!
//! let contract = CreateRefundDraft::contract();
//! assert_eq!(contract.name(), "create_refund_draft");
//! assert_eq!(contract.version().to_string(), "2.0.0");
//!
//! let session = Session::new().with(CustomerId("c-42".into()));
//! let call = CreateRefundDraft::from_arguments(
//!     r#"{"order_ref": "A-10293", "reason": "damaged", "amount": null}"#,
//!     &session,
//! )?;
//! assert_eq!(call.customer, CustomerId("c-42".into()));
//! assert_eq!(call.amount, None);
//!
//! let strict = tool_contract::openai::strict_schema::<CreateRefundDraft>()?;
//! assert_eq!(strict["required"], serde_json::json!(["order_ref", "reason", "amount"]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Running tools
//!
//! With the `runtime` feature (on by default), a [`Toolbox`] dispatches the
//! model's calls to async handlers and enforces each contract's policy:
//! timeouts, aborts, approvals bound to the exact arguments, idempotent
//! replays, and a panic in one handler does not stop the others. Every call
//! ends as a [`ToolOutput`] whose model text is plain, beside a structured
//! [`ModelResult`](runtime::ModelResult) and an [`AuditRecord`](audit::AuditRecord)
//! that never reaches the model.
//!
//! ```
//! use tool_contract::{CallContext, Session, Tool, ToolCall, ToolError, Toolbox};
//!
//! /// Look up the opening hours of one store, e.g. before promising a pickup.
//! #[derive(Tool)]
//! #[tool(
//!     timeout_ms = 2_000,
//!     errors(STORE_NOT_FOUND(meaning = "No store has this code.", category = "not_found", recovery = "ask_user")),
//! )]
//! pub struct GetStoreHours {
//!     /// Store code as printed on the receipt, e.g. "BER-1".
//!     #[tool(min_length = 1)]
//!     pub store: String,
//! }
//!
//! let mut toolbox = Toolbox::new();
//! toolbox.register(|call: GetStoreHours, _cx: CallContext| async move {
//!     match call.store.as_str() {
//!         "BER-1" => Ok("Mon-Sat 9:00-20:00".to_owned()),
//!         _ => Err(ToolError::declared(
//!             GetStoreHours::STORE_NOT_FOUND,
//!             "No store has this code; ask the user for the code on their receipt.",
//!         )),
//!     }
//! });
//!
//! let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
//! let session = Session::new();
//! let ok = runtime.block_on(toolbox.call(&ToolCall::new("c1", "get_store_hours", r#"{"store": "BER-1"}"#), &session));
//! assert_eq!(ok.model_text().as_deref(), Some("Mon-Sat 9:00-20:00"));
//! let unknown = runtime.block_on(toolbox.call(&ToolCall::new("c2", "get_store_hours", r#"{"store": "XYZ-9"}"#), &session));
//! assert_eq!(
//!     unknown.model_text().as_deref(),
//!     Some("Error [STORE_NOT_FOUND]: No store has this code; ask the user for the code on their receipt.")
//! );
//! let typo = runtime.block_on(toolbox.call(&ToolCall::new("c3", "get_store_hour", "{}"), &session));
//! assert_eq!(
//!     typo.model_text().as_deref(),
//!     Some("Error [UNKNOWN_TOOL]: There is no tool named \"get_store_hour\". Use one of: get_store_hours.")
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`openai`] reads the calls out of a Chat Completions or Responses
//! response and writes the outputs back; with the runtime, one call answers
//! a whole response through a [`Toolbox`]:
//! `toolbox.answer(&openai::Api::ChatCompletions, &response, &session).await?`
//! (or `&openai::Api::Responses`) runs the response's calls as one turn and
//! gives the [`CallResult`] of each call and the messages or items to send
//! back (see [`Toolbox::answer`]).
//!
//! # Where things are
//!
//! The root holds what an application writes daily; the rest lives in a
//! module named for its concern, and [`prelude`] imports the daily names at
//! once.
//!
//! | module | what it holds |
//! | --- | --- |
//! | [`contract`] | the parts of a [`ToolContract`]: policy, fields, constraints, errors, waivers, versions |
//! | [`runtime`] | the [`Toolbox`] and its results, the structured model result (feature `runtime`) |
//! | [`approval`], [`idempotency`], [`audit`] | the runtime's policy state and its store traits (feature `runtime`) |
//! | `store_postgres` | that state in PostgreSQL, shared by every instance (feature `postgres`) |
//! | [`docs`] | Markdown pages and catalogs of tools |
//! | `lock` | lock files and semver diffs of contracts (feature `lock`, for dev-dependencies) |
//! | [`openai`] | the OpenAI adapter: strict schemas, tool definitions, calls and outputs |
//! | `mcp` | an MCP server of a [`Toolbox`] through rmcp (feature `mcp`) |
//! | [`openai`] | the OpenAI adapter: strict schemas, tool definitions, calls and outputs, the Responses agent loop (`openai::agent`, feature `runtime`) |
//! | [`transport`] | how the agent loop's requests reach a provider: recorded replay, HTTP (feature `live`) |
//! | [`gemini`] | the Gemini adapter: function declarations in both schema dialects, calls and function responses |
//! | [`anthropic`] | the Anthropic adapter: strict tool definitions, tool-set budgets, `tool_use` calls (whole or streamed), `tool_result` blocks, the Messages agent loop (`anthropic::agent`, feature `runtime`) |
//!
//! Nested argument types derive `serde::Deserialize` and
//! `schemars::JsonSchema`; both crates are re-exported ([`serde`],
//! [`schemars`], [`serde_json`]), so an application needs no dependency of
//! its own for them:
//!
//! ```
//! use tool_contract::schemars::JsonSchema;
//! use tool_contract::serde::Deserialize;
//!
//! /// Where a parcel goes.
//! #[derive(Deserialize, JsonSchema)]
//! #[serde(crate = "tool_contract::serde")]
//! #[schemars(crate = "tool_contract::schemars")]
//! pub struct Address {
//!     /// Street and house number.
//!     pub street: String,
//! }
//! ```
//!
//! # `#[tool(...)]` on the struct
//!
//! | key | meaning | default |
//! | --- | --- | --- |
//! | `description = "..."` | what the tool does and when to use it | the doc comment |
//! | `name = "..."` | the name the model calls (`^[A-Za-z_][A-Za-z0-9_-]{0,63}$`, which every provider accepts) | the struct name in snake_case |
//! | `title = "..."` | the short name a person reads in a host (MCP's `title`), one line | none; MCP shows the name in words |
//! | `version = "MAJOR.MINOR.PATCH"` | the contract version | `"1.0.0"` |
//! | `effect = "read" \| "write" \| "destructive"` | what the tool does to the world | `"read"` |
//! | `idempotent`, `idempotent = false` | whether a repeated call is safe | unstated |
//! | `approval = "required" \| "none"` | whether a call needs an approval first | `"none"` |
//! | `timeout_ms = N` | the longest a call may run | the runtime's default |
//! | `open_world` | the tool reaches systems outside the application | `false` |
//! | `data = "public" \| "internal" \| "confidential" \| "restricted"` | the most sensitive data it touches | `"internal"` |
//! | `output = Type` | what a successful call returns (`Serialize + JsonSchema`) | `String` |
//! | `errors(CODE = "meaning", CODE(meaning = "...", category = "...", recovery = "..."))` | the error codes it may answer with | none |
//! | `allow(rule = "reason")` | waive a naming rule for the tool and its fields | none |
//! | `crate = "path"` | where `tool_contract` is, for crates that re-export it | `::tool_contract` |
//!
//! # `#[tool(...)]` on a field
//!
//! | key | meaning |
//! | --- | --- |
//! | `description = "..."` | what goes in the field (else the doc comment) |
//! | `rename = "..."` | the JSON property name |
//! | `inject` | taken from the [`Session`] by type (`Option<T>`: `Some` when the session holds a `T`); absent from the schema; a model-supplied value is rejected; the type is a newtype of its own (`CustomerId(String)`, not `String`), one injected field per type |
//! | `default`, `default = path` | null or absent gives `Default::default()` or `path()` |
//! | `min_length`, `max_length`, `pattern`, `format` | string constraints, enforced by the parser and stated in the schema |
//! | `minimum`, `maximum` | number constraints; on [`Money`], bounds on `amount_minor` (minor units) |
//! | `min_items`, `max_items` | list constraints |
//! | `items(min_length, max_length, pattern, format, minimum, maximum)` | constraints on each item of a list, under the schema's `items` and in the description ("Each item: ...") |
//! | `unit = "..."` | the unit of a quantity, stated in the description |
//! | `idempotency_key` | the field that makes repeated calls of a write tool safe |
//! | `allow(rule = "reason")` | waive a naming rule for this field |
//!
//! Supported formats: `date-time`, `date`, `time`, `duration`, `email`,
//! `hostname`, `ipv4`, `ipv6`, `uuid`, `uri`.
//!
//! # Rules checked at compile time
//!
//! Each is a compile error at the offending token that says what to write
//! instead; all are reported at once.
//!
//! 1. The tool and every field have a description that is not empty and does
//!    not only repeat the name.
//! 2. `untyped_amount`: a money-like field (`amount`, `price`, `fee`,
//!    `total`, ...) is [`Money`], or an integer `*_minor` field next to a
//!    `currency` field; never a float, string or bare integer.
//! 3. `untyped_quantity`: a duration-like number (`timeout`, `delay`, `ttl`,
//!    ...) has a unit in its name (`_ms`, `_secs`) or `unit = "..."`.
//! 4. `model_identity`: identity fields (`user_id`, `tenant_id`, `role`,
//!    `is_admin`, `permissions`, ...) are `#[tool(inject)]`.
//! 5. `boolean_pair`: no two booleans for one state (`show_x` / `hide_x`).
//! 6. `vague_name`: the tool name is a specific `verb_object` in snake_case.
//! 7. A destructive tool requires approval; a write or destructive tool
//!    states its idempotency.
//! 8. No `Option<Option<T>>`, maps or `serde_json::Value` as argument types.
//! 9. Unknown, duplicate or malformed keys (an unknown key names the closest
//!    valid one and lists the keys valid there); tuple and unit structs,
//!    enums, unions and generics are refused.
//! 10. Injected fields have distinct newtypes (two fields of one type would
//!     get the same session value).
//! 11. serde and schemars attributes that would change what the model may
//!     send (`rename`, `default`, `flatten`, `skip`, `with`, `length`, ...)
//!     are refused on a tool, with the `#[tool(...)]` key to write instead.
//!
//! 12. `misleading_name`: the verbs of the tool name match the effect
//!     (judged on the name's words: `checkout_cart` is not `check`). The
//!     verb is the first word (after `bulk_`, `hard_`, ...), or in a name
//!     that starts with a noun its first destroying word (`order_delete`,
//!     `admin_delete_user`); a verb after `or`/`and`/`then` counts too
//!     (`get_or_create_customer`), and the strongest wins: destroy over
//!     write over read. A reading verb (`get`, `list`, `search`, `find`,
//!     `lookup`, `fetch`, `read`, `check`, `show`, `count`, `describe`,
//!     `view`, `query`, ...) is `read`; a destroying or revoking verb
//!     (`delete`, `remove`, `cancel`, `revoke`, `purge`, `erase`,
//!     `terminate`, `destroy`, `drop`, `ban`, `clear`, `empty`,
//!     `close_account`, ...) is `destructive`; a writing verb (`create`,
//!     `update`, `set`, `send`, `submit`, `book`, `reserve`, `add`, `pay`,
//!     `post`, `refund`, `charge`, `purchase`, `buy`, `share`, `move`,
//!     `draft`, ...) is not `read`; a draft or preview (`draft_*`,
//!     `preview_*`, `estimate_*`, `simulate_*`, `*_draft`, `*_preview`) is
//!     also not `destructive`, and keeps its verb (`send_draft` writes).
//! 13. `free_form_command`: a string the model fills with a program is
//!     refused unless constrained (an enum, a `pattern`, or `max_length`
//!     with a `format`): its name has a word such as `sql`, `shell`,
//!     `command`, `cmd`, `script`, `expression`, `eval`, `template`,
//!     `regex`, `graphql`, `formula` (`code` after a language:
//!     `python_code`; a name that is only `run` or `exec`), or its
//!     description says `SQL`, `shell`, `bash`, `script`, `command`,
//!     `expression`, "regular expression", `Python`, `JavaScript`, `regex`,
//!     `eval`, or "program"/"code" beside "run"/"execute"/"evaluate"; a
//!     list of tuples of strings is judged by its strings. The line:
//!     search text is no program (`query`, `user_query`, `search_text`,
//!     `keywords` stay allowed), nor is a value called a code
//!     (`discount_code`, `country_code`), nor a name that only names or
//!     counts the program (`script_id`, `template_name`). Also in nested
//!     types, from their schema.
//! 14. `open_world_write`: an `open_world` tool that is not `read` requires
//!     `approval = "required"`: the approval request shows the arguments
//!     as a preview before data leaves the application.
//! 15. `untyped_destination`: in such a tool, a text field named for a
//!     destination (`to`, `recipient(s)`, `cc`, `bcc`, `email`,
//!     `email_address`, `phone_number`, `webhook_url`, `callback_url`,
//!     `reply_to`, `mail_to`, ...) carries a format (`email`, `uri`,
//!     `hostname`, `ipv4`, `ipv6`, or a `pattern` for a phone number), at
//!     every depth (a nested type's fields from its schema, when the tool
//!     is registered). The runtime applies the session's recipient policy
//!     (`tool_contract::recipients`, feature `runtime`) at every depth to
//!     every destination of a tool that is not `read`, `open_world` or not:
//!     a field named for one, any string with a destination format whatever
//!     its name, and any address inside a recipient object.
//!
//! | rule | refused | written instead |
//! | --- | --- | --- |
//! | `untyped_amount` | `refund_amount: f64` | `refund: Money` |
//! | `untyped_quantity` | `timeout: u64` | `timeout_ms: u64` |
//! | `model_identity` | `user_id: String` | `#[tool(inject)] user_id: UserId` |
//! | `boolean_pair` | `show_details: bool, hide_details: bool` | `details: Visibility` |
//! | `vague_name` | `struct Process` | `struct CancelSubscription` |
//! | `misleading_name` | `#[tool(effect = "write")] struct GetOrder`; `#[tool(effect = "write")] struct DeleteAddress` | `struct GetOrder` (read); `#[tool(effect = "destructive", approval = "required")] struct DeleteAddress` |
//! | `free_form_command` | `QueryDatabase { sql: String }`; `Evaluate { expression: String }` | `SearchOrders { status: OrderStatus, placed_after: String }`; `ViewReport { report: ReportName }` |
//! | `open_world_write` | `#[tool(effect = "write", open_world)] struct SendEmail` | `#[tool(effect = "write", open_world, approval = "required")] struct SendEmail` |
//! | `untyped_destination` | `to: String` in `SendEmail` | `#[tool(format = "email")] to: String`; `#[tool(items(format = "email"))] cc: Vec<String>` |
//!
//! Rules 2–6 and 12–15 can be waived on one field or the whole
//! tool with a reason, which goes into the contract (and the Markdown
//! docs' "Waived rules" table):
//! `#[tool(allow(model_identity = "support agents look up any customer"))]`.
//! `model_identity` also covers `login`, `username`, `sudo`, `impersonate`;
//! `boolean_pair` also two lifecycle states (`is_active` / `is_cancelled`);
//! the currency next to `*_minor` is a field named `currency` or
//! `<prefix>_currency` that holds a currency (not `show_currency: bool`).
//!
//! # Nested types
//!
//! [`ToolArgs`] (`#[derive(ToolArgs)]`) derives `Deserialize` and
//! `JsonSchema` for a nested struct or enum with the field keys above
//! (except `inject` and `idempotency_key`) and rules 1–5, 8, 9, 11 and 13,
//! fields named `Type.field` in messages. Plain
//! `#[derive(Deserialize, JsonSchema)]` types are judged by rules 2, 4, 5
//! and 13 from their schema by [`ToolContract::check_rules`], which
//! `Toolbox::register` runs at start-up; a waiver on the tool covers them
//! all, a waiver on a field everything inside that field.
#![deny(missing_docs)]

pub use tool_core::{
    ArgumentError, ArgumentErrorKind, Currency, EnumCase, Money, SchemaError, Session, SignedMoney,
    ToolCall, ToolContract,
};
pub use tool_core::{HandlerError, ResponseError, ToolError, ToolOutput};
#[cfg(feature = "runtime")]
pub use tool_runtime::{CallContext, CallResult, Toolbox};

pub use tool_core::Tool;
/// Derives [`Tool`] for a struct with named fields; see the crate docs for
/// its attributes and rules.
pub use tool_macros::Tool;
/// The derive for nested argument types: `Deserialize` and `JsonSchema`
/// with the field keys and contract rules of `#[derive(Tool)]`.
pub use tool_macros::ToolArgs;

/// The names an application writes daily, in one import:
/// `use tool_contract::prelude::*;`.
pub mod prelude {
    pub use tool_core::{
        ArgumentError, HandlerError, Money, Session, Tool, ToolCall, ToolContract, ToolError,
        ToolOutput,
    };
    pub use tool_macros::{Tool, ToolArgs};
    #[cfg(feature = "runtime")]
    pub use tool_runtime::{CallContext, CallResult, Toolbox};
}

/// The parts of a [`ToolContract`]: execution policy, fields and their
/// constraints, output and declared errors, waivers, versions, and the
/// argument formats the parser checks.
pub mod contract {
    pub use tool_core::contract::{DEFAULT_MAX_ARGUMENT_BYTES, schema_settings};
    pub use tool_core::parse::formats;
    pub use tool_core::{
        Approval, AsIdempotencyKey, Constraint, ContractError, ContractRule, Currency, DataClass,
        DeclaredError, Effect, ErrorCategory, FieldContract, Idempotency, NumberBound,
        OutputContract, Policy, Presence, Recovery, RuleViolation, Version, Waiver,
    };
}

/// The async dispatcher: a [`Toolbox`] of tools with their handlers, what a
/// call gives back, and the structured model result (cargo feature
/// `runtime`, on by default).
#[cfg(feature = "runtime")]
pub mod runtime {
    pub use tool_core::{OutputKind, ToolCall};
    pub use tool_runtime::model_result::{
        ContentTrust, Delivery, Execution, ExecutionOutcome, MODEL_RESULT_SCHEMA_VERSION,
        ModelResult, Provenance, ResultStatus, format_rfc3339,
    };
    pub use tool_runtime::{
        AbortHandle, CallContext, CallResult, StartupError, StoreFault, Toolbox,
    };
}

/// Approvals bound to one tool, version and exact arguments (cargo feature
/// `runtime`).
#[cfg(feature = "runtime")]
pub mod approval {
    pub use tool_runtime::approval::*;
}

/// Idempotent replays: the store of keyed calls' results (cargo feature
/// `runtime`).
#[cfg(feature = "runtime")]
pub mod idempotency {
    pub use tool_runtime::idempotency::*;
}

/// The recipient policy of a session: where an open-world write may send
/// data (cargo feature `runtime`).
#[cfg(feature = "runtime")]
pub mod recipients {
    pub use tool_runtime::recipients::*;
}

/// The audit record of each call, never sent to the model, and the
/// canonical arguments it is bound to (cargo feature `runtime`).
#[cfg(feature = "runtime")]
pub mod audit {
    pub use tool_core::outcome::{
        CanonicalArguments, arguments_sha256, canonical_arguments, canonical_json,
    };
    pub use tool_runtime::audit::*;
    pub use tool_runtime::audit_sink::*;
}

/// Policy state in PostgreSQL, shared by every instance of an application:
/// idempotency records, approval grants and the append-only audit trail,
/// with their migrations (cargo feature `postgres`).
#[cfg(feature = "postgres")]
pub mod store_postgres {
    pub use tool_store_postgres::*;
}

/// Docs written from the contracts: one tool's Markdown page
/// ([`ToolContract::to_markdown`]), a [`Catalog`](docs::Catalog) of many,
/// and the [`Words`](docs::Words) that state a field's unit and constraints
/// the same way in the docs, the rustdoc of `#[derive(Tool)]` and the
/// OpenAI schema's descriptions.
pub mod docs {
    pub use tool_core::words::{
        CATALOG_FORMAT, Catalog, Keyword, MAX_ECHO_CHARS, Words, described, echo, judge,
    };
}

/// Versioned contracts: the lock file, semver diffs, and the check behind
/// [`assert_contracts_locked!`] (cargo feature `lock`, meant for an
/// application's dev-dependency).
#[cfg(feature = "lock")]
pub mod lock {
    pub use tool_lock::*;
}

/// Fails (panics) when the contracts of the given tools differ from the lock
/// file, naming each change and the version it needs; with
/// `TOOL_CONTRACT_UPDATE_LOCK=1` set, rewrites the lock file instead when
/// every change is versioned well enough. Meant for a test (cargo feature
/// `lock`):
///
/// ```no_run
/// use tool_contract::Tool;
///
/// /// Look up how many units of an item are in stock.
/// #[derive(Tool)]
/// pub struct GetInventory {
///     /// Stock keeping unit, e.g. "SKU-1042".
///     pub sku: String,
/// }
///
/// // In a test: `TOOL_CONTRACT_UPDATE_LOCK=1 cargo test` writes the lock file.
/// tool_contract::assert_contracts_locked!("tools.lock.json", GetInventory);
/// ```
///
/// A relative path is taken from the calling crate's `CARGO_MANIFEST_DIR`.
/// See [`lock::check_contracts_locked`] for the rules.
#[cfg(feature = "lock")]
#[macro_export]
macro_rules! assert_contracts_locked {
    ($path:expr, $($tool:ty),+ $(,)?) => {{
        let __tool_path = ::std::path::Path::new(::std::env!("CARGO_MANIFEST_DIR")).join($path);
        let __tool_contracts: &[&$crate::ToolContract] =
            &[$(<$tool as $crate::Tool>::contract()),+];
        match $crate::lock::check_contracts_locked(
            &__tool_path,
            __tool_contracts,
            $crate::lock::LockMode::from_env(),
        ) {
            ::std::result::Result::Ok(__tool_recorded) => {
                for __tool_drift in &__tool_recorded {
                    ::std::eprintln!("recorded in {}: {}", __tool_path.display(), __tool_drift);
                }
            }
            ::std::result::Result::Err(__tool_error) => ::std::panic!("{}", __tool_error),
        }
    }};
}

/// The OpenAI adapter: strict-mode schemas, Chat Completions and Responses
/// tool definitions, tool calls read from responses and outputs written back.
pub mod openai {
    pub use tool_openai::*;
}

/// The MCP adapter (cargo feature `mcp`): a [`Toolbox`]'s tools served
/// over the Model Context Protocol through rmcp, the official Rust SDK,
/// to hosts such as Claude Desktop and Code, Cursor, VS Code and the MCP
/// Inspector.
///
/// [`McpServer`](mcp::McpServer) writes each contract in MCP's dialect
/// (plain optional fields, inlined `$ref`s, closed objects, all four
/// annotations from the policy) and answers each call through the toolbox:
/// a success with `structuredContent` and a text block, every error the
/// model can act on as `isError: true` with the model text.
/// [`serve_stdio`](mcp::serve_stdio) runs it on stdin/stdout; see
/// `examples/mcp_server.rs` (`cargo run --example mcp_server --features mcp`).
#[cfg(feature = "mcp")]
pub mod mcp {
    pub use tool_mcp::*;
}

/// How the agent loop's requests reach a provider (cargo feature
/// `runtime`): the [`Transport`](transport::Transport) trait, a
/// [`Replay`](transport::Replay) of recorded responses that checks each
/// request, and with the cargo feature `live` the `HttpTransport`.
#[cfg(feature = "runtime")]
pub mod transport {
    pub use tool_transport::*;
}

/// The Gemini adapter: function declarations with `parametersJsonSchema` or
/// the OpenAPI-subset `parameters`, `toolConfig`, function calls read from a
/// `generateContent` response and `functionResponse` parts written back.
pub mod gemini {
    pub use tool_gemini::*;
}

/// The Anthropic adapter (Messages API): strict tool definitions, tool-set
/// budgets, `tool_use` calls (whole or streamed) and `tool_result` blocks,
/// and with the cargo feature `runtime` the agent loop
/// (`anthropic::agent::MessagesAgent`); see the `tool-anthropic` crate.
pub mod anthropic {
    pub use tool_anthropic::*;
}

pub use schemars;
pub use serde;
pub use serde_json;

/// The README's quick start, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// What the code that `#[derive(Tool)]` generates refers to. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use tool_core::__private::*;
}
