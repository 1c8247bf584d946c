//! The runtime half of the generated argument parser.
//!
//! `#[derive(Tool)]` writes a serde `Visitor` for the struct's top-level
//! object and calls these functions from it: keys are matched against the
//! contract's field names, values are deserialized straight from the JSON
//! text (no intermediate `serde_json::Value`), and every failure becomes an
//! [`ArgumentError`] with the JSON path of the value at fault.

use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde_json::error::Category;

use super::error::{ArgumentError, ArgumentErrorKind};
use super::fast;
use super::guided::{Cx, G, GuidedSeed, Located, Path, Seg};
use super::path::{self, field_path, locate, offset_of};
use super::schema::{CompiledSchema, SchemaError};
use crate::contract::Session;
use crate::contract::{FieldContract, ToolContract};
use crate::words::humanize::{self, Humanized};

/// The state of one parse: which field is being read, and the error that
/// stopped it when the error is ours rather than serde's.
pub struct ParseState {
    contract: &'static ToolContract,
    fields: &'static [FieldContract],
    schema: Result<&'static CompiledSchema, &'static SchemaError>,
    current: Cell<Option<usize>>,
    error: Cell<Option<ArgumentError>>,
    /// serde_json's error in a value read again from its own text, placed
    /// in the arguments (`guided.rs`, `read_text`).
    located: Cell<Option<Located>>,
    /// The fast reader is reading (`fast.rs`): it walks the schema itself,
    /// so values are handed to it unwrapped.
    fast: Cell<bool>,
}

impl ParseState {
    /// A fresh state for a parse of `contract`'s arguments.
    pub fn new(contract: &'static ToolContract) -> Self {
        let schema = contract.compiled();
        ParseState {
            contract,
            fields: contract.fields(),
            schema,
            current: Cell::new(None),
            error: Cell::new(None),
            located: Cell::new(None),
            fast: Cell::new(false),
        }
    }

    fn field(&self, index: usize) -> &'static FieldContract {
        &self.fields[index]
    }

    /// Records `error` and returns a placeholder serde error that unwinds the
    /// deserializer; [`parse_map`] returns the recorded error instead.
    fn fail<E: de::Error>(&self, error: ArgumentError) -> E {
        self.error.set(Some(error));
        E::custom("tool argument error")
    }

    /// The error for required fields that are missing, naming all of them.
    /// `slots` pairs each required field's index with whether it is missing.
    pub fn missing_fields(&self, slots: &[(usize, bool)]) -> ArgumentError {
        let missing: Vec<&str> = slots
            .iter()
            .filter(|(_, missing)| *missing)
            .map(|(index, _)| self.field(*index).name())
            .collect();
        let first = missing.first().copied().unwrap_or("");
        let message = match missing.as_slice() {
            [one] => format!("missing required field \"{one}\""),
            many => {
                let names: Vec<String> = many.iter().map(|n| format!("\"{n}\"")).collect();
                format!("missing required fields {}", names.join(", "))
            }
        };
        ArgumentError::invalid(field_path(first), message)
    }
}

/// Matches a key against the fields' names with `lookup`, the `match` on
/// the names that `#[derive(Tool)]` writes (the compiler turns it into a
/// few comparisons, as serde's derive does for its field identifiers).
/// A key that names no field the model gives stops the parse here.
struct KeySeed<'s, L> {
    lookup: L,
    state: &'s ParseState,
}

impl<'de, L: FnOnce(&str) -> Option<usize>> DeserializeSeed<'de> for KeySeed<'_, L> {
    type Value = usize;

    #[inline]
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de, L: FnOnce(&str) -> Option<usize>> Visitor<'de> for KeySeed<'_, L> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    #[inline]
    fn visit_str<E: de::Error>(self, key: &str) -> Result<usize, E> {
        let found = (self.lookup)(key);
        match found {
            Some(index) if self.state.fields.get(index).is_some_and(|f| !f.injected()) => Ok(index),
            _ => Err(self.state.fail(self.state.key_error(key, found))),
        }
    }
}

