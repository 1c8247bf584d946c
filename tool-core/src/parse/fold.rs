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

use std::collections::{BTreeMap, HashMap, HashSet};

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
    let mut places = Places::new(schema);
    let root = places.place(vec![schema]);
    let mut scan = Scan {
        text: arguments.as_bytes(),
        at: 0,
        edits: Vec::new(),
        places: &mut places,
    };
    scan.value(root, 0)?;
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

/// One gathered schema and its `allOf` group, as a place's key.
type Gathering = (*const Map<String, Value>, Option<usize>);

/// The place that takes any value: nothing in it is folded.
const OPEN: usize = 0;

/// Every place of the schema a value was read at, each gathered once: a
/// place is the set of schemas that may describe a value there, so two
/// paths to one definition share one place, and so do the members of a
/// map and the items of a list.
struct Places<'s> {
    root: &'s Value,
    places: Vec<Place<'s>>,
    /// Places by the schemas they were asked for.
    by_given: HashMap<Vec<*const Value>, usize>,
    /// Places by the schemas they gathered.
    by_schemas: HashMap<Vec<Gathering>, usize>,
}

/// The schemas that may describe the values at one place, what they allow
/// a string to be, and the places below it.
struct Place<'s> {
    alternatives: Vec<&'s Map<String, Value>>,
    /// For each alternative, the `allOf` group it belongs to: a schema with
    /// `allOf` and its parts (and what their `$ref`s name) must all hold,
    /// so one that takes anything does not loosen the others.
    groups: Vec<Option<usize>>,
    strings: Option<Strings<'s>>,
    members: HashMap<String, usize>,
    /// The places of a list's items by position; the last is the rest.
    items: Option<Vec<usize>>,
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

/// What one schema says of a member or an item.
enum Below<'s> {
    /// It is described by this schema.
    Schema(&'s Value),
    /// Any value is allowed.
    Open,
    /// This schema allows no such value (not an object or a list, a key
    /// it closes out, values that are not objects or lists).
    Nothing,
    /// This schema only names others (`$ref`, `anyOf`, ...), which say it.
    Neutral,
}

/// What the schemas of a place say together, each with its `allOf` group:
/// the schemas that describe the value, and whether any value is taken.
/// Schemas outside a group are alternatives: one that takes anything makes
/// the place take anything. A group must hold as a whole: when one of its
/// schemas restricts the value, the group's schemas that take anything do
/// not loosen it.
fn combine<'s>(judged: impl Iterator<Item = (Below<'s>, Option<usize>)>) -> (Vec<&'s Value>, bool) {
    let mut schemas = Vec::new();
    let mut open = false;
    let mut groups: BTreeMap<usize, (bool, bool, Vec<&'s Value>)> = BTreeMap::new();
    for (below, group) in judged {
        match (group, below) {
            (None, Below::Schema(schema)) => schemas.push(schema),
            (None, Below::Open) => open = true,
            (None, Below::Nothing | Below::Neutral) => {}
            (Some(group), below) => {
                let (restricts, opens, members) = groups.entry(group).or_default();
                match below {
                    Below::Schema(schema) => {
                        *restricts = true;
                        members.push(schema);
                    }
                    Below::Nothing => *restricts = true,
                    Below::Open => *opens = true,
                    Below::Neutral => {}
                }
            }
        }
    }
    for (restricts, opens, members) in groups.into_values() {
        if restricts {
            schemas.extend(members);
        } else if opens {
            open = true;
        }
    }
    (schemas, open)
}

/// What `map` says of a string: any string (`Open`), only its listed values
/// or none (`Nothing`), or what the schemas it names say (`Neutral`).
fn string_of(map: &Map<String, Value>) -> Below<'_> {
    if map.contains_key("not") || map.contains_key("if") {
        return Below::Open;
    }
    if map.contains_key("enum") || map.contains_key("const") {
        return Below::Nothing;
    }
    if names_others(map) {
        return Below::Neutral;
    }
    if allows(map, "string") {
        Below::Open
    } else {
        Below::Nothing
    }
}

