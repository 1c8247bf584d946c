//! OpenAI's size limits across a whole tool set: what every strict tool of
//! one request spends together, counted before any request is sent.
//!
//! The limits are OpenAI's Structured Outputs limits ("Supported schemas",
//! see `check.rs`): 5,000 object properties, 10 levels of nesting, 1,000
//! enum values, and 120,000 characters of property names, definition names,
//! enum values and const values. A single schema is held to them by the
//! compiler; a request's tools are one grammar, so here the sums over the
//! set are held to them too (the deepest tool for nesting).

use serde_json::Value;

use crate::check::{
    MAX_ENUM_VALUES, MAX_NESTING, MAX_PROPERTIES, MAX_TOTAL_CHARACTERS, value_characters,
};

/// What one strict schema, or a set of them, spends of OpenAI's limits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchemaUsage {
    /// Object properties (each key of each `properties`).
    pub properties: usize,
    /// The deepest level (the root is 0; each property, `items`, `anyOf`
    /// branch and `$defs` entry is one level deeper).
    pub nesting: usize,
    /// Enum values (each entry of each `enum`).
    pub enum_values: usize,
    /// Characters of property names, definition names, enum values and
    /// const values (a string's own characters, the JSON text of another
    /// scalar).
    pub characters: usize,
}

impl SchemaUsage {
    /// Counts a schema the way OpenAI does; see [`schema_usage`].
    fn of(schema: &Value) -> SchemaUsage {
        let mut usage = SchemaUsage::default();
        let mut stack = vec![(schema, 0usize)];
        while let Some((schema, level)) = stack.pop() {
            let Value::Object(map) = schema else {
                continue;
            };
            usage.nesting = usage.nesting.max(level);
            if let Some(Value::Object(properties)) = map.get("properties") {
                for (name, property) in properties {
                    usage.properties += 1;
                    usage.characters += name.chars().count();
                    stack.push((property, level + 1));
                }
            }
            if let Some(Value::Object(defs)) = map.get("$defs") {
                for (name, def) in defs {
                    usage.characters += name.chars().count();
                    stack.push((def, level + 1));
                }
            }
            if let Some(items) = map.get("items") {
                stack.push((items, level + 1));
            }
            if let Some(Value::Array(branches)) = map.get("anyOf") {
                stack.extend(branches.iter().map(|branch| (branch, level + 1)));
            }
            if let Some(Value::Array(values)) = map.get("enum") {
                usage.enum_values += values.len();
                usage.characters += values.iter().map(value_characters).sum::<usize>();
            }
            if let Some(value) = map.get("const") {
                usage.characters += value_characters(value);
            }
        }
        usage
    }
}

/// Counts what `schema` spends of OpenAI's limits.
///
/// Iterative: any depth is safe.
///
/// ```
/// use serde_json::json;
/// use tool_contract::openai::{SchemaUsage, schema_usage};
///
/// let schema = json!({"type": "object", "properties": {
///     "size": {"type": "string", "enum": ["s", "m", "l"]}
/// }, "required": ["size"], "additionalProperties": false});
/// assert_eq!(
///     schema_usage(&schema),
///     SchemaUsage { properties: 1, nesting: 1, enum_values: 3, characters: 7 }
/// );
/// ```
pub fn schema_usage(schema: &Value) -> SchemaUsage {
    SchemaUsage::of(schema)
}

/// One of OpenAI's per-request limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BudgetLimit {
    /// At most [`MAX_PROPERTIES`] object properties in total.
    Properties,
    /// At most [`MAX_NESTING`] levels of nesting.
    Nesting,
    /// At most [`MAX_ENUM_VALUES`] enum values in total.
    EnumValues,
    /// At most [`MAX_TOTAL_CHARACTERS`] characters of names, enum values and
    /// const values in total.
    Characters,
}

impl BudgetLimit {
    /// The limit's value.
    pub fn max(self) -> usize {
        match self {
            BudgetLimit::Properties => MAX_PROPERTIES,
            BudgetLimit::Nesting => MAX_NESTING,
            BudgetLimit::EnumValues => MAX_ENUM_VALUES,
            BudgetLimit::Characters => MAX_TOTAL_CHARACTERS,
        }
    }

    fn spent(self, usage: &SchemaUsage) -> usize {
        match self {
            BudgetLimit::Properties => usage.properties,
            BudgetLimit::Nesting => usage.nesting,
            BudgetLimit::EnumValues => usage.enum_values,
            BudgetLimit::Characters => usage.characters,
        }
    }

