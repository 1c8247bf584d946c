//! Versioned contracts: the lock file records every contract, and each kind
//! of change needs its version bump, refused with a message naming the
//! change until it has one. `support` holds the tool `reserve_stock` as the
//! lock files record it.
//!
//! Modules:
//! - `file`: the lock file itself and `assert_contracts_locked!`.
//! - `fields`: each kind of change to a tool's fields.
//! - `policy`: each kind of change to enum values, policy and descriptions.
//! - `examples`: the example tools are locked.
//! - `versions`: two versions of one tool, each locked.

mod support;
#[path = "../../examples/tools/mod.rs"]
mod tools;
// The versions' shared module builds their toolbox too, with the runtime.
#[cfg(feature = "runtime")]
#[path = "../versions_support/mod.rs"]
mod versions_support;

pub mod examples;
pub mod fields;
pub mod file;
pub mod policy;
#[cfg(feature = "runtime")]
pub mod versions;
