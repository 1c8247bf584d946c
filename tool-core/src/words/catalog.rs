//! A catalog of tools: one Markdown document with a table of contents, and
//! one JSON document with every contract and its schemas.

use std::fmt::Write as _;

use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use tool_words::code;

use super::markdown::{cell, render};
use crate::contract::Tool;
use crate::contract::fingerprint::{policy_json, sorted};
use crate::contract::{
    ContractError, FieldContract, ToolContract, constraint_json, deprecation_json,
};

/// The value of `"format"` in a catalog's JSON document.
pub const CATALOG_FORMAT: &str = "tool-contract-catalog/1";

/// A list of tool contracts rendered as one document.
///
/// ```
/// use tool_contract::docs::Catalog;
///
/// let catalog = Catalog::new().with_title("Shop tools");
/// assert!(catalog.is_empty());
/// assert_eq!(catalog.to_markdown(), "# Shop tools\n\nNo tools.\n");
/// assert_eq!(
///     catalog.to_json(),
///     serde_json::json!({"format": "tool-contract-catalog/1", "title": "Shop tools", "tools": []})
/// );
/// ```
#[derive(Clone, Debug)]
pub struct Catalog {
    title: String,
    contracts: Vec<&'static ToolContract>,
}

impl Catalog {
    /// An empty catalog titled "Tools".
    pub fn new() -> Self {
        Catalog {
            title: "Tools".to_owned(),
            contracts: Vec::new(),
        }
    }

    /// Sets the document title and returns the catalog.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = title.into();
        self
    }

    /// Adds tool `T` and returns the catalog.
    #[must_use]
    pub fn with<T: Tool>(self) -> Self {
        self.with_contract(T::contract())
    }

    /// Adds a contract and returns the catalog.
    #[must_use]
    pub fn with_contract(mut self, contract: &'static ToolContract) -> Self {
        self.push(contract);
        self
    }

    /// Adds a contract at the end. Tools keep the order they were added in.
    pub fn push(&mut self, contract: &'static ToolContract) {
        self.contracts.push(contract);
    }

    /// The document title.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The contracts in the order they were added.
    pub fn contracts(&self) -> &[&'static ToolContract] {
        &self.contracts
    }

    /// Judges every contract by the contract rules at every depth
    /// ([`ToolContract::check_rules`]): the first tool whose nested types
    /// break a rule, with all its violations. Run it where the catalog is
    /// built (a test, a docs step) so such a tool fails there.
    pub fn check(&self) -> Result<(), ContractError> {
        self.contracts.iter().try_for_each(|c| c.check_rules())
    }

    /// Whether the catalog has no tools.
    pub fn is_empty(&self) -> bool {
        self.contracts.is_empty()
    }

    /// One Markdown document: the title, a table of contents (each tool
    /// linked to its section, with version (and a deprecated version's
    /// sunset), effect, approval and the first paragraph of its
    /// description), then each tool's
    /// [page](ToolContract::to_markdown) one heading level lower.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# {}\n", self.title.trim());
        if self.contracts.is_empty() {
            out.push_str("No tools.\n");
            return out;
        }
        let _ = writeln!(out, "## Contents\n");
        let _ = writeln!(out, "| tool | version | effect | approval | summary |");
        let _ = writeln!(out, "| --- | --- | --- | --- | --- |");
        let mut anchors = Anchors::default();
        for contract in &self.contracts {
            let anchor = anchors.next(contract.name());
            let version = match contract.deprecation() {
                Some(deprecation) => format!(
                    "{} (deprecated, sunset {})",
                    contract.version(),
                    deprecation.sunset()
                ),
                None => contract.version().to_string(),
            };
            let _ = writeln!(
                out,
                "| [{}](#{anchor}) | {version} | {} | {} | {} |",
                contract.name(),
                code(effect_name(contract)),
                code(approval_name(contract)),
                cell(&summary(contract.description())),
            );
        }
        for contract in &self.contracts {
            out.push('\n');
            out.push_str(&render(contract, 2));
        }
        out
    }

    /// One JSON document: `{"format": "tool-contract-catalog/1", "title":
    /// "...", "tools": [...]}`, each tool in the shape of
    /// [`ToolContract`'s `Serialize`](ToolContract#impl-Serialize-for-ToolContract).
    pub fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("format".into(), Value::from(CATALOG_FORMAT));
        object.insert("title".into(), Value::from(self.title.as_str()));
        let tools = self
            .contracts
            .iter()
            .map(|c| serde_json::to_value(c).unwrap_or(Value::Null))
            .collect();
        object.insert("tools".into(), Value::Array(tools));
        Value::Object(object)
    }
}

impl Default for Catalog {
    fn default() -> Self {
        Catalog::new()
    }
}

impl FromIterator<&'static ToolContract> for Catalog {
    fn from_iter<I: IntoIterator<Item = &'static ToolContract>>(iter: I) -> Self {
        let mut catalog = Catalog::new();
        catalog.contracts.extend(iter);
        catalog
    }
}

impl Extend<&'static ToolContract> for Catalog {
    fn extend<I: IntoIterator<Item = &'static ToolContract>>(&mut self, iter: I) {
        self.contracts.extend(iter);
    }
}

impl Serialize for Catalog {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Catalog", 3)?;
        s.serialize_field("format", CATALOG_FORMAT)?;
        s.serialize_field("title", &self.title)?;
        s.serialize_field("tools", &self.contracts)?;
        s.end()
    }
}

