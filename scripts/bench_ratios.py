#!/usr/bin/env python3
"""Prints the ratios benches/README.md reports, from criterion's last run.

Run the benches first (`cargo bench -p tool-contract-benches --bench parse --bench schema --bench
dispatch`), then `scripts/bench_ratios.py`. It reads the median of each
benchmark from target/criterion/<group>/<bench>/new/estimates.json (or from
$CARGO_TARGET_DIR) and says whether each time target is met. Only
benchmarks that were run are shown.
"""

import json
import os
import sys
from pathlib import Path

WORKSPACE = Path(__file__).resolve().parent.parent
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", WORKSPACE / "target"))
CRITERION = TARGET / "criterion"


def median_ns(group, bench):
    path = CRITERION / group / bench / "new" / "estimates.json"
    if not path.exists():
        return None
    return json.loads(path.read_text())["median"]["point_estimate"]


def shown(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.3f} µs"
    return f"{ns:.1f} ns"


def main():
    if not CRITERION.exists():
        sys.exit(f"no criterion results under {CRITERION}; run `cargo bench` first")

    parse = {b: median_ns("parse", b) for b in (
        "from_arguments", "from_arguments_checked", "serde_from_str", "serde_value_then_from_value")}
    if all(parse.values()):
        ours, twin = parse["from_arguments"], parse["serde_from_str"]
        checked, value = parse["from_arguments_checked"], parse["serde_value_then_from_value"]
        print("parse (median per call)")
        for bench, ns in parse.items():
            print(f"  {bench:<30} {shown(ns)}")
        a = ours / twin
        b = value / ours
        print(f"  from_arguments / serde_from_str               {a:.3f}x  (target <= 1.10x: {'met' if a <= 1.10 else 'missed'})")
        print(f"  serde_value_then_from_value / from_arguments  {b:.2f}x  (target >= 1.8x: {'met' if b >= 1.8 else 'missed'})")
        print(f"  from_arguments_checked / serde_from_str       {checked / twin:.3f}x  (constraint checks on)")

    cached = {b: median_ns("schema_cached", b) for b in ("input_schema", "strict_schema")}
    first = {b: median_ns("schema_first_build", b) for b in ("input_schema", "to_strict_json_schema")}
    if all(cached.values()) and all(first.values()):
        print("schemas (median)")
        for bench, ns in cached.items():
            print(f"  cached {bench:<23} {shown(ns)}")
        for bench, ns in first.items():
            print(f"  first build {bench:<18} {shown(ns)}")

    sizes = [(n, median_ns("to_strict_json_schema", str(n))) for n in (10, 100, 1000, 5000)]
    sizes = [(n, ns) for n, ns in sizes if ns]
    if sizes:
        print("to_strict_json_schema by size (median; per property)")
        base = sizes[0][1] / sizes[0][0]
        for n, ns in sizes:
            per = ns / n
            print(f"  {n:>5} properties  {shown(ns):>10}   {shown(per):>10} per property  ({per / base:.2f}x the 10-property cost)")

    toolbox, direct = median_ns("dispatch", "toolbox_call"), median_ns("dispatch", "direct")
    if toolbox and direct:
        print("dispatch (median per call)")
        print(f"  toolbox_call {shown(toolbox)}, direct {shown(direct)}: overhead {shown(toolbox - direct)} per call")


if __name__ == "__main__":
    main()
