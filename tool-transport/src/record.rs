//! Recording a conversation: a transport that wraps another and keeps
//! each exchange, and the files a recording is kept in (written by the
//! recorder, read back as a [`Replay`]).

use std::io;
use std::path::Path;

use serde_json::Value;

use crate::error::TransportError;
use crate::replay::{Exchange, Replay};
use crate::transport::Transport;

/// The file of a recording with every request, in order (a JSON array).
pub const REQUESTS_FILE: &str = "requests.json";
/// The file of a recording with every response, in order (a JSON array).
pub const RESPONSES_FILE: &str = "responses.json";
/// The file of a recording with the tool definitions the requests share;
/// a request whose `tools` are these has `"tools": "<tools.json>"` in
/// [`REQUESTS_FILE`].
pub const TOOLS_FILE: &str = "tools.json";
/// What stands for [`TOOLS_FILE`] in a recorded request's `tools`.
pub const TOOLS_PLACEHOLDER: &str = "<tools.json>";

/// A [`Transport`] that sends through another and keeps every exchange
/// that got a response: the recording a [`Replay`] answers with.
///
/// Record a conversation once against the provider (or a scripted model),
/// write it with [`write_to`](Self::write_to), and replay it in tests with
/// [`Replay::from_dir`]: each request the loop sends is then checked
/// against the recorded one. A request that got an error (a
/// [`TransportError`]), or whose future was dropped before it answered,
/// is not recorded: there is no response to replay, and a replay of the
/// recording answers that request [`TransportError::Exhausted`].
///
/// ```
/// use serde_json::json;
/// use tool_transport::{Exchange, Recorder, Replay, Transport};
///
/// // A scripted model stands in for the provider.
/// let model = Replay::new(vec![Exchange::new(
///     "responses",
///     json!({"model": "gpt-4.1", "input": "Hi"}),
///     json!({"id": "resp_1", "output": []}),
/// )]);
/// let mut recorder = Recorder::new(model);
/// let runtime = tokio::runtime::Builder::new_current_thread().build()?;
/// let answer = runtime.block_on(recorder.send("responses", &json!({"model": "gpt-4.1", "input": "Hi"})))?;
/// let dir = std::env::temp_dir().join(format!("recorder-doc-{}", std::process::id()));
/// recorder.write_to(&dir)?;
/// let mut replay = Replay::from_dir(&dir, "responses")?;
/// let again = runtime.block_on(replay.send("responses", &json!({"model": "gpt-4.1", "input": "Hi"})))?;
/// assert_eq!(again, answer);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Recorder<T> {
    inner: T,
    exchanges: Vec<Exchange>,
}

impl<T> Recorder<T> {
    /// Records what is sent through `inner`.
    pub fn new(inner: T) -> Self {
        Recorder {
            inner,
            exchanges: Vec::new(),
        }
    }

    /// The exchanges recorded so far, in order.
    pub fn exchanges(&self) -> &[Exchange] {
        &self.exchanges
    }

    /// The wrapped transport and the exchanges recorded.
    pub fn into_parts(self) -> (T, Vec<Exchange>) {
        (self.inner, self.exchanges)
    }

    /// A [`Replay`] of what was recorded.
    pub fn replay(&self) -> Replay {
        Replay::new(self.exchanges.clone())
    }

    /// Writes the recording into `dir` (created if missing), as
    /// [`Replay::from_dir`] reads it: [`REQUESTS_FILE`], [`RESPONSES_FILE`]
    /// and, when a request carries `tools`, [`TOOLS_FILE`] with the first
    /// request's tools (the requests with the same tools say
    /// `"tools": "<tools.json>"`; others keep theirs). Each file is pretty
    /// JSON with a final newline (its numbers read back exactly, floats
    /// included); files of an earlier recording are
    /// replaced, and a `tools.json` this recording does not need is
    /// removed.
    ///
    /// A recording holds one endpoint (an agent loop posts to one): an
    /// [`io::ErrorKind::InvalidInput`] error names the first request to
    /// another path, and nothing is written.
    pub fn write_to(&self, dir: impl AsRef<Path>) -> io::Result<()> {
        let files = recording_files(&self.exchanges)?;
        let dir = dir.as_ref();
        std::fs::create_dir_all(dir)?;
        std::fs::write(dir.join(REQUESTS_FILE), files.requests)?;
        std::fs::write(dir.join(RESPONSES_FILE), files.responses)?;
        match files.tools {
            Some(tools) => std::fs::write(dir.join(TOOLS_FILE), tools)?,
            None => match std::fs::remove_file(dir.join(TOOLS_FILE)) {
                Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(error),
                _ => {}
            },
        }
        Ok(())
    }
}

impl<T: Transport + Send> Transport for Recorder<T> {
    async fn send(&mut self, path: &str, request: &Value) -> Result<Value, TransportError> {
        let response = self.inner.send(path, request).await?;
        self.exchanges
            .push(Exchange::new(path, request.clone(), response.clone()));
        Ok(response)
    }
}

