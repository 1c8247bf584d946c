//! Anthropic's per-request limits across all strict tools (structured-outputs
//! guide, "Schema complexity limits"), counted when a tool set is built, and
//! the choice per `Option` field between "absent" and "required and
//! nullable" that makes a set fit.

use serde_json::{Map, Value, json};

use crate::compile::{OptionalField, StrictInput};
use crate::nullable::is_union;

/// Strict tools per request ("Non-strict tools don't count toward this
/// limit").
pub const MAX_STRICT_TOOLS: usize = 20;
/// Optional parameters across all strict schemas of a request ("Each
/// parameter not listed in `required` counts").
pub const MAX_OPTIONAL_PARAMETERS: usize = 24;
/// Parameters that use `anyOf` or a type array across all strict schemas of
/// a request.
pub const MAX_UNION_PARAMETERS: usize = 16;

/// What a tool set spends of each per-request limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Strict tools, of [`MAX_STRICT_TOOLS`].
    pub strict_tools: usize,
    /// Properties not listed in `required`, of [`MAX_OPTIONAL_PARAMETERS`].
    pub optional_parameters: usize,
    /// Schemas with `anyOf` or a type array, of [`MAX_UNION_PARAMETERS`].
    pub union_parameters: usize,
}

/// The limit a tool set is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limit {
    /// [`MAX_STRICT_TOOLS`].
    StrictTools,
    /// [`MAX_OPTIONAL_PARAMETERS`], with no choice of nullable fields that
    /// keeps the union budget.
    OptionalParameters,
    /// [`MAX_UNION_PARAMETERS`].
    UnionParameters,
}

/// What the planner could do before the optional parameters were still
/// over budget: the [`OverBudget::detail`](tool_core::dialect::OverBudget)
/// of [`Limit::OptionalParameters`] (`None` for the other limits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NullablePlan {
    /// The `Option` fields that could become required and nullable.
    pub option_fields: usize,
    /// How many of them the union budget let it make nullable.
    pub made_nullable: usize,
    /// The union parameters the set spent before any field was made
    /// nullable.
    pub union_parameters: usize,
}

impl tool_core::dialect::RequestLimit for Limit {
    type Detail = Option<NullablePlan>;

    /// The whole explanation of one limit, with what to do.
    fn over(over: &OverBudget) -> String {
        let names: Vec<&str> = over.tools.iter().map(|(name, _)| name.as_str()).collect();
        match over.limit {
            Limit::StrictTools => format!(
                "{} strict tools in one request; Anthropic takes at most {} (\"Strict tools per \
                 request: 20\"; non-strict tools don't count): offer {} with `strict: false` or in \
                 another request",
                over.spent,
                over.max,
                names[over.max.min(names.len())..].join(", ")
            ),
            Limit::UnionParameters => format!(
                "the strict tools have {} parameters that use `anyOf` or a type array; Anthropic \
                 takes at most {} per request (it answers \"Schemas contains too many parameters \
                 with union types ({} parameters with type arrays or anyOf) which exceeds the \
                 limit: 16\"): use plain enums or fewer `Option` unions, split the tools across \
                 requests, or offer some with `strict: false`. Unions: {}",
                over.spent,
                over.max,
                over.spent,
                names.join(", ")
            ),
            Limit::OptionalParameters => {
                let plan = over.detail.unwrap_or(NullablePlan {
                    option_fields: 0,
                    made_nullable: 0,
                    union_parameters: 0,
                });
                format!(
                    "the strict tools have {} optional parameters; Anthropic takes at most {} \
                     across all strict schemas of a request (\"Each parameter not listed in \
                     `required` counts\"), and making {} of the {} `Option` fields required and \
                     nullable instead is all the {MAX_UNION_PARAMETERS} union parameters allow \
                     ({} already used), which leaves {} over: make fields required, split the \
                     tools across requests, or offer some with `strict: false`. Optional: {}",
                    names.len(),
                    over.max,
                    plan.made_nullable,
                    plan.option_fields,
                    plan.union_parameters,
                    over.spent.saturating_sub(over.max),
                    names.join(", ")
                )
            }
        }
    }
}

