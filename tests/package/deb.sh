#!/usr/bin/env bash
# Makes the DEB packages with CPack from a built tree (the binary, the man page and the
# extensions' built files must be there) and inspects them: what each holds, what it depends on,
# that the packaged binary runs, and that a program builds against the packaged libmcp with
# pkg-config alone.
#
#   deb.sh BUILD_DIR WORK
set -euo pipefail
build=$1 work=$2
here="$(cd "$(dirname "$0")" && pwd)"
source_dir="$(cd "$here/../.." && pwd)"
# shellcheck source=checks.sh
. "$here/checks.sh"

rm -rf "$work"
mkdir -p "$work"
cpack --config "$build/CPackConfig.cmake" -B "$work/packages" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack"; }
version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
runtime_name=$(sed -n 's/^set(CPACK_DEBIAN_LIBMCP_PACKAGE_NAME "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
arch=$(dpkg --print-architecture)
tool="$work/packages/mcpkit_${version}-1_${arch}.deb"
dev="$work/packages/libmcp-dev_${version}-1_${arch}.deb"
runtime="$work/packages/${runtime_name}_${version}-1_${arch}.deb"
[ -f "$tool" ] && [ -f "$dev" ] && [ -f "$runtime" ] || { ls -l "$work/packages"; fail "expected mcpkit, libmcp-dev and $runtime_name packages"; }

expect() {  # expect PACKAGE PATH...: every path is in the package
  local listing; listing="$(dpkg-deb -c "$1" | awk '{print $6}')"
  shift
  for path in "$@"; do
    echo "$listing" | grep -qFx "$path" || fail "$path is not in $(basename "$1")"
  done
}
expect "$tool" ./usr/bin/mcpkit ./usr/share/man/man1/mcpkit.1.gz \
  ./usr/share/mcpkit/extensions/chrome/manifest.json ./usr/share/mcpkit/extensions/mcpkit-devconsole.zip \
  ./usr/share/mcpkit/extensions/mcpkit-review.vsix ./usr/share/doc/mcpkit/README.md ./usr/share/doc/mcpkit/copyright \
  ./usr/share/doc/mcpkit/changelog.gz ./usr/share/doc/mcpkit/changelog.Debian.gz
multiarch=$(dpkg-deb -c "$dev" | awk '{print $6}' | sed -n 's|^\./usr/lib/\([^/]*\)/libmcp\.a$|\1|p')
[ -n "$multiarch" ] || fail "libmcp.a is not in libmcp-dev"
lib=./usr/lib/$multiarch
expect "$dev" ./usr/include/mcp/server/Server.hpp ./usr/include/mcp/client/Client.hpp ./usr/include/mcp/Export.hpp \
  ./usr/include/mcp/Version.hpp ./usr/include/mcp/store/RedisStores.hpp \
  $lib/libmcp.a $lib/libmcp_http.a $lib/libmcp_redis.a $lib/libmcp.so $lib/libmcp_http.so $lib/libmcp_redis.so \
  $lib/cmake/mcpkit/mcpkitConfig.cmake $lib/cmake/mcpkit/mcpkitConfigVersion.cmake \
  $lib/cmake/mcpkit/mcpkit-mcp-static-targets.cmake $lib/cmake/mcpkit/mcpkit-http-shared-targets.cmake \
  $lib/pkgconfig/mcpkit.pc $lib/pkgconfig/mcpkit-http.pc $lib/pkgconfig/mcpkit-redis.pc ./usr/share/doc/libmcp-dev/copyright
# The shared libraries are the runtime package's, which a program linked against them needs alone.
expect "$runtime" "$lib/libmcp.so.$version" "$lib/libmcp_http.so.$version" "$lib/libmcp_redis.so.$version" \
  "./usr/share/doc/$runtime_name/copyright"
if dpkg-deb -c "$runtime" | awk '{print $6}' | grep -q '\.a$\|/include/\|\.so$'; then fail "$runtime_name carries development files"; fi
dpkg-deb --ctrl-tarfile "$runtime" | tar -t | grep -q 'shlibs' || fail "$runtime_name has no shlibs file"

# Nothing private: the installed headers are exactly include/mcp's (and the generated Version.hpp).
installed="$(dpkg-deb -c "$dev" | awk '{print $6}' | sed -n 's|^\./usr/include/||p' | grep -v -e '/$' -e '^$' | sort)"
public="$( (cd "$source_dir/include" && find mcp -name '*.hpp'; echo mcp/Version.hpp) | sort)"
[ "$installed" = "$public" ] || { diff <(echo "$public") <(echo "$installed") || true; fail "libmcp-dev's headers are not include/mcp's"; }
if dpkg-deb -c "$tool" | awk '{print $6}' | grep -q '^\./usr/include\|\.a$'; then fail "the mcpkit package carries development files"; fi

# Dependencies: found by dpkg-shlibdeps for the binary; the build dependencies for libmcp-dev.
tool_depends="$(dpkg-deb -f "$tool" Depends)"
dev_depends="$(dpkg-deb -f "$dev" Depends)"
echo "mcpkit depends on: $tool_depends"
echo "libmcp-dev depends on: $dev_depends"
for dependency in libc6 libstdc++6 libsqlite3 libhiredis libboost-url; do
  echo "$tool_depends" | grep -q "$dependency" || fail "mcpkit does not depend on $dependency"
done
for dependency in "$runtime_name (= $version-1)" libboost1.81-dev libssl-dev libhiredis-dev; do
  echo "$dev_depends" | grep -qF "$dependency" || fail "libmcp-dev does not depend on $dependency"
done
runtime_depends="$(dpkg-deb -f "$runtime" Depends)"
echo "$runtime_name depends on: $runtime_depends"
for dependency in libssl3 libhiredis libboost-url 'libc6 (>= 2.36)'; do
  echo "$runtime_depends" | grep -qF "$dependency" || fail "$runtime_name does not depend on $dependency"
done
# Every dependency named is a Debian package this machine can satisfy (apt's simulation; dpkg's
# --dry-run does not look at dependencies).
apt-get install --simulate "$tool" "$dev" "$runtime" >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; fail "apt cannot install the packages"; }

