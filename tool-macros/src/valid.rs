//! The contract rules: every violation is recorded at its token, with what
//! to write instead. Rules that judge names (amounts, quantities, identity,
//! boolean pairs, vague names) can be waived with a reason.

use crate::ast::{Field, Input};
use crate::constraint::{Constraint, ConstraintAttr};
use crate::ctxt::Ctxt;
use crate::foreign;
use crate::inject;
use crate::naming;
use crate::outbound;
use crate::pattern;
use crate::ty::{self, Unsupported};
use crate::vocab::{Approval, Effect};
use crate::waivers::Waivers;
use crate::words;

pub fn check(cx: &Ctxt, input: &Input) {
    let waivers = Waivers::new(input);
    check_tool_description(cx, input);
    check_field_descriptions(cx, input);
    naming::check_tool_name(cx, input, &waivers);
    naming::check_untyped_amounts(cx, input, &waivers);
    naming::check_untyped_quantities(cx, input, &waivers);
    naming::check_model_identity(cx, input, &waivers, input.effect() == Effect::Read);
    naming::check_boolean_pairs(cx, input, &waivers);
    outbound::check_misleading_name(cx, input, &waivers);
    outbound::check_free_form_commands(cx, input, &waivers);
    outbound::check_open_world(cx, input, &waivers);
    check_policy(cx, input);
    check_field_types(cx, input);
    check_field_attrs(cx, input);
    check_json_names(cx, input);
    inject::check_injection(cx, input);
    check_items(cx, input);
    foreign::check(cx, input);
    waivers.check_unused(cx);
}

/// The field rules of `check` for the fields of a nested argument type
/// (`#[derive(ToolArgs)]`); the rules of the tool itself (name,
/// description, policy, injection) do not apply there.
pub fn check_nested(cx: &Ctxt, input: &Input, check_unused: bool) {
    let waivers = Waivers::new(input);
    check_field_descriptions(cx, input);
    naming::check_untyped_amounts(cx, input, &waivers);
    naming::check_untyped_quantities(cx, input, &waivers);
    naming::check_model_identity(cx, input, &waivers, false);
    naming::check_boolean_pairs(cx, input, &waivers);
    outbound::check_free_form_commands(cx, input, &waivers);
    check_field_types(cx, input);
    check_field_attrs(cx, input);
    check_json_names(cx, input);
    check_items(cx, input);
    foreign::check_nested(cx, input);
    if check_unused {
        waivers.check_unused(cx);
    }
}

// Rule: `items(...)` constrains the items of a list, on a field the model
// sends.
//   #[tool(items(format = "email"))] to: String
fn check_items(cx: &Ctxt, input: &Input) {
    for field in &input.fields {
        let Some((constraints, key)) = &field.attrs.items else {
            continue;
        };
        if field.is_injected() {
            cx.error_spanned_by(
                key,
                format!("`items(...)` checks what the model sends, but `{}` is injected from the session; remove it", field.name),
            );
            continue;
        }
        if ty::list_item(field.ty).is_none() {
            cx.error_spanned_by(
                key,
                format!(
                    "`items(...)` constrains each item of a list, but `{}` is `{}`; put the constraints on the field itself (`#[tool(format = ...)]`), or make it a `Vec<...>`",
                    field.name,
                    ty::display(field.ty)
                ),
            );
            continue;
        }
        check_bound_pairs(cx, constraints);
    }
}

// Rule: a tool has a description that says what it does.
//   #[derive(Tool)] struct GetWeather { .. }            // no doc comment
//   /// Get weather.  #[derive(Tool)] struct GetWeather  // only repeats the name
fn check_tool_description(cx: &Ctxt, input: &Input) {
    if input.attrs.description.is_refused() {
        return;
    }
    match input.description() {
        None => cx.error_spanned_by(
            input.ident,
            format!(
                "tool `{}` has no description; add a `///` doc comment that says what the tool does and when to use it (the model reads it to choose the tool), or `#[tool(description = \"...\")]`",
                input.name
            ),
        ),
        Some((text, tokens)) if text.is_empty() => cx.error_spanned_by(
            tokens,
            format!("the description of tool `{}` is empty; say what the tool does and when to use it", input.name),
        ),
        Some((text, tokens)) if words::repeats_name(&text, &input.name) => cx.error_spanned_by(
            tokens,
            format!(
                "the description of tool `{}` only repeats its name; say what the tool does, when to use it and what it returns",
                input.name
            ),
        ),
        Some(_) => {}
    }
}

