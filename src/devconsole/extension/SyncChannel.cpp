#include "devconsole/extension/SyncChannel.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json.hpp>

#include <atomic>
#include <ctime>

namespace mcpkit::devconsole {
namespace json = boost::json;
namespace asio = boost::asio;

namespace {

mcp::HttpRouteResponse json_response(int status, std::string body) {
    mcp::HttpRouteResponse response;
    response.status = status;
    response.body = std::move(body);
    return response;
}

std::string server_time() {
    std::time_t now = std::time(nullptr);
    std::tm parts{};
    gmtime_r(&now, &parts);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
    return text;
}

/// A held poll: answered once, by the first of a new command and its timer.
struct HeldPoll : std::enable_shared_from_this<HeldPoll> {
    HeldPoll(asio::io_context& io, std::function<void(mcp::HttpRouteResponse)> respond)
        : timer(io), respond(std::move(respond)) {}
    asio::steady_timer timer;
    std::function<void(mcp::HttpRouteResponse)> respond;
    std::atomic<bool> answered{false};
    std::uint64_t park_id = 0;
};

}  // namespace

void SyncChannel::handle(const mcp::HttpRouteRequest& request, std::function<void(mcp::HttpRouteResponse)> respond) {
    if (request.method != "POST") {
        auto response = json_response(405, R"({"error":"Use POST for /sync"})");
        response.headers.emplace_back("Allow", "POST, OPTIONS");
        return respond(std::move(response));
    }
    json::value parsed = json::object{};  // an empty body is a heartbeat
    if (!request.body.empty()) {
        boost::system::error_code ec;
        parsed = json::parse(request.body, ec);
        if (ec) return respond(json_response(400, json::serialize(json::object{{"error", "Invalid JSON: " + ec.message()}})));
    }
    auto* sync = parsed.if_object();
    if (!sync) return respond(json_response(400, R"({"error":"The /sync body must be a JSON object, a SyncRequest"})"));
    for (std::string_view field : {"in_progress", "extension_logs", "command_results"}) {
        auto* value = sync->if_contains(field);
        if (value && !value->is_array() && !value->is_null())
            return respond(json_response(
                400, json::serialize(json::object{{"error", "\"" + std::string(field) + "\" must be an array"}})));
    }
    if (auto* settings = sync->if_contains("settings"); settings && !settings->is_object() && !settings->is_null())
        return respond(json_response(400, R"({"error":"\"settings\" must be an object"})"));

    auto arrival = console_.link().saw_sync(*sync, request.header("x-gasoline-client").value_or(""));
    if (auto* logs = sync->if_contains("extension_logs"); logs && logs->is_array())
        console_.buffers().add_extension_logs(logs->get_array());
    // Results first: those this poll brings count, even when it ends a silence.
    if (auto* results = sync->if_contains("command_results"); results && results->is_array())
        for (const auto& result : results->get_array())
            if (result.is_object()) console_.commands().apply_result(result.get_object());
    if (arrival.silence_ended) {
        // Back after a silence nobody noticed yet: what waited for it expired meanwhile.
        console_.commands().expire_all("extension_disconnected: the extension was silent for more than " +
                                       std::to_string(console_.options().disconnect_after.count() / 1000) + " s");
    } else if (arrival.session_changed) {
        console_.commands().fail_acknowledged(
            "extension_restarted: the extension restarted after taking this command and lost it");
    }
    if (auto* ack = sync->if_contains("last_command_ack"); ack && ack->is_string())
        console_.commands().acknowledge(ack->get_string());

    auto delivery_ready = console_.commands().take_delivery();
    if (delivery_ready.answer_at_once) {
        json::object body{{"ack", true},
                          {"commands", std::move(delivery_ready.commands)},
                          {"next_poll_ms", 200},
                          {"server_time", server_time()},
                          {"server_version", wire_version},
                          {"capture_overrides", json::object{}}};
        return respond(json_response(200, json::serialize(body)));
    }

    // Nothing to deliver: hold the poll until a command comes or the long poll ends.
    auto held = std::make_shared<HeldPoll>(console_.io(), std::move(respond));
    auto finish = [this, held](bool timed_out) {
        if (held->answered.exchange(true)) return;
        console_.commands().unpark(held->park_id);
        held->respond(json_response(200, answer(timed_out)));
    };
    // The timer lives on the daemon's thread; its cancel below is posted there after this.
    asio::post(held->timer.get_executor(), [held, finish, wait = console_.options().long_poll] {
        if (held->answered) return;
        held->timer.expires_after(wait);
        held->timer.async_wait([finish](const boost::system::error_code& ec) {
            if (!ec) finish(true);
        });
    });
    held->park_id = console_.commands().park([held, finish] {
        // Any thread: answer here, and let the timer go on the daemon's thread.
        finish(false);
        asio::post(held->timer.get_executor(), [held] { held->timer.cancel(); });
    });
}

std::string SyncChannel::answer(bool held_poll_timed_out) {
    auto delivery = console_.commands().take_delivery();
    bool some = !delivery.commands.empty();
    json::object body{{"ack", true},
                      {"commands", std::move(delivery.commands)},
                      {"next_poll_ms", some ? 200 : held_poll_timed_out ? 20 : 200},
                      {"server_time", server_time()},
                      {"server_version", wire_version},
                      {"capture_overrides", json::object{}}};
    return json::serialize(body);
}

}  // namespace mcpkit::devconsole
