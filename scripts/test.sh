#!/usr/bin/env bash
# Builds mcpkit and passes every test: the release build's whole suite (C++ unit tests, interop
# with the official SDKs and reference servers, JS tests), the same suite under ASan+UBSan, and
# the fuzzer for a bounded time.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
jobs=$(nproc)
# ccache: hit across clones (paths relative to the checkout) and through precompiled headers.
export CCACHE_BASEDIR="$PWD"
export CCACHE_SLOPPINESS="pch_defines,time_macros,include_file_mtime,include_file_ctime"

for preset in release asan; do
  echo "== $preset: build" >&2
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  echo "== $preset: test" >&2
  ctest --preset "$preset" -j "$jobs"
done

echo "== fuzz: build and run" >&2
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs"
ctest --test-dir build/fuzz --output-on-failure
