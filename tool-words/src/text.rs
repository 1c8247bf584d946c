//! Sentences and code spans: how the words are joined and quoted.

/// `text` as a Markdown code span, with a fence longer than any run of
/// backticks inside it: `` `a_b` ``, ``` ``a`b`` ```.
pub fn code(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    if text.starts_with('`') || text.ends_with('`') {
        format!("{fence} {text} {fence}")
    } else {
        format!("{fence}{text}{fence}")
    }
}

/// `text` followed by `more` as further sentences: `"The SKU"` and `"At
/// least 1 character."` give `"The SKU. At least 1 character."`; an empty
/// `text` gives `more` alone.
pub fn followed_by(text: &str, more: &str) -> String {
    let text = text.trim_end();
    if more.is_empty() {
        text.to_owned()
    } else if text.is_empty() {
        more.to_owned()
    } else if text.ends_with(['.', '!', '?']) {
        format!("{text} {more}")
    } else {
        format!("{text}. {more}")
    }
}

/// The description a model reads for a field: its own, then its unit as a
/// sentence (`"How long to wait. Unit: milliseconds."`).
pub fn described(description: &str, unit: Option<&str>) -> String {
    match unit {
        Some(unit) => followed_by(description, &unit_sentence(unit)),
        None => description.to_owned(),
    }
}

pub(crate) fn unit_sentence(unit: &str) -> String {
    format!("Unit: {unit}.")
}

/// A phrase as a sentence: its first letter capitalised, a full stop added.
pub(crate) fn sentence(phrase: &str) -> String {
    let mut chars = phrase.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_survive_backticks() {
        assert_eq!(code("a_b"), "`a_b`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x`"), "`` `x` ``");
    }

    #[test]
    fn sentences_follow_the_text() {
        assert_eq!(
            followed_by("The SKU", "At least 1 character."),
            "The SKU. At least 1 character."
        );
        assert_eq!(
            followed_by("The SKU. ", "Deprecated."),
            "The SKU. Deprecated."
        );
        assert_eq!(
            followed_by("Why not?", "Deprecated."),
            "Why not? Deprecated."
        );
        assert_eq!(followed_by("Go!", "Deprecated."), "Go! Deprecated.");
        assert_eq!(followed_by("", "Deprecated."), "Deprecated.");
        assert_eq!(followed_by("The SKU.", ""), "The SKU.");
    }

    #[test]
    fn the_unit_is_a_sentence_after_the_description() {
        assert_eq!(
            described("How long to wait.", Some("milliseconds")),
            "How long to wait. Unit: milliseconds."
        );
        assert_eq!(
            described("How long to wait", Some("seconds")),
            "How long to wait. Unit: seconds."
        );
        assert_eq!(described("How long to wait.", None), "How long to wait.");
    }

    #[test]
    fn phrases_become_sentences() {
        assert_eq!(sentence("a whole number"), "A whole number.");
        assert_eq!(sentence("Base64-encoded bytes"), "Base64-encoded bytes.");
        assert_eq!(sentence("ümlaut first"), "Ümlaut first.");
        assert_eq!(sentence(""), "");
    }
}
