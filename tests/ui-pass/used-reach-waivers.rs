//! Each new rule waived with a reason: the waivers are used, and the
//! contract carries them.

use tool_contract::Tool;
use tool_contract::contract::ContractRule;

/// Fetch a page of the partner's catalogue and store a snapshot of it.
#[derive(Tool)]
#[tool(
    effect = "write",
    idempotent,
    open_world,
    allow(misleading_name = "the partner API calls this sync step `fetch`"),
    allow(open_world_write = "the snapshot is stored locally; the partner only sees a read")
)]
pub struct FetchPartnerCatalog {
    /// The page to fetch, from 1.
    #[tool(minimum = 1)]
    pub page: u32,
    /// Where to tell the partner the snapshot is stored, as its onboarding
    /// form gives it.
    #[tool(allow(untyped_destination = "the URL comes from the partner's signed onboarding form"))]
    pub notify_url: String,
    /// The partner's JSONPath that selects the products of a page.
    #[tool(allow(free_form_command = "the JSONPath only selects within the partner's own page"))]
    pub selector: String,
}

fn main() {
    let rules: Vec<ContractRule> = FetchPartnerCatalog::contract()
        .waivers()
        .iter()
        .map(|w| w.rule())
        .collect();
    assert_eq!(
        rules,
        [
            ContractRule::MisleadingName,
            ContractRule::OpenWorldWrite,
            ContractRule::UntypedDestination,
            ContractRule::FreeFormCommand,
        ]
    );
    assert_eq!(FetchPartnerCatalog::contract().check_rules(), Ok(()));
}
