//! Markdown for one tool: the page a new colleague can use the tool from.

use std::fmt::Write as _;

use serde_json::Value;
use tool_words::{code, followed_by};

use super::describe::{enum_values, model_type, schema_words, split_null, value_text};
use crate::contract::{
    Approval, DataClass, Effect, FieldContract, Idempotency, Presence, ToolContract,
};

impl ToolContract {
    /// The tool's documentation as a Markdown page: name, version and
    /// description; for a deprecated version its sunset and note; effect, idempotency, approval, timeout, data class and
    /// whether it reaches the open world; a table of the inputs (type as the
    /// model sees it, whether it is required, constraints, description) and
    /// of the values the session injects instead; the example arguments,
    /// each a JSON block, when it declares some; the output schema; the
    /// declared error codes; and the waived rules with their reasons.
    ///
    /// The page starts with a level-1 heading (`# name`); a
    /// [`Catalog`](crate::words::Catalog) puts pages one level lower.
    pub fn to_markdown(&self) -> String {
        render(self, 1)
    }
}

/// Renders `contract` with its title at heading `level` (1 to 5).
pub(crate) fn render(contract: &ToolContract, level: usize) -> String {
    let mut out = String::new();
    let h = "#".repeat(level);
    let sub = "#".repeat(level + 1);
    let _ = writeln!(out, "{h} {}\n", contract.name());
    let _ = writeln!(out, "{}\n", contract.description().trim());
    render_policy(contract, &mut out);
    let _ = writeln!(out, "\n{sub} Inputs\n");
    render_inputs(contract, &mut out);
    render_input_types(contract, level + 2, &mut out);
    let examples = contract.example_values();
    if !examples.is_empty() {
        let _ = writeln!(out, "\n{sub} Examples\n");
        for example in &examples {
            let text = serde_json::to_string_pretty(example).unwrap_or_default();
            let _ = writeln!(out, "```json\n{text}\n```");
        }
    }
    let _ = writeln!(out, "\n{sub} Output\n");
    render_output(contract, &mut out);
    let _ = writeln!(out, "\n{sub} Errors\n");
    render_errors(contract, &mut out);
    if !contract.waivers().is_empty() {
        let _ = writeln!(out, "\n{sub} Waived rules\n");
        render_waivers(contract, &mut out);
    }
    out
}

fn render_policy(contract: &ToolContract, out: &mut String) {
    let effect = match contract.effect() {
        Effect::Read => "`read`: reads only; nothing changes",
        Effect::Write => "`write`: changes state in a way that can be undone or is expected",
        Effect::Destructive => {
            "`destructive`: deletes or changes state in a way that cannot be undone"
        }
    };
    let idempotency = match contract.idempotency() {
        Idempotency::Unspecified => "not stated".to_owned(),
        Idempotency::Idempotent => {
            "idempotent: a repeated call with the same arguments has no further effect".to_owned()
        }
        Idempotency::NotIdempotent => {
            "not idempotent: each call has its own effect, so do not repeat a call that may have succeeded"
                .to_owned()
        }
        Idempotency::Keyed { field } => format!(
            "keyed by {}: calls with the same {} are one operation, so a retry repeats the key",
            code(field),
            code(field)
        ),
    };
    let approval = match contract.approval() {
        Approval::None => "not required",
        Approval::Required => {
            "required: each call runs only after an approval bound to this tool, version and arguments"
        }
    };
    let timeout = match contract.timeout_ms() {
        Some(ms) => format!("{ms} ms"),
        None => "the runtime's default".to_owned(),
    };
    let data_class = match contract.data_class() {
        DataClass::Public => "`public`: anyone may see it",
        DataClass::Internal => "`internal`: anyone in the organisation may see it",
        DataClass::Confidential => "`confidential`: only those who need it may see it",
        DataClass::Restricted => "`restricted`: regulated or secret data",
    };
    let open_world = if contract.open_world() {
        "yes: it reaches systems outside the application's control"
    } else {
        "no"
    };
    let _ = writeln!(out, "- **Version:** {}", contract.version());
    if let Some(deprecation) = contract.deprecation() {
        let _ = writeln!(
            out,
            "- **Deprecated:** this version stops working on {} (UTC); calls from then on are refused. {}",
            deprecation.sunset(),
            deprecation.note().trim()
        );
    }
    let _ = writeln!(out, "- **Effect:** {effect}");
    let _ = writeln!(out, "- **Idempotency:** {idempotency}");
    let _ = writeln!(out, "- **Approval:** {approval}");
    let _ = writeln!(out, "- **Timeout:** {timeout}");
    let _ = writeln!(out, "- **Data class:** {data_class}");
    let _ = writeln!(out, "- **Open world:** {open_world}");
    let _ = writeln!(out, "- **Rust type:** {}", code(contract.rust_name()));
}

fn render_inputs(contract: &ToolContract, out: &mut String) {
    let schema = contract.input_schema();
    let properties = schema.get("properties");
    let model: Vec<&FieldContract> = contract.model_fields().collect();
    if model.is_empty() {
        let _ = writeln!(out, "The model sends no arguments (`{{}}`).");
    } else {
        let _ = writeln!(
            out,
            "| name | type | presence | constraints | description |"
        );
        let _ = writeln!(out, "| --- | --- | --- | --- | --- |");
        for field in model {
            let property = properties
                .and_then(|p| p.get(field.name()))
                .unwrap_or(&Value::Null);
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                cell(&code(field.name())),
                cell(&model_type(property, schema)),
                presence(field.presence()),
                cell(&field_constraints(field, property)),
                cell(&field_description(field, property, schema)),
            );
        }
    }
    let injected: Vec<&FieldContract> = contract.fields().iter().filter(|f| f.injected()).collect();
    if !injected.is_empty() {
        let _ = writeln!(
            out,
            "\nThe application injects these from the session; the model never sends them:\n"
        );
        let _ = writeln!(out, "| name | Rust type | description |");
        let _ = writeln!(out, "| --- | --- | --- |");
        for field in injected {
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                cell(&code(field.name())),
                cell(&code(field.rust_type())),
                cell(field.description().trim()),
            );
        }
    }
}

