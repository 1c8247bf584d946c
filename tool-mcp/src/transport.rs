//! The newline-delimited JSON-RPC transport [`serve`](crate::serve) runs
//! rmcp on, in place of rmcp's own `AsyncRwTransport`, for what rmcp's
//! cannot do:
//!
//! - a `tools/call`'s `arguments` reach the toolbox as the client wrote
//!   them ([`RawArguments`]): rmcp reads them into a `serde_json` map,
//!   which rounds an integer beyond 64 bits to a float and keeps the last
//!   of a key given twice, where the contract's parser reads the exact
//!   integer and refuses the repeated key; arguments rmcp cannot read at
//!   all (a lone surrogate escape) are answered by the parser, not dropped.
//!   The method and keys are read however they are spelled (`"tools\/call"`,
//!   `"argu\u006dents"`), and a key given twice in any object of the message
//!   (`params`, `params._meta`, ...; a `tools/call`'s `arguments` are the
//!   parser's to refuse) makes the line an invalid request naming where:
//!   no `tools/call` reaches the toolbox with rmcp's map in place of what
//!   was written, and no reader of the line can take another of two values;
//! - every line gets an answer: a line that is not JSON gets JSON-RPC's
//!   parse error (`-32700`, id `null`), a JSON line that is no message of
//!   the protocol an invalid request (`-32600`, with its id when it has a
//!   readable one), where rmcp's transport drops the first silently; a
//!   request whose `id` is `null` (MCP: a request id is a string or an
//!   integer) is an invalid request with id `null`, not a notification;
//! - one request id is in flight once ([`InFlight`]): a request reusing the
//!   id of one not yet answered is refused (`-32600`, that id, "is in
//!   use") and the first still gets its one answer, where rmcp's table of
//!   requests would let the second take the first's place;
//! - nothing read or written is lost when rmcp drops a `receive` (its serve
//!   loop polls it in a `select!` and drops it whenever an answer is ready
//!   first): a reader task owns the byte stream and the partial line, and
//!   hands whole messages over a channel (`receive` is a channel `recv`,
//!   which a drop does not disturb); a writer task owns the other stream
//!   and writes one whole line at a time, in the order `send` was called,
//!   so two answers never interleave and a dropped `send` future still
//!   leaves its line whole;
//! - a client that reads no answers is not read ahead of without bound:
//!   rmcp queues each answer without waiting for it to be written, so the
//!   reader reads no further line while more than [`MAX_UNWRITTEN`] bytes
//!   of answers wait (the client's writes block instead);
//! - a line may be up to 16 MiB before its `\n` (as rmcp's own transport
//!   counts), and a last line without `\n` is read when the stream ends.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::RoleServer;
use rmcp::model::{
    ClientNotification, ClientRequest, ErrorCode, ErrorData, GetExtensions, JsonRpcMessage,
    RequestId,
};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, BufWriter};
use tokio::sync::{Notify, mpsc, oneshot};
use tool_runtime::AbortHandle;

/// The `arguments` of a `tools/call` exactly as the client's line held
/// them, put into the request's extensions by the transport of
/// [`serve`](crate::serve); the server parses these rather than rmcp's map.
#[derive(Clone, Debug)]
pub(crate) struct RawArguments(pub(crate) Arc<str>);

/// The abort of one `tools/call`, put into its extensions by the transport
/// of [`serve`](crate::serve): the client's `notifications/cancelled` for
/// the call's id aborts it through this handle.
#[derive(Clone)]
pub(crate) struct CallAbort(pub(crate) AbortHandle);

/// How many whole messages the reader task reads ahead of rmcp.
const READ_AHEAD: usize = 64;

/// How many bytes of answers may wait unwritten (the client is not reading
/// them) before the reader task stops reading: past it, a client that
/// writes requests and reads no answers finds its writes blocked, and the
/// server holds no more answers than this and those of the requests it
/// had already read.
const MAX_UNWRITTEN: usize = 1 << 20;

