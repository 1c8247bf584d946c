//! One tool's entry in the lock file.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tool_core::contract::deprecation_json;
use tool_core::contract::fingerprint::{
    canonical_schema, errors_json, fingerprint_of, policy_json, sorted,
};
use tool_core::{ToolContract, Version};

/// What the lock file records about one tool: enough to name what changed.
///
/// Schemas, policy and errors are stored in canonical form (keys sorted,
/// `required` sorted), so the file is the same on every machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockedTool {
    /// The contract version.
    pub version: Version,
    /// For a deprecated version, `{"note": "...", "sunset": "YYYY-MM-DD"}`;
    /// absent from the file for one that is not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecation: Option<Value>,
    /// The contract's [fingerprint](ToolContract::fingerprint).
    pub fingerprint: String,
    /// The tool description.
    pub description: String,
    /// The policy, in the catalog's JSON shape.
    pub policy: Value,
    /// The declared errors: `{"CODE": {"meaning", "category", "recovery"}}`.
    pub errors: Value,
    /// The unit of each field that declares one, by JSON name.
    pub units: BTreeMap<String, String>,
    /// The input schema.
    pub input_schema: Value,
    /// The output schema.
    pub output_schema: Value,
    /// The example arguments (`#[tool(example = "...")]`), in order;
    /// absent from the file for a tool without examples.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<Value>,
}

impl LockedTool {
    /// The entry for `contract` as it is now.
    pub fn from_contract(contract: &ToolContract) -> Self {
        let mut tool = LockedTool {
            version: contract.version(),
            deprecation: contract.deprecation().map(|d| sorted(&deprecation_json(d))),
            fingerprint: String::new(),
            description: contract.description().to_owned(),
            policy: sorted(&policy_json(contract.policy())),
            errors: sorted(&errors_json(contract.errors())),
            units: contract
                .model_fields()
                .filter_map(|f| Some((f.name().to_owned(), f.unit()?.to_owned())))
                .collect(),
            input_schema: canonical_schema(contract.input_schema()),
            output_schema: canonical_schema(contract.output_schema()),
            examples: contract.example_values().iter().map(sorted).collect(),
        };
        tool.fingerprint = tool.computed_fingerprint(contract.name());
        tool
    }

    /// The fingerprint of what this entry records, for the tool `name`.
    pub(crate) fn computed_fingerprint(&self, name: &str) -> String {
        fingerprint_of(
            name,
            self.version,
            &self.description,
            &self.policy,
            &self.errors,
            &canonical_schema(&self.input_schema),
            &canonical_schema(&self.output_schema),
            self.deprecation.as_ref(),
            &self.examples,
        )
    }
}
