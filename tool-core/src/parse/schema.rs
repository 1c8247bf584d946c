//! The tool's input schema compiled for the parser: every `$ref` resolved,
//! every keyword read once into a [`Node`], and refused when the parser could
//! not enforce it faithfully.
//!
//! The parser walks these nodes beside serde's visitor (see `guided.rs`), so
//! what the schema tells the model is what `from_arguments` enforces at every
//! depth. Nodes that cannot be checked while streaming (`anyOf`, `oneOf`,
//! `allOf`, `uniqueItems`, `enum` of objects) are checked on a buffered
//! [`Value`] of that one subtree, which is what serde does for internally
//! tagged and untagged enums anyway.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use regex::Regex;
use schemars::{JsonSchema, SchemaGenerator};
use serde_json::{Map, Number, Value};

use super::constraint::ecma_regex;
use super::error::ArgumentError;
use super::formats;
use crate::contract::{Money, SignedMoney};
use crate::words::humanize::{echo, unknown_field_message};

/// The index of a node in its [`CompiledSchema`].
pub(crate) type NodeId = usize;

pub(crate) const NULL: u8 = 1;
pub(crate) const BOOL: u8 = 2;
pub(crate) const INT: u8 = 4;
pub(crate) const NUM: u8 = 8;
pub(crate) const STR: u8 = 16;
pub(crate) const ARR: u8 = 32;
pub(crate) const OBJ: u8 = 64;
pub(crate) const ANY: u8 = 127;

/// The node that accepts everything (`true`).
pub(crate) const ANY_NODE: NodeId = 0;
/// The node that accepts nothing (`false`).
pub(crate) const NEVER_NODE: NodeId = 1;

/// A JSON number, compared exactly: integers as integers, never through `f64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num {
    U(u64),
    I(i64),
    F(f64),
}

impl Num {
    fn of(n: &Number) -> Num {
        if let Some(u) = n.as_u64() {
            Num::U(u)
        } else if let Some(i) = n.as_i64() {
            Num::I(i)
        } else {
            Num::F(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    fn int(self) -> Option<i128> {
        match self {
            Num::U(u) => Some(i128::from(u)),
            Num::I(i) => Some(i128::from(i)),
            Num::F(_) => None,
        }
    }

    /// Exact comparison; `None` only for NaN.
    #[inline]
    pub(crate) fn compare(self, other: Num) -> Option<Ordering> {
        // The common case first: two integers of the same sign kind.
        match (self, other) {
            (Num::I(a), Num::I(b)) => return Some(a.cmp(&b)),
            (Num::U(a), Num::U(b)) => return Some(a.cmp(&b)),
            _ => {}
        }
        match (self.int(), other.int(), self, other) {
            (Some(a), Some(b), _, _) => Some(a.cmp(&b)),
            (None, Some(b), Num::F(f), _) => float_vs_int(f, b),
            (Some(a), None, _, Num::F(f)) => float_vs_int(f, a).map(Ordering::reverse),
            (_, _, Num::F(a), Num::F(b)) => a.partial_cmp(&b),
            _ => None,
        }
    }

    fn is_integer(self) -> bool {
        match self {
            Num::F(f) => f.is_finite() && f.fract() == 0.0,
            _ => true,
        }
    }

    /// Whether the quotient is an integer, reading both numbers as the
    /// decimals they print as (`0.3` is a multiple of `0.1`, as JSON Schema
    /// means and the `jsonschema` crate decides).
    fn multiple_of(self, m: Num) -> bool {
        if let (Some(v), Some(m)) = (self.int(), m.int())
            && m != 0
        {
            return v % m == 0;
        }
        let (v, m) = (self.float(), m.float());
        if v == 0.0 {
            return true;
        }
        if !v.is_finite() || !m.is_finite() || m == 0.0 || v.abs() < m.abs() {
            return false;
        }
        decimal_divides(v, m)
    }

    fn float(self) -> f64 {
        match self {
            Num::U(u) => u as f64,
            Num::I(i) => i as f64,
            Num::F(f) => f,
        }
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::U(u) => write!(f, "{u}"),
            Num::I(i) => write!(f, "{i}"),
            Num::F(x) => write!(f, "{x}"),
        }
    }
}

/// A finite float as the shortest decimal that reads back as it:
/// `mantissa * 10^-decimals` (at most 17 digits, so `None` only if the
/// printing changes).
fn decimal_parts(f: f64) -> Option<(i128, i64)> {
    let printed = format!("{f:e}");
    let (digits, exponent) = printed.split_once('e')?;
    let exponent: i64 = exponent.parse().ok()?;
    let (negative, digits) = match digits.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, digits),
    };
    let mut mantissa: i128 = 0;
    let mut decimals: i64 = 0;
    let mut fractional = false;
    for b in digits.bytes() {
        if b == b'.' {
            fractional = true;
            continue;
        }
        mantissa = mantissa
            .checked_mul(10)?
            .checked_add(i128::from(b.checked_sub(b'0')?))?;
        decimals += i64::from(fractional);
    }
    Some((
        if negative { -mantissa } else { mantissa },
        decimals - exponent,
    ))
}

/// Whether `v / m` is an integer as decimals, exactly at any exponent
/// (`1e308` is a multiple of `0.1`): with `v = a * 10^-d` and
/// `m = b * 10^-e`, whether `b` divides `a * 10^(e - d)`.
fn decimal_divides(v: f64, m: f64) -> bool {
    let (Some((a, d)), Some((b, e))) = (decimal_parts(v), decimal_parts(m)) else {
        return false;
    };
    let (a, b) = (a.unsigned_abs(), b.unsigned_abs());
    if b == 0 {
        return false;
    }
    match u32::try_from(e - d) {
        Ok(k) => {
            // a * 10^k mod b, by squaring; b < 10^17, so products fit.
            let (mut result, mut base, mut k) = (a % b, 10 % b, k);
            let mut power = 1 % b;
            while k > 0 {
                if k & 1 == 1 {
                    power = power * base % b;
                }
                base = base * base % b;
                k >>= 1;
            }
            result = result * power % b;
            result == 0
        }
        Err(_) => u32::try_from(d - e)
            .ok()
            .and_then(|k| 10_u128.checked_pow(k))
            .and_then(|scale| b.checked_mul(scale))
            .is_some_and(|divisor| a % divisor == 0),
    }
}

/// Compares a float with an integer without rounding either.
fn float_vs_int(f: f64, i: i128) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    let t = f.trunc();
    if t < -1.7e38 {
        return Some(Ordering::Less);
    }
    if t > 1.7e38 {
        return Some(Ordering::Greater);
    }
    match (t as i128).cmp(&i) {
        Ordering::Equal if f > t => Some(Ordering::Greater),
        Ordering::Equal if f < t => Some(Ordering::Less),
        other => Some(other),
    }
}

/// A compiled `pattern`: the common anchored character-class patterns
/// (`^[A-Z]{3}$`, `^[a-z]+$`, `^[0-9]{2,5}$`) are matched directly, the
/// rest by the regular expression.
#[derive(Clone, Debug)]
pub(crate) enum Matcher {
    Class {
        ranges: Vec<(char, char)>,
        min: usize,
        max: usize,
    },
    Regex(Regex),
}

impl Matcher {
    fn new(source: &str, regex: Regex) -> Matcher {
        Matcher::class(source).unwrap_or(Matcher::Regex(regex))
    }

    /// `^[ranges]{m,n}$`, `^[ranges]+$`, `^[ranges]*$` with plain
    /// characters and `a-z` ranges only (no escapes, no negation).
    fn class(source: &str) -> Option<Matcher> {
        let body = source.strip_prefix("^[")?.strip_suffix('$')?;
        let (class, quantifier) = body.split_once(']')?;
        if class.is_empty() || class.starts_with('^') || class.contains(['\\', '[', ']']) {
            return None;
        }
        let chars: Vec<char> = class.chars().collect();
        let mut ranges = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if i + 2 < chars.len() && chars[i + 1] == '-' {
                if chars[i] > chars[i + 2] {
                    return None;
                }
                ranges.push((chars[i], chars[i + 2]));
                i += 3;
            } else {
                ranges.push((chars[i], chars[i]));
                i += 1;
            }
        }
        let (min, max) = match quantifier {
            "+" => (1, usize::MAX),
            "*" => (0, usize::MAX),
            "" => (1, 1),
            q => {
                let inner = q.strip_prefix('{')?.strip_suffix('}')?;
                match inner.split_once(',') {
                    Some((a, "")) => (a.parse().ok()?, usize::MAX),
                    Some((a, b)) => (a.parse().ok()?, b.parse().ok()?),
                    None => {
                        let n = inner.parse().ok()?;
                        (n, n)
                    }
                }
            }
        };
        Some(Matcher::Class { ranges, min, max })
    }

    pub(crate) fn is_match(&self, s: &str) -> bool {
        match self {
            Matcher::Regex(re) => re.is_match(s),
            Matcher::Class { ranges, min, max } => {
                let mut n = 0;
                for c in s.chars() {
                    if !ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c)) {
                        return false;
                    }
                    n += 1;
                }
                (*min..=*max).contains(&n)
            }
        }
    }
}

/// What an object says about keys it does not list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Additional {
    Any,
    Deny,
    Schema(NodeId),
}