/// The bytes of answers handed to the writer task and not yet written.
#[derive(Default)]
struct Backlog {
    bytes: AtomicUsize,
    written: Notify,
}

impl Backlog {
    /// Counts `len` more bytes waiting to be written.
    fn add(&self, len: usize) {
        self.bytes.fetch_add(len, Ordering::SeqCst);
    }

    /// Counts `len` bytes as written, and wakes a reader waiting for room.
    fn remove(&self, len: usize) {
        self.bytes.fetch_sub(len, Ordering::SeqCst);
        self.written.notify_waiters();
    }

    /// Waits until no more than [`MAX_UNWRITTEN`] bytes wait to be written.
    async fn room(&self) {
        loop {
            let written = self.written.notified();
            if self.bytes.load(Ordering::SeqCst) <= MAX_UNWRITTEN {
                return;
            }
            written.await;
        }
    }
}

/// The state of one client request id that has not been answered.
enum Pending {
    /// Being served; a `tools/call` has the handle that aborts it; `true`
    /// when its success opens the session (see [`InFlight::opened`]).
    Serving(Option<AbortHandle>, bool),
    /// The client cancelled it: its answer is not sent (MCP: the receiver
    /// of a cancellation does not answer the request), and the id stays in
    /// use until that answer would have gone out.
    Cancelled,
}

/// The client's request ids in flight: taken when the reader hands a
/// request to rmcp, given back when its answer is sent (rmcp has removed
/// the id from its own table by then), so an id here is never in rmcp's
/// table twice.
#[derive(Default)]
struct InFlight {
    ids: Mutex<HashMap<RequestId, Pending>>,
    /// Whether rmcp serves the session: an `initialize` was handed over, or
    /// another request (not `ping`, not `server/discover`) was answered
    /// with a result. Before, rmcp takes only requests and ends the
    /// connection on any other message, so the transport drops a
    /// notification or response a client sends that early (there is
    /// nothing yet for it to be about), and every request after it is
    /// still answered.
    opened: std::sync::atomic::AtomicBool,
}

impl InFlight {
    fn ids(&self) -> std::sync::MutexGuard<'_, HashMap<RequestId, Pending>> {
        self.ids.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// What the writer task is asked to do, in order.
enum Out {
    /// Write one whole line (with its `\n`); say how it went when asked.
    Line(Vec<u8>, Option<oneshot::Sender<std::io::Result<()>>>),
    /// Flush what is written, shut the stream down and stop.
    Close(oneshot::Sender<std::io::Result<()>>),
}

/// rmcp's `Transport` over a byte stream: one JSON-RPC message a line.
pub(crate) struct LineTransport {
    incoming: mpsc::Receiver<RxJsonRpcMessage<RoleServer>>,
    out: mpsc::UnboundedSender<Out>,
    in_flight: Arc<InFlight>,
    backlog: Arc<Backlog>,
    reader: tokio::task::AbortHandle,
}

impl LineTransport {
    /// A transport reading lines from `read` and writing them to `write`,
    /// each in a task of its own on the current runtime.
    pub(crate) fn new<R, W>(read: R, write: W) -> Self
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        let (out, outbox) = mpsc::unbounded_channel();
        let (incoming_tx, incoming) = mpsc::channel(READ_AHEAD);
        let in_flight = Arc::new(InFlight::default());
        let backlog = Arc::new(Backlog::default());
        tokio::spawn(write_loop(write, outbox, backlog.clone()));
        let reader = tokio::spawn(read_loop(
            read,
            incoming_tx,
            out.clone(),
            in_flight.clone(),
            backlog.clone(),
        ));
        LineTransport {
            incoming,
            out,
            in_flight,
            backlog,
            reader: reader.abort_handle(),
        }
    }
}

