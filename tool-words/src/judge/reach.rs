//! What a tool's string arguments reach: a program the tool would run
//! (`free_form_command`), or a destination outside the application
//! (`untyped_destination`).
//!
//! Where the line is for programs: a field is a program when a word of its
//! name is the name of a language or of something run or evaluated (`sql`,
//! `shell`, `command`, `cmd`, `script`, `expression`, `eval`, `template`,
//! `regex`, `graphql`, `formula`, ...; `code` only after a language:
//! `python_code`, `source_code`; a name that is only a verb of running:
//! `run`, `exec`), or when its description says so (`SQL`, `shell`,
//! `bash`, `script`, `command`, `expression`, "regular expression",
//! `JavaScript`, `Python`, `regex`, `eval`, `GraphQL`, ...; "program",
//! "code" or "statement" beside "run", "execute" or "evaluate"). A name that ends in a word saying the field only names
//! or counts the program (`script_id`, `template_name`, `command_count`) is
//! not one. Search text is not a program: `query`, `search_text`,
//! `keywords`, `user_query` and `search_query` stay allowed, as do codes
//! that are values (`country_code`, `discount_code`, `code`).
//!
//! ```
//! use tool_contract::docs::judge::{command_description, command_name, destination_name, words};
//!
//! assert_eq!(command_name(&words("sql")), Some("sql"));
//! assert_eq!(command_name(&words("filterExpression")), Some("expression"));
//! assert_eq!(command_name(&words("python_code")), Some("code"));
//! assert_eq!(command_name(&words("query")), None);
//! assert_eq!(command_name(&words("discount_code")), None);
//! assert_eq!(command_name(&words("script_id")), None);
//! assert_eq!(command_description("A SQL statement, e.g. SELECT 1."), Some("sql"));
//! assert_eq!(command_description("What to search for, e.g. red shoes."), None);
//! assert_eq!(command_description("The command to run on the build server."), Some("command"));
//! assert_eq!(command_description("A regular expression matched against notes."), Some("regular expression"));
//! assert_eq!(command_description("The program to execute in the sandbox."), Some("program"));
//! assert_eq!(command_description("The loyalty program the customer is in."), None);
//! assert_eq!(command_name(&words("run")), Some("run"));
//! assert_eq!(command_name(&words("run_date")), None);
//! assert!(destination_name(&words("to")));
//! assert!(destination_name(&words("webhookUrl")));
//! assert!(!destination_name(&words("to_date")));
//! assert!(destination_name(&words("mail_to")));
//! ```

/// How a message about a waivable rule ends: how to waive it.
pub fn waiver_hint(rule: &str) -> String {
    format!(
        "; if the rule is wrong here, waive it with a reason: `#[tool(allow({rule} = \"why\"))]`"
    )
}

/// Words that name a program or a query language wherever they stand in a
/// field name: `sql`, `raw_sql`, `shell_command`, `filter_expression`.
pub const COMMAND_WORDS: &[&str] = &[
    "sql",
    "shell",
    "bash",
    "powershell",
    "command",
    "commands",
    "cmd",
    "cmdline",
    "script",
    "scripts",
    "expression",
    "expressions",
    "expr",
    "eval",
    "template",
    "regex",
    "regexp",
    "graphql",
    "jq",
    "jsonpath",
    "xpath",
    "formula",
    "javascript",
    "lua",
];

/// Words before `code` that make it a program: `python_code`, `source_code`.
pub const CODE_LANGUAGES: &[&str] = &[
    "source",
    "program",
    "python",
    "py",
    "js",
    "javascript",
    "typescript",
    "ts",
    "ruby",
    "lua",
    "sql",
    "shell",
    "bash",
    "php",
    "perl",
    "java",
    "rust",
    "go",
    "c",
    "cpp",
    "wasm",
    "executable",
];

/// Last words that make a program-like name something else: the field
/// names, counts or picks the program, it does not hold it (`script_id`,
/// `template_name`, `command_count`, `sql_dialect`).
pub const NOT_THE_PROGRAM: &[&str] = &[
    "id", "ids", "ref", "refs", "name", "names", "key", "keys", "type", "types", "kind", "kinds",
    "count", "version", "dialect", "language", "lang", "slug", "label",
];

