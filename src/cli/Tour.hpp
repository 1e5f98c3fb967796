#pragma once
// `mcpkit client tour`: a walk through everything a server offers, printing each exchange.

#include <mcp/client/Client.hpp>

#include <ostream>

namespace mcpkit::cli {

/// Lists and exercises the server's tools, resources and prompts. Throws when the server stops
/// answering; a tool or read that fails is printed and the tour goes on.
boost::asio::awaitable<void> tour(mcp::Client& client, std::ostream& out);

}  // namespace mcpkit::cli