impl Drop for LineTransport {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

/// What reading a line gave.
enum Line {
    Complete,
    Oversized,
    End,
}

/// Reads the next line into `line` (cleared first), without its `\n`; a
/// line longer than rmcp's limit (16 MiB before its `\n`, as rmcp's own
/// transport counts) is skipped to its end. The end of the stream (or a
/// read error) ends a last line that has no `\n` as a line all the same
/// (a client that closes stdin after its last request gets its answer),
/// then ends the stream.
async fn read_line<R: AsyncRead + Unpin>(read: &mut BufReader<R>, line: &mut Vec<u8>) -> Line {
    line.clear();
    let mut discarding = false;
    let mut started = false;
    loop {
        let available = match read.fill_buf().await {
            Ok(available) if !available.is_empty() => available,
            _ if discarding => return Line::Oversized,
            _ if started => return Line::Complete,
            _ => return Line::End,
        };
        started = true;
        let newline = available.iter().position(|b| *b == b'\n');
        let content = newline.unwrap_or(available.len());
        if !discarding && line.len() + content > DEFAULT_MAX_LINE_LENGTH {
            line.clear();
            discarding = true;
        }
        if !discarding {
            line.extend_from_slice(&available[..content]);
        }
        read.consume(newline.map_or(content, |at| at + 1));
        if newline.is_some() {
            return if discarding {
                Line::Oversized
            } else {
                Line::Complete
            };
        }
    }
}

/// The reader task: reads lines until the stream ends or rmcp stops
/// listening, hands each message to rmcp and has the writer answer each
/// line that is none; it reads no line while more than [`MAX_UNWRITTEN`]
/// bytes of answers wait to be written.
async fn read_loop<R: AsyncRead + Unpin>(
    read: R,
    incoming: mpsc::Sender<RxJsonRpcMessage<RoleServer>>,
    out: mpsc::UnboundedSender<Out>,
    in_flight: Arc<InFlight>,
    backlog: Arc<Backlog>,
) {
    let mut read = BufReader::with_capacity(1 << 16, read);
    let mut line = Vec::new();
    loop {
        backlog.room().await;
        let read = match read_line(&mut read, &mut line).await {
            Line::End => return,
            Line::Oversized => Read::Answer(error_line(
                ErrorCode::INVALID_REQUEST,
                "Invalid request: the line is longer than 16 MiB",
                None,
            )),
            Line::Complete => interpret(&line, &in_flight),
        };
        match read {
            Read::Message(message) => {
                if incoming.send(*message).await.is_err() {
                    return;
                }
            }
            Read::Answer(answer) => {
                // Waits for the answer to be written: a client that sends
                // lines and reads no answers is not read ahead of without
                // bound.
                let (done, written) = oneshot::channel();
                let answer = to_line(&answer);
                backlog.add(answer.len());
                if out.send(Out::Line(answer, Some(done))).is_err() {
                    return;
                }
                if !matches!(written.await, Ok(Ok(()))) {
                    return;
                }
            }
            Read::Nothing => {}
        }
    }
}

/// The writer task: writes each line whole, in order, flushing whenever
/// nothing more is waiting; after a write error every later line fails.
async fn write_loop<W: AsyncWrite + Unpin>(
    write: W,
    mut outbox: mpsc::UnboundedReceiver<Out>,
    backlog: Arc<Backlog>,
) {
    let mut write = BufWriter::with_capacity(1 << 16, write);
    let mut failed: Option<std::io::ErrorKind> = None;
    let mut written = Vec::new();
    while let Some(first) = outbox.recv().await {
        let mut next = Some(first);
        while let Some(out) = next.take() {
            match out {
                Out::Line(bytes, done) => {
                    if failed.is_none()
                        && let Err(error) = write.write_all(&bytes).await
                    {
                        failed = Some(error.kind());
                    }
                    backlog.remove(bytes.len());
                    written.extend(done);
                }
                Out::Close(done) => {
                    let flushed = flush(&mut write, failed).await;
                    answer_all(&mut written, &flushed);
                    let closed = match flushed {
                        Ok(()) => write.shutdown().await,
                        Err(error) => Err(error),
                    };
                    let _ = done.send(closed);
                    return;
                }
            }
            next = outbox.try_recv().ok();
        }
        let flushed = flush(&mut write, failed).await;
        if let Err(error) = &flushed {
            failed = Some(error.kind());
        }
        answer_all(&mut written, &flushed);
    }
    let _ = flush(&mut write, failed).await;
}

/// Flushes `write`, or gives the error an earlier write met.
async fn flush<W: AsyncWrite + Unpin>(
    write: &mut BufWriter<W>,
    failed: Option<std::io::ErrorKind>,
) -> std::io::Result<()> {
    match failed {
        Some(kind) => Err(std::io::Error::new(kind, "an earlier write failed")),
        None => write.flush().await,
    }
}

/// Tells each waiting `send` how its line went.
fn answer_all(
    written: &mut Vec<oneshot::Sender<std::io::Result<()>>>,
    result: &std::io::Result<()>,
) {
    for done in written.drain(..) {
        let _ = done.send(match result {
            Ok(()) => Ok(()),
            Err(error) => Err(std::io::Error::new(error.kind(), error.to_string())),
        });
    }
}

/// `message` as one line, with its `\n`.
fn to_line(message: &impl Serialize) -> Vec<u8> {
    // rmcp's messages and the transport's answers are maps with string
    // keys, which serialize; the fallback is an answer all the same.
    let mut bytes = serde_json::to_vec(message).unwrap_or_else(|error| {
        let message = format!("Internal error: the answer could not be written: {error}");
        error_line(ErrorCode::INTERNAL_ERROR, &message, None)
            .to_string()
            .into_bytes()
    });
    bytes.push(b'\n');
    bytes
}

/// A JSON-RPC error answer of the transport, with `id` `null` when the
/// line had no readable id (as JSON-RPC 2.0 asks).
fn error_line(code: ErrorCode, message: &str, id: Option<&RequestId>) -> Value {
    let error = ErrorData::new(code, message.to_owned(), None);
    json!({"jsonrpc": "2.0", "id": id, "error": error})
}

/// What one line is.
enum Read {
    /// A message for rmcp.
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Not one: the transport's answer to it.
    Answer(Value),
    /// Nothing to hand over or answer (a blank line, a malformed
    /// notification, a cancellation the transport carried out).
    Nothing,
}

/// Reads one line (without its `\n`) and keeps [`InFlight`] up to date.
fn interpret(line: &[u8], in_flight: &InFlight) -> Read {
    let bytes = line.strip_suffix(b"\r").unwrap_or(line);
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Read::Nothing;
    }
    let Ok(line) = std::str::from_utf8(bytes) else {
        return Read::Answer(error_line(
            ErrorCode::PARSE_ERROR,
            "Parse error: the line is not UTF-8",
            None,
        ));
    };
    match read_message(line) {
        Ok(message) => admit(message, in_flight),
        Err(Value::Null) => Read::Nothing,
        Err(answer) => Read::Answer(answer),
    }
}

