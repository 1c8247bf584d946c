//! The strict compiler on schemas that schemars 1.x derives for common serde
//! shapes (tagged enums, flattening, recursion, numbers with formats), and a
//! cross-check: what serde writes for such values, the compiled schema
//! accepts.

use crate::support;

use std::collections::HashMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_contract::openai::{StrictRule, check_strict_schema, to_strict_json_schema};

/// The schema schemars derives for `T` with the project's settings.
fn schema_of<T: JsonSchema>() -> Value {
    tool_contract::contract::schema_settings()
        .for_deserialize()
        .into_generator()
        .root_schema_for::<T>()
        .to_value()
}

/// Compiles, and asserts the strict rules and that compiling again changes
/// nothing.
fn compile(schema: &Value) -> Value {
    let compiled = to_strict_json_schema(schema).unwrap();
    assert_eq!(check_strict_schema(&compiled), Ok(()));
    assert_eq!(to_strict_json_schema(&compiled).unwrap(), compiled);
    compiled
}

/// A shape to draw.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Shape {
    /// A circle.
    Circle { radius: f64 },
    /// A rectangle.
    Rect { width: u32, height: u32 },
}

/// How the drawing is paid for.
#[derive(Serialize, Deserialize, JsonSchema)]
pub enum Payment {
    Card { last4: String },
    Cash(u64),
    Free,
}

/// A numeric or textual id.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Id {
    Num(i64),
    Text(String),
}

/// An adjacently tagged value.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    A(String),
    B { x: bool },
}

/// A color.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    Red,
    Green,
}

/// Paging fields.
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct Paging {
    pub limit: u8,
    #[serde(default)]
    pub offset: u64,
}

/// A drawing.
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct Drawing {
    /// Shapes.
    pub shapes: Vec<Shape>,
    pub payment: Option<Payment>,
    pub id: Id,
    pub adjacent: Adjacent,
    pub color: Option<Color>,
    #[schemars(length(min = 1, max = 20))]
    pub title: String,
    pub tags: Option<Vec<String>>,
    pub maybe: Vec<Option<i32>>,
    #[serde(flatten)]
    pub paging: Paging,
}

#[test]
fn serde_enums_flattening_and_options_compile() {
    let compiled = compile(&schema_of::<Drawing>());
    support::golden("schemars_drawing.json", &compiled);
    assert_eq!(
        compiled["properties"]["title"],
        json!({"description": "Between 1 and 20 characters.", "type": "string"})
    );
    assert_eq!(
        compiled["$defs"]["Shape"]["anyOf"][0],
        json!({
            "type": "object",
            "properties": {"kind": {"type": "string", "const": "circle"}, "radius": {"type": "number"}},
            "required": ["kind", "radius"],
            "description": "A circle.",
            "additionalProperties": false
        })
    );
}

#[test]
fn what_serde_writes_the_compiled_schema_accepts() {
    let validator = jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&compile(&schema_of::<Drawing>()))
        .unwrap();
    let drawings = [
        Drawing {
            shapes: vec![
                Shape::Circle { radius: 1.5 },
                Shape::Rect {
                    width: 2,
                    height: 3,
                },
            ],
            payment: Some(Payment::Card {
                last4: "4242".into(),
            }),
            id: Id::Num(-7),
            adjacent: Adjacent::B { x: true },
            color: Some(Color::Green),
            title: "Plan".into(),
            tags: Some(vec!["a".into()]),
            maybe: vec![Some(1), None],
            paging: Paging {
                limit: 10,
                offset: 20,
            },
        },
        Drawing {
            shapes: vec![],
            payment: None,
            id: Id::Text("x-1".into()),
            adjacent: Adjacent::A("a".into()),
            color: None,
            title: "T".into(),
            tags: None,
            maybe: vec![],
            paging: Paging {
                limit: 0,
                offset: 0,
            },
        },
        Drawing {
            shapes: vec![],
            payment: Some(Payment::Free),
            id: Id::Num(1),
            adjacent: Adjacent::A(String::new()),
            color: Some(Color::Red),
            title: "T".into(),
            tags: None,
            maybe: vec![],
            paging: Paging {
                limit: 255,
                offset: 0,
            },
        },
    ];
    for drawing in &drawings {
        let value = serde_json::to_value(drawing).unwrap();
        assert!(validator.is_valid(&value), "{value}");
    }
    // And the compiled schema still rejects what serde would not read.
    let mut wrong = serde_json::to_value(&drawings[0]).unwrap();
    wrong["shapes"][0]["kind"] = json!("triangle");
    assert!(!validator.is_valid(&wrong));
    let mut missing = serde_json::to_value(&drawings[0]).unwrap();
    missing.as_object_mut().unwrap().remove("offset");
    assert!(!validator.is_valid(&missing));
}

/// A tree of labels.
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct Tree {
    pub label: String,
    pub children: Vec<Tree>,
    pub parent: Option<Box<Tree>>,
}

#[test]
fn a_recursive_struct_keeps_its_root_references() {
    assert_eq!(
        compile(&schema_of::<Tree>()),
        json!({
            "type": "object",
            "properties": {
                "label": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#"}},
                "parent": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}
            },
            "required": ["label", "children", "parent"],
            "description": "A tree of labels.",
            "additionalProperties": false
        })
    );
}

/// Labels by name.
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct WithMap {
    pub labels: HashMap<String, u32>,
}

/// Anything at all.
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct WithValue {
    pub extra: Value,
}

/// A pair.
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct WithTuple {
    pub pair: (u32, String),
}

#[test]
fn maps_any_values_and_tuples_are_refused_at_their_path() {
    let refused = |schema: Value| {
        let error = to_strict_json_schema(&schema).unwrap_err();
        (error.path().to_owned(), error.rule())
    };
    assert_eq!(
        refused(schema_of::<WithMap>()),
        (
            "#/properties/labels/additionalProperties".to_owned(),
            StrictRule::OpenObject
        )
    );
    assert_eq!(
        refused(schema_of::<WithValue>()),
        ("#/properties/extra".to_owned(), StrictRule::AnyValue)
    );
    assert_eq!(
        refused(schema_of::<WithTuple>()),
        (
            "#/properties/pair/prefixItems".to_owned(),
            StrictRule::Tuple
        )
    );
}
