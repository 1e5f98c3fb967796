#include "devconsole/tools/CommandCall.hpp"

#include "devconsole/tools/ToolSupport.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>

#include <atomic>

namespace mcpkit::devconsole {
namespace json = boost::json;
namespace asio = boost::asio;

namespace {

/// Wakes one waiting coroutine on the daemon's thread, from any thread.
class AsyncSignal : public std::enable_shared_from_this<AsyncSignal> {
public:
    explicit AsyncSignal(asio::io_context& io) : timer_(io) {}
    void fire() {
        if (fired_.exchange(true)) return;
        asio::post(timer_.get_executor(), [self = shared_from_this()] { self->timer_.cancel(); });
    }
    bool fired() const { return fired_; }
    /// Waits until fired or `timeout`; returns whether it fired.
    asio::awaitable<bool> wait(std::chrono::milliseconds timeout) {
        if (fired_) co_return true;
        timer_.expires_after(timeout);
        co_await timer_.async_wait(asio::as_tuple(asio::use_awaitable));
        co_return fired_.load();
    }

private:
    asio::steady_timer timer_;
    std::atomic<bool> fired_{false};
};

json::object timing_of(const CommandSnapshot& snapshot) {
    json::object timing{{"elapsed_ms", snapshot.elapsed_ms}, {"deliveries", snapshot.deliveries}};
    if (snapshot.delivery_ms >= 0) timing["delivered_after_ms"] = snapshot.delivery_ms;
    return timing;
}

}  // namespace

bool wants_background(const json::object& arguments) {
    if (bool_argument(arguments, "background").value_or(false)) return true;
    if (!bool_argument(arguments, "sync").value_or(true)) return true;
    if (!bool_argument(arguments, "wait").value_or(true)) return true;
    return false;
}

mcp::CallToolResult command_answer(const CommandSnapshot& snapshot, std::string_view what) {
    json::object fields{{"status", to_string(snapshot.status)},
                        {"lifecycle_status", to_string(snapshot.status)},
                        {"correlation_id", snapshot.correlation_id},
                        {"command_id", snapshot.id},
                        {"command_type", snapshot.type},
                        {"final", is_final(snapshot.status)},
                        {"created_at", format_iso_time(snapshot.created_ms)},
                        {"timing", timing_of(snapshot)}};
    switch (snapshot.status) {
    case CommandStatus::pending: {
        fields["status"] = "still_processing";
        fields["lifecycle_status"] = snapshot.delivery_ms >= 0 ? "running" : "queued";
        fields["message"] = "The extension is still working on it. Use observe({what:'command_result', correlation_id:'" +
                            snapshot.correlation_id + "'}) to fetch the result later.";
        fields["suggested_retry_ms"] = 1000;
        return answer(what, "Command " + snapshot.correlation_id + ": still_processing", std::move(fields),
                      "still_processing");
    }
    case CommandStatus::complete: {
        fields["result"] = snapshot.result;
        // The extension may report a failure inside a "complete" envelope.
        bool failed = false;
        if (auto* object = snapshot.result.if_object())
            if (auto* success = object->if_contains("success"); success && success->is_bool() && !success->get_bool())
                failed = true;
        auto result = answer(what, "Command " + snapshot.correlation_id + (failed ? ": complete, but failed" : ": complete"),
                             std::move(fields));
        result.is_error = failed;
        return result;
    }
    default: {
        if (!snapshot.result.is_null()) fields["result"] = snapshot.result;
        std::string code(snapshot.error.substr(0, snapshot.error.find(':')));
        return failure(what, code.empty() ? std::string(to_string(snapshot.status)) : code,
                       "Command " + snapshot.correlation_id + " " + std::string(to_string(snapshot.status)) +
                           (snapshot.error.empty() ? "" : ": " + snapshot.error),
                       std::move(fields));
    }
    }
}

asio::awaitable<mcp::CallToolResult> run_command(DevConsole& console, mcp::ToolCall& call,
                                                 const CommandRequest& request) {
    static const ResultShaper as_reported;
    co_return co_await run_command(console, call, request, as_reported);
}

asio::awaitable<mcp::CallToolResult> run_command(DevConsole& console, mcp::ToolCall& call, const CommandRequest& request,
                                                 const ResultShaper& shape) {
    auto& commands = console.commands();
    if (!console.link().connected()) {
        // Give a restarting extension (or daemon) a moment to find each other.
        auto connected = std::make_shared<AsyncSignal>(console.io());
        auto waiter = console.link().when_connected([connected] { connected->fire(); });
        auto cancelled_id = call.cancellation().on_cancel([connected] { connected->fire(); });
        co_await connected->wait(console.options().connect_grace);
        call.cancellation().forget(cancelled_id);
        console.link().forget_waiter(waiter);
        if (call.cancelled()) co_return failure(request.what, "cancelled", "Cancelled before it was queued");
        if (!console.link().connected())
            co_return failure(
                request.what, "extension_disconnected",
                "The browser extension is not connected, so commands cannot run. Check that the mcpkit devconsole "
                "extension is installed and enabled, that its daemon URL is http://localhost:" +
                    std::to_string(console.options().port) + ", and that a tab is tracked (extension popup). Nothing was queued.");
    }
    auto tab = console.link().tracked_tab();
    std::int64_t tab_id = 0;
    if (auto explicit_tab = number_argument(request.params, "tab_id")) tab_id = static_cast<std::int64_t>(*explicit_tab);
    if (tab_id == 0 && tab.id == 0 && request.type != "tabs")
        co_return failure(request.what, "no_tracked_tab",
                          "No tab is tracked: open the page, click the mcpkit devconsole extension and press \"Track "
                          "this tab\". Commands run only on a tab the user chose.");

    auto queued = commands.enqueue(request.type, request.prefix, request.params, tab_id, request.origin);
    if (wants_background(request.params)) {
        json::object fields{{"correlation_id", queued.correlation_id},
                            {"lifecycle_status", "queued"},
                            {"queued", true},
                            {"final", false},
                            {"queue_depth", commands.pending_count()},
                            {"message", "Queued. Fetch the result with observe({what:'command_result', correlation_id:'" +
                                            queued.correlation_id + "'})."}};
        co_return answer(request.what, "Command " + queued.correlation_id + ": queued", std::move(fields), "queued");
    }

    auto done = std::make_shared<AsyncSignal>(console.io());
    commands.watch(queued.correlation_id, [done](const CommandSnapshot&) { done->fire(); });
    auto cancel_id = call.cancellation().on_cancel([done] { done->fire(); });
    auto deadline = std::chrono::steady_clock::now() + console.options().tool_wait;
    while (!done->fired() && !call.cancelled() && std::chrono::steady_clock::now() < deadline)
        co_await done->wait(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()));
    call.cancellation().forget(cancel_id);

    if (call.cancelled()) {
        auto delivered = commands.cancel(queued.correlation_id, "cancelled by the MCP client");
        if (delivered && *delivered) {
            // The extension has it already: ask it to stop.
            commands.enqueue("cancel", "cancel", json::object{{"id", queued.id}, {"correlation_id", queued.correlation_id}},
                             tab_id, "cancel " + queued.correlation_id, true);
        }
    }
    auto snapshot = commands.find(queued.correlation_id);
    if (!snapshot) co_return failure(request.what, "unknown_command", "The command vanished before it finished");
    if (snapshot->status == CommandStatus::complete && shape) co_return shape(*snapshot);
    co_return command_answer(*snapshot, request.what);
}

}  // namespace mcpkit::devconsole
