//! Regression tests, one module per thing that broke: each test is a
//! control and then the break, with the exact outcome the promise demands.
//!
//! Modules:
//! - `buffered_values`: values read whole (choices, tags, maps) and numbers past a type's range.
//! - `bounds_named_in_refusals`: declared integer bounds near a type's end missing from serde's refusals.
//! - `defaults_a_dialect_makes_nullable`: `null` for a nested default, as OpenAI's strict mode lets a model send it.
//! - `maps_keyed_by_integers`: maps whose schema is `patternProperties`, which made every call a contract error.
//! - `hostile_arguments`: hostile argument documents refused in bounded time and memory.
//! - `schema_and_parser_at_depth`: the schema and the parser disagreeing at depth.
//! - `parser_against_jsonschema`: the parser against the `jsonschema` crate.
//! - `parser_type_checks`: false refusals and acceptances of the type checks.
//! - `fast_reader`: the fast reader and the exact path disagreeing.
//! - `fold_of_enum_cases`: the one-pass enum-case fold.
//! - `fold_changes_only_case`: folding that changed more than the case of enum values.
//! - `derive_rules_that_compiled`: declarations the derive's rules let through.
//! - `recipients_the_hook_missed`: recipients the recipient hook did not see.
//! - `runtime_promises`: the runtime's promises that broke.
//! - `agent_loop_hostile_responses`: responses that made a loop run a call twice or too early.
//! - `incomplete_responses_run_no_call`: calls of responses that did not complete.
//! - `stream_calls_outside_deltas`: stream calls outside the deltas and their ids.
//! - `anthropic_message_start`: the Anthropic `message_start` rules.

#[path = "../readers/mod.rs"]
mod readers;

pub mod agent_loop_hostile_responses;
pub mod anthropic_message_start;
pub mod bounds_named_in_refusals;
pub mod buffered_values;
pub mod defaults_a_dialect_makes_nullable;
pub mod derive_rules_that_compiled;
pub mod fast_reader;
pub mod fold_changes_only_case;
pub mod fold_of_enum_cases;
pub mod hostile_arguments;
pub mod incomplete_responses_run_no_call;
pub mod maps_keyed_by_integers;
pub mod parser_against_jsonschema;
pub mod parser_type_checks;
pub mod recipients_the_hook_missed;
pub mod runtime_promises;
pub mod schema_and_parser_at_depth;
pub mod stream_calls_outside_deltas;
