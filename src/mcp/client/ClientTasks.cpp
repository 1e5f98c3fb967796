// Following a task the server made of a tool call (ClientOptions::tasks): poll tasks/get at the
// interval the server suggests, answer its questions with the client's handlers (2026-07-28:
// inputRequests, answered through tasks/update; 2025-11-25: the server asks on tasks/result's
// stream), and return what the call would have returned. Cancelling the call cancels the task.

#include "client/ClientSession.hpp"
#include "mcp/Error.hpp"
#include "mcp/protocol/ErrorCodes.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <set>

namespace mcp {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

std::string text_field(const json::object& object, std::string_view field) {
    auto* value = object.if_contains(field);
    return value && value->is_string() ? std::string(value->get_string()) : std::string();
}

/// The server's suggested poll interval, within reason.
std::chrono::milliseconds poll_interval(const json::object& task, bool modern) {
    std::int64_t interval = 500;
    if (auto* value = task.if_contains(modern ? "pollIntervalMs" : "pollInterval"); value && value->is_number())
        interval = value->to_number<std::int64_t>();
    return std::chrono::milliseconds(std::clamp<std::int64_t>(interval, 50, 5000));
}

}  // namespace

asio::awaitable<json::object> Client::follow_task(json::object created, const RequestOptions& options) {
    auto session = session_;
    bool modern = session->stateless;
    json::object task = modern ? std::move(created) : created.at("task").as_object();
    std::string id = text_field(task, "taskId");
    if (id.empty()) throw Error(error_code::internal_error, "The server made a task without a taskId");
    auto report = [&](const json::object& state) {
        if (options.on_task) options.on_task(TaskUpdate{id, text_field(state, "status"), text_field(state, "statusMessage")});
    };
    report(task);
    RequestOptions poll;
    poll.timeout = options.timeout;
    auto cancel_task = [&]() -> asio::awaitable<void> {
        try {
            json::object params{{"taskId", id}};
            co_await request("tasks/cancel", std::move(params), poll);
        } catch (const std::exception&) {
            // It may have ended meanwhile; the call is cancelled either way.
        }
    };
    auto executor = co_await asio::this_coro::executor;
    asio::steady_timer wait(executor);
    auto wake = options.cancellation.on_cancel([&wait] { wait.cancel(); });
    struct Forget {
        const CancellationToken& token;
        std::size_t id;
        ~Forget() { token.forget(id); }
    } forget{options.cancellation, wake};

    std::set<std::string> answered;
    std::chrono::milliseconds interval = poll_interval(task, modern);
    for (;;) {
        if (!options.cancellation.cancelled()) {
            wait.expires_after(interval);
            co_await wait.async_wait(asio::as_tuple(asio::use_awaitable));
        }
        if (options.cancellation.cancelled()) {
            co_await cancel_task();
            throw Error(jsonrpc::error_code::request_cancelled, "The call was cancelled, and its task " + id + " with it");
        }
        json::object params{{"taskId", id}};
        json::object state = co_await request("tasks/get", std::move(params), poll);
        report(state);
        std::string status = text_field(state, "status");
        interval = poll_interval(state, modern);
        if (status == "cancelled") throw Error(jsonrpc::error_code::request_cancelled, "The server cancelled task " + id);
        if (!modern) {
            // 2025-11-25: the result (or the questions) come on tasks/result, which waits for the end.
            if (status == "completed" || status == "failed" || status == "input_required") {
                RequestOptions until_the_end;
                until_the_end.timeout = std::chrono::milliseconds::zero();
                until_the_end.cancellation = options.cancellation;
                json::object result_params{{"taskId", id}};
                std::exception_ptr failure;
                try {
                    co_return co_await request("tasks/result", std::move(result_params), until_the_end);
                } catch (...) {
                    failure = std::current_exception();
                }
                // Cancelling the call while it waits for the result cancels the task too.
                if (!options.cancellation.cancelled()) std::rethrow_exception(failure);
                co_await cancel_task();
                throw Error(jsonrpc::error_code::request_cancelled, "The call was cancelled, and its task " + id + " with it");
            }
            continue;
        }
        if (status == "completed") {
            auto* result = state.if_contains("result");
            if (!result || !result->is_object()) throw Error(error_code::internal_error, "Task " + id + " completed without a result");
            co_return result->get_object();
        }
        if (status == "failed") {
            auto* error = state.if_contains("error");
            if (!error || !error->is_object()) throw Error(error_code::internal_error, "Task " + id + " failed without saying why");
            const json::object& e = error->get_object();
            auto* code = e.if_contains("code");
            auto* data = e.if_contains("data");
            throw Error(code && code->is_number() ? code->to_number<int>() : error_code::internal_error,
                        text_field(e, "message"), data ? *data : json::value(nullptr));
        }
        if (status != "input_required") continue;
        json::object answers;
        if (auto* requests = state.if_contains("inputRequests"); requests && requests->is_object()) {
            for (const auto& [key, input] : requests->get_object()) {
                std::string name(key);
                if (answered.contains(name) || !input.is_object()) continue;
                const json::object& spec = input.get_object();
                static const json::object no_params;
                const json::object& input_params =
                    spec.contains("params") && spec.at("params").is_object() ? spec.at("params").get_object() : no_params;
                json::object answer = co_await session->answer(text_field(spec, "method"), input_params);
                answers[name] = std::move(answer);
                answered.insert(name);
            }
        }
        if (answers.empty()) continue;
        json::object update{{"taskId", id}, {"inputResponses", std::move(answers)}};
        co_await request("tasks/update", std::move(update), poll);
        interval = std::chrono::milliseconds(50);  // the answers may finish it at once
    }
}

}  // namespace mcp
