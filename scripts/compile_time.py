#!/usr/bin/env python3
"""Compile time of `#[derive(Tool)]` against plain serde + schemars derives.

Generates throwaway crates that each declare the same 200 tools (realistic
structs of 4 to 8 fields: strings, numbers, booleans, enums, a nested
struct, lists, `Money`, `Option`s, some constraints) and builds them:

- `tools_derive_tool`: every tool has `#[derive(Tool)]`;
- `tools_derive_serde`: the same structs with only
  `#[derive(Deserialize, JsonSchema)]` (the baseline of the target);
- `tools_serde_used`: the serde structs plus what an application writes to
  use them, one `serde_json::from_str::<T>` and one `schema_for!(T)` per
  tool, so that serde's generic code is compiled as it is in a real
  program (the derive-only crate compiles none of it).

All crates depend on the workspace's `tool-contract` (by path), `serde` and
`schemars`, share one target directory and the workspace's `Cargo.lock`,
and build with the same flags (debug, `CARGO_INCREMENTAL=0`). Dependencies
are built once first; then each crate alone is cleaned and rebuilt
`--runs` times, and the median wall time is reported.

Usage: scripts/compile_time.py [--tools 200] [--runs 3] [--dir DIR] [--release] [--check]
The default DIR is target/compile-time in the workspace. `--check` only
writes the crates and runs `cargo check` on each (no timing): a quick proof
that the generated tools still pass the derive's rules (`--tools 20` covers
every verb).
"""

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

WORKSPACE = Path(__file__).resolve().parent.parent

VERBS = ["get", "list", "create", "update", "cancel", "find", "send", "reserve", "book", "archive"]

# The effect the derive's naming rule (tool-macros/src/verbs.rs) asks of
# each verb: reading verbs are `read`, destroying ones (`cancel`) are
# `destructive` and need approval, the rest write. Every changing tool
# states that a repeat is safe, as the effect rules ask.
EFFECTS = {
    "get": "read", "list": "read", "find": "read",
    "cancel": "destructive",
}
ATTRIBUTES = {
    "read": None,
    "write": '#[tool(effect = "write", idempotent)]',
    "destructive": '#[tool(effect = "destructive", approval = "required", idempotent)]',
}
OBJECTS = [
    "order", "invoice", "shipment", "customer_note", "refund_draft", "ticket",
    "subscription", "coupon", "warehouse_slot", "delivery_window",
]

# (field name, type, doc, attribute or None). Names avoid the naming rules'
# triggers, as a real tool's would after the derive's review.
FIELDS = [
    ("reference", "String", 'The reference exactly as the app shows it, e.g. "A-1".', "min_length = 1, max_length = 32"),
    ("note", "Option<String>", "A free-text note in the customer's words; null for none.", "max_length = 500"),
    ("quantity", "u32", "How many units the request is about.", "minimum = 1, maximum = 1000"),
    ("priority", "Priority", "How urgent the request is.", None),
    ("address", "Address", "Where the goods go.", None),
    ("labels", "Vec<String>", "Labels the customer gave the request.", "max_items = 10"),
    ("express", "bool", "Whether to use the express lane.", None),
    ("amount", "Money", "The amount the request is about.", None),
    ("discount", "Option<Money>", "A voucher's reduction; null for none.", None),
    ("warehouse", "Option<String>", 'Warehouse code such as "BER-1"; null means any.', None),
    ("channel", "Channel", "Where the request came from.", None),
    ("page", "Option<u32>", "Which page of results to return, from 1; null for the first.", "minimum = 1"),
    ("contact_email", "Option<String>", "Where to send the confirmation; null to skip it.", "format = \"email\""),
    ("lines", "Vec<Line>", "The items, one line per product.", "max_items = 50"),
]

PRELUDE = """\
use schemars::JsonSchema;
use serde::Deserialize;
use tool_contract::Money;

/// How urgent a request is.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// Whenever convenient.
    Low,
    /// Within a day.
    Normal,
    /// Now.
    Urgent,
}

/// Where a request came from.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// The web shop.
    Web,
    /// The mobile app.
    App,
    /// A phone call.
    Phone,
    /// An email.
    Email,
}

/// A postal address.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Address {
    /// Street and number.
    pub street: String,
    /// City name.
    pub city: String,
    /// Postal code.
    pub postal_code: String,
}

/// One line of a request.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Line {
    /// Stock keeping unit.
    pub sku: String,
    /// Units wanted.
    pub units: u32,
    /// Price of one unit.
    pub unit_price: Money,
}
"""


def camel(snake):
    return "".join(w.capitalize() for w in snake.split("_"))