impl ParseState {
    /// Why a key that names no field the model gives stops the parse: the
    /// field is injected, the contract lacks the field the derive matched,
    /// or the key is unknown.
    #[cold]
    #[inline(never)]
    fn key_error(&self, key: &str, found: Option<usize>) -> ArgumentError {
        let fields = self.fields;
        match found {
            Some(index) if fields.get(index).is_some_and(|f| f.injected()) => {
                let name = fields[index].name();
                ArgumentError::invalid(
                    field_path(name),
                    format!(
                        "field \"{name}\" is set by the application from the trusted session, not by the model; remove it from the arguments"
                    ),
                )
            }
            // The generated key match and the contract come from one derive;
            // an index beyond the fields means they were built apart.
            Some(index) => ArgumentError::new(
                ArgumentErrorKind::InvalidContract,
                "$",
                format!(
                    "the parser of tool `{}` matched a key to field {index}, which its contract does not have; the derive and the contract disagree: build the tool with one version of tool-contract",
                    self.contract.name()
                ),
            ),
            None => {
                // Kept whole (the text is capped); the message echoes at
                // most 64 characters of it and its length.
                let allowed: Vec<&str> = self.contract.model_fields().map(|f| f.name()).collect();
                ArgumentError::invalid(
                    field_path(key),
                    humanize::unknown_field_message(key, &allowed),
                )
            }
        }
    }
}

/// Reads the next key and returns the index of its field in the contract.
/// Unknown keys and keys of injected fields stop the parse.
#[inline]
pub fn next_key<'de, A: MapAccess<'de>>(
    map: &mut A,
    state: &ParseState,
    lookup: impl FnOnce(&str) -> Option<usize>,
) -> Result<Option<usize>, A::Error> {
    map.next_key_seed(KeySeed { lookup, state })
}

/// Reads the value of field `index` into `slot`; a second value for the same
/// field stops the parse.
#[inline(always)]
pub fn next_value<'de, A: MapAccess<'de>, T: de::Deserialize<'de>>(
    map: &mut A,
    state: &ParseState,
    index: usize,
    slot: &mut Option<T>,
) -> Result<(), A::Error> {
    if slot.is_some() {
        let name = state.field(index).name();
        return Err(state.fail(ArgumentError::invalid(
            field_path(name),
            format!("field \"{name}\" is given more than once; give each field once"),
        )));
    }
    if state.fast.get() {
        // The fast reader walks the field's node as it reads the value.
        *slot = Some(map.next_value()?);
        return Ok(());
    }
    state.current.set(Some(index));
    let Ok(schema) = state.schema else {
        // parse_map refuses a contract whose schema does not compile.
        return Err(de::Error::custom("tool contract error"));
    };
    let cx = Cx {
        schema,
        error: &state.error,
        located: &state.located,
    };
    let root = Path::ROOT;
    let path = root.child(Seg::Key(state.field(index).name()));
    let g = G::new(&cx, schema.field(index), &path);
    *slot = Some(map.next_value_seed(GuidedSeed(g, PhantomData))?);
    state.current.set(None);
    Ok(())
}

thread_local! {
    /// Test hooks: bit [`EXACT_ONLY`] turns the fast reader off on this
    /// thread; bit [`READ_FAST`] says the fast reader answered the last call.
    static READER: Cell<u8> = const { Cell::new(0) };
}

const EXACT_ONLY: u8 = 1;
const READ_FAST: u8 = 2;

/// Runs `f` with the fast reader off on this thread: every call is read by
/// the exact path alone. For tests that hold the two readers to the same
/// answers (`tests/parse/fast_agrees.rs`).
#[doc(hidden)]
pub fn with_exact_reader_only<T>(f: impl FnOnce() -> T) -> T {
    let before = READER.with(Cell::get);
    READER.with(|r| r.set(before | EXACT_ONLY));
    let out = f();
    READER.with(|r| r.set(r.get() & !EXACT_ONLY | before & EXACT_ONLY));
    out
}

/// Whether the fast reader answered the last call parsed on this thread
/// (for tests: the common documents must not fall back).
#[doc(hidden)]
pub fn last_call_read_fast() -> bool {
    READER.with(Cell::get) & READ_FAST != 0
}

