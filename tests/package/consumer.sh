#!/usr/bin/env bash
# Builds tests/consumer against libmcp and runs its client against its server.
#
#   consumer.sh install    PREFIX static|shared WORK   against an installed mcpkit (find_package)
#   consumer.sh fetch      SOURCE static|shared WORK   through FetchContent of the checkout SOURCE:
#                                                      a commit of its tracked files when it is a
#                                                      git work tree, the folder itself otherwise
#   consumer.sh components PREFIX static|shared WORK   tests/package/components: every part of
#                                                      libmcp through find_package's components
#
# Checks that the flavour asked for is the one linked (a shared build needs libmcp.so.*, a static
# one must not), and for FetchContent that only the library was configured.
set -euo pipefail
mode=$1 from=$2 flavour=$3 work=$4
here="$(cd "$(dirname "$0")" && pwd)"
source_dir="$(cd "$here/../.." && pwd)"
shared=OFF
[ "$flavour" = shared ] && shared=ON

# shellcheck source=checks.sh
. "$here/checks.sh"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
rm -rf "$work"
case "$mode" in
  install|components)
    project="$source_dir/tests/consumer"
    [ "$mode" = components ] && project="$here/components"
    cmake -S "$project" -B "$work" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
      -DCMAKE_PREFIX_PATH="$from" -Dmcpkit_SHARED_LIBS=$shared >/dev/null
    found=$(sed -n 's/^mcpkit_DIR:PATH=//p' "$work/CMakeCache.txt")
    case "$found" in "$from"/*) ;; *) fail "find_package found mcpkit in '$found', not under $from" ;; esac
    cmake --build "$work"
    ;;
  fetch)
    # The commit to fetch: HEAD when the tracked files are as committed (checked without taking
    # git's index lock, which other processes may hold), else `git stash create`, which commits
    # them as they are without touching the work tree or the stash list.
    mkdir -p "$work"
    tag=
    if git -C "$from" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
      if GIT_OPTIONAL_LOCKS=0 git -C "$from" diff --quiet HEAD --; then
        tag=$(git -C "$from" rev-parse HEAD)
      else
        tag=$(git -C "$from" stash create 2>"$work/git.log") || tag=
        [ -n "$tag" ] || { cat "$work/git.log" >&2; echo "consumer (fetch): no commit of the edited checkout; fetching the folder" >&2; }
      fi
    fi
    echo "consumer (fetch): ${tag:+commit $tag of }$from"
    cmake -S "$here/fetch" -B "$work" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
      -DMCPKIT_SOURCE_DIR="$from" -DMCPKIT_GIT_TAG="$tag" -DBUILD_SHARED_LIBS=$shared >"$work/configure.log" 2>&1 \
      || { cat "$work/configure.log"; fail "configuring the fetching project failed"; }
    if [ -n "$tag" ]; then
      fetched=$(git -C "$work/_deps/mcpkit-src" rev-parse HEAD)
      [ "$fetched" = "$tag" ] || fail "FetchContent checked out $fetched, not $tag"
    fi
    grep -q '^MCPKIT_LIBRARY_ONLY:BOOL=ON' "$work/CMakeCache.txt" || fail "MCPKIT_LIBRARY_ONLY is not ON in a fetched mcpkit"
    # No application, test, npm step, docs target or install rule: only libmcp and its examples.
    if grep -q 'mcpkit_host\|mcp_unit_tests\|npm\|^build docs:' "$work/build.ninja"; then fail "a fetched mcpkit configured more than libmcp"; fi
    if grep -rq 'libmcp\|include/mcp' "$work/_deps/mcpkit-build/cmake_install.cmake" "$work/_deps/mcpkit-build/src/mcp/cmake_install.cmake"; then
      fail "a fetched mcpkit adds itself to the parent's install"
    fi
    # GNUInstallDirs' own default stays: mcpkit's Debian multiarch libdir is for its own installs.
    grep -q '^CMAKE_INSTALL_LIBDIR:PATH=lib/' "$work/CMakeCache.txt" && fail "a fetched mcpkit set the parent's CMAKE_INSTALL_LIBDIR"
    cmake --build "$work" --target unit_converter_server unit_converter_client
    ;;
  *) fail "mode is install or fetch, not '$mode'" ;;
esac

if [ "$mode" = components ]; then
  program="$work/every_part"
  needed="$(needed_libraries "$program")"
  for part in libmcp.so libmcp_http.so libmcp_redis.so; do
    loaded=no
    echo "$needed" | grep -q "^$part\." && loaded=yes
    [ "$flavour" = shared ] && [ $loaded = no ] && fail "the shared build does not load $part: $needed"
    [ "$flavour" = static ] && [ $loaded = yes ] && fail "the static build loads $part"
  done
  output="$("$program")" || fail "every_part failed"
  echo "$output"
  version="$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")$/\1/p' "$(find "$from" -name mcpkitConfigVersion.cmake | head -1)")"
  expect_every_part_answer "$output" "$version"
  # The installed pkg-config files find the tree from where they lie (it is not under /usr).
  pc_dir="$(dirname "$(find "$from" -name mcpkit.pc | head -1)")"
  includedir="$(PKG_CONFIG_PATH="$pc_dir" pkg-config --variable=includedir mcpkit)"
  [ -f "$includedir/mcp/Version.hpp" ] || fail "pkg-config's includedir $includedir does not hold mcp/Version.hpp"
  libdir="$(PKG_CONFIG_PATH="$pc_dir" pkg-config --variable=libdir mcpkit-redis)"
  [ -f "$libdir/libmcp_redis.a" ] || fail "pkg-config's libdir $libdir does not hold libmcp_redis.a"
  echo "consumer ($mode, $flavour): passed"
  exit 0
fi

server="$(find "$work" -name unit_converter_server -type f -perm -u+x | head -1)"
client="$(find "$work" -name unit_converter_client -type f -perm -u+x | head -1)"
[ -n "$server" ] && [ -n "$client" ] || fail "the consumer's programs were not built"

needed="$(needed_libraries "$server")"
if [ "$flavour" = shared ]; then
  echo "$needed" | grep -q '^libmcp\.so\.' || fail "the shared build does not load libmcp.so: $needed"
else
  if echo "$needed" | grep -q '^libmcp'; then fail "the static build loads $needed"; fi
fi

output="$("$client" "$server")" || { echo "$output"; fail "the client failed"; }
echo "$output"
expect_consumer_answers "$output"
echo "consumer ($mode, $flavour): passed"
