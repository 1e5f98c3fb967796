#!/usr/bin/env bash
# Every libmcp symbol the applications use is exported by the shared library of the part that
# defines it.
#
# The applications (review, devconsole, analyze, host, the CLI) use only libmcp's public API, as
# any program would. They link the static archives, where hidden symbols resolve all the same; a
# symbol they need that the shared library hides is a declaration in include/mcp/ without MCP_API
# (or an application reaching into libmcp's internals). Either way a program linking the shared
# library would not link.
#
#   exports.sh BUILD_DIR
set -euo pipefail
build=$1
cd "$build"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

names() { c++filt | grep -E '^(vtable for |typeinfo for |typeinfo name for |VTT for )?mcp::' | sort -u; }

# What the applications' own code takes from elsewhere.
applications=(src/*/libmcpkit_*.a src/cli/CMakeFiles/mcpkit.dir/*.o)
nm -u --format=just-symbols "${applications[@]}" 2>/dev/null | names >"$scratch/used"

needed=0 missing=""
for part in mcp mcp_http mcp_redis; do
  # Of those, what this part defines, and what its shared library exports.
  nm --defined-only --format=posix "src/mcp/lib$part.a" 2>/dev/null |
    awk 'NF >= 2 && $2 ~ /^[TDBRVWu]$/ {print $1}' | names >"$scratch/defined"
  nm -D --defined-only --format=just-symbols "src/mcp/lib$part.so" | names >"$scratch/exported"
  comm -12 "$scratch/used" "$scratch/defined" >"$scratch/needed"
  needed=$((needed + $(wc -l <"$scratch/needed")))
  hidden="$(comm -23 "$scratch/needed" "$scratch/exported")"
  [ -z "$hidden" ] || missing+="lib$part.so:"$'\n'"$hidden"$'\n'
done
if [ -n "$missing" ]; then
  echo "FAILED: the applications use libmcp symbols its shared libraries do not export (mark them MCP_API):" >&2
  echo "$missing" >&2
  exit 1
fi
echo "the applications use $needed libmcp symbols; each is exported by its part's shared library"
[ "$needed" -gt 100 ] || { echo "FAILED: only $needed symbols found: the check is not looking at the applications" >&2; exit 1; }
