//! Recorded responses, replayed in order, with each request checked
//! against the one recorded.

use std::future::{Future, ready};

use serde_json::Value;

use crate::diff::first_difference;
use crate::error::TransportError;
use crate::transport::Transport;

/// One recorded request and the response it got.
#[derive(Clone, Debug, PartialEq)]
pub struct Exchange {
    /// The endpoint, as the loop passes it (e.g. `"responses"`).
    pub path: String,
    /// The request the loop must send, exactly (key order aside).
    pub request: Value,
    /// The response to give back.
    pub response: Value,
}

impl Exchange {
    /// The request to `path` that gets `response`.
    pub fn new(path: impl Into<String>, request: Value, response: Value) -> Self {
        Exchange {
            path: path.into(),
            request,
            response,
        }
    }
}

/// A [`Transport`] that answers with recorded responses, in order, and
/// checks that each request is the recorded one: the same endpoint and the
/// same JSON (key order aside). A request that differs is a
/// [`TransportError::Mismatch`] naming the first difference; a request
/// after the last recorded one is [`TransportError::Exhausted`]. Either
/// way the recording is not advanced, and nothing is sent anywhere.
///
/// ```
/// use serde_json::json;
/// use tool_transport::{Exchange, Replay, Transport, TransportError};
///
/// let mut replay = Replay::new(vec![Exchange::new(
///     "responses",
///     json!({"model": "gpt-4.1", "input": "Hi"}),
///     json!({"id": "resp_1", "output": []}),
/// )]);
/// let runtime = tokio::runtime::Builder::new_current_thread().build()?;
/// let wrong = runtime.block_on(replay.send("responses", &json!({"model": "gpt-4.1", "input": "Hello"})));
/// assert_eq!(wrong, Err(TransportError::Mismatch {
///     exchange: 0,
///     at: "$.input".to_owned(),
///     expected: "\"Hi\"".to_owned(),
///     found: "\"Hello\"".to_owned(),
/// }));
/// let answer = runtime.block_on(replay.send("responses", &json!({"model": "gpt-4.1", "input": "Hi"})));
/// assert_eq!(answer, Ok(json!({"id": "resp_1", "output": []})));
/// assert!(replay.is_done());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    exchanges: Vec<Exchange>,
    next: usize,
}

impl Replay {
    /// Replays `exchanges` in order.
    pub fn new(exchanges: Vec<Exchange>) -> Self {
        Replay { exchanges, next: 0 }
    }

    /// How many recorded requests were sent and answered.
    pub fn answered(&self) -> usize {
        self.next
    }

    /// True when every recorded request was sent: a replay that ends
    /// early shows a loop that stopped before the recording did.
    pub fn is_done(&self) -> bool {
        self.next == self.exchanges.len()
    }

    fn answer(&mut self, path: &str, request: &Value) -> Result<Value, TransportError> {
        let index = self.next;
        let Some(exchange) = self.exchanges.get(index) else {
            return Err(TransportError::Exhausted {
                recorded: self.exchanges.len(),
            });
        };
        if exchange.path != path {
            return Err(TransportError::Mismatch {
                exchange: index,
                at: "path".to_owned(),
                expected: exchange.path.clone(),
                found: path.to_owned(),
            });
        }
        if let Some((at, expected, found)) = first_difference(&exchange.request, request) {
            return Err(TransportError::Mismatch {
                exchange: index,
                at,
                expected,
                found,
            });
        }
        self.next += 1;
        Ok(exchange.response.clone())
    }
}

impl Transport for Replay {
    fn send(
        &mut self,
        path: &str,
        request: &Value,
    ) -> impl Future<Output = Result<Value, TransportError>> + Send {
        ready(self.answer(path, request))
    }
}