/// Takes a request's id into [`InFlight`] (refusing one in use), and
/// carries out a cancellation of a request in flight.
fn admit(mut message: RxJsonRpcMessage<RoleServer>, in_flight: &InFlight) -> Read {
    match &mut message {
        JsonRpcMessage::Request(request) => {
            let mut ids = in_flight.ids();
            match ids.entry(request.id.clone()) {
                Entry::Occupied(_) => {
                    return Read::Answer(error_line(
                        ErrorCode::INVALID_REQUEST,
                        &format!(
                            "Invalid request: the id {} is in use by a request that has not been answered yet; give each request in flight its own id",
                            shown_id(&request.id)
                        ),
                        Some(&request.id),
                    ));
                }
                Entry::Vacant(vacant) => {
                    let opens = !matches!(
                        request.request,
                        ClientRequest::PingRequest(_)
                            | ClientRequest::DiscoverRequest(_)
                            | ClientRequest::InitializeRequest(_)
                    );
                    if matches!(request.request, ClientRequest::InitializeRequest(_)) {
                        in_flight.opened.store(true, Ordering::SeqCst);
                    }
                    let abort = match &mut request.request {
                        ClientRequest::CallToolRequest(call) => {
                            let abort = AbortHandle::new();
                            call.extensions_mut().insert(CallAbort(abort.clone()));
                            Some(abort)
                        }
                        _ => None,
                    };
                    vacant.insert(Pending::Serving(abort, opens));
                }
            }
        }
        JsonRpcMessage::Notification(notification) => {
            if let ClientNotification::CancelledNotification(cancelled) = &notification.notification
                && let Some(id) = &cancelled.params.request_id
                && let Some(pending) = in_flight.ids().get_mut(id)
            {
                // The transport cancels it: rmcp would drop the request
                // from its table, and its answer with it, before the
                // transport could give the id back.
                if let Pending::Serving(Some(abort), _) = pending {
                    abort.abort();
                }
                *pending = Pending::Cancelled;
                return Read::Nothing;
            }
        }
        JsonRpcMessage::Response(_) | JsonRpcMessage::Error(_) => {}
    }
    if !matches!(message, JsonRpcMessage::Request(_)) && !in_flight.opened.load(Ordering::SeqCst) {
        return Read::Nothing;
    }
    Read::Message(Box::new(message))
}