/// One limit a tool set is over: which limit, what the set would spend of
/// it (`spent`; for optional parameters, after making every field nullable
/// that the union budget allows), the limit's value (`max`), and the tools
/// (strict tools) or `tool.field`s (parameters) that spend it, each
/// spending 1, in tool-set order. tool-core's
/// [`OverBudget`](tool_core::dialect::OverBudget) of Anthropic's limits.
pub type OverBudget = tool_core::dialect::OverBudget<Limit>;

/// A tool set over one of Anthropic's per-request limits (one
/// [`OverBudget`] in `over`: the planner stops at the first), in
/// Anthropic's words. tool-core's one
/// [`BudgetError`](tool_core::dialect::BudgetError).
pub type BudgetError = tool_core::dialect::BudgetError<Limit>;

/// The error of one limit: `names` each spend 1.
fn over_budget(
    limit: Limit,
    spent: usize,
    max: usize,
    names: Vec<String>,
    detail: Option<NullablePlan>,
) -> BudgetError {
    BudgetError {
        over: vec![OverBudget {
            limit,
            spent,
            max,
            tools: names.into_iter().map(|name| (name, 1)).collect(),
            detail,
        }],
    }
}

/// A strict tool's compiled schema with its name, as the planner sees it.
pub(crate) struct Planned<'a> {
    pub(crate) tool: &'a str,
    pub(crate) input: &'a mut StrictInput,
}

