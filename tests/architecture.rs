//! The workspace rule for modules: no two modules of a crate import each
//! other (and no cycles at all is better).
//!
//! The test reads every crate's `src/**/*.rs`, finds the paths into the crate
//! itself (`crate::..`, `super::..`, `self::..`, `use` groups such as
//! `use crate::{a::X, b::{Y, Z}}`, and `use child::..` of a child module),
//! resolves each to the module that defines the item (following `use`
//! re-exports, so `crate::Effect` is the module that declares `Effect`),
//! and lists every pair of modules that import each other, and every longer
//! cycle. Any of them fails the test, in every crate of the workspace.
//!
//! A module is a file (`src/a.rs` and `src/a/mod.rs` are `a`, `src/a/b.rs`
//! is `a::b`, `lib.rs` is `crate`) or an inline `mod name { .. }` in one
//! (`attr::tests`). Comments, string and character literals are skipped.
//!
//! The provider adapters implement the one provider contract of tool-core
//! (checked at compile time: each provider and conversation type meets
//! the traits) and keep only what is their provider's own: no adapter
//! defines an agent loop or an extension of the runtime's `Toolbox`, which
//! are written once in tool-runtime, nor an error type of its own for what
//! tool-core's one error says (a stream refused, a tool set over budget):
//! an adapter names them by alias or re-export only.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

#[test]
fn no_two_modules_import_each_other() {
    let mut failures = Vec::new();
    for (name, src) in workspace_crates() {
        let graph = Graph::of_crate(&read_sources(&src));
        let pairs = graph.mutual_pairs();
        let cycles = graph.cycles();
        if pairs.is_empty() && cycles.is_empty() {
            continue;
        }
        let report = format!(
            "{name}: {} pair(s) of modules import each other:\n{}{}",
            pairs.len(),
            pairs.join("\n"),
            cycles
                .iter()
                .map(|c| format!("\n  modules that reach each other: {}", c.join(", ")))
                .collect::<String>()
        );
        failures.push(report);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_adapter_crate_is_scanned() {
    let names: Vec<String> = workspace_crates()
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    for adapter in ["tool-openai", "tool-anthropic", "tool-gemini"] {
        assert!(
            names.iter().any(|n| n == adapter),
            "{adapter} not in {names:?}"
        );
    }
}

/// The adapters whose sources hold only what is their provider's own.
const ADAPTERS: [&str; 4] = ["tool-openai", "tool-anthropic", "tool-gemini", "tool-mcp"];

/// What in an adapter's sources would be a second agent loop or a
/// `Toolbox` extension: a file named for one, an extension trait or impl
/// for `Toolbox`, a struct named `...Agent`, or a request sent through a
/// `tool_transport::Transport`. Line comments are left out (the docs may
/// name the runtime's `Toolbox::answer`).
fn adapter_findings(crate_name: &str, sources: &[(String, String)]) -> Vec<String> {
    let mut findings = Vec::new();
    for (file, text) in sources {
        let name = file.rsplit('/').next().unwrap_or(file);
        if name == "agent.rs" || name == "toolbox.rs" {
            findings.push(format!(
                "{crate_name}/src/{file}: a file of its own agent loop or Toolbox extension"
            ));
        }
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            let at = format!("{crate_name}/src/{file}:{}", number + 1);
            let words: Vec<&str> = code
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .collect();
            let has = |word: &str| words.contains(&word);
            if has("trait") && words.iter().any(|w| w.starts_with("Toolbox")) {
                findings.push(format!("{at}: a trait over Toolbox: {}", code.trim()));
            }
            if has("impl") && words.windows(2).any(|w| w == ["for", "Toolbox"]) {
                findings.push(format!("{at}: an impl for Toolbox: {}", code.trim()));
            }
            if has("impl") && words.windows(2).any(|w| w == ["impl", "Toolbox"]) {
                findings.push(format!("{at}: an impl of Toolbox: {}", code.trim()));
            }
            if let Some(i) = words.iter().position(|w| *w == "struct")
                && words.get(i + 1).is_some_and(|w| w.ends_with("Agent"))
            {
                findings.push(format!("{at}: an agent of its own: {}", code.trim()));
            }
            if code.contains("tool_transport::Transport")
                || code.contains(": Transport")
                || code.contains("transport.send(")
            {
                findings.push(format!(
                    "{at}: requests sent through a transport: {}",
                    code.trim()
                ));
            }
        }
    }
    findings
}

#[test]
fn no_adapter_defines_its_own_agent_loop_or_toolbox_extension() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut findings = Vec::new();
    for adapter in ADAPTERS {
        findings.extend(adapter_findings(
            adapter,
            &read_sources(&root.join(adapter).join("src")),
        ));
    }
    assert!(findings.is_empty(), "{}", findings.join("\n"));
}