/// One schema, its keywords read once.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub types: u8,
    pub enumeration: Option<Vec<Value>>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<(String, Matcher)>,
    pub format: Option<&'static str>,
    pub minimum: Option<Num>,
    pub maximum: Option<Num>,
    pub exclusive_minimum: Option<Num>,
    pub exclusive_maximum: Option<Num>,
    pub multiple_of: Option<Num>,
    pub prefix_items: Vec<NodeId>,
    pub items: NodeId,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub unique_items: bool,
    pub properties: Vec<(String, NodeId)>,
    pub required: Vec<usize>,
    pub additional: Additional,
    /// `patternProperties`: each pattern with the node of the values whose
    /// key it matches (schemars writes one for a map keyed by integers,
    /// `^\d+$`), in the schema's order.
    pub pattern_properties: Vec<(Matcher, NodeId)>,
    pub min_properties: Option<u64>,
    pub max_properties: Option<u64>,
    pub any_of: Vec<NodeId>,
    pub one_of: Vec<NodeId>,
    pub all_of: Vec<NodeId>,
    /// Whether the streaming walker can check this node alone (no
    /// combinators, no `uniqueItems`, only scalar `enum` values).
    pub streamable: bool,
    /// Whether the node has string, number, or enum checks to run.
    pub has_scalar_checks: bool,
    /// The required properties among the first 64, one bit each.
    pub required_mask: u64,
    /// The optional properties whose schema refuses `null` (serde's
    /// `#[serde(default)]` fields), by index, in order: `null`
    /// for one of them reads as the key being absent, because OpenAI's
    /// strict mode makes every optional property required and nullable
    /// and a strict model sends `null` for "not given".
    pub absent_nulls: Vec<usize>,
    /// The node's only scalar checks are `minLength`/`maxLength`.
    pub lengths_only: bool,
    /// The node is a 32-bit float (`format: float`, schemars' `f32`): a
    /// number is judged as the type holds it (rounded to single
    /// precision, bounds too), and one beyond its range is refused.
    pub single: bool,
    /// When the node's only number checks are integer bounds (no `enum`,
    /// no `multipleOf`, no bound written as a fraction): the integers they
    /// allow, both ends included, so an integer is judged in two
    /// comparisons.
    pub integer_range: Option<(i128, i128)>,
    /// The Rust integer type its `format` names (`u8` for `uint8`), whose
    /// range schemars states beside it: serde enforces that range while
    /// streaming, so those bounds are not among the node's; a value read
    /// whole is checked against it (see [`CompiledSchema::validate`]).
    pub integer_type: Option<&'static str>,
    /// The node's index in its schema.
    pub id: NodeId,
    /// The node is exactly the schema of `Money` (`Some(false)`) or
    /// `SignedMoney` (`Some(true)`), whose own `Deserialize` enforces all of
    /// it (see `contract/money_de.rs`).
    pub money: Option<bool>,
}

/// Whether `v` is beyond what the node's 32-bit float can hold.
fn beyond_single(node: &Node, v: Num) -> bool {
    node.single && v.float().is_finite() && (v.float() as f32).is_infinite()
}

impl Node {
    /// The node of the value of `key`, a key that is not one of the
    /// properties: the first pattern of `patternProperties` it matches,
    /// else `additionalProperties` (`None` when that refuses it). A key
    /// whose text is not known (read by serde as a number or an enum)
    /// takes the node's one pattern when it has exactly one.
    pub(crate) fn extra_child(&self, key: Option<&str>) -> Option<NodeId> {
        let matched = match key {
            Some(key) => self
                .pattern_properties
                .iter()
                .find(|(m, _)| m.is_match(key)),
            None if self.pattern_properties.len() == 1 => self.pattern_properties.first(),
            None => None,
        };
        if let Some((_, id)) = matched {
            return Some(*id);
        }
        match self.additional {
            Additional::Any => Some(ANY_NODE),
            Additional::Schema(id) => Some(id),
            Additional::Deny => None,
        }
    }

    /// Whether `null` for property `i` reads as the key being absent (see
    /// [`Node::absent_nulls`]).
    #[inline]
    pub(crate) fn null_is_absent(&self, i: usize) -> bool {
        !self.absent_nulls.is_empty() && self.absent_nulls.binary_search(&i).is_ok()
    }

    /// Whether the node chooses between or combines schemas (`anyOf`,
    /// `oneOf`, `allOf`).
    #[inline]
    fn has_choices(&self) -> bool {
        !self.any_of.is_empty() || !self.one_of.is_empty() || !self.all_of.is_empty()
    }

    /// A number as the node's type holds it: rounded to single precision
    /// for a 32-bit float, else as it is.
    #[inline]
    fn held(&self, v: Num) -> Num {
        if self.single {
            Num::F(f64::from(v.float() as f32))
        } else {
            v
        }
    }

    /// Whether the node refuses every object: its types leave objects out,
    /// or its `enum` lists none (a streamable node's `enum` holds scalars).
    #[inline(always)]
    pub(crate) fn refuses_objects(&self) -> bool {
        self.types & OBJ == 0 || (self.streamable && self.enumeration.is_some())
    }
}

impl Default for Node {
    fn default() -> Self {
        Node {
            types: ANY,
            enumeration: None,
            min_length: None,
            max_length: None,
            pattern: None,
            format: None,
            minimum: None,
            maximum: None,
            exclusive_minimum: None,
            exclusive_maximum: None,
            multiple_of: None,
            prefix_items: Vec::new(),
            items: ANY_NODE,
            min_items: None,
            max_items: None,
            unique_items: false,
            properties: Vec::new(),
            required: Vec::new(),
            additional: Additional::Any,
            pattern_properties: Vec::new(),
            min_properties: None,
            max_properties: None,
            any_of: Vec::new(),
            one_of: Vec::new(),
            all_of: Vec::new(),
            streamable: true,
            has_scalar_checks: false,
            required_mask: 0,
            absent_nulls: Vec::new(),
            lengths_only: false,
            single: false,
            integer_range: None,
            integer_type: None,
            id: 0,
            money: None,
        }
    }
}

/// Why a tool's input schema cannot be enforced by the parser, found when
/// the contract is first checked ([`ToolContract::check`](crate::ToolContract::check)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    keyword: String,
    pointer: String,
    reason: String,
}

impl SchemaError {
    fn new(keyword: &str, pointer: &str, reason: impl Into<String>) -> Self {
        SchemaError {
            keyword: keyword.to_owned(),
            pointer: pointer.to_owned(),
            reason: reason.into(),
        }
    }

    /// The keyword at fault, e.g. `not` or `pattern`.
    pub fn keyword(&self) -> &str {
        &self.keyword
    }

    /// The JSON pointer of the schema object holding it, e.g.
    /// `/$defs/Filters/properties/brand`.
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// Why it cannot be enforced.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "keyword `{}` at `{}`: {}",
            self.keyword, self.pointer, self.reason
        )
    }
}

impl std::error::Error for SchemaError {}

/// Keywords that only annotate: the parser has nothing to check.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "$schema",
    "$id",
    "$defs",
    "definitions",
    "contentEncoding",
    "contentMediaType",
];

/// Formats schemars states on numbers beside exact bounds; annotations only.
const NUMBER_FORMATS: &[&str] = &[
    "int", "int8", "int16", "int32", "int64", "int128", "uint", "uint8", "uint16", "uint32",
    "uint64", "uint128", "float", "double",
];

/// A tool's input schema, compiled.
#[derive(Debug)]
pub(crate) struct CompiledSchema {
    nodes: Vec<Node>,
    root: NodeId,
    /// The node of each of the contract's fields, by field index.
    fields: Vec<NodeId>,
}

impl CompiledSchema {
    /// Compiles `root`, refusing any keyword the parser cannot enforce.
    pub(crate) fn compile(root: &Value) -> Result<CompiledSchema, SchemaError> {
        let mut c = Compiler {
            root,
            nodes: vec![
                Node::default(),
                Node {
                    types: 0,
                    streamable: true,
                    ..Node::default()
                },
            ],
            refs: HashMap::new(),
            building: Vec::new(),
        };
        let root = c.compile(root, "")?;
        let mut nodes = c.nodes;
        for (id, node) in nodes.iter_mut().enumerate() {
            node.id = id;
            node.streamable = node.any_of.is_empty()
                && node.one_of.is_empty()
                && node.all_of.is_empty()
                && node.pattern_properties.len() <= 1
                && !node.unique_items
                && node
                    .enumeration
                    .as_ref()
                    .is_none_or(|e| e.iter().all(|v| !v.is_object() && !v.is_array()));
            node.required_mask = node
                .required
                .iter()
                .filter(|&&i| i < 64)
                .fold(0, |mask, &i| mask | 1 << i);
            node.has_scalar_checks = node.enumeration.is_some()
                || node.min_length.is_some()
                || node.max_length.is_some()
                || node.pattern.is_some()
                || node.format.is_some()
                || node.minimum.is_some()
                || node.maximum.is_some()
                || node.exclusive_minimum.is_some()
                || node.exclusive_maximum.is_some()
                || node.multiple_of.is_some()
                || node.single;
            node.lengths_only = node.has_scalar_checks
                && node.enumeration.is_none()
                && node.pattern.is_none()
                && node.format.is_none()
                && node.minimum.is_none()
                && node.maximum.is_none()
                && node.exclusive_minimum.is_none()
                && node.exclusive_maximum.is_none()
                && node.multiple_of.is_none()
                && !node.single;
            node.integer_range = integer_bounds(node);
        }
        let nulls: Vec<bool> = (0..nodes.len())
            .map(|id| accepts_null(&nodes, id, 0))
            .collect();
        for node in &mut nodes {
            node.absent_nulls = (0..node.properties.len())
                .filter(|i| !node.required.contains(i) && !nulls[node.properties[*i].1])
                .collect();
        }
        Ok(CompiledSchema {
            nodes,
            root,
            fields: Vec::new(),
        })
    }