/// A request id as a message shows it: a string quoted, a number as is.
fn shown_id(id: &RequestId) -> String {
    match id {
        RequestId::Number(number) => number.to_string(),
        RequestId::String(string) => Value::from(string.as_ref()).to_string(),
    }
}

/// The members of a JSON object in the order written, each key read
/// however it is spelled (its escapes decoded), each value as written.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MembersVisitor;
        impl<'de> Visitor<'de> for MembersVisitor {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members<'de>, A::Error> {
                let mut members = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    let value: &'de RawValue = map.next_value()?;
                    members.push((key, value));
                }
                Ok(Members(members))
            }
        }
        deserializer.deserialize_map(MembersVisitor)
    }
}

impl<'a> Members<'a> {
    /// The value of `key`.
    fn get(&self, key: &str) -> Option<&'a RawValue> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, value)| *value)
    }
}

/// A key given twice in an object of a message: where (`""` for the
/// message itself, else a path such as `params._meta`) and which.
struct Repeated {
    at: String,
    key: String,
}

/// Walks a JSON value in one pass and finds the first key given twice in
/// any object in it (keys read however they are spelled); a `tools/call`'s
/// `params.arguments` are skipped when `skip_arguments` (the contract's
/// parser answers those). Each object's keys go into a set, so a message of
/// a million keys is walked in linear time.
struct Walk<'s> {
    at: &'s mut String,
    found: &'s mut Option<Repeated>,
    skip_arguments: bool,
}

