#!/usr/bin/env bash
# A/B of two mcpkit builds over Streamable HTTP: wrk runs alternate between them (3 s each, four
# rounds at 1 and at 32 connections), both servers pinned to CPU 0 and wrk to CPU 1, so a slow
# moment of the machine hits both alike. run-http.sh --baseline measures one after the other.
#
#   bench/ab-http.sh BASELINE_MCPKIT [CANDIDATE_MCPKIT]   (candidate default: build/release/mcpkit)
set -euo pipefail
cd "$(dirname "$0")/.."
baseline=${1:?usage: ab-http.sh BASELINE_MCPKIT [CANDIDATE_MCPKIT]}
candidate=${2:-build/release/mcpkit}
open_session() {
  local url=$1 headers id
  headers=$(curl -sS -D - -o /dev/null "$url" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}')
  id=$(tr -d '\r' <<<"$headers" | awk -F': ' 'tolower($1)=="mcp-session-id" {print $2}')
  curl -sS -o /dev/null "$url" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -H "Mcp-Session-Id: $id" -H 'MCP-Protocol-Version: 2025-11-25' -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  echo "$id"
}
taskset -c 0 "$baseline" everything --http 127.0.0.1:18101 2>/dev/null & a=$!
taskset -c 0 "$candidate" everything --http 127.0.0.1:18102 2>/dev/null & b=$!
sleep 1
sa=$(open_session http://127.0.0.1:18101/mcp); sb=$(open_session http://127.0.0.1:18102/mcp)
for c in 1 32; do
  t=1
  for i in 1 2 3 4; do
    ra=$(SESSION=$sa taskset -c 1 wrk -t$t -c$c -d3s -s bench/wrk-echo.lua http://127.0.0.1:18101/mcp | awk '/^Requests\/sec:/ {printf "%.0f", $2}')
    rb=$(SESSION=$sb taskset -c 1 wrk -t$t -c$c -d3s -s bench/wrk-echo.lua http://127.0.0.1:18102/mcp | awk '/^Requests\/sec:/ {printf "%.0f", $2}')
    echo "connections=$c baseline=$ra candidate=$rb ratio=$(awk -v a="$rb" -v b="$ra" 'BEGIN { printf "%.2f", a / b }')"
  done
done
kill $a $b
