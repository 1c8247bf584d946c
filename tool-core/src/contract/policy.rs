//! The execution policy: effect, idempotency, approval, timeout, data class.

use serde::{Deserialize, Serialize};

/// How a tool may be run: declared on the struct, enforced by the runtime.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Policy {
    effect: Effect,
    idempotency: Idempotency,
    approval: Approval,
    timeout_ms: Option<u64>,
    open_world: bool,
    data_class: DataClass,
}

impl Policy {
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub const fn __new(
        effect: Effect,
        idempotency: Idempotency,
        approval: Approval,
        timeout_ms: Option<u64>,
        open_world: bool,
        data_class: DataClass,
    ) -> Self {
        Policy {
            effect,
            idempotency,
            approval,
            timeout_ms,
            open_world,
            data_class,
        }
    }

    /// What the tool does to the world.
    pub const fn effect(&self) -> Effect {
        self.effect
    }

    /// Whether a repeated call is safe.
    pub const fn idempotency(&self) -> Idempotency {
        self.idempotency
    }

    /// Whether a call needs an approval first.
    pub const fn approval(&self) -> Approval {
        self.approval
    }

    /// The longest a call may run, in milliseconds; `None` leaves it to the runtime.
    pub const fn timeout_ms(&self) -> Option<u64> {
        self.timeout_ms
    }

    /// Whether the tool reaches systems outside the application's control
    /// (the web, third-party APIs).
    pub const fn open_world(&self) -> bool {
        self.open_world
    }

    /// The most sensitive class of data the tool touches.
    pub const fn data_class(&self) -> DataClass {
        self.data_class
    }
}

/// What a tool does to the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Reads only; nothing changes.
    Read,
    /// Changes state in a way that can be undone or is expected.
    Write,
    /// Deletes or changes state in a way that cannot be undone.
    Destructive,
}

/// Whether a tool may be run twice with the same arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Idempotency {
    /// Not stated (allowed only for read tools, which are idempotent by nature).
    Unspecified,
    /// Running it again with the same arguments has no further effect.
    Idempotent,
    /// Each run has its own effect.
    NotIdempotent,
    /// Runs with the same value of this field are the same operation.
    Keyed {
        /// The JSON name of the idempotency-key field.
        field: &'static str,
    },
}

/// Whether a call must be approved before it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Approval {
    /// Runs without an approval.
    None,
    /// Runs only with an approval bound to this tool, version and arguments.
    Required,
}

/// The most sensitive class of data a tool reads or returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DataClass {
    /// Anyone may see it.
    Public,
    /// Anyone in the organisation may see it (the default).
    Internal,
    /// Only those who need it may see it.
    Confidential,
    /// Regulated or secret data.
    Restricted,
}
