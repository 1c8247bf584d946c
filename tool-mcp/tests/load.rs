//! The stdio transport under load, over a real child process: thousands of
//! `tools/call`s of mixed sizes (small ones, lines just past 8 KiB, lines
//! of about 20 kB), written without waiting for answers and cut into
//! pieces at arbitrary points, each answered exactly once with the answer
//! of its own arguments; lines that are not JSON among them each get one
//! parse error, written whole between the server's answers.
//!
//! A test binary without libtest's harness: run with `--serve-stdio`, it
//! is the child, serving a `Toolbox` with `serve_stdio`; run without, it is
//! the client and starts itself as the child.

use std::collections::HashMap;
use std::process::Stdio;
use std::time::Duration;

use std::io::{BufRead, Write};
use std::process::Command;
use std::sync::mpsc;
use std::time::Instant;

use serde_json::{Value, json};
use tool_contract::mcp::{McpServer, serve_stdio};
use tool_contract::{CallContext, Tool, ToolError, Toolbox};

/// The argument that makes this binary the child.
const SERVE_FLAG: &str = "--serve-stdio";
/// The test's name, as a filter given to `cargo test` may select it.
const TEST_NAME: &str = "pipelined_calls_of_mixed_sizes_are_each_answered_once";
/// How many calls the client writes before it reads any answer.
const CALLS: u64 = 3_000;

/// File a note under a tag, e.g. before a shift change.
#[derive(Debug, Tool)]
#[tool(output = String)]
pub struct FileNote {
    /// The tag the note is filed under, e.g. 42.
    pub tag: u64,
    /// The note's text, e.g. "the east door sticks".
    pub note: String,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|arg| arg == SERVE_FLAG) {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(serve_child());
        return;
    }
    if args.iter().any(|arg| arg == "--list") {
        println!("{TEST_NAME}: test");
        return;
    }
    let filters: Vec<&String> = args.iter().filter(|arg| !arg.starts_with('-')).collect();
    if !filters.is_empty()
        && !filters
            .iter()
            .any(|filter| TEST_NAME.contains(filter.as_str()))
    {
        println!("running 0 tests");
        return;
    }
    println!("running 1 test");
    pipelined_calls_of_mixed_sizes_are_each_answered_once();
    println!("test {TEST_NAME} ... ok");
    println!("test result: ok. 1 passed; 0 failed");
}

/// The child: one tool that answers with the tag and the note's length.
async fn serve_child() {
    let mut toolbox = Toolbox::new();
    toolbox.register(|call: FileNote, _cx: CallContext| async move {
        Ok::<_, ToolError>(format!("{} {}", call.tag, call.note.len()))
    });
    serve_stdio(McpServer::new(toolbox, "load", "1.0.0"))
        .await
        .expect("served");
}

/// A small deterministic generator (an LCG): the same sizes and cuts on
/// every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % below
    }
}

/// The note of call `id`: a third small, a third just past the 8 KiB of a
/// default read buffer, a third about 20 kB.
fn note_len(id: u64, lcg: &mut Lcg) -> usize {
    let len = match id % 3 {
        0 => 10 + lcg.next(200),
        1 => 8_100 + lcg.next(600),
        _ => 19_500 + lcg.next(1_000),
    };
    usize::try_from(len).expect("a small length")
}

/// Reads the child's stdout on a thread of its own, a line at a time.
fn lines_of(stdout: std::process::ChildStdout) -> mpsc::Receiver<Option<String>> {
    let (lines, received) = mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if lines.send(Some(line)).is_err() {
                return;
            }
        }
        let _ = lines.send(None);
    });
    received
}

/// The next line of the child within `within` (`None`: its stdout closed).
fn next_line(
    lines: &mpsc::Receiver<Option<String>>,
    within: Duration,
    what: &str,
) -> Option<String> {
    lines
        .recv_timeout(within)
        .unwrap_or_else(|_| panic!("{what} within {} s", within.as_secs()))
}

