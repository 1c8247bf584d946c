//! The case-insensitive reading of enum values some providers need
//! (Anthropic's strict tool use does not guarantee their casing): a call's
//! text with each mis-cased enum or const string rewritten to its declared
//! casing, and every other byte left as the model wrote it.
//!
//! The text is scanned once, beside the tool's input schema: at each value
//! the schemas that may describe it (`$ref` targets and union branches,
//! each followed once) are gathered once per place in the schema and kept
//! for every value read there (the items of a list, the members of its
//! objects), so the work grows with the text and the schema, not with
//! their product. Numbers, keys, whitespace and repeated keys stay as
//! written, for the parser to read exactly and to judge.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::words::describe::resolve_ref;

/// How many schemas one place gathers before it stops: each `$ref` and
/// union branch is followed once per place, so only a schema far larger
/// than any tool's reaches it.
const MAX_SCHEMA_VISITS: usize = 20_000;

/// How deep the scan follows nested arrays and objects; deeper text is left
/// as it is (the parser refuses nesting far above this).
const MAX_SCAN_DEPTH: usize = 160;

/// `arguments` with each string that names an enum or const value of
/// `schema` in another letter case rewritten to the value's own casing;
/// `None` when nothing needs folding or when the text is not JSON (the
/// parser then reports the syntax error). A string is folded only when no
/// schema at its place takes it as written and exactly one allowed value
/// matches it ignoring case.
pub fn fold_enum_case(schema: &Value, arguments: &str) -> Option<String> {
    let mut scan = Scan {
        text: arguments.as_bytes(),
        at: 0,
        edits: Vec::new(),
    };
    let mut place = Place::new(vec![schema], schema);
    scan.value(Some(&mut place), 0)?;
    scan.skip_whitespace();
    if scan.at != scan.text.len() || scan.edits.is_empty() {
        return None;
    }
    let mut folded = String::with_capacity(arguments.len());
    let mut last = 0;
    for (start, end, replacement) in &scan.edits {
        folded.push_str(&arguments[last..*start]);
        folded.push_str(replacement);
        last = *end;
    }
    folded.push_str(&arguments[last..]);
    Some(folded)
}

/// The schemas that may describe the values at one place of the schema,
/// what they allow a string to be, and the places below it, each built the
/// first time a value needs it.
struct Place<'s> {
    alternatives: Vec<&'s Map<String, Value>>,
    root: &'s Value,
    strings: Option<Strings<'s>>,
    members: HashMap<String, Option<Place<'s>>>,
    items: Option<Option<Box<Place<'s>>>>,
}

/// What the schemas of a place allow a string to be.
struct Strings<'s> {
    /// Some schema takes any string as written.
    any: bool,
    /// The allowed values as written.
    exact: HashSet<&'s str>,
    /// The allowed values by their lower case, each listed once.
    lower: HashMap<String, Vec<&'s str>>,
}

impl<'s> Place<'s> {
    fn new(schemas: Vec<&'s Value>, root: &'s Value) -> Self {
        Place {
            alternatives: alternatives(schemas, root),
            root,
            strings: None,
            members: HashMap::new(),
            items: None,
        }
    }

