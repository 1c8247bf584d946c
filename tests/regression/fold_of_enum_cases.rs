//! Attacks on the one-pass enum-case fold
//! (`tool-core/src/parse/fold.rs`): a string is folded only when no schema
//! at its place takes it as written and exactly one allowed value matches
//! it ignoring case; every other byte stays as written; `None` when the
//! text is not JSON; the work grows with text plus schema, not their
//! product.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tool_contract::{EnumCase, Session, Tool};
use tool_core::parse::fold_enum_case;

/// Counts this thread's allocations, to measure the fold's work without
/// timing it.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_of(work: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    work();
    ALLOCATIONS.with(Cell::get) - before
}

/// A kind of shape.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
enum Kind {
    /// Round.
    Circle,
    /// Four sides.
    Square,
}

/// A filter: by a known kind, or any free-form value.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Filter {
    /// A known kind.
    Known(Kind),
    /// Anything else, kept as written.
    Other(Value),
}

/// Lists the shapes in the drawing that match a filter, with their ids.
#[derive(Debug, PartialEq, Tool)]
#[tool(effect = "read")]
struct FindShapes {
    /// A kind such as Circle, or any other value to match as written.
    filter: Filter,
}

/// Break (wrong fold, `true` schema): a union branch that is the schema
/// `true` (as a tool's hand-written or MCP schema may have: "any value")
/// takes `"CIRCLE"` as written, but the fold skips every non-object schema
/// when it gathers a place's alternatives (`alternatives`,
/// `schema.as_object() else continue`), judges the enum the only reading
/// and rewrites `"CIRCLE"` to `"Circle"`. The same for a member that
/// another branch describes by `true`. (A derived `Value` variant carries
/// a description, so it is an object schema and held.)
#[test]
fn a_true_branch_takes_the_string_as_written() {
    let schema = json!({"type": "object", "properties": {"filter": {"anyOf": [
        {"enum": ["Circle", "Square"]},
        true
    ]}}});
    assert_eq!(fold_enum_case(&schema, r#"{"filter":"CIRCLE"}"#), None);
    let member = json!({"type": "object", "properties": {"q": {"anyOf": [
        {"type": "object", "properties": {"kind": {"const": "Circle"}}},
        {"type": "object", "properties": {"kind": true}}
    ]}}});
    assert_eq!(fold_enum_case(&member, r#"{"q":{"kind":"circle"}}"#), None);
    // The derived form holds: the `Value` branch is `{"description": ...}`.
    let derived = FindShapes::from_arguments_with(
        r#"{"filter":"CIRCLE"}"#,
        &Session::new(),
        EnumCase::Insensitive,
    )
    .unwrap();
    assert_eq!(derived.filter, Filter::Other(json!("CIRCLE")));
}

/// Search by kind or by free-form labels.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Query {
    /// By kind.
    ByKind {
        /// The kind.
        kind: Kind,
    },
    /// By free-form labels.
    Labels(BTreeMap<String, String>),
}

/// Lists the shapes whose kind or labels match the query, with their ids.
#[derive(Debug, PartialEq, Tool)]
#[tool(effect = "read")]
struct SearchShapes {
    /// A kind such as Circle, or labels to match, e.g. {"layer": "top"}.
    query: Query,
}

/// Break (wrong fold, `additionalProperties`): the `Labels` branch takes
/// `{"kind":"circle"}` as written (any key, any string), but the fold
/// looks at `additionalProperties` only when no alternative lists the key
/// in `properties` (`Place::member`), so `ByKind`'s `kind` is the only
/// schema it sees and `"circle"` is rewritten: `Labels({kind: circle})`
/// becomes `ByKind { kind: Circle }`.
#[test]
fn an_additional_properties_branch_takes_the_member_as_written() {
    let schema = SearchShapes::input_schema();
    let text = r#"{"query":{"kind":"circle"}}"#;
    assert_eq!(fold_enum_case(schema, text), None, "schema: {schema}");
    let exact = SearchShapes::from_arguments(text, &Session::new()).unwrap();
    let labels = BTreeMap::from([("kind".to_owned(), "circle".to_owned())]);
    assert_eq!(exact.query, Query::Labels(labels.clone()));
    let folded =
        SearchShapes::from_arguments_with(text, &Session::new(), EnumCase::Insensitive).unwrap();
    assert_eq!(folded.query, Query::Labels(labels));
}

/// The same with a hand-written union where the other branch sets no
/// member schema at all (an object schema with no `properties` takes any
/// member).
#[test]
fn a_branch_without_properties_takes_the_member_as_written() {
    let schema = json!({"type": "object", "properties": {"q": {"anyOf": [
        {"type": "object", "properties": {"kind": {"const": "Circle"}}, "required": ["kind"]},
        {"type": "object"}
    ]}}});
    assert_eq!(fold_enum_case(&schema, r#"{"q":{"kind":"circle"}}"#), None);
}

/// Break (wrong fold, `prefixItems`): in draft 2020-12, `items` describes
/// only the elements after `prefixItems`; the fold applies `items` to
/// every element (`Place::items`), so the first element, a free string,
/// is rewritten too.
#[test]
fn items_after_prefix_items_describe_only_the_rest() {
    let schema = json!({"type": "object", "properties": {"pair": {
        "type": "array",
        "prefixItems": [{"type": "string"}],
        "items": {"enum": ["Abc"]}
    }}});
    assert_eq!(
        fold_enum_case(&schema, r#"{"pair":["abc","ABC"]}"#).as_deref(),
        Some(r#"{"pair":["abc","Abc"]}"#)
    );
}

/// How fast to ship.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Speed {
    /// Next day.
    Fast,
    /// Within a week.
    Slow,
}

/// Books a courier for one labelled parcel and returns the tracking number.
#[derive(Debug, PartialEq, Tool)]
#[tool(effect = "write", idempotent = false)]
struct ShipLabelled {
    /// The label printed on the parcel and the delivery speed, e.g. ["box 1", "fast"].
    parcel: (String, Speed),
}

/// Missed fold (tuples): a derived tuple is `prefixItems`, which the fold
/// never reads, so a mis-cased enum in a tuple is refused where the same
/// enum in a struct field is folded.
#[test]
fn an_enum_inside_a_tuple_is_folded() {
    let call = ShipLabelled::from_arguments_with(
        r#"{"parcel":["box 1","FAST"]}"#,
        &Session::new(),
        EnumCase::Insensitive,
    )
    .map_err(|e| e.to_string())
    .unwrap();
    assert_eq!(call.parcel, ("box 1".to_owned(), Speed::Fast));
}

/// Break (promise: `None` when the text is not JSON): the scanner's
/// `scalar` takes any run of `[0-9a-z+-.eE]`, so `-`, `tru` or `1-2` pass,
/// and a folded text is returned that is not JSON.
#[test]
fn text_that_is_not_json_is_not_folded() {
    let schema = json!({"type": "object", "properties": {
        "speed": {"enum": ["fast", "slow"]}, "n": {"type": "number"}
    }});
    for text in [
        r#"{"speed":"FAST","n":-}"#,
        r#"{"speed":"FAST","n":tru}"#,
        r#"{"speed":"FAST","n":1-2}"#,
        r#"{"speed":"FAST","n":nan}"#,
    ] {
        let folded = fold_enum_case(&schema, text);
        if let Some(folded) = &folded {
            assert!(
                serde_json::from_str::<Value>(folded).is_ok(),
                "{text} folded to non-JSON {folded}"
            );
        }
        assert_eq!(folded, None, "{text}");
    }
}

fn countries_schema(variants: usize, map: bool) -> Value {
    let variants: Vec<Value> = (0..variants)
        .map(|n| json!({"const": format!("C{n:04}"), "description": format!("Country {n}.")}))
        .collect();
    let holder = if map {
        json!({"type": "object", "additionalProperties": {"$ref": "#/$defs/Country"}})
    } else {
        json!({"type": "array", "items": {"$ref": "#/$defs/Country"}})
    };
    json!({"type": "object", "properties": {"by_site": holder},
        "$defs": {"Country": {"oneOf": variants}}})
}

/// Break (linear work): a `HashMap<String, Country>` field is
/// `additionalProperties`; `Place::member` builds a new place for every
/// distinct key, each gathering the whole `oneOf` and lower-casing every
/// allowed value again: keys x variants work, as the list form was before
/// its fix. Counted in allocations: the same 2,000 values of a
/// 1,000-value enum cost about as much in a list as in a map, and the
/// map's cost grows with the schema only once.
#[test]
fn a_map_of_a_large_enum_is_folded_in_linear_work() {
    let n = 2_000;
    let list_text = format!(
        "{{\"by_site\":[{}]}}",
        (0..n)
            .map(|i| format!("\"c{:04}\"", i % 1_000))
            .collect::<Vec<_>>()
            .join(",")
    );
    let map_text = format!(
        "{{\"by_site\":{{{}}}}}",
        (0..n)
            .map(|i| format!("\"site{i}\":\"c{:04}\"", i % 1_000))
            .collect::<Vec<_>>()
            .join(",")
    );
    let list_schema = countries_schema(1_000, false);
    let map_schema = countries_schema(1_000, true);
    let mut list_folded = None;
    let list = allocations_of(|| list_folded = fold_enum_case(&list_schema, &list_text));
    let mut map_folded = None;
    let map = allocations_of(|| map_folded = fold_enum_case(&map_schema, &map_text));
    assert_eq!(list_folded, Some(list_text.replace("\"c", "\"C")));
    assert_eq!(map_folded, Some(map_text.replace(":\"c", ":\"C")));
    // Keys cost an allocation or two each beyond the list's values.
    assert!(
        map <= 2 * list + 4 * n,
        "map fold: {map} allocations, list fold: {list}"
    );
}

/// Definitions `L0`..`L{depth}`: each level an object with two members
/// `a` and `b` naming the next level; the last level holds `country`, a
/// documented enum of `variants` values. No recursion, no maps: a schema
/// strict tool use compiles (shared `$ref`s stay bare).
fn shared_levels(depth: usize, variants: usize) -> Value {
    let mut defs = serde_json::Map::new();
    for level in 0..depth {
        let next = format!("#/$defs/L{}", level + 1);
        defs.insert(
            format!("L{level}"),
            json!({"type": "object", "properties": {"a": {"$ref": next}, "b": {"$ref": next}},
                "required": ["a", "b"]}),
        );
    }
    defs.insert(
        format!("L{depth}"),
        json!({"type": "object", "properties": {"country": {"$ref": "#/$defs/Country"}},
            "required": ["country"]}),
    );
    let countries: Vec<Value> = (0..variants)
        .map(|n| json!({"const": format!("C{n:04}"), "description": format!("Country {n}.")}))
        .collect();
    defs.insert("Country".to_owned(), json!({"oneOf": countries}));
    json!({"type": "object", "properties": {"tree": {"$ref": "#/$defs/L0"}},
        "required": ["tree"], "$defs": defs})
}

fn tree_text(depth: usize, leaf: &mut usize) -> String {
    if depth == 0 {
        *leaf += 1;
        return format!("{{\"country\":\"c{:04}\"}}", *leaf % 1_000);
    }
    let a = tree_text(depth - 1, leaf);
    let b = tree_text(depth - 1, leaf);
    format!("{{\"a\":{a},\"b\":{b}}}")
}

/// Break (linear work, no maps): the places the fold memoizes are places
/// of the TEXT (one per member path), not of the schema: `Place::member`
/// builds a new place for each distinct member path, so a schema whose
/// definitions are shared by several members (`a` and `b` both name the
/// next level, 9 definitions in all) gives each of the text's 256 leaf
/// paths its own `country` place, each gathering the 1,000-value `oneOf`
/// and lower-casing every value again: leaves x variants work, though the
/// schema has one `country` place. Counted in allocations against the same
/// 256 values in one list.
#[test]
fn shared_definitions_are_gathered_once_not_once_per_path() {
    let depth = 8;
    let schema = shared_levels(depth, 1_000);
    let mut leaves = 0;
    let text = format!("{{\"tree\":{}}}", tree_text(depth, &mut leaves));
    assert_eq!(leaves, 256);
    // Strict tool use takes the schema: its calls are folded.
    let strict = tool_anthropic::to_strict_input_schema(&schema).map_err(|e| e.to_string());
    assert!(strict.is_ok(), "{strict:?}");
    let list_schema = countries_schema(1_000, false);
    let list_text = format!(
        "{{\"by_site\":[{}]}}",
        (1..=leaves)
            .map(|i| format!("\"c{:04}\"", i % 1_000))
            .collect::<Vec<_>>()
            .join(",")
    );
    let mut folded = None;
    let tree = allocations_of(|| folded = fold_enum_case(&schema, &text));
    let list = allocations_of(|| {
        fold_enum_case(&list_schema, &list_text);
    });
    assert_eq!(folded, Some(text.replace(":\"c", ":\"C")));
    // 511 objects of two keys each on top of the list's work.
    assert!(
        tree <= 2 * list + 20 * 511,
        "tree fold: {tree} allocations, list fold: {list}"
    );
}
