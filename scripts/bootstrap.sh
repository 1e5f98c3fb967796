#!/usr/bin/env bash
# Installs everything mcpkit needs to build, test and benchmark on Debian 12, and nothing twice:
# each step checks first, so a second run takes a second.
set -euo pipefail
cd "$(dirname "$0")/.."

debian_packages=(
  g++ cmake ninja-build ccache pkg-config git
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev libboost-system1.81-dev
  libcli11-dev libssl-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang libclang-rt-14-dev
  libhiredis-dev redis-server nginx-light wrk hyperfine strace openssl tinyproxy-bin
  libcmark-gfm-dev libcmark-gfm-extensions-dev chromium zip
  libsqlite3-dev cloc pmccabe radon
  # real Go, Rust and Java (and C) trees for analyze's agreement tests against cloc and pmccabe,
  # and the navigation index's references: universal-ctags, cscope, GNU Global
  golang-1.19-src rust-src openjdk-17-source universal-ctags cscope global
  # libmcp's API reference, the man page, and the DEB packages' inspection
  doxygen help2man dpkg-dev lintian xz-utils
)
# Node and npm may come from elsewhere (this machine's Node 20 ships its own npm); Debian's are a
# fallback. The tests themselves run on Node 22 from npm (tests/interop/package.json).
command -v node >/dev/null || debian_packages+=(nodejs)
command -v npm >/dev/null || debian_packages+=(npm)

missing=()
for package in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing Debian packages: ${missing[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# JavaScript peers (official SDKs, reference servers, Node 22 for the conformance suite).
interop=tests/interop
if [ ! -d "$interop/node_modules/@modelcontextprotocol/sdk" ] || [ "$interop/package.json" -nt "$interop/node_modules/.package-lock.json" ]; then
  echo "bootstrap: installing npm packages in $interop" >&2
  (cd "$interop" && npm install --no-audit --no-fund --loglevel=error)
fi

# The VS Code extension's build and test tools (TypeScript, vsce) and its one runtime dependency.
vscode=extensions/vscode
if [ ! -d "$vscode/node_modules/markdown-it" ] || [ "$vscode/package.json" -nt "$vscode/node_modules/.package-lock.json" ]; then
  echo "bootstrap: installing npm packages in $vscode" >&2
  (cd "$vscode" && npm install --no-audit --no-fund --loglevel=error)
fi

# The Chrome extension's build and test tools (TypeScript, the Chrome and Node typings); `zip` packages it.
chrome_extension=extensions/chrome
if [ ! -d "$chrome_extension/node_modules/typescript" ] || [ "$chrome_extension/package.json" -nt "$chrome_extension/node_modules/.package-lock.json" ]; then
  echo "bootstrap: installing npm packages in $chrome_extension" >&2
  (cd "$chrome_extension" && npm install --no-audit --no-fund --loglevel=error)
fi

# tree-sitter grammars for analyze: only their C sources are used, so no install scripts run.
grammars=src/analyze/grammars
if [ ! -f "$grammars/node_modules/tree-sitter-c/src/parser.c" ] || [ "$grammars/package.json" -nt "$grammars/node_modules/.package-lock.json" ]; then
  echo "bootstrap: installing tree-sitter grammar sources in $grammars" >&2
  (cd "$grammars" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error)
fi

# tree-sitter's runtime, compiled in (src/analyze/grammars/CMakeLists.txt): Debian's own upstream
# tarball of 0.20.7, the version libtree-sitter0 is built from. apt's downloader fetches it from
# this machine's Debian mirror and checks it against the SHA-256 that Debian's signed
# tree-sitter_0.20.7-1.dsc gives.
runtime_version=0.20.7
runtime_sha256=e8c0573be475dce5b024d83628a3eb47376923da701376e55a11804cc5d25487
runtime_dir=$grammars/tree-sitter-$runtime_version
if [ ! -f "$runtime_dir/lib/src/lib.c" ]; then
  mirror=$(sed -n 's/^URIs: *\(http[^ ]*\/debian\/*\)\( .*\)\{0,1\}$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
  [ -n "$mirror" ] || mirror=$(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\(http[^ ]*\/debian\/*\) .*/\2/p' /etc/apt/sources.list 2>/dev/null | head -1)
  [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
  tarball=tree-sitter_$runtime_version.orig.tar.xz
  echo "bootstrap: fetching tree-sitter $runtime_version's sources from $mirror" >&2
  scratch=$(mktemp -d)
  # As root, apt downloads as its unprivileged _apt user, which must be able to write there.
  if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then chown _apt "$scratch"; fi
  if ! /usr/lib/apt/apt-helper download-file "${mirror%/}/pool/main/t/tree-sitter/$tarball" \
         "$scratch/$tarball" "SHA256:$runtime_sha256" >/dev/null; then
    echo "bootstrap: could not fetch $tarball with the expected SHA-256 from $mirror" >&2
    exit 1
  fi
  tar -xJf "$scratch/$tarball" -C "$scratch" "tree-sitter-$runtime_version/lib"
  rm -rf "$runtime_dir" && mkdir -p "$runtime_dir"
  mv "$scratch/tree-sitter-$runtime_version/lib" "$runtime_dir/lib"
  rm -rf "$scratch"
fi

# The SQLite amalgamation for the navigation agreement tests (tests/agreement): sources only.
corpora=tests/agreement/corpora
if [ ! -f "$corpora/node_modules/better-sqlite3/deps/sqlite3/sqlite3.c" ] || [ "$corpora/package.json" -nt "$corpora/node_modules/.package-lock.json" ]; then
  echo "bootstrap: installing the agreement tests' source corpora in $corpora" >&2
  (cd "$corpora" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error)
fi
