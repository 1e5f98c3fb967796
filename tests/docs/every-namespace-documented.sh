#!/usr/bin/env bash
# Every namespace of libmcp's public headers has its entry in docs/api/namespaces.dox. Doxygen
# leaves out, without a warning, the free functions and constants of a namespace nobody documented,
# so without this a new namespace would escape docs.api_reference_has_no_warnings.
set -euo pipefail
root="${1:?usage: every-namespace-documented.sh SOURCE_DIR}"
cd "$root"
declared="$(grep -rhoE '^namespace [A-Za-z_:]+' include/mcp | awk '{print $2}' |
            sed -E '/^mcp(::|$)/!s/^/mcp::/' | grep -vE '^mcp::(detail|http)$' | sort -u)"
documented="$(sed -n 's/^@namespace //p' docs/api/namespaces.dox | sort -u)"
missing="$(comm -23 <(echo "$declared") <(echo "$documented"))"
if [ -n "$missing" ]; then
  echo "namespaces without an entry in docs/api/namespaces.dox:"
  echo "$missing"
  exit 1
fi
echo "all $(echo "$declared" | wc -l) namespaces are documented"
