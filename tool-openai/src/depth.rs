//! The depth guard: one iterative pass over the input, before anything is
//! copied, compared or printed, so that no value of any depth can overflow
//! the stack.
//!
//! `serde_json::Value`'s `Clone`, `PartialEq`, `Display` and `Drop` recurse
//! once per level; so does the compiler. After this pass, every value the
//! compiler touches is at most [`MAX_VALUE_DEPTH`] levels deep, including
//! those inside `default`, `examples`, `const` and `enum`.

use serde_json::Value;

use crate::error::{Pointer, StrictRule, StrictSchemaError};

/// How many levels of JSON (objects and arrays) a schema document may have.
///
/// Each schema level is one or two JSON levels (`items` is one,
/// `properties/NAME` and `anyOf/N` are two), so this sits above the
/// compiler's own limit of 64 schema levels and far below the stack's.
pub(crate) const MAX_VALUE_DEPTH: usize = 256;

/// Refuses a document with a value nested deeper than [`MAX_VALUE_DEPTH`],
/// naming the first place where it goes too deep; else counts its values.
/// Iterative: the cost is one visit per value, and the stack stays flat.
pub(crate) fn check_depth(document: &Value) -> Result<usize, StrictSchemaError> {
    // One frame per open object or array: the key or index that led into
    // it, and what is left to visit in it.
    enum Children<'a> {
        Object(serde_json::map::Iter<'a>),
        Array(std::iter::Enumerate<std::slice::Iter<'a, Value>>),
    }
    fn children(value: &Value) -> Option<Children<'_>> {
        match value {
            Value::Object(map) => Some(Children::Object(map.iter())),
            Value::Array(items) => Some(Children::Array(items.iter().enumerate())),
            _ => None,
        }
    }
    enum Step<'a> {
        Key(&'a str),
        Index(usize),
    }
    let Some(first) = children(document) else {
        return Ok(1);
    };
    let mut values = 1;
    let mut stack: Vec<(Option<Step<'_>>, Children<'_>)> = vec![(None, first)];
    while let Some((_, frame)) = stack.last_mut() {
        let next = match frame {
            Children::Object(entries) => entries.next().map(|(k, v)| (Step::Key(k.as_str()), v)),
            Children::Array(items) => items.next().map(|(i, v)| (Step::Index(i), v)),
        };
        let Some((step, value)) = next else {
            stack.pop();
            continue;
        };
        values += 1;
        let Some(inner) = children(value) else {
            continue;
        };
        if stack.len() >= MAX_VALUE_DEPTH {
            let mut path = Pointer::root();
            for step in stack.iter().filter_map(|(s, _)| s.as_ref()).chain([&step]) {
                path = match step {
                    Step::Key(key) => path.key(key),
                    Step::Index(index) => path.index(*index),
                };
            }
            return Err(path.error(
                StrictRule::TooDeep,
                format!(
                    "this value is nested more than {MAX_VALUE_DEPTH} levels deep (objects and \
                     arrays); strict mode allows 10 levels of schemas, so flatten the structure"
                ),
            ));
        }
        stack.push((Some(step), inner));
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_limit_counts_objects_and_arrays() {
        let mut value = json!(1);
        for _ in 0..MAX_VALUE_DEPTH {
            value = json!([value]);
        }
        assert_eq!(check_depth(&value), Ok(MAX_VALUE_DEPTH + 1));
        let error = check_depth(&json!({"a": value})).unwrap_err();
        assert_eq!(error.rule(), StrictRule::TooDeep);
        assert_eq!(
            error.path(),
            format!("#/a{}", "/0".repeat(MAX_VALUE_DEPTH - 1))
        );
    }
}
