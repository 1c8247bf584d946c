#!/usr/bin/env python3
"""Cold build of a one-tool application against a serde + schemars twin.

What a new user pays first: one `#[derive(Tool)]` (a `String` with
`min_length`, a `u32` with `maximum`), its OpenAI Chat Completions
definition printed and one call parsed, against a twin that does the same
with serde, schemars and serde_json alone (`#[derive(Deserialize,
JsonSchema)]`, `schema_for!` wrapped in a tool with `json!`,
`serde_json::from_str`).

Writes three crates outside the workspace (each a `[workspace]` of its
own, a path dependency on this workspace, a copy of its `Cargo.lock`):

- `twin`: serde, serde_json and schemars with the features the facade
  turns on;
- `one`: `tool-contract` with `default-features = false, features =
  ["openai"]`;
- `default`: `tool-contract` with its default features.

Each build runs from an empty target directory (`rm -rf target`) with
`CARGO_INCREMENTAL=0 cargo build --offline` under `/usr/bin/time`; the
measure is user + system CPU seconds (less sensitive to load than wall
time) and the crates compiled (`Compiling` lines, the application
included). The twin and an application run in turn (twin, one, twin,
default) `--rounds` times, and each ratio is taken within its pair; the
medians are printed as a Markdown table.

Usage: scripts/cold_build.py [--rounds 3] [--dir DIR]
The default DIR is target/cold-build in the workspace.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

WORKSPACE = Path(__file__).resolve().parent.parent

TOOL_MAIN = r'''
use tool_contract::{Session, Tool, openai};

/// Look up a product by its SKU, as the catalog shows it.
#[derive(Tool, Debug)]
pub struct GetProduct {
    /// The SKU exactly as the catalog shows it, e.g. "SKU-1234".
    #[tool(min_length = 1)]
    pub sku: String,
    /// How many reviews to include, at most 20.
    #[tool(maximum = 20)]
    pub reviews: u32,
}

fn main() {
    let tool = openai::chat_completions_tool::<GetProduct>().unwrap();
    println!("{tool}");
    let call = GetProduct::from_arguments(r#"{"sku": "SKU-1", "reviews": 3}"#, &Session::new()).unwrap();
    println!("{call:?}");
}
'''

TWIN_MAIN = r'''
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// Look up a product by its SKU, as the catalog shows it.
#[derive(Deserialize, JsonSchema, Debug)]
#[serde(deny_unknown_fields)]
pub struct GetProduct {
    /// The SKU exactly as the catalog shows it, e.g. "SKU-1234".
    #[schemars(length(min = 1))]
    pub sku: String,
    /// How many reviews to include, at most 20.
    #[schemars(range(max = 20))]
    pub reviews: u32,
}

fn main() {
    let schema = schemars::schema_for!(GetProduct);
    let tool = json!({"type": "function", "function": {
        "name": "get_product",
        "description": "Look up a product by its SKU, as the catalog shows it.",
        "parameters": schema, "strict": true}});
    println!("{tool}");
    let call: GetProduct = serde_json::from_str(r#"{"sku": "SKU-1", "reviews": 3}"#).unwrap();
    println!("{call:?}");
}
'''

TWIN_DEPS = '''serde = { version = "1.0.228", features = ["derive"] }
serde_json = { version = "1.0.140", features = ["preserve_order"] }
schemars = { version = "1.2", default-features = false, features = ["std", "preserve_order", "derive"] }
'''


def write_crate(root: Path, name: str, deps: str, main: str) -> Path:
    crate = root / name
    (crate / "src").mkdir(parents=True, exist_ok=True)
    (crate / "Cargo.toml").write_text(
        f'[package]\nname = "cold-{name}"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n'
        f"[workspace]\n\n[dependencies]\n{deps}"
    )
    (crate / "src" / "main.rs").write_text(main)
    shutil.copy(WORKSPACE / "Cargo.lock", crate / "Cargo.lock")
    return crate


def build(crate: Path) -> tuple[float, int]:
    shutil.rmtree(crate / "target", ignore_errors=True)
    env = dict(os.environ, CARGO_INCREMENTAL="0")
    env.pop("CARGO_TARGET_DIR", None)
    result = subprocess.run(
        ["/usr/bin/time", "-f", "CPU %U %S", "cargo", "build", "--offline"],
        cwd=crate,
        env=env,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        sys.exit(f"build of {crate} failed:\n{result.stderr}")
    lines = result.stderr.splitlines()
    cpu = next(line for line in reversed(lines) if line.startswith("CPU "))
    _, user, system = cpu.split()
    crates = sum(1 for line in lines if line.strip().startswith("Compiling "))
    return float(user) + float(system), crates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=WORKSPACE / "target" / "cold-build")
    args = parser.parse_args()

    path = str(WORKSPACE)
    twin = write_crate(args.dir, "twin", TWIN_DEPS, TWIN_MAIN)
    one = write_crate(
        args.dir,
        "one",
        f'tool-contract = {{ path = "{path}", default-features = false, features = ["openai"] }}\n',
        TOOL_MAIN,
    )
    default = write_crate(args.dir, "default", f'tool-contract = {{ path = "{path}" }}\n', TOOL_MAIN)

    rows = {"twin": [], "one": [], "default": []}
    ratios = {"one": [], "default": []}
    crates = {}
    for round_ in range(args.rounds):
        for name, crate in (("one", one), ("default", default)):
            base, crates["twin"] = build(twin)
            cpu, crates[name] = build(crate)
            rows["twin"].append(base)
            rows[name].append(cpu)
            ratios[name].append(cpu / base)
            print(
                f"round {round_ + 1}: twin {base:.1f} s, {name} {cpu:.1f} s, ratio {cpu / base:.2f}",
                file=sys.stderr,
            )

    print("| build (one tool, debug, cold) | crates | CPU s (median) | ratio to the twin (median of pairs) |")
    print("| --- | --- | --- | --- |")
    print(f"| twin: serde + schemars + serde_json | {crates['twin']} | {statistics.median(rows['twin']):.1f} | 1 |")
    labels = {
        "one": '`default-features = false, features = ["openai"]`',
        "default": "default features",
    }
    for name in ("one", "default"):
        each = ", ".join(f"{r:.2f}" for r in ratios[name])
        print(
            f"| {labels[name]} | {crates[name]} | {statistics.median(rows[name]):.1f} | "
            f"**{statistics.median(ratios[name]):.2f}x** ({each}) |"
        )


if __name__ == "__main__":
    main()