    #[inline(always)]
    pub(crate) fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }

    /// The node of the arguments object.
    #[inline(always)]
    pub(crate) fn root(&self) -> NodeId {
        self.root
    }

    /// Indexes the root object's properties by the contract's field names.
    pub(crate) fn with_fields<'n>(mut self, names: impl Iterator<Item = &'n str>) -> Self {
        let root = &self.nodes[self.root];
        self.fields = names
            .map(|name| {
                root.properties
                    .iter()
                    .find(|(n, _)| n == name)
                    .map_or(ANY_NODE, |(_, id)| *id)
            })
            .collect();
        self
    }

    /// The node of the contract's field `index`.
    #[inline(always)]
    pub(crate) fn field(&self, index: usize) -> NodeId {
        self.fields.get(index).copied().unwrap_or(ANY_NODE)
    }

    /// Checks a value read whole against node `id` (see [`Self::validate`])
    /// and makes its whole floats integers where the schema asks for
    /// integers, ready for serde to read the type from it.
    pub(crate) fn check_whole(
        &self,
        id: NodeId,
        value: &mut Value,
        path: &mut String,
    ) -> Result<(), ArgumentError> {
        self.validate(id, value, path)?;
        let mut walk = Normalize::default();
        integers_where_the_schema_says(self, id, value, 0, &mut walk);
        if !walk.absent.is_empty() {
            let mut absent: HashMap<usize, Vec<String>> = HashMap::new();
            for (object, key) in walk.absent {
                absent.entry(object).or_default().push(key);
            }
            take_out(value, &absent, 0);
        }
        Ok(())
    }

    /// Checks a whole buffered value against node `id`; `path` is the
    /// value's JSON path and is restored before returning.
    ///
    /// Time is bounded by the schema's nodes times the value's parts
    /// whatever the choices: each choice node's verdict on each part of
    /// the value is computed once and remembered for the rest of the walk,
    /// so branches that share a subschema (`Many(Vec<Nest>)` beside
    /// `Also(Vec<Nest>)`) never judge one part twice.
    pub(crate) fn validate(
        &self,
        id: NodeId,
        value: &Value,
        path: &mut String,
    ) -> Result<(), ArgumentError> {
        self.validate_in(id, value, path, &mut Verdicts::default())
    }

    /// [`Self::validate`] with the verdicts of the walk so far.
    fn validate_in(
        &self,
        id: NodeId,
        value: &Value,
        path: &mut String,
        verdicts: &mut Verdicts,
    ) -> Result<(), ArgumentError> {
        let node = &self.nodes[id];
        if !node.has_choices() {
            return self.validate_node(node, value, path, verdicts);
        }
        // A part of the value stays where it is during one walk, so its
        // address names it (and, with the node, its path).
        let key = (id, std::ptr::from_ref(value) as usize);
        if let Some(verdict) = verdicts.0.get(&key) {
            return verdict.clone();
        }
        // A choice that refers to itself (an untagged enum's variant that
        // wraps the enum) meets the same part again before its verdict is
        // known: there it holds no more than the other branches make it.
        verdicts.0.insert(
            key,
            Err(at(
                path,
                format!("{} refers to itself without end", got(value)),
            )),
        );
        let verdict = self.validate_node(node, value, path, verdicts);
        verdicts.0.insert(key, verdict.clone());
        verdict
    }

    fn validate_node(
        &self,
        node: &Node,
        value: &Value,
        path: &mut String,
        verdicts: &mut Verdicts,
    ) -> Result<(), ArgumentError> {
        let kind = kind_of(value);
        if node.types & kind == 0 && !(kind == INT && node.types & NUM != 0) {
            return Err(ArgumentError::invalid(
                path.clone(),
                format!("expected {}, got {}", type_words(node.types), got(value)),
            ));
        }
        if let Some(allowed) = &node.enumeration
            && !allowed.iter().any(|a| json_equal(a, value))
        {
            return Err(ArgumentError::invalid(
                path.clone(),
                enum_message(allowed, &got(value)),
            ));
        }
        match value {
            Value::String(s) => check_string(node, s).map_err(|m| at(path, m))?,
            Value::Number(n) => {
                check_number(node, Num::of(n)).map_err(|m| at(path, m))?;
                if let Some(range) = node.integer_type.and_then(integer_type_range)
                    && (Num::of(n).compare(range.1) == Some(Ordering::Less)
                        || Num::of(n).compare(range.3) == Some(Ordering::Greater))
                {
                    // The type's range, which serde enforces while streaming:
                    // passed here, serde would refuse the value after the
                    // check (an untagged enum trying every variant on it).
                    let expected = bounded_words(node, Some(range))
                        .unwrap_or_else(|| format!("an integer from {} to {}", range.0, range.2));
                    let given = match Num::of(n) {
                        Num::F(_) => format!("the number {n}"),
                        _ => format!("the integer {n}"),
                    };
                    return Err(at(path, format!("expected {expected}, got {given}")));
                }
                if let Some(f) = n.as_f64().filter(|_| n.is_f64())
                    && node.types & INT != 0
                    && node.types & NUM == 0
                    && f.abs() >= 9_007_199_254_740_992.0
                {
                    // A whole float from 2^53 up is an integer to JSON
                    // Schema, but serde reads it into no integer type (the
                    // walk refuses it while streaming): judged here, an
                    // untagged enum's variants are not all tried on it in
                    // turn at every level.
                    return Err(at(
                        path,
                        format!(
                            "expected an integer, got {n} (from 2^53 up, write a whole number in digits, without a fraction or an exponent)"
                        ),
                    ));
                }
            }
            Value::Array(items) => {
                check_count(node.min_items, node.max_items, items.len(), "item", "items")
                    .map_err(|m| at(path, m))?;
                if node.unique_items
                    && let Some((i, j)) = first_repeat(items)
                {
                    return Err(at(
                        path,
                        format!("expected unique items, item {i} repeats item {j}"),
                    ));
                }
                for (i, item) in items.iter().enumerate() {
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    let child = node.prefix_items.get(i).copied().unwrap_or(node.items);
                    if child == NEVER_NODE {
                        path.truncate(len);
                        return Err(at(
                            path,
                            format!("expected at most {} items, got {}", i, items.len()),
                        ));
                    }
                    let result = self.validate_in(child, item, path, verdicts);
                    path.truncate(len);
                    result?;
                }
            }
            Value::Object(map) => self.validate_object(node, map, path, verdicts)?,
            _ => {}
        }
        for &branch in &node.all_of {
            self.validate_in(branch, value, path, verdicts)?;
        }
        if !node.any_of.is_empty() {
            self.validate_branches(&node.any_of, value, path, false, verdicts)?;
        }
        if !node.one_of.is_empty() {
            self.validate_branches(&node.one_of, value, path, true, verdicts)?;
        }
        Ok(())
    }

    fn validate_object(
        &self,
        node: &Node,
        map: &Map<String, Value>,
        path: &mut String,
        verdicts: &mut Verdicts,
    ) -> Result<(), ArgumentError> {
        for (key, value) in map {
            let child = match node.properties.iter().position(|(n, _)| n == key) {
                Some(i) if value.is_null() && node.null_is_absent(i) => continue,
                Some(i) => node.properties[i].1,
                None => match node.extra_child(Some(key)) {
                    Some(child) => {
                        // Every pattern the key matches holds its value.
                        let len = path.len();
                        super::path::push_key(path, key);
                        let mut result = Ok(());
                        for (matcher, id) in &node.pattern_properties {
                            if *id != child && matcher.is_match(key) {
                                result = self.validate_in(*id, value, path, verdicts);
                                if result.is_err() {
                                    break;
                                }
                            }
                        }
                        path.truncate(len);
                        result?;
                        child
                    }
                    None => {
                        let len = path.len();
                        super::path::push_key(path, &key.chars().take(256).collect::<String>());
                        let allowed: Vec<&str> =
                            node.properties.iter().map(|(n, _)| n.as_str()).collect();
                        let error = ArgumentError::invalid(
                            path.clone(),
                            unknown_field_message(key, &allowed),
                        );
                        path.truncate(len);
                        return Err(error);
                    }
                },
            };
            let len = path.len();
            super::path::push_key(path, key);
            let result = self.validate_in(child, value, path, verdicts);
            path.truncate(len);
            result?;
        }
        for &i in &node.required {
            let name = &node.properties[i].0;
            if !map.contains_key(name) {
                let mut at = path.clone();
                super::path::push_key(&mut at, name);
                return Err(ArgumentError::invalid(
                    at,
                    format!("missing required field \"{name}\""),
                ));
            }
        }
        check_count(
            node.min_properties,
            node.max_properties,
            map.len(),
            "field",
            "fields",
        )
        .map_err(|m| at(path, m))
    }

    fn validate_branches(
        &self,
        branches: &[NodeId],
        value: &Value,
        path: &mut String,
        exactly_one: bool,
        verdicts: &mut Verdicts,
    ) -> Result<(), ArgumentError> {
        let mut matched = 0;
        let mut best: Option<((bool, usize, bool), ArgumentError)> = None;
        // The refusals of the branches whose types admit the value's kind,
        // and how many there are.
        let kind = kind_of(value);
        let mut of_kind: (usize, Option<ArgumentError>) = (0, None);
        for &branch in branches {
            let types = self.nodes[branch].types;
            let admits = types & kind != 0 || (kind == INT && types & NUM != 0);
            match self.validate_in(branch, value, path, verdicts) {
                Ok(()) => {
                    matched += 1;
                    if !exactly_one {
                        return Ok(());
                    }
                }
                Err(e) => {
                    if admits {
                        of_kind = (of_kind.0 + 1, Some(e.clone()));
                    }
                    // The branch whose tag the value carries, else the one
                    // that got furthest into the value, else one whose
                    // required keys it has (an externally tagged variant's
                    // name), is the one the model most likely meant.
                    let rank = (
                        !self.tag_differs(branch, value),
                        e.path().len(),
                        self.has_required(branch, value),
                    );
                    if best.as_ref().is_none_or(|(r, _)| rank > *r) {
                        best = Some((rank, e));
                    }
                }
            }
        }
        match matched {
            1 => Ok(()),
            0 => Err(match (best, of_kind) {
                (Some((_, e)), _) if e.path().len() > path.len() => e,
                // The one branch of the value's kind (a tuple among
                // strings): its refusal says what is wrong.
                (_, (1, Some(e))) => e,
                _ => at(
                    path,
                    format!(
                        "{} matches none of the {} allowed shapes described in the schema",
                        got(value),
                        branches.len()
                    ),
                ),
            }),
            n => Err(at(
                path,
                format!(
                    "{} matches {n} of the allowed shapes; it must match exactly one",
                    got(value)
                ),
            )),
        }
    }
}