/// The scan finds each kind of second loop or extension (the control for
/// the test above).
#[test]
fn the_adapter_scan_finds_a_loop_and_an_extension() {
    let sources = vec![
        (
            "agent.rs".to_owned(),
            "pub struct ResponsesAgent<'t, T> { transport: T }\n\
            impl<'t, T: Transport> ResponsesAgent<'t, T> {\n\
            async fn run(&mut self) { self.transport.send(PATH, &request).await; }\n}\n"
                .to_owned(),
        ),
        (
            "toolbox.rs".to_owned(),
            "pub trait ToolboxExt: sealed::Sealed {}\n\
            impl ToolboxExt for Toolbox {}\n\
            // impl Ext for Toolbox, in a comment, is not code\n"
                .to_owned(),
        ),
        (
            "wire.rs".to_owned(),
            "pub type ResponsesAgent<'t, T> = Agent<'t, Responses, T>;\n".to_owned(),
        ),
    ];
    let findings = adapter_findings("tool-x", &sources);
    assert_eq!(
        findings,
        [
            "tool-x/src/agent.rs: a file of its own agent loop or Toolbox extension",
            "tool-x/src/agent.rs:1: an agent of its own: pub struct ResponsesAgent<'t, T> { transport: T }",
            "tool-x/src/agent.rs:2: requests sent through a transport: impl<'t, T: Transport> ResponsesAgent<'t, T> {",
            "tool-x/src/agent.rs:3: requests sent through a transport: async fn run(&mut self) { self.transport.send(PATH, &request).await; }",
            "tool-x/src/toolbox.rs: a file of its own agent loop or Toolbox extension",
            "tool-x/src/toolbox.rs:1: a trait over Toolbox: pub trait ToolboxExt: sealed::Sealed {}",
            "tool-x/src/toolbox.rs:2: an impl for Toolbox: impl ToolboxExt for Toolbox {}",
        ]
    );
}

/// The error types tool-core defines once for every adapter: an adapter
/// may name them (`pub type BudgetError = BudgetError<Limit>`, `pub use`),
/// never define its own.
const SHARED_ERRORS: [&str; 3] = ["StreamError", "BudgetError", "OverBudget"];

/// Each `struct` or `enum` in an adapter's sources named as one of
/// [`SHARED_ERRORS`]. Line comments are left out (the docs name them).
fn own_error_types(crate_name: &str, sources: &[(String, String)]) -> Vec<String> {
    let mut findings = Vec::new();
    for (file, text) in sources {
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            let words: Vec<&str> = code
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .collect();
            for pair in words.windows(2) {
                if matches!(pair[0], "struct" | "enum") && SHARED_ERRORS.contains(&pair[1]) {
                    findings.push(format!(
                        "{crate_name}/src/{file}:{}: its own {} {}, which tool-core defines \
                         once: {}",
                        number + 1,
                        pair[0],
                        pair[1],
                        code.trim()
                    ));
                }
            }
        }
    }
    findings
}

#[test]
fn no_adapter_defines_its_own_stream_or_budget_error() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut findings = Vec::new();
    for adapter in ADAPTERS {
        findings.extend(own_error_types(
            adapter,
            &read_sources(&root.join(adapter).join("src")),
        ));
    }
    assert!(findings.is_empty(), "{}", findings.join("\n"));
}

