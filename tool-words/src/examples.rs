//! A tool's examples of arguments in the words a model reads, for the
//! providers without a field of their own for them.

/// `description` followed by the examples (each compact JSON text) as a
/// paragraph of its own:
///
/// ```
/// assert_eq!(
///     tool_contract::docs::examples_paragraph(
///         "Reserve units of one SKU.",
///         &[r#"{"sku":"SKU-1042","quantity":2}"#.to_owned()],
///     ),
///     "Reserve units of one SKU.\n\nExample arguments:\n{\"sku\":\"SKU-1042\",\"quantity\":2}"
/// );
/// ```
pub fn examples_paragraph(description: &str, examples: &[String]) -> String {
    let mut paragraph = String::from("Example arguments:");
    for example in examples {
        paragraph.push('\n');
        paragraph.push_str(example);
    }
    let description = description.trim_end();
    if description.is_empty() {
        paragraph
    } else {
        format!("{description}\n\n{paragraph}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_example_is_a_line_after_the_description() {
        let examples = ["{\"a\":1}".to_owned(), "{\"a\":2}".to_owned()];
        assert_eq!(
            examples_paragraph("Do it.\n", &examples),
            "Do it.\n\nExample arguments:\n{\"a\":1}\n{\"a\":2}"
        );
        assert_eq!(
            examples_paragraph("", &examples[..1]),
            "Example arguments:\n{\"a\":1}"
        );
    }
}
