//! Anthropic's per-request limits across all strict tools, checked when a
//! tool set is built (structured-outputs guide, "Schema complexity limits":
//! 20 strict tools, 24 optional parameters, 16 parameters with `anyOf` or a
//! type array), at and over each limit, and sets that fit only by making
//! `Option` fields required and nullable.
//!
//! The 400 these checks prevent: "Schemas contains too many parameters with
//! union types (23 parameters with type arrays or anyOf) which exceeds the
//! limit: 16".

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tool_contract::anthropic::{Limit, NullablePlan, OverBudget, ToolSet, ToolSetError, Usage};
use tool_contract::{Session, Tool, ToolCall, ToolContract};

/// How fast to ship.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Speed {
    /// Within a week.
    Standard,
    /// Next day.
    Express,
}

macro_rules! plain_tools {
    ($($name:ident)*) => {$(
        /// Get the status of one of the shop's background jobs.
        #[derive(Debug, Tool)]
        #[allow(dead_code)]
        struct $name {}
    )*};
}
plain_tools!(GetJob01 GetJob02 GetJob03 GetJob04 GetJob05 GetJob06 GetJob07 GetJob08 GetJob09 GetJob10
    GetJob11 GetJob12 GetJob13 GetJob14 GetJob15 GetJob16 GetJob17 GetJob18 GetJob19 GetJob20 GetJob21);

macro_rules! optional_tools {
    ($($name:ident)*) => {$(
        /// Find products in the catalog by optional filters.
        #[derive(Debug, Tool)]
        #[allow(dead_code)]
        struct $name {
            /// Color to match, e.g. "blue"; null for any.
            color: Option<String>,
            /// Size to match, e.g. "XL"; null for any.
            size: Option<String>,
            /// Brand to match, e.g. "Acme"; null for any.
            brand: Option<String>,
            /// Material to match, e.g. "wool"; null for any.
            material: Option<String>,
            /// Season to match, e.g. "winter"; null for any.
            season: Option<String>,
        }
    )*};
}
optional_tools!(FindProducts1 FindProducts2 FindProducts3 FindProducts4 FindProducts5 FindProducts6);

macro_rules! union_tools {
    ($($name:ident)*) => {$(
        /// Get the shipping price for a delivery speed.
        #[derive(Debug, Tool)]
        #[allow(dead_code)]
        struct $name {
            /// The delivery speed to price.
            speed: Speed,
        }
    )*};
}
union_tools!(GetPrice01 GetPrice02 GetPrice03 GetPrice04 GetPrice05 GetPrice06 GetPrice07 GetPrice08
    GetPrice09 GetPrice10 GetPrice11 GetPrice12 GetPrice13 GetPrice14 GetPrice15 GetPrice16 GetPrice17);

/// Get shipping quotes for up to four parcels, each at an optional speed.
#[derive(Debug, Tool)]
#[allow(dead_code)]
struct GetQuotes {
    /// Speed of the first parcel; null for the cheapest.
    first: Option<Speed>,
    /// Speed of the second parcel; null for the cheapest.
    second: Option<Speed>,
    /// Speed of the third parcel; null for the cheapest.
    third: Option<Speed>,
    /// Speed of the fourth parcel; null for the cheapest.
    fourth: Option<Speed>,
}

fn jobs() -> Vec<&'static ToolContract> {
    vec![
        GetJob01::contract(),
        GetJob02::contract(),
        GetJob03::contract(),
        GetJob04::contract(),
        GetJob05::contract(),
        GetJob06::contract(),
        GetJob07::contract(),
        GetJob08::contract(),
        GetJob09::contract(),
        GetJob10::contract(),
        GetJob11::contract(),
        GetJob12::contract(),
        GetJob13::contract(),
        GetJob14::contract(),
        GetJob15::contract(),
        GetJob16::contract(),
        GetJob17::contract(),
        GetJob18::contract(),
        GetJob19::contract(),
        GetJob20::contract(),
        GetJob21::contract(),
    ]
}

fn finders() -> Vec<&'static ToolContract> {
    vec![
        FindProducts1::contract(),
        FindProducts2::contract(),
        FindProducts3::contract(),
        FindProducts4::contract(),
        FindProducts5::contract(),
        FindProducts6::contract(),
    ]
}

fn prices() -> Vec<&'static ToolContract> {
    vec![
        GetPrice01::contract(),
        GetPrice02::contract(),
        GetPrice03::contract(),
        GetPrice04::contract(),
        GetPrice05::contract(),
        GetPrice06::contract(),
        GetPrice07::contract(),
        GetPrice08::contract(),
        GetPrice09::contract(),
        GetPrice10::contract(),
        GetPrice11::contract(),
        GetPrice12::contract(),
        GetPrice13::contract(),
        GetPrice14::contract(),
        GetPrice15::contract(),
        GetPrice16::contract(),
        GetPrice17::contract(),
    ]
}

fn usage(strict_tools: usize, optional_parameters: usize, union_parameters: usize) -> Usage {
    Usage {
        strict_tools,
        optional_parameters,
        union_parameters,
    }
}

/// The one limit a set is over (the planner stops at the first), and the
/// error's message.
fn budget_error(result: Result<ToolSet, ToolSetError>) -> (OverBudget, String) {
    match result {
        Err(ToolSetError::Budget(error)) => {
            assert_eq!(error.over.len(), 1, "{error}");
            (error.over[0].clone(), error.to_string())
        }
        other => panic!("expected a budget error, got {other:?}"),
    }
}

/// The fields (or tools) that spend a limit, each spending 1.
fn spending(over: &OverBudget) -> Vec<&str> {
    assert!(over.tools.iter().all(|(_, spent)| *spent == 1), "{over:?}");
    over.tools.iter().map(|(name, _)| name.as_str()).collect()
}