/// Parses `input` as the top-level arguments object with the generated
/// `visitor`, enforcing the size cap and the object root.
///
/// The fast reader (`fast.rs`) tries the call first when the schema allows
/// it; when it steps aside, the call is read again by serde_json's
/// deserializer with the schema walk beside it, which names the error.
pub fn parse_map<'de, V: Visitor<'de> + Copy>(
    input: &'de str,
    session: &Session,
    state: &ParseState,
    visitor: V,
) -> Result<V::Value, ArgumentError> {
    if let Err(error) = state.schema {
        return Err(ArgumentError::new(
            ArgumentErrorKind::InvalidContract,
            "$",
            format!(
                "the contract of tool `{}` cannot be enforced: {error}; the application must fix the contract (ToolContract::check reports this at start-up)",
                state.contract.name()
            ),
        ));
    }
    let max = session.max_argument_bytes();
    if input.len() > max {
        return Err(ArgumentError::invalid(
            "$",
            format!(
                "the arguments are {} bytes long; at most {max} bytes are accepted",
                input.len()
            ),
        ));
    }
    // JSON's whitespace (not Rust's, which counts a form feed).
    let input = match input
        .bytes()
        .find(|b| !matches!(b, b' ' | b'\n' | b'\t' | b'\r'))
    {
        // An empty argument string means "no arguments", as providers send
        // for tools without parameters.
        None => "{}",
        // A form feed is not JSON: serde_json names it with its place.
        Some(b'{' | b'\x0c') => input,
        Some(first) => return Err(ArgumentError::invalid("$", root_message(first))),
    };
    let reader = READER.with(Cell::get);
    if let Ok(schema) = state.schema
        && reader & EXACT_ONLY == 0
    {
        state.fast.set(true);
        let read = fast::Reader::new(input, schema).read_root(visitor);
        state.fast.set(false);
        match read {
            Ok(value) => {
                READER.with(|r| r.set(reader | READ_FAST));
                return Ok(value);
            }
            Err(fast::Miss) => {
                state.error.set(None);
                state.located.set(None);
            }
        }
    }
    READER.with(|r| r.set(reader & !READ_FAST));
    let mut deserializer = serde_json::Deserializer::from_str(input);
    let result = de::Deserializer::deserialize_map(&mut deserializer, visitor);
    match result {
        Ok(value) => match deserializer.end() {
            Ok(()) => Ok(value),
            Err(error) => Err(from_serde(input, state, &error)),
        },
        Err(error) => Err(state
            .error
            .take()
            .unwrap_or_else(|| match state.located.take() {
                Some(located) => from_located(input, state, located),
                None => from_serde(input, state, &error),
            })),
    }
}

/// The error serde_json gave in a value read again from its own text
/// (a slice of `input`), as it gives it when reading `input` there.
#[cold]
fn from_located(input: &str, state: &ParseState, located: Located) -> ArgumentError {
    let at = located
        .address
        .saturating_sub(input.as_ptr() as usize)
        .min(input.len());
    let before = &input.as_bytes()[..at];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let column = at
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
    from_parts(
        input,
        state,
        &located.message,
        located.category,
        line,
        column,
    )
}

fn root_message(first: u8) -> String {
    let got = match first {
        b'[' => "an array",
        b'"' => "a string",
        b'-' | b'0'..=b'9' => "a number",
        b't' | b'f' => "a boolean",
        b'n' => "null",
        _ => "text that is not JSON",
    };
    format!("expected the arguments as a JSON object, got {got}")
}

/// Turns a serde_json error into an [`ArgumentError`] whose path names the
/// value at fault, found from the error's position in the text.
fn from_serde(input: &str, state: &ParseState, error: &serde_json::Error) -> ArgumentError {
    let text = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    let message = text.strip_suffix(&suffix).unwrap_or(&text);
    from_parts(
        input,
        state,
        message,
        error.classify(),
        error.line(),
        error.column(),
    )
}

