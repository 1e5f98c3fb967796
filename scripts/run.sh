#!/usr/bin/env bash
# Builds mcpkit and runs the main job: the mcpkit client touring the mcpkit everything server,
# printing each exchange.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
export CCACHE_BASEDIR="$PWD" CCACHE_SLOPPINESS="pch_defines,time_macros,include_file_mtime,include_file_ctime"
cmake --preset release >/dev/null
cmake --build --preset release --target mcpkit
exec build/release/mcpkit client tour --quiet-server -- build/release/mcpkit everything