#[test]
fn twenty_strict_tools_fit_and_twenty_one_do_not() {
    let jobs = jobs();
    let set = ToolSet::new(&jobs[..20]).unwrap();
    assert_eq!(set.usage(), usage(20, 0, 0));
    let (over, error) = budget_error(ToolSet::new(&jobs));
    assert_eq!(
        (over.limit, over.spent, over.max, over.detail),
        (Limit::StrictTools, 21, 20, None)
    );
    assert_eq!(spending(&over).len(), 21);
    assert_eq!(spending(&over)[20], "get_job21");
    assert!(
        error.starts_with("21 strict tools in one request; Anthropic takes at most 20"),
        "{error}"
    );
    assert!(
        error.ends_with("offer get_job21 with `strict: false` or in another request"),
        "{error}"
    );
    // Non-strict tools don't count toward this limit.
    let set = ToolSet::with_non_strict(&jobs[..20], &jobs[20..]).unwrap();
    assert_eq!(set.usage(), usage(20, 0, 0));
    assert_eq!(set.definitions()[20]["strict"], false);
}

#[test]
fn twenty_four_optional_parameters_fit_as_absent() {
    let mut tools = finders()[..4].to_vec();
    tools.push(GetQuotes::contract());
    let set = ToolSet::new(&tools).unwrap();
    assert_eq!(set.usage(), usage(5, 24, 4));
    assert!(set.nullable_fields().is_empty());
    let definitions = set.definitions();
    assert_eq!(definitions[0]["input_schema"]["required"], json!([]));
    assert_eq!(
        definitions[0]["input_schema"]["properties"]["color"]["type"],
        "string"
    );
}

#[test]
fn twenty_five_fit_only_by_making_one_field_required_and_nullable() {
    let set = ToolSet::new(&finders()[..5]).unwrap();
    assert_eq!(set.nullable_fields(), ["find_products1.color"]);
    assert_eq!(set.usage(), usage(5, 24, 1));
    let schema = &set.definitions()[0]["input_schema"];
    assert_eq!(schema["required"], json!(["color"]));
    assert_eq!(
        schema["properties"]["color"]["type"],
        json!(["string", "null"])
    );
    // The model may now write null, which the parser reads as absent.
    let call = ToolCall::new("toolu_1", "find_products1", r#"{"color": null}"#);
    let parsed = call.parse::<FindProducts1>(&Session::new()).ok().unwrap();
    assert_eq!(parsed.color, None);
}

#[test]
fn fields_already_a_union_are_made_nullable_first() {
    let mut tools = finders()[..5].to_vec();
    tools.push(GetQuotes::contract());
    // 29 optional: 5 must go; the 4 of get_quotes are an anyOf already and
    // cost no union parameter, so they go first.
    let set = ToolSet::new(&tools).unwrap();
    assert_eq!(
        set.nullable_fields(),
        [
            "find_products1.color",
            "get_quotes.first",
            "get_quotes.second",
            "get_quotes.third",
            "get_quotes.fourth"
        ]
    );
    assert_eq!(set.usage(), usage(6, 24, 5));
    let quotes = &set.definitions()[5]["input_schema"];
    assert_eq!(
        quotes["required"],
        json!(["first", "second", "third", "fourth"])
    );
    assert_eq!(
        quotes["properties"]["first"]["anyOf"][2],
        json!({"type": "null"})
    );
}

#[test]
fn sixteen_union_parameters_fit_and_seventeen_do_not() {
    let prices = prices();
    let set = ToolSet::new(&prices[..16]).unwrap();
    assert_eq!(set.usage(), usage(16, 0, 16));
    let (over, error) = budget_error(ToolSet::new(&prices));
    assert_eq!(
        (over.limit, over.spent, over.max, over.detail),
        (Limit::UnionParameters, 17, 16, None)
    );
    assert_eq!(spending(&over).len(), 17);
    assert_eq!(spending(&over)[16], "get_price17.speed");
    assert!(
        error.contains("(it answers \"Schemas contains too many parameters with union types (17 parameters with type arrays or anyOf) which exceeds the limit: 16\")"),
        "{error}"
    );
}

#[test]
fn the_union_budget_bounds_the_choice() {
    let prices = prices();
    let mut tools = finders();
    // 30 optional, 10 unions: 6 fields become nullable, 16 unions: fits.
    tools.extend_from_slice(&prices[..10]);
    let set = ToolSet::new(&tools).unwrap();
    assert_eq!(set.usage(), usage(16, 24, 16));
    assert_eq!(set.nullable_fields().len(), 6);
    // 30 optional, 11 unions: only 5 can become nullable; one is over.
    let mut tools = finders();
    tools.extend_from_slice(&prices[..11]);
    let (over, error) = budget_error(ToolSet::new(&tools));
    assert_eq!(
        (over.limit, over.spent, over.max),
        (Limit::OptionalParameters, 25, 24)
    );
    assert_eq!(
        over.detail,
        Some(NullablePlan {
            option_fields: 30,
            made_nullable: 5,
            union_parameters: 11
        })
    );
    assert_eq!(spending(&over).len(), 30);
    assert_eq!(spending(&over)[0], "find_products1.color");
    assert!(
        error.starts_with(
            "the strict tools have 30 optional parameters; Anthropic takes at most 24 across all strict schemas of a request"
        ),
        "{error}"
    );
    assert!(error.contains("making 5 of the 30 `Option` fields required and nullable instead is all the 16 union parameters allow (11 already used), which leaves 1 over"), "{error}");
}