/// [`from_serde`] of serde_json's message, its kind and its place.
fn from_parts(
    input: &str,
    state: &ParseState,
    message: &str,
    category: Category,
    line: usize,
    column: usize,
) -> ArgumentError {
    // serde_json reports a misspelled literal (`nul`, `tru`) just past the
    // byte it could not match, which may be the `,` that ends the value.
    let consumed = usize::from(message == "expected ident");
    let offset = (line > 0).then(|| offset_of(input, line, column));
    let location = offset.map(|offset| locate(input, offset.saturating_sub(consumed)));
    match category {
        Category::Syntax | Category::Eof | Category::Io => {
            let path = location.map_or_else(|| "$".to_owned(), |l| l.value);
            // serde_json reports "expected value" also for a well-formed value
            // of a kind an enum cannot be read from (`"speed": 1`).
            if message == "expected value"
                && let Some(kind) = offset
                    .and_then(|offset| offset.checked_sub(1))
                    .and_then(|i| json_kind_at(input, i))
            {
                return ArgumentError::invalid(path, humanize::enum_not_a_string(kind));
            }
            // Valid JSON: a key of a map keyed by numbers that is not one.
            if message == "invalid value: expected key to be a number in quotes" {
                return ArgumentError::invalid(
                    path,
                    "expected the key to be a number written as a string, e.g. \"1\"",
                );
            }
            ArgumentError::invalid(path, humanize::syntax_error(message, line, column))
        }
        Category::Data => {
            let top = state
                .current
                .get()
                .map(|i| field_path(state.field(i).name()));
            let within = |candidate: &str| match &top {
                Some(top) => candidate.strip_prefix(top.as_str()).is_some_and(|rest| {
                    rest.is_empty() || rest.starts_with('.') || rest.starts_with('[')
                }),
                None => true,
            };
            let fallback = || top.clone().unwrap_or_else(|| "$".to_owned());
            match humanize::data_error(message) {
                Humanized::MissingField { field, message } => {
                    let mut path = location
                        .map(|l| l.container)
                        .filter(|p| within(p))
                        .unwrap_or_else(fallback);
                    path::push_key(&mut path, &field);
                    ArgumentError::invalid(path, message)
                }
                Humanized::Message(message) => {
                    let path = location
                        .map(|l| l.value)
                        .filter(|p| within(p))
                        .unwrap_or_else(fallback);
                    ArgumentError::invalid(path, message)
                }
            }
        }
    }
}

/// What kind of JSON value starts at byte `i`, if a well-formed one does.
fn json_kind_at(input: &str, i: usize) -> Option<&'static str> {
    let rest = input.get(i..)?;
    let first = rest.bytes().next()?;
    match first {
        b'0'..=b'9' => Some("a number"),
        b'-' if rest.as_bytes().get(1).is_some_and(u8::is_ascii_digit) => Some("a number"),
        b'[' => Some("an array"),
        b't' if rest.starts_with("true") => Some("a boolean"),
        b'f' if rest.starts_with("false") => Some("a boolean"),
        b'n' if rest.starts_with("null") => Some("null"),
        _ => None,
    }
}

/// The value of `T` from the session for an injected field.
pub fn inject<T: Clone + Send + Sync + 'static>(
    session: &Session,
    state: &ParseState,
    index: usize,
) -> Result<T, ArgumentError> {
    match session.get::<T>() {
        Some(value) => Ok(value.clone()),
        None => {
            let name = state.field(index).name();
            Err(ArgumentError::new(
                ArgumentErrorKind::MissingSessionValue,
                field_path(name),
                format!(
                    "the session holds no `{}` for the injected field \"{name}\"; the application must add it with `Session::with`",
                    std::any::type_name::<T>()
                ),
            ))
        }
    }
}

/// Whether `session` holds a `T`: the probe of a required injected field
/// ([`FieldContract::missing_from`](crate::FieldContract::missing_from)).
pub fn session_holds<T: Send + Sync + 'static>(session: &Session) -> bool {
    session.contains::<T>()
}

/// The value of `T` from the session for an injected `Option<T>` field.
pub fn inject_optional<T: Clone + Send + Sync + 'static>(session: &Session) -> Option<T> {
    session.get::<T>().cloned()
}
