//! The lock file itself: creating it, new and dropped tools, versions bumped
//! alone or too little, malformed files, and `assert_contracts_locked!` with
//! and without `TOOL_CONTRACT_UPDATE_LOCK`.
#![allow(dead_code)]

use crate::reserve_stock;
use crate::support as lock;

use std::path::{Path, PathBuf};
use std::process::Command;

use lock::{Shelf, base, locked};
use tool_contract::{
    Tool, ToolContract, lock::ContractLock, lock::LockError, lock::LockMode, lock::UPDATE_LOCK_ENV,
    lock::check_contracts_locked,
};

use crate::tools;

/// `base::ReserveStock` with its version bumped and nothing else changed.
mod version_only {
    use super::*;

    reserve_stock! {
        "1.1.0", ReserveStock {
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

/// `base::ReserveStock` without `note` (a major change), bumped to 1.1.0 only.
mod removed_with_minor_bump {
    use super::*;

    reserve_stock! {
        "1.1.0", ReserveStock {
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
        }
    }
}

/// `base::ReserveStock` with a new optional field, bumped to 1.1.0.
mod optional_added {
    use super::*;

    reserve_stock! {
        "1.1.0", ReserveStock {
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
            /// Whether to wrap the units as a gift.
            pub gift_wrap: Option<bool>,
        }
    }
}

/// `base::ReserveStock` with a reworded description, bumped to 2.0.0.
mod described_with_major_bump {
    use super::*;

    #[doc = "Hold units of an item for the customer's order until checkout."]
    #[derive(Tool)]
    #[tool(
        name = "reserve_stock",
        version = "2.0.0",
        effect = "write",
        idempotent
    )]
    pub struct ReserveStock {
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

const RUN_UPDATE: &str = "\nrun with TOOL_CONTRACT_UPDATE_LOCK=1 to update the lock file";
const BUMP_FIRST: &str = "\nbump the versions named above, then run with TOOL_CONTRACT_UPDATE_LOCK=1 to update the lock file";

fn message(error: LockError, path: &Path) -> String {
    error
        .to_string()
        .replace(&path.display().to_string(), "tools.lock.json")
}

fn lock_text(contracts: &[&ToolContract]) -> String {
    ContractLock::from_contracts(contracts)
        .unwrap()
        .to_json_string()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

fn texts(drifts: Vec<tool_contract::lock::LockDiff>) -> Vec<String> {
    drifts.iter().map(ToString::to_string).collect()
}

#[test]
fn a_missing_lock_file_is_created_by_an_update_only() {
    let path = locked("missing");
    std::fs::remove_file(&path).unwrap();
    let contract = base::ReserveStock::contract();
    let error = check_contracts_locked(&path, &[contract], LockMode::Check).unwrap_err();
    assert_eq!(
        message(error, &path),
        "the lock file tools.lock.json does not exist; run with TOOL_CONTRACT_UPDATE_LOCK=1 to create it"
    );
    assert!(!path.exists());
    let recorded = check_contracts_locked(&path, &[contract], LockMode::Update).unwrap();
    assert_eq!(
        texts(recorded),
        ["`reserve_stock` 1.0.0 is new: the lock file does not have it"]
    );
    assert_eq!(read(&path), lock_text(&[contract]));
}

#[test]
fn a_new_tool_is_an_error_until_it_is_recorded() {
    let path = locked("new_tool");
    let contracts = [
        base::ReserveStock::contract(),
        tools::GetInventory::contract(),
    ];
    let error = check_contracts_locked(&path, &contracts, LockMode::Check).unwrap_err();
    assert_eq!(
        message(error, &path),
        format!(
            "the tool contracts differ from the lock file tools.lock.json:\n- `get_inventory` 1.0.0 is new: the lock file does not have it{RUN_UPDATE}"
        )
    );
    check_contracts_locked(&path, &contracts, LockMode::Update).unwrap();
    assert_eq!(read(&path), lock_text(&contracts));
    assert_eq!(
        check_contracts_locked(&path, &contracts, LockMode::Check).unwrap(),
        vec![]
    );
}

#[test]
fn a_tool_no_longer_checked_is_an_error_until_it_is_dropped() {
    let path = locked("gone_tool");
    let both = [
        base::ReserveStock::contract(),
        tools::GetInventory::contract(),
    ];
    std::fs::write(&path, lock_text(&both)).unwrap();
    let one = [base::ReserveStock::contract()];
    let error = check_contracts_locked(&path, &one, LockMode::Check).unwrap_err();
    assert_eq!(
        message(error, &path),
        format!(
            "the tool contracts differ from the lock file tools.lock.json:\n- `get_inventory` 1.0.0 is in the lock file but not among the tools checked{RUN_UPDATE}"
        )
    );
    let recorded = check_contracts_locked(&path, &one, LockMode::Update).unwrap();
    assert_eq!(
        texts(recorded),
        ["`get_inventory` 1.0.0 is in the lock file but not among the tools checked"]
    );
    assert_eq!(read(&path), lock_text(&one));
}

#[test]
fn a_version_bumped_alone_is_recorded() {
    let path = locked("version_only");
    let contract = version_only::ReserveStock::contract();
    let error = check_contracts_locked(&path, &[contract], LockMode::Check).unwrap_err();
    assert_eq!(
        message(error, &path),
        format!(
            "the tool contracts differ from the lock file tools.lock.json:\n- `reserve_stock` 1.0.0 -> 1.1.0 with no change to the contract{RUN_UPDATE}"
        )
    );
    let recorded = check_contracts_locked(&path, &[contract], LockMode::Update).unwrap();
    assert_eq!(
        texts(recorded),
        ["`reserve_stock` 1.0.0 -> 1.1.0 with no change to the contract"]
    );
    assert_eq!(read(&path), lock_text(&[contract]));
}

#[test]
fn a_version_may_not_go_down() {
    let path = locked("version_down");
    std::fs::write(&path, lock_text(&[version_only::ReserveStock::contract()])).unwrap();
    let before = read(&path);
    let contract = base::ReserveStock::contract();
    let error = check_contracts_locked(&path, &[contract], LockMode::Update).unwrap_err();
    assert_eq!(
        message(error, &path),
        format!(
            "the lock file tools.lock.json was not updated, since a changed contract needs a bigger version bump:\n- `reserve_stock` 1.1.0 -> 1.0.0: a version may not go down{BUMP_FIRST}"
        )
    );
    assert_eq!(read(&path), before);
}

#[test]
fn a_bump_smaller_than_the_change_needs_is_refused() {
    let path = locked("too_small");
    let contract = removed_with_minor_bump::ReserveStock::contract();
    let error = check_contracts_locked(&path, &[contract], LockMode::Update).unwrap_err();
    assert_eq!(
        message(error, &path),
        format!(
            "the lock file tools.lock.json was not updated, since a changed contract needs a bigger version bump:\n- `reserve_stock` 1.0.0 -> 1.1.0 is not enough; it needs at least 2.0.0 (major):\n  - field `note` removed (major){BUMP_FIRST}"
        )
    );
    assert_eq!(read(&path), lock_text(&[base::ReserveStock::contract()]));
}

#[test]
fn a_bump_bigger_than_the_change_needs_is_recorded() {
    let path = locked("bigger_bump");
    let contract = described_with_major_bump::ReserveStock::contract();
    let recorded = check_contracts_locked(&path, &[contract], LockMode::Update).unwrap();
    assert_eq!(
        texts(recorded),
        [
            "`reserve_stock` 1.0.0 -> 2.0.0 (patch bump needed):\n  - tool description changed (patch)"
        ]
    );
}

#[test]
fn only_versioned_drift_is_written_and_nothing_when_some_is_not() {
    let path = locked("mixed");
    let contracts = [
        removed_with_minor_bump::ReserveStock::contract(),
        tools::GetInventory::contract(),
    ];
    let error = check_contracts_locked(&path, &contracts, LockMode::Update).unwrap_err();
    let LockError::LockDiff { drifts, mode, .. } = &error else {
        panic!("{error:?}");
    };
    assert_eq!(*mode, LockMode::Update);
    assert_eq!(
        drifts.len(),
        1,
        "only the refused drift is listed: {drifts:?}"
    );
    assert_eq!(drifts[0].name(), "reserve_stock");
    assert_eq!(
        drifts[0].required_bump(),
        Some(tool_contract::lock::Bump::Major)
    );
    assert!(!drifts[0].is_versioned());
    assert_eq!(read(&path), lock_text(&[base::ReserveStock::contract()]));
}

#[test]
fn malformed_lock_files_are_errors_that_say_why() {
    let path = locked("malformed");
    let contract = base::ReserveStock::contract();
    let good = read(&path);
    let edited = good.replacen(
        "\"description\": \"Reserve units",
        "\"description\": \"Hold units",
        1,
    );
    assert_ne!(edited, good);
    let cases = [
        ("{ not json", "key must be a string at line 1 column 3"),
        (
            r#"{"format": "tool-contract-lock/9", "tools": {}}"#,
            r#"unsupported format "tool-contract-lock/9"; expected "tool-contract-lock/1""#,
        ),
        (
            r#"{"format": "tool-contract-lock/1", "tools": {}, "extra": 1}"#,
            "unknown field `extra`, expected `format` or `tools` at line 1 column 55",
        ),
        (
            r#"{"format": "tool-contract-lock/1", "tools": {"x": {"version": "1.0"}}}"#,
            "invalid value: string \"1.0\", expected a version MAJOR.MINOR.PATCH at line 1 column 68",
        ),
        (
            edited.as_str(),
            "the fingerprint of `reserve_stock` does not match the contract it records",
        ),
    ];
    for (text, reason) in cases {
        std::fs::write(&path, text).unwrap();
        for mode in [LockMode::Check, LockMode::Update] {
            let error = check_contracts_locked(&path, &[contract], mode).unwrap_err();
            assert_eq!(
                message(error, &path),
                format!(
                    "tools.lock.json is not a valid lock file: {reason}; fix it, or delete it and run with TOOL_CONTRACT_UPDATE_LOCK=1 to record the contracts as they are"
                )
            );
            assert_eq!(
                read(&path),
                text,
                "a malformed lock file is never overwritten"
            );
        }
    }
}

#[test]
fn two_contracts_with_one_name_are_refused() {
    let path = locked("duplicate");
    let contracts = [
        base::ReserveStock::contract(),
        version_only::ReserveStock::contract(),
    ];
    let error = check_contracts_locked(&path, &contracts, LockMode::Update).unwrap_err();
    assert_eq!(
        error.to_string(),
        "two of the contracts checked are named `reserve_stock`"
    );
}

#[test]
fn the_lock_text_is_canonical_and_reads_back() {
    let contract = base::ReserveStock::contract();
    let text = lock_text(&[contract]);
    let expected_path = format!(
        "{}/tests/lock/reserve_stock.lock.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let expected = std::fs::read_to_string(&expected_path)
        .unwrap()
        .replace("\r\n", "\n");
    assert_eq!(text, expected, "the lock text differs from {expected_path}");
    let lock = ContractLock::parse(&text).unwrap();
    assert_eq!(lock.to_json_string(), text);
    assert_eq!(
        lock.tools()["reserve_stock"].fingerprint,
        contract.fingerprint()
    );
    assert_eq!(lock.tools()["reserve_stock"].units["hold"], "minutes");
}

/// The lock file `the_macro_updates_the_lock_only_with_the_env_var` hands to
/// `macro_child` when it runs this test binary again.
const CHILD_PATH_ENV: &str = "TOOL_CONTRACT_TEST_LOCK_PATH";

/// Runs `assert_contracts_locked!` for `optional_added::ReserveStock`: on the
/// lock file the parent test names, or (when run as an ordinary test) on a
/// lock that records the tool, which must pass and stay as it is.
#[test]
fn macro_child() {
    let path = match std::env::var_os(CHILD_PATH_ENV) {
        Some(path) => PathBuf::from(path),
        None => {
            let path = locked("macro_current");
            std::fs::write(
                &path,
                lock_text(&[optional_added::ReserveStock::contract()]),
            )
            .unwrap();
            path
        }
    };
    let before = read(&path);
    tool_contract::assert_contracts_locked!(&path, optional_added::ReserveStock);
    if std::env::var_os(CHILD_PATH_ENV).is_none() {
        assert_eq!(read(&path), before);
    }
}

fn run_child(path: &Path, update: bool) -> std::process::Output {
    // The test's name in this binary: its module path without the crate.
    let test = match module_path!().split_once("::") {
        Some((_, module)) => format!("{module}::macro_child"),
        None => "macro_child".to_owned(),
    };
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args(["--exact", &test, "--nocapture", "--test-threads=1"])
        .env(CHILD_PATH_ENV, path)
        .env_remove(UPDATE_LOCK_ENV);
    if update {
        command.env(UPDATE_LOCK_ENV, "1");
    }
    command.output().unwrap()
}

#[test]
fn the_macro_updates_the_lock_only_with_the_env_var() {
    let path = locked("macro_env");
    let before = read(&path);
    let change = "`reserve_stock` 1.0.0 -> 1.1.0 (minor bump needed):\n  - field `gift_wrap` added as optional (minor)";

    let checked = run_child(&path, false);
    let stderr = String::from_utf8_lossy(&checked.stderr)
        .replace(&path.display().to_string(), "tools.lock.json");
    assert!(!checked.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "the tool contracts differ from the lock file tools.lock.json:\n- {change}{RUN_UPDATE}"
        )),
        "{stderr}"
    );
    assert_eq!(read(&path), before);

    let updated = run_child(&path, true);
    let stderr = String::from_utf8_lossy(&updated.stderr)
        .replace(&path.display().to_string(), "tools.lock.json");
    assert!(updated.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("recorded in tools.lock.json: {change}")),
        "{stderr}"
    );
    assert_eq!(
        read(&path),
        lock_text(&[optional_added::ReserveStock::contract()])
    );
}