/// The scan finds a struct or enum of each name, generic or not, and lets
/// aliases, re-exports and comments pass (the control for the test above).
#[test]
fn the_error_scan_finds_an_adapters_own_error_types() {
    let sources = vec![(
        "stream.rs".to_owned(),
        "pub struct StreamError {\n\
        pub(crate) enum BudgetError<L> { Over(L) }\n\
        struct OverBudget;\n\
        pub use tool_core::outcome::{StreamError, StreamErrorKind};\n\
        pub type BudgetError = tool_core::dialect::BudgetError<Limit>;\n\
        pub type OverBudget = tool_core::dialect::OverBudget<Limit>;\n\
        // pub enum StreamError, in a comment, is not code\n\
        pub struct StreamErrors;\n"
            .to_owned(),
    )];
    assert_eq!(
        own_error_types("tool-x", &sources),
        [
            "tool-x/src/stream.rs:1: its own struct StreamError, which tool-core defines once: \
             pub struct StreamError {",
            "tool-x/src/stream.rs:2: its own enum BudgetError, which tool-core defines once: \
             pub(crate) enum BudgetError<L> { Over(L) }",
            "tool-x/src/stream.rs:3: its own struct OverBudget, which tool-core defines once: \
             struct OverBudget;",
        ]
    );
}

/// Every provider implements tool-core's provider contract, and each agent
/// loop's conversation its `Conversation`: a compile-time check, and each
/// reads a response of its own API through the contract.
#[test]
fn every_adapter_implements_the_provider_contract() {
    use serde_json::json;
    use tool_core::provider::Provider;

    fn model<P: Provider>(provider: &P, response: &serde_json::Value) -> String {
        let calls = provider.calls(response).unwrap();
        assert!(P::list(&calls).is_empty());
        P::model(&calls).to_owned()
    }
    let chat = json!({"model": "gpt-4.1", "choices": [{"index": 0, "finish_reason": "stop",
        "message": {"role": "assistant", "content": "Hi"}}]});
    assert_eq!(
        model(&tool_contract::openai::Api::ChatCompletions, &chat),
        "gpt-4.1"
    );
    let responses =
        json!({"id": "resp_1", "model": "gpt-5-mini", "status": "completed", "output": []});
    assert_eq!(
        model(&tool_contract::openai::Api::Responses, &responses),
        "gpt-5-mini"
    );
    let messages = json!({"model": "claude-sonnet-4-5", "stop_reason": "end_turn", "content": []});
    let tool_set = tool_contract::anthropic::ToolSet::new(&[]).unwrap();
    assert_eq!(model(&tool_set, &messages), "claude-sonnet-4-5");
    let gemini = json!({"modelVersion": "gemini-2.5-flash", "candidates": [{"content":
        {"role": "model", "parts": [{"text": "Hi"}]}, "finishReason": "STOP"}]});
    assert_eq!(
        model(&tool_contract::gemini::GenerateContent, &gemini),
        "gemini-2.5-flash"
    );

    // The stream assemblers give the calls of their provider.
    fn assembles<A: tool_core::provider::Assembler>(
        events: &[serde_json::Value],
        mut stream: A,
    ) -> String {
        for event in events {
            stream.push(event).unwrap();
        }
        let calls = stream.finish().unwrap();
        assert!(<A::Provider as Provider>::list(&calls).is_empty());
        <A::Provider as Provider>::model(&calls).to_owned()
    }
    let chunk = json!({"model": "gpt-4.1", "choices": [{"index": 0, "delta": {"content": "Hi"},
        "finish_reason": "stop"}]});
    assert_eq!(
        assembles(
            &[chunk],
            tool_contract::openai::ChatCompletionsStream::new()
        ),
        "gpt-4.1"
    );
    let events = [
        json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant",
            "model": "claude-sonnet-4-5", "content": [], "stop_reason": null}}),
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}}),
        json!({"type": "message_stop"}),
    ];
    assert_eq!(
        assembles(&events, tool_contract::anthropic::StreamAssembler::new()),
        "claude-sonnet-4-5"
    );
    let _ = assembles::<tool_contract::openai::ResponsesStream>;
}