// Rule: every field has a description that says what goes in it.
//   pub order_ref: String,           // no doc comment
//   /// Order ref.  pub order_ref     // only repeats the name
fn check_field_descriptions(cx: &Ctxt, input: &Input) {
    for field in input
        .fields
        .iter()
        .filter(|f| !f.attrs.description.is_refused())
    {
        let name = &field.name;
        match field.description() {
            None if field.is_injected() => cx.error_spanned_by(
                field.ident,
                format!("field `{name}` has no description; add a `///` doc comment that says what the session supplies here (it appears in the tool's docs)"),
            ),
            None => cx.error_spanned_by(
                field.ident,
                format!(
                    "field `{name}` has no description; add a `///` doc comment that tells the model what to put here (meaning, format, an example), or `#[tool(description = \"...\")]`"
                ),
            ),
            Some((text, tokens)) if text.is_empty() => cx.error_spanned_by(
                tokens,
                format!("the description of field `{name}` is empty; say what goes in it"),
            ),
            Some((text, tokens)) if words::repeats_name(&text, name) => cx.error_spanned_by(
                tokens,
                format!(
                    "the description of field `{name}` only repeats its name; say what goes in it: its meaning, format, where it comes from, an example"
                ),
            ),
            Some(_) => {}
        }
    }
}

// Rule: effects are safe to run: destructive needs approval, and a write
// states whether repeating it is safe.
//   #[tool(effect = "destructive")]          // no approval = "required"
//   #[tool(effect = "write")]                // no idempotent / idempotency_key
fn check_policy(cx: &Ctxt, input: &Input) {
    let attrs = &input.attrs;
    if attrs.effect.is_refused() {
        return;
    }
    let keyed: Vec<&Field> = input
        .fields
        .iter()
        .filter(|f| f.attrs.idempotency_key.is_given())
        .collect();
    for extra in keyed.iter().skip(1) {
        cx.error_spanned_by(
            extra.attrs.idempotency_key.given(),
            "only one field can be the `idempotency_key`; combine the parts into one key field",
        );
    }
    if let (Some((false, tokens)), Some(_)) = (attrs.idempotent.given(), keyed.first()) {
        cx.error_spanned_by(
            tokens,
            "`idempotent = false` contradicts the `#[tool(idempotency_key)]` field, which makes repeated calls safe; remove one of them",
        );
    }
    if input.effect() == Effect::Read
        && let Some(field) = keyed.first()
    {
        cx.error_spanned_by(
                field.attrs.idempotency_key.given(),
                "`idempotency_key` makes repeated calls of a write tool safe, but this tool only reads (`effect` is `read` by default); remove it, or declare `effect = \"write\"`",
            );
    }
    let Some((effect, lit)) = attrs.effect.given() else {
        return;
    };
    if *effect == Effect::Destructive
        && !attrs.approval.is_refused()
        && input.approval() != Approval::Required
    {
        cx.error_spanned_by(
            lit,
            "a destructive tool must require approval, so no model deletes or overwrites on its own; add `approval = \"required\"`",
        );
    }
    let idempotency_refused = attrs.idempotent.is_refused()
        || input
            .fields
            .iter()
            .any(|f| f.attrs.idempotency_key.is_refused());
    if *effect != Effect::Read
        && !attrs.idempotent.is_given()
        && keyed.is_empty()
        && !idempotency_refused
    {
        cx.error_spanned_by(
            lit,
            format!(
                "a `{}` tool must state whether a repeated call is safe, because models and networks retry: add `idempotent` (repeats change nothing more), `idempotent = false` (each call acts again), or mark the field that makes repeats safe with `#[tool(idempotency_key)]`",
                lit.value()
            ),
        );
    }
}

// Rule: argument types have a strict schema: no `Option<Option<T>>`, no
// maps, no `serde_json::Value`.
//   filters: HashMap<String, String>     extra: serde_json::Value
fn check_field_types(cx: &Ctxt, input: &Input) {
    for (_, field) in input.model_fields() {
        let Some(found) = ty::find_unsupported(field.ty) else {
            continue;
        };
        match found {
            Unsupported::DoubleOption(t) => cx.error_spanned_by(
                t,
                "`Option<Option<T>>` cannot be told apart in JSON: null and a missing key both mean `None` here; use `Option<T>`, or an enum if \"clear the value\" is a choice of its own",
            ),
            Unsupported::Map(t, name) => cx.error_spanned_by(
                t,
                format!(
                    "`{name}` is an open set of keys, which strict tool schemas cannot express; use a `Vec` of a struct with `key` and `value` fields, or a struct with the known keys"
                ),
            ),
            Unsupported::AnyValue(t) => cx.error_spanned_by(
                t,
                "`serde_json::Value` accepts any JSON, so the model gets no schema and the parser checks nothing; declare a struct or enum for what the field holds (if `Value` is your own type, write its path, e.g. `crate::Value`)",
            ),
        }
    }
}

