#pragma once
// The stores that keep a server's state in Redis, so several instances serve the same sessions and
// tasks. They are libmcp's Redis component (CMake: mcpkit::redis), apart from the core so a
// program that keeps its state in memory does not link hiredis.
//
//   mcp::StreamableHttpServerOptions options;
//   options.store = mcp::make_redis_session_store("redis://127.0.0.1:6379/0");
//   server.set_task_store(mcp::make_redis_task_store("redis://127.0.0.1:6379/0"));

#include "mcp/Export.hpp"
#include "mcp/store/TaskStore.hpp"
#include "mcp/transport/SessionStore.hpp"

#include <chrono>
#include <memory>
#include <string>

namespace mcp {

/// Redis at `url` (`redis://[:PASSWORD@]HOST[:PORT][/DB]`), shared by every instance pointed at
/// it. Keys start with `mcpkit:`. Throws SessionStoreError if the URL is malformed or Redis cannot
/// be reached now; later outages surface as SessionStoreError from the calls.
MCP_API std::shared_ptr<SessionStore> make_redis_session_store(
    const std::string& url, std::chrono::milliseconds timeout = std::chrono::seconds(2));

/// Redis at `url` (`redis://[:PASSWORD@]HOST[:PORT][/DB]`), the same as the session store's:
/// keys `mcpkit:task:<id>`, `…:answers` and `…:cancel`, each expiring with the task.
MCP_API std::shared_ptr<TaskStore> make_redis_task_store(
    const std::string& url, std::chrono::milliseconds timeout = std::chrono::seconds(2));

}  // namespace mcp
