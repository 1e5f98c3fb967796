#!/usr/bin/env bash
# Builds mcpkit and runs the main job: `mcpkit host`, the chat page, wired to mcpkit's own servers
# (analyze on this checkout, review with its panel, devconsole, everything; scripts/host-mcp.json).
# It prints the page's address. Set GEMINI_API_KEY, or OPENAI_API_KEY (with OPENAI_BASE_URL for a
# local server such as llama.cpp or Ollama), to chat with a model; without one the page still
# lists the servers and calls their tools by hand. Extra arguments go to `mcpkit host`
# (e.g. --http 127.0.0.1:8080, --config my-mcp.json).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
export CCACHE_BASEDIR="$PWD" CCACHE_SLOPPINESS="pch_defines,time_macros,include_file_mtime,include_file_ctime"
cmake --preset release >/dev/null
cmake --build --preset release --target mcpkit
export MCPKIT="$PWD/build/release/mcpkit"

# The review panel receives what `review` presents; it prints its own page's address.
"$MCPKIT" review-panel &
panel=$!
trap 'kill "$panel" 2>/dev/null || true' EXIT

config=scripts/host-mcp.json
for argument in "$@"; do [ "$argument" = --config ] && config=""; done
"$MCPKIT" host ${config:+--config "$config"} "$@"