impl CompiledSchema {
    /// Whether `value` is an object that has every property branch
    /// `branch` requires (any other value: whether the branch requires
    /// none).
    fn has_required(&self, branch: NodeId, value: &Value) -> bool {
        let node = &self.nodes[branch];
        match value {
            Value::Object(map) => node
                .required
                .iter()
                .all(|&i| map.contains_key(&node.properties[i].0)),
            _ => node.required.is_empty(),
        }
    }

    /// Whether `value` is an object whose tag (a property the branch fixes
    /// with `const` or a one-value `enum`) says it is another branch.
    fn tag_differs(&self, branch: NodeId, value: &Value) -> bool {
        let (node, Value::Object(map)) = (&self.nodes[branch], value) else {
            return false;
        };
        node.properties.iter().any(|(name, id)| {
            match (&self.nodes[*id].enumeration, map.get(name)) {
                (Some(allowed), Some(given)) if allowed.len() == 1 => {
                    !json_equal(&allowed[0], given)
                }
                _ => false,
            }
        })
    }
}

fn at(path: &str, message: String) -> ArgumentError {
    ArgumentError::invalid(path.to_owned(), message)
}

/// The string checks of a node, in schema order of the docs: length, pattern,
/// format. Returns the message of the first that fails.
pub(crate) fn check_string(node: &Node, s: &str) -> Result<(), String> {
    if (node.min_length.is_some() || node.max_length.is_some()) && !lengths_hold(node, s) {
        let n = s.chars().count() as u64;
        if let Some(min) = node.min_length
            && n < min
        {
            return Err(format!(
                "expected at least {}, got {}",
                plural(min, "character", "characters"),
                plural(n, "character", "characters")
            ));
        }
        if let Some(max) = node.max_length
            && n > max
        {
            return Err(format!(
                "expected at most {}, got {}",
                plural(max, "character", "characters"),
                plural(n, "character", "characters")
            ));
        }
    }
    if let Some((source, matcher)) = &node.pattern
        && !matcher.is_match(s)
    {
        return Err(format!(
            "expected a string matching the pattern {source:?}, got {}",
            echo(s)
        ));
    }
    if let Some(format) = node.format
        && formats::is_valid(format, s) == Some(false)
    {
        return Err(format!(
            "expected {}, got {}",
            formats::describe(format),
            echo(s)
        ));
    }
    Ok(())
}

/// Whether a string meets every check of the node (`enum`, lengths,
/// `pattern`, `format`): the yes or no of [`check_string`] and the node's
/// `enum`, without building a message.
#[inline]
pub(crate) fn string_holds(node: &Node, s: &str) -> bool {
    if let Some(allowed) = &node.enumeration
        && !allowed.iter().any(|a| a.as_str() == Some(s))
    {
        return false;
    }
    if (node.min_length.is_some() || node.max_length.is_some()) && !lengths_hold(node, s) {
        let n = s.chars().count() as u64;
        if node.min_length.is_some_and(|min| n < min) || node.max_length.is_some_and(|max| n > max)
        {
            return false;
        }
    }
    if let Some((_, matcher)) = &node.pattern
        && !matcher.is_match(s)
    {
        return false;
    }
    node.format
        .is_none_or(|format| formats::is_valid(format, s) != Some(false))
}

/// Whether a string meets every check of the node: the gate and the common
/// case (lengths alone) decided inline, the rest by [`string_holds`].
#[inline(always)]
pub(crate) fn string_ok(node: &Node, s: &str) -> bool {
    !node.has_scalar_checks
        || (node.lengths_only && lengths_within(node, s))
        || string_holds_cold(node, s)
}

#[inline(never)]
fn string_holds_cold(node: &Node, s: &str) -> bool {
    string_holds(node, s)
}

/// Whether a number meets every check of the node: the gate and the common
/// case (integer bounds alone) decided inline, the rest by
/// [`number_holds`] and, for an `enum`, by the full check.
#[inline(always)]
pub(crate) fn number_ok(node: &Node, v: Num) -> bool {
    if !node.has_scalar_checks {
        return true;
    }
    if let Some((lo, hi)) = node.integer_range
        && v.int().is_some_and(|n| lo <= n && n <= hi)
    {
        return true;
    }
    number_holds_full(node, v)
}

#[inline(never)]
fn number_holds_full(node: &Node, v: Num) -> bool {
    if number_holds(node, v) {
        return true;
    }
    let Some(allowed) = &node.enumeration else {
        return false;
    };
    let value = match v {
        Num::U(u) => Value::from(u),
        Num::I(i) => Value::from(i),
        Num::F(f) => Value::from(f),
    };
    allowed.iter().any(|a| json_equal(a, &value)) && check_number(node, v).is_ok()
}

/// Whether a boolean is among the node's `enum` values, if it has any.
#[inline(always)]
pub(crate) fn bool_ok(node: &Node, b: bool) -> bool {
    node.enumeration
        .as_ref()
        .is_none_or(|allowed| allowed.iter().any(|a| a.as_bool() == Some(b)))
}

/// Whether a number meets every check of the node, as [`check_number`]
/// and the node's `enum` judge it, without building a message.
#[inline]
pub(crate) fn number_holds(node: &Node, v: Num) -> bool {
    if node.enumeration.is_some() {
        // Rare on numbers: the full check decides.
        return false;
    }
    if beyond_single(node, v) {
        return false;
    }
    let within = |bound: Option<Num>, ok: fn(Ordering) -> bool| {
        bound.is_none_or(|b| node.held(v).compare(node.held(b)).is_some_and(ok))
    };
    (node.types & NUM != 0 || node.types & INT == 0 || v.is_integer())
        && within(node.minimum, Ordering::is_ge)
        && within(node.maximum, Ordering::is_le)
        && within(node.exclusive_minimum, Ordering::is_gt)
        && within(node.exclusive_maximum, Ordering::is_lt)
        && node.multiple_of.is_none_or(|m| v.multiple_of(m))
}

/// The integers a node's bounds allow, both ends included, when its only
/// number checks are bounds written as integers (see [`Node::integer_range`]).
fn integer_bounds(node: &Node) -> Option<(i128, i128)> {
    if node.enumeration.is_some() || node.multiple_of.is_some() {
        return None;
    }
    let (mut lo, mut hi) = (i128::MIN, i128::MAX);
    let bounds = [
        (node.minimum, 0, true),
        (node.exclusive_minimum, 1, true),
        (node.maximum, 0, false),
        (node.exclusive_maximum, -1, false),
    ];
    for (bound, step, lower) in bounds {
        let Some(bound) = bound else { continue };
        let b = bound.int()? + step;
        if lower {
            lo = lo.max(b);
        } else {
            hi = hi.min(b);
        }
    }
    Some((lo, hi))
}

/// Whether the string's length in characters is surely within the node's
/// bounds, judged from its length in bytes alone (a character is one to
/// four bytes), so the characters are counted only near a bound.
#[inline]
pub(crate) fn lengths_hold(node: &Node, s: &str) -> bool {
    let bytes = s.len() as u64;
    let min_holds = node.min_length.is_none_or(|min| bytes.div_ceil(4) >= min);
    let max_holds = node.max_length.is_none_or(|max| bytes <= max);
    min_holds && max_holds
}

/// Whether the string's length in characters is within the node's bounds,
/// exactly: from the byte length when that settles it, else from the
/// characters, counted as the bytes that do not continue a character
/// (a plain loop, quicker than `chars().count()` on the short strings
/// that come near a bound).
#[inline]
pub(crate) fn lengths_within(node: &Node, s: &str) -> bool {
    if lengths_hold(node, s) {
        return true;
    }
    let n = s.bytes().filter(|b| b & 0xC0 != 0x80).count() as u64;
    node.min_length.is_none_or(|min| n >= min) && node.max_length.is_none_or(|max| n <= max)
}

