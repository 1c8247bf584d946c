//! The contract rules: every violation is recorded at its token, with what
//! to write instead. Rules that judge names (amounts, quantities, identity,
//! boolean pairs, vague names) can be waived with a reason.

use std::cell::Cell;

use crate::ast::{Field, Input};
use crate::attr::{Allow, Approval, ConstraintKind, ConstraintValue, Effect, Number};
use crate::ctxt::Ctxt;
use crate::naming;
use crate::pattern;
use crate::symbol::{ALLOW, APPROVAL, DESCRIPTION, EFFECT, IDEMPOTENCY_KEY, IDEMPOTENT};
use crate::ty::{self, Unsupported};
use crate::words;

/// The formats `#[tool(format = "...")]` accepts; the runtime enforces each.
pub const FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
    "uri",
];

pub fn check(cx: &Ctxt, input: &Input) {
    let waivers = Waivers::new(input);
    check_tool_description(cx, input);
    check_field_descriptions(cx, input);
    naming::check_tool_name(cx, input, &waivers);
    naming::check_untyped_amounts(cx, input, &waivers);
    naming::check_untyped_quantities(cx, input, &waivers);
    naming::check_model_identity(cx, input, &waivers);
    naming::check_boolean_pairs(cx, input, &waivers);
    check_policy(cx, input);
    check_field_types(cx, input);
    check_field_attrs(cx, input);
    check_json_names(cx, input);
    waivers.check_unused(cx);
}

