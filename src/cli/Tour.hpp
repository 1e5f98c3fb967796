#pragma once
// `mcpkit client tour`: a walk through everything a server offers, printing each exchange.

#include <mcp/client/Client.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace mcpkit::cli {

/// Lists and exercises the server's tools, resources and prompts. Throws when the server stops
/// answering; a tool or read that fails is printed and the tour goes on.
///
/// A tour must never change the user's world: it calls only tools annotated readOnlyHint:true and
/// not destructiveHint:true, plus those named in `also_call` (the user's explicit choice, which
/// is the only way a destructive tool is called). Every tool left out is listed with the reason.
boost::asio::awaitable<void> tour(mcp::Client& client, std::ostream& out, const std::vector<std::string>& also_call = {});

}  // namespace mcpkit::cli