/// The text of a recording's files.
struct Files {
    requests: String,
    responses: String,
    tools: Option<String>,
}

fn recording_files(exchanges: &[Exchange]) -> io::Result<Files> {
    if let Some((index, other)) = exchanges
        .iter()
        .enumerate()
        .find(|(_, exchange)| exchange.path != exchanges[0].path)
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "request {index} went to `{}`, the first to `{}`; a recording holds one \
                 endpoint, so record each endpoint with its own recorder",
                other.path, exchanges[0].path
            ),
        ));
    }
    let placeholder = Value::from(TOOLS_PLACEHOLDER);
    // The tools the requests share: the first request's. Not factored out
    // when a request itself sends the placeholder as its tools, which would
    // read back as the file.
    let tools = exchanges
        .iter()
        .find_map(|exchange| exchange.request.get("tools"))
        .filter(|_| {
            !exchanges
                .iter()
                .any(|exchange| exchange.request.get("tools") == Some(&placeholder))
        });
    let requests: Vec<Value> = exchanges
        .iter()
        .map(|exchange| {
            let mut request = exchange.request.clone();
            if let Some(tools) = tools
                && let Some(own) = request.get_mut("tools")
                && own == tools
            {
                *own = placeholder.clone();
            }
            request
        })
        .collect();
    let responses: Vec<Value> = exchanges.iter().map(|e| e.response.clone()).collect();
    Ok(Files {
        requests: pretty(&Value::Array(requests)),
        responses: pretty(&Value::Array(responses)),
        tools: tools.map(pretty),
    })
}

/// Pretty JSON with a final newline.
fn pretty(value: &Value) -> String {
    // A `Value` always serializes.
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

impl Replay {
    /// The recording [`Recorder::write_to`] wrote into `dir`, each request
    /// to `path` (e.g. `"responses"`): [`REQUESTS_FILE`] and
    /// [`RESPONSES_FILE`], and [`TOOLS_FILE`] (if there is one) for the
    /// requests whose `tools` are `"<tools.json>"`. A missing or unreadable
    /// file (other than `tools.json`), text that is not such a JSON array,
    /// or lists of unequal length are an [`io::Error`] naming the file.
    pub fn from_dir(dir: impl AsRef<Path>, path: &str) -> io::Result<Replay> {
        let dir = dir.as_ref();
        let read = |name: &str| {
            std::fs::read_to_string(dir.join(name)).map_err(|error| {
                io::Error::new(
                    error.kind(),
                    format!("{}: {error}", dir.join(name).display()),
                )
            })
        };
        let tools = match read(TOOLS_FILE) {
            Ok(tools) => Some(tools),
            Err(error) if error.kind() == io::ErrorKind::NotFound => None,
            Err(error) => return Err(error),
        };
        Replay::from_files(
            path,
            &read(REQUESTS_FILE)?,
            &read(RESPONSES_FILE)?,
            tools.as_deref(),
        )
    }

    /// The recording from the text of its files (e.g. `include_str!`ed),
    /// as [`from_dir`](Self::from_dir) reads them; `tools` is the text of
    /// [`TOOLS_FILE`], if the recording has one.
    pub fn from_files(
        path: &str,
        requests: &str,
        responses: &str,
        tools: Option<&str>,
    ) -> io::Result<Replay> {
        let invalid = |file: &str, message: String| {
            io::Error::new(io::ErrorKind::InvalidData, format!("{file}: {message}"))
        };
        let list = |file: &str, text: &str| {
            serde_json::from_str::<Vec<Value>>(text)
                .map_err(|error| invalid(file, format!("not a JSON array: {error}")))
        };
        let mut requests = list(REQUESTS_FILE, requests)?;
        let responses = list(RESPONSES_FILE, responses)?;
        let tools: Option<Value> = tools
            .map(|text| {
                serde_json::from_str(text)
                    .map_err(|error| invalid(TOOLS_FILE, format!("not JSON: {error}")))
            })
            .transpose()?;
        if requests.len() != responses.len() {
            return Err(invalid(
                REQUESTS_FILE,
                format!(
                    "{} requests and {} responses are recorded; each request needs its response",
                    requests.len(),
                    responses.len()
                ),
            ));
        }
        // Without a tools file the placeholder is the text a request sent
        // (the recorder factors nothing out then).
        if let Some(tools) = &tools {
            for request in &mut requests {
                if let Some(own) = request.get_mut("tools")
                    && *own == TOOLS_PLACEHOLDER
                {
                    own.clone_from(tools);
                }
            }
        }
        let exchanges = requests
            .into_iter()
            .zip(responses)
            .map(|(request, response)| Exchange::new(path, request, response))
            .collect();
        Ok(Replay::new(exchanges))
    }
}
