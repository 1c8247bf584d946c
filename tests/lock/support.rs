//! What the lock tests share: the tool `reserve_stock` as the lock file
//! records it, the enums its versions use, and the checks every change gets.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Deserialize;
use tool_contract::{
    Tool, ToolContract, lock::ContractLock, lock::LockError, lock::LockMode,
    lock::check_contracts_locked,
};

/// Which shelf to take the units from.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Shelf {
    /// The shelf by the door.
    Front,
    /// The shelf at the back.
    Back,
}

/// Which shelf to take the units from.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ShelfFrontOnly {
    /// The shelf by the door.
    Front,
}

/// Which shelf to take the units from.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ShelfWithTop {
    /// The shelf by the door.
    Front,
    /// The shelf at the back.
    Back,
    /// The shelf above the others.
    Top,
}

/// Declares a version of the tool `reserve_stock` (a write tool, idempotent)
/// with the given version and fields, so each test shows only what changes.
#[macro_export]
macro_rules! reserve_stock {
    ($version:tt, $name:ident { $($fields:tt)* }) => {
        #[doc = "Reserve units of an item for the customer's order until checkout."]
        #[derive(tool_contract::Tool)]
        #[tool(name = "reserve_stock", version = $version, effect = "write", idempotent)]
        pub struct $name {
            $($fields)*
        }
    };
}

/// The description of `base::ReserveStock`.
pub const DOC: &str = "Reserve units of an item for the customer's order until checkout.";

pub mod base {
    use super::*;

    reserve_stock! {
        "1.0.0", ReserveStock {
            /// Stock keeping unit, e.g. "SKU-1042".
            pub sku: String,
            /// How many units to hold.
            #[tool(minimum = 1)]
            pub quantity: u32,
            /// How long to hold the units.
            #[tool(unit = "minutes")]
            pub hold: Option<u32>,
            /// Which shelf to take the units from.
            pub shelf: Shelf,
            /// A note for the warehouse.
            pub note: Option<String>,
        }
    }
}

/// A lock file in a fresh temporary directory recording `base::ReserveStock`.
pub fn locked(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("lock_tests")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tools.lock.json");
    let lock = ContractLock::from_contracts(&[base::ReserveStock::contract()]).unwrap();
    std::fs::write(&path, lock.to_json_string()).unwrap();
    path
}

/// The message of the check of `contract` against the lock at `path`, which
/// must fail; the lock file must stay as it was.
pub fn refused(path: &Path, contract: &ToolContract, mode: LockMode) -> String {
    let before = std::fs::read_to_string(path).unwrap();
    let error = check_contracts_locked(path, &[contract], mode).unwrap_err();
    assert!(matches!(error, LockError::LockDiff { .. }), "{error:?}");
    assert_eq!(std::fs::read_to_string(path).unwrap(), before);
    error
        .to_string()
        .replace(&path.display().to_string(), "tools.lock.json")
}

/// Records `contract` in the lock at `path` (update mode) and returns what
/// was recorded; the lock then matches the contract.
pub fn accepted(path: &Path, contract: &'static ToolContract) -> Vec<String> {
    let recorded = check_contracts_locked(path, &[contract], LockMode::Update).unwrap();
    let expected = ContractLock::from_contracts(&[contract])
        .unwrap()
        .to_json_string();
    assert_eq!(std::fs::read_to_string(path).unwrap(), expected);
    assert_eq!(
        check_contracts_locked(path, &[contract], LockMode::Check).unwrap(),
        vec![]
    );
    recorded.iter().map(ToString::to_string).collect()
}

/// Runs the three checks every change gets: without the bump it is refused
/// (in check and in update mode), with it the check still asks to record it,
/// and the update records it.
pub fn assert_change(
    test: &str,
    unbumped: &'static ToolContract,
    bumped: &'static ToolContract,
    refusal: &str,
    record: &str,
) {
    let path = locked(test);
    let footer = "\nbump the versions named above, then run with TOOL_CONTRACT_UPDATE_LOCK=1 to update the lock file";
    assert_eq!(
        refused(&path, unbumped, LockMode::Check),
        format!(
            "the tool contracts differ from the lock file tools.lock.json:\n- {refusal}{footer}"
        )
    );
    assert_eq!(
        refused(&path, unbumped, LockMode::Update),
        format!(
            "the lock file tools.lock.json was not updated, since a changed contract needs a bigger version bump:\n- {refusal}{footer}"
        )
    );
    assert_eq!(
        refused(&path, bumped, LockMode::Check),
        format!(
            "the tool contracts differ from the lock file tools.lock.json:\n- {record}\nrun with TOOL_CONTRACT_UPDATE_LOCK=1 to update the lock file"
        )
    );
    assert_eq!(accepted(&path, bumped), [record]);
}