/// Whether `map`'s listed values (`enum`, `const`) include a whole object
/// (`object`) or a whole list: a value whose members or items it takes as
/// they are.
fn lists(map: &Map<String, Value>, object: bool) -> bool {
    let listed = map
        .get("enum")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    listed.chain(map.get("const")).any(|value| {
        if object {
            value.is_object()
        } else {
            value.is_array()
        }
    })
}

impl<'s> Places<'s> {
    fn new(root: &'s Value) -> Self {
        let open = Place {
            alternatives: Vec::new(),
            groups: Vec::new(),
            strings: Some(Strings {
                any: true,
                exact: HashSet::new(),
                lower: HashMap::new(),
            }),
            members: HashMap::new(),
            items: Some(vec![OPEN]),
        };
        Places {
            root,
            places: vec![open],
            by_given: HashMap::new(),
            by_schemas: HashMap::new(),
        }
    }

    /// The place `schemas` stand for.
    fn place(&mut self, schemas: Vec<&'s Value>) -> usize {
        // The same schemas (the members of a map, one definition's member
        // read at many paths) are gathered once.
        let given: Vec<*const Value> = schemas.iter().map(|schema| *schema as *const _).collect();
        if let Some(id) = self.by_given.get(&given) {
            return *id;
        }
        let id = self.gather(schemas);
        self.by_given.insert(given, id);
        id
    }

    /// The place `schemas` stand for, gathered.
    fn gather(&mut self, schemas: Vec<&'s Value>) -> usize {
        let Some((alternatives, groups)) = alternatives(schemas, self.root) else {
            return OPEN;
        };
        // Schemas that only name others (`{"$ref": ...}` with annotations)
        // add nothing: two uses of one definition are one place.
        // With its `allOf` group: the same schemas grouped otherwise say
        // something else.
        let mut key: Vec<Gathering> = alternatives
            .iter()
            .zip(&groups)
            .filter(|(map, _)| !only_names_others(map))
            .map(|(map, group)| (*map as *const _, *group))
            .collect();
        key.sort_unstable();
        if let Some(id) = self.by_schemas.get(&key) {
            return *id;
        }
        let id = self.places.len();
        self.places.push(Place {
            alternatives,
            groups,
            strings: None,
            members: HashMap::new(),
            items: None,
        });
        self.by_schemas.insert(key, id);
        id
    }

