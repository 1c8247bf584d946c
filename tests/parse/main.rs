//! The generated argument parser keeps the contract: every text a tool's
//! input schema accepts is parsed to the value it states, every other is
//! refused with the exact code, JSON path and message, at every depth and
//! on both readers (the fast reader and the exact path).
//!
//! Modules:
//! - `parser`: one test per parsing rule.
//! - `depth`: nested plain types enforced as their schema says.
//! - `item_constraints`: per-item list constraints and `Money` bounds.
//! - `money`: `Money` and `SignedMoney` checking themselves.
//! - `passthrough_lists`: lists of unchecked strings and booleans.
//! - `key_mismatch`: a key match and a contract built apart.
//! - `object_arguments`: arguments that arrive as a JSON object.
//! - `fast_agrees`: the fast reader and the exact path give one answer.
//! - `round_trip_properties`: property tests: serialized values parse back to themselves.
//! - `schema_agreement`: property test: the parser accepts exactly what the schema accepts.

#[path = "../readers/mod.rs"]
mod readers;
#[path = "../schema_agree/mod.rs"]
mod schema_agree;

pub mod depth;
pub mod fast_agrees;
pub mod item_constraints;
pub mod key_mismatch;
pub mod money;
pub mod object_arguments;
pub mod parser;
pub mod passthrough_lists;
pub mod round_trip_properties;
pub mod schema_agreement;