/// Words of a description that say the string is a program.
pub const COMMAND_DESCRIPTION_WORDS: &[&str] = &[
    "sql",
    "command",
    "commands",
    "expression",
    "expressions",
    "shell",
    "bash",
    "powershell",
    "cmd",
    "script",
    "javascript",
    "python",
    "lua",
    "eval",
    "regex",
    "regexp",
    "graphql",
    "jq",
    "jsonpath",
    "xpath",
];

/// Words of a description that say the string is a program when a
/// [`RUN_VERBS`] word is in the same description: "The program to execute
/// in the sandbox", "Source code evaluated on the server"; alone they are
/// ordinary ("the loyalty program", "a discount code").
pub const RUN_OBJECTS: &[&str] = &[
    "program",
    "programs",
    "code",
    "source",
    "statement",
    "statements",
    "instructions",
];

/// Verbs of a description that, beside a [`RUN_OBJECTS`] word, say the
/// string is run.
pub const RUN_VERBS: &[&str] = &[
    "run",
    "runs",
    "execute",
    "executes",
    "executed",
    "evaluate",
    "evaluates",
    "evaluated",
    "interpret",
    "interprets",
    "interpreted",
];

/// Field names that are only a verb of running: the string is what is run
/// (`run`, `exec`).
pub const RUN_NAMES: &[&str] = &["run", "exec", "execute", "evaluate"];

/// The word of a field name (as [`words`](super::words)) that says it
/// holds a program, if one does.
pub fn command_name(w: &[String]) -> Option<&'static str> {
    if w.last()
        .is_some_and(|last| NOT_THE_PROGRAM.contains(&last.as_str()))
    {
        return None;
    }
    if let Some(found) = w
        .iter()
        .find_map(|word| COMMAND_WORDS.iter().find(|c| **c == word.as_str()))
    {
        return Some(found);
    }
    if let [only] = w
        && let Some(found) = RUN_NAMES.iter().find(|r| **r == only.as_str())
    {
        return Some(found);
    }
    let code_after_language = w
        .windows(2)
        .any(|pair| pair[1] == "code" && CODE_LANGUAGES.contains(&pair[0].as_str()));
    code_after_language.then_some("code")
}

/// The word of a description that says the string is a program, if one
/// does: words, not substrings (`description` is not `script`). A word of
/// [`COMMAND_DESCRIPTION_WORDS`] ("a shell command", "an OData filter
/// expression"), "regular expression", or a [`RUN_OBJECTS`] word beside a
/// [`RUN_VERBS`] one ("the program to execute"). Search text stays
/// allowed: "What to search for" and "a search query, run against the
/// catalog" say neither (`query` is not a [`RUN_OBJECTS`] word).
pub fn command_description(text: &str) -> Option<&'static str> {
    let lower: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let found = |list: &'static [&'static str]| {
        lower
            .iter()
            .find_map(|word| list.iter().find(|c| **c == word.as_str()).copied())
    };
    if lower
        .windows(2)
        .any(|pair| pair == ["regular", "expression"])
    {
        return Some("regular expression");
    }
    if let Some(word) = found(COMMAND_DESCRIPTION_WORDS) {
        return Some(word);
    }
    found(RUN_VERBS).and(found(RUN_OBJECTS))
}

/// What shows that a string field holds a program, if anything does: the
/// word, and whether it is in one of its names (as [`words`](super::words);
/// a tool field is judged by its JSON and its Rust name) rather than in
/// its description. A name that only names or counts the program
/// (`script_id`, `template_name`) is no program whatever its description
/// says ("Which saved script to run").
pub fn command_word(
    names: &[Vec<String>],
    description: Option<&str>,
) -> Option<(&'static str, bool)> {
    let names_it = names.iter().any(|w| {
        w.last()
            .is_some_and(|last| NOT_THE_PROGRAM.contains(&last.as_str()))
    });
    if names_it {
        return None;
    }
    if let Some(word) = names.iter().find_map(|w| command_name(w)) {
        return Some((word, true));
    }
    description
        .and_then(command_description)
        .map(|word| (word, false))
}

