//! OpenAI's per-request limits across a tool set: a set just inside each
//! limit passes, a set just outside is refused, naming the limit, the total
//! and the tools that spend it.
//!
//! The limits (docs/providers.md, "OpenAI strict mode", from the Structured
//! Outputs guide "Supported schemas"): 5000 object properties, 10 levels of
//! nesting (root 0; each property, `items`, `anyOf` branch and `$defs` entry
//! adds one), 1000 enum values, 120,000 characters of property names,
//! definition names, enum values and const values.

use serde_json::{Map, Value, json};
use tool_openai::{BudgetLimit, OverBudget, SchemaUsage, check_budget, schema_usage};

/// A closed root object with `n` string properties named `name(i)`.
fn with_properties(n: usize, name: impl Fn(usize) -> String) -> Value {
    let properties: Map<String, Value> = (0..n)
        .map(|i| (name(i), json!({"type": "string"})))
        .collect();
    let required: Vec<String> = (0..n).map(name).collect();
    json!({"type": "object", "properties": properties, "required": required,
           "additionalProperties": false})
}

/// Objects nested `levels` deep through a property `a`.
fn nested(levels: usize) -> Value {
    let mut schema = json!({"type": "string"});
    for _ in 0..levels {
        schema = json!({"type": "object", "properties": {"a": schema}, "required": ["a"],
                        "additionalProperties": false});
    }
    schema
}

/// A root with one enum property `p` of `n` one-character-or-more values.
fn with_enum(n: usize) -> Value {
    let values: Vec<String> = (0..n).map(|i| format!("{i}")).collect();
    json!({"type": "object", "properties": {"p": {"type": "string", "enum": values}},
           "required": ["p"], "additionalProperties": false})
}

/// A limit, what the set spends, and the tools that spend it.
type Over = (BudgetLimit, usize, Vec<(String, usize)>);

/// Each limit the set is over; its `max` is the limit's value, always.
fn over(error: &tool_openai::BudgetError) -> Vec<Over> {
    error
        .over
        .iter()
        .map(
            |OverBudget {
                 limit,
                 spent,
                 max,
                 tools,
                 detail: (),
             }| {
                assert_eq!(*max, limit.max(), "{limit:?}");
                (*limit, *spent, tools.clone())
            },
        )
        .collect()
}

fn tools(list: &[(&str, usize)]) -> Vec<(String, usize)> {
    list.iter().map(|(n, s)| ((*n).to_owned(), *s)).collect()
}

#[test]
fn properties_add_up_across_tools_to_at_most_5000() {
    let a = with_properties(2500, |i| format!("a{i}"));
    let b = with_properties(2500, |i| format!("b{i}"));
    let usage = check_budget([("tool_a", &a), ("tool_b", &b)]).unwrap();
    assert_eq!(usage.properties, 5000);

    let c = with_properties(2501, |i| format!("c{i}"));
    let error = check_budget([("tool_a", &a), ("tool_c", &c)]).unwrap_err();
    assert_eq!(
        over(&error),
        [(
            BudgetLimit::Properties,
            5001,
            tools(&[("tool_c", 2501), ("tool_a", 2500)])
        )]
    );
    assert_eq!(
        error.to_string(),
        "the tool set is over OpenAI's per-request limits: 5001 object properties (at most \
         5000), from `tool_c` 2501, `tool_a` 2500; offer fewer tools per request or shrink the \
         largest ones"
    );
}

#[test]
fn nesting_is_at_most_10_levels_in_every_tool() {
    let deep = nested(10);
    let flat = nested(1);
    let usage = check_budget([("deep", &deep), ("flat", &flat)]).unwrap();
    assert_eq!(usage.nesting, 10);

    let too_deep = nested(11);
    let error =
        check_budget([("flat", &flat), ("too_deep", &too_deep), ("deep", &deep)]).unwrap_err();
    // Only the tool over the limit is named; the deepest level is the total.
    assert_eq!(
        over(&error),
        [(BudgetLimit::Nesting, 11, tools(&[("too_deep", 11)]))]
    );
}

