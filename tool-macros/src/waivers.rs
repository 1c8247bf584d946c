//! `allow(rule = "reason")` on the struct (for the tool and every field) or
//! on one field, and whether a rule ever needed it.

use std::cell::Cell;

use crate::ast::Input;
use crate::ctxt::Ctxt;
use crate::nested::Allow;
use crate::ty::{self, Kind};
use crate::vocab::{Rule, Vocabulary};

pub struct Waivers<'i> {
    /// Per field, whether its type may be a nested type of the application:
    /// a waiver there may be for a rule the schema check judges in that
    /// type when the contract is checked (`ToolContract::check_rules`), so
    /// the derive cannot call it unused.
    nested: Vec<bool>,
    tool: Vec<(&'i Allow, Cell<bool>)>,
    fields: Vec<Vec<(&'i Allow, Cell<bool>)>>,
    /// An `allow(...)` that was refused (already reported) on the tool or a
    /// field: the waivable rules stay quiet there, so one mistake is one error.
    tool_refused: bool,
    fields_refused: Vec<bool>,
}

impl<'i> Waivers<'i> {
    pub fn new(input: &'i Input) -> Self {
        let mark = |allows: &'i [Allow]| allows.iter().map(|a| (a, Cell::new(false))).collect();
        Waivers {
            nested: input
                .fields
                .iter()
                .map(|f| !f.is_injected() && may_be_nested(f.ty))
                .collect(),
            tool: mark(input.attrs.allows()),
            fields: input
                .fields
                .iter()
                .map(|f| mark(f.attrs.allows()))
                .collect(),
            tool_refused: input.attrs.allows.is_refused(),
            fields_refused: input
                .fields
                .iter()
                .map(|f| f.attrs.allows.is_refused())
                .collect(),
        }
    }

    /// Whether `rule` is waived for the tool (`field` = None) or one field.
    pub fn waived(&self, rule: Rule, field: Option<usize>) -> bool {
        if self.tool_refused || field.is_some_and(|i| self.fields_refused[i]) {
            return true;
        }
        let on_field = field.into_iter().flat_map(|i| self.fields[i].iter());
        for (allow, used) in on_field.chain(self.tool.iter()) {
            if allow.rule == rule {
                used.set(true);
                return true;
            }
        }
        false
    }

    // Rule: a waiver that waives nothing is stale and must go.
    //   #[tool(allow(model_identity = "..."))] order_ref: String
    pub fn check_unused(&self, cx: &Ctxt) {
        // Where an `allow(...)` was refused, the rules were not run.
        let any_nested = self.nested.iter().any(|n| *n);
        let tool = self
            .tool
            .iter()
            .filter(|_| !self.tool_refused && !any_nested);
        let fields = self
            .fields
            .iter()
            .zip(&self.fields_refused)
            .zip(&self.nested)
            .filter(|((_, refused), nested)| !**refused && !**nested && !self.tool_refused)
            .flat_map(|((allows, _), _)| allows);
        for (allow, used) in tool.chain(fields) {
            if !used.get() {
                cx.error_spanned_by(
                    &allow.rule_tokens,
                    format!(
                        "`allow({})` waives nothing here: nothing breaks that rule; remove it",
                        allow.rule.spelling()
                    ),
                );
            }
        }
    }
}

/// Whether a field's type may hold a nested type whose properties the
/// contract check judges: anything but std scalars, text and `Money`.
fn may_be_nested(ty: &syn::Type) -> bool {
    let peeled = ty::peel(ty);
    ty::kind(peeled) == Kind::Other && !ty::is_money(peeled)
}

/// How a message about a waivable rule ends: how to waive it.
pub fn waiver_hint(rule: Rule) -> String {
    tool_words::judge::waiver_hint(rule.spelling())
}
