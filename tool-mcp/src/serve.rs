//! Serving an [`McpServer`] over a byte stream: newline-delimited JSON-RPC,
//! as MCP's stdio transport speaks it.

use std::error::Error;
use std::fmt;

use rmcp::ServiceExt;
use rmcp::service::ServerInitializeError;
use tokio::io::{AsyncRead, AsyncWrite};

use crate::server::McpServer;
use crate::transport::LineTransport;

/// Why serving stopped with an error.
#[derive(Debug)]
pub enum ServeError {
    /// The connection failed before the client was served: it closed, or
    /// its first message was not a valid opening (`initialize` or a request
    /// with 2026-07-28 `_meta`).
    Start(Box<ServerInitializeError>),
    /// The task that served the connection panicked or was cancelled.
    Stopped(tokio::task::JoinError),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Start(error) => write!(f, "the MCP connection did not start: {error}"),
            ServeError::Stopped(error) => write!(f, "the MCP connection stopped: {error}"),
        }
    }
}

impl Error for ServeError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            ServeError::Start(error) => Some(error.as_ref()),
            ServeError::Stopped(error) => Some(error),
        }
    }
}

/// Serves `server` on the process's stdin and stdout until the client
/// closes them: how a host (Claude Desktop, Claude Code, Cursor, the MCP
/// Inspector) runs a local server. Nothing else may write to stdout; log
/// to stderr.
pub async fn serve_stdio(server: McpServer) -> Result<(), ServeError> {
    serve(server, tokio::io::stdin(), tokio::io::stdout()).await
}

/// Serves `server` on any pair of byte streams (a socket's halves, a
/// child's pipes, `tokio::io::duplex` in tests) until the client closes
/// its end.
///
/// One JSON-RPC message a line. Unlike rmcp's own transport, a
/// `tools/call`'s `arguments` reach the contract's parser as the client
/// wrote them (an integer beyond 64 bits stays exact, a key given twice
/// and a lone surrogate escape are argument errors, however the method and
/// keys are spelled), and every line gets one answer: one that is not JSON
/// a parse error (`-32700`, id `null`), one that is JSON but no message of
/// the protocol (an `id` of `null`, a key given twice in any object of the
/// message, a line past 16 MiB) an invalid request (`-32600`), a request
/// reusing the id of one in flight `-32600` with that id; a malformed
/// notification gets none. Requests may be pipelined: reading and writing
/// run in tasks of their own on the current runtime, and each answer is
/// written whole; while more than 1 MiB of answers waits for a client that
/// does not read them, no further line is read.
pub async fn serve<R, W>(server: McpServer, reader: R, writer: W) -> Result<(), ServeError>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let running = server
        .serve(LineTransport::new(reader, writer))
        .await
        .map_err(|error| ServeError::Start(Box::new(error)))?;
    running.waiting().await.map_err(ServeError::Stopped)?;
    Ok(())
}