impl<'de> serde::de::DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !keys.insert(key.clone()) {
                *self.found = Some(Repeated {
                    at: self.at.clone(),
                    key,
                });
                return Err(serde::de::Error::custom("a key given twice"));
            }
            if self.skip_arguments && self.at == "params" && key == "arguments" {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let len = self.at.len();
            if len > 0 {
                self.at.push('.');
            }
            self.at.push_str(&key);
            let walked = map.next_value_seed(Walk {
                at: &mut *self.at,
                found: &mut *self.found,
                skip_arguments: self.skip_arguments,
            });
            self.at.truncate(len);
            walked?;
        }
        Ok(())
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0usize;
        loop {
            let len = self.at.len();
            let _ = write!(self.at, "[{index}]");
            let walked = seq.next_element_seed(Walk {
                at: &mut *self.at,
                found: &mut *self.found,
                skip_arguments: self.skip_arguments,
            });
            self.at.truncate(len);
            if walked?.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_i128<E>(self, _: i128) -> Result<(), E> {
        Ok(())
    }
    fn visit_u128<E>(self, _: u128) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

/// The first key given twice anywhere in the message `line` (outside a
/// `tools/call`'s arguments when `skip_arguments`).
fn repeated_key(line: &str, skip_arguments: bool) -> Option<Repeated> {
    let mut at = String::new();
    let mut found = None;
    let mut deserializer = serde_json::Deserializer::from_str(line);
    let _ = serde::de::DeserializeSeed::deserialize(
        Walk {
            at: &mut at,
            found: &mut found,
            skip_arguments,
        },
        &mut deserializer,
    );
    found
}

/// The `id` member of a message.
enum Id {
    /// None: a notification (or a response without one).
    Absent,
    /// `"id": null`.
    Null,
    /// A string or an integer.
    Readable(RequestId),
    /// Anything else.
    Unreadable,
}

/// The parts of a line read without rmcp's types, each key and string
/// however it is spelled.
struct Envelope<'a> {
    id: Id,
    method: Option<String>,
    /// A `tools/call`'s arguments object as written.
    arguments: Option<&'a RawValue>,
}

