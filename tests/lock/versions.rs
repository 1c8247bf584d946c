//! Every served version of a tool is in the lock file: the newest major
//! under the tool's name, each older one under `name@MAJOR`, each checked
//! against its own entry by the same semver rules; a deprecation (or a
//! change to it) is a minor change; two contracts of one name and one
//! major are refused.

use std::path::PathBuf;

use tool_contract::Tool;
use tool_contract::lock::{ContractLock, LockDiff, LockMode, check_contracts_locked};
use tool_contract::{Money, ToolContract};

use crate::versions_support::{
    CreateRefundDraftV1, CreateRefundDraftV2, CustomerId, RefundDraftV1, RefundDraftV2, RefundTo,
};

/// Version 1 before it was deprecated.
#[allow(dead_code)]
mod undeprecated {
    use super::*;

    /// Create a refund draft for an order of the signed-in customer; the
    /// refund goes back to the original payment.
    ///
    /// It does not submit the refund (a person reviews drafts). Returns the
    /// draft id and the amount.
    #[derive(Debug, Tool)]
    #[tool(
        name = "create_refund_draft",
        version = "1.2.0",
        effect = "write",
        output = RefundDraftV1
    )]
    pub struct CreateRefundDraftV1 {
        /// Order reference exactly as the app shows it, e.g. "A-10293".
        #[tool(min_length = 1)]
        pub order_ref: String,
        /// Amount to refund, in the order's currency.
        pub amount: Money,
        /// A key made up once per draft (a UUID) and repeated on a retry, so a
        /// retry does not draft twice.
        #[tool(idempotency_key, format = "uuid")]
        pub request_id: String,
        /// Signed-in customer; taken from the trusted session, never from the model.
        #[tool(inject)]
        pub customer: CustomerId,
    }
}

/// Version 1 deprecated without a version bump.
#[allow(dead_code)]
mod deprecated_unbumped {
    use super::*;

    /// Create a refund draft for an order of the signed-in customer; the
    /// refund goes back to the original payment.
    ///
    /// It does not submit the refund (a person reviews drafts). Returns the
    /// draft id and the amount.
    #[derive(Debug, Tool)]
    #[tool(
        name = "create_refund_draft",
        version = "1.2.0",
        deprecated(
            sunset = "2026-09-30",
            note = "Use version 2, which asks where the refund goes."
        ),
        effect = "write",
        output = RefundDraftV1
    )]
    pub struct CreateRefundDraftV1 {
        /// Order reference exactly as the app shows it, e.g. "A-10293".
        #[tool(min_length = 1)]
        pub order_ref: String,
        /// Amount to refund, in the order's currency.
        pub amount: Money,
        /// A key made up once per draft (a UUID) and repeated on a retry, so a
        /// retry does not draft twice.
        #[tool(idempotency_key, format = "uuid")]
        pub request_id: String,
        /// Signed-in customer; taken from the trusted session, never from the model.
        #[tool(inject)]
        pub customer: CustomerId,
    }
}

/// Version 1 at 1.3.0 with its sunset moved and a field removed, unbumped.
#[allow(dead_code)]
mod v1_broken {
    use super::*;

    /// Create a refund draft for an order of the signed-in customer; the
    /// refund goes back to the original payment.
    ///
    /// It does not submit the refund (a person reviews drafts). Returns the
    /// draft id and the amount.
    #[derive(Debug, Tool)]
    #[tool(
        name = "create_refund_draft",
        version = "1.3.0",
        deprecated(
            sunset = "2026-12-31",
            note = "Use version 2, which asks where the refund goes."
        ),
        effect = "write",
        output = RefundDraftV1
    )]
    pub struct CreateRefundDraftV1 {
        /// Order reference exactly as the app shows it, e.g. "A-10293".
        #[tool(min_length = 1)]
        pub order_ref: String,
        /// A key made up once per draft (a UUID) and repeated on a retry, so a
        /// retry does not draft twice.
        #[tool(idempotency_key, format = "uuid")]
        pub request_id: String,
        /// Signed-in customer; taken from the trusted session, never from the model.
        #[tool(inject)]
        pub customer: CustomerId,
    }
}

