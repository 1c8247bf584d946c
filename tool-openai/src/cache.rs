//! Each tool's strict schema, compiled once per process.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{OnceLock, PoisonError, RwLock};

use serde_json::Value;
use tool_core::{Tool, ToolContract};

use crate::compile::to_strict_json_schema;
use crate::error::StrictSchemaError;

type Compiled = Result<&'static Value, StrictSchemaError>;

/// Compiled schemas by the address of their (`'static`) contract.
type Cache = RwLock<HashMap<usize, Compiled, BuildHasherDefault<AddressHasher>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Cache::default)
}

/// The strict schema of `T`'s arguments: `T::input_schema()` compiled by
/// [`to_strict_json_schema`](crate::to_strict_json_schema).
///
/// The first call compiles it; later calls return the same reference (or the
/// same error) from a process-wide cache.
pub fn strict_schema<T: Tool>() -> Result<&'static Value, StrictSchemaError> {
    strict_schema_for(T::contract())
}

/// The strict schema of a contract's arguments, compiled once and cached like
/// [`strict_schema`].
pub fn strict_schema_for(
    contract: &'static ToolContract,
) -> Result<&'static Value, StrictSchemaError> {
    let key = std::ptr::from_ref(contract) as usize;
    if let Some(compiled) = cache()
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&key)
    {
        return compiled.clone();
    }
    // Compiled outside the lock; if two threads race, the first insert wins
    // and the loser's copy is dropped without leaking.
    let compiled = to_strict_json_schema(contract.input_schema());
    let mut cache = cache().write().unwrap_or_else(PoisonError::into_inner);
    cache
        .entry(key)
        .or_insert_with(|| compiled.map(|schema| &*Box::leak(Box::new(schema))))
        .clone()
}

/// Hashes an address: a multiplicative hash, folded so that the low bits
/// (which pick the bucket) depend on every bit of the aligned address.
#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(*byte)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_usize(&mut self, n: usize) {
        let product = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = product ^ (product >> 32);
    }
}