def tools(count, seed=20261129):
    """The same `count` tool declarations for every crate, as data."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        verb = VERBS[i % len(VERBS)]
        obj = OBJECTS[(i // len(VERBS)) % len(OBJECTS)]
        name = f"{camel(verb)}{camel(obj)}{i}"
        fields = rng.sample(FIELDS, rng.randint(4, 8))
        effect = EFFECTS.get(verb, "write")
        out.append((name, verb, obj, effect, fields))
    return out


def render(kind, count):
    """The lib.rs of one crate: kind is "tool", "serde" or "serde_used"."""
    lines = ["#![allow(dead_code)]", PRELUDE]
    if kind == "tool":
        lines.append("use tool_contract::Tool;\n")
    for name, verb, obj, effect, fields in tools(count):
        words = obj.replace("_", " ")
        lines.append(f"/// {verb.capitalize()} the {words} the customer asked about.")
        lines.append("///")
        lines.append(f"/// Use it when the customer mentions the {words}; it returns what the app shows.")
        if kind == "tool":
            lines.append("#[derive(Debug, Tool)]")
            if ATTRIBUTES[effect]:
                lines.append(ATTRIBUTES[effect])
        else:
            lines.append("#[derive(Debug, Deserialize, JsonSchema)]")
        lines.append(f"pub struct {name} {{")
        for field, ty, doc, attr in fields:
            lines.append(f"    /// {doc}")
            if kind == "tool" and attr:
                lines.append(f"    #[tool({attr})]")
            lines.append(f"    pub {field}: {ty},")
        lines.append("}\n")
    if kind == "serde_used":
        lines.append("/// Parses a call of the tool `name` and returns its argument schema.")
        lines.append(
            "pub fn parse_call(name: &str, arguments: &str) -> "
            "Result<(String, schemars::Schema), serde_json::Error> {"
        )
        lines.append("    match name {")
        for name, *_ in tools(count):
            lines.append(
                f'        "{name}" => Ok((format!("{{:?}}", serde_json::from_str::<{name}>(arguments)?), '
                f"schemars::schema_for!({name}))),"
            )
        lines.append('        _ => Ok((String::new(), schemars::schema_for!(Address))),')
        lines.append("    }")
        lines.append("}")
    return "\n".join(lines) + "\n"


def manifest(name):
    return f"""\
[package]
name = "{name}"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
tool-contract = {{ path = "{WORKSPACE}" }}
serde = {{ version = "1.0.228", features = ["derive"] }}
serde_json = "1.0.140"
schemars = {{ version = "1.2", features = ["derive", "preserve_order"] }}

[workspace]
"""


CRATES = [
    ("tools_derive_tool", "tool"),
    ("tools_derive_serde", "serde"),
    ("tools_serde_used", "serde_used"),
]


def run(cmd, cwd, env):
    result = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        sys.exit(f"`{' '.join(cmd)}` failed in {cwd}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=WORKSPACE / "target" / "compile-time")
    parser.add_argument("--release", action="store_true")
    parser.add_argument("--check", action="store_true", help="cargo check the crates, no timing")
    args = parser.parse_args()

    root = args.dir.resolve()
    env = dict(os.environ, CARGO_TARGET_DIR=str(root / "target"), CARGO_INCREMENTAL="0")
    env.pop("RUSTFLAGS", None)
    profile = ["--release"] if args.release else []
    for name, kind in CRATES:
        crate = root / name
        (crate / "src").mkdir(parents=True, exist_ok=True)
        (crate / "Cargo.toml").write_text(manifest(name))
        (crate / "src" / "lib.rs").write_text(render(kind, args.tools))
        shutil.copy(WORKSPACE / "Cargo.lock", crate / "Cargo.lock")

    if args.check:
        for name, _ in CRATES:
            run(["cargo", "check", "--quiet", *profile], root / name, env)
            print(f"  {name:<20} checks ({args.tools} tools)")
        return

    # Dependencies (and a first build of each crate) outside the timing.
    for name, _ in CRATES:
        run(["cargo", "build", "--quiet", *profile], root / name, env)

    times = {}
    for name, _ in CRATES:
        samples = []
        for _ in range(args.runs):
            run(["cargo", "clean", "--quiet", "-p", name, *profile], root / name, env)
            start = time.perf_counter()
            run(["cargo", "build", "--quiet", *profile], root / name, env)
            samples.append(time.perf_counter() - start)
        times[name] = samples

    mode = "release" if args.release else "debug"
    print(f"{args.tools} tools, {mode}, CARGO_INCREMENTAL=0, median of {args.runs} clean builds of the crate alone")
    for name, samples in times.items():
        shown = ", ".join(f"{s:.2f}" for s in samples)
        print(f"  {name:<20} {statistics.median(samples):7.2f} s   (runs: {shown})")
    tool = statistics.median(times["tools_derive_tool"])
    serde = statistics.median(times["tools_derive_serde"])
    used = statistics.median(times["tools_serde_used"])
    print(f"  ratio derive(Tool) / derive(Deserialize, JsonSchema):          {tool / serde:.2f}x")
    print(f"  ratio derive(Tool) / serde derives + from_str + schema_for:    {tool / used:.2f}x")


if __name__ == "__main__":
    main()