/// Each agent loop is the runtime's one loop over the adapter's
/// `Conversation` (a compile-time check).
#[cfg(feature = "runtime")]
#[test]
fn every_agent_loop_is_the_runtime_loop_over_a_conversation() {
    use tool_core::provider::Conversation;

    fn conversation<C: Conversation>() -> &'static [&'static str] {
        C::LOOP_KEYS
    }
    assert!(conversation::<tool_contract::openai::agent::Responses>().contains(&"input"));
    assert!(conversation::<tool_contract::anthropic::agent::Messages>().contains(&"messages"));
    assert!(conversation::<tool_contract::gemini::agent::Contents>().contains(&"contents"));
    // Each adapter's agent is the runtime's `Agent` over its conversation.
    fn same<T>(_: PhantomData<T>, _: PhantomData<T>) {}
    use std::marker::PhantomData;
    use tool_contract::transport::Replay;
    use tool_runtime::agent::Agent;
    same(
        PhantomData::<tool_contract::openai::agent::ResponsesAgent<'static, Replay>>,
        PhantomData::<Agent<'static, tool_contract::openai::agent::Responses, Replay>>,
    );
    same(
        PhantomData::<tool_contract::anthropic::agent::MessagesAgent<'static, Replay>>,
        PhantomData::<Agent<'static, tool_contract::anthropic::agent::Messages, Replay>>,
    );
    same(
        PhantomData::<tool_contract::gemini::agent::GeminiAgent<'static, Replay>>,
        PhantomData::<Agent<'static, tool_contract::gemini::agent::Contents, Replay>>,
    );
}

#[test]
fn tool_macros_has_no_import_cycle_at_all() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tool-macros/src");
    let graph = Graph::of_crate(&read_sources(&src));
    assert_eq!(graph.cycles(), Vec::<Vec<String>>::new());
    // The scan sees the crate's stages: the expansion imports the model and
    // the stub, the model the attributes, the attributes the vocabularies.
    assert!(graph.imports("expand", "ast"));
    assert!(graph.imports("expand", "fallback"));
    assert!(!graph.imports("fallback", "expand"));
    assert!(graph.imports("ast", "attr"));
    assert!(graph.imports("attr", "vocab"));
    // The vocabularies and the files the facade's tests include import
    // nothing of the crate.
    for leaf in ["vocab", "version", "edit_distance", "tool_name", "pattern"] {
        assert!(
            !graph.modules().any(|m| graph.imports(leaf, m)),
            "{leaf} imports {:?}",
            graph.edges.get(leaf)
        );
    }
}

/// Each crate of the workspace (the facade included) with its `src`; the
/// members without one (examples, benches) hold no library modules.
fn workspace_crates() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = manifest
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list)
        .expect("the workspace lists its members");
    let mut crates = vec![("tool-contract".to_owned(), root.join("src"))];
    for member in members.split(',') {
        let member = member.trim().trim_matches('"');
        if !member.is_empty() {
            crates.push((member.to_owned(), root.join(member).join("src")));
        }
    }
    crates.retain(|(name, src)| src.is_dir() || name.starts_with("tool-"));
    for (name, src) in &crates {
        assert!(src.is_dir(), "{name} has no {}", src.display());
    }
    assert!(crates.len() >= 6, "the workspace's crates: {crates:?}");
    crates
}