/// The number checks of a node, exact for integers.
pub(crate) fn check_number(node: &Node, v: Num) -> Result<(), String> {
    let fails = |bound: Option<Num>, ok: fn(Ordering) -> bool| {
        bound.filter(|b| !node.held(v).compare(node.held(*b)).is_some_and(ok))
    };
    if beyond_single(node, v) {
        return Err(format!(
            "expected a number a 32-bit float can hold (between -{max} and {max}), got {v}",
            max = f32::MAX
        ));
    }
    if node.types & NUM == 0 && node.types & INT != 0 && !v.is_integer() {
        return Err(format!("expected an integer, got {v}"));
    }
    if let Some(b) = fails(node.minimum, Ordering::is_ge) {
        return Err(format!("expected a number of at least {b}, got {v}"));
    }
    if let Some(b) = fails(node.maximum, Ordering::is_le) {
        return Err(format!("expected a number of at most {b}, got {v}"));
    }
    if let Some(b) = fails(node.exclusive_minimum, Ordering::is_gt) {
        return Err(format!("expected a number greater than {b}, got {v}"));
    }
    if let Some(b) = fails(node.exclusive_maximum, Ordering::is_lt) {
        return Err(format!("expected a number less than {b}, got {v}"));
    }
    if let Some(m) = node.multiple_of
        && !v.multiple_of(m)
    {
        return Err(format!("expected a multiple of {m}, got {v}"));
    }
    Ok(())
}

/// `minItems`/`maxItems` (or properties) on a count.
pub(crate) fn check_count(
    min: Option<u64>,
    max: Option<u64>,
    n: usize,
    one: &str,
    many: &str,
) -> Result<(), String> {
    let n = n as u64;
    if let Some(min) = min
        && n < min
    {
        return Err(format!(
            "expected at least {}, got {}",
            plural(min, one, many),
            plural(n, one, many)
        ));
    }
    if let Some(max) = max
        && n > max
    {
        return Err(format!(
            "expected at most {}, got {}",
            plural(max, one, many),
            plural(n, one, many)
        ));
    }
    Ok(())
}

fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The range of an integer type as serde names it (`u32`, `i64`, ...):
/// its ends as written and as numbers (exact within 64 bits).
pub(crate) fn integer_type_range(name: &str) -> Option<(&'static str, Num, &'static str, Num)> {
    let (low, high) = match name {
        "u8" => ("0", "255"),
        "u16" => ("0", "65535"),
        "u32" => ("0", "4294967295"),
        "u64" | "usize" => ("0", "18446744073709551615"),
        "u128" => ("0", "340282366920938463463374607431768211455"),
        "i8" => ("-128", "127"),
        "i16" => ("-32768", "32767"),
        "i32" => ("-2147483648", "2147483647"),
        "i64" | "isize" => ("-9223372036854775808", "9223372036854775807"),
        "i128" => (
            "-170141183460469231731687303715884105728",
            "170141183460469231731687303715884105727",
        ),
        _ => return None,
    };
    let exact = |end: &str| {
        end.parse::<u64>()
            .map(Num::U)
            .or_else(|_| end.parse::<i64>().map(Num::I))
            .or_else(|_| end.parse::<f64>().map(Num::F))
            .ok()
    };
    Some((low, exact(low)?, high, exact(high)?))
}

/// What a node with declared numeric bounds expects, in words ("an
/// integer from 1 to 50", "a number greater than 0 and at most 5", "an
/// integer from 0 to 9223372036854775807 or null"), within the range of
/// the Rust integer type `within` when there is one; `None` when no
/// declared bound narrows it.
pub(crate) fn bounded_words(
    node: &Node,
    within: Option<(&'static str, Num, &'static str, Num)>,
) -> Option<String> {
    let declared_low = match (node.minimum, node.exclusive_minimum) {
        (_, Some(b)) => Some((format!("greater than {b}"), false, b.to_string(), b)),
        (Some(b), None) => Some((format!("at least {b}"), true, b.to_string(), b)),
        (None, None) => None,
    };
    let declared_high = match (node.maximum, node.exclusive_maximum) {
        (_, Some(b)) => Some((format!("less than {b}"), false, b.to_string(), b)),
        (Some(b), None) => Some((format!("at most {b}"), true, b.to_string(), b)),
        (None, None) => None,
    };
    let (low, high) = match within {
        Some((low, low_n, high, high_n)) => {
            // Compared exactly: `i64::MAX - 1` narrows `i64`, though both
            // are the same float.
            let narrows_low = declared_low
                .as_ref()
                .is_some_and(|d| d.3.compare(low_n) == Some(Ordering::Greater));
            let narrows_high = declared_high
                .as_ref()
                .is_some_and(|d| d.3.compare(high_n) == Some(Ordering::Less));
            if !narrows_low && !narrows_high {
                return None;
            }
            let type_end =
                |end: &str, words: &str| (format!("{words} {end}"), true, end.to_owned(), low_n);
            (
                Some(
                    declared_low
                        .filter(|_| narrows_low)
                        .unwrap_or_else(|| type_end(low, "at least")),
                ),
                Some(
                    declared_high
                        .filter(|_| narrows_high)
                        .unwrap_or_else(|| type_end(high, "at most")),
                ),
            )
        }
        None => (declared_low, declared_high),
    };
    let what = if node.types & NUM == 0 && node.types & INT != 0 {
        "an integer"
    } else {
        "a number"
    };
    let range = match (low, high) {
        (Some((_, true, low, _)), Some((_, true, high, _))) => {
            format!("{what} from {low} to {high}")
        }
        (Some((low, ..)), Some((high, ..))) => format!("{what} {low} and {high}"),
        (Some((words, inclusive, ..)), None) | (None, Some((words, inclusive, ..))) => {
            if inclusive {
                format!("{what} of {words}")
            } else {
                format!("{what} {words}")
            }
        }
        (None, None) => return None,
    };
    Some(if node.types & NULL != 0 {
        format!("{range} or null")
    } else {
        range
    })
}

/// "expected one of "a", "b", got "c"".
pub(crate) fn enum_message(allowed: &[Value], got: &str) -> String {
    let list: Vec<String> = allowed.iter().take(20).map(Value::to_string).collect();
    let more = if allowed.len() > 20 { ", …" } else { "" };
    if allowed.len() == 1 {
        format!("expected {}, got {got}", list[0])
    } else {
        format!("expected one of {}{more}, got {got}", list.join(", "))
    }
}

/// JSON Schema equality: numbers by value (`1` equals `1.0`).
pub(crate) fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            Num::of(x).compare(Num::of(y)) == Some(Ordering::Equal)
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

/// The first item of `items` equal (as [`json_equal`] judges) to one
/// before it, and the first such one: `(i, j)` with `j < i`. Items are
/// compared only with those that hash alike, so a long list is judged in
/// time linear in its size rather than in every pair.
fn first_repeat(items: &[Value]) -> Option<(usize, usize)> {
    if items.len() <= 16 {
        return items.iter().enumerate().find_map(|(i, item)| {
            items[..i]
                .iter()
                .position(|x| json_equal(x, item))
                .map(|j| (i, j))
        });
    }
    // Keys drawn for this call, so no list can be made to hash alike.
    let keys = std::hash::RandomState::new();
    let mut seen: HashMap<u64, Vec<usize>> = HashMap::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let earlier = seen.entry(json_hash(&keys, item)).or_default();
        if let Some(&j) = earlier.iter().find(|&&j| json_equal(&items[j], item)) {
            return Some((i, j));
        }
        earlier.push(i);
    }
    None
}

/// A hash of a JSON value that agrees with [`json_equal`]: a number by
/// the float it is (equal numbers are the same float), an object by its
/// members in any order.
fn json_hash(keys: &std::hash::RandomState, value: &Value) -> u64 {
    use std::hash::{BuildHasher, Hash, Hasher};
    let mut h = keys.build_hasher();
    match value {
        Value::Null => 0u8.hash(&mut h),
        Value::Bool(b) => (1u8, b).hash(&mut h),
        Value::Number(n) => {
            let f = Num::of(n).float();
            // `-0` equals `0`.
            (2u8, if f == 0.0 { 0 } else { f.to_bits() }).hash(&mut h);
        }
        Value::String(s) => (3u8, s).hash(&mut h),
        Value::Array(items) => {
            (4u8, items.len()).hash(&mut h);
            for item in items {
                json_hash(keys, item).hash(&mut h);
            }
        }
        Value::Object(map) => {
            let members = map.iter().fold(0u64, |sum, (k, v)| {
                sum.wrapping_add(keys.hash_one((k, json_hash(keys, v))))
            });
            (5u8, map.len(), members).hash(&mut h);
        }
    }
    h.finish()
}

fn kind_of(value: &Value) -> u8 {
    match value {
        Value::Null => NULL,
        Value::Bool(_) => BOOL,
        Value::Number(n) if Num::of(n).is_integer() => INT,
        Value::Number(_) => NUM,
        Value::String(_) => STR,
        Value::Array(_) => ARR,
        Value::Object(_) => OBJ,
    }
}

