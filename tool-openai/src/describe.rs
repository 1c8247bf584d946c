//! Keywords that strict mode does not take, stated in plain words in the
//! schema's description ("At least 1 character.").

use serde_json::{Map, Number, Value};

use crate::error::{Pointer, StrictSchemaError};
use crate::keywords::{count, number, string};

/// The constraints of one schema that go into its description.
#[derive(Debug, Default)]
pub(crate) struct Notes {
    format: Option<String>,
    format_name: Option<String>,
    min_length: Option<u64>,
    max_length: Option<u64>,
    pattern: Option<String>,
    minimum: Option<Number>,
    maximum: Option<Number>,
    exclusive_minimum: Option<Number>,
    exclusive_maximum: Option<Number>,
    multiple_of: Option<Number>,
    min_items: Option<u64>,
    max_items: Option<u64>,
    unique_items: bool,
    content: Vec<String>,
    examples: Option<String>,
    deprecated: bool,
}

impl Notes {
    /// Records `key: value`; `path` is the keyword's pointer, for errors.
    pub(crate) fn add(
        &mut self,
        key: &str,
        value: &Value,
        path: &Pointer,
    ) -> Result<(), StrictSchemaError> {
        match key {
            "format" => {
                let format = string(value, path)?;
                self.format = format_sentence(format);
                self.format_name = Some(format.to_owned());
            }
            "minLength" => self.min_length = Some(count(value, path)?),
            "maxLength" => self.max_length = Some(count(value, path)?),
            "pattern" => self.pattern = Some(string(value, path)?.to_owned()),
            "minimum" => self.minimum = Some(number(value, path)?.clone()),
            "maximum" => self.maximum = Some(number(value, path)?.clone()),
            "exclusiveMinimum" => self.exclusive_minimum = Some(number(value, path)?.clone()),
            "exclusiveMaximum" => self.exclusive_maximum = Some(number(value, path)?.clone()),
            "multipleOf" => self.multiple_of = Some(number(value, path)?.clone()),
            "minItems" => self.min_items = Some(count(value, path)?),
            "maxItems" => self.max_items = Some(count(value, path)?),
            "uniqueItems" => self.unique_items = flag(value, path)?,
            "deprecated" => self.deprecated = flag(value, path)?,
            "contentEncoding" => self
                .content
                .push(format!("Encoded as {}.", string(value, path)?)),
            "contentMediaType" => self
                .content
                .push(format!("Media type {}.", string(value, path)?)),
            "examples" => self.examples = examples_sentence(value),
            _ => {}
        }
        Ok(())
    }

    /// Leaves out the sentence of an integer `format` (`uint32`, ...) when
    /// the schema's own bounds already keep values inside its range.
    pub(crate) fn drop_format_within(&mut self, lower: Option<f64>, upper: Option<f64>) {
        let range = self.format_name.as_deref().and_then(integer_range);
        if let (Some((min, max)), Some(lower), Some(upper)) = (range, lower, upper)
            && lower >= min
            && upper <= max
        {
            self.format = None;
        }
    }

    /// The sentences, in a fixed order.
    pub(crate) fn sentences(&self) -> Vec<String> {
        let mut out = Vec::new();
        out.extend(self.format.clone());
        out.extend(range(self.min_length, self.max_length, "character"));
        if let Some(pattern) = &self.pattern {
            out.push(format!("Matches the regular expression `{pattern}`."));
        }
        match (&self.minimum, &self.maximum) {
            (Some(min), Some(max)) => out.push(format!("From {min} to {max}.")),
            (Some(min), None) => out.push(format!("At least {min}.")),
            (None, Some(max)) => out.push(format!("At most {max}.")),
            (None, None) => {}
        }
        if let Some(min) = &self.exclusive_minimum {
            out.push(format!("Greater than {min}."));
        }
        if let Some(max) = &self.exclusive_maximum {
            out.push(format!("Less than {max}."));
        }
        if let Some(step) = &self.multiple_of {
            out.push(format!("A multiple of {step}."));
        }
        out.extend(range(self.min_items, self.max_items, "item"));
        if self.unique_items {
            out.push("No duplicate items.".to_owned());
        }
        out.extend(self.content.iter().cloned());
        out.extend(self.examples.clone());
        if self.deprecated {
            out.push("Deprecated.".to_owned());
        }
        out
    }