/// Every `.rs` file under `src`, by its path relative to `src` (`a/b.rs`).
fn read_sources(src: &Path) -> Vec<(String, String)> {
    fn walk(dir: &Path, src: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, src, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(src).unwrap().to_string_lossy();
                let relative = relative.replace('\\', "/");
                out.push((relative, fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(src, src, &mut out);
    out
}

/// A module path: `["runtime", "toolbox"]`; the crate root is empty.
type Module = Vec<String>;

fn show(module: &[String]) -> String {
    if module.is_empty() {
        "crate".to_owned()
    } else {
        module.join("::")
    }
}

/// The module a file is: `a/b.rs` is `a::b`, `a/mod.rs` is `a`.
fn file_module(relative: &str) -> Module {
    let stem = relative.trim_end_matches(".rs");
    let mut parts: Vec<String> = stem.split('/').map(str::to_owned).collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// A path into the crate as written, and where.
#[derive(Clone, Debug)]
struct Import {
    /// The module it is written in.
    module: Module,
    /// Its segments: `["crate", "attr", "Doc"]`, `["super", "*"]`.
    path: Vec<String>,
    /// The name it binds (`use .. as name`, or its last segment), for `use`.
    binds: Option<String>,
    line: usize,
    file: String,
}

/// The modules of a crate and the imports between them.
struct Graph {
    /// From each module (shown) to the modules it imports, with one import
    /// as an example.
    edges: BTreeMap<String, BTreeMap<String, String>>,
}

impl Graph {
    fn of_crate(files: &[(String, String)]) -> Graph {
        let mut modules: BTreeSet<Module> = BTreeSet::new();
        let mut imports = Vec::new();
        for (relative, text) in files {
            let module = file_module(relative);
            let tokens = tokens(text);
            modules.insert(module.clone());
            for inline in inline_modules(&tokens, &module) {
                modules.insert(inline);
            }
            imports.extend(scan(&tokens, &module, relative));
        }
        let resolver = Resolver {
            modules: &modules,
            imports: &imports,
        };
        let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for import in &imports {
            let Some(target) = resolver.resolve(import, 0) else {
                continue;
            };
            if target == import.module {
                continue;
            }
            edges
                .entry(show(&import.module))
                .or_default()
                .entry(show(&target))
                .or_insert_with(|| {
                    format!(
                        "{}:{} `{}`",
                        import.file,
                        import.line,
                        import.path.join("::")
                    )
                });
        }
        for module in &modules {
            edges.entry(show(module)).or_default();
        }
        Graph { edges }
    }

    fn modules(&self) -> impl Iterator<Item = &str> {
        self.edges.keys().map(String::as_str)
    }

    fn imports(&self, from: &str, to: &str) -> bool {
        self.edges.get(from).is_some_and(|e| e.contains_key(to))
    }

    /// Each pair of modules that import each other, with where.
    fn mutual_pairs(&self) -> Vec<String> {
        let mut pairs = Vec::new();
        for (a, targets) in &self.edges {
            for (b, at) in targets {
                if a < b
                    && let Some(back) = self.edges.get(b).and_then(|t| t.get(a))
                {
                    pairs.push(format!("  {a} <-> {b} ({at}; {back})"));
                }
            }
        }
        pairs
    }

    /// The groups of modules that reach each other through imports
    /// (strongly connected components of more than one module).
    fn cycles(&self) -> Vec<Vec<String>> {
        let names: Vec<&String> = self.edges.keys().collect();
        let reach = |from: &String| -> BTreeSet<String> {
            let mut seen = BTreeSet::new();
            let mut stack = vec![from.clone()];
            while let Some(m) = stack.pop() {
                for next in self.edges.get(&m).into_iter().flat_map(|e| e.keys()) {
                    if seen.insert(next.clone()) {
                        stack.push(next.clone());
                    }
                }
            }
            seen
        };
        let reachable: BTreeMap<&String, BTreeSet<String>> =
            names.iter().map(|n| (*n, reach(n))).collect();
        let mut groups: Vec<Vec<String>> = Vec::new();
        for name in &names {
            if groups.iter().any(|g| g.contains(name)) {
                continue;
            }
            let group: Vec<String> = names
                .iter()
                .filter(|other| {
                    *other == name
                        || (reachable[*name].contains(**other)
                            && reachable[**other].contains(*name))
                })
                .map(|n| (*n).clone())
                .collect();
            if group.len() > 1 {
                groups.push(group);
            }
        }
        groups
    }
}

struct Resolver<'a> {
    modules: &'a BTreeSet<Module>,
    imports: &'a [Import],
}

impl Resolver<'_> {
    /// The module that defines what `import` names, if it is in the crate.
    fn resolve(&self, import: &Import, depth: usize) -> Option<Module> {
        let path = &import.path;
        let (mut current, rest) = match path.first().map(String::as_str) {
            Some("crate") => (Vec::new(), &path[1..]),
            Some("self") => (import.module.clone(), &path[1..]),
            Some("super") => {
                let mut module = import.module.clone();
                let mut rest = &path[..];
                while rest.first().is_some_and(|s| s == "super") {
                    module.pop();
                    rest = &rest[1..];
                }
                (module, rest)
            }
            // `use child::..` of a child module; anything else is another crate.
            Some(first) => {
                let mut child = import.module.clone();
                child.push(first.to_owned());
                if !self.modules.contains(&child) {
                    return None;
                }
                (import.module.clone(), &path[..])
            }
            None => return None,
        };
        for segment in rest {
            if segment == "self" || segment == "*" {
                break;
            }
            let mut child = current.clone();
            child.push(segment.clone());
            if self.modules.contains(&child) {
                current = child;
                continue;
            }
            // A name bound by a `use` in `current`: follow it (a re-export).
            if depth < 16
                && let Some(target) = self
                    .imports
                    .iter()
                    .filter(|i| i.module == current && i.binds.as_deref() == Some(segment))
                    .find_map(|i| self.resolve(i, depth + 1))
            {
                return Some(target);
            }
            break;
        }
        Some(current)
    }
}

/// A token of Rust source, without comments and literals.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    /// `::`
    PathSep,
    Punct(char),
    /// A string, character or number literal.
    Literal,
}

/// The tokens of `text`, each with its line.
fn tokens(text: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let newlines = |from: usize, to: usize| chars[from..to].iter().filter(|c| **c == '\n').count();
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let start = i;
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            line += newlines(start, i);
        } else if let Some(end) = raw_string_end(&chars, i) {
            line += newlines(i, end);
            out.push((Token::Literal, line));
            i = end;
        } else if c == '"' || (c == 'b' && next == Some('"')) {
            let start = i;
            i += if c == 'b' { 2 } else { 1 };
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            line += newlines(start, i.min(chars.len()));
            out.push((Token::Literal, line));
        } else if c == '\'' {
            // A character literal ('a', '\n', '\u{1F600}'), or a lifetime.
            let close = if next == Some('\\') {
                (i + 2..chars.len()).find(|&j| chars[j] == '\'')
            } else {
                (chars.get(i + 2) == Some(&'\'')).then_some(i + 2)
            };
            match close {
                Some(end) => {
                    out.push((Token::Literal, line));
                    i = end + 1;
                }
                None => {
                    out.push((Token::Punct('\''), line));
                    i += 1;
                }
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            out.push((Token::Ident(word.trim_start_matches("r#").to_owned()), line));
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((Token::Literal, line));
        } else if c == ':' && next == Some(':') {
            out.push((Token::PathSep, line));
            i += 2;
        } else {
            out.push((Token::Punct(c), line));
            i += 1;
        }
    }
    out
}

