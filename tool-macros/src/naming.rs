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
fn name_words(field: &Field) -> Vec<Vec<String>> {
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
fn shown(field: &Field) -> String {
    let rust = field.ident.to_string();
    let rust = rust.trim_start_matches("r#");
    if rust == field.name {
        format!("`{}`", field.name)
    } else {
        format!("`{rust}` (JSON name `{}`)", field.name)
    }
}

/// The money word a field name ends with, and whether it says minor units
/// (`refund_minor`, `price_cents`).
fn money_name(words: &[String]) -> Option<bool> {
    let mut end = words.len();
    let mut minor = false;
    while end > 0 {
        let w = words[end - 1].as_str();
        if words::MINOR_UNIT.contains(&w) {
            minor = true;
        } else if !words::CURRENCY_SUFFIX.contains(&w) {
            break;
        }
        end -= 1;
    }
    let head = words[..end].last()?;
    words::MONEY.contains(&head.as_str()).then_some(minor)
}

fn has_currency_field(input: &Input) -> bool {
    input.fields.iter().any(|f| {
        let w = words(&f.name);
        w.last().is_some_and(|last| last == "currency")
    })
}

// Rule: money is `Money`, or integer minor units next to a currency.
//   refund_amount: f64        amount: String        price: i64 (cents? dollars?)
pub fn check_untyped_amounts(cx: &Ctxt, input: &Input, waivers: &Waivers) {
    for (index, field) in input.model_fields() {
        let Some(minor) = name_words(field).iter().find_map(|w| money_name(w)) else {
            continue;
        };
        let ty_text = ty::display(field.ty);
        let name = &field.name;
        let who = shown(field);
        let problem = match ty::kind(ty::peel(field.ty)) {
            Kind::Float => format!(
                "{who} is an amount of money typed `{ty_text}`: a float cannot hold cents exactly and says nothing of the currency"
            ),
            Kind::Text => format!(
                "{who} is an amount of money typed `{ty_text}`: the model can write any text (\"$12\", \"12,50\") and the currency is unstated"
            ),
            Kind::Integer if minor && has_currency_field(input) => continue,
            Kind::Integer if minor => format!(
                "{who} counts minor units but the struct has no `currency` field, so the currency is unstated"
            ),
            Kind::Integer => format!(
                "{who} is an amount of money typed as a bare `{ty_text}`: it states neither the unit (cents or whole units?) nor the currency"
            ),
            Kind::Bool | Kind::Other => continue,
        };
        if waivers.waived(Rule::UntypedAmount, Some(index)) {
            continue;
        }
        cx.error_spanned_by(
            field.ty,
            format!(
                "{problem}; use `Money` (integer minor units + ISO 4217 currency), or an integer `{}_minor` field next to a `currency` field{}",
                base_name(name),
                waiver_hint(Rule::UntypedAmount)
            ),
        );
    }
}

fn base_name(name: &str) -> String {
    let mut w = words(name);
    while w
        .last()
        .is_some_and(|l| words::MINOR_UNIT.contains(&l.as_str()))
    {
        w.pop();
    }
    w.join("_")
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
        let numeric = matches!(ty::kind(ty::peel(field.ty)), Kind::Float | Kind::Integer);
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

const IDENTITY_OWNERS: &[&str] = &[
    "user",
    "tenant",
    "account",
    "customer",
    "org",
    "organization",
    "organisation",
    "workspace",
    "owner",
    "caller",
    "principal",
    "actor",
    "requester",
    "subject",
];

fn is_identity(field: &Field) -> bool {
    let by_name = name_words(field).iter().any(|w| identity_name(w));
    let by_type = ty::last_ident(ty::peel(field.ty))
        .is_some_and(|i| words::IDENTITY_TYPES.contains(&i.to_string().as_str()));
    by_name || by_type
}

fn identity_name(w: &[String]) -> bool {
    let joined = w.join("_");
    words::IDENTITY_NAMES.contains(&joined.as_str())
        || matches!(w, [.., owner, id] if id == "id" && IDENTITY_OWNERS.contains(&owner.as_str()))
        || w.last().is_some_and(|l| {
            matches!(
                l.as_str(),
                "role" | "roles" | "permissions" | "scopes" | "privileges"
            )
        })
        || joined.starts_with("is_admin")
}

// Rule: who is acting (user, tenant, role, permissions) comes from the
// session, never from the model.
//   user_id: String        role: Role        is_admin: bool
pub fn check_model_identity(cx: &Ctxt, input: &Input, waivers: &Waivers) {
    for (index, field) in input.model_fields() {
        if !is_identity(field) || waivers.waived(Rule::ModelIdentity, Some(index)) {
            continue;
        }
        cx.error_spanned_by(
            field.ident,
            format!(
                "{} identifies who is acting or what they may do, so the model must not choose it (a prompt injection could set it); mark it `#[tool(inject)]` to take it from the trusted `Session`{}",
                shown(field),
                waiver_hint(Rule::ModelIdentity)
            ),
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
                format!(
                    "{} and {} are two booleans for one state: they can contradict each other and double the cases; use one enum field with a variant per state{}",
                    shown(other),
                    shown(field),
                    waiver_hint(Rule::BooleanPair)
                ),
            );
        }
    }
}