    /// Appends the sentences to the schema's description, or gives it one
    /// (as its first keyword) when it has none.
    pub(crate) fn attach(&self, schema: &mut Map<String, Value>) {
        let sentences = self.sentences();
        if sentences.is_empty() {
            return;
        }
        let notes = sentences.join(" ");
        match schema.get_mut("description") {
            Some(Value::String(description)) => *description = append(description, &notes),
            _ => {
                let rest = std::mem::take(schema);
                schema.insert("description".to_owned(), Value::String(notes));
                schema.extend(rest);
            }
        }
    }
}

/// `text` followed by `notes` as further sentences.
fn append(text: &str, notes: &str) -> String {
    let text = text.trim_end();
    if text.is_empty() {
        notes.to_owned()
    } else if text.ends_with(['.', '!', '?']) {
        format!("{text} {notes}")
    } else {
        format!("{text}. {notes}")
    }
}

fn flag(value: &Value, path: &Pointer) -> Result<bool, StrictSchemaError> {
    value.as_bool().ok_or_else(|| {
        path.error(
            crate::StrictRule::Malformed,
            format!("expected `true` or `false`, got {value}"),
        )
    })
}

/// "At least 1 character.", "Between 2 and 5 items.", ...
fn range(min: Option<u64>, max: Option<u64>, unit: &str) -> Option<String> {
    let plural = |n: u64| if n == 1 { "" } else { "s" };
    Some(match (min, max) {
        (Some(a), Some(b)) if a == b => format!("Exactly {a} {unit}{}.", plural(a)),
        (Some(a), Some(b)) => format!("Between {a} and {b} {unit}s."),
        (Some(0), None) | (None, None) => return None,
        (Some(a), None) => format!("At least {a} {unit}{}.", plural(a)),
        (None, Some(b)) => format!("At most {b} {unit}{}.", plural(b)),
    })
}

fn examples_sentence(value: &Value) -> Option<String> {
    let values: Vec<String> = match value {
        Value::Array(values) => values.iter().map(Value::to_string).collect(),
        other => vec![other.to_string()],
    };
    match values.as_slice() {
        [] => None,
        [one] => Some(format!("Example: {one}.")),
        many => Some(format!("Examples: {}.", many.join(", "))),
    }
}

/// The values an integer `format` allows.
fn integer_range(format: &str) -> Option<(f64, f64)> {
    let signed = |bits: i32| (-(2f64.powi(bits - 1)), 2f64.powi(bits - 1) - 1.0);
    let unsigned = |bits: i32| (0.0, 2f64.powi(bits) - 1.0);
    Some(match format {
        "int8" => signed(8),
        "int16" => signed(16),
        "int32" => signed(32),
        "int64" => signed(64),
        "int128" => signed(128),
        "uint8" => unsigned(8),
        "uint16" => unsigned(16),
        "uint32" => unsigned(32),
        "uint64" => unsigned(64),
        "uint128" => unsigned(128),
        _ => return None,
    })
}