/// Where a raw string (`r"..."`, `r#"..."#`, `br".."`) starting at `i` ends.
fn raw_string_end(chars: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if chars.get(j) == Some(&'b') {
        j += 1;
    }
    if chars.get(j) != Some(&'r')
        || (i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_'))
    {
        return None;
    }
    j += 1;
    let hashes = chars[j..].iter().take_while(|c| **c == '#').count();
    j += hashes;
    if chars.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < chars.len() {
        if chars[j] == '"'
            && chars[j + 1..]
                .iter()
                .take(hashes)
                .filter(|c| **c == '#')
                .count()
                == hashes
        {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(chars.len())
}

/// The inline modules (`mod name { .. }`) of a file, with the module each
/// token is in.
fn module_of_each_token(tokens: &[(Token, usize)], file: &Module) -> Vec<Module> {
    let mut stack: Vec<(Module, usize)> = vec![(file.clone(), 0)];
    let mut depth = 0;
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        out.push(stack.last().unwrap().0.clone());
        match &tokens[i].0 {
            Token::Ident(word)
                if word == "mod" && matches!(tokens.get(i + 2), Some((Token::Punct('{'), _))) =>
            {
                if let Some((Token::Ident(name), _)) = tokens.get(i + 1) {
                    let mut module = stack.last().unwrap().0.clone();
                    module.push(name.clone());
                    out.push(stack.last().unwrap().0.clone());
                    out.push(module.clone());
                    depth += 1;
                    stack.push((module, depth));
                    i += 3;
                    continue;
                }
            }
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                if stack.len() > 1 && stack.last().unwrap().1 == depth {
                    stack.pop();
                }
                depth -= 1;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn inline_modules(tokens: &[(Token, usize)], file: &Module) -> BTreeSet<Module> {
    module_of_each_token(tokens, file).into_iter().collect()
}

/// The paths into the crate in a file: `use` declarations (groups expanded)
/// and `crate::`, `super::` and `self::` paths anywhere else.
fn scan(tokens: &[(Token, usize)], file: &Module, relative: &str) -> Vec<Import> {
    let modules = module_of_each_token(tokens, file);
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let (token, line) = &tokens[i];
        let after_dollar = i > 0 && tokens[i - 1].0 == Token::Punct('$');
        match token {
            Token::Ident(word) if word == "use" => {
                let end = (i..tokens.len())
                    .find(|&j| tokens[j].0 == Token::Punct(';'))
                    .unwrap_or(tokens.len());
                let mut trees = Vec::new();
                use_tree(&tokens[i + 1..end], Vec::new(), &mut trees);
                for (path, binds) in trees {
                    out.push(Import {
                        module: modules[i].clone(),
                        path,
                        binds,
                        line: *line,
                        file: relative.to_owned(),
                    });
                }
                i = end;
            }
            Token::Ident(word)
                if matches!(word.as_str(), "crate" | "super" | "self")
                    && !after_dollar
                    && matches!(tokens.get(i + 1), Some((Token::PathSep, _))) =>
            {
                let mut path = vec![word.clone()];
                let mut j = i + 1;
                while let (Some((Token::PathSep, _)), Some((Token::Ident(next), _))) =
                    (tokens.get(j), tokens.get(j + 1))
                {
                    path.push(next.clone());
                    j += 2;
                }
                out.push(Import {
                    module: modules[i].clone(),
                    path,
                    binds: None,
                    line: *line,
                    file: relative.to_owned(),
                });
                i = j;
            }
            _ => i += 1,
        }
    }
    out
}

/// Expands a use tree (`a::{b, c::{d as e, *}}`) into its paths and the
/// name each binds.
fn use_tree(
    tokens: &[(Token, usize)],
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let mut path = prefix;
    let mut i = 0;
    if matches!(tokens.first(), Some((Token::PathSep, _))) {
        i += 1;
    }
    while i < tokens.len() {
        match &tokens[i].0 {
            Token::Ident(word) if word == "as" => {
                let binds = match tokens.get(i + 1) {
                    Some((Token::Ident(name), _)) if name != "_" => Some(name.clone()),
                    _ => None,
                };
                out.push((path, binds));
                return;
            }
            Token::Ident(word) => {
                path.push(word.clone());
                i += 1;
            }
            Token::PathSep => i += 1,
            Token::Punct('*') => {
                path.push("*".to_owned());
                out.push((path, None));
                return;
            }
            Token::Punct('{') => {
                // Split the group at its top-level commas.
                let mut depth = 0;
                let mut start = i + 1;
                for j in i + 1..tokens.len() {
                    match tokens[j].0 {
                        Token::Punct('{') => depth += 1,
                        Token::Punct('}') if depth == 0 => {
                            if j > start {
                                use_tree(&tokens[start..j], path.clone(), out);
                            }
                            return;
                        }
                        Token::Punct('}') => depth -= 1,
                        Token::Punct(',') if depth == 0 => {
                            if j > start {
                                use_tree(&tokens[start..j], path.clone(), out);
                            }
                            start = j + 1;
                        }
                        _ => {}
                    }
                }
                return;
            }
            _ => i += 1,
        }
    }
    let binds = match path.last().map(String::as_str) {
        Some("self") => path.iter().rev().nth(1).cloned(),
        other => other.map(str::to_owned),
    };
    out.push((path, binds));
}

#[cfg(test)]
mod scanner {
    use super::*;

    fn paths(source: &str) -> Vec<String> {
        scan(&tokens(source), &vec!["m".to_owned()], "m.rs")
            .into_iter()
            .map(|i| match i.binds {
                Some(b) => format!("{} as {b}", i.path.join("::")),
                None => i.path.join("::"),
            })
            .collect()
    }

    #[test]
    fn use_groups_expand_into_one_path_each() {
        assert_eq!(
            paths("use crate::{a::X, b::{Y, Z as W}, c::{self, d::*}};"),
            [
                "crate::a::X as X",
                "crate::b::Y as Y",
                "crate::b::Z as W",
                "crate::c::self as c",
                "crate::c::d::*",
            ]
        );
        assert_eq!(paths("pub use super::*;"), ["super::*"]);
        assert_eq!(
            paths("use std::fmt::{self, Display};"),
            ["std::fmt::self as fmt", "std::fmt::Display as Display"]
        );
    }

    #[test]
    fn paths_in_code_count_but_not_in_comments_literals_or_visibility() {
        let source = r##"
            // use crate::commented::X;
            /* crate::blocked::Y /* nested */ crate::still::Z */
            pub(crate) fn f() -> String {
                let s = "crate::quoted::W";
                let r = r#"crate::raw::V"#;
                let c = '"';
                $crate::macro_path::U;
                crate::words::snake_case(&s)
            }
        "##;
        assert_eq!(paths(source), ["crate::words::snake_case"]);
    }

    #[test]
    fn inline_modules_are_modules_of_their_own() {
        let source = "use crate::a::X; mod tests { use super::*; fn f() { crate::b::g(); } }";
        let found: Vec<(String, String)> = scan(&tokens(source), &vec!["m".to_owned()], "m.rs")
            .into_iter()
            .map(|i| (show(&i.module), i.path.join("::")))
            .collect();
        let expected = [
            ("m", "crate::a::X"),
            ("m::tests", "super::*"),
            ("m::tests", "crate::b::g"),
        ];
        assert_eq!(found, expected.map(|(m, p)| (m.to_owned(), p.to_owned())));
    }

    #[test]
    fn re_exports_resolve_to_the_module_that_defines_the_item() {
        let files = [
            ("lib.rs", "mod a; mod b; mod c; pub use a::X;"),
            ("a.rs", "use crate::b::Y; pub struct X;"),
            // `crate::X` is `a::X`: b and a import each other.
            ("b.rs", "use crate::X; pub struct Y;"),
            (
                "c.rs",
                "pub fn f() { super::b::Y; } mod tests { use super::*; }",
            ),
        ]
        .map(|(f, t)| (f.to_owned(), t.to_owned()));
        let graph = Graph::of_crate(&files);
        assert_eq!(
            graph.mutual_pairs(),
            ["  a <-> b (a.rs:1 `crate::b::Y`; b.rs:1 `crate::X`)"]
        );
        assert_eq!(graph.cycles(), [["a", "b"]]);
        assert!(graph.imports("crate", "a"));
        assert!(graph.imports("c", "b"));
        assert!(graph.imports("c::tests", "c"));
        assert!(!graph.imports("c", "c::tests"));
    }
}
