//! The newline-delimited JSON-RPC transport [`serve`](crate::serve) runs
//! rmcp on, in place of rmcp's own `AsyncRwTransport`, for two things
//! rmcp's cannot do:
//!
//! - a `tools/call`'s `arguments` reach the toolbox as the client wrote
//!   them ([`RawArguments`]): rmcp reads them into a `serde_json` map,
//!   which rounds an integer beyond 64 bits to a float and keeps the last
//!   of a key given twice, where the contract's parser reads the exact
//!   integer and refuses the repeated key; arguments rmcp cannot read at
//!   all (a lone surrogate escape) are answered by the parser, not dropped;
//! - every line gets an answer: a line that is not JSON gets JSON-RPC's
//!   parse error (`-32700`, id `null`), a JSON line that is no message of
//!   the protocol an invalid request (`-32600`, with its id when it has a
//!   readable one), where rmcp's transport drops the first silently.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{ClientRequest, ErrorCode, ErrorData, GetExtensions, JsonRpcMessage, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// The `arguments` of a `tools/call` exactly as the client's line held
/// them, put into the request's extensions by the transport of
/// [`serve`](crate::serve); the server parses these rather than rmcp's map.
#[derive(Clone, Debug)]
pub(crate) struct RawArguments(pub(crate) Arc<str>);

/// rmcp's `Transport` over a byte stream: one JSON-RPC message a line.
pub(crate) struct LineTransport<R, W> {
    read: BufReader<R>,
    line: Vec<u8>,
    discarding: bool,
    write: Arc<Mutex<Option<W>>>,
}

impl<R: AsyncRead, W> LineTransport<R, W> {
    /// A transport reading lines from `read` and writing them to `write`.
    pub(crate) fn new(read: R, write: W) -> Self {
        LineTransport {
            read: BufReader::new(read),
            line: Vec::new(),
            discarding: false,
            write: Arc::new(Mutex::new(Some(write))),
        }
    }
}

/// What reading a line gave.
enum Line {
    Complete,
    Oversized,
    End,
}

impl<R: AsyncRead + Send + Unpin, W: AsyncWrite + Send + Unpin + 'static> LineTransport<R, W> {
    /// Reads the next line into `self.line`, without its `\n`; a line
    /// longer than rmcp's limit (16 MiB) is skipped to its end.
    async fn read_line(&mut self) -> Line {
        self.line.clear();
        loop {
            let available = match self.read.fill_buf().await {
                Ok(available) if !available.is_empty() => available,
                _ => return Line::End,
            };
            let newline = available.iter().position(|b| *b == b'\n');
            let take = newline.map_or(available.len(), |at| at + 1);
            let oversized = !self.discarding && self.line.len() + take > DEFAULT_MAX_LINE_LENGTH;
            if oversized {
                self.line.clear();
                self.discarding = true;
            }
            if !self.discarding {
                self.line
                    .extend_from_slice(&available[..newline.unwrap_or(available.len())]);
            }
            self.read.consume(take);
            if newline.is_some() {
                if std::mem::take(&mut self.discarding) {
                    return Line::Oversized;
                }
                return Line::Complete;
            }
        }
    }
}

/// Writes `message` and a newline to `write`, then flushes.
async fn write_line<W: AsyncWrite + Unpin>(
    write: &Mutex<Option<W>>,
    message: &impl serde::Serialize,
) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec(message).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    let mut write = write.lock().await;
    let Some(write) = write.as_mut() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotConnected,
            "the transport is closed",
        ));
    };
    write.write_all(&bytes).await?;
    write.flush().await
}

/// A JSON-RPC error answer of the transport, with `id` `null` when the
/// line had no readable id (as JSON-RPC 2.0 asks).
fn error_line(code: ErrorCode, message: &str, id: Option<&RequestId>) -> Value {
    let error = ErrorData::new(code, message.to_owned(), None);
    json!({"jsonrpc": "2.0", "id": id, "error": error})
}

/// The parts of a line read without rmcp's types: its id, and a
/// `tools/call`'s arguments as written.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(default)]
    id: Option<RequestId>,
    #[serde(default, borrow)]
    method: Option<&'a RawValue>,
    #[serde(default, borrow)]
    params: Option<Params<'a>>,
}

#[derive(Deserialize)]
struct Params<'a> {
    #[serde(default, borrow)]
    arguments: Option<&'a RawValue>,
}

/// The raw `arguments` object of a `tools/call` line, if the line is one.
fn call_arguments(line: &str) -> Option<&RawValue> {
    if !line.contains("tools/call") {
        return None;
    }
    let envelope: Envelope<'_> = serde_json::from_str(line).ok()?;
    if envelope.method.map(RawValue::get) != Some("\"tools/call\"") {
        return None;
    }
    envelope
        .params?
        .arguments
        .filter(|raw| raw.get().starts_with('{'))
}

/// The message of a line, with a `tools/call`'s raw arguments in its
/// extensions; `Err` is the answer to a line that is not one (`null`:
/// none, for a notification).
fn read_message(line: &str) -> Result<RxJsonRpcMessage<RoleServer>, Value> {
    let arguments = call_arguments(line);
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
            if let (JsonRpcMessage::Request(request), Some(raw)) = (&mut message, arguments)
                && let ClientRequest::CallToolRequest(call) = &mut request.request
            {
                call.extensions_mut()
                    .insert(RawArguments(Arc::from(raw.get())));
            }
            Ok(message)
        }
        Err(_) if serde_json::from_str::<IgnoredAny>(line).is_err() => Err(error_line(
            ErrorCode::PARSE_ERROR,
            "Parse error: the line is not JSON",
            None,
        )),
        Err(error) => {
            let envelope = serde_json::from_str::<Envelope<'_>>(line).ok();
            // A notification (a method, no id) gets no answer, as in
            // rmcp's transport: a client does not wait for one.
            if let Some(Envelope {
                id: None,
                method: Some(_),
                ..
            }) = envelope
            {
                return Err(Value::Null);
            }
            let id = envelope.and_then(|envelope| envelope.id);
            Err(error_line(
                ErrorCode::INVALID_REQUEST,
                &format!("Invalid request: {error}"),
                id.as_ref(),
            ))
        }
    }
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let write = self.write.clone();
        async move { write_line(&write, &item).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            match self.read_line().await {
                Line::End => return None,
                Line::Oversized => {
                    let answer = error_line(
                        ErrorCode::INVALID_REQUEST,
                        "Invalid request: the line is longer than 16 MiB",
                        None,
                    );
                    if write_line(&self.write, &answer).await.is_err() {
                        return None;
                    }
                    continue;
                }
                Line::Complete => {}
            }
            let bytes = self.line.strip_suffix(b"\r").unwrap_or(&self.line);
            let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            if bytes.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let answer = match std::str::from_utf8(bytes) {
                Ok(line) => match read_message(line) {
                    Ok(message) => return Some(message),
                    Err(Value::Null) => continue,
                    Err(answer) => answer,
                },
                Err(_) => error_line(
                    ErrorCode::PARSE_ERROR,
                    "Parse error: the line is not UTF-8",
                    None,
                ),
            };
            if write_line(&self.write, &answer).await.is_err() {
                return None;
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        if let Some(mut write) = self.write.lock().await.take() {
            write.shutdown().await?;
        }
        Ok(())
    }
}