fn pipelined_calls_of_mixed_sizes_are_each_answered_once() {
    let mut child = Command::new(std::env::current_exe().expect("this binary"))
        .arg(SERVE_FLAG)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the child starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let lines = lines_of(child.stdout.take().expect("stdout"));

    let init = json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "load", "version": "1.0.0"}}});
    stdin
        .write_all(format!("{init}\n").as_bytes())
        .expect("written");
    let answer = next_line(&lines, Duration::from_secs(30), "the handshake").expect("a line");
    let answer: Value = serde_json::from_str(&answer).expect("JSON");
    assert_eq!(answer["id"], "init", "{answer}");
    assert_eq!(answer["result"]["serverInfo"]["name"], "load", "{answer}");

    let mut lcg = Lcg(24);
    let mut expected = HashMap::new();
    let mut bytes = b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n".to_vec();
    let mut long_lines = 0;
    for id in 0..CALLS {
        let len = note_len(id, &mut lcg);
        let note = "n".repeat(len);
        let line = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "file_note", "arguments": {"tag": id, "note": note}}});
        let line = format!("{line}\n");
        if line.len() > 8 * 1024 {
            long_lines += 1;
        }
        bytes.extend_from_slice(line.as_bytes());
        expected.insert(id, format!("{id} {len}"));
        // Now and then a line past 8 KiB that is not JSON: the transport's
        // own answer goes out between the server's, each line whole.
        if id % 97 == 0 {
            bytes.extend_from_slice(format!("{{\"id\":\"{}\n", "x".repeat(9_000)).as_bytes());
        }
    }
    assert_eq!(long_lines, 2_000);
    let not_json = CALLS.div_ceil(97);
    // The client writes everything without waiting, in pieces cut at
    // arbitrary points (a line's end rarely meets a piece's), while the
    // server's answers are being written.
    let writer = std::thread::spawn(move || {
        let mut lcg = Lcg(7);
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            let piece = usize::try_from(1 + lcg.next(12_000))
                .expect("small")
                .min(rest.len());
            stdin.write_all(&rest[..piece]).expect("written");
            stdin.flush().expect("flushed");
            rest = &rest[piece..];
        }
        stdin
    });

    let mut answered: HashMap<u64, u32> = HashMap::new();
    let mut wrong = Vec::new();
    let mut unexpected = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut parse_errors = 0;
    while answered.len() < expected.len() || parse_errors < not_json {
        let within = deadline.saturating_duration_since(Instant::now());
        let Ok(line) = lines.recv_timeout(within) else {
            let _ = child.kill();
            panic!(
                "answers within 120 s: {} of {CALLS} calls answered",
                answered.len()
            );
        };
        let line = line.expect("the child's stdout stays open");
        let answer: Value = serde_json::from_str(&line).expect("each line is JSON");
        if answer
            == json!({"jsonrpc": "2.0", "id": null,
                "error": {"code": -32700, "message": "Parse error: the line is not JSON"}})
        {
            parse_errors += 1;
            continue;
        }
        let Some(id) = answer["id"].as_u64().filter(|id| expected.contains_key(id)) else {
            unexpected.push(answer);
            continue;
        };
        *answered.entry(id).or_default() += 1;
        let text = &answer["result"]["content"][0]["text"];
        if text != &Value::from(expected[&id].as_str())
            || answer["result"]["isError"] != false
            || answer["result"]["structuredContent"]["value"] != *text
        {
            wrong.push(answer);
        }
    }
    let stdin = writer.join().expect("the writer ends");
    assert_eq!(unexpected, Vec::<Value>::new());
    assert_eq!(wrong, Vec::<Value>::new());
    assert_eq!(answered.len(), expected.len());
    assert_eq!(parse_errors, not_json);
    let twice: Vec<_> = answered.iter().filter(|(_, n)| **n != 1).collect();
    assert_eq!(twice, Vec::<(&u64, &u32)>::new());

    // Nothing more comes, and closing stdin ends the child cleanly.
    drop(stdin);
    assert_eq!(
        next_line(&lines, Duration::from_secs(30), "stdout closes"),
        None
    );
    let status = child.wait().expect("the child exits");
    assert!(status.success(), "{status}");
}