/// "a string", "an object or null", for type mismatches.
pub(crate) fn type_words(types: u8) -> String {
    let names = [
        (OBJ, "an object"),
        (ARR, "an array"),
        (STR, "a string"),
        (NUM, "a number"),
        (INT, "an integer"),
        (BOOL, "a boolean"),
        (NULL, "null"),
    ];
    let words: Vec<&str> = names
        .iter()
        .filter(|(bit, _)| types & bit != 0 && !(*bit == INT && types & NUM != 0))
        .map(|(_, w)| *w)
        .collect();
    match words.as_slice() {
        [] => "no value at all".to_owned(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// What the model gave, in words, with bounded echo.
pub(crate) fn got(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {}", echo(s)),
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}

/// JSON Schema counts `2.0` and `-0` as integers; serde reads a float into
/// an integer type only when it is written as one. In a buffered value
/// (checked against node `id`), a whole float where the schema asks for an
/// integer becomes the integer it is (below 2^53, where a float holds every
/// integer exactly); where it asks for a number, or says nothing, the float
/// stays as written (`2.0` for an `f64` or a `Value`, `-0.0` with its
/// sign). A combinator's branches are followed where the value meets them.
fn integers_where_the_schema_says(
    schema: &CompiledSchema,
    id: NodeId,
    value: &mut Value,
    depth: usize,
    walk: &mut Normalize,
) {
    // serde_json's recursion limit bounds the depth of a parsed value.
    if depth > 256 {
        return;
    }
    let node = schema.node(id);
    if node.has_choices() {
        // Each part of the value once per choice node: `allOf` branches
        // that share a subschema are not walked again.
        if !walk
            .done
            .insert((id, std::ptr::from_ref::<Value>(value) as usize))
        {
            return;
        }
        for &branch in &node.all_of {
            integers_where_the_schema_says(schema, branch, value, depth + 1, walk);
        }
        // The branch serde reads the value as: the first that holds, in
        // the order of the schema (an untagged enum's variant order; a
        // tagged enum's branches exclude each other).
        let first = node
            .any_of
            .iter()
            .chain(&node.one_of)
            .copied()
            .find(|&branch| {
                schema
                    .validate_in(branch, value, &mut String::new(), &mut walk.verdicts)
                    .is_ok()
            });
        if let Some(branch) = first {
            integers_where_the_schema_says(schema, branch, value, depth + 1, walk);
        }
    }
    match value {
        Value::Number(n) if n.is_f64() && node.types & INT != 0 && node.types & NUM == 0 => {
            if let Some(f) = n.as_f64()
                && f.fract() == 0.0
                && f.abs() < 9_007_199_254_740_992.0
            {
                *value = if f >= 0.0 {
                    Value::from(f as u64)
                } else {
                    Value::from(f as i64)
                };
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                let child = node.prefix_items.get(i).copied().unwrap_or(node.items);
                integers_where_the_schema_says(schema, child, item, depth + 1, walk);
            }
        }
        Value::Object(map) => {
            if !node.absent_nulls.is_empty() {
                // Read as absent, so serde gives the key's default; taken
                // out after the walk, which keys its memory by address.
                let object = std::ptr::from_ref(&*map) as usize;
                for (key, item) in map.iter() {
                    if item.is_null()
                        && node
                            .properties
                            .iter()
                            .position(|(name, _)| name == key)
                            .is_some_and(|i| node.null_is_absent(i))
                    {
                        walk.absent.push((object, key.clone()));
                    }
                }
            }
            for (key, item) in map.iter_mut() {
                let child = node
                    .properties
                    .iter()
                    .find(|(name, _)| name == key)
                    .map_or_else(
                        || node.extra_child(Some(key)).unwrap_or(ANY_NODE),
                        |(_, id)| *id,
                    );
                integers_where_the_schema_says(schema, child, item, depth + 1, walk);
            }
        }
        _ => {}
    }
}

/// Whether node `id` may accept `null` (a cheap look at its types, its
/// `enum` and its choices; a node that may is read as it is).
fn accepts_null(nodes: &[Node], id: NodeId, depth: usize) -> bool {
    let node = &nodes[id];
    if depth > 32 {
        return true;
    }
    if node.types & NULL == 0 {
        return false;
    }
    if let Some(values) = &node.enumeration
        && !values.iter().any(Value::is_null)
    {
        return false;
    }
    if !node
        .all_of
        .iter()
        .all(|&b| accepts_null(nodes, b, depth + 1))
    {
        return false;
    }
    let choices: Vec<NodeId> = node.any_of.iter().chain(&node.one_of).copied().collect();
    choices.is_empty() || choices.iter().any(|&b| accepts_null(nodes, b, depth + 1))
}

/// The verdicts of one walk over a buffered value: each choice node's
/// (`anyOf`, `oneOf`, `allOf`) verdict on one part of the value, keyed by
/// the node and the part's address.
#[derive(Default)]
struct Verdicts(HashMap<(NodeId, usize), Result<(), ArgumentError>>);

/// What the integer walk has seen: the verdicts it asked for, the
/// (choice node, part) pairs it has already walked, and the keys whose
/// `null` reads as absent, by their object's address.
#[derive(Default)]
struct Normalize {
    verdicts: Verdicts,
    done: std::collections::HashSet<(NodeId, usize)>,
    absent: Vec<(usize, String)>,
}

/// Takes the keys in `absent` out of their objects, the deepest first (a
/// parent's removal moves its children).
fn take_out(value: &mut Value, absent: &HashMap<usize, Vec<String>>, depth: usize) {
    if depth > 256 {
        return;
    }
    match value {
        Value::Array(items) => {
            for item in items {
                take_out(item, absent, depth + 1);
            }
        }
        Value::Object(map) => {
            let object = std::ptr::from_ref(&*map) as usize;
            for item in map.values_mut() {
                take_out(item, absent, depth + 1);
            }
            if let Some(keys) = absent.get(&object) {
                map.retain(|key, _| !keys.contains(key));
            }
        }
        _ => {}
    }
}

struct Compiler<'r> {
    root: &'r Value,
    nodes: Vec<Node>,
    refs: HashMap<String, NodeId>,
    /// References whose target is being compiled (their node is not filled in yet).
    building: Vec<NodeId>,
}

impl Compiler<'_> {
    fn compile(&mut self, schema: &Value, pointer: &str) -> Result<NodeId, SchemaError> {
        let object = match schema {
            Value::Bool(true) => return Ok(ANY_NODE),
            Value::Bool(false) => return Ok(NEVER_NODE),
            Value::Object(object) => object,
            _ => {
                return Err(SchemaError::new(
                    "",
                    pointer,
                    "a schema must be an object or a boolean",
                ));
            }
        };
        if let Some(reference) = object.get("$ref") {
            let asserts = object
                .keys()
                .any(|k| k != "$ref" && !ANNOTATIONS.contains(&k.as_str()) && !k.starts_with("x-"));
            let target = self.reference(reference, pointer)?;
            if !asserts {
                return Ok(target);
            }
            let mut rest = object.clone();
            rest.remove("$ref");
            let own = self.compile(&Value::Object(rest), pointer)?;
            return Ok(self.push(Node {
                all_of: vec![target, own],
                ..Node::default()
            }));
        }
        let mut node = self.node(object, pointer)?;
        match money_schema(object) {
            Some(kind) => node.money = Some(kind),
            // `anyOf: [Money, null]` is read as the Money node that also
            // takes null (`nullable`) and keeps its flag, unless the object
            // asserts something of its own beside the union.
            None if object.keys().all(|k| {
                matches!(k.as_str(), "anyOf" | "oneOf")
                    || ANNOTATIONS.contains(&k.as_str())
                    || k.starts_with("x-")
            }) => {}
            None => node.money = None,
        }
        Ok(self.push(node))
    }

    fn push(&mut self, node: Node) -> NodeId {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    fn reference(&mut self, reference: &Value, pointer: &str) -> Result<NodeId, SchemaError> {
        let Some(text) = reference.as_str() else {
            return Err(SchemaError::new("$ref", pointer, "`$ref` must be a string"));
        };
        if let Some(&id) = self.refs.get(text) {
            return Ok(id);
        }
        let target = text
            .strip_prefix('#')
            .and_then(|p| self.root.pointer(p))
            .ok_or_else(|| {
                SchemaError::new(
                    "$ref",
                    pointer,
                    format!("`{text}` does not point into this schema"),
                )
            })?;
        let id = self.push(Node::default());
        self.refs.insert(text.to_owned(), id);
        self.building.push(id);
        let target_pointer = text.trim_start_matches('#').to_owned();
        let compiled = self.compile(target, &target_pointer)?;
        self.building.pop();
        // References back to `id` met while compiling see the same node once
        // it is filled in, so recursive types are checked at every depth.
        self.nodes[id] = self.nodes[compiled].clone();
        Ok(id)
    }

    fn node(&mut self, object: &Map<String, Value>, pointer: &str) -> Result<Node, SchemaError> {
        let mut node = Node::default();
        let mut format = None;
        let mut own = false;
        for (key, value) in object {
            if !matches!(key.as_str(), "anyOf" | "oneOf")
                && !ANNOTATIONS.contains(&key.as_str())
                && !key.starts_with("x-")
            {
                own = true;
            }
            let here = |reason: &str| SchemaError::new(key, pointer, reason);
            let child = |name: &str| format!("{pointer}/{key}/{}", escape(name));
            match key.as_str() {
                "type" => node.types = types(value).ok_or_else(|| here("unknown type name"))?,
                "enum" => {
                    node.enumeration = Some(
                        value
                            .as_array()
                            .ok_or_else(|| here("must be an array"))?
                            .clone(),
                    )
                }
                "const" => node.enumeration = Some(vec![value.clone()]),
                "minLength" => {
                    node.min_length = Some(count(value).ok_or_else(|| here("must be a count"))?)
                }
                "maxLength" => {
                    node.max_length = Some(count(value).ok_or_else(|| here("must be a count"))?)
                }
                "minItems" => {
                    node.min_items = Some(count(value).ok_or_else(|| here("must be a count"))?)
                }
                "maxItems" => {
                    node.max_items = Some(count(value).ok_or_else(|| here("must be a count"))?)
                }
                "minProperties" => {
                    node.min_properties = Some(count(value).ok_or_else(|| here("must be a count"))?)
                }
                "maxProperties" => {
                    node.max_properties = Some(count(value).ok_or_else(|| here("must be a count"))?)
                }
                "uniqueItems" => {
                    node.unique_items = value.as_bool().ok_or_else(|| here("must be a boolean"))?
                }
                "minimum" => {
                    node.minimum = Some(number(value).ok_or_else(|| here("must be a number"))?)
                }
                "maximum" => {
                    node.maximum = Some(number(value).ok_or_else(|| here("must be a number"))?)
                }
                "exclusiveMinimum" => {
                    node.exclusive_minimum =
                        Some(number(value).ok_or_else(|| here("must be a number"))?)
                }
                "exclusiveMaximum" => {
                    node.exclusive_maximum =
                        Some(number(value).ok_or_else(|| here("must be a number"))?)
                }
                "multipleOf" => {
                    let m = number(value).ok_or_else(|| here("must be a number"))?;
                    if m.compare(Num::U(0)) != Some(Ordering::Greater) {
                        return Err(here("must be greater than 0"));
                    }
                    node.multiple_of = Some(m);
                }
                "pattern" => {
                    let source = value.as_str().ok_or_else(|| here("must be a string"))?;
                    let re = ecma_regex(source).map_err(|e| {
                        here(&format!(
                            "{source:?} is not a valid regular expression: {e}"
                        ))
                    })?;
                    node.pattern = Some((source.to_owned(), Matcher::new(source, re)));
                }
                "format" => format = Some(value.as_str().ok_or_else(|| here("must be a string"))?),
                "items" => node.items = self.compile(value, &format!("{pointer}/items"))?,
                "prefixItems" => {
                    let list = value.as_array().ok_or_else(|| here("must be an array"))?;
                    for (i, item) in list.iter().enumerate() {
                        let id = self.compile(item, &format!("{pointer}/prefixItems/{i}"))?;
                        node.prefix_items.push(id);
                    }
                }
                "properties" => {
                    let map = value.as_object().ok_or_else(|| here("must be an object"))?;
                    for (name, schema) in map {
                        let id = self.compile(schema, &child(name))?;
                        node.properties.push((name.clone(), id));
                    }
                }
                "required" => {} // read below, once the properties are known
                "additionalProperties" => {
                    node.additional =
                        match self.compile(value, &format!("{pointer}/additionalProperties"))? {
                            ANY_NODE => Additional::Any,
                            NEVER_NODE => Additional::Deny,
                            id => Additional::Schema(id),
                        }
                }
                "patternProperties" => {
                    let map = value.as_object().ok_or_else(|| here("must be an object"))?;
                    for (source, schema) in map {
                        let re = ecma_regex(source).map_err(|e| {
                            here(&format!(
                                "{source:?} is not a valid regular expression: {e}"
                            ))
                        })?;
                        let id = self.compile(schema, &child(source))?;
                        node.pattern_properties.push((Matcher::new(source, re), id));
                    }
                }
                "anyOf" | "oneOf" | "allOf" => {
                    let list = value
                        .as_array()
                        .filter(|l| !l.is_empty())
                        .ok_or_else(|| here("must be a non-empty array"))?;
                    let mut ids = Vec::new();
                    for (i, item) in list.iter().enumerate() {
                        ids.push(self.compile(item, &format!("{pointer}/{key}/{i}"))?);
                    }
                    match key.as_str() {
                        "anyOf" => node.any_of = ids,
                        "oneOf" => node.one_of = ids,
                        _ => node.all_of = ids,
                    }
                }
                k if ANNOTATIONS.contains(&k) || k.starts_with("x-") => {}
                _ => {
                    return Err(here(
                        "the parser cannot enforce this keyword, so the schema would promise more than the parser checks; express the rule with a supported keyword or a type of its own",
                    ));
                }
            }
        }
        if let Some(required) = object.get("required") {
            let here = |reason: &str| SchemaError::new("required", pointer, reason);
            for name in required
                .as_array()
                .ok_or_else(|| here("must be an array"))?
            {
                let name = name.as_str().ok_or_else(|| here("must list strings"))?;
                match node.properties.iter().position(|(n, _)| n == name) {
                    Some(i) => node.required.push(i),
                    None => {
                        return Err(here(&format!(
                            "\"{name}\" is required but not among the properties"
                        )));
                    }
                }
            }
        }
        if let Some(format) = format
            && let Some((min, max)) = integer_range(format)
        {
            node.integer_type = integer_type_name(format);
            // schemars states the Rust type's range beside its format; serde
            // enforces that range itself, so those bounds need no check.
            if node
                .minimum
                .is_some_and(|m| m.compare(min) != Some(Ordering::Greater))
            {
                node.minimum = None;
            }
            if node
                .maximum
                .is_some_and(|m| m.compare(max) != Some(Ordering::Less))
            {
                node.maximum = None;
            }
        }
        // A 32-bit float: numbers are judged as the type holds them.
        node.single = format == Some("float") && node.types & STR == 0;
        if let Some(format) = format {
            if formats::SUPPORTED.contains(&format) {
                node.format = Some(
                    formats::SUPPORTED
                        .iter()
                        .find(|f| **f == format)
                        .copied()
                        .unwrap_or(""),
                );
            } else if !NUMBER_FORMATS.contains(&format) || node.types & STR != 0 {
                return Err(SchemaError::new(
                    "format",
                    pointer,
                    format!(
                        "the parser does not check the format {format:?}; the formats it checks are {}",
                        formats::SUPPORTED.join(", ")
                    ),
                ));
            }
        }
        // `{}` (no keyword at all) is any value, not a union of no branches.
        let union = !node.one_of.is_empty() || !node.any_of.is_empty();
        if !own && union {
            let branches = if node.one_of.is_empty() {
                &node.any_of
            } else {
                &node.one_of
            };
            if let Some(other) = self.nullable(branches) {
                return Ok(other);
            }
            if let Some(values) = self.scalar_choices(branches) {
                // schemars' documented unit enum: `oneOf` of `const`s is an
                // `enum`, checked while streaming.
                return Ok(values);
            }
        }
        Ok(node)
    }

    /// Branches that each allow exactly one distinct scalar value, as one
    /// node with an `enum` of them (the same for `anyOf` and `oneOf`).
    fn scalar_choices(&self, branches: &[NodeId]) -> Option<Node> {
        let mut values: Vec<Value> = Vec::new();
        let mut types = 0;
        for &id in branches {
            let n = &self.nodes[id];
            if self.building.contains(&id) {
                return None;
            }
            let [one] = n.enumeration.as_deref()? else {
                return None;
            };
            let alone = Node {
                enumeration: None,
                types: ANY,
                ..n.clone()
            };
            if alone.has_any_keyword()
                || one.is_object()
                || one.is_array()
                || values.iter().any(|v| json_equal(v, one))
                || kind_of(one) & n.types == 0 && !(kind_of(one) == INT && n.types & NUM != 0)
            {
                return None;
            }
            types |= kind_of(one);
            values.push(one.clone());
        }
        Some(Node {
            types: if types & INT != 0 { types | NUM } else { types },
            enumeration: Some(values),
            ..Node::default()
        })
    }

    /// `anyOf: [X, {"type": "null"}]` (schemars' `Option<X>`) as X with null
    /// allowed, so optional nested values are checked while streaming.
    fn nullable(&self, branches: &[NodeId]) -> Option<Node> {
        let [a, b] = branches else {
            return None;
        };
        let is_null = |id: NodeId| {
            let n = &self.nodes[id];
            n.types == NULL && !n.has_any_keyword()
        };
        let other = match (is_null(*a), is_null(*b)) {
            (true, false) => *b,
            (false, true) => *a,
            _ => return None,
        };
        let node = &self.nodes[other];
        if self.building.contains(&other)
            || other == ANY_NODE
            || !node.any_of.is_empty()
            || !node.one_of.is_empty()
            || !node.all_of.is_empty()
        {
            return None;
        }
        let mut node = node.clone();
        node.types |= NULL;
        if let Some(allowed) = &mut node.enumeration {
            allowed.push(Value::Null);
        }
        Some(node)
    }
}

impl Node {
    /// Whether the node allows any value at all (`true`, `{}`, or only
    /// annotations such as a description).
    pub(crate) fn allows_anything(&self) -> bool {
        self.types == ANY && !self.single && !self.has_any_keyword()
    }

    /// Whether any assertion besides `type` is set.
    fn has_any_keyword(&self) -> bool {
        self.enumeration.is_some()
            || self.min_length.is_some()
            || self.max_length.is_some()
            || self.pattern.is_some()
            || self.format.is_some()
            || self.minimum.is_some()
            || self.maximum.is_some()
            || self.exclusive_minimum.is_some()
            || self.exclusive_maximum.is_some()
            || self.multiple_of.is_some()
            || !self.prefix_items.is_empty()
            || self.items != ANY_NODE
            || self.min_items.is_some()
            || self.max_items.is_some()
            || self.unique_items
            || !self.properties.is_empty()
            || self.additional != Additional::Any
            || self.min_properties.is_some()
            || self.max_properties.is_some()
            || !self.any_of.is_empty()
            || !self.one_of.is_empty()
            || !self.all_of.is_empty()
    }
}

/// The range of the Rust integer type schemars names by `format`.
/// Whether `object` is exactly the schema of `Money` (`Some(false)`) or of
/// `SignedMoney` (`Some(true)`), as their `JsonSchema` impls write it.
fn money_schema(object: &Map<String, Value>) -> Option<bool> {
    static SCHEMAS: OnceLock<(Value, Value)> = OnceLock::new();
    let (money, signed) = SCHEMAS.get_or_init(|| {
        let mut generator = SchemaGenerator::default();
        (
            Money::json_schema(&mut generator).to_value(),
            SignedMoney::json_schema(&mut generator).to_value(),
        )
    });
    let is = |schema: &Value| schema.as_object().is_some_and(|s| s == object);
    if is(money) {
        Some(false)
    } else if is(signed) {
        Some(true)
    } else {
        None
    }
}

/// The Rust integer type a number `format` names, as serde names it.
fn integer_type_name(format: &str) -> Option<&'static str> {
    Some(match format {
        "uint8" => "u8",
        "uint16" => "u16",
        "uint32" => "u32",
        "uint64" | "uint" => "u64",
        "int8" => "i8",
        "int16" => "i16",
        "int32" => "i32",
        "int64" | "int" => "i64",
        _ => return None,
    })
}

fn integer_range(format: &str) -> Option<(Num, Num)> {
    Some(match format {
        "uint8" => (Num::U(0), Num::U(u8::MAX.into())),
        "uint16" => (Num::U(0), Num::U(u16::MAX.into())),
        "uint32" => (Num::U(0), Num::U(u32::MAX.into())),
        "uint64" | "uint" => (Num::U(0), Num::U(u64::MAX)),
        "int8" => (Num::I(i8::MIN.into()), Num::I(i8::MAX.into())),
        "int16" => (Num::I(i16::MIN.into()), Num::I(i16::MAX.into())),
        "int32" => (Num::I(i32::MIN.into()), Num::I(i32::MAX.into())),
        "int64" | "int" => (Num::I(i64::MIN), Num::I(i64::MAX)),
        _ => return None,
    })
}

fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

fn types(value: &Value) -> Option<u8> {
    let one = |name: &str| match name {
        "null" => Some(NULL),
        "boolean" => Some(BOOL),
        "integer" => Some(INT),
        "number" => Some(NUM | INT),
        "string" => Some(STR),
        "array" => Some(ARR),
        "object" => Some(OBJ),
        _ => None,
    };
    match value {
        Value::String(name) => one(name),
        Value::Array(names) => names
            .iter()
            .try_fold(0, |bits, n| Some(bits | one(n.as_str()?)?)),
        _ => None,
    }
}

fn count(value: &Value) -> Option<u64> {
    match value {
        Value::Number(n) => n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| *f >= 0.0 && f.fract() == 0.0)
                .map(|f| f as u64)
        }),
        _ => None,
    }
}

