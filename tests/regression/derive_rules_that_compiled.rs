//! Attacks on the derive's compile-time rules. Every tool below COMPILES;
//! each test then asserts what the rule promised (an effect the name
//! demands, a refusal at `try_register`) and fails where the rule let the
//! declaration through.

use tool_contract::schemars::JsonSchema;
use tool_contract::serde::Deserialize;
use tool_contract::{CallContext, Tool, ToolError, Toolbox};

/// Set up the steps the nightly job runs.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct ScheduleNightlyJob {
    /// Each step's name and its shell command, e.g.
    /// ["backup", "pg_dump shop > /tmp/shop.sql"].
    #[tool(max_items = 5)]
    pub commands: Vec<(String, String)>,
}

/// SQL text, as its own type.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct SqlText(pub String);

/// Run a report against the warehouse database.
#[derive(Debug, Tool)]
pub struct GetWarehouseReport {
    /// The SQL to run, e.g. "SELECT * FROM orders".
    pub sql: SqlText,
}

// The name attacks (`a_send_draft_tool_is_not_read`,
// `common_writing_verbs_are_not_read`, `destroying_names_are_destructive`,
// `a_write_or_destroy_after_a_reading_verb_is_not_read`) asserted the
// effect of tools that compiled with a misleading name. The fix refuses
// those declarations at compile time (`misleading_name`), so they can no
// longer be built here to be asserted on: they are compile-fail cases of
// tests/compiletest.rs with their exact messages, in
// tests/ui/attack-draft-name-with-writing-verb-read.rs,
// tests/ui/attack-writing-verbs-read.rs,
// tests/ui/attack-destroying-names-declared-write.rs and
// tests/ui/attack-joined-verbs-read.rs (and the verb tables' unit tests
// in tool-macros/src/verbs.rs).

#[test]
fn a_map_of_shell_commands_is_a_free_form_command() {
    // The derive judges only String, Option/Vec/Box... of String; a pair
    // is judged nowhere, not at registration either.
    let mut toolbox = Toolbox::new();
    let registered = toolbox
        .try_register(|_: ScheduleNightlyJob, _: CallContext| async move {
            Ok::<_, ToolError>("scheduled".to_owned())
        })
        .map(|_| ());
    assert!(
        registered.is_err(),
        "`commands: Vec<(String, String)>` (a shell command per step) compiled and registered: {}",
        ScheduleNightlyJob::input_schema()["properties"]["commands"]
    );
}

#[test]
fn a_sql_newtype_is_refused_at_registration() {
    let mut toolbox = Toolbox::new();
    let registered = toolbox
        .try_register(|_: GetWarehouseReport, _: CallContext| async move {
            Ok::<_, ToolError>("rows".to_owned())
        })
        .map(|_| ());
    assert!(
        registered.is_err(),
        "a `sql: SqlText(String)` field registered: {:?}",
        GetWarehouseReport::input_schema()["properties"]["sql"]
    );
}

/// The fields of the four tools that once compiled, as a plain serde type
/// (judged from its schema at registration). The tools themselves, with
/// these fields as their own, are now refused at compile time:
/// tests/ui/attack-programs-described-in-plain-words.rs. (The fields were
/// first declared on the tools, which no longer compiles.)
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct Described {
    /// The command to run on the build server, e.g. "make deploy".
    pub action: String,
    /// An OData filter expression evaluated against the orders table, e.g.
    /// "total gt 100 and status eq 'paid'".
    pub filter: String,
    /// A regular expression matched against every customer's notes.
    pub matching: String,
    /// The program to execute in the sandbox, as source text.
    pub body: String,
}

/// Start one step of the nightly build on the build server.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent = false)]
pub struct StartBuildStep {
    /// What the step runs and on which orders and notes.
    pub step: Described,
}

/// A description that says the string is a program, in words the rule's
/// description list lacked ("command", "expression", "regular expression",
/// "program"): `try_register` accepted them.
#[test]
fn programs_described_in_plain_words_are_refused() {
    let mut toolbox = Toolbox::new();
    let error = toolbox
        .try_register(|_: StartBuildStep, _: CallContext| async move {
            Ok::<_, ToolError>("ok".to_owned())
        })
        .map(|_| ())
        .expect_err("the four descriptions registered");
    let refused: Vec<String> = error
        .to_string()
        .lines()
        .skip(1)
        .map(|line| line.split(": ").next().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(
        refused,
        [
            "- at `$.step.action`",
            "- at `$.step.filter`",
            "- at `$.step.matching`",
            "- at `$.step.body`"
        ],
        "{error}"
    );
}

/// One step of a deployment, as a plain serde type.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct PlainStep {
    /// The step's name, e.g. "migrate".
    pub name: String,
    /// What the step runs on the server, e.g. "make deploy".
    pub command: String,
}

/// One step of a deployment, as a plain serde type whose `command` is
/// `run` on the wire.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct RenamedStep {
    /// The step's name, e.g. "migrate".
    pub name: String,
    /// What the step does on the server, e.g. "make deploy".
    #[serde(rename = "run")]
    pub command: String,
}

/// Start a deployment with the given plain steps.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent = false)]
pub struct StartPlainDeployment {
    /// The steps, in order.
    #[tool(max_items = 5)]
    pub steps: Vec<PlainStep>,
}

/// Start a deployment with the given renamed steps.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent = false)]
pub struct StartRenamedDeployment {
    /// The steps, in order.
    #[tool(max_items = 5)]
    pub steps: Vec<RenamedStep>,
}

/// A plain serde type's Rust field `command` renamed `run` on the wire is
/// judged only by its schema, where neither the name nor the doc says it
/// (a `ToolArgs` or tool field is judged by its Rust name too).
#[test]
fn a_plain_nested_command_field_is_refused_even_when_renamed() {
    let mut toolbox = Toolbox::new();
    let plain = toolbox
        .try_register(|_: StartPlainDeployment, _: CallContext| async move {
            Ok::<_, ToolError>("ok".to_owned())
        })
        .is_err();
    let renamed = toolbox
        .try_register(|_: StartRenamedDeployment, _: CallContext| async move {
            Ok::<_, ToolError>("ok".to_owned())
        })
        .is_err();
    assert_eq!(
        (plain, renamed),
        (true, true),
        "(plain `command` refused, renamed `run` refused)"
    );
}
