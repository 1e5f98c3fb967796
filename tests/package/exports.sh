#!/usr/bin/env bash
# Every libmcp symbol the applications use is exported by libmcp's shared libraries.
#
# The applications (review, devconsole, analyze, host, the CLI) use only libmcp's public API, as
# any program would. They link the static archives, where hidden symbols resolve all the same; a
# symbol they need that the shared libraries hide is a declaration in include/mcp/ without MCP_API
# (or an application reaching into libmcp's internals). Either way a program linking the shared
# library would not link.
#
#   exports.sh BUILD_DIR
set -euo pipefail
build=$1
cd "$build"

names() { c++filt | grep -E '^(vtable for |typeinfo for |typeinfo name for |VTT for )?mcp::' | sort -u; }

# What the applications' own code takes from elsewhere...
applications=(src/*/libmcpkit_*.a src/cli/CMakeFiles/mcpkit.dir/*.o)
nm -u --format=just-symbols "${applications[@]}" 2>/dev/null | names >/tmp/exports.$$.used
# ...that libmcp defines...
nm --defined-only --format=posix src/mcp/libmcp.a src/mcp/libmcp_http.a src/mcp/libmcp_redis.a 2>/dev/null \
  | awk 'NF >= 2 && $2 ~ /^[TDBRVWu]$/ {print $1}' | names >/tmp/exports.$$.defined
# ...and the shared libraries export.
nm -D --defined-only --format=just-symbols src/mcp/libmcp.so src/mcp/libmcp_http.so src/mcp/libmcp_redis.so | names >/tmp/exports.$$.exported

comm -12 /tmp/exports.$$.used /tmp/exports.$$.defined >/tmp/exports.$$.needed
missing="$(comm -23 /tmp/exports.$$.needed /tmp/exports.$$.exported)"
needed=$(wc -l </tmp/exports.$$.needed)
exported=$(wc -l </tmp/exports.$$.exported)
rm -f /tmp/exports.$$.*
if [ -n "$missing" ]; then
  echo "FAILED: the applications use libmcp symbols its shared libraries do not export (mark them MCP_API):" >&2
  echo "$missing" >&2
  exit 1
fi
echo "the applications use $needed libmcp symbols; all are among the $exported exported"
[ "$needed" -gt 100 ] || { echo "FAILED: only $needed symbols found: the check is not looking at the applications" >&2; exit 1; }