fn number(value: &Value) -> Option<Num> {
    value.as_number().map(Num::of)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integers_compare_exactly() {
        assert_eq!(
            Num::U(9_007_199_254_740_993).compare(Num::U(9_007_199_254_740_992)),
            Some(Ordering::Greater)
        );
        assert_eq!(Num::F(-0.0).compare(Num::U(0)), Some(Ordering::Equal));
        assert_eq!(Num::F(1.5).compare(Num::I(1)), Some(Ordering::Greater));
        assert_eq!(Num::I(-3).compare(Num::F(-2.5)), Some(Ordering::Less));
    }

    #[test]
    fn simple_patterns_match_like_the_regular_expression() {
        for source in [
            "^[A-Z]{3}$",
            "^[a-z]+$",
            "^[0-9A-F-]{2,4}$",
            "^[x]*$",
            "^[a-c]{2,}$",
        ] {
            let matcher = Matcher::new(source, Regex::new(source).unwrap());
            assert!(matches!(matcher, Matcher::Class { .. }), "{source}");
            let re = Regex::new(source).unwrap();
            for s in [
                "", "A", "EUR", "eur", "EURO", "ab", "abc", "0F-", "12345", "xx", "é", "A-B",
            ] {
                assert_eq!(matcher.is_match(s), re.is_match(s), "{source} on {s:?}");
            }
        }
        for source in ["^[^a]$", "[a-z]+", "^[a-z]+", r"^[\d]+$", "^(a|b)$"] {
            let matcher = Matcher::new(source, Regex::new(source).unwrap());
            assert!(matches!(matcher, Matcher::Regex(_)), "{source}");
        }
    }

    #[test]
    fn integer_bounds_and_lengths_decided_early_agree_with_the_full_checks() {
        let node = |schema: Value| {
            let compiled = CompiledSchema::compile(&schema).unwrap();
            compiled.node(compiled.root).clone()
        };
        let n = node(json!({"type": "integer", "minimum": 1, "maximum": 1000}));
        assert_eq!(n.integer_range, Some((1, 1000)));
        let n = node(json!({"type": "integer", "exclusiveMinimum": -5, "exclusiveMaximum": 5}));
        assert_eq!(n.integer_range, Some((-4, 4)));
        let n = node(json!({"type": "integer", "minimum": 1.5}));
        assert_eq!(n.integer_range, None);
        let n = node(json!({"type": "integer", "minimum": 0, "multipleOf": 2}));
        assert_eq!(n.integer_range, None);
        let n = node(json!({"type": "integer", "enum": [1, 2]}));
        assert_eq!(n.integer_range, None);
        for schema in [
            json!({"type": "integer", "minimum": 1, "maximum": 1000}),
            json!({"type": "integer", "exclusiveMinimum": -5, "exclusiveMaximum": 5}),
            json!({"type": "number", "minimum": 0, "maximum": 18446744073709551615_u64}),
            json!({"type": "integer", "minimum": -9223372036854775808_i64}),
        ] {
            let n = node(schema.clone());
            let (lo, hi) = n.integer_range.unwrap();
            for v in [
                Num::U(0),
                Num::U(1),
                Num::U(4),
                Num::U(5),
                Num::U(1000),
                Num::U(1001),
                Num::U(u64::MAX),
                Num::I(-4),
                Num::I(-5),
                Num::I(i64::MIN),
            ] {
                let i = v.int().unwrap();
                assert_eq!(lo <= i && i <= hi, number_holds(&n, v), "{schema} on {v}");
            }
        }
        let n = node(json!({"type": "string", "minLength": 2, "maxLength": 3}));
        assert!(n.lengths_only);
        for s in [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "éé",
            "ééé",
            "éééé",
            "𝄞",
            "𝄞𝄞𝄞𝄞",
        ] {
            if lengths_hold(&n, s) {
                assert!(string_holds(&n, s), "{s}");
            }
            assert_eq!(
                string_holds(&n, s),
                (2..=3).contains(&s.chars().count()),
                "{s}"
            );
            assert_eq!(lengths_within(&n, s), string_holds(&n, s), "{s}");
        }
        let n = node(json!({"type": "string", "maxLength": 3, "pattern": "^a+$"}));
        assert!(!n.lengths_only);
        let n = node(json!({"type": "string", "maxLength": 3, "format": "email"}));
        assert!(!n.lengths_only);
        let n = node(json!({"type": "string", "maxLength": 3, "enum": ["a"]}));
        assert!(!n.lengths_only);
    }

    #[test]
    fn a_one_of_of_constants_is_an_enum_checked_while_streaming() {
        let schema = json!({"oneOf": [
            {"type": "string", "const": "low", "description": "Slow."},
            {"type": "string", "const": "high"}
        ]});
        let compiled = CompiledSchema::compile(&schema).unwrap();
        let node = compiled.node(compiled.root);
        assert!(node.streamable);
        assert_eq!(node.enumeration, Some(vec![json!("low"), json!("high")]));
    }

    #[test]
    fn unenforceable_keywords_are_refused_with_their_pointer() {
        let schema = json!({"type": "object", "properties": {"a": {"not": {"type": "null"}}}});
        let error = CompiledSchema::compile(&schema).unwrap_err();
        assert_eq!(error.keyword(), "not");
        assert_eq!(error.pointer(), "/properties/a");
        // (`patternProperties` is read now: schemars writes it for a map
        // keyed by integers.)
        let schema = json!({"$defs": {"F": {"type": "object", "dependentSchemas": {}}}, "$ref": "#/$defs/F"});
        let error = CompiledSchema::compile(&schema).unwrap_err();
        assert_eq!(
            (error.keyword(), error.pointer()),
            ("dependentSchemas", "/$defs/F")
        );
        let schema = json!({"type": "string", "format": "iri"});
        let error = CompiledSchema::compile(&schema).unwrap_err();
        assert_eq!(error.keyword(), "format");
    }

    #[test]
    fn buffered_values_are_checked_at_every_depth() {
        let schema = json!({
            "type": "object",
            "properties": {"f": {"anyOf": [{"$ref": "#/$defs/F"}, {"type": "null"}]}},
            "additionalProperties": false,
            "$defs": {"F": {"type": "object", "properties": {"b": {"type": "string", "maxLength": 2}}, "additionalProperties": false}}
        });
        let compiled = CompiledSchema::compile(&schema).unwrap();
        let check = |v: Value| {
            let mut path = "$".to_owned();
            compiled
                .validate(compiled.root, &v, &mut path)
                .map_err(|e| e.to_string())
        };
        assert_eq!(check(json!({"f": null})), Ok(()));
        assert_eq!(
            check(json!({"f": {"b": "abc"}})),
            Err("$.f.b: expected at most 2 characters, got 3 characters".to_owned())
        );
        assert_eq!(
            check(json!({"f": {"x": 1}})),
            Err(
                "$.f.x: unknown field \"x\"; expected one of \"b\" (did you mean \"b\"?)"
                    .to_owned()
            )
        );
    }
}
