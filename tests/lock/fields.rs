//! One test per kind of change to a tool's fields: the right version bump
//! is recorded in the lock file, a missing one is refused with a message
//! naming the change.

// Each module declares the changed tool twice: `Unbumped` keeps version
// 1.0.0, `Bumped` has the bump the change needs. (They are written out, not
// stamped by a `macro_rules!`: the derive cannot yet take field tokens from
// a macro fragment.)
#![allow(dead_code)]

use crate::reserve_stock;
use crate::support as lock;

use lock::{Shelf, assert_change};
use tool_contract::lock::{Bump, Change, ChangeKind, ContractLock, LockDiff};
use tool_contract::{Tool, ToolContract};

mod optional_field_added {
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
            pub shelf: Shelf,
            /// A note for the warehouse.
            pub note: Option<String>,
            /// Whether to wrap the units as a gift.
            pub gift_wrap: Option<bool>,
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
            pub shelf: Shelf,
            /// A note for the warehouse.
            pub note: Option<String>,
            /// Whether to wrap the units as a gift.
            pub gift_wrap: Option<bool>,
        }
    }
}

mod required_field_added {
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
            pub shelf: Shelf,
            /// A note for the warehouse.
            pub note: Option<String>,
            /// The warehouse code, e.g. "BER-1".
            pub warehouse: String,
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
            pub shelf: Shelf,
            /// A note for the warehouse.
            pub note: Option<String>,
            /// The warehouse code, e.g. "BER-1".
            pub warehouse: String,
        }
    }
}

mod field_removed {
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
            pub shelf: Shelf,
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
            pub shelf: Shelf,
        }
    }
}

mod field_renamed {
    use super::*;