    /// The declared casing of `text` at `place`, when it must be folded.
    fn fold(&mut self, place: usize, text: &str) -> Option<&'s str> {
        let place = &mut self.places[place];
        let alternatives = &place.alternatives;
        let groups = &place.groups;
        let strings = place.strings.get_or_insert_with(|| {
            let judged = alternatives.iter().map(|map| string_of(map));
            let mut strings = Strings {
                any: combine(judged.zip(groups.iter().copied())).1,
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

    /// The place of the member `key` of an object at `place`.
    fn member(&mut self, place: usize, key: &str) -> usize {
        if let Some(id) = self.places[place].members.get(key) {
            return *id;
        }
        let here = &self.places[place];
        let judged = here.alternatives.iter().map(|map| member_of(map, key));
        let (schemas, open) = combine(judged.zip(here.groups.iter().copied()));
        let id = if open || schemas.is_empty() {
            OPEN
        } else {
            self.place(schemas)
        };
        self.places[place].members.insert(key.to_owned(), id);
        id
    }

    /// The place of the item at `position` of a list at `place`.
    fn item(&mut self, place: usize, position: usize) -> usize {
        if self.places[place].items.is_none() {
            let alternatives = self.places[place].alternatives.clone();
            let groups = self.places[place].groups.clone();
            let prefix = alternatives
                .iter()
                .map(|map| prefix_len(map))
                .max()
                .unwrap_or(0);
            let mut items = Vec::with_capacity(prefix + 1);
            for at in 0..=prefix {
                let judged = alternatives.iter().map(|map| item_of(map, at));
                let (schemas, open) = combine(judged.zip(groups.iter().copied()));
                items.push(if open || schemas.is_empty() {
                    OPEN
                } else {
                    self.place(schemas)
                });
            }
            self.places[place].items = Some(items);
        }
        let items = self.places[place].items.as_deref().unwrap_or(&[OPEN]);
        items[position.min(items.len() - 1)]
    }
}

/// Whether a schema only names others for what a value is (a `$ref`, or
/// `anyOf`/`oneOf`/`allOf` branches) and says nothing of its own members
/// or items: those branches and targets are alternatives of their own.
fn names_others(map: &Map<String, Value>) -> bool {
    ["$ref", "anyOf", "oneOf", "allOf"]
        .iter()
        .any(|key| map.contains_key(*key))
        && ![
            "type",
            "properties",
            "additionalProperties",
            "patternProperties",
            "items",
            "prefixItems",
        ]
        .iter()
        .any(|key| map.contains_key(*key))
}

/// Whether a schema has nothing but references to others and
/// annotations: what it allows is what they allow.
fn only_names_others(map: &Map<String, Value>) -> bool {
    let names = ["$ref", "anyOf", "oneOf", "allOf"]
        .iter()
        .any(|key| map.contains_key(*key));
    names
        && map.keys().all(|key| {
            matches!(
                key.as_str(),
                "$ref"
                    | "anyOf"
                    | "oneOf"
                    | "allOf"
                    | "description"
                    | "title"
                    | "default"
                    | "examples"
                    | "deprecated"
                    | "$comment"
            )
        })
}

/// Whether `map`'s `type` allows `kind` (no `type` allows every kind).
fn allows(map: &Map<String, Value>, kind: &str) -> bool {
    match map.get("type") {
        None => true,
        Some(Value::String(t)) => t == kind,
        Some(Value::Array(types)) => types.iter().any(|t| t == kind),
        Some(_) => false,
    }
}

/// What `map` says of the member `key` of an object.
fn member_of<'s>(map: &'s Map<String, Value>, key: &str) -> Below<'s> {
    if map.contains_key("not") || map.contains_key("if") || lists(map, true) {
        return Below::Open;
    }
    if map.contains_key("enum") || map.contains_key("const") || !allows(map, "object") {
        return Below::Nothing;
    }
    if names_others(map) {
        return Below::Neutral;
    }
    if let Some(schema) = map
        .get("properties")
        .and_then(Value::as_object)
        .and_then(|p| p.get(key))
    {
        return Below::Schema(schema);
    }
    if map.contains_key("patternProperties") {
        return Below::Open;
    }
    match map.get("additionalProperties") {
        Some(Value::Bool(false)) => Below::Nothing,
        Some(schema @ Value::Object(_)) => Below::Schema(schema),
        _ => Below::Open,
    }
}

/// How many leading items `map` describes one by one (`prefixItems`, or
/// `items` as an array).
fn prefix_len(map: &Map<String, Value>) -> usize {
    match (map.get("prefixItems"), map.get("items")) {
        (Some(Value::Array(prefix)), _) | (None, Some(Value::Array(prefix))) => prefix.len(),
        _ => 0,
    }
}

/// What `map` says of the item at `position` of a list.
fn item_of(map: &Map<String, Value>, position: usize) -> Below<'_> {
    if map.contains_key("not") || map.contains_key("if") || lists(map, false) {
        return Below::Open;
    }
    if map.contains_key("enum") || map.contains_key("const") || !allows(map, "array") {
        return Below::Nothing;
    }
    if names_others(map) {
        return Below::Neutral;
    }
    let rest = match (map.get("prefixItems"), map.get("items")) {
        (Some(Value::Array(prefix)), rest) => match prefix.get(position) {
            Some(schema) => return Below::Schema(schema),
            None => rest,
        },
        (None, Some(Value::Array(prefix))) => match prefix.get(position) {
            Some(schema) => return Below::Schema(schema),
            None => map.get("additionalItems"),
        },
        // A malformed `prefixItems` says nothing sure: any value.
        (Some(_), _) => return Below::Open,
        (None, rest) => rest,
    };
    match rest {
        Some(Value::Bool(false)) => Below::Nothing,
        Some(schema @ Value::Object(_)) => Below::Schema(schema),
        _ => Below::Open,
    }
}