#[test]
fn items_any_of_and_defs_each_add_a_level() {
    let schema = json!({
        "type": "object",
        "properties": {"list": {"type": "array", "items": {"anyOf": [
            {"type": "string"}, {"$ref": "#/$defs/Item"}
        ]}}},
        "$defs": {"Item": {"type": "object", "properties": {"x": {"type": "integer", "const": 12}},
                  "required": ["x"], "additionalProperties": false}},
        "required": ["list"], "additionalProperties": false
    });
    // list 1, items 2, anyOf branch 3; $defs/Item 1, x 2.
    // Characters: "list" 4 + "x" 1 + "Item" 4 + const 12 as "12" 2.
    assert_eq!(
        schema_usage(&schema),
        SchemaUsage {
            properties: 2,
            nesting: 3,
            enum_values: 0,
            characters: 11
        }
    );
}

#[test]
fn enum_values_add_up_across_tools_to_at_most_1000() {
    let a = with_enum(500);
    assert!(check_budget([("pick_a", &a), ("pick_b", &a)]).is_ok());

    let c = with_enum(501);
    let error = check_budget([("pick_a", &a), ("pick_c", &c)]).unwrap_err();
    assert_eq!(
        over(&error),
        [(
            BudgetLimit::EnumValues,
            1001,
            tools(&[("pick_c", 501), ("pick_a", 500)])
        )]
    );
}

#[test]
fn characters_add_up_across_tools_to_at_most_120000() {
    // 1000 property names of 60 characters each: 60,000 per tool.
    let name = |prefix: char| move |i: usize| format!("{prefix}{i:059}");
    let a = with_properties(1000, name('a'));
    let b = with_properties(1000, name('b'));
    assert_eq!(schema_usage(&a).characters, 60_000);
    let usage = check_budget([("tool_a", &a), ("tool_b", &b)]).unwrap();
    assert_eq!(usage.characters, 120_000);

    // One more character: a property name of one character in a third tool.
    let d = json!({"type": "object", "properties": {"k": {"type": "string", "const": ""}},
                   "required": ["k"], "additionalProperties": false});
    let error = check_budget([("tool_a", &a), ("tool_b", &b), ("tool_d", &d)]).unwrap_err();
    assert_eq!(
        over(&error),
        [(
            BudgetLimit::Characters,
            120_001,
            tools(&[("tool_a", 60_000), ("tool_b", 60_000), ("tool_d", 1)])
        )]
    );
}

#[test]
fn every_limit_over_is_reported_at_once() {
    let values: Vec<String> = (0..1001).map(|i| format!("{i:0120}")).collect();
    let big = json!({"type": "object", "properties": {"p": {"type": "string", "enum": values}},
                     "required": ["p"], "additionalProperties": false});
    let error = check_budget([("huge_enum", &big)]).unwrap_err();
    let limits: Vec<(BudgetLimit, usize)> = error.over.iter().map(|o| (o.limit, o.spent)).collect();
    // 1001 values of 120 characters and the property name `p`.
    assert_eq!(
        limits,
        [
            (BudgetLimit::EnumValues, 1001),
            (BudgetLimit::Characters, 120_121)
        ]
    );
}

#[test]
fn an_empty_set_spends_nothing() {
    assert_eq!(
        check_budget(std::iter::empty::<(&str, &Value)>()),
        Ok(SchemaUsage::default())
    );
}

#[test]
fn hostile_depth_is_counted_without_recursion() {
    // 100,000 levels: counting is iterative, so the stack stays flat.
    // Built by hand: `json!` serializes an inner `Value`, which recurses.
    let mut schema = json!({"type": "string"});
    for _ in 0..100_000 {
        let mut map = Map::new();
        map.insert("type".to_owned(), json!("array"));
        map.insert("items".to_owned(), schema);
        schema = Value::Object(map);
    }
    let error = check_budget([("deep", &schema)]).unwrap_err();
    assert_eq!(
        over(&error),
        [(BudgetLimit::Nesting, 100_000, tools(&[("deep", 100_000)]))]
    );
    // Dropping a value this deep recurses in serde_json; leak it instead.
    std::mem::forget(schema);
}