    fn what(self) -> &'static str {
        match self {
            BudgetLimit::Properties => "object properties",
            BudgetLimit::Nesting => "levels of nesting",
            BudgetLimit::EnumValues => "enum values",
            BudgetLimit::Characters => {
                "characters of property names, definition names, enum values and const values"
            }
        }
    }
}

impl tool_core::dialect::RequestLimit for BudgetLimit {
    type Detail = ();

    /// `1001 enum values (at most 1000), from `a` 600, `b` 401`.
    fn over(over: &OverBudget) -> String {
        let tools: Vec<String> = over
            .tools
            .iter()
            .map(|(tool, spent)| format!("`{tool}` {spent}"))
            .collect();
        format!(
            "{} {} (at most {}), from {}",
            over.spent,
            over.limit.what(),
            over.max,
            tools.join(", ")
        )
    }

    /// Every limit the set is over, and what to do.
    fn message(error: &BudgetError) -> String {
        let overs: Vec<String> = error.over.iter().map(Self::over).collect();
        format!(
            "the tool set is over OpenAI's per-request limits: {}; offer fewer tools per request \
             or shrink the largest ones",
            overs.join("; ")
        )
    }
}

/// One limit a tool set is over: how much the set spends (`spent`: the sum
/// over its tools, or for [`BudgetLimit::Nesting`] the deepest tool's
/// level), the limit's value (`max`, [`BudgetLimit::max`]), and which tools
/// spend it with what each spends, most first (for nesting, only the tools
/// that are too deep); tools that spend nothing are left out. tool-core's
/// [`OverBudget`](tool_core::dialect::OverBudget) of OpenAI's limits.
pub type OverBudget = tool_core::dialect::OverBudget<BudgetLimit>;

/// A tool set over one or more of OpenAI's per-request limits: each limit
/// it is over (`over`), in the order properties, nesting, enum values,
/// characters. tool-core's one
/// [`BudgetError`](tool_core::dialect::BudgetError), in OpenAI's words.
pub type BudgetError = tool_core::dialect::BudgetError<BudgetLimit>;

/// Checks that strict schemas offered together in one request stay within
/// OpenAI's limits: the sums of properties, enum values and characters over
/// all of them, and the nesting of each. Gives the set's usage, or every
/// limit it is over with the tools that spend it.
///
/// `tools` pairs each tool's name with its strict parameters schema.
///
/// ```
/// use serde_json::json;
/// use tool_contract::openai::{BudgetLimit, check_budget};
///
/// let values: Vec<String> = (0..600).map(|i| format!("v{i}")).collect();
/// let schema = json!({"type": "object", "properties": {"p": {"type": "string", "enum": values}},
///     "required": ["p"], "additionalProperties": false});
/// let error = check_budget([("pick_a", &schema), ("pick_b", &schema)]).unwrap_err();
/// assert_eq!(error.over[0].limit, BudgetLimit::EnumValues);
/// assert_eq!(error.over[0].spent, 1200);
/// ```
pub fn check_budget<'a>(
    tools: impl IntoIterator<Item = (&'a str, &'a Value)>,
) -> Result<SchemaUsage, BudgetError> {
    let usages: Vec<(&str, SchemaUsage)> = tools
        .into_iter()
        .map(|(name, schema)| (name, SchemaUsage::of(schema)))
        .collect();
    let mut total = SchemaUsage::default();
    for (_, usage) in &usages {
        total.properties += usage.properties;
        total.nesting = total.nesting.max(usage.nesting);
        total.enum_values += usage.enum_values;
        total.characters += usage.characters;
    }
    let mut over = Vec::new();
    for limit in [
        BudgetLimit::Properties,
        BudgetLimit::Nesting,
        BudgetLimit::EnumValues,
        BudgetLimit::Characters,
    ] {
        let spent = limit.spent(&total);
        if spent <= limit.max() {
            continue;
        }
        let mut tools: Vec<(String, usize)> = usages
            .iter()
            .map(|(name, usage)| ((*name).to_owned(), limit.spent(usage)))
            .filter(|(_, spent)| match limit {
                BudgetLimit::Nesting => *spent > limit.max(),
                _ => *spent > 0,
            })
            .collect();
        // Most first; a stable sort keeps the set's order among equals.
        tools.sort_by_key(|(_, spent)| std::cmp::Reverse(*spent));
        over.push(OverBudget {
            limit,
            spent,
            max: limit.max(),
            tools,
            detail: (),
        });
    }
    if over.is_empty() {
        Ok(total)
    } else {
        Err(BudgetError { over })
    }
}
