//! Lists of unchecked strings or booleans (no item counts, no item checks):
//! what is accepted, and every message and path. The exact path once handed
//! such lists to serde whole, trusting the Rust type to be what the schema
//! says; since the fast reader (and tests/regression/fast_reader.rs) every value is
//! walked again, and these answers did not change.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tool_contract::{Session, Tool};

/// A label group of a parcel.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
pub struct Labels {
    /// Labels printed on the parcel.
    pub printed: Vec<String>,
    /// Rows of labels, each printed on one line.
    pub rows: Vec<Vec<String>>,
    /// Which sides are fragile.
    pub fragile: Option<Vec<bool>>,
}

/// Label a parcel before it ships.
#[derive(Debug, Tool)]
pub struct LabelParcel {
    /// Labels the customer gave the parcel.
    pub tags: Vec<String>,
    /// Extra labels, null for none.
    pub extra: Option<Vec<String>>,
    /// The label groups.
    pub groups: Vec<Labels>,
}

fn parse(document: &Value) -> Result<LabelParcel, String> {
    LabelParcel::from_arguments(&document.to_string(), &Session::new()).map_err(|e| e.to_string())
}

fn valid() -> Value {
    json!({
        "tags": ["a", "b"],
        "extra": null,
        "groups": [{"printed": ["x"], "rows": [["r1", "r2"], []], "fragile": [true, false]}]
    })
}

#[test]
fn lists_of_unchecked_values_are_read_whole() {
    let tool = parse(&valid()).unwrap();
    assert_eq!(tool.tags, vec!["a".to_owned(), "b".to_owned()]);
    assert_eq!(tool.extra, None);
    assert_eq!(
        tool.groups,
        vec![Labels {
            printed: vec!["x".to_owned()],
            rows: vec![vec!["r1".to_owned(), "r2".to_owned()], vec![]],
            fragile: Some(vec![true, false]),
        }]
    );
    let mut document = valid();
    document["extra"] = json!(["c"]);
    document["groups"][0]["fragile"] = Value::Null;
    let tool = parse(&document).unwrap();
    assert_eq!(tool.extra, Some(vec!["c".to_owned()]));
    assert_eq!(tool.groups[0].fragile, None);
}

#[test]
fn a_wrong_item_or_list_keeps_its_path_and_message() {
    let cases = [
        (
            json!({"tags": ["a", 5]}),
            "$.tags[1]: expected a string, got the integer 5",
        ),
        (
            json!({"tags": "a"}),
            "$.tags: expected an array, got the string \"a\"",
        ),
        (
            json!({"extra": [null]}),
            "$.extra[0]: expected a string, got null",
        ),
        (
            json!({"groups": [{"printed": [], "rows": [["r", 1]], "fragile": null}]}),
            "$.groups[0].rows[0][1]: expected a string, got the integer 1",
        ),
        (
            json!({"groups": [{"printed": [], "rows": [], "fragile": ["yes"]}]}),
            "$.groups[0].fragile[0]: expected a boolean, got the string \"yes\"",
        ),
        (
            json!({"groups": [{"printed": {"a": 1}, "rows": [], "fragile": null}]}),
            "$.groups[0].printed: expected an array, got an object",
        ),
    ];
    let mut wrong = Vec::new();
    for (patch, expected) in cases {
        let mut document = valid();
        for (key, value) in patch.as_object().unwrap() {
            document[key] = value.clone();
        }
        let got = parse(&document).map(|_| ()).unwrap_err();
        if got != expected {
            wrong.push(format!("{patch}: got {got:?}, expected {expected:?}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
