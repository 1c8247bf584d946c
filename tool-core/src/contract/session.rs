//! Trusted, typed values that the application (not the model) supplies.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// The default cap on the size of a call's argument text: 1 MiB.
pub const DEFAULT_MAX_ARGUMENT_BYTES: usize = 1 << 20;

/// Trusted values for one conversation or request: the signed-in user, the
/// tenant, a database handle, approvals.
///
/// Values are stored by type; a field marked `#[tool(inject)]` is filled from
/// the value of its type, never from the model's arguments.
///
/// ```
/// use tool_contract::Session;
///
/// #[derive(Clone, Debug, PartialEq)]
/// struct TenantId(String);
///
/// let session = Session::new().with(TenantId("acme".into()));
/// assert_eq!(session.get::<TenantId>(), Some(&TenantId("acme".into())));
/// assert_eq!(session.get::<u32>(), None);
/// ```
#[derive(Clone)]
pub struct Session {
    values: HashMap<TypeId, Entry>,
    max_argument_bytes: usize,
}

#[derive(Clone)]
struct Entry {
    type_name: &'static str,
    value: Arc<dyn Any + Send + Sync>,
}

impl Session {
    /// An empty session.
    pub fn new() -> Self {
        Session {
            values: HashMap::new(),
            max_argument_bytes: DEFAULT_MAX_ARGUMENT_BYTES,
        }
    }

    /// Adds a value (replacing one of the same type) and returns the session.
    #[must_use]
    pub fn with<T: Any + Send + Sync>(mut self, value: T) -> Self {
        self.insert(value);
        self
    }

    /// Adds a value, replacing one of the same type; returns true if one was replaced.
    pub fn insert<T: Any + Send + Sync>(&mut self, value: T) -> bool {
        let entry = Entry {
            type_name: std::any::type_name::<T>(),
            value: Arc::new(value),
        };
        self.values.insert(TypeId::of::<T>(), entry).is_some()
    }

    /// The value of type `T`, if the session holds one.
    pub fn get<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.values
            .get(&TypeId::of::<T>())
            .and_then(|entry| entry.value.downcast_ref::<T>())
    }

    /// Removes the value of type `T`; returns true if there was one.
    pub fn remove<T: Any + Send + Sync>(&mut self) -> bool {
        self.values.remove(&TypeId::of::<T>()).is_some()
    }

    /// Whether the session holds a value of type `T`.
    pub fn contains<T: Any + Send + Sync>(&self) -> bool {
        self.values.contains_key(&TypeId::of::<T>())
    }

    /// The largest argument text (in bytes) that parsing accepts; larger
    /// input is refused before it is parsed. Defaults to
    /// [`DEFAULT_MAX_ARGUMENT_BYTES`].
    pub fn max_argument_bytes(&self) -> usize {
        self.max_argument_bytes
    }

    /// Sets the argument size cap and returns the session.
    #[must_use]
    pub fn with_max_argument_bytes(mut self, bytes: usize) -> Self {
        self.max_argument_bytes = bytes;
        self
    }
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut types: Vec<&str> = self.values.values().map(|e| e.type_name).collect();
        types.sort_unstable();
        f.debug_struct("Session")
            .field("types", &types)
            .field("max_argument_bytes", &self.max_argument_bytes)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq)]
    struct UserId(u64);

    #[test]
    fn values_are_kept_by_type_and_replaced() {
        let mut session = Session::new().with(UserId(7)).with(String::from("x"));
        assert_eq!(session.get::<UserId>(), Some(&UserId(7)));
        assert!(session.insert(UserId(8)));
        assert_eq!(session.get::<UserId>(), Some(&UserId(8)));
        assert!(session.remove::<UserId>());
        assert!(!session.contains::<UserId>());
        assert_eq!(session.get::<String>().map(String::as_str), Some("x"));
        assert_eq!(
            format!("{session:?}"),
            "Session { types: [\"alloc::string::String\"], max_argument_bytes: 1048576 }"
        );
    }
}
