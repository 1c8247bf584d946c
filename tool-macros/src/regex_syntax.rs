//! A syntax check for `pattern = "..."`, so a malformed regular expression
//! is a compile error instead of a failure on the first call.
//!
//! It follows the grammar the runtime's engine (regex-lite) accepts, which is
//! also what JSON Schema validators accept in practice: alternation, groups
//! (`(?:..)`, `(?P<name>..)`, `(?<name>..)`, flags), classes with ranges and
//! `[:ascii:]` names, repetition (`* + ? {n} {n,} {n,m}`, lazy `?`), anchors
//! and escapes. Look-around, backreferences and `\p{..}` classes are refused
//! because the runtime does not support them.

/// Why `pattern` is not a valid regular expression, if it is not.
pub fn check(pattern: &str) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut parser = Parser {
        chars: &chars,
        pos: 0,
    };
    match parser.alternation(0) {
        Err(why) => Some(why),
        Ok(()) if parser.pos < chars.len() => {
            Some(format!("unmatched `)` at character {}", parser.pos + 1))
        }
        Ok(()) => None,
    }
}

struct Parser<'a> {
    chars: &'a [char],
    pos: usize,
}

type Step = Result<(), String>;

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn at(&self) -> usize {
        self.pos + 1
    }

    fn alternation(&mut self, depth: usize) -> Step {
        if depth > 64 {
            return Err("groups are nested more than 64 deep".to_owned());
        }
        loop {
            self.concatenation(depth)?;
            if !self.eat('|') {
                return Ok(());
            }
        }
    }

    fn concatenation(&mut self, depth: usize) -> Step {
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let repeatable = self.atom(depth)?;
            self.repetitions(repeatable)?;
        }
        Ok(())
    }

    /// One repetition operator (and its lazy `?`) after an atom.
    fn repetitions(&mut self, repeatable: bool) -> Step {
        let start = self.at();
        let repeated = match self.peek() {
            Some('*' | '+' | '?') => {
                self.pos += 1;
                true
            }
            Some('{') => {
                self.counted()?;
                true
            }
            _ => false,
        };
        if !repeated {
            return Ok(());
        }
        if !repeatable {
            return Err(format!(
                "nothing to repeat before the operator at character {start}"
            ));
        }
        self.eat('?');
        if matches!(self.peek(), Some('*' | '+' | '{')) || (self.peek() == Some('?')) {
            return Err(format!(
                "a repetition is repeated at character {}",
                self.at()
            ));
        }
        Ok(())
    }

    /// `{n}`, `{n,}` or `{n,m}`.
    fn counted(&mut self) -> Step {
        let start = self.at();
        self.pos += 1;
        let low = self.number();
        let high = if self.eat(',') {
            self.number().or(Some(u64::MAX))
        } else {
            low
        };
        if !self.eat('}') || low.is_none() {
            return Err(format!(
                "a repetition at character {start} must be `{{n}}`, `{{n,}}` or `{{n,m}}`; escape a literal brace as `\\\\{{`"
            ));
        }
        if let (Some(low), Some(high)) = (low, high)
            && low > high
        {
            return Err(format!(
                "the repetition at character {start} has its minimum above its maximum"
            ));
        }
        Ok(())
    }

    fn number(&mut self) -> Option<u64> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        let digits: String = self.chars[start..self.pos].iter().collect();
        digits.parse().ok()
    }

    /// Parses one atom; returns whether a repetition may follow it.
    fn atom(&mut self, depth: usize) -> Result<bool, String> {
        let start = self.at();
        let Some(c) = self.peek() else {
            return Ok(false);
        };
        self.pos += 1;
        match c {
            '(' => {
                self.group_head(start)?;
                self.alternation(depth + 1)?;
                if !self.eat(')') {
                    return Err(format!(
                        "the group opened at character {start} is not closed with `)`"
                    ));
                }
                Ok(true)
            }
            '[' => {
                self.class(start)?;
                Ok(true)
            }
            '\\' => self.escape(false),
            '^' | '$' => Ok(false),
            '*' | '+' | '?' | '{' => Err(format!(
                "nothing to repeat before `{c}` at character {start}"
            )),
            _ => Ok(true),
        }
    }

    /// What follows `(`: nothing, `?:`, a name, flags; refuses look-around.
    fn group_head(&mut self, start: usize) -> Step {
        if !self.eat('?') {
            return Ok(());
        }
        match self.peek() {
            Some(':') => {
                self.pos += 1;
                Ok(())
            }
            Some('=' | '!') => Err(format!("look-ahead at character {start} is not supported")),
            Some('<') if matches!(self.chars.get(self.pos + 1), Some('=' | '!')) => {
                Err(format!("look-behind at character {start} is not supported"))
            }
            Some('P' | '<') => {
                self.eat('P');
                if !self.eat('<') {
                    return Err(format!(
                        "the group name at character {start} must be written `(?<name>...)`"
                    ));
                }
                let name_start = self.pos;
                while self.peek().is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    self.pos += 1;
                }
                if self.pos == name_start || !self.eat('>') {
                    return Err(format!(
                        "the group name at character {start} must be written `(?<name>...)`"
                    ));
                }
                Ok(())
            }
            _ => {
                while self.peek().is_some_and(|c| "imsUux-".contains(c)) {
                    self.pos += 1;
                }
                match self.peek() {
                    Some(':') => {
                        self.pos += 1;
                        Ok(())
                    }
                    Some(')') => Ok(()),
                    _ => Err(format!(
                        "unknown group syntax at character {start}; flags are `i`, `m`, `s`, `U`, `u`, `x`"
                    )),
                }
            }
        }
    }

    /// A character class after its `[`.
    fn class(&mut self, start: usize) -> Step {
        self.eat('^');
        let mut first = true;
        let mut previous: Option<char> = None;
        loop {
            let Some(c) = self.peek() else {
                return Err(format!(
                    "the class opened at character {start} is not closed with `]`"
                ));
            };
            if c == ']' && !first {
                self.pos += 1;
                return Ok(());
            }
            first = false;
            self.pos += 1;
            let item = match c {
                '[' if self.peek() == Some(':') => {
                    let close = (self.pos..self.chars.len().saturating_sub(1)).find(|&i| {
                        self.chars[i] == ':' && self.chars[i + 1] == ']' && i > self.pos
                    });
                    match close {
                        Some(i) => {
                            self.pos = i + 2;
                            None
                        }
                        None => {
                            return Err(format!(
                                "the class name at character {} is not closed with `:]`",
                                self.pos
                            ));
                        }
                    }
                }
                '[' => {
                    self.class(self.pos)?;
                    None
                }
                '\\' => {
                    let literal = self.chars.get(self.pos).copied();
                    self.escape(true)?;
                    literal.filter(|l| !l.is_alphanumeric())
                }
                '-' if previous.is_some() && self.peek() != Some(']') => {
                    let low = previous.take().unwrap_or('-');
                    // An escaped bound is checked only when it is a plain
                    // character (`\-`), not a code (`\x7F`).
                    let high = match self.peek() {
                        Some('\\') => {
                            self.pos += 1;
                            let literal = self.peek().filter(|l| !l.is_alphanumeric());
                            self.escape(true)?;
                            literal
                        }
                        Some(h) => {
                            self.pos += 1;
                            Some(h)
                        }
                        None => continue,
                    };
                    if let Some(high) = high.filter(|high| low > *high) {
                        return Err(format!(
                            "the range `{low}-{high}` in the class at character {start} is backwards"
                        ));
                    }
                    continue;
                }
                other => Some(other),
            };
            previous = item;
        }
    }

    /// An escape after its `\`; returns whether a repetition may follow it.
    fn escape(&mut self, in_class: bool) -> Result<bool, String> {
        let start = self.at();
        let Some(c) = self.peek() else {
            return Err("the pattern ends with a lone `\\`".to_owned());
        };
        self.pos += 1;
        match c {
            'd' | 'D' | 'w' | 'W' | 's' | 'S' | 'n' | 'r' | 't' | 'f' | 'v' | 'a' | 'e' | '0' => {
                Ok(true)
            }
            'b' | 'B' | 'A' | 'z' if !in_class => Ok(false),
            'x' | 'u' | 'U' => {
                let digits = match c {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                if self.eat('{') {
                    let n = self.hex_digits(usize::MAX);
                    if n == 0 || !self.eat('}') {
                        return Err(format!(
                            "the escape `\\{c}{{...}}` at character {start} needs hex digits and a `}}`"
                        ));
                    }
                } else if self.hex_digits(digits) != digits {
                    return Err(format!(
                        "the escape `\\{c}` at character {start} needs {digits} hex digits"
                    ));
                }
                Ok(true)
            }
            'p' | 'P' => Err(format!(
                "Unicode classes (`\\{c}{{...}}`) at character {start} are not supported; list the characters instead"
            )),
            '1'..='9' => Err(format!(
                "backreferences (`\\{c}`) at character {start} are not supported"
            )),
            c if c.is_ascii_punctuation() || c == ' ' => Ok(true),
            c => Err(format!("unknown escape `\\{c}` at character {start}")),
        }
    }

    fn hex_digits(&mut self, max: usize) -> usize {
        let mut n = 0;
        while n < max && self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
            self.pos += 1;
            n += 1;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn accepts_what_schemas_and_the_runtime_use() {
        for ok in [
            "^[A-Z]-[0-9]+$",
            "^PO-\\d{3,}$",
            "^\\+[1-9][0-9]{6,14}$",
            "(?i)^sku-[a-z0-9]{4}$",
            "^(?:https?|ftp)://[^\\s/$.?#].[^\\s]*$",
            "^(?P<year>\\d{4})-(?<month>\\d{2})$",
            "[[:alpha:]_][[:alnum:]_]*",
            "a|b|",
            "[]a]",
            "[a-]",
            "\\x41\\u0042\\u{43}",
            "x*?y+?z??",
            "\\.\\*\\{\\}",
            "[z-\\x7F]",
            "[\\x00-\\x7F]",
        ] {
            assert_eq!(check(ok), None, "{ok:?}");
        }
    }

    #[test]
    fn refuses_malformed_patterns_with_the_place() {
        let cases = [
            (
                "(ab",
                "the group opened at character 1 is not closed with `)`",
            ),
            ("ab)", "unmatched `)` at character 3"),
            (
                "[a-z",
                "the class opened at character 1 is not closed with `]`",
            ),
            ("*a", "nothing to repeat before `*` at character 1"),
            ("^+", "nothing to repeat before the operator at character 2"),
            ("a**", "a repetition is repeated at character 3"),
            (
                "a{3,1}",
                "the repetition at character 2 has its minimum above its maximum",
            ),
            (
                "a{x}",
                "a repetition at character 2 must be `{n}`, `{n,}` or `{n,m}`; escape a literal brace as `\\\\{`",
            ),
            (
                "[z-a]",
                "the range `z-a` in the class at character 1 is backwards",
            ),
            ("(?=a)", "look-ahead at character 1 is not supported"),
            ("(?<!a)b", "look-behind at character 1 is not supported"),
            (
                "(a)\\1",
                "backreferences (`\\1`) at character 5 are not supported",
            ),
            (
                "\\p{L}",
                "Unicode classes (`\\p{...}`) at character 2 are not supported; list the characters instead",
            ),
            ("\\q", "unknown escape `\\q` at character 2"),
            ("ab\\", "the pattern ends with a lone `\\`"),
            ("\\x4", "the escape `\\x` at character 2 needs 2 hex digits"),
        ];
        for (pattern, why) in cases {
            assert_eq!(check(pattern).as_deref(), Some(why), "{pattern:?}");
        }
    }
}
