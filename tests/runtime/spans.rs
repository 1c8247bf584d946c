//! Each call runs in one `tool_call` span that ends up with the tool, the
//! contract version, the call id, the outcome and the duration.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tool_contract::{CallContext, Session, Tool, ToolCall, ToolError, Toolbox};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// Look up when the shop opens on a given weekday.
///
/// Use it when the customer asks about opening hours. Read-only.
#[derive(Debug, Tool)]
#[tool(version = "3.2.1")]
pub struct GetOpeningHours {
    /// The weekday in English, e.g. "monday".
    pub weekday: String,
}

type Fields = BTreeMap<String, String>;
/// An event's message, the id of the span it was in, and its other fields.
type Logged = (String, Option<u64>, Fields);

/// Keeps every span's name and fields, and every event's message.
#[derive(Clone, Default)]
struct Capture {
    next: Arc<AtomicU64>,
    spans: Arc<Mutex<BTreeMap<u64, (String, Fields)>>>,
    events: Arc<Mutex<Vec<Logged>>>,
    current: Arc<Mutex<Vec<u64>>>,
}

struct Collect<'a>(&'a mut Fields);

impl Visit for Collect<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let id = self.next.fetch_add(1, Ordering::SeqCst) + 1;
        let mut fields = Fields::new();
        span.record(&mut Collect(&mut fields));
        self.spans
            .lock()
            .unwrap()
            .insert(id, (span.metadata().name().to_owned(), fields));
        Id::from_u64(id)
    }

    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut spans = self.spans.lock().unwrap();
        if let Some((_, fields)) = spans.get_mut(&span.into_u64()) {
            values.record(&mut Collect(fields));
        }
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut fields = Fields::new();
        event.record(&mut Collect(&mut fields));
        let message = fields.remove("message").unwrap_or_default();
        let parent = self.current.lock().unwrap().last().copied();
        self.events.lock().unwrap().push((message, parent, fields));
    }

    fn enter(&self, span: &Id) {
        self.current.lock().unwrap().push(span.into_u64());
    }

    fn exit(&self, _: &Id) {
        self.current.lock().unwrap().pop();
    }
}

fn fields(pairs: &[(&str, &str)]) -> Fields {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn every_call_has_one_span_with_its_outcome_and_duration() {
    let capture = Capture::default();
    let _guard = tracing::subscriber::set_default(capture.clone());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut toolbox = Toolbox::new();
        toolbox.register(|call: GetOpeningHours, _: CallContext| async move {
            tokio::time::sleep(Duration::from_millis(25)).await;
            match call.weekday.as_str() {
                "sunday" => Err(ToolError::new(
                    "CLOSED",
                    tool_contract::contract::ErrorCategory::NotFound,
                    "Closed.",
                )),
                _ => Ok("9:00 to 18:00".to_owned()),
            }
        });
        let session = Session::new();
        let ok = ToolCall::new("call_1", "get_opening_hours", r#"{"weekday":"monday"}"#);
        let undeclared = ToolCall::new("call_2", "get_opening_hours", r#"{"weekday":"sunday"}"#);
        let unknown = ToolCall::new("call_3", "get_hours", "{}");
        toolbox.call(&ok, &session).await;
        toolbox.call(&undeclared, &session).await;
        toolbox.call(&unknown, &session).await;
    });

    let spans: Vec<(String, Fields)> = capture.spans.lock().unwrap().values().cloned().collect();
    assert_eq!(
        spans,
        [
            (
                "tool_call".to_owned(),
                fields(&[
                    ("call_id", "call_1"),
                    ("code", ""),
                    ("delivery", "fresh"),
                    ("duration_ms", "25"),
                    ("outcome", "completed"),
                    ("result", "success"),
                    ("tool", "get_opening_hours"),
                    ("version", "3.2.1"),
                ])
            ),
            (
                "tool_call".to_owned(),
                fields(&[
                    ("call_id", "call_2"),
                    ("code", "INTERNAL"),
                    ("delivery", "fresh"),
                    ("duration_ms", "25"),
                    ("outcome", "failed"),
                    ("result", "respond_to_model"),
                    ("tool", "get_opening_hours"),
                    ("version", "3.2.1"),
                ])
            ),
            (
                "tool_call".to_owned(),
                fields(&[
                    ("call_id", "call_3"),
                    ("code", "UNKNOWN_TOOL"),
                    ("delivery", "fresh"),
                    ("duration_ms", "0"),
                    ("outcome", "not_started"),
                    ("result", "respond_to_model"),
                    ("tool", "get_hours"),
                ])
            ),
        ]
    );
    let events = capture.events.lock().unwrap().clone();
    assert_eq!(
        events,
        [
            ("tool call succeeded".to_owned(), Some(1), Fields::new()),
            (
                "tool call answered with an error".to_owned(),
                Some(2),
                fields(&[("undeclared_error_code", "CLOSED")])
            ),
            (
                "tool call answered with an error".to_owned(),
                Some(3),
                fields(&[("undeclared_error_code", "")])
            ),
        ]
    );
}