fn effect_name(contract: &ToolContract) -> &'static str {
    match contract.effect() {
        crate::Effect::Read => "read",
        crate::Effect::Write => "write",
        crate::Effect::Destructive => "destructive",
    }
}

fn approval_name(contract: &ToolContract) -> &'static str {
    match contract.approval() {
        crate::Approval::None => "none",
        crate::Approval::Required => "required",
    }
}

/// The first paragraph of a description, on one line.
fn summary(description: &str) -> String {
    let first = description
        .trim()
        .split("\n\n")
        .next()
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>();
    first.join(" ")
}

/// GitHub-style heading anchors, with `-1`, `-2`, ... for repeats.
#[derive(Default)]
struct Anchors {
    seen: Vec<String>,
}

impl Anchors {
    fn next(&mut self, heading: &str) -> String {
        let base: String = heading
            .trim()
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let mut anchor = base.clone();
        let mut n = 0;
        while self.seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        self.seen.push(anchor.clone());
        anchor
    }
}

/// The contract as JSON, the shape a [`Catalog`] uses for each tool:
///
/// ```json
/// {
///   "name": "get_inventory",
///   "rust_name": "GetInventory",
///   "version": "1.0.0",
///   "deprecation": {"sunset": "2026-09-30", "note": "..."},
///   "fingerprint": "<64 hex digits>",
///   "description": "...",
///   "policy": {"effect": "read", "idempotency": {"kind": "unspecified"},
///              "approval": "none", "timeout_ms": 2000, "open_world": false,
///              "data_class": "internal"},
///   "fields": [{"name": "sku", "rust_name": "sku", "rust_type": "String",
///               "description": "...", "presence": "required", "injected": false,
///               "unit": null, "constraints": {"minLength": 1}, "idempotency_key": false}],
///   "input_schema": {...},
///   "examples": [{"sku": "SKU-1042"}],
///   "output": {"rust_type": "StockLevel", "declared": true, "schema": {...}},
///   "errors": [{"code": "...", "meaning": "...", "category": null, "recovery": null}],
///   "waivers": [{"rule": "model_identity", "field": "user_id", "reason": "..."}]
/// }
/// ```
///
/// `deprecation` is written only for a deprecated version, `examples` only
/// for a tool that declares some. `idempotency.kind`
/// is `unspecified`, `idempotent`, `not_idempotent` or `keyed` (with
/// `field`). Keys keep this order; schemas are as generated.
impl Serialize for ToolContract {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let output = OutputJson(self);
        let mut s = serializer.serialize_struct("ToolContract", 13)?;
        s.serialize_field("name", self.name())?;
        s.serialize_field("rust_name", self.rust_name())?;
        s.serialize_field("version", &self.version())?;
        match self.deprecation() {
            Some(deprecation) => {
                s.serialize_field("deprecation", &deprecation_json(deprecation))?
            }
            None => s.skip_field("deprecation")?,
        }
        s.serialize_field("fingerprint", &self.fingerprint())?;
        s.serialize_field("description", self.description())?;
        s.serialize_field("policy", &policy_json(self.policy()))?;
        s.serialize_field("fields", self.fields())?;
        s.serialize_field("input_schema", self.input_schema())?;
        let examples = self.example_values();
        if examples.is_empty() {
            s.skip_field("examples")?;
        } else {
            s.serialize_field("examples", &examples)?;
        }
        s.serialize_field("output", &output)?;
        s.serialize_field("errors", self.errors())?;
        s.serialize_field("waivers", self.waivers())?;
        s.end()
    }
}

struct OutputJson<'a>(&'a ToolContract);

impl Serialize for OutputJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let output = self.0.output();
        let mut s = serializer.serialize_struct("OutputContract", 3)?;
        s.serialize_field("rust_type", output.rust_type())?;
        s.serialize_field("declared", &output.declared())?;
        s.serialize_field("schema", self.0.output_schema())?;
        s.end()
    }
}

/// A field as JSON: `{"name", "rust_name", "rust_type", "description",
/// "presence", "injected", "unit", "constraints", "idempotency_key"}`, with
/// `constraints` an object from JSON Schema keyword to value.
impl Serialize for FieldContract {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("FieldContract", 9)?;
        s.serialize_field("name", self.name())?;
        s.serialize_field("rust_name", self.rust_name())?;
        s.serialize_field("rust_type", self.rust_type())?;
        s.serialize_field("description", self.description())?;
        s.serialize_field("presence", &self.presence())?;
        s.serialize_field("injected", &self.injected())?;
        s.serialize_field("unit", &self.unit())?;
        s.serialize_field("constraints", &ConstraintsJson(self))?;
        s.serialize_field("idempotency_key", &self.idempotency_key())?;
        s.end()
    }
}

struct ConstraintsJson<'a>(&'a FieldContract);

impl Serialize for ConstraintsJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.constraints().len()))?;
        for constraint in self.0.constraints() {
            map.serialize_entry(constraint.keyword(), &sorted(&constraint_json(constraint)))?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_follow_github_and_count_repeats() {
        let mut anchors = Anchors::default();
        assert_eq!(anchors.next("get_inventory"), "get_inventory");
        assert_eq!(anchors.next("Get Inventory!"), "get-inventory");
        assert_eq!(anchors.next("get_inventory"), "get_inventory-1");
        assert_eq!(anchors.next("get_inventory"), "get_inventory-2");
    }

    #[test]
    fn summary_is_the_first_paragraph_on_one_line() {
        assert_eq!(
            summary("Look up stock\nof one item.\n\nRead-only."),
            "Look up stock of one item."
        );
        assert_eq!(summary(""), "");
    }
}
