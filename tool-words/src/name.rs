//! The rule every provider accepts in a tool's name,
//! `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`, which the derive checks when a tool is
//! declared: OpenAI and Anthropic take `^[a-zA-Z0-9_-]{1,64}$`, Gemini wants
//! a letter or `_` first, and MCP up to 128 of `[A-Za-z0-9_.-]`; this is
//! where all of them meet.

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
    /// The first character, an ASCII digit or `-`: Gemini wants a name to
    /// start with a letter or `_`.
    Start(char),
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
    if !refused.is_empty() {
        return Some(NameProblem::Characters(refused));
    }
    match name.chars().next() {
        Some(first) if !(first.is_ascii_alphabetic() || first == '_') => {
            Some(NameProblem::Start(first))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{NameProblem, name_problem};

    #[test]
    fn names_providers_accept() {
        assert_eq!(name_problem("create_refund_draft"), None);
        assert_eq!(name_problem("get-weather-2"), None);
        assert_eq!(name_problem("_private_lookup"), None);
        assert_eq!(name_problem("2fa_check"), Some(NameProblem::Start('2')));
        assert_eq!(name_problem("-get"), Some(NameProblem::Start('-')));
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
