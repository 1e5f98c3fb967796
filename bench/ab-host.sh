#!/usr/bin/env bash
# A/B of two mcpkit builds as chat hosts, in one run of host-bench.mjs: the baseline stands where
# the Node host stands in run-host.sh (same fake LLM, same MCP server, same pins, the turns
# measured in windows alternating between the two), so a slow moment of the machine hits both.
#
#   bench/ab-host.sh BASELINE_MCPKIT [CANDIDATE_MCPKIT] [SECONDS] [IDLE_CONNECTIONS]
#       (candidate default: build/release/mcpkit; env as run-host.sh's)
set -euo pipefail
cd "$(dirname "$0")/.."
baseline=${1:?usage: ab-host.sh BASELINE_MCPKIT [CANDIDATE_MCPKIT] [SECONDS] [IDLE_CONNECTIONS]}
candidate=${2:-build/release/mcpkit}
[ -x "$baseline" ] || { echo "no mcpkit binary at $baseline" >&2; exit 1; }
BASELINE_MCPKIT="$baseline" MCPKIT="$candidate" exec bench/run-host.sh "${3:-10}" "${4:-10000}"