/// The object types the inputs use (from the input schema's `$defs`), each
/// with a table of its fields; enums are listed where they are used.
fn render_input_types(contract: &ToolContract, level: usize, out: &mut String) {
    let root = contract.input_schema();
    let Some(defs) = root.get("$defs").and_then(Value::as_object) else {
        return;
    };
    let h = "#".repeat(level);
    for (name, schema) in defs {
        let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
            continue;
        };
        if enum_values(schema, root).is_some() {
            continue;
        }
        let _ = writeln!(out, "\n{h} {name}\n");
        if let Some(description) = schema.get("description").and_then(Value::as_str) {
            let _ = writeln!(out, "{}\n", description.trim());
        }
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "| name | type | presence | constraints | description |"
        );
        let _ = writeln!(out, "| --- | --- | --- | --- | --- |");
        for (field, property) in properties {
            let (nullable, core) = split_null(property);
            let presence = match (required.contains(&field.as_str()), nullable) {
                (true, false) => "required",
                (true, true) => "required (nullable)",
                (false, true) => "optional (nullable)",
                (false, false) => "optional",
            };
            let description = property
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "| {} | {} | {presence} | {} | {} |",
                cell(&code(field)),
                cell(&model_type(property, root)),
                cell(&schema_words(property).text()),
                cell(&with_value_descriptions(description, &core, root)),
            );
        }
    }
}

fn presence(presence: Presence) -> &'static str {
    match presence {
        Presence::Required => "required",
        Presence::Optional => "optional (nullable)",
        Presence::Defaulted => "optional (has default)",
    }
}

/// What the field's type says (a `u32` is a whole number), then the
/// field's own unit and constraints over it, then whether it is the key.
fn field_constraints(field: &FieldContract, property: &Value) -> String {
    let mut words = schema_words(property);
    words.field(field.unit(), field.constraints());
    let text = words.text();
    if field.idempotency_key() {
        followed_by(&text, "Idempotency key.")
    } else {
        text
    }
}

/// The field's own description, then one line per enum value that has one.
fn field_description(field: &FieldContract, property: &Value, root: &Value) -> String {
    let (_, core) = split_null(property);
    with_value_descriptions(field.description(), &core, root)
}

/// `description`, then one line per value of the enum `schema` that has a
/// description of its own.
fn with_value_descriptions(description: &str, schema: &Value, root: &Value) -> String {
    let mut text = description.trim().to_owned();
    if let Some(values) = enum_values(schema, root) {
        for value in values {
            if let Some(description) = value.description {
                let _ = write!(
                    text,
                    "\n{}: {}",
                    code(&value_text(&value.value)),
                    description.trim()
                );
            }
        }
    }
    text
}

fn render_output(contract: &ToolContract, out: &mut String) {
    let output = contract.output();
    if output.declared() {
        let _ = writeln!(out, "Returns {}:\n", code(output.rust_type()));
    } else {
        let _ = writeln!(out, "Returns plain text (no `output = ...` is declared):\n");
    }
    let schema = serde_json::to_string_pretty(contract.output_schema())
        .unwrap_or_else(|_| contract.output_schema().to_string());
    let _ = writeln!(out, "```json\n{schema}\n```");
}

fn render_errors(contract: &ToolContract, out: &mut String) {
    if contract.errors().is_empty() {
        let _ = writeln!(out, "No error codes are declared.\n");
    } else {
        let _ = writeln!(out, "| code | meaning | category | recovery |");
        let _ = writeln!(out, "| --- | --- | --- | --- |");
        for error in contract.errors() {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                cell(&code(error.code())),
                cell(error.meaning().trim()),
                error
                    .category()
                    .map_or("—".to_owned(), |c| code(c.as_str())),
                error
                    .recovery()
                    .map_or("—".to_owned(), |r| code(r.as_str())),
            );
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "Any call may also end with `INVALID_ARGUMENTS` when the arguments do not match the inputs above; the message names the field and what was expected."
    );
}

fn render_waivers(contract: &ToolContract, out: &mut String) {
    let _ = writeln!(out, "| rule | applies to | reason |");
    let _ = writeln!(out, "| --- | --- | --- |");
    for waiver in contract.waivers() {
        let applies_to = match waiver.field() {
            Some(field) => format!("field {}", code(field)),
            None => "the whole tool".to_owned(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            code(waiver.rule().as_str()),
            cell(&applies_to),
            cell(waiver.reason().trim()),
        );
    }
}

/// `text` made safe for one cell of a Markdown table: `|` escaped (also
/// inside code spans, as GitHub requires), line breaks as `<br>`.
pub fn cell(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '\n' => out.push_str("<br>"),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_escape_pipes_and_line_breaks() {
        assert_eq!(cell("a | b\nc\r\nd"), "a \\| b<br>c<br>d");
        assert_eq!(cell(&code("^(a|b)$")), "`^(a\\|b)$`");
    }
}
