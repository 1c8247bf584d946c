//! What became of one `#[tool(...)]` key: absent, given or refused.

use quote::ToTokens;

use crate::ctxt::Ctxt;
use crate::symbol::Symbol;

/// One key of `#[tool(...)]` after parsing.
///
/// `Refused` means the key was written but its value was not accepted, and
/// the error is already reported: the rules that read the key stay quiet, so
/// one mistake gives one error.
#[derive(Clone, Debug, PartialEq)]
pub enum Slot<T> {
    /// Not written.
    Absent,
    /// Written, with this value.
    Given(T),
    /// Written, but refused (already reported).
    Refused,
}

impl<T> Slot<T> {
    /// The value, when the key was given and accepted.
    pub fn given(&self) -> Option<&T> {
        match self {
            Slot::Given(value) => Some(value),
            Slot::Absent | Slot::Refused => None,
        }
    }

    pub fn is_given(&self) -> bool {
        matches!(self, Slot::Given(_))
    }

    pub fn is_refused(&self) -> bool {
        matches!(self, Slot::Refused)
    }
}

/// Collects one key while its attributes are parsed.
pub struct Attr<'c, T> {
    cx: &'c Ctxt,
    name: Symbol,
    slot: Slot<T>,
}

impl<'c, T> Attr<'c, T> {
    pub fn none(cx: &'c Ctxt, name: Symbol) -> Self {
        Attr {
            cx,
            name,
            slot: Slot::Absent,
        }
    }

    /// Records the value read for the key at `obj`, or `None` when reading it
    /// failed (and was reported). A key given twice is refused: the two
    /// values may disagree, so the rules trust neither.
    pub fn set<A: ToTokens>(&mut self, obj: A, value: Option<T>) {
        self.slot = match (std::mem::replace(&mut self.slot, Slot::Refused), value) {
            (Slot::Absent, Some(value)) => Slot::Given(value),
            (Slot::Given(_), Some(_)) => {
                self.duplicate(obj);
                Slot::Refused
            }
            (Slot::Absent | Slot::Given(_) | Slot::Refused, None) | (Slot::Refused, Some(_)) => {
                Slot::Refused
            }
        };
    }

    /// Records a key that takes no value. Given twice, it says the same
    /// thing twice: the duplicate is reported and the key stays given.
    pub fn set_flag<A: ToTokens>(&mut self, obj: A, value: T) {
        if self.slot.is_given() {
            self.duplicate(obj);
        } else {
            self.slot = Slot::Given(value);
        }
    }

    /// The key after every attribute was read. When an attribute failed to
    /// parse (`failed`), the keys after the failure were never read: a key
    /// not seen may be among them, so it counts as refused.
    pub fn finish(self, failed: bool) -> Slot<T> {
        match self.slot {
            Slot::Absent if failed => Slot::Refused,
            slot => slot,
        }
    }

    fn duplicate<A: ToTokens>(&self, obj: A) {
        self.cx
            .error_spanned_by(obj, format!("duplicate tool attribute `{}`", self.name));
    }
}
