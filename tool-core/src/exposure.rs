//! Which tools a turn offers, and a turn narrowed to some of them without
//! changing the definitions: discovery, never authorization. A call of a
//! tool the turn did not offer is refused `TOOL_NOT_OFFERED`; a call of
//! one it did still goes through every policy (approvals, injection,
//! idempotency), whatever was offered.

use std::collections::BTreeSet;

use crate::ToolContract;

/// The tools one turn offered the model, by name: kept in the
/// [`Session`](crate::Session) the turn's calls run in
/// (`session.clone().with(exposure)`), so the runtime refuses a call of
/// any other tool with `TOOL_NOT_OFFERED`. The agent loop builds one for
/// every request from the definitions it sends (or the [`Narrowing`] of
/// the turn); an application answering responses itself builds one from
/// the contracts it offered.
///
/// ```
/// use tool_contract::Exposure;
///
/// let exposure = Exposure::new(["get_inventory", "reserve_inventory"]);
/// assert!(exposure.offers("get_inventory"));
/// assert!(!exposure.offers("cancel_order"));
/// assert_eq!(exposure.names(), ["get_inventory", "reserve_inventory"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exposure {
    names: Vec<String>,
}

impl Exposure {
    /// A turn offering the tools `names` (kept sorted, each once).
    pub fn new<S: Into<String>>(names: impl IntoIterator<Item = S>) -> Self {
        let names: BTreeSet<String> = names.into_iter().map(Into::into).collect();
        Exposure {
            names: names.into_iter().collect(),
        }
    }

    /// A turn offering `contracts`.
    pub fn of(contracts: &[&'static ToolContract]) -> Self {
        Exposure::new(contracts.iter().map(|contract| contract.name()))
    }

    /// The tools offered, sorted by name.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// True when the turn offered the tool `name`.
    pub fn offers(&self, name: &str) -> bool {
        self.names
            .binary_search_by(|n| n.as_str().cmp(name))
            .is_ok()
    }
}

/// Whether a narrowed turn must call a tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChoiceMode {
    /// The model may call one of the tools or answer.
    Auto,
    /// The model must call one of the tools.
    Required,
}

/// One turn narrowed to some of the offered tools, written into the
/// request's tool choice (OpenAI `allowed_tools`, Anthropic `tool_choice`,
/// Gemini `allowedFunctionNames`) while the definitions stay the same, so
/// the provider's prompt cache holds. The runtime refuses a call outside
/// the narrowed set as it refuses any tool not offered.
///
/// ```
/// use tool_contract::{ChoiceMode, Narrowing};
///
/// let narrowing = Narrowing::required(["reserve_inventory"]);
/// assert_eq!(narrowing.mode(), ChoiceMode::Required);
/// assert_eq!(narrowing.tools(), ["reserve_inventory"]);
/// assert_eq!(narrowing.exposure().names(), ["reserve_inventory"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Narrowing {
    mode: ChoiceMode,
    tools: Vec<String>,
}

impl Narrowing {
    /// The model may call one of `tools` or answer; with no tools it may
    /// call none (the providers' `none`).
    pub fn auto<S: Into<String>>(tools: impl IntoIterator<Item = S>) -> Self {
        Narrowing::new(ChoiceMode::Auto, tools)
    }

    /// The model must call one of `tools`.
    pub fn required<S: Into<String>>(tools: impl IntoIterator<Item = S>) -> Self {
        Narrowing::new(ChoiceMode::Required, tools)
    }

    fn new<S: Into<String>>(mode: ChoiceMode, tools: impl IntoIterator<Item = S>) -> Self {
        Narrowing {
            mode,
            tools: Exposure::new(tools).names,
        }
    }

    /// Whether the model must call a tool.
    pub fn mode(&self) -> ChoiceMode {
        self.mode
    }

    /// The tools the turn may call, sorted by name.
    pub fn tools(&self) -> &[String] {
        &self.tools
    }

    /// What the narrowed turn offers.
    pub fn exposure(&self) -> Exposure {
        Exposure {
            names: self.tools.clone(),
        }
    }
}
