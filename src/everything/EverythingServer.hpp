#pragma once
// The official MCP conformance suite's "everything server" fixture, on libmcp: every tool,
// resource, template, prompt and completion the server scenarios call, for both protocol eras
// from one registry (2025-era clients through initialize, 2026-07-28 clients per request).
//
//   boost::asio::io_context io;
//   mcp::Server server(mcpkit::everything::server_info(), mcpkit::everything::server_options());
//   mcpkit::everything::register_fixture(server, io.get_executor());
//   ... co_spawn(io, server.serve(transport), …); io.run();
//
// The fixture starts timers (features added after 2 s, a resource updated every 3 s) that run
// until their executor's context stops, so the server must outlive that context's run, and the
// executor must be the one the server is served on (registration is single-threaded).

#include "mcp/protocol/Implementation.hpp"
#include "mcp/server/Server.hpp"

#include <boost/asio/any_io_executor.hpp>

namespace mcpkit::everything {

/// "mcp-conformance-test-server" 1.0.0, as the fixture names itself.
mcp::Implementation server_info();
/// The fixture's cache hints: lists public for 5 minutes, reads private for 5 minutes.
mcp::ServerOptions server_options();
/// Registers everything on `server`, and starts the fixture's timers on `timers`.
void register_fixture(mcp::Server& server, boost::asio::any_io_executor timers);

}  // namespace mcpkit::everything
