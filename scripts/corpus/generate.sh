#!/bin/sh
# Regenerates the strict-schema corpus from the real generators:
# tool-openai/tests/corpus/{pydantic,zod}/*.json (the schemars part is
# written by `TOOL_OPENAI_BLESS=1 cargo test --test openai_corpus_schemars`).
# Installs pydantic and zod from PyPI and npm into a temporary directory;
# nothing is installed into the repository.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out="$root/tool-openai/tests/corpus"
tmp=${CORPUS_TMP:-$(mktemp -d)}
PYDANTIC_VERSION=${PYDANTIC_VERSION:-2.14.4}
ZOD_VERSION=${ZOD_VERSION:-4.6.7}

if [ ! -x "$tmp/venv/bin/python" ]; then
    python3 -m venv "$tmp/venv"
    "$tmp/venv/bin/pip" install -q "pydantic==$PYDANTIC_VERSION"
fi
"$tmp/venv/bin/python" "$root/scripts/corpus/pydantic_corpus.py" "$out"

if [ ! -d "$tmp/node/node_modules/zod" ]; then
    mkdir -p "$tmp/node"
    (cd "$tmp/node" && npm init -y >/dev/null && npm install --silent "zod@$ZOD_VERSION")
fi
cp "$root/scripts/corpus/zod_corpus.mjs" "$tmp/node/zod_corpus.mjs"
node "$tmp/node/zod_corpus.mjs" "$out"
echo "corpus written to $out"
