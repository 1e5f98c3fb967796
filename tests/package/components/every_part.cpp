// One call into each of libmcp's parts: the core, HTTP (a session store, an HTTP client made on an
// io_context, no request sent) and Redis (a URL parsed, nothing connected).
#include <mcp/Version.hpp>
#include <mcp/store/RedisConnection.hpp>
#include <mcp/transport/HttpClient.hpp>
#include <mcp/transport/SessionStore.hpp>

#include <boost/asio/io_context.hpp>

#include <iostream>

int main() {
    boost::asio::io_context io;
    mcp::HttpClient client(io.get_executor());
    auto sessions = mcp::make_memory_session_store();
    mcp::RedisAddress redis = mcp::parse_redis_url("redis://cache.internal:6390/2");
    std::cout << "libmcp " << mcp::library_version() << " (headers " << MCP_VERSION_STRING << "), "
              << (sessions ? "session store" : "no session store") << ", redis at " << redis.where() << " db "
              << redis.database << '\n';
    return 0;
}