    /// The declared casing of `text`, when it must be folded.
    fn fold(&mut self, text: &str) -> Option<&'s str> {
        let alternatives = &self.alternatives;
        let strings = self.strings.get_or_insert_with(|| {
            let mut strings = Strings {
                any: alternatives.iter().any(|map| takes_any_string(map)),
                exact: HashSet::new(),
                lower: HashMap::new(),
            };
            for map in alternatives {
                let listed = map
                    .get("enum")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten();
                for value in listed.chain(map.get("const")).filter_map(Value::as_str) {
                    if strings.exact.insert(value) {
                        strings
                            .lower
                            .entry(value.to_lowercase())
                            .or_default()
                            .push(value);
                    }
                }
            }
            strings
        });
        if strings.any || strings.exact.contains(text) {
            return None;
        }
        match strings.lower.get(&text.to_lowercase()).map(Vec::as_slice) {
            Some([only]) => Some(only),
            _ => None,
        }
    }

    /// The place of the member `key`, if any schema here describes it.
    fn member(&mut self, key: &str) -> Option<&mut Place<'s>> {
        if !self.members.contains_key(key) {
            let mut schemas: Vec<&Value> = self
                .alternatives
                .iter()
                .filter_map(|map| map.get("properties").and_then(Value::as_object)?.get(key))
                .collect();
            // A key no `properties` names falls to `additionalProperties`,
            // unless a `patternProperties` may take it (then nothing is
            // folded there: which schema applies is not looked into).
            let patterned = self
                .alternatives
                .iter()
                .any(|map| map.contains_key("patternProperties"));
            if schemas.is_empty() && !patterned {
                schemas = self
                    .alternatives
                    .iter()
                    .filter_map(|map| map.get("additionalProperties").filter(|s| s.is_object()))
                    .collect();
            }
            let place = (!schemas.is_empty()).then(|| Place::new(schemas, self.root));
            self.members.insert(key.to_owned(), place);
        }
        self.members.get_mut(key).and_then(Option::as_mut)
    }

    /// The place of the items of a list, if any schema here describes them
    /// all alike: a tuple (`prefixItems`, or `items` as an array) gives its
    /// positions schemas of their own, so nothing in it is folded.
    fn items(&mut self) -> Option<&mut Place<'s>> {
        let alternatives = &self.alternatives;
        let root = self.root;
        self.items
            .get_or_insert_with(|| {
                let tuple = alternatives.iter().any(|map| {
                    map.contains_key("prefixItems") || map.get("items").is_some_and(Value::is_array)
                });
                let schemas: Vec<&Value> = alternatives
                    .iter()
                    .filter_map(|map| map.get("items"))
                    .collect();
                (!tuple && !schemas.is_empty()).then(|| Box::new(Place::new(schemas, root)))
            })
            .as_deref_mut()
    }
}

/// The schemas that `schemas` stand for at one value: each of them, what
/// its `$ref` points to and the branches of its `anyOf`/`oneOf`/`allOf`,
/// each followed once (a schema reached twice, as by a recursive `$ref`,
/// is not followed again; at most [`MAX_SCHEMA_VISITS`] are looked at).
fn alternatives<'s>(schemas: Vec<&'s Value>, root: &'s Value) -> Vec<&'s Map<String, Value>> {
    let mut found: Vec<&Map<String, Value>> = Vec::new();
    let mut seen: HashSet<*const Map<String, Value>> = HashSet::new();
    let mut queue = schemas;
    queue.reverse();
    let mut visits = 0;
    while let Some(schema) = queue.pop() {
        visits += 1;
        if visits > MAX_SCHEMA_VISITS {
            break;
        }
        let Some(map) = schema.as_object() else {
            continue;
        };
        if !seen.insert(map) {
            continue;
        }
        found.push(map);
        if let Some(target) = map
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| resolve_ref(r, root))
        {
            queue.push(target);
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            if let Some(Value::Array(branches)) = map.get(key) {
                queue.extend(branches.iter().rev());
            }
        }
    }
    found
}

/// Whether a schema (one of [`alternatives`], so its `$ref` and branches
/// are judged on their own) takes any string as it is written.
fn takes_any_string(map: &Map<String, Value>) -> bool {
    // What `not` and `if` allow is not looked into: such a schema may take
    // the text as written, so nothing at its place is folded.
    if map.contains_key("not") || map.contains_key("if") {
        return true;
    }
    let composite = ["enum", "const", "$ref", "anyOf", "oneOf", "allOf"]
        .iter()
        .any(|key| map.contains_key(*key));
    let stringy = match map.get("type") {
        None => true,
        Some(Value::String(t)) => t == "string",
        Some(Value::Array(types)) => types.iter().any(|t| t == "string"),
        Some(_) => false,
    };
    !composite && stringy
}