/// The schemas that `schemas` stand for at one value: each of them, what
/// its `$ref` points to and the branches of its `anyOf`/`oneOf`/`allOf`,
/// each followed once (a schema reached twice, as by a recursive `$ref`,
/// is not followed again), with the `allOf` group of each (a schema with
/// `allOf`, its parts and the targets of their `$ref`s share one; `anyOf`
/// and `oneOf` branches are alternatives and start none). `None` when one
/// of them takes any value (the schema `true`), or when there are more
/// than [`MAX_SCHEMA_VISITS`].
type Gathered<'s> = (Vec<&'s Map<String, Value>>, Vec<Option<usize>>);

fn alternatives<'s>(schemas: Vec<&'s Value>, root: &'s Value) -> Option<Gathered<'s>> {
    let mut found: Vec<&Map<String, Value>> = Vec::new();
    let mut groups: Vec<Option<usize>> = Vec::new();
    // A schema reached in and outside an `allOf` group is judged in each.
    let mut seen: HashSet<Gathering> = HashSet::new();
    let mut queue: Vec<(&Value, Option<usize>)> = schemas
        .into_iter()
        .rev()
        .map(|schema| (schema, None))
        .collect();
    let mut next_group = 0;
    let mut visits = 0;
    while let Some((schema, group)) = queue.pop() {
        visits += 1;
        if visits > MAX_SCHEMA_VISITS {
            return None;
        }
        let map = match schema {
            Value::Object(map) => map,
            Value::Bool(true) => return None,
            _ => continue,
        };
        if !seen.insert((map as *const _, group)) {
            continue;
        }
        let group = match (group, map.contains_key("allOf")) {
            (None, true) => {
                next_group += 1;
                Some(next_group)
            }
            (group, _) => group,
        };
        found.push(map);
        groups.push(group);
        if let Some(target) = map
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| resolve_ref(r, root))
        {
            queue.push((target, group));
        }
        if let Some(Value::Array(parts)) = map.get("allOf") {
            queue.extend(parts.iter().rev().map(|part| (part, group)));
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = map.get(key) {
                queue.extend(branches.iter().rev().map(|branch| (branch, None)));
            }
        }
    }
    Some((found, groups))
}

/// One pass over the text: where each value starts and ends, and the
/// strings to rewrite (start, end, the new JSON string).
struct Scan<'t, 'p, 's> {
    text: &'t [u8],
    at: usize,
    edits: Vec<(usize, usize, String)>,
    places: &'p mut Places<'s>,
}

