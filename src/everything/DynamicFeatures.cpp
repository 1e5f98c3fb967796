// What changes while the server runs, so clients see list_changed and resources/updated without
// any trigger of their own: a tool, a resource and a prompt that appear 2 s after start, and the
// watched resource reported updated every 3 s. The two trigger tools re-publish the dynamic tool
// or prompt on demand, which the 2026 subscriptions/listen checks use to provoke list_changed.

#include "everything/FixtureParts.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>

namespace mcpkit::everything {
namespace asio = boost::asio;
using mcp::CallToolResult;

namespace {

using namespace std::chrono_literals;

constexpr std::string_view dynamic_tool_name = "test_dynamic_tool";
constexpr std::string_view dynamic_resource_uri = "test://dynamic-resource";
constexpr std::string_view dynamic_prompt_name = "test_dynamic_prompt";

// Publishing replaces what is there, so a trigger before the 2 s timer, or the timer after a
// trigger, never registers a name twice; each call tells clients the list changed.

void publish_dynamic_tool(mcp::Server& server) {
    server.remove_tool(dynamic_tool_name);
    server.add_tool(mcp::Tool{.name = std::string(dynamic_tool_name),
                              .description = "A tool added 2 seconds after the server started",
                              .input_schema = no_arguments()},
                    [](mcp::ToolCall&) { return CallToolResult::text("This is a dynamically added tool."); });
}

void publish_dynamic_resource(mcp::Server& server) {
    server.remove_resource(dynamic_resource_uri);
    server.add_resource(
        mcp::Resource{.uri = std::string(dynamic_resource_uri),
                      .name = "dynamic-resource",
                      .title = "Dynamic Resource",
                      .description = "A resource added 2 seconds after the server started",
                      .mime_type = "text/plain"},
        [](mcp::ResourceRead&) {
            return mcp::ReadResourceResult{{mcp::ResourceContents::of_text(
                std::string(dynamic_resource_uri), "text/plain", "This is a dynamically added resource.")}};
        });
}

void publish_dynamic_prompt(mcp::Server& server) {
    server.remove_prompt(dynamic_prompt_name);
    server.add_prompt(mcp::Prompt{.name = std::string(dynamic_prompt_name),
                                  .title = "Dynamic Prompt",
                                  .description = "A prompt added 2 seconds after the server started"},
                      [](mcp::PromptGet&) {
                          mcp::GetPromptResult result;
                          result.messages.push_back(
                              mcp::PromptMessage{"user", mcp::Content::text("This is a dynamically added prompt.")});
                          return result;
                      });
}

/// Waits `delay`; false when the wait was cancelled (the context is shutting down).
asio::awaitable<bool> wait(asio::steady_timer& timer, std::chrono::milliseconds delay) {
    timer.expires_after(delay);
    auto [error] = co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
    co_return !error;
}

asio::awaitable<void> publish_later(mcp::Server& server) {
    asio::steady_timer timer(co_await asio::this_coro::executor);
    if (!co_await wait(timer, 2s)) co_return;
    publish_dynamic_tool(server);
    publish_dynamic_resource(server);
    publish_dynamic_prompt(server);
}

asio::awaitable<void> report_watched_resource_updates(mcp::Server& server) {
    asio::steady_timer timer(co_await asio::this_coro::executor);
    // Only subscribers hear of it (resources/subscribe, or a listen stream naming the URI).
    while (co_await wait(timer, 3s)) server.notify_resource_updated(watched_resource_uri);
}

}  // namespace

void register_dynamic_features(mcp::Server& server, asio::any_io_executor timers) {
    server.add_tool(
        mcp::Tool{.name = "test_trigger_tool_change",
                  .description = "Re-publishes test_dynamic_tool so clients get notifications/tools/list_changed",
                  .input_schema = no_arguments()},
        [&server](mcp::ToolCall&) {
            publish_dynamic_tool(server);
            return CallToolResult::text("Mutation triggered");
        });
    server.add_tool(
        mcp::Tool{.name = "test_trigger_prompt_change",
                  .description = "Re-publishes test_dynamic_prompt so clients get notifications/prompts/list_changed",
                  .input_schema = no_arguments()},
        [&server](mcp::ToolCall&) {
            publish_dynamic_prompt(server);
            return CallToolResult::text("Mutation triggered");
        });
    asio::co_spawn(timers, publish_later(server), asio::detached);
    asio::co_spawn(timers, report_watched_resource_updates(server), asio::detached);
}

}  // namespace mcpkit::everything
