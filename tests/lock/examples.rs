//! The example tools are locked, as an application locks its own:
//! `tests/lock/example_tools.lock.json` records their contracts, and a change
//! to one fails here until its version is bumped and the lock updated with
//! `TOOL_CONTRACT_UPDATE_LOCK=1 cargo test --test lock examples`.

use crate::tools;

#[test]
fn the_example_tools_match_their_lock_file() {
    tool_contract::assert_contracts_locked!(
        "tests/lock/example_tools.lock.json",
        tools::GetInventory,
        tools::ReserveInventory,
        tools::CreateRefundDraft,
    );
}
