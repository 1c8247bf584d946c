//! One test per kind of change to a tool's enum values, policy and
//! descriptions and examples: the right version bump is recorded in the lock file, a
//! missing one is refused with a message naming the change.
//!
// Each module declares the changed tool twice: `Unbumped` keeps version
// 1.0.0, `Bumped` has the bump the change needs. (They are written out, not
// stamped by a `macro_rules!`: the derive cannot yet take field tokens from
// a macro fragment.)
#![allow(dead_code)]

use crate::reserve_stock;
use crate::support as lock;

use lock::{DOC, Shelf, ShelfFrontOnly, ShelfWithTop, assert_change, base, locked};
use tool_contract::{Tool, lock::LockError, lock::LockMode, lock::check_contracts_locked};

mod enum_value_removed {
    use super::*;

    reserve_stock! {
        "1.0.0", Unbumped {
            /// Stock keeping unit, e.g. "SKU-1042".
            pub sku: String,
            /// How many units to hold.
            #[tool(minimum = 1)]
            pub quantity: u32,
            /// How long to hold the units.
            #[tool(unit = "minutes")]
            pub hold: Option<u32>,
            /// Which shelf to take the units from.
            pub shelf: ShelfFrontOnly,
            /// A note for the warehouse.
            pub note: Option<String>,
        }
    }

    reserve_stock! {
        "2.0.0", Bumped {
            /// Stock keeping unit, e.g. "SKU-1042".
            pub sku: String,
            /// How many units to hold.
            #[tool(minimum = 1)]
            pub quantity: u32,
            /// How long to hold the units.
            #[tool(unit = "minutes")]
            pub hold: Option<u32>,
            /// Which shelf to take the units from.
            pub shelf: ShelfFrontOnly,
            /// A note for the warehouse.
            pub note: Option<String>,
        }
    }
}

mod enum_value_added {
    use super::*;

    reserve_stock! {
        "1.0.0", Unbumped {
            /// Stock keeping unit, e.g. "SKU-1042".
            pub sku: String,
            /// How many units to hold.
            #[tool(minimum = 1)]
            pub quantity: u32,
            /// How long to hold the units.
            #[tool(unit = "minutes")]
            pub hold: Option<u32>,
            /// Which shelf to take the units from.
            pub shelf: ShelfWithTop,
            /// A note for the warehouse.
            pub note: Option<String>,
        }
    }

    reserve_stock! {
        "1.1.0", Bumped {
            /// Stock keeping unit, e.g. "SKU-1042".
            pub sku: String,
            /// How many units to hold.
            #[tool(minimum = 1)]
            pub quantity: u32,
            /// How long to hold the units.
            #[tool(unit = "minutes")]
            pub hold: Option<u32>,
            /// Which shelf to take the units from.
            pub shelf: ShelfWithTop,
            /// A note for the warehouse.
            pub note: Option<String>,
        }
    }
}

mod effect_changed {
    use super::*;

    #[doc = "Reserve units of an item for the customer's order until checkout."]
    #[derive(Tool)]
    #[tool(
        name = "reserve_stock",
        version = "1.0.0",
        effect = "read",
        idempotent,
        allow(misleading_name = "the lock test declares a write tool read to see the change")
    )]
    pub struct Unbumped {
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

    #[doc = "Reserve units of an item for the customer's order until checkout."]
    #[derive(Tool)]
    #[tool(
        name = "reserve_stock",
        version = "2.0.0",
        effect = "read",
        idempotent,
        allow(misleading_name = "the lock test declares a write tool read to see the change")
    )]
    pub struct Bumped {
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

mod approval_changed {
    use super::*;

    #[doc = "Reserve units of an item for the customer's order until checkout."]
    #[derive(Tool)]
    #[tool(
        name = "reserve_stock",
        version = "1.0.0",
        effect = "write",
        idempotent,
        approval = "required"
    )]
    pub struct Unbumped {
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

    #[doc = "Reserve units of an item for the customer's order until checkout."]
    #[derive(Tool)]
    #[tool(
        name = "reserve_stock",
        version = "2.0.0",
        effect = "write",
        idempotent,
        approval = "required"
    )]
    pub struct Bumped {
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

mod description_changed {
    use super::*;

    #[doc = "Reserve units of an item for the customer's order until it is paid."]
    #[derive(Tool)]
    #[tool(
        name = "reserve_stock",
        version = "1.0.0",
        effect = "write",
        idempotent
    )]
    pub struct Unbumped {
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
        /// A note for the warehouse, e.g. "fragile".
        pub note: Option<String>,
    }

    #[doc = "Reserve units of an item for the customer's order until it is paid."]
    #[derive(Tool)]
    #[tool(
        name = "reserve_stock",
        version = "1.0.1",
        effect = "write",
        idempotent
    )]
    pub struct Bumped {
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
        /// A note for the warehouse, e.g. "fragile".
        pub note: Option<String>,
    }
}

