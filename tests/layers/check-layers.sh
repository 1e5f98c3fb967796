#!/usr/bin/env bash
# The layers of docs/architecture.md, checked on the sources: each layer includes only the layers
# below it, the base Transport knows nothing of HTTP, and applications use only libmcp's public
# headers. Prints every breach and fails if there is one.
set -u
root="${1:?usage: check-layers.sh SOURCE_DIR}"
cd "$root" || exit 2
breaches=0
breach() { echo "layer breach: $*"; breaches=$((breaches + 1)); }

# includes FILE... : the includes of the files, as "file:header".
includes() { grep -H -o -E '#include ["<][^">]*[">]' "$@" 2>/dev/null | sed -E 's/#include ["<](.*)[">]$/\1/'; }

# 1. JSON-RPC: only itself and the library's root headers (Cancellation, Error).
while IFS=: read -r file header; do
    case "$header" in
        mcp/jsonrpc/*|mcp/Cancellation.hpp|mcp/Error.hpp|mcp/Export.hpp) ;;
        mcp/*|transport/*|server/*|client/*|protocol/*|store/*) breach "$file includes $header (jsonrpc depends on nothing of transport or MCP)" ;;
    esac
done < <(includes include/mcp/jsonrpc/*.hpp src/mcp/jsonrpc/*.cpp)

# 2. Transports: JSON-RPC below them, never the MCP server or client above. The entry points that
#    serve a Server over a transport (StreamableHttpServer with its McpEndpoint, serve_stdio) are
#    the one layer above both, and are named here.
while IFS=: read -r file header; do
    case "$file" in
        include/mcp/transport/StreamableHttpServer.hpp|src/mcp/transport/http/StreamableHttpServer.cpp|\
        src/mcp/transport/http/McpEndpoint.*|src/mcp/transport/StdioServer.cpp) continue ;;
    esac
    case "$header" in
        mcp/server/*|mcp/client/*|server/*|client/*) breach "$file includes $header (a transport knows no server or client)" ;;
        mcp/auth/*|auth/*) breach "$file includes $header (a transport knows authorization only as HttpAuthorization)" ;;
    esac
done < <(includes include/mcp/transport/*.hpp src/mcp/transport/*.cpp src/mcp/transport/*/*.cpp src/mcp/transport/*/*.hpp)

# 2b. Authorization (OAuth 2.1) sits beside the transports: it uses the HTTP client and knows no
#     MCP server or client.
while IFS=: read -r file header; do
    case "$header" in
        mcp/server/*|mcp/client/*|server/*|client/*) breach "$file includes $header (authorization knows no server or client)" ;;
    esac
done < <(includes include/mcp/auth/*.hpp src/mcp/auth/*.cpp src/mcp/auth/*.hpp)

# 3. Protocol types, typed JSON and the schema validator: no I/O, no server or client.
while IFS=: read -r file header; do
    case "$header" in
        mcp/transport/*|mcp/server/*|mcp/client/*|transport/*|server/*|client/*)
            breach "$file includes $header (protocol types do no I/O)" ;;
    esac
done < <(includes include/mcp/protocol/*.hpp src/mcp/protocol/*.cpp include/mcp/typed/*.hpp include/mcp/schema/*.hpp \
                  src/mcp/schema/*.cpp src/mcp/schema/*.hpp)

# 4. The base Transport moves frames: no HTTP concept in it or in the channel it implements.
if grep -n -i -E '\bhttp|\bsse\b|status|request_stream|header' include/mcp/transport/Transport.hpp include/mcp/jsonrpc/MessageChannel.hpp; then
    breach "the base Transport or MessageChannel mentions an HTTP concept (above)"
fi

# 5. Applications, examples and benchmarks include libmcp through include/mcp/ only.
while IFS=: read -r file header; do
    case "$header" in
        mcp/Version.hpp) ;;  # generated into the build tree from cmake/package/Version.hpp.in
        mcp/*) [ -f "include/$header" ] || breach "$file includes $header, which is private to libmcp" ;;
    esac
done < <(includes $(find src examples bench -path src/mcp -prune -o \( -name '*.cpp' -o -name '*.hpp' \) -print))

# 5b. libmcp's parts (src/mcp/CMakeLists.txt): the core (libmcp) includes nothing of the HTTP part
#     (transports over HTTP, TLS, OAuth) or the Redis part, which build on it; so a program that
#     links only the core links no OpenSSL, Beast or hiredis.
while IFS=: read -r file header; do
    case "$header" in
        mcp/transport/Http*|mcp/transport/StreamableHttp*|mcp/transport/Sse*|mcp/transport/HostPolicy.hpp|\
        mcp/transport/BearerSecretAuthorizer.hpp|mcp/auth/OAuthClient.hpp|mcp/auth/ResourceServer.hpp|\
        mcp/auth/TokenStore.hpp|mcp/store/Redis*|transport/http/*|auth/*|store/*|boost/beast*|openssl/*|hiredis/*)
            breach "$file includes $header (libmcp's core knows nothing of its HTTP or Redis part)" ;;
    esac
done < <(includes src/mcp/*.cpp src/mcp/jsonrpc/*.cpp src/mcp/protocol/*.cpp src/mcp/schema/*.cpp src/mcp/schema/*.hpp \
                  src/mcp/server/*.cpp src/mcp/server/*.hpp src/mcp/client/*.cpp src/mcp/client/*.hpp src/mcp/transport/*.cpp \
                  include/mcp/*.hpp include/mcp/jsonrpc/*.hpp include/mcp/protocol/*.hpp include/mcp/schema/*.hpp \
                  include/mcp/server/*.hpp include/mcp/client/*.hpp include/mcp/typed/*.hpp include/mcp/transport/Transport.hpp \
                  include/mcp/transport/StreamTransport.hpp include/mcp/transport/ChildProcessTransport.hpp \
                  include/mcp/transport/MemoryTransport.hpp include/mcp/store/TaskStore.hpp)

# 6. The chat host's floors (src/host/README.md): history/ at the bottom; config/, store/ and llm/
#    on it; coordinator/ (which offers tools to llm/'s models), apps/, chat/, web/ above in that
#    order; Host.cpp wires them. A folder includes its own floor and the ones below, never one above.
host_floor_allows() {
    case "$1" in
        history) echo "history" ;;
        config) echo "config history" ;;
        store) echo "store history" ;;
        llm) echo "llm history" ;;
        coordinator) echo "coordinator config history llm" ;;
        apps) echo "apps coordinator config history llm" ;;
        chat) echo "chat apps coordinator config history llm store" ;;
        web) echo "web chat apps coordinator config history llm store" ;;
    esac
}
for folder in history config store llm coordinator apps chat web; do
    allowed=" $(host_floor_allows "$folder") "
    while IFS=: read -r file header; do
        case "$header" in
            host/HostLog.hpp) ;;
            host/*/*) below="${header#host/}"; below="${below%%/*}"
                      [[ "$allowed" == *" $below "* ]] || breach "$file includes $header ($folder/ stands below $below/)" ;;
            host/*) breach "$file includes $header (only Host.cpp wires the host together)" ;;
        esac
    done < <(includes $(find "src/host/$folder" -name '*.cpp' -o -name '*.hpp'))
done

# 6b. chat/ orchestrates and knows no HTTP (each model owns its connections, web/ serves the pages).
while IFS=: read -r file header; do
    case "$header" in
        mcp/transport/Http*|mcp/transport/StreamableHttp*|boost/beast*) breach "$file includes $header (chat/ knows no HTTP)" ;;
    esac
done < <(includes $(find src/host/chat -name '*.cpp' -o -name '*.hpp'))

# 6c. Page frames are written in one place, web/PageFrames, the code beside docs/host-websocket.md.
while IFS= read -r hit; do
    breach "a page frame built outside web/PageFrames: $hit"
done < <(grep -rn -E '"payload"|\{"type":' src/host --include='*.cpp' --include='*.hpp' |
         grep -v -E '^src/host/web/PageFrames\.cpp:|if_contains\("payload"\)')

if [ "$breaches" -gt 0 ]; then
    echo "$breaches layer breach(es)"
    exit 1
fi
echo "layers hold"