/// A `format` that strict mode does not support, in words; `None` for
/// formats that say nothing a JSON number does not (`double`, `float`).
pub(crate) fn format_sentence(format: &str) -> Option<String> {
    let integer = |bits: u32, signed: bool| {
        if signed {
            let max = (1i128 << (bits - 1)) - 1;
            format!("A whole number from {} to {max}.", -max - 1)
        } else {
            let max = if bits == 128 {
                u128::MAX
            } else {
                (1u128 << bits) - 1
            };
            format!("A whole number from 0 to {max}.")
        }
    };
    Some(match format {
        "double" | "float" => return None,
        "int8" => integer(8, true),
        "int16" => integer(16, true),
        "int32" => integer(32, true),
        "int64" => integer(64, true),
        "int128" => integer(128, true),
        "uint8" => integer(8, false),
        "uint16" => integer(16, false),
        "uint32" => integer(32, false),
        "uint64" => integer(64, false),
        "uint128" => integer(128, false),
        "int" => "A whole number.".to_owned(),
        "uint" => "A whole number, 0 or more.".to_owned(),
        "uri" => "An absolute URI such as \"https://example.com/path\".".to_owned(),
        "uri-reference" => "A URI or a relative reference such as \"/path?q=1\".".to_owned(),
        "iri" => "An absolute IRI (a URI that may contain Unicode).".to_owned(),
        "iri-reference" => "An IRI or a relative reference.".to_owned(),
        "uri-template" => "A URI template (RFC 6570).".to_owned(),
        "json-pointer" => "A JSON Pointer such as \"/items/0\".".to_owned(),
        "relative-json-pointer" => "A relative JSON Pointer such as \"1/name\".".to_owned(),
        "regex" => "A regular expression.".to_owned(),
        "idn-email" => "An email address (may contain Unicode).".to_owned(),
        "idn-hostname" => "A host name (may contain Unicode).".to_owned(),
        "byte" => "Base64-encoded bytes.".to_owned(),
        "binary" => "Binary data.".to_owned(),
        "password" => "A password or other secret.".to_owned(),
        other => format!("Format: {other}."),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn notes(pairs: &[(&str, Value)]) -> Vec<String> {
        let mut notes = Notes::default();
        for (key, value) in pairs {
            notes.add(key, value, &Pointer::root().key(key)).unwrap();
        }
        notes.sentences()
    }

    #[test]
    fn lengths_read_as_one_sentence() {
        assert_eq!(notes(&[("minLength", json!(1))]), ["At least 1 character."]);
        assert_eq!(
            notes(&[("maxLength", json!(64))]),
            ["At most 64 characters."]
        );
        assert_eq!(
            notes(&[("minLength", json!(1)), ("maxLength", json!(64))]),
            ["Between 1 and 64 characters."]
        );
        assert_eq!(
            notes(&[("minLength", json!(3)), ("maxLength", json!(3))]),
            ["Exactly 3 characters."]
        );
        assert!(notes(&[("minLength", json!(0))]).is_empty());
    }

    #[test]
    fn integer_formats_state_their_range() {
        assert_eq!(
            format_sentence("uint32").unwrap(),
            "A whole number from 0 to 4294967295."
        );
        assert_eq!(
            format_sentence("int64").unwrap(),
            "A whole number from -9223372036854775808 to 9223372036854775807."
        );
        assert_eq!(
            format_sentence("uint128").unwrap(),
            "A whole number from 0 to 340282366920938463463374607431768211455."
        );
        assert_eq!(format_sentence("double"), None);
        assert_eq!(format_sentence("color").unwrap(), "Format: color.");
    }

    #[test]
    fn notes_follow_the_description() {
        let mut schema = json!({"type": "string", "description": "The SKU"});
        let mut notes = Notes::default();
        notes.add("minLength", &json!(1), &Pointer::root()).unwrap();
        notes
            .add("examples", &json!(["SKU-1", "SKU-2"]), &Pointer::root())
            .unwrap();
        notes.attach(schema.as_object_mut().unwrap());
        assert_eq!(
            schema,
            json!({
                "type": "string",
                "description": "The SKU. At least 1 character. Examples: \"SKU-1\", \"SKU-2\"."
            })
        );
        let mut bare = json!({"type": "array"});
        let mut notes = Notes::default();
        notes
            .add("uniqueItems", &json!(true), &Pointer::root())
            .unwrap();
        notes.attach(bare.as_object_mut().unwrap());
        assert_eq!(
            serde_json::to_string(&bare).unwrap(),
            r#"{"description":"No duplicate items.","type":"array"}"#
        );
    }

    #[test]
    fn integer_formats_within_the_bounds_say_nothing_more() {
        let with_bounds = |format: &str, lower: Option<f64>, upper: Option<f64>| {
            let mut notes = Notes::default();
            notes
                .add("format", &json!(format), &Pointer::root())
                .unwrap();
            notes.drop_format_within(lower, upper);
            notes.sentences()
        };
        assert!(with_bounds("uint32", Some(1.0), Some(1000.0)).is_empty());
        assert!(with_bounds("int8", Some(-128.0), Some(127.0)).is_empty());
        assert_eq!(
            with_bounds("int8", Some(-129.0), Some(0.0)),
            ["A whole number from -128 to 127."]
        );
        assert_eq!(
            with_bounds("uint32", Some(0.0), None),
            ["A whole number from 0 to 4294967295."]
        );
        assert_eq!(
            with_bounds("uri", Some(0.0), Some(1.0)),
            ["An absolute URI such as \"https://example.com/path\"."]
        );
    }

    #[test]
    fn malformed_values_are_errors() {
        let mut notes = Notes::default();
        let error = notes
            .add("minLength", &json!(-1), &Pointer::root().key("minLength"))
            .unwrap_err();
        assert_eq!(error.path(), "#/minLength");
        assert_eq!(error.message(), "expected a non-negative integer, got -1");
    }
}
