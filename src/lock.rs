//! Versioned contracts: the lock file, semver diffs, and the check behind
//! [`assert_contracts_locked!`](crate::assert_contracts_locked) (for dev-dependencies).

pub use tool_lock::{
    Bump, Change, ChangeKind, ContractLock, LOCK_FORMAT, LockDiff, LockError, LockMode, LockedTool,
    UPDATE_LOCK_ENV, check_contracts_locked,
};

#[doc = include_str!("../docs/lock.md")]
#[macro_export]
macro_rules! assert_contracts_locked {
    ($path:expr, $($tool:ty),+ $(,)?) => {{
        let __tool_path = ::std::path::Path::new(::std::env!("CARGO_MANIFEST_DIR")).join($path);
        let __tool_contracts: &[&$crate::ToolContract] =
            &[$(<$tool as $crate::Tool>::contract()),+];
        let __tool_mode = $crate::lock::LockMode::from_env();
        match $crate::lock::check_contracts_locked(&__tool_path, __tool_contracts, __tool_mode) {
            ::std::result::Result::Ok(__tool_recorded) => {
                for __tool_drift in &__tool_recorded {
                    ::std::eprintln!("recorded in {}: {}", __tool_path.display(), __tool_drift);
                }
            }
            ::std::result::Result::Err(__tool_error) => ::std::panic!("{}", __tool_error),
        }
    }};
}
