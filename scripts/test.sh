#!/usr/bin/env bash
# Builds mcpkit and passes every test: the release build's whole suite (C++ unit tests, interop
# with the official SDKs and reference servers, JS tests), the same suite under ASan+UBSan (but
# four agreement tests, see below), and the fuzzers for a bounded time.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
jobs=$(nproc)
# ccache: hit across clones (paths relative to the checkout) and through precompiled headers.
export CCACHE_BASEDIR="$PWD"
export CCACHE_SLOPPINESS="pch_defines,time_macros,include_file_mtime,include_file_ctime"

# Each phase says when it starts, so a slow CI run shows where its time went.
phase() { echo "== $* ($(date -u +%T), $((SECONDS / 60)) min in)" >&2; }

# The asan test preset leaves out four of the six agreement tests: their numbers are the release
# run's, and under ASan they took 5 minutes over code the two it keeps (line counts on every
# language, definitions on every language's large trees) already walk.
for preset in release asan; do
  phase "$preset: build"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  phase "$preset: test"
  ctest --preset "$preset" -j "$jobs"
done

phase "fuzz: build and run"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs"
ctest --test-dir build/fuzz --output-on-failure
phase "done"