/// Version 3: version 2 with a note for the reviewer.
#[allow(dead_code)]
mod v3 {
    use super::*;

    /// Create a refund draft for an order of the signed-in customer, refunded
    /// where the customer chose.
    ///
    /// It does not submit the refund (a person reviews drafts). Returns the
    /// draft id, the amount and where the refund goes.
    #[derive(Debug, Tool)]
    #[tool(
        name = "create_refund_draft",
        version = "3.0.0",
        effect = "write",
        output = RefundDraftV2
    )]
    pub struct CreateRefundDraftV3 {
        /// Order reference exactly as the app shows it, e.g. "A-10293".
        #[tool(min_length = 1)]
        pub order_ref: String,
        /// Amount to refund, more than zero, in the order's currency.
        #[tool(minimum = 1)]
        pub amount: Money,
        /// Where the refund goes; ask the customer.
        pub refund_to: RefundTo,
        /// What the reviewer should know; null for nothing.
        pub note: Option<String>,
        /// A key made up once per draft (a UUID) and repeated on a retry, so a
        /// retry does not draft twice.
        #[tool(idempotency_key, format = "uuid")]
        pub request_id: String,
        /// Signed-in customer; taken from the trusted session, never from the model.
        #[tool(inject)]
        pub customer: CustomerId,
    }
}

/// A lock file in a fresh temporary directory recording `contracts`.
fn locked(test: &str, contracts: &[&ToolContract]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("lock_tests")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tools.lock.json");
    let lock = ContractLock::from_contracts(contracts).unwrap();
    std::fs::write(&path, lock.to_json_string()).unwrap();
    path
}

fn both() -> [&'static ToolContract; 2] {
    [
        CreateRefundDraftV2::contract(),
        CreateRefundDraftV1::contract(),
    ]
}

#[test]
fn both_versions_match_their_lock_file() {
    tool_contract::assert_contracts_locked!(
        "tests/lock/refund_versions.lock.json",
        CreateRefundDraftV2,
        CreateRefundDraftV1,
    );
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/lock/refund_versions.lock.json"
    ))
    .unwrap();
    let lock = ContractLock::parse(&text).unwrap();
    let entries: Vec<(&str, String, Option<serde_json::Value>)> = lock
        .tools()
        .iter()
        .map(|(key, tool)| {
            (
                key.as_str(),
                tool.version.to_string(),
                tool.deprecation.clone(),
            )
        })
        .collect();
    assert_eq!(
        entries,
        [
            ("create_refund_draft", "2.0.0".to_owned(), None),
            (
                "create_refund_draft@1",
                "1.3.0".to_owned(),
                Some(serde_json::json!({
                    "note": "Use version 2, which asks where the refund goes.",
                    "sunset": "2026-09-30"
                }))
            ),
        ]
    );
    // The entries are the contracts' own, fingerprints included.
    assert_eq!(lock, ContractLock::from_contracts(&both()).unwrap());
    assert_eq!(
        lock.tools()["create_refund_draft@1"].fingerprint,
        CreateRefundDraftV1::contract().fingerprint()
    );
    // The order the contracts are given in does not matter.
    let reversed = [
        CreateRefundDraftV1::contract(),
        CreateRefundDraftV2::contract(),
    ];
    assert_eq!(lock, ContractLock::from_contracts(&reversed).unwrap());
}