# Debian's own checker: no error (its exit status is 1 for an error tag, 2 when it could not run).
# The warnings left are shown; cmake/Packaging.cmake explains the ldconfig one, and
# initial-upload-closes-no-bugs is about Debian's archive (an upload closing its ITP bug).
rc=0
lintian --tag-display-limit 0 "$tool" "$dev" "$runtime" >"$work/lintian.log" 2>&1 || rc=$?
grep '^[EW]: ' "$work/lintian.log" || true
[ $rc -eq 0 ] || { cat "$work/lintian.log"; fail "lintian failed (exit status $rc)"; }

# The packaged binary runs.
dpkg-deb -x "$tool" "$work/root"
"$work/root/usr/bin/mcpkit" --version | grep -qx "mcpkit $version" || fail "the packaged mcpkit does not say its version"

# The packaged library builds and runs the consumer, and a program using every part, found through
# pkg-config alone.
dpkg-deb -x "$dev" "$work/root"
dpkg-deb -x "$runtime" "$work/root"
export PKG_CONFIG_PATH="$work/root/usr/lib/$multiarch/pkgconfig"
# The packaged files name /usr; read them where they were unpacked.
pkg_config=(pkg-config "--define-variable=prefix=$work/root/usr")
[ "$("${pkg_config[@]}" --modversion mcpkit-http)" = "$version" ] || fail "pkg-config does not find mcpkit-http $version"
compiler=(g++)
command -v ccache >/dev/null && compiler=(ccache g++)
for program in server client; do
  # shellcheck disable=SC2046
  "${compiler[@]}" -std=c++20 $("${pkg_config[@]}" --cflags mcpkit) -o "$work/$program" "$source_dir/tests/consumer/$program.cpp" $("${pkg_config[@]}" --libs mcpkit)
done
# shellcheck disable=SC2046
"${compiler[@]}" -std=c++20 $("${pkg_config[@]}" --cflags mcpkit-http mcpkit-redis) -o "$work/every_part" \
  "$here/components/every_part.cpp" $("${pkg_config[@]}" --libs mcpkit-http mcpkit-redis)
output="$(LD_LIBRARY_PATH="$work/root/usr/lib/$multiarch" "$work/client" "$work/server")" || { echo "$output"; fail "the pkg-config consumer failed"; }
expect_consumer_answers "$output"
parts="$(LD_LIBRARY_PATH="$work/root/usr/lib/$multiarch" "$work/every_part")" || fail "every_part (pkg-config) failed"
expect_every_part_answer "$parts" "$version"
echo "deb: passed"
