#include "everything/EverythingServer.hpp"

#include "everything/FixtureParts.hpp"

namespace mcpkit::everything {

mcp::Implementation server_info() {
    return mcp::Implementation{.name = "mcp-conformance-test-server", .version = "1.0.0"};
}

mcp::ServerOptions server_options() {
    mcp::ServerOptions options;
    // The conformance caching scenario only checks that hints are present and valid; these are
    // the values the reference fixture stamps on every list and read.
    options.list_cache = mcp::CacheHint{.ttl_ms = 300000, .scope = "public"};
    options.read_cache = mcp::CacheHint{.ttl_ms = 300000, .scope = "private"};
    return options;
}

void register_fixture(mcp::Server& server, boost::asio::any_io_executor timers) {
    register_content_tools(server);
    register_client_request_tools(server);
    register_input_required_tools(server);
    register_task_tools(server);
    register_resources(server);
    register_prompts(server);
    register_dynamic_features(server, std::move(timers));
}

}  // namespace mcpkit::everything
