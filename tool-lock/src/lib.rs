//! Versioned contracts for tool-contract (the facade's `lock` feature, meant
//! as an application's dev-dependency): the lock file `tools.lock.json`, the
//! semver diff between two versions of a contract, and the check that a
//! changed contract got a big enough version bump.
#![deny(missing_docs)]

mod change;
mod diff;
mod entry;
mod lock;
mod schema_diff;

pub use change::{Bump, Change, ChangeKind};
pub use entry::LockedTool;
pub use lock::{
    ContractLock, LOCK_FORMAT, LockDiff, LockError, LockMode, UPDATE_LOCK_ENV,
    check_contracts_locked,
};
