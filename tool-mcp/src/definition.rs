//! A contract as an MCP tool definition: name, title, description, the
//! MCP dialect of its schemas, annotations from its policy, and what MCP
//! has no hint for in `_meta`.

use std::sync::Arc;

use rmcp::model::{JsonObject, MetaObject, ProtocolVersion, Tool, ToolAnnotations};
use serde_json::Value;
use tool_core::contract::deprecation_json;
use tool_core::{Approval, DataClass, Effect, Idempotency, Policy, ToolContract};

use crate::output::output_schema;
use crate::schema::input_schema;

/// The vendor prefix of the `_meta` keys this crate writes
/// (`dev.tool-contract/approval`, ...): dot-separated labels and a `/`, as
/// MCP's "General fields" rules ask, outside the reserved
/// `modelcontextprotocol` and `mcp` prefixes.
pub const META_PREFIX: &str = "dev.tool-contract/";

/// `_meta` key: `"required"` when a call runs only with the user's
/// approval, else `"none"`.
pub const META_APPROVAL: &str = "dev.tool-contract/approval";
/// `_meta` key: the contract's semantic version, e.g. `"3.0.0"`.
pub const META_VERSION: &str = "dev.tool-contract/version";
/// `_meta` key of a deprecated version: `{"sunset": "2026-09-30", "note":
/// "..."}`, the first day it is no longer served (UTC) and what to use
/// instead (the description ends with the same notice for the model);
/// absent for a version that is not deprecated.
pub const META_DEPRECATED: &str = "dev.tool-contract/deprecated";
/// `_meta` key: the most sensitive class of data the tool touches
/// (`"public"`, `"internal"`, `"confidential"`, `"restricted"`).
pub const META_DATA_CLASS: &str = "dev.tool-contract/data_class";
/// `_meta` key of an error result: the error as the model result writes
/// it (`code`, `category`, `safe_message`, `recovery`, `retry_after_ms`).
pub const META_ERROR: &str = "dev.tool-contract/error";
/// `_meta` key of a success whose text was cut at the toolbox's
/// `with_max_content_bytes` limit: `true` (the structured content, if any,
/// carries the same cut text, never more).
pub const META_TRUNCATED: &str = "dev.tool-contract/truncated";

/// Whether peers on `version` require `outputSchema` and
/// `structuredContent` to be objects: every revision before 2026-07-28
/// (SEP-2106 lifted the rule), and a peer whose version is unknown.
pub fn requires_object_output(version: Option<&ProtocolVersion>) -> bool {
    version.is_none_or(|v| v.as_str() < ProtocolVersion::V_2026_07_28.as_str())
}

/// The MCP definition of a tool for peers on `version` (`None`: unknown,
/// treated as a revision that requires object output).
///
/// - `name` and `description`: the contract's;
/// - `title`: [`display_title`], also as `annotations.title` for hosts that
///   read only the annotation;
/// - `inputSchema`: the MCP dialect of the contract's input schema (see
///   [`input_schema`](crate::input_schema));
/// - `outputSchema`: only when the struct declares `output = ...`; the MCP
///   dialect of the output type's schema, wrapped as `{"value": ...}` when
///   it is not an object and the peer requires one, or when it may be
///   `null` ([`wraps`](crate::wraps));
/// - `annotations`: see [`annotations`], all four hints always written;
/// - `_meta`: approval, version and data class under [`META_PREFIX`], and
///   a deprecated version's sunset and note ([`META_DEPRECATED`]).
pub fn mcp_tool(contract: &ToolContract, version: Option<&ProtocolVersion>) -> Tool {
    let title = display_title(contract);
    let input = input_schema(contract.input_schema());
    let mut tool = Tool::new(
        contract.name(),
        contract.description_with_examples(),
        Arc::new(input) as Arc<JsonObject>,
    )
    .with_title(title.clone())
    .with_annotations(annotations(contract.policy(), Some(title)))
    .with_meta(MetaObject::from(meta(contract)));
    if contract.output().declared() {
        let wrap = requires_object_output(version);
        tool = tool.with_raw_output_schema(Arc::new(output_schema(contract.output_schema(), wrap)));
    }
    tool
}

/// What a host shows for the tool: the contract's `title`, or else the
/// name in words, first letter capitalised (`create_refund_draft` ->
/// `Create refund draft`, `get-weather` -> `Get weather`).
pub fn display_title(contract: &ToolContract) -> String {
    if let Some(title) = contract.title() {
        return title.to_owned();
    }
    let words: Vec<&str> = contract
        .name()
        .split(['_', '-'])
        .filter(|word| !word.is_empty())
        .collect();
    let mut title = words.join(" ");
    if let Some(first) = title.get(..1) {
        let upper = first.to_ascii_uppercase();
        title.replace_range(..1, &upper);
    }
    if title.is_empty() {
        contract.name().to_owned()
    } else {
        title
    }
}

/// MCP's hints for a policy, all four written, since a missing hint means
/// the unsafe default (destructive, open world):
///
/// | effect | readOnly | destructive | idempotent | openWorld |
/// |---|---|---|---|---|
/// | `read` | true | false | true, unless declared `idempotent = false` | `open_world` |
/// | `write` | false | false | `idempotent` or keyed | `open_world` |
/// | `destructive` | false | true | `idempotent` or keyed | `open_world` |
pub fn annotations(policy: &Policy, title: Option<String>) -> ToolAnnotations {
    let effect = policy.effect();
    let idempotent = match policy.idempotency() {
        Idempotency::Idempotent | Idempotency::Keyed { .. } => true,
        Idempotency::NotIdempotent => false,
        // Allowed only for reads, which are idempotent by nature unless
        // the author says otherwise (`idempotent = false`: a raffle draw,
        // a counter), which `NotIdempotent` above keeps.
        Idempotency::Unspecified => effect == Effect::Read,
    };
    ToolAnnotations::from_raw(
        title,
        Some(effect == Effect::Read),
        Some(effect == Effect::Destructive),
        Some(idempotent),
        Some(policy.open_world()),
    )
}

/// The `_meta` of a tool: what MCP has no annotation for.
fn meta(contract: &ToolContract) -> JsonObject {
    let approval = match contract.approval() {
        Approval::Required => "required",
        Approval::None => "none",
    };
    let data_class = match contract.data_class() {
        DataClass::Public => "public",
        DataClass::Internal => "internal",
        DataClass::Confidential => "confidential",
        DataClass::Restricted => "restricted",
    };
    let mut meta = JsonObject::new();
    meta.insert(META_APPROVAL.into(), Value::from(approval));
    meta.insert(
        META_VERSION.into(),
        Value::from(contract.version().to_string()),
    );
    meta.insert(META_DATA_CLASS.into(), Value::from(data_class));
    if let Some(deprecation) = contract.deprecation() {
        meta.insert(META_DEPRECATED.into(), deprecation_json(deprecation));
    }
    meta
}