// Rule: field attributes make sense together.
//   #[tool(inject, min_length = 1)]   #[tool(default)] x: Option<u8>
//   #[tool(min_length = 5, max_length = 2)]   #[tool(pattern = "(")]
fn check_field_attrs(cx: &Ctxt, input: &Input) {
    for field in &input.fields {
        let attrs = &field.attrs;
        if let Some((_, tokens)) = attrs.default.given() {
            if field.is_injected() {
                cx.error_spanned_by(
                    tokens,
                    "`default` does nothing on an injected field: its value always comes from the session; use `Option<T>` if the session may not hold it",
                );
            } else if ty::option_inner(field.ty).is_some() {
                cx.error_spanned_by(
                    tokens,
                    "`default` is redundant on `Option<T>`: null and a missing key already give `None`; remove it",
                );
            }
        }
        if field.is_injected() {
            for constraint in &attrs.constraints {
                cx.error_spanned_by(
                    &constraint.tokens,
                    format!(
                        "`{}` checks what the model sends, but `{}` is injected from the session; remove it",
                        constraint.constraint.key(),
                        field.name
                    ),
                );
            }
            continue;
        }
        check_bounds(cx, field);
        for constraint in &attrs.constraints {
            let Constraint::Pattern(lit) = &constraint.constraint else {
                continue;
            };
            if lit.value().is_empty() {
                cx.error_spanned_by(
                    lit,
                    "an empty `pattern` matches every string; remove it or write the pattern",
                );
            } else if let Some(why) = pattern::check(&lit.value()) {
                cx.error_spanned_by(
                    lit,
                    format!("`pattern` is not a valid regular expression: {why}"),
                );
            }
        }
    }
}

/// The ranges that a pair of constraints bounds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Range {
    Length,
    Items,
    Number,
}

/// The range a constraint bounds, whether from below, and the bound.
fn bounds(constraint: &Constraint) -> Option<(Range, bool, f64)> {
    match *constraint {
        Constraint::MinLength(n) => Some((Range::Length, true, n as f64)),
        Constraint::MaxLength(n) => Some((Range::Length, false, n as f64)),
        Constraint::MinItems(n) => Some((Range::Items, true, n as f64)),
        Constraint::MaxItems(n) => Some((Range::Items, false, n as f64)),
        Constraint::Minimum(n) => Some((Range::Number, true, n.as_f64())),
        Constraint::Maximum(n) => Some((Range::Number, false, n.as_f64())),
        Constraint::Pattern(_) | Constraint::Format(_) => None,
    }
}

/// `min_* <= max_*` for lengths, items and numbers.
fn check_bounds(cx: &Ctxt, field: &Field) {
    check_bound_pairs(cx, &field.attrs.constraints);
}

fn check_bound_pairs(cx: &Ctxt, constraints: &[ConstraintAttr]) {
    for range in [Range::Length, Range::Items, Range::Number] {
        let end = |from_below: bool| {
            constraints.iter().find_map(|c| {
                let (r, below, bound) = bounds(&c.constraint)?;
                (r == range && below == from_below).then_some((c, bound))
            })
        };
        let (Some((min, low)), Some((max, high))) = (end(true), end(false)) else {
            continue;
        };
        if low > high {
            cx.error_spanned_by(
                &max.tokens,
                format!(
                    "`{}` is less than `{}`, so no value can pass; swap or fix the bounds",
                    max.constraint, min.constraint
                ),
            );
        }
    }
}

fn portable_name(name: &str) -> String {
    let mapped: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let joined = mapped
        .split('_')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("_");
    let cut: String = joined.chars().take(64).collect();
    if cut.is_empty() {
        "value".to_owned()
    } else {
        cut
    }
}

