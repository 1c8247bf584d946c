//! The rule providers apply to a tool's name: 1 to 64 ASCII letters, digits,
//! `_` and `-` (OpenAI's `^[a-zA-Z0-9_-]{1,64}$`), which the derive checks
//! when a tool is declared.

/// The most characters a provider accepts in a tool name.
pub const MAX_NAME_CHARS: usize = 64;

/// Why providers refuse a tool name.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NameProblem {
    /// No character at all.
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
    if length > MAX_NAME_CHARS {
        return Some(NameProblem::TooLong(length));
    }
    let refused: Vec<char> = name
        .chars()
        .filter(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
        .collect();
    (!refused.is_empty()).then_some(NameProblem::Characters(refused))
}

#[cfg(test)]
mod tests {
    use super::{NameProblem, name_problem};

    #[test]
    fn names_providers_accept() {
        assert_eq!(name_problem("create_refund_draft"), None);
        assert_eq!(name_problem("get-weather-2"), None);
        assert_eq!(name_problem(&"a".repeat(64)), None);
        assert_eq!(name_problem(""), Some(NameProblem::Empty));
        assert_eq!(
            name_problem(&"a".repeat(65)),
            Some(NameProblem::TooLong(65))
        );
        assert_eq!(
            name_problem("get weather.now"),
            Some(NameProblem::Characters(vec![' ', '.']))
        );
    }
}
