#!/usr/bin/env bash
# Instructions per call of each parse variant (benches/parse_loop.rs),
# counted with callgrind: a loop of N calls minus a loop of none, so the
# process start and the first call (which builds the cached schemas) drop
# out. Machine load does not change these counts, unlike wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${CALLS:-2000}
cargo build --release -p tool-contract-benches --bin parse_loop >&2
bin=${CARGO_TARGET_DIR:-target}/release/parse_loop
count() {
  local out
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" "$1" "$2" >/dev/null 2>&1
  callgrind_annotate "$out" | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}'
  rm -f "$out"
}
printf '%-24s %s\n' variant instructions/call
for variant in ${VARIANTS:-from_arguments from_arguments_exact serde_from_str from_arguments_checked from_arguments_nested from_arguments_nested_exact serde_from_str_nested serde_value_then_from_value}; do
  base=$(count "$variant" 0)
  loop=$(count "$variant" "$calls")
  printf '%-24s %s\n' "$variant" $(( (loop - base) / calls ))
done
