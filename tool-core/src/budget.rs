//! A tool set over a provider's per-request limits: one error for every
//! provider, [`BudgetError`], with each limit the set is over as an
//! [`OverBudget`]: how much the set spends, the limit's value, and the
//! tools that spend it. Each adapter's limit enum implements
//! [`RequestLimit`] and so words the message in its provider's terms.

use std::convert::Infallible;
use std::fmt;

/// One of a provider's per-request limits (implemented by each adapter's
/// limit enum, e.g. tool-openai's `BudgetLimit`): what else an
/// [`OverBudget`] of it carries, and its words.
pub trait RequestLimit: Copy + fmt::Debug + PartialEq + Eq + Send + Sync + 'static {
    /// What an [`OverBudget`] carries besides its counts and tools, to
    /// explain it (what the adapter tried before giving up, say); `()` for
    /// a provider whose counts say everything.
    type Detail: Clone + fmt::Debug + PartialEq + Eq + Send + Sync + 'static;

    /// One limit a tool set is over, in the provider's words.
    fn over(over: &OverBudget<Self>) -> String;

    /// The whole error in the provider's words; by default the words of
    /// each limit ([`over`](Self::over)), joined by `; `.
    fn message(error: &BudgetError<Self>) -> String {
        error
            .over
            .iter()
            .map(Self::over)
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// One limit a tool set is over: how much the set spends of it, the
/// limit's value, and which tools spend it.
///
/// ```
/// use tool_core::dialect::{BudgetError, OverBudget, RequestLimit};
///
/// #[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// enum Limit {
///     Tools,
/// }
///
/// impl RequestLimit for Limit {
///     type Detail = ();
///     fn over(over: &OverBudget<Self>) -> String {
///         format!("{} tools (at most {})", over.spent, over.max)
///     }
/// }
///
/// let error = BudgetError {
///     over: vec![OverBudget {
///         limit: Limit::Tools,
///         spent: 3,
///         max: 2,
///         tools: vec![("a".into(), 1), ("b".into(), 1), ("c".into(), 1)],
///         detail: (),
///     }],
/// };
/// assert_eq!(error.to_string(), "3 tools (at most 2)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverBudget<L: RequestLimit> {
    /// The limit.
    pub limit: L,
    /// What the set spends of it (a sum over its tools, or whatever the
    /// provider counts: the deepest tool's nesting, say).
    pub spent: usize,
    /// The limit's value: the most the provider takes.
    pub max: usize,
    /// The tools (or the tools' fields, `tool.field`) that spend it, each
    /// with what it spends, in the order the adapter documents.
    pub tools: Vec<(String, usize)>,
    /// What else explains it ([`RequestLimit::Detail`]).
    pub detail: L::Detail,
}

/// A tool set over one or more of a provider's per-request limits, though
/// each tool fits alone; `L` is the adapter's limit enum
/// ([`RequestLimit`]), which words the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BudgetError<L: RequestLimit> {
    /// Each limit the set is over, in the order the adapter documents.
    pub over: Vec<OverBudget<L>>,
}

impl<L: RequestLimit> fmt::Display for BudgetError<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&L::message(self))
    }
}

impl<L: RequestLimit> std::error::Error for BudgetError<L> {}

/// The limits of a provider without per-request limits (Gemini): no
/// [`OverBudget`] of it can be made, so its tool sets are never over
/// budget.
impl RequestLimit for Infallible {
    type Detail = ();

    fn over(over: &OverBudget<Self>) -> String {
        match over.limit {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A provider whose message frames the limits' words, as OpenAI's does.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Framed {
        Properties,
        EnumValues,
    }

    impl RequestLimit for Framed {
        type Detail = ();

        fn over(over: &OverBudget<Self>) -> String {
            let what = match over.limit {
                Framed::Properties => "properties",
                Framed::EnumValues => "enum values",
            };
            let tools: Vec<String> = over
                .tools
                .iter()
                .map(|(tool, spent)| format!("`{tool}` {spent}"))
                .collect();
            format!(
                "{} {what} (at most {}), from {}",
                over.spent,
                over.max,
                tools.join(", ")
            )
        }

        fn message(error: &BudgetError<Self>) -> String {
            let overs: Vec<String> = error.over.iter().map(Self::over).collect();
            format!("over the limits: {}; offer fewer tools", overs.join("; "))
        }
    }

    /// A provider with one limit per error and a detail, as Anthropic's.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Optional;

    impl RequestLimit for Optional {
        type Detail = Option<usize>;

        fn over(over: &OverBudget<Self>) -> String {
            let names: Vec<&str> = over.tools.iter().map(|(name, _)| name.as_str()).collect();
            format!(
                "{} optional parameters, {} kept optional (at most {}); {} made nullable: {}",
                over.tools.len(),
                over.spent,
                over.max,
                over.detail.unwrap_or(0),
                names.join(", ")
            )
        }
    }

    fn over<L: RequestLimit>(
        limit: L,
        spent: usize,
        max: usize,
        tools: &[(&str, usize)],
        detail: L::Detail,
    ) -> OverBudget<L> {
        OverBudget {
            limit,
            spent,
            max,
            tools: tools.iter().map(|(t, n)| ((*t).to_owned(), *n)).collect(),
            detail,
        }
    }

    #[test]
    fn the_message_is_the_limits_words() {
        let error = BudgetError {
            over: vec![
                over(Framed::Properties, 7, 5, &[("a", 4), ("b", 3)], ()),
                over(Framed::EnumValues, 1001, 1000, &[("c", 1001)], ()),
            ],
        };
        assert_eq!(
            error.to_string(),
            "over the limits: 7 properties (at most 5), from `a` 4, `b` 3; 1001 enum values (at \
             most 1000), from `c` 1001; offer fewer tools"
        );
        let error = BudgetError {
            over: vec![over(
                Optional,
                3,
                2,
                &[("t.a", 1), ("t.b", 1), ("u.c", 1), ("u.d", 1)],
                Some(1),
            )],
        };
        assert_eq!(
            error.to_string(),
            "4 optional parameters, 3 kept optional (at most 2); 1 made nullable: t.a, t.b, u.c, u.d"
        );
        assert_eq!(error.over[0].detail, Some(1));
    }

    #[test]
    fn the_default_message_joins_the_limits() {
        let error = BudgetError {
            over: vec![
                over(Optional, 3, 2, &[("t.a", 1)], None),
                over(Optional, 5, 4, &[("t.b", 1)], Some(2)),
            ],
        };
        assert_eq!(
            error.to_string(),
            "1 optional parameters, 3 kept optional (at most 2); 0 made nullable: t.a; 1 optional \
             parameters, 5 kept optional (at most 4); 2 made nullable: t.b"
        );
        let none: BudgetError<Infallible> = BudgetError { over: Vec::new() };
        assert_eq!(none.to_string(), "");
    }
}