// Rule: JSON property names are unique.
//   a: u8, #[tool(rename = "a")] b: u8
fn check_json_names(cx: &Ctxt, input: &Input) {
    for (_, field) in input.model_fields() {
        let name = &field.name;
        let portable = !name.is_empty()
            && name.len() <= 64
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
        if !portable {
            let at = field.name_tokens();
            cx.error_spanned_by(
                at,
                format!(
                    "JSON property name `{name}` is refused by some providers, which accept 1 to 64 ASCII letters, digits, `_`, `.` and `-`; give the field a `rename` such as `{}`",
                    portable_name(name)
                ),
            );
        }
    }
    for (i, field) in input.fields.iter().enumerate() {
        if let Some(first) = input.fields[..i].iter().find(|f| f.name == field.name) {
            let at = field.name_tokens();
            cx.error_spanned_by(
                at,
                format!(
                    "field `{}` has the JSON name `{}` that field `{}` already has; give it another `rename`",
                    field.ident, field.name, first.ident
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::{DeriveInput, parse_quote};

    fn errors(input: DeriveInput) -> Vec<String> {
        let cx = Ctxt::new();
        if let Some(parsed) = Input::from_syn(&cx, &input) {
            check(&cx, &parsed);
        }
        match cx.check() {
            Ok(()) => Vec::new(),
            Err(e) => e.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn a_legal_tool_passes() {
        let input: DeriveInput = parse_quote! {
            /// Reserve stock for an order line until checkout completes.
            #[tool(effect = "write", idempotent, approval = "required")]
            struct ReserveInventory {
                /// Stock keeping unit, e.g. "SKU-1".
                #[tool(min_length = 1, max_length = 64)]
                sku: String,
                /// How many units to hold.
                #[tool(minimum = 1, maximum = 100)]
                quantity: u32,
                /// How long to hold the stock.
                hold_secs: Option<u32>,
                /// The signed-in user.
                #[tool(inject)]
                user_id: UserId,
            }
        };
        assert_eq!(errors(input), Vec::<String>::new());
    }

    #[test]
    fn all_rule_violations_are_collected() {
        let input: DeriveInput = parse_quote! {
            /// Adjusts a balance on the ledger.
            #[tool(effect = "destructive", name = "adjust")]
            struct Adjust {
                /// How much to move, e.g. 12.5.
                amount: f64,
                /// How long to wait first.
                delay: u64,
                /// Whose ledger.
                tenant_id: String,
                /// Whether to notify.
                notify: bool,
                /// Whether to stay quiet.
                no_notify: bool,
            }
        };
        let found = errors(input);
        assert_eq!(found.len(), 7, "{found:#?}");
        assert!(found[0].starts_with("tool name `adjust` is one word"));
        assert!(found[1].starts_with("`amount` is an amount of money typed `f64`"));
        assert!(found[2].starts_with("`delay` is a duration without a unit"));
        assert!(found[3].starts_with("`tenant_id` identifies who is acting"));
        assert!(found[4].starts_with("`notify` and `no_notify` are two booleans for one state"));
        assert!(found[5].starts_with("a destructive tool must require approval"));
        assert!(
            found[6].starts_with("a `destructive` tool must state whether a repeated call is safe")
        );
    }

    #[test]
    fn waivers_need_a_use() {
        let input: DeriveInput = parse_quote! {
            /// Look up any customer's open tickets for a support agent.
            #[tool(allow(vague_name = "kept for compatibility"))]
            struct ListTickets {
                /// The customer whose tickets to list.
                #[tool(allow(model_identity = "support agents look up any customer by id"))]
                customer_id: String,
            }
        };
        assert_eq!(
            errors(input),
            vec!["`allow(vague_name)` waives nothing here: nothing breaks that rule; remove it"]
        );
    }

    #[test]
    fn minor_units_need_a_currency() {
        let input: DeriveInput = parse_quote! {
            /// Quote a shipping price for a parcel.
            struct QuoteShipping {
                /// Declared value in cents.
                declared_value_minor: i64,
                /// The quoted price in cents.
                price_cents: i64,
            }
        };
        let found = errors(input);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(found[0].starts_with(
            "`price_cents` counts minor units but the struct has no `currency` field"
        ));
    }

    #[test]
    fn a_refused_key_keeps_the_rules_that_read_it_quiet() {
        let input: DeriveInput = parse_quote! {
            /// Delete one saved address of the signed-in customer.
            #[tool(effect = "destructive", approval = "always", idempotent)]
            struct DeleteAddress {
                /// The address to delete, as listed by `list_addresses`.
                address_ref: String,
            }
        };
        // No "a destructive tool must require approval" on top.
        assert_eq!(
            errors(input),
            vec![
                "unknown approval `always`; write `approval = \"required\"` or `approval = \"none\"`"
            ]
        );
    }

    #[test]
    fn a_misspelled_waiver_is_refused_with_the_rule_it_resembles() {
        let input: DeriveInput = parse_quote! {
            /// List the open tickets of one customer for a support agent.
            struct ListTickets {
                /// The customer whose tickets to list.
                #[tool(allow(model_identiy = "support agents look up any customer by id"))]
                customer_id: String,
            }
        };
        // The identity rule stays quiet on the field: one mistake, one error.
        assert_eq!(
            errors(input),
            vec![
                "unknown rule `model_identiy` in `allow` (did you mean `model_identity`?); the rules that can be waived are `untyped_amount`, `untyped_quantity`, `model_identity`, `boolean_pair`, `vague_name`, `misleading_name`, `free_form_command`, `open_world_write`, `untyped_destination`"
            ]
        );
    }
}