impl Scan<'_, '_, '_> {
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

    /// Reads one value at `place`; `None` when the text is not JSON.
    fn value(&mut self, place: usize, depth: usize) -> Option<()> {
        if depth > MAX_SCAN_DEPTH {
            return None;
        }
        match self.peek()? {
            b'"' => {
                let start = self.at;
                let text = self.string()?;
                if let Some(declared) = self.places.fold(place, &text) {
                    // A JSON string always writes.
                    let written = serde_json::to_string(declared).ok()?;
                    self.edits.push((start, self.at, written));
                }
                Some(())
            }
            b'{' => {
                self.at += 1;
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
                    let member = self.places.member(place, &key);
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
                if self.peek()? == b']' {
                    self.at += 1;
                    return Some(());
                }
                let mut position = 0;
                loop {
                    let item = self.places.item(place, position);
                    self.value(item, depth + 1)?;
                    position += 1;
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
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => self.number(),
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        self.text[self.at..]
            .starts_with(word)
            .then(|| self.at += word.len())
    }

    /// A JSON number: `-`, an integer part without leading zeros, then an
    /// optional fraction and exponent.
    fn number(&mut self) -> Option<()> {
        let digits = |scan: &mut Self| {
            let start = scan.at;
            while let Some(b'0'..=b'9') = scan.text.get(scan.at) {
                scan.at += 1;
            }
            (scan.at > start).then_some(())
        };
        if self.text.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        match self.text.get(self.at)? {
            b'0' => self.at += 1,
            b'1'..=b'9' => digits(self)?,
            _ => return None,
        }
        if self.text.get(self.at) == Some(&b'.') {
            self.at += 1;
            digits(self)?;
        }
        if let Some(b'e' | b'E') = self.text.get(self.at) {
            self.at += 1;
            if let Some(b'+' | b'-') = self.text.get(self.at) {
                self.at += 1;
            }
            digits(self)?;
        }
        Some(())
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
                "country": {"$ref": "#/$defs/Country"},
                "via": {"$ref": "#/$defs/Country"}
            }}}
        }, "$defs": {"Country": {"oneOf": variants}}});
        let rows: Vec<String> = (0..2_000)
            .map(|n| format!(r#"{{"country":"c{:03}","via":"c001"}}"#, n % 250))
            .collect();
        let text = format!(r#"{{"rows":[{}]}}"#, rows.join(","));
        let mut places = Places::new(&schema);
        let root = places.place(vec![&schema]);
        let mut scan = Scan {
            text: text.as_bytes(),
            at: 0,
            edits: Vec::new(),
            places: &mut places,
        };
        scan.value(root, 0).unwrap();
        assert_eq!(scan.edits.len(), 4_000);
        // The open place, the root, `rows`, its items, and one place for
        // both members that name the country: each gathered once, however
        // many rows and paths lead there.
        assert_eq!(places.places.len(), 5);
        let country = places.places.last().unwrap();
        assert_eq!(country.alternatives.len(), 252);
        assert_eq!(country.strings.as_ref().unwrap().exact.len(), 250);
    }

    #[test]
    fn tuple_positions_pattern_properties_and_negations() {
        // The first position takes any string; `items` is the rest.
        let tuple = json!({"type": "object", "properties": {"t": {
            "type": "array", "prefixItems": [{"type": "string"}], "items": {"enum": ["A"]}
        }}});
        assert_eq!(
            fold_enum_case(&tuple, r#"{"t":["a","a"]}"#).as_deref(),
            Some(r#"{"t":["a","A"]}"#)
        );
        let draft7 = json!({"type": "object", "properties": {"t": {
            "type": "array", "items": [{"enum": ["A"]}, {"type": "string"}]
        }}});
        assert_eq!(
            fold_enum_case(&draft7, r#"{"t":["a","a","a"]}"#).as_deref(),
            Some(r#"{"t":["A","a","a"]}"#)
        );
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
        // A branch that takes any member, or the schema `true`, takes the
        // text as written.
        let union = json!({"type": "object", "properties": {"q": {"anyOf": [
            {"type": "object", "properties": {"kind": {"enum": ["Circle"]}}, "additionalProperties": false},
            {"type": "object", "additionalProperties": {"type": "string"}}
        ]}}});
        assert_eq!(fold_enum_case(&union, r#"{"q":{"kind":"circle"}}"#), None);
        let any =
            json!({"type": "object", "properties": {"q": {"anyOf": [{"enum": ["Circle"]}, true]}}});
        assert_eq!(fold_enum_case(&any, r#"{"q":"circle"}"#), None);
    }

    #[test]
    fn text_that_is_not_json_is_left_alone() {
        let schema = json!({"type": "object", "properties": {"s": {"enum": ["fast"]}}});
        for text in [
            r#"{"s":"FAST","n":-}"#,
            r#"{"s":"FAST","n":tru}"#,
            r#"{"s":"FAST","n":1-2}"#,
            r#"{"s":"FAST","n":01}"#,
            r#"{"s":"FAST","n":1.}"#,
            r#"{"s":"FAST","n":1e}"#,
        ] {
            assert_eq!(fold_enum_case(&schema, text), None, "{text}");
        }
        assert_eq!(
            fold_enum_case(&schema, r#"{"s":"FAST","n":[-0.5e+3,true,false,null]}"#).as_deref(),
            Some(r#"{"s":"fast","n":[-0.5e+3,true,false,null]}"#)
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