/// The message of the `free_form_command` rule: `who` names the field (in
/// backticks), `word` is what showed it holds a program, `in_name` whether
/// the word is in its name (else in its description).
pub fn free_form_command_message(who: &str, word: &str, in_name: bool) -> String {
    let source = if in_name { "name" } else { "description" };
    format!(
        "{who} is a free-form command string (its {source} says `{word}`): whatever program the model writes there runs, so this one tool becomes every tool; split it into narrow tools with typed fields, or make it an enum of the allowed commands, or constrain it with a `pattern` (or `max_length` with a `format`){}",
        waiver_hint("free_form_command")
    )
}

/// Last words that name a destination: `recipient`, `cc`, `email`,
/// `phone`, `webhook`, `callback`.
pub const DESTINATION_WORDS: &[&str] = &[
    "recipient",
    "recipients",
    "cc",
    "bcc",
    "email",
    "emails",
    "phone",
    "phones",
    "mobile",
    "webhook",
    "webhooks",
    "callback",
    "callbacks",
    "destination",
    "destinations",
];

/// Last words that name where something goes when a destination word is
/// before them: `email_address`, `phone_number`, `webhook_url`.
pub const DESTINATION_PARTS: &[&str] = &[
    "address",
    "addresses",
    "addr",
    "number",
    "numbers",
    "url",
    "urls",
    "uri",
    "uris",
    "endpoint",
    "endpoints",
    "host",
    "hostname",
];

/// Words before a [`DESTINATION_PARTS`] word that make it a destination
/// (besides [`DESTINATION_WORDS`]): `to_address`, `notify_url`.
pub const DESTINATION_OWNERS: &[&str] = &[
    "to",
    "target",
    "notify",
    "notification",
    "reply",
    "sms",
    "fax",
    "forward",
    "redirect",
    "delivery",
];

/// Whether a field name (as [`words`](super::words)) names where the
/// tool sends data: `to`, `recipient`, `cc`, `email_address`,
/// `phone_number`, `webhook_url`, `callback_url`, `reply_to`, ...; not
/// `to_date` or `email_count`.
pub fn destination_name(w: &[String]) -> bool {
    let is = |word: &String, list: &[&str]| list.contains(&word.as_str());
    match w {
        [] => false,
        [only] if only == "to" => true,
        // `mail_to`, `email_to`, `send_to`, `reply_to`, `forward_to`.
        [.., before, last] if last == "to" => matches!(
            before.as_str(),
            "reply" | "send" | "forward" | "deliver" | "mail" | "email" | "post" | "notify" | "sms"
        ),
        [.., before, last] if is(last, DESTINATION_PARTS) => {
            is(before, DESTINATION_WORDS) || is(before, DESTINATION_OWNERS)
        }
        [.., last] => is(last, DESTINATION_WORDS),
    }
}

/// The JSON Schema formats of a destination: a string with one of these
/// is an address the application's recipient policy reads, whatever the
/// field is called (`attendees` with `items(format = "email")`).
pub const DESTINATION_FORMATS: &[&str] = &[
    "email",
    "idn-email",
    "uri",
    "iri",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
];

/// Whether a JSON Schema `format` is one of [`DESTINATION_FORMATS`].
pub fn destination_format(format: &str) -> bool {
    DESTINATION_FORMATS.contains(&format)
}

/// The message of the `untyped_destination` rule for the field `who`.
pub fn untyped_destination_message(who: &str) -> String {
    format!(
        "{who} names where an open-world tool sends data, but it carries no format, so the application's recipient policy cannot read it: add `#[tool(format = \"email\")]` (or `\"uri\"`, `\"hostname\"`; `items(format = ...)` on a list), or a `pattern` for a phone number such as `^\\+[1-9][0-9]{{6,14}}$`{}",
        waiver_hint("untyped_destination")
    )
}