    reserve_stock! {
        "1.0.0", Unbumped {
            /// Stock keeping unit of the item, e.g. "SKU-1042".
            pub item_sku: String,
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

    reserve_stock! {
        "2.0.0", Bumped {
            /// Stock keeping unit of the item, e.g. "SKU-1042".
            pub item_sku: String,
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

mod made_required {
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
            pub shelf: Shelf,
            /// A note for the warehouse.
            pub note: String,
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
            pub shelf: Shelf,
            /// A note for the warehouse.
            pub note: String,
        }
    }
}

mod type_changed {
    use super::*;

    reserve_stock! {
        "1.0.0", Unbumped {
            /// Stock keeping unit, e.g. "SKU-1042".
            pub sku: String,
            /// How many units to hold.
            pub quantity: String,
            /// How long to hold the units.
            #[tool(unit = "minutes")]
            pub hold: Option<u32>,
            /// Which shelf to take the units from.
            pub shelf: Shelf,
            /// A note for the warehouse.
            pub note: Option<String>,
        }
    }

    reserve_stock! {
        "2.0.0", Bumped {
            /// Stock keeping unit, e.g. "SKU-1042".
            pub sku: String,
            /// How many units to hold.
            pub quantity: String,
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

mod unit_changed {
    use super::*;

    reserve_stock! {
        "1.0.0", Unbumped {
            /// Stock keeping unit, e.g. "SKU-1042".
            pub sku: String,
            /// How many units to hold.
            #[tool(minimum = 1)]
            pub quantity: u32,
            /// How long to hold the units.
            #[tool(unit = "seconds")]
            pub hold: Option<u32>,
            /// Which shelf to take the units from.
            pub shelf: Shelf,
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
            #[tool(unit = "seconds")]
            pub hold: Option<u32>,
            /// Which shelf to take the units from.
            pub shelf: Shelf,
            /// A note for the warehouse.
            pub note: Option<String>,
        }
    }
}

mod unit_added {
    use super::*;

    reserve_stock! {
        "2.0.0", Bumped {
            /// Stock keeping unit, e.g. "SKU-1042".
            pub sku: String,
            /// How many units to hold.
            #[tool(minimum = 1, unit = "boxes")]
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

mod unit_and_description_changed {
    use super::*;

    reserve_stock! {
        "2.0.0", Bumped {
            /// Stock keeping unit, e.g. "SKU-1042".
            pub sku: String,
            /// How many units to hold.
            #[tool(minimum = 1)]
            pub quantity: u32,
            /// How long the warehouse holds the units before it releases them.
            #[tool(unit = "seconds")]
            pub hold: Option<u32>,
            /// Which shelf to take the units from.
            pub shelf: Shelf,
            /// A note for the warehouse.
            pub note: Option<String>,
        }
    }
}

#[test]
fn adding_an_optional_field_is_minor() {
    assert_change(
        "optional_field_added",
        optional_field_added::Unbumped::contract(),
        optional_field_added::Bumped::contract(),
        "`reserve_stock` 1.0.0 changed without a version bump; it needs at least 1.1.0 (minor):\n  - field `gift_wrap` added as optional (minor)",
        "`reserve_stock` 1.0.0 -> 1.1.0 (minor bump needed):\n  - field `gift_wrap` added as optional (minor)",
    );
}

#[test]
fn adding_a_required_field_is_major() {
    assert_change(
        "required_field_added",
        required_field_added::Unbumped::contract(),
        required_field_added::Bumped::contract(),
        "`reserve_stock` 1.0.0 changed without a version bump; it needs at least 2.0.0 (major):\n  - field `warehouse` added as required (major)",
        "`reserve_stock` 1.0.0 -> 2.0.0 (major bump needed):\n  - field `warehouse` added as required (major)",
    );
}

#[test]
fn removing_a_field_is_major() {
    assert_change(
        "field_removed",
        field_removed::Unbumped::contract(),
        field_removed::Bumped::contract(),
        "`reserve_stock` 1.0.0 changed without a version bump; it needs at least 2.0.0 (major):\n  - field `note` removed (major)",
        "`reserve_stock` 1.0.0 -> 2.0.0 (major bump needed):\n  - field `note` removed (major)",
    );
}

#[test]
fn renaming_a_field_is_major() {
    assert_change(
        "field_renamed",
        field_renamed::Unbumped::contract(),
        field_renamed::Bumped::contract(),
        "`reserve_stock` 1.0.0 changed without a version bump; it needs at least 2.0.0 (major):\n  - field `sku` renamed to `item_sku` (major)",
        "`reserve_stock` 1.0.0 -> 2.0.0 (major bump needed):\n  - field `sku` renamed to `item_sku` (major)",
    );
}

#[test]
fn making_a_field_required_is_major() {
    assert_change(
        "made_required",
        made_required::Unbumped::contract(),
        made_required::Bumped::contract(),
        "`reserve_stock` 1.0.0 changed without a version bump; it needs at least 2.0.0 (major):\n  - field `note` made required (major)",
        "`reserve_stock` 1.0.0 -> 2.0.0 (major bump needed):\n  - field `note` made required (major)",
    );
}

#[test]
fn changing_a_type_is_major() {
    assert_change(
        "type_changed",
        type_changed::Unbumped::contract(),
        type_changed::Bumped::contract(),
        "`reserve_stock` 1.0.0 changed without a version bump; it needs at least 2.0.0 (major):\n  - type of field `quantity` changed from `integer` to `string` (major)",
        "`reserve_stock` 1.0.0 -> 2.0.0 (major bump needed):\n  - type of field `quantity` changed from `integer` to `string` (major)",
    );
}

#[test]
fn changing_a_unit_is_major() {
    assert_change(
        "unit_changed",
        unit_changed::Unbumped::contract(),
        unit_changed::Bumped::contract(),
        "`reserve_stock` 1.0.0 changed without a version bump; it needs at least 2.0.0 (major):\n  - unit of field `hold` changed from `minutes` to `seconds` (major)",
        "`reserve_stock` 1.0.0 -> 2.0.0 (major bump needed):\n  - unit of field `hold` changed from `minutes` to `seconds` (major)",
    );
}

/// The changes `contract` makes to the lock of `base::ReserveStock`.
fn changes(contract: &ToolContract) -> Vec<Change> {
    let lock = ContractLock::from_contracts(&[lock::base::ReserveStock::contract()]).unwrap();
    match lock.drift(&[contract]).unwrap().as_slice() {
        [LockDiff::Changed { changes, .. }] => changes.clone(),
        other => panic!("expected one changed tool, got {other:?}"),
    }
}

fn unit_change(message: &str) -> Change {
    Change {
        kind: ChangeKind::UnitChanged,
        bump: Bump::Major,
        message: message.to_owned(),
    }
}

#[test]
fn a_unit_change_is_one_typed_change() {
    // The description the model reads states the unit ("... Unit: seconds."),
    // yet the change is named once, from the typed units.
    assert_eq!(
        changes(unit_changed::Bumped::contract()),
        [unit_change(
            "unit of field `hold` changed from `minutes` to `seconds`"
        )]
    );
    assert_eq!(
        changes(unit_added::Bumped::contract()),
        [unit_change(
            "unit of field `quantity` changed from none to `boxes`"
        )]
    );
}

#[test]
fn a_unit_change_covers_the_description_that_states_it() {
    assert_eq!(
        changes(unit_and_description_changed::Bumped::contract()),
        [unit_change(
            "unit of field `hold` changed from `minutes` to `seconds`"
        )]
    );
}