#[test]
fn a_new_major_beside_the_locked_one_moves_the_old_one_to_its_own_entry() {
    let path = locked("new_major", &[CreateRefundDraftV1::contract()]);
    let drifts = check_contracts_locked(&path, &both(), LockMode::Update).unwrap();
    let texts: Vec<String> = drifts.iter().map(ToString::to_string).collect();
    assert_eq!(
        texts,
        [
            "`create_refund_draft` 1.3.0 -> 2.0.0 (major bump needed):\n  - field `refund_to` added as required (major)\n  - description of field `amount` changed (patch)\n  - `minimum` of field `amount.amount_minor` changed from 0 to 1 (major)\n  - description of the output changed (patch)\n  - output field `refund_to` added (minor)\n  - `title` of the output changed (patch)\n  - no longer deprecated (minor)\n  - tool description changed (patch)".to_owned(),
            "`create_refund_draft` 1.3.0 is new: the lock file does not have it".to_owned(),
        ]
    );
    assert!(drifts.iter().all(LockDiff::is_versioned));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        ContractLock::from_contracts(&both())
            .unwrap()
            .to_json_string()
    );
    assert_eq!(
        check_contracts_locked(&path, &both(), LockMode::Check).unwrap(),
        []
    );
    // Retiring version 1 for good: its entry is gone, the newest stays.
    let drifts = check_contracts_locked(&path, &[CreateRefundDraftV2::contract()], LockMode::Check)
        .unwrap_err()
        .to_string()
        .replace(&path.display().to_string(), "tools.lock.json");
    assert_eq!(
        drifts,
        "the tool contracts differ from the lock file tools.lock.json:\n- `create_refund_draft` 1.3.0 is in the lock file but not among the tools checked\nrun with TOOL_CONTRACT_UPDATE_LOCK=1 to update the lock file"
    );
}

#[test]
fn each_served_version_is_checked_against_its_own_entry() {
    let path = locked("each_version", &both());
    let contracts = [
        CreateRefundDraftV2::contract(),
        v1_broken::CreateRefundDraftV1::contract(),
    ];
    let error = check_contracts_locked(&path, &contracts, LockMode::Update)
        .unwrap_err()
        .to_string()
        .replace(&path.display().to_string(), "tools.lock.json");
    assert_eq!(
        error,
        "the lock file tools.lock.json was not updated, since a changed contract needs a bigger version bump:\n- `create_refund_draft` 1.3.0 changed without a version bump; it needs at least 2.0.0 (major):\n  - field `amount` removed (major)\n  - deprecation sunset moved from 2026-09-30 to 2026-12-31 (minor)\n  - tool description changed (patch)\nbump the versions named above, then run with TOOL_CONTRACT_UPDATE_LOCK=1 to update the lock file"
    );
}

#[test]
fn a_deprecation_is_a_minor_change() {
    let path = locked(
        "deprecation",
        &[undeprecated::CreateRefundDraftV1::contract()],
    );
    let error = check_contracts_locked(
        &path,
        &[deprecated_unbumped::CreateRefundDraftV1::contract()],
        LockMode::Update,
    )
    .unwrap_err()
    .to_string()
    .replace(&path.display().to_string(), "tools.lock.json");
    assert_eq!(
        error,
        "the lock file tools.lock.json was not updated, since a changed contract needs a bigger version bump:\n- `create_refund_draft` 1.2.0 changed without a version bump; it needs at least 1.3.0 (minor):\n  - deprecated, with the sunset 2026-09-30 (minor)\n  - tool description changed (patch)\nbump the versions named above, then run with TOOL_CONTRACT_UPDATE_LOCK=1 to update the lock file"
    );
    let recorded =
        check_contracts_locked(&path, &[CreateRefundDraftV1::contract()], LockMode::Update)
            .unwrap();
    assert_eq!(
        recorded.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "`create_refund_draft` 1.2.0 -> 1.3.0 (minor bump needed):\n  - deprecated, with the sunset 2026-09-30 (minor)\n  - tool description changed (patch)"
        ]
    );
}