/// One pass over the text: where each value starts and ends, and the
/// strings to rewrite (start, end, the new JSON string).
struct Scan<'t> {
    text: &'t [u8],
    at: usize,
    edits: Vec<(usize, usize, String)>,
}

impl Scan<'_> {
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.text.get(self.at) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_whitespace();
        self.text.get(self.at).copied()
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// Reads one value at `place` (none: nothing describes it, so nothing
    /// in it is folded); `None` when the text is not JSON.
    fn value(&mut self, place: Option<&mut Place<'_>>, depth: usize) -> Option<()> {
        if depth > MAX_SCAN_DEPTH {
            return None;
        }
        match self.peek()? {
            b'"' => {
                let start = self.at;
                let text = self.string()?;
                if let Some(declared) = place.and_then(|place| place.fold(&text)) {
                    // A JSON string always writes.
                    let written = serde_json::to_string(declared).ok()?;
                    self.edits.push((start, self.at, written));
                }
                Some(())
            }
            b'{' => {
                self.at += 1;
                let mut place = place;
                if self.peek()? == b'}' {
                    self.at += 1;
                    return Some(());
                }
                loop {
                    if self.peek()? != b'"' {
                        return None;
                    }
                    let key = self.string()?;
                    self.expect(b':')?;
                    let member = place.as_deref_mut().and_then(|place| place.member(&key));
                    self.value(member, depth + 1)?;
                    match self.peek()? {
                        b',' => self.at += 1,
                        b'}' => {
                            self.at += 1;
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                self.at += 1;
                let mut items = place.and_then(Place::items);
                if self.peek()? == b']' {
                    self.at += 1;
                    return Some(());
                }
                loop {
                    self.value(items.as_deref_mut(), depth + 1)?;
                    match self.peek()? {
                        b',' => self.at += 1,
                        b']' => {
                            self.at += 1;
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            _ => self.scalar(),
        }
    }

    /// A number, `true`, `false` or `null`, skipped as written; the parser
    /// reads and judges it.
    fn scalar(&mut self) -> Option<()> {
        let start = self.at;
        while let Some(byte) = self.text.get(self.at) {
            match byte {
                b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E' | b'a'..=b'z' => self.at += 1,
                _ => break,
            }
        }
        (self.at > start).then_some(())
    }

    /// A string at the cursor, decoded; `None` when it is not a JSON
    /// string.
    fn string(&mut self) -> Option<String> {
        let start = self.at;
        self.at += 1;
        let mut escaped = false;
        loop {
            match self.text.get(self.at)? {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    self.at += 2;
                }
                byte if *byte < 0x20 => return None,
                _ => self.at += 1,
            }
        }
        self.at += 1;
        let raw = std::str::from_utf8(self.text.get(start..self.at)?).ok()?;
        if escaped {
            serde_json::from_str(raw).ok()
        } else {
            Some(raw[1..raw.len() - 1].to_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_unique_case_insensitive_match_is_folded() {
        let schema = json!({
            "type": "object",
            "properties": {
                "reason": {"$ref": "#/$defs/Reason"},
                "tags": {"type": "array", "items": {"enum": ["Red", "red", "Blue"]}},
                "mode": {"anyOf": [{"const": "fast"}, {"type": "null"}]}
            },
            "$defs": {"Reason": {"type": "string", "enum": ["damaged", "late"]}}
        });
        let folded = fold_enum_case(
            &schema,
            r#"{"reason":"DAMAGED","tags":["BLUE","RED","red"],"mode":"Fast"}"#,
        );
        assert_eq!(
            folded.as_deref(),
            Some(r#"{"reason":"damaged","tags":["Blue","RED","red"],"mode":"fast"}"#)
        );
        assert_eq!(fold_enum_case(&schema, r#"{"reason":"late"}"#), None);
        // A value another branch allows as written is left alone.
        let branches = json!({"anyOf": [
            {"type": "object", "properties": {"kind": {"enum": ["A"]}}},
            {"type": "object", "properties": {"kind": {"enum": ["a"]}}}
        ]});
        assert_eq!(fold_enum_case(&branches, r#"{"kind":"a"}"#), None);
        assert_eq!(fold_enum_case(&branches, r#"{"kind":"A"}"#), None);
        assert_eq!(fold_enum_case(&schema, "{not json"), None);
        assert_eq!(fold_enum_case(&schema, r#"{"reason":"DAMAGED"} x"#), None);
    }

    #[test]
    fn everything_but_the_folded_strings_stays_as_written() {
        let schema = json!({"type": "object", "properties": {
            "speed": {"enum": ["fast", "slow"]},
            "serial": {"type": "integer"},
            "note": {"type": "string"}
        }});
        let text = "{ \"speed\" : \"FAST\",\n \"serial\": 123456789012345678901, \"note\": \"a\\u0041\", \"speed\": \"x\", \"n\": 1.50e+3 }";
        assert_eq!(
            fold_enum_case(&schema, text).as_deref(),
            Some(
                "{ \"speed\" : \"fast\",\n \"serial\": 123456789012345678901, \"note\": \"a\\u0041\", \"speed\": \"x\", \"n\": 1.50e+3 }"
            )
        );
        // An escaped spelling of a value is read as the value.
        assert_eq!(
            fold_enum_case(&schema, r#"{"speed":"F\u0041ST"}"#).as_deref(),
            Some(r#"{"speed":"fast"}"#)
        );
    }

    #[test]
    fn a_string_another_branch_takes_as_written_is_not_folded() {
        let union = json!({"type": "object", "properties": {
            "x": {"anyOf": [{"enum": ["abc"]}, {"type": "string"}]}
        }});
        assert_eq!(fold_enum_case(&union, r#"{"x":"ABC"}"#), None);
        let shapes = json!({"type": "object", "properties": {"shape": {"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}},
            {"type": "object", "properties": {"kind": {"type": "string"}, "note": {"type": "string"}}}
        ]}}});
        assert_eq!(
            fold_enum_case(&shapes, r#"{"shape":{"kind":"Circle","note":"n"}}"#),
            None
        );
        // Where only the enum can take it, it is still folded.
        let only = json!({"type": "object", "properties": {
            "x": {"anyOf": [{"enum": ["abc"]}, {"type": "null"}]}
        }});
        assert_eq!(
            fold_enum_case(&only, r#"{"x":"ABC"}"#).as_deref(),
            Some(r#"{"x":"abc"}"#)
        );
    }

    #[test]
    fn every_branch_of_a_large_documented_enum_is_folded() {
        // A documented enum is a `oneOf` of one `const` per variant; each
        // is followed however many there are (a count of 32 schemas once
        // stopped the walk before the last variants).
        let variants: Vec<Value> = (1..=300)
            .map(|n| json!({"const": format!("V{n}"), "description": format!("Variant {n}.")}))
            .collect();
        let schema = json!({"type": "object", "properties": {
            "v": {"$ref": "#/$defs/Big"}
        }, "$defs": {"Big": {"oneOf": variants}}});
        for n in [1, 39, 40, 300] {
            assert_eq!(
                fold_enum_case(&schema, &format!(r#"{{"v":"v{n}"}}"#)).as_deref(),
                Some(format!(r#"{{"v":"V{n}"}}"#).as_str()),
                "V{n}"
            );
        }
        // A definition reached by several `$ref`s of one union is read once.
        let shared = json!({"type": "object", "properties": {"v": {"anyOf": [
            {"$ref": "#/$defs/E"}, {"$ref": "#/$defs/E"}, {"type": "null"}
        ]}}, "$defs": {"E": {"enum": ["Open"]}}});
        assert_eq!(
            fold_enum_case(&shared, r#"{"v":"OPEN"}"#).as_deref(),
            Some(r#"{"v":"Open"}"#)
        );
    }

    #[test]
    fn a_place_is_gathered_once_for_all_its_values() {
        let variants: Vec<Value> = (0..250)
            .map(|n| json!({"const": format!("C{n:03}")}))
            .collect();
        let schema = json!({"type": "object", "properties": {
            "rows": {"type": "array", "items": {"type": "object", "properties": {
                "country": {"$ref": "#/$defs/Country"}
            }}}
        }, "$defs": {"Country": {"oneOf": variants}}});
        let rows: Vec<String> = (0..2_000)
            .map(|n| format!(r#"{{"country":"c{:03}"}}"#, n % 250))
            .collect();
        let text = format!(r#"{{"rows":[{}]}}"#, rows.join(","));
        let mut scan = Scan {
            text: text.as_bytes(),
            at: 0,
            edits: Vec::new(),
        };
        let mut place = Place::new(vec![&schema], &schema);
        scan.value(Some(&mut place), 0).unwrap();
        assert_eq!(scan.edits.len(), 2_000);
        // One place for the rows, one for their items, one for `country`:
        // each built once, whatever the number of rows.
        let rows = place.members.get_mut("rows").unwrap().as_mut().unwrap();
        let items = rows.items.as_mut().unwrap().as_mut().unwrap();
        assert_eq!(items.members.len(), 1);
        let country = items.members["country"].as_ref().unwrap();
        assert_eq!(country.alternatives.len(), 252);
        assert_eq!(country.strings.as_ref().unwrap().exact.len(), 250);
    }

    #[test]
    fn tuples_pattern_properties_and_negations_are_not_folded() {
        // The first position takes any string; `items` is the rest.
        let tuple = json!({"type": "object", "properties": {"t": {
            "type": "array", "prefixItems": [{"type": "string"}], "items": {"enum": ["A"]}
        }}});
        assert_eq!(fold_enum_case(&tuple, r#"{"t":["a","a"]}"#), None);
        let draft7 = json!({"type": "object", "properties": {"t": {
            "type": "array", "items": [{"enum": ["A"]}]
        }}});
        assert_eq!(fold_enum_case(&draft7, r#"{"t":["a"]}"#), None);
        let negated = json!({"type": "object", "properties": {"x": {"anyOf": [
            {"enum": ["A"]}, {"not": {"enum": ["A"]}}
        ]}}});
        assert_eq!(fold_enum_case(&negated, r#"{"x":"a"}"#), None);
        let patterned = json!({"type": "object",
            "patternProperties": {"^x": {"type": "string"}},
            "additionalProperties": {"enum": ["A"]}});
        assert_eq!(fold_enum_case(&patterned, r#"{"xa":"a"}"#), None);
        // Without the pattern, additionalProperties describes the member.
        let open = json!({"type": "object", "additionalProperties": {"enum": ["A"]}});
        assert_eq!(
            fold_enum_case(&open, r#"{"xa":"a"}"#).as_deref(),
            Some(r#"{"xa":"A"}"#)
        );
    }

    #[test]
    fn text_with_a_key_twice_keeps_both_for_the_parser() {
        let schema = json!({"type": "object", "properties": {
            "mode": {"enum": ["fast", "slow"]}
        }});
        assert_eq!(
            fold_enum_case(&schema, r#"{"mode":"FAST","mode":"slow"}"#).as_deref(),
            Some(r#"{"mode":"fast","mode":"slow"}"#)
        );
    }

    #[test]
    fn recursive_refs_and_deep_text_stay_bounded() {
        let schema = json!({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/A"}}});
        assert_eq!(fold_enum_case(&schema, r#"{"a":"x"}"#), None);
        let list = json!({"$ref": "#/$defs/L", "$defs": {"L": {"type": "array", "items": {"$ref": "#/$defs/L"}}}});
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(fold_enum_case(&list, &deep), None);
    }
}
