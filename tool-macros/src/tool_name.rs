//! The rule providers apply to a tool's name: 1 to 64 ASCII letters, digits,
//! `_` and `-` (OpenAI's `^[a-zA-Z0-9_-]{1,64}$`). The OpenAI adapter checks
//! the same rule when it offers a tool set (the facade's `tests/vocabulary.rs`
//! includes this file and checks that both agree). Uses nothing else of the
//! crate.

/// The most characters a provider accepts in a tool name.
pub const MAX_CHARS: usize = 64;

/// Why providers refuse a tool name.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NameProblem {
    Empty,
    /// The name's length in characters.
    TooLong(usize),
    /// The characters providers refuse, in order.
    Characters(Vec<char>),
}

/// Why providers refuse `name`, or `None` when they accept it.
pub fn name_problem(name: &str) -> Option<NameProblem> {
    let length = name.chars().count();
    if length == 0 {
        return Some(NameProblem::Empty);
    }
    if length > MAX_CHARS {
        return Some(NameProblem::TooLong(length));
    }
    let refused: Vec<char> = name
        .chars()
        .filter(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
        .collect();
    (!refused.is_empty()).then_some(NameProblem::Characters(refused))
}