impl<'a> Envelope<'a> {
    /// The envelope of a JSON object line (`Ok(None)`: the line is JSON but
    /// no object); `Err` is the answer to a key given twice in any object of
    /// the message (`null`: none, for a notification).
    fn read(line: &'a str) -> Result<Option<Envelope<'a>>, Value> {
        let Ok(members) = serde_json::from_str::<Members<'a>>(line) else {
            return Ok(None);
        };
        let id = match members.get("id") {
            None => Id::Absent,
            Some(raw) if raw.get() == "null" => Id::Null,
            Some(raw) => serde_json::from_str(raw.get()).map_or(Id::Unreadable, Id::Readable),
        };
        let method = members
            .get("method")
            .and_then(|raw| serde_json::from_str::<String>(raw.get()).ok());
        let params = members
            .get("params")
            .and_then(|raw| serde_json::from_str::<Members<'a>>(raw.get()).ok());
        if let Some(Repeated { at, key }) =
            repeated_key(line, method.as_deref() == Some("tools/call"))
        {
            let repeated = if at.is_empty() {
                format!("the key `{key}` is given twice")
            } else {
                format!("the key `{key}` is given twice in `{at}`")
            };
            if at.is_empty() && key == "id" {
                return Err(invalid(&repeated, None));
            }
            return Err(match (&id, &method) {
                (Id::Absent, Some(_)) => Value::Null,
                (Id::Readable(id), _) => invalid(&repeated, Some(id)),
                _ => invalid(&repeated, None),
            });
        }
        let arguments = params
            .filter(|_| method.as_deref() == Some("tools/call"))
            .and_then(|params| params.get("arguments"))
            .filter(|raw| raw.get().starts_with('{'));
        Ok(Some(Envelope {
            id,
            method,
            arguments,
        }))
    }
}

/// An invalid request (`-32600`) answer saying what is wrong and the fix.
fn invalid(what: &str, id: Option<&RequestId>) -> Value {
    error_line(
        ErrorCode::INVALID_REQUEST,
        &format!("Invalid request: {what}; give each key once"),
        id,
    )
}

/// The message of a line, with a `tools/call`'s raw arguments in its
/// extensions; `Err` is the answer to a line that is not one (`null`:
/// none, for a notification).
fn read_message(line: &str) -> Result<RxJsonRpcMessage<RoleServer>, Value> {
    let envelope = Envelope::read(line)?;
    if let Some(Envelope {
        id: Id::Null,
        method: Some(_),
        ..
    }) = envelope
    {
        return Err(error_line(
            ErrorCode::INVALID_REQUEST,
            "Invalid request: the id is `null`; a request's id is a string or an integer, and a notification has no `id`",
            None,
        ));
    }
    let arguments = envelope.as_ref().and_then(|envelope| envelope.arguments);
    let parsed = serde_json::from_str::<RxJsonRpcMessage<RoleServer>>(line).or_else(|error| {
        // rmcp could not read the line; when its arguments are what it
        // could not read (a lone surrogate escape), the request is read
        // with `{}` in their place and the parser answers the arguments.
        let raw = arguments.ok_or(error)?;
        let start = raw.get().as_ptr() as usize - line.as_ptr() as usize;
        let end = start + raw.get().len();
        let stand_in = format!("{}{{}}{}", &line[..start], &line[end..]);
        serde_json::from_str(&stand_in)
    });
    match parsed {
        Ok(mut message) => {
            if let JsonRpcMessage::Request(request) = &mut message
                && let ClientRequest::CallToolRequest(call) = &mut request.request
            {
                match arguments {
                    Some(raw) => {
                        call.extensions_mut()
                            .insert(RawArguments(Arc::from(raw.get())));
                    }
                    // rmcp read arguments the transport did not: they would
                    // reach the toolbox as rmcp's map, which is refused.
                    None if call.params.arguments.is_some() => {
                        return Err(error_line(
                            ErrorCode::INVALID_REQUEST,
                            "Invalid request: the `arguments` of this `tools/call` could not be read as written; send them as one JSON object",
                            Some(&request.id),
                        ));
                    }
                    None => {}
                }
            }
            Ok(message)
        }
        Err(_) if serde_json::from_str::<IgnoredAny>(line).is_err() => Err(error_line(
            ErrorCode::PARSE_ERROR,
            "Parse error: the line is not JSON",
            None,
        )),
        Err(error) => {
            // A notification (a method, no id) gets no answer, as in
            // rmcp's transport: a client does not wait for one.
            let id = match envelope {
                Some(Envelope {
                    id: Id::Absent,
                    method: Some(_),
                    ..
                }) => return Err(Value::Null),
                Some(Envelope {
                    id: Id::Readable(id),
                    ..
                }) => Some(id),
                _ => None,
            };
            Err(error_line(
                ErrorCode::INVALID_REQUEST,
                &format!("Invalid request: {error}"),
                id.as_ref(),
            ))
        }
    }
}

impl Transport<RoleServer> for LineTransport {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        // rmcp calls `send` for an answer after it removed the request
        // from its own table: the id is free again.
        let answered = match &item {
            JsonRpcMessage::Response(response) => Some(&response.id),
            JsonRpcMessage::Error(error) => error.id.as_ref(),
            _ => None,
        };
        let pending = answered.and_then(|id| self.in_flight.ids().remove(id));
        if matches!(item, JsonRpcMessage::Response(_))
            && matches!(pending, Some(Pending::Serving(_, true)))
        {
            self.in_flight.opened.store(true, Ordering::SeqCst);
        }
        let cancelled = matches!(pending, Some(Pending::Cancelled));
        let (done, written) = oneshot::channel();
        let queued = !cancelled && {
            let line = to_line(&item);
            let len = line.len();
            self.backlog.add(len);
            let queued = self.out.send(Out::Line(line, Some(done))).is_ok();
            if !queued {
                self.backlog.remove(len);
            }
            queued
        };
        async move {
            if cancelled {
                return Ok(());
            }
            if !queued {
                return Err(closed());
            }
            written.await.unwrap_or_else(|_| Err(closed()))
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        self.incoming.recv().await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.reader.abort();
        self.incoming.close();
        let (done, closed_) = oneshot::channel();
        if self.out.send(Out::Close(done)).is_err() {
            return Ok(());
        }
        closed_.await.unwrap_or(Ok(()))
    }
}

/// The error of a `send` after the transport closed.
fn closed() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::NotConnected, "the transport is closed")
}