#[test]
fn two_contracts_of_one_name_and_major_are_refused_and_a_key_names_its_major() {
    let path = locked("same_major", &both());
    let contracts = [
        CreateRefundDraftV1::contract(),
        undeprecated::CreateRefundDraftV1::contract(),
    ];
    let error = check_contracts_locked(&path, &contracts, LockMode::Update).unwrap_err();
    assert_eq!(
        error.to_string(),
        "two of the contracts checked are named `create_refund_draft`"
    );
    // An entry `name@MAJOR` records a version of that major.
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("\"create_refund_draft@1\"", "\"create_refund_draft@2\"");
    let error = ContractLock::parse(&text).unwrap_err();
    assert_eq!(
        error.to_string(),
        "not a valid lock file: the entry `create_refund_draft@2` records version 1.3.0; an entry `name@MAJOR` records a version of that major; fix it, or delete it and run with TOOL_CONTRACT_UPDATE_LOCK=1 to record the contracts as they are"
    );
}

#[test]
fn an_entry_moved_to_its_major_key_is_still_checked_against_what_it_recorded() {
    // Version 1 was the only one; version 2 is added, and in the same
    // change version 1 loses a field without a bump.
    let path = locked("moved_and_changed", &[CreateRefundDraftV1::contract()]);
    let contracts = [
        CreateRefundDraftV2::contract(),
        v1_broken::CreateRefundDraftV1::contract(),
    ];
    let error = check_contracts_locked(&path, &contracts, LockMode::Update)
        .unwrap_err()
        .to_string()
        .replace(&path.display().to_string(), "tools.lock.json");
    assert_eq!(
        error,
        "the lock file tools.lock.json was not updated, since a changed contract needs a bigger version bump:\n- `create_refund_draft` 1.3.0 changed without a version bump; it needs at least 2.0.0 (major):\n  - field `amount` removed (major)\n  - deprecation sunset moved from 2026-09-30 to 2026-12-31 (minor)\n  - tool description changed (patch)\nbump the versions named above, then run with TOOL_CONTRACT_UPDATE_LOCK=1 to update the lock file"
    );
    // Nothing was written.
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        ContractLock::from_contracts(&[CreateRefundDraftV1::contract()])
            .unwrap()
            .to_json_string()
    );

    // Deprecating version 1 as version 2 comes is a change to it too: it
    // needs its minor bump.
    let path = locked(
        "moved_and_deprecated",
        &[undeprecated::CreateRefundDraftV1::contract()],
    );
    let contracts = [
        CreateRefundDraftV2::contract(),
        deprecated_unbumped::CreateRefundDraftV1::contract(),
    ];
    let error = check_contracts_locked(&path, &contracts, LockMode::Update)
        .unwrap_err()
        .to_string()
        .replace(&path.display().to_string(), "tools.lock.json");
    assert_eq!(
        error,
        "the lock file tools.lock.json was not updated, since a changed contract needs a bigger version bump:\n- `create_refund_draft` 1.2.0 changed without a version bump; it needs at least 1.3.0 (minor):\n  - deprecated, with the sunset 2026-09-30 (minor)\n  - tool description changed (patch)\nbump the versions named above, then run with TOOL_CONTRACT_UPDATE_LOCK=1 to update the lock file"
    );
}

#[test]
fn a_third_major_moves_the_second_to_its_own_entry_and_checks_each() {
    let path = locked("three", &both());
    let three = [
        v3::CreateRefundDraftV3::contract(),
        CreateRefundDraftV2::contract(),
        CreateRefundDraftV1::contract(),
    ];
    let drifts = check_contracts_locked(&path, &three, LockMode::Update).unwrap();
    assert_eq!(
        drifts.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "`create_refund_draft` 2.0.0 -> 3.0.0 (minor bump needed):\n  - field `note` added as optional (minor)",
            "`create_refund_draft` 2.0.0 is new: the lock file does not have it",
        ]
    );
    let lock = ContractLock::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        lock.tools()
            .iter()
            .map(|(key, tool)| (key.as_str(), tool.version.to_string()))
            .collect::<Vec<_>>(),
        [
            ("create_refund_draft", "3.0.0".to_owned()),
            ("create_refund_draft@1", "1.3.0".to_owned()),
            ("create_refund_draft@2", "2.0.0".to_owned()),
        ]
    );
    assert_eq!(
        check_contracts_locked(&path, &three, LockMode::Check).unwrap(),
        []
    );
}
