//! The contract rules that judge names: vague tool names, untyped amounts
//! and quantities, identities the model could choose, and boolean pairs.
//! Each can be waived on a field or the tool with a reason.

use crate::ast::{Field, Input};
use crate::ctxt::Ctxt;
use crate::slot::Slot;
use crate::ty::{self, Kind};
use crate::vocab::Rule;
use crate::waivers::{Waivers, waiver_hint};
use crate::words::{self, words};
use tool_words::judge::{
    AmountProblem, boolean_pair_message, model_identity_message, untyped_amount_message,
};
use tool_words::{MAX_NAME_CHARS as MAX_CHARS, NameProblem, name_problem};

// Rule: the name is a valid provider name, and a specific verb_object.
//   #[tool(name = "process")]   #[tool(name = "get weather")]
pub fn check_tool_name(cx: &Ctxt, input: &Input, waivers: &Waivers) {
    if input.attrs.name.is_refused() {
        return;
    }
    let name = &input.name;
    if let Some(problem) = name_problem(name) {
        let message = match problem {
            NameProblem::Empty => format!(
                "the tool name is empty; write a verb_object name such as `{}`",
                words::snake_case(&input.ident.to_string())
            ),
            NameProblem::TooLong(length) => format!(
                "tool name `{name}` is {length} characters long; providers accept at most {MAX_CHARS}, so shorten it"
            ),
            NameProblem::Characters(refused) => format!(
                "tool name `{name}` has characters providers refuse ({}); use ASCII letters, digits, `_` and `-`, e.g. `{}`",
                refused
                    .iter()
                    .map(|c| format!("{c:?}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                cleaned_name(name)
            ),
            NameProblem::Start(first) => format!(
                "tool name `{name}` starts with {first:?}; Gemini wants a letter or `_` first, so start with the verb, e.g. `{}`",
                started_name(name)
            ),
        };
        cx.error_spanned_by(&input.name_tokens, message);
        return;
    }
    if let Some(why) = words::vague_name(name)
        && !waivers.waived(Rule::VagueName, None)
    {
        cx.error_spanned_by(
            &input.name_tokens,
            format!("{why}{}", waiver_hint(Rule::VagueName)),
        );
    }
}

/// The name with the digits and `-` it starts with moved to its end
/// (`2fa_check` -> `fa_check_2`), or `_` put first when nothing is left.
fn started_name(name: &str) -> String {
    let rest = name.trim_start_matches(|c: char| c.is_ascii_digit() || c == '-');
    let lead: String = name[..name.len() - rest.len()]
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    let rest = rest.trim_matches('_');
    match (rest.is_empty(), lead.is_empty()) {
        (true, _) => format!("_{lead}"),
        (false, true) => rest.to_owned(),
        (false, false) => format!("{rest}_{lead}"),
    }
}

/// The name with every run of other characters turned into one `_`.
fn cleaned_name(name: &str) -> String {
    let mapped: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    mapped
        .split('_')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("_")
}

/// The words of the names a rule judges: the JSON name the model sees and,
/// when `rename` changed it, the Rust field name, so a rename cannot hide a
/// field from the rules.
pub fn name_words(field: &Field) -> Vec<Vec<String>> {
    let json = words(&field.name);
    let rust = words(&field.ident.to_string());
    if rust == json {
        vec![json]
    } else {
        vec![json, rust]
    }
}

/// How a message names a field: its JSON name, and its Rust name too when a
/// `rename` makes them differ.
pub fn shown(field: &Field) -> String {
    let rust = field.ident.to_string();
    let rust = rust.trim_start_matches("r#");
    let owner = field
        .owner
        .as_ref()
        .map(|o| format!("{o}."))
        .unwrap_or_default();
    if rust == field.name {
        format!("`{owner}{}`", field.name)
    } else {
        format!("`{owner}{rust}` (JSON name `{}`)", field.name)
    }
}

/// The currency companion of a minor-unit amount: a field named
/// `currency` or `<prefix>_currency` (see `tool_words::judge::currency_name`)
/// that holds a currency, not a flag (`show_currency: bool` is not one).
fn has_currency_field(input: &Input) -> bool {
    input.fields.iter().any(|f| {
        words::currency_name(&words(&f.name))
            && !matches!(
                ty::kind(ty::peel(f.ty)),
                Kind::Bool | Kind::Integer | Kind::Float
            )
    })
}

// Rule: money is `Money`, or integer minor units next to a currency.
//   refund_amount: f64        amount: String        price: i64 (cents? dollars?)
pub fn check_untyped_amounts(cx: &Ctxt, input: &Input, waivers: &Waivers) {
    for (index, field) in input.model_fields() {
        let Some(minor) = name_words(field).iter().find_map(|w| words::money_name(w)) else {
            continue;
        };
        let ty_text = ty::display(field.ty);
        let problem = match ty::value_kind(field.ty) {
            Kind::Float => AmountProblem::Float,
            Kind::Text => AmountProblem::Text,
            Kind::Integer if minor && has_currency_field(input) => continue,
            Kind::Integer if minor => AmountProblem::MinorWithoutCurrency,
            Kind::Integer => AmountProblem::BareInteger,
            Kind::Bool | Kind::Other => continue,
        };
        if waivers.waived(Rule::UntypedAmount, Some(index)) {
            continue;
        }
        cx.error_spanned_by(
            field.ty,
            untyped_amount_message(&shown(field), &ty_text, &field.name, problem),
        );
    }
}

// Rule: a number named for a duration states its unit.
//   timeout: u64        retry_delay: f32
pub fn check_untyped_quantities(cx: &Ctxt, input: &Input, waivers: &Waivers) {
    for (index, field) in input.model_fields() {
        if !matches!(field.attrs.unit, Slot::Absent) {
            continue;
        }
        // The JSON name is what the model reads: a unit there is enough.
        let names = name_words(field);
        let has_unit = names[0]
            .last()
            .is_some_and(|l| words::TIME_UNIT.contains(&l.as_str()));
        let is_duration = names.iter().any(|w| {
            w.iter()
                .any(|word| words::DURATION.contains(&word.as_str()))
                && !w
                    .last()
                    .is_some_and(|l| words::NOT_A_DURATION.contains(&l.as_str()))
        });
        let numeric = matches!(ty::value_kind(field.ty), Kind::Float | Kind::Integer);
        if !is_duration
            || has_unit
            || !numeric
            || waivers.waived(Rule::UntypedQuantity, Some(index))
        {
            continue;
        }
        let name = &field.name;
        cx.error_spanned_by(
            field.ident,
            format!(
                "{} is a duration without a unit: is 30 seconds or milliseconds? put the unit in the name (`{name}_ms`, `{name}_secs`) or add `#[tool(unit = \"milliseconds\")]`{}",
                shown(field),
                waiver_hint(Rule::UntypedQuantity)
            ),
        );
    }
}

fn is_identity(field: &Field, read: bool) -> bool {
    let by_name = name_words(field)
        .iter()
        .any(|w| words::identity_name_on(w, read));
    let by_type = ty::last_ident(ty::peel(field.ty))
        .is_some_and(|i| words::IDENTITY_TYPES.contains(&i.to_string().as_str()));
    by_name || by_type
}

// Rule: who is acting (user, tenant, role, permissions) comes from the
// session, never from the model. On a tool that only reads (`read`), a
// public handle (`username`) is what is looked up, not who acts; a nested
// type's tool is not known, so there it is judged as on a write.
//   user_id: String        role: Role        is_admin: bool
pub fn check_model_identity(cx: &Ctxt, input: &Input, waivers: &Waivers, read: bool) {
    for (index, field) in input.model_fields() {
        if !is_identity(field, read) || waivers.waived(Rule::ModelIdentity, Some(index)) {
            continue;
        }
        cx.error_spanned_by(
            field.ident,
            model_identity_message(&shown(field), field.owner.is_some()),
        );
    }
}

// Rule: one state is one field, not two booleans that can contradict.
//   show_details: bool, hide_details: bool
pub fn check_boolean_pairs(cx: &Ctxt, input: &Input, waivers: &Waivers) {
    let bools: Vec<(usize, &Field, Vec<Vec<String>>)> = input
        .model_fields()
        .filter(|(_, f)| ty::kind(ty::option_inner(f.ty).unwrap_or(f.ty)) == Kind::Bool)
        .map(|(i, f)| (i, f, name_words(f)))
        .collect();
    for (later, (index, field, names)) in bools.iter().enumerate() {
        for (other_index, other, other_names) in &bools[..later] {
            // Compare JSON with JSON and Rust with Rust names.
            let pair = names
                .iter()
                .zip(other_names.iter())
                .any(|(w, ow)| words::boolean_pair(ow, w));
            if !pair {
                continue;
            }
            if waivers.waived(Rule::BooleanPair, Some(*index))
                || waivers.waived(Rule::BooleanPair, Some(*other_index))
            {
                continue;
            }
            cx.error_spanned_by(
                field.ident,
                boolean_pair_message(&shown(other), &shown(field)),
            );
        }
    }
}