/// Fits the strict tools into the per-request limits: counts what they
/// spend with every optional field absent, and when the optional budget is
/// over, makes `Option` fields required and nullable (those already a
/// union first, as they cost no union parameter) until it fits. Returns the
/// fields made nullable (`tool.field`) and what the set spends.
pub(crate) fn plan(tools: &mut [Planned<'_>]) -> Result<(Vec<String>, Usage), BudgetError> {
    if tools.len() > MAX_STRICT_TOOLS {
        let names: Vec<String> = tools.iter().map(|t| t.tool.to_owned()).collect();
        return Err(over_budget(
            Limit::StrictTools,
            tools.len(),
            MAX_STRICT_TOOLS,
            names,
            None,
        ));
    }
    let mut optional = Vec::new();
    let mut unions = Vec::new();
    for tool in tools.iter() {
        spent(
            tool.tool,
            &tool.input.schema,
            "",
            &mut optional,
            &mut unions,
        );
    }
    if unions.len() > MAX_UNION_PARAMETERS {
        return Err(over_unions(unions));
    }
    let mut usage = Usage {
        strict_tools: tools.len(),
        optional_parameters: optional.len(),
        union_parameters: unions.len(),
    };
    let need = optional.len().saturating_sub(MAX_OPTIONAL_PARAMETERS);
    if need == 0 {
        return Ok((Vec::new(), usage));
    }
    // Candidates: `Option` fields, those already a union (free) first.
    let mut candidates: Vec<(usize, usize, usize)> = Vec::new();
    for cost in [0, 1] {
        for (t, tool) in tools.iter().enumerate() {
            for (f, field) in tool.input.optional.iter().enumerate() {
                if field.nullable && field.union_cost == cost {
                    candidates.push((t, f, cost));
                }
            }
        }
    }
    let mut chosen = Vec::new();
    let mut union_left = MAX_UNION_PARAMETERS - unions.len();
    for &(t, f, cost) in &candidates {
        if chosen.len() == need {
            break;
        }
        if cost > union_left {
            break;
        }
        union_left -= cost;
        chosen.push((t, f));
    }
    if chosen.len() < need {
        return Err(over_budget(
            Limit::OptionalParameters,
            usage.optional_parameters - chosen.len(),
            MAX_OPTIONAL_PARAMETERS,
            optional,
            Some(NullablePlan {
                option_fields: candidates.len(),
                made_nullable: chosen.len(),
                union_parameters: unions.len(),
            }),
        ));
    }
    let mut nullable = Vec::with_capacity(chosen.len());
    chosen.sort_unstable();
    for (t, f) in chosen {
        let tool = &mut tools[t];
        let field = tool.input.optional[f].clone();
        make_nullable(&mut tool.input.schema, &field);
        nullable.push(format!("{}.{}", tool.tool, field.field));
        usage.optional_parameters -= 1;
        usage.union_parameters += field.union_cost;
    }
    Ok((nullable, usage))
}

fn over_unions(unions: Vec<String>) -> BudgetError {
    over_budget(
        Limit::UnionParameters,
        unions.len(),
        MAX_UNION_PARAMETERS,
        unions,
        None,
    )
}

/// Collects the optional properties (`tool.field`) and the union schemas
/// (`tool.field`, `tool` for the root) of a compiled schema.
fn spent(
    tool: &str,
    schema: &Value,
    field: &str,
    optional: &mut Vec<String>,
    unions: &mut Vec<String>,
) {
    let Some(map) = schema.as_object() else {
        return;
    };
    let here = if field.is_empty() {
        tool.to_owned()
    } else {
        format!("{tool}.{field}")
    };
    if is_union(schema) {
        unions.push(here);
    }
    let join = |name: &str| {
        if field.is_empty() {
            name.to_owned()
        } else {
            format!("{field}.{name}")
        }
    };
    if let Some(Value::Object(properties)) = map.get("properties") {
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        for (name, property) in properties {
            if !required.contains(&name.as_str()) {
                optional.push(format!("{tool}.{}", join(name)));
            }
            spent(tool, property, &join(name), optional, unions);
        }
    }
    if let Some(items) = map.get("items") {
        spent(tool, items, &format!("{field}[]"), optional, unions);
    }
    if let Some(Value::Array(branches)) = map.get("anyOf") {
        for branch in branches {
            spent(tool, branch, field, optional, unions);
        }
    }
    for container in ["$defs", "definitions"] {
        if let Some(Value::Object(defs)) = map.get(container) {
            for (name, def) in defs {
                spent(tool, def, name, optional, unions);
            }
        }
    }
}

/// Makes an optional property required and nullable: `"type": [T, "null"]`
/// (an `enum` gains `null`), a `{"type": "null"}` branch for an `anyOf`, or
/// an `anyOf` of the schema and null for a `$ref` or a `const`.
pub(crate) fn make_nullable(schema: &mut Value, field: &OptionalField) {
    if let Some(Value::Object(object)) = schema.pointer_mut(&field.object) {
        let properties: Vec<String> = object
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        let old: Vec<Value> = object
            .get("required")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let required: Vec<Value> = properties
            .into_iter()
            .filter(|name| *name == field.name || old.iter().any(|r| r == name))
            .map(Value::String)
            .collect();
        object.insert("required".to_owned(), Value::Array(required));
    }
    let Some(Value::Object(property)) = schema.pointer_mut(&field.pointer) else {
        return;
    };
    if let Some(Value::Array(branches)) = property.get_mut("anyOf") {
        branches.push(json!({"type": "null"}));
        return;
    }
    if !property.contains_key("const") {
        match property.get_mut("type") {
            Some(Value::String(t)) => {
                let t = std::mem::take(t);
                property.insert("type".to_owned(), json!([t, "null"]));
                if let Some(Value::Array(values)) = property.get_mut("enum") {
                    values.push(Value::Null);
                }
                return;
            }
            Some(Value::Array(types)) => {
                types.push(json!("null"));
                if let Some(Value::Array(values)) = property.get_mut("enum") {
                    values.push(Value::Null);
                }
                return;
            }
            _ => {}
        }
    }
    let mut wrapped = Map::new();
    if let Some(description) = property.remove("description") {
        wrapped.insert("description".to_owned(), description);
    }
    let inner = std::mem::take(property);
    wrapped.insert("anyOf".to_owned(), json!([inner, {"type": "null"}]));
    *property = wrapped;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile;

    fn planned(schemas: Vec<Value>) -> Result<(Vec<String>, Usage, Vec<Value>), BudgetError> {
        let mut inputs: Vec<StrictInput> = schemas.iter().map(|s| compile(s).unwrap()).collect();
        let names: Vec<String> = (0..inputs.len()).map(|i| format!("t{i}")).collect();
        let mut tools: Vec<Planned<'_>> = names
            .iter()
            .zip(inputs.iter_mut())
            .map(|(tool, input)| Planned { tool, input })
            .collect();
        let (nullable, usage) = plan(&mut tools)?;
        Ok((
            nullable,
            usage,
            inputs.into_iter().map(|i| i.schema).collect(),
        ))
    }

    #[test]
    fn nullable_fields_with_odd_names_nested_and_in_defs() {
        let mut properties = Map::new();
        for i in 0..24 {
            properties.insert(format!("p{i}"), json!({"type": ["integer", "null"]}));
        }
        properties.insert(
            "a/b~c".into(),
            json!({"type": "object", "properties": {"x y": {"type": ["string", "null"]}}}),
        );
        properties.insert("d".into(), json!({"$ref": "#/$defs/D"}));
        let schema = json!({
            "type": "object",
            "properties": properties,
            "required": ["a/b~c", "d"],
            "$defs": {"D": {"type": "object", "properties": {"k": {"anyOf": [{"$ref": "#/$defs/E"}, {"type": "null"}]}}},
                      "E": {"type": "string", "enum": ["e"]}}
        });
        // 26 optional: p0..p23, "a/b~c".x y, D.k; 2 must go, p0 and p1.
        let (nullable, usage, schemas) = planned(vec![schema]).unwrap();
        assert_eq!(nullable, ["t0.p0", "t0.p1"]);
        assert_eq!(
            usage,
            Usage {
                strict_tools: 1,
                optional_parameters: 24,
                union_parameters: 2
            }
        );
        assert_eq!(schemas[0]["required"], json!(["p0", "p1", "a/b~c", "d"]));
        assert_eq!(
            schemas[0]["properties"]["p1"]["type"],
            json!(["integer", "null"])
        );
        assert_eq!(schemas[0]["properties"]["p2"]["type"], json!("integer"));
    }

    #[test]
    fn each_limit_is_worded_with_its_numbers_and_names() {
        let names = |prefix: &str, n: usize| -> Vec<String> {
            (1..=n).map(|i| format!("{prefix}{i}")).collect()
        };
        let strict = over_budget(Limit::StrictTools, 22, 20, names("t", 22), None);
        assert_eq!(
            strict.to_string(),
            "22 strict tools in one request; Anthropic takes at most 20 (\"Strict tools per \
             request: 20\"; non-strict tools don't count): offer t21, t22 with `strict: false` or \
             in another request"
        );
        let unions = over_unions(names("t.u", 17));
        assert_eq!(unions.over[0].tools[16], ("t.u17".to_owned(), 1));
        assert_eq!(
            unions.to_string(),
            format!(
                "the strict tools have 17 parameters that use `anyOf` or a type array; Anthropic \
                 takes at most 16 per request (it answers \"Schemas contains too many parameters \
                 with union types (17 parameters with type arrays or anyOf) which exceeds the \
                 limit: 16\"): use plain enums or fewer `Option` unions, split the tools across \
                 requests, or offer some with `strict: false`. Unions: {}",
                names("t.u", 17).join(", ")
            )
        );
        let plan = NullablePlan {
            option_fields: 28,
            made_nullable: 5,
            union_parameters: 11,
        };
        let optional = over_budget(
            Limit::OptionalParameters,
            25,
            24,
            names("t.o", 30),
            Some(plan),
        );
        assert_eq!(
            optional.to_string(),
            format!(
                "the strict tools have 30 optional parameters; Anthropic takes at most 24 across \
                 all strict schemas of a request (\"Each parameter not listed in `required` \
                 counts\"), and making 5 of the 28 `Option` fields required and nullable instead \
                 is all the 16 union parameters allow (11 already used), which leaves 1 over: \
                 make fields required, split the tools across requests, or offer some with \
                 `strict: false`. Optional: {}",
                names("t.o", 30).join(", ")
            )
        );
    }

    #[test]
    fn a_ref_or_const_becomes_an_any_of_with_null() {
        let schema = json!({
            "type": "object",
            "properties": {
                "r": {"anyOf": [{"$ref": "#/$defs/E"}, {"type": "null"}]},
                "c": {"anyOf": [{"const": "x", "description": "X."}, {"type": "null"}], "description": "C."},
                "e": {"enum": ["a", "b", null], "type": ["string", "null"]}
            },
            "$defs": {"E": {"type": "string", "enum": ["e"]}}
        });
        let mut input = compile(&schema).unwrap();
        for field in input.optional.clone() {
            make_nullable(&mut input.schema, &field);
        }
        assert_eq!(
            input.schema["properties"],
            json!({
                "r": {"anyOf": [{"$ref": "#/$defs/E"}, {"type": "null"}]},
                "c": {"description": "C.", "anyOf": [{"const": "x"}, {"type": "null"}]},
                "e": {"enum": ["a", "b", null], "type": ["string", "null"]}
            })
        );
        assert_eq!(input.schema["required"], json!(["r", "c", "e"]));
    }
}