#[test]
fn the_base_tool_matches_its_lock() {
    let path = locked("base");
    let contract = base::ReserveStock::contract();
    assert_eq!(contract.description(), DOC);
    assert_eq!(
        check_contracts_locked(&path, &[contract], LockMode::Check).unwrap(),
        vec![]
    );
    assert_eq!(
        check_contracts_locked(&path, &[contract], LockMode::Update).unwrap(),
        vec![]
    );
}

#[test]
fn removing_an_enum_value_is_major() {
    assert_change(
        "enum_value_removed",
        enum_value_removed::Unbumped::contract(),
        enum_value_removed::Bumped::contract(),
        "`reserve_stock` 1.0.0 changed without a version bump; it needs at least 2.0.0 (major):\n  - value `back` removed from field `shelf` (major)",
        "`reserve_stock` 1.0.0 -> 2.0.0 (major bump needed):\n  - value `back` removed from field `shelf` (major)",
    );
}

#[test]
fn adding_an_enum_value_is_minor() {
    assert_change(
        "enum_value_added",
        enum_value_added::Unbumped::contract(),
        enum_value_added::Bumped::contract(),
        "`reserve_stock` 1.0.0 changed without a version bump; it needs at least 1.1.0 (minor):\n  - value `top` added to field `shelf` (minor)",
        "`reserve_stock` 1.0.0 -> 1.1.0 (minor bump needed):\n  - value `top` added to field `shelf` (minor)",
    );
}

#[test]
fn changing_the_effect_is_major() {
    assert_change(
        "effect_changed",
        effect_changed::Unbumped::contract(),
        effect_changed::Bumped::contract(),
        "`reserve_stock` 1.0.0 changed without a version bump; it needs at least 2.0.0 (major):\n  - effect changed from `write` to `read` (major)",
        "`reserve_stock` 1.0.0 -> 2.0.0 (major bump needed):\n  - effect changed from `write` to `read` (major)",
    );
}

#[test]
fn changing_the_approval_is_major() {
    assert_change(
        "approval_changed",
        approval_changed::Unbumped::contract(),
        approval_changed::Bumped::contract(),
        "`reserve_stock` 1.0.0 changed without a version bump; it needs at least 2.0.0 (major):\n  - approval changed from `none` to `required` (major)",
        "`reserve_stock` 1.0.0 -> 2.0.0 (major bump needed):\n  - approval changed from `none` to `required` (major)",
    );
}

#[test]
fn changing_descriptions_is_a_patch() {
    assert_change(
        "description_changed",
        description_changed::Unbumped::contract(),
        description_changed::Bumped::contract(),
        "`reserve_stock` 1.0.0 changed without a version bump; it needs at least 1.0.1 (patch):\n  - description of field `note` changed (patch)\n  - tool description changed (patch)",
        "`reserve_stock` 1.0.0 -> 1.0.1 (patch bump needed):\n  - description of field `note` changed (patch)\n  - tool description changed (patch)",
    );
}

mod examples_changed {
    use super::*;

    #[doc = "Reserve units of an item for the customer's order until checkout."]
    #[derive(Tool)]
    #[tool(
        name = "reserve_stock",
        version = "1.0.0",
        effect = "write",
        idempotent,
        example = r#"{"sku": "SKU-1042", "quantity": 2, "shelf": "front"}"#
    )]
    pub struct Unbumped {
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

    #[doc = "Reserve units of an item for the customer's order until checkout."]
    #[derive(Tool)]
    #[tool(
        name = "reserve_stock",
        version = "1.0.1",
        effect = "write",
        idempotent,
        example = r#"{"sku": "SKU-1042", "quantity": 2, "shelf": "front"}"#
    )]
    pub struct Bumped {
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

    #[doc = "Reserve units of an item for the customer's order until checkout."]
    #[derive(Tool)]
    #[tool(
        name = "reserve_stock",
        version = "1.0.1",
        effect = "write",
        idempotent,
        example = r#"{"sku": "SKU-1042", "quantity": 2, "shelf": "top"}"#
    )]
    pub struct Refused {
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

#[test]
fn adding_examples_is_a_patch() {
    assert_change(
        "examples_changed",
        examples_changed::Unbumped::contract(),
        examples_changed::Bumped::contract(),
        "`reserve_stock` 1.0.0 changed without a version bump; it needs at least 1.0.1 (patch):\n  - tool examples changed (patch)",
        "`reserve_stock` 1.0.0 -> 1.0.1 (patch bump needed):\n  - tool examples changed (patch)",
    );
}

#[test]
fn the_lock_check_refuses_an_example_the_parser_refuses() {
    let path = locked("example_refused");
    let error = check_contracts_locked(
        &path,
        &[examples_changed::Refused::contract()],
        LockMode::Update,
    )
    .unwrap_err();
    assert!(matches!(error, LockError::BrokenRule(_)), "{error:?}");
    assert_eq!(
        error.to_string(),
        "tool `reserve_stock` has an example its parser refuses: example 0 at `$.shelf`: \"top\" is not an allowed value; expected one of \"front\", \"back\""
    );
}
