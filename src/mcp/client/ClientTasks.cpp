// Following a task the server made of a tool call (ClientOptions::tasks): poll tasks/get at the
// interval the server suggests, answer its questions with the client's handlers (2026-07-28:
// inputRequests, answered through tasks/update; 2025-11-25: the server asks on tasks/result's
// stream), and return what the call would have returned. Cancelling the call cancels the task.

#include "client/ClientSession.hpp"
#include "mcp/Error.hpp"
#include "mcp/protocol/ErrorCodes.hpp"

#include "mcp/JsonFields.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <set>

namespace mcp {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

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
    std::string id = json_fields::text(task, "taskId");
    if (id.empty()) throw Error(error_code::internal_error, "The server made a task without a taskId");
    auto report = [&](const json::object& state) {
        if (options.on_task) options.on_task(TaskUpdate{id, json_fields::text(state, "status"), json_fields::text(state, "statusMessage")});
    };
    report(task);
    RequestOptions poll;
    poll.timeout = options.timeout;
    poll.caller = options.caller;  // the server's questions during the task are the call's
    auto cancel_task = [&]() -> asio::awaitable<void> {
        try {
            json::object params{{"taskId", id}};
            co_await request("tasks/cancel", std::move(params), poll);
        } catch (const std::exception&) {
            // It may have ended meanwhile; the call is cancelled either way.
        }
    };
    auto executor = co_await asio::this_coro::executor;
    // Cancel may come from any thread: the timer is shared, and cancelled on its own executor.
    auto wait = std::make_shared<asio::steady_timer>(executor);
    auto wake = options.cancellation.on_cancel([weak = std::weak_ptr<asio::steady_timer>(wait), executor] {
        asio::post(executor, [weak] {
            if (auto timer = weak.lock()) timer->cancel();
        });
    });
    struct Forget {
        const CancellationToken& token;
        std::size_t id;
        ~Forget() { token.forget(id); }
    } forget{options.cancellation, wake};

    std::set<std::string> answered;
    std::chrono::milliseconds interval = poll_interval(task, modern);
    bool task_over = false;  // ended, or cancelled already: nothing to cancel on the way out
    std::exception_ptr failure;
    try {
        for (;;) {
            if (!options.cancellation.cancelled()) {
                wait->expires_after(interval);
                co_await wait->async_wait(asio::as_tuple(asio::use_awaitable));
            }
            if (options.cancellation.cancelled()) {
                co_await cancel_task();
                task_over = true;
                throw Error(jsonrpc::error_code::request_cancelled, "The call was cancelled, and its task " + id + " with it");
            }
            json::object params{{"taskId", id}};
            json::object state = co_await request("tasks/get", std::move(params), poll);
            report(state);
            std::string status = json_fields::text(state, "status");
            interval = poll_interval(state, modern);
            if (status == "completed" || status == "failed" || status == "cancelled") task_over = true;
            if (status == "cancelled") throw Error(jsonrpc::error_code::request_cancelled, "The server cancelled task " + id);
            if (!modern) {
                // 2025-11-25: the result (or the questions) come on tasks/result, which waits for the end.
                if (status == "completed" || status == "failed" || status == "input_required") {
                    RequestOptions until_the_end;
                    until_the_end.timeout = std::chrono::milliseconds::zero();
                    until_the_end.cancellation = options.cancellation;
                    until_the_end.caller = options.caller;
                    json::object result_params{{"taskId", id}};
                    json::object result = co_await request("tasks/result", std::move(result_params), until_the_end);
                    task_over = true;
                    co_return result;
                }
                continue;
            }
            if (status == "completed") {
                auto* result = state.if_contains("result");
                if (!result || !result->is_object())
                    throw Error(error_code::internal_error, "Task " + id + " completed without a result");
                co_return result->get_object();
            }
            if (status == "failed") {
                auto* error = state.if_contains("error");
                if (!error || !error->is_object())
                    throw Error(error_code::internal_error, "Task " + id + " failed without saying why");
                const json::object& e = error->get_object();
                auto* code = e.if_contains("code");
                auto* data = e.if_contains("data");
                throw Error(code && code->is_number() ? code->to_number<int>() : error_code::internal_error,
                            json_fields::text(e, "message"), data ? *data : json::value(nullptr));
            }
            if (status != "input_required") continue;
            json::object answers;
            if (auto* requests = state.if_contains("inputRequests"); requests && requests->is_object()) {
                for (const auto& [key, input] : requests->get_object()) {
                    std::string name(key);
                    if (answered.contains(name) || !input.is_object()) continue;
                    const json::object& spec = input.get_object();
                    static const json::object no_params;
                    const json::object& input_params = spec.contains("params") && spec.at("params").is_object()
                                                           ? spec.at("params").get_object()
                                                           : no_params;
                    std::string method = json_fields::text(spec, "method");
                    ServerRequestContext context;  // not a braced temporary: g++ 12 and co_await
                    context.caller = options.caller;
                    json::object answer = co_await session->answer(method, input_params, context);
                    answers[name] = std::move(answer);
                    answered.insert(name);
                }
            }
            if (answers.empty()) continue;
            json::object update{{"taskId", id}, {"inputResponses", std::move(answers)}};
            co_await request("tasks/update", std::move(update), poll);
            interval = std::chrono::milliseconds(50);  // the answers may finish it at once
        }
    } catch (...) {
        failure = std::current_exception();
    }
    // Whatever stopped us (a failed poll, a question we could not answer, a cancelled wait on
    // tasks/result) must not leave the task running or parked on the server.
    if (!task_over) {
        co_await cancel_task();
        if (options.cancellation.cancelled())
            throw Error(jsonrpc::error_code::request_cancelled, "The call was cancelled, and its task " + id + " with it");
    }
    std::rethrow_exception(failure);
}

}  // namespace mcp
