//! The contract rules on what a tool does beyond its arguments: a name
//! that hides the effect (`misleading_name`), a string the model fills
//! with a program (`free_form_command`), and an open-world write without
//! approval (`open_world_write`) or with a destination the runtime cannot
//! read (`untyped_destination`). Each can be waived with a reason.

use crate::ast::{Field, Input};
use crate::constraint::{Constraint, ConstraintAttr};
use crate::ctxt::Ctxt;
use crate::naming::{name_words, shown};
use crate::ty::{self, Kind};
use crate::verbs;
use crate::vocab::{Approval, Effect, Format, Rule};
use crate::waivers::{Waivers, waiver_hint};
use crate::words::words;
use tool_words::judge::{
    command_word, destination_name, free_form_command_message, untyped_destination_message,
};

// Rule: the name says what the effect is.
//   #[tool(effect = "write")] struct GetOrder        // a reading name
//   #[tool(effect = "write")] struct DeleteAddress   // destroys, not writes
pub fn check_misleading_name(cx: &Ctxt, input: &Input, waivers: &Waivers) {
    if input.attrs.effect.is_refused() || input.attrs.name.is_refused() {
        return;
    }
    let promises = verbs::promises(&words(&input.name));
    let Some(message) = promises.into_iter().find_map(|promise| {
        verbs::mismatch(
            &input.name,
            promise,
            input.effect(),
            input.attrs.effect.is_given(),
        )
    }) else {
        return;
    };
    if waivers.waived(Rule::MisleadingName, None) {
        return;
    }
    cx.error_spanned_by(
        &input.name_tokens,
        format!("{message}{}", waiver_hint(Rule::MisleadingName)),
    );
}

/// The constraints on the text the model writes in a field: its items'
/// for a list, else its own.
fn text_constraints<'f>(field: &'f Field) -> &'f [ConstraintAttr] {
    if ty::list_item(field.ty).is_some() {
        field.attrs.items.as_ref().map_or(&[], |(items, _)| items)
    } else {
        &field.attrs.constraints
    }
}

/// Whether a field holds text: `String`, `Option<String>`, `Vec<String>`.
fn is_text(field: &Field) -> bool {
    ty::kind(ty::peel(field.ty)) == Kind::Text
}

// Rule: a string is not a program the tool runs.
//   sql: String        /// A shell command to run.  command: String
pub fn check_free_form_commands(cx: &Ctxt, input: &Input, waivers: &Waivers) {
    for (index, field) in input.model_fields() {
        if !is_text(field) {
            continue;
        }
        let description = field.description().map(|(text, _)| text);
        let found = command_word(&name_words(field), description.as_deref());
        let Some((word, in_name)) = found else {
            continue;
        };
        let constraints = text_constraints(field);
        let has = |pick: fn(&Constraint) -> bool| constraints.iter().any(|c| pick(&c.constraint));
        let constrained = has(|c| matches!(c, Constraint::Pattern(_)))
            || (has(|c| matches!(c, Constraint::MaxLength(_)))
                && has(|c| matches!(c, Constraint::Format(_))));
        if constrained || waivers.waived(Rule::FreeFormCommand, Some(index)) {
            continue;
        }
        cx.error_spanned_by(
            field.ident,
            free_form_command_message(&shown(field), word, in_name),
        );
    }
}

/// The formats the runtime reads a destination in.
const DESTINATION_FORMATS: &[Format] = &[
    Format::Email,
    Format::Uri,
    Format::Hostname,
    Format::Ipv4,
    Format::Ipv6,
];

// Rule: an open-world write sends data out only with approval, and its
// destinations carry a format the recipient policy can read.
//   #[tool(effect = "write", open_world)] struct SendEmail { to: String }
pub fn check_open_world(cx: &Ctxt, input: &Input, waivers: &Waivers) {
    let attrs = &input.attrs;
    let Some((true, open_world)) = attrs.open_world.given() else {
        return;
    };
    if attrs.effect.is_refused() || input.effect() == Effect::Read {
        return;
    }
    if !attrs.approval.is_refused()
        && input.approval() != Approval::Required
        && !waivers.waived(Rule::OpenWorldWrite, None)
    {
        cx.error_spanned_by(
            open_world,
            format!(
                "tool `{}` is `open_world` and not `read`: it sends the application's data to a system the application does not control, so a person must see the arguments first; add `approval = \"required\"` (the approval request is the preview), or declare `effect = \"read\"` if it only reads{}",
                input.name,
                waiver_hint(Rule::OpenWorldWrite)
            ),
        );
    }
    for (index, field) in input.model_fields() {
        if !is_text(field) || !name_words(field).iter().any(|w| destination_name(w)) {
            continue;
        }
        let readable = text_constraints(field).iter().any(|c| match &c.constraint {
            Constraint::Format(format) => DESTINATION_FORMATS.contains(format),
            Constraint::Pattern(_) => true,
            _ => false,
        });
        if readable || waivers.waived(Rule::UntypedDestination, Some(index)) {
            continue;
        }
        cx.error_spanned_by(field.ident, untyped_destination_message(&shown(field)));
    }
}