/// `allow(rule = "reason")` on the struct (for the tool and every field) or
/// on one field, and whether a rule ever needed it.
pub(crate) struct Waivers<'i> {
    tool: Vec<(&'i Allow, Cell<bool>)>,
    fields: Vec<Vec<(&'i Allow, Cell<bool>)>>,
    /// An `allow(...)` with an error (already reported) on the tool or a
    /// field: the waivable rules stay quiet there, so one mistake is one error.
    tool_invalid: bool,
    fields_invalid: Vec<bool>,
}

impl<'i> Waivers<'i> {
    fn new(input: &'i Input) -> Self {
        let mark = |allows: &'i [Allow]| allows.iter().map(|a| (a, Cell::new(false))).collect();
        Waivers {
            tool: mark(&input.attrs.allows),
            fields: input.fields.iter().map(|f| mark(&f.attrs.allows)).collect(),
            tool_invalid: input.attrs.is_invalid(ALLOW),
            fields_invalid: input
                .fields
                .iter()
                .map(|f| f.attrs.is_invalid(ALLOW))
                .collect(),
        }
    }

    /// Whether `rule` is waived for the tool (`field` = None) or one field.
    pub(crate) fn waived(&self, rule: &str, field: Option<usize>) -> bool {
        if self.tool_invalid || field.is_some_and(|i| self.fields_invalid[i]) {
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
    fn check_unused(&self, cx: &Ctxt) {
        // Where an `allow(...)` already has an error, the rules were not run.
        let tool = self.tool.iter().filter(|_| !self.tool_invalid);
        let fields = self
            .fields
            .iter()
            .zip(&self.fields_invalid)
            .filter(|(_, invalid)| !**invalid && !self.tool_invalid)
            .flat_map(|(allows, _)| allows);
        for (allow, used) in tool.chain(fields) {
            if !used.get() {
                cx.error_spanned_by(
                    &allow.rule_tokens,
                    format!(
                        "`allow({})` waives nothing here: nothing breaks that rule; remove it",
                        allow.rule
                    ),
                );
            }
        }
    }
}

// Rule: a tool has a description that says what it does.
//   #[derive(Tool)] struct GetWeather { .. }            // no doc comment
//   /// Get weather.  #[derive(Tool)] struct GetWeather  // only repeats the name
fn check_tool_description(cx: &Ctxt, input: &Input) {
    if input.attrs.is_invalid(DESCRIPTION) {
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
        .filter(|f| !f.attrs.is_invalid(DESCRIPTION))
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
    if attrs.is_invalid(EFFECT) {
        return;
    }
    let keyed: Vec<&Field> = input
        .fields
        .iter()
        .filter(|f| f.attrs.idempotency_key.is_some())
        .collect();
    for extra in keyed.iter().skip(1) {
        cx.error_spanned_by(
            extra.attrs.idempotency_key.as_ref(),
            "only one field can be the `idempotency_key`; combine the parts into one key field",
        );
    }
    if let (Some((false, tokens)), Some(_)) = (&attrs.idempotent, keyed.first()) {
        cx.error_spanned_by(
            tokens,
            "`idempotent = false` contradicts the `#[tool(idempotency_key)]` field, which makes repeated calls safe; remove one of them",
        );
    }
    let effect = attrs.effect.as_ref().map_or(Effect::Read, |(e, _)| *e);
    if effect == Effect::Read
        && let Some(field) = keyed.first()
    {
        cx.error_spanned_by(
                field.attrs.idempotency_key.as_ref(),
                "`idempotency_key` makes repeated calls of a write tool safe, but this tool only reads (`effect` is `read` by default); remove it, or declare `effect = \"write\"`",
            );
    }
    let Some((effect, lit)) = &attrs.effect else {
        return;
    };
    if *effect == Effect::Destructive
        && !attrs.is_invalid(APPROVAL)
        && !matches!(attrs.approval, Some((Approval::Required, _)))
    {
        cx.error_spanned_by(
            lit,
            "a destructive tool must require approval, so no model deletes or overwrites on its own; add `approval = \"required\"`",
        );
    }
    let idempotency_invalid = attrs.is_invalid(IDEMPOTENT)
        || input
            .fields
            .iter()
            .any(|f| f.attrs.is_invalid(IDEMPOTENCY_KEY));
    if *effect != Effect::Read
        && attrs.idempotent.is_none()
        && keyed.is_empty()
        && !idempotency_invalid
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
//   #[tool(min_length = 5, max_length = 2)]   #[tool(format = "url")]
fn check_field_attrs(cx: &Ctxt, input: &Input) {
    for field in &input.fields {
        let attrs = &field.attrs;
        if let Some((_, tokens)) = &attrs.default {
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
                        constraint.kind.key(),
                        field.name
                    ),
                );
            }
            continue;
        }
        check_bounds(cx, field);
        for constraint in &attrs.constraints {
            match (&constraint.kind, &constraint.value) {
                (ConstraintKind::Format, ConstraintValue::Text(lit))
                    if !FORMATS.contains(&lit.value().as_str()) =>
                {
                    cx.error_spanned_by(
                        lit,
                        format!(
                            "unknown format `{}`; write one of {}",
                            lit.value(),
                            FORMATS
                                .iter()
                                .map(|f| format!("`{f}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    );
                }
                (ConstraintKind::Pattern, ConstraintValue::Text(lit)) if lit.value().is_empty() => {
                    cx.error_spanned_by(
                        lit,
                        "an empty `pattern` matches every string; remove it or write the pattern",
                    );
                }
                (ConstraintKind::Pattern, ConstraintValue::Text(lit)) => {
                    if let Some(why) = pattern::check(&lit.value()) {
                        cx.error_spanned_by(
                            lit,
                            format!("`pattern` is not a valid regular expression: {why}"),
                        );
                    }
                }
                _ => {}
            }
        }
    }
}

/// `min_* <= max_*` for lengths, items and numbers.
fn check_bounds(cx: &Ctxt, field: &Field) {
    let find = |kind: ConstraintKind| field.attrs.constraints.iter().find(|c| c.kind == kind);
    let pairs = [
        (ConstraintKind::MinLength, ConstraintKind::MaxLength),
        (ConstraintKind::MinItems, ConstraintKind::MaxItems),
        (ConstraintKind::Minimum, ConstraintKind::Maximum),
    ];
    for (low, high) in pairs {
        let (Some(min), Some(max)) = (find(low), find(high)) else {
            continue;
        };
        let as_f64 = |v: &ConstraintValue| match v {
            ConstraintValue::Count(n) => Some(*n as f64),
            ConstraintValue::Number(n) => Some(n.as_f64()),
            ConstraintValue::Text(_) => None,
        };
        if let (Some(a), Some(b)) = (as_f64(&min.value), as_f64(&max.value))
            && a > b
        {
            cx.error_spanned_by(
                    &max.tokens,
                    format!(
                        "`{} = {}` is less than `{} = {}`, so no value can pass; swap or fix the bounds",
                        high.key(),
                        show(&max.value),
                        low.key(),
                        show(&min.value)
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

fn show(value: &ConstraintValue) -> String {
    match value {
        ConstraintValue::Count(n) => n.to_string(),
        ConstraintValue::Number(Number::Int(n)) => n.to_string(),
        ConstraintValue::Number(Number::UInt(n)) => n.to_string(),
        ConstraintValue::Number(Number::Float(n)) => n.to_string(),
        ConstraintValue::Text(lit) => lit.value(),
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
}
