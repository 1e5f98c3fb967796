// Tool calls that run as tasks. A call becomes a task when its tool allows it and the client can
// poll: with 2026-07-28, when the request declares the io.modelcontextprotocol/tasks extension;
// with 2025-11-25, when the call carries `task`. The handler is the tool's ordinary handler, run
// in the background with the task's cancellation: its result completes the task, mcp::Error fails
// it, and its questions (InputRequired) park the task in input_required until the client answers
// them (2026: tasks/update; 2025: the server asks the client itself, as for any call).

#include "mcp/protocol/ErrorCodes.hpp"
#include "mcp/protocol/Methods.hpp"
#include "mcp/protocol/Versions.hpp"
#include "server/HandlerRunner.hpp"
#include "server/RequestParams.hpp"

#include "mcp/JsonFields.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <ctime>

namespace mcp::detail {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

constexpr std::string_view related_task_key = "io.modelcontextprotocol/related-task";

std::string iso_time(std::chrono::system_clock::time_point when) {
    std::time_t seconds = std::chrono::system_clock::to_time_t(when);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

Error missing_tasks_extension(std::string what) {
    return Error(mcp::error_code::missing_required_client_capability, std::move(what),
                 json::object{{"requiredCapabilities",
                               {{"extensions", {{std::string(tasks_extension), json::object()}}}}}});
}

bool declares_tasks(const PeerView& peer) {
    auto* extensions = peer.client_capabilities.if_contains("extensions");
    return extensions && extensions->is_object() && extensions->get_object().contains(tasks_extension);
}

/// The task's fields as 2026-07-28 (ttlMs, pollIntervalMs) or 2025-11-25 (ttl, pollInterval) name them.
json::object task_fields(const ServerTask& task) {
    if (task.remote_fields) return *task.remote_fields;
    json::object fields{{"taskId", task.id},
                        {"status", to_string(task.status)},
                        {"createdAt", iso_time(task.created_at)},
                        {"lastUpdatedAt", iso_time(task.last_updated_at)}};
    if (!task.status_message.empty()) fields["statusMessage"] = task.status_message;
    json::value ttl = task.ttl_ms ? json::value(*task.ttl_ms) : json::value(nullptr);
    fields[task.stateless ? "ttlMs" : "ttl"] = ttl;
    fields[task.stateless ? "pollIntervalMs" : "pollInterval"] = task.poll_interval_ms;
    return fields;
}

/// What other instances read of a task in the shared store.
json::object snapshot_of(const ServerTask& task) {
    json::object snapshot{{"stateless", task.stateless}, {"owner", task.owner}, {"fields", task_fields(task)}};
    if (!task.input_requests.empty()) snapshot["inputRequests"] = task.input_requests;
    if (!task.result.empty()) snapshot["result"] = task.result;
    if (!task.error.empty()) snapshot["error"] = task.error;
    return snapshot;
}

/// A task another instance runs, from its snapshot; nothing if the snapshot is unreadable.
std::shared_ptr<ServerTask> task_from_snapshot(const std::string& id, std::string_view text) {
    boost::system::error_code ec;
    json::value value = json::parse(text, ec);
    if (ec || !value.is_object()) return nullptr;
    const json::object& snapshot = value.get_object();
    auto* fields = snapshot.if_contains("fields");
    if (!fields || !fields->is_object()) return nullptr;
    auto task = std::make_shared<ServerTask>();
    task->id = id;
    task->remote_fields = fields->get_object();
    task->status = task_status_from(json_fields::text(*task->remote_fields, "status")).value_or(TaskStatus::working);
    task->status_message = json_fields::text(*task->remote_fields, "statusMessage");
    task->stateless = snapshot.contains("stateless") && snapshot.at("stateless").is_bool() && snapshot.at("stateless").get_bool();
    task->owner = json_fields::text(snapshot, "owner");
    if (auto* v = snapshot.if_contains("inputRequests"); v && v->is_object()) task->input_requests = v->get_object();
    if (auto* v = snapshot.if_contains("result"); v && v->is_object()) task->result = v->get_object();
    if (auto* v = snapshot.if_contains("error"); v && v->is_object()) task->error = v->get_object();
    return task;
}

/// The caller's identity when it came with a verified token: a task is only its maker's.
std::string owner_of(const jsonrpc::InboundRequest& request) {
    const auth::AccessToken* token = auth::access_token_of(request.origin.get());
    if (!token) return {};
    return token->issuer + " " + (token->subject.empty() ? token->client_id : token->subject);
}

}  // namespace

bool ServerSession::runs_as_task(const ToolEntry& entry, const json::object& params, const PeerView& peer) const {
    if (peer.stateless) {
        bool declared = declares_tasks(peer);
        if (entry.task_support == TaskSupport::required && !declared)
            throw missing_tasks_extension("Tool " + entry.tool.name + " runs only as a task: declare the " +
                                          std::string(tasks_extension) + " extension in the request's client capabilities");
        if (!declared || entry.task_support == TaskSupport::forbidden) return false;
        // Questions first, then the task: a call without answers is an ordinary (multi-round) call.
        if (entry.input_before_task && !params.contains("inputResponses")) return false;
        return true;
    }
    auto* task = params.if_contains("task");
    // Before 2025-11-25 there were no tasks: `task` means nothing there.
    bool asked = task && task->is_object() && peer.version >= versions::v2025_11_25;
    if (entry.task_support == TaskSupport::required && !asked)
        throw Error(jsonrpc::error_code::method_not_found,
                    "Tool " + entry.tool.name + " runs only as a task: send params.task (e.g. {\"ttl\": 60000})");
    if (asked && entry.task_support == TaskSupport::forbidden)
        throw Error(jsonrpc::error_code::method_not_found, "Tool " + entry.tool.name + " does not run as a task");
    return asked;
}

asio::awaitable<json::object> ServerSession::start_task(jsonrpc::InboundRequest& request, const PeerView& peer,
                                                        const ToolEntry& entry, json::object arguments) {
    const json::object& params = params_object(request.params);
    std::optional<std::int64_t> ttl = state_->options.task_ttl.count();
    if (!peer.stateless)
        if (auto* asked = params.at("task").get_object().if_contains("ttl"); asked && asked->is_int64() && asked->get_int64() > 0)
            ttl = std::min(*ttl, asked->get_int64());
    // The context first: it refuses malformed params (inputResponses, requestState) before any
    // task exists, so a refused call leaves nothing behind.
    auto call = make_context<ToolCall>(request, peer);
    auto executor = co_await asio::this_coro::executor;
    std::string owner = owner_of(request);
    // Without a verified token every caller is the same owner: only max_tasks applies then.
    if (!owner.empty() && state_->tasks_running.held_by(owner) >= state_->options.max_tasks_per_owner)
        throw Error::internal("You hold " + std::to_string(state_->options.max_tasks_per_owner) +
                              " tasks already, the most one user may; retry once some have finished or expired");
    auto task = state_->tasks_running.create(executor, peer.stateless, ttl, state_->options.task_poll_interval.count(),
                                             state_->options.max_tasks);
    if (!task)
        throw Error::internal("The server holds " + std::to_string(state_->options.max_tasks) +
                              " tasks already; retry once some have finished");
    task->owner = std::move(owner);
    task->params = params;
    if (!peer.stateless) task->session = weak_from_this();
    if (auto store = state_->task_store) {
        // Published at each change, and before the answer: another instance may be asked next.
        std::weak_ptr<ServerState> state = state_;
        std::chrono::milliseconds keep(ttl.value_or(24 * 3600 * 1000));
        task->on_change = [store, state, keep](const ServerTask& changed) {
            try {
                store->save(changed.id, json::serialize(snapshot_of(changed)), keep);
            } catch (const std::exception& e) {
                if (auto alive = state.lock()) alive->log(std::string("cannot publish task ") + changed.id + ": " + e.what());
            }
        };
        task->on_change(*task);
        asio::co_spawn(executor, watch_shared_requests(task, store), asio::detached);
    }

    call->name = entry.tool.name;
    call->arguments = std::move(arguments);
    call->task_id_ = task->id;
    // The task outlives the request: its own params, and its own cancellation.
    call->params_ = &task->params;
    call->cancellation_ = task->cancellation.token();
    if (peer.stateless) call->progress_token_ = nullptr;  // no progress for 2026 tasks
    // The answer shows the task as created (working), whatever the handler does first.
    json::object created = task_fields(*task);
    asio::co_spawn(executor, run_task(task, entry.handler, call, entry.output_validator, peer), asio::detached);

    if (peer.stateless) {
        created["resultType"] = "task";
        co_return created;
    }
    co_return json::object{{"task", std::move(created)}};
}

asio::awaitable<void> ServerSession::run_task(std::shared_ptr<ServerTask> task, Handler<CallToolResult, ToolCall> handler,
                                              std::shared_ptr<ToolCall> call,
                                              std::shared_ptr<SchemaValidator> output_validator, PeerView peer) {
    auto self = shared_from_this();
    // Whatever escapes the rounds (a malformed question, memory) must still end the task: a
    // detached coroutine's exception goes nowhere, and the task would wait for ever.
    std::string failure;
    try {
        co_await run_task_rounds(task, std::move(handler), std::move(call), std::move(output_validator), std::move(peer));
    } catch (const std::exception& e) {
        failure = e.what();
    } catch (...) {
        failure = "unknown failure";
    }
    if (!failure.empty() && !is_terminal(task->status)) {
        state_->log("task " + task->id + " failed: " + failure);
        task->error = json::object{{"code", jsonrpc::error_code::internal_error}, {"message", "The task failed: " + failure}};
        task->set_status(TaskStatus::failed, "The task failed");
    }
}

asio::awaitable<void> ServerSession::run_task_rounds(std::shared_ptr<ServerTask> task,
                                                     Handler<CallToolResult, ToolCall> handler,
                                                     std::shared_ptr<ToolCall> call,
                                                     std::shared_ptr<SchemaValidator> output_validator, PeerView peer) {
    // The context points at the peer it was made with; this copy lives as long as the task runs.
    call->client_capabilities_ = &peer.client_capabilities;
    call->client_info_ = &peer.client_info;
    for (int round = 0;; ++round) {
        Outcome<CallToolResult> outcome;
        json::object failure;
        std::optional<Error> protocol_error;
        try {
            outcome = co_await handler(*call);
        } catch (const Error& e) {
            protocol_error = e;
        } catch (const std::exception&) {
            failure = tool_failure(*state_, call->name, call->arguments);
        }
        if (is_terminal(task->status)) co_return;  // cancelled meanwhile: the answer is not wanted
        if (protocol_error) {
            task->error = json::object{{"code", protocol_error->code()}, {"message", protocol_error->what()}};
            if (!protocol_error->data().is_null()) task->error["data"] = protocol_error->data();
            task->set_status(TaskStatus::failed, protocol_error->what());
            co_return;
        }
        auto* result = std::get_if<CallToolResult>(&outcome);
        if (result || !failure.empty()) {
            json::object answer = result ? to_result_json(std::move(*result)) : std::move(failure);
            try {
                check_tool_output(call->name, output_validator.get(), answer);
            } catch (const Error& e) {
                task->error = json::object{{"code", e.code()}, {"message", e.what()}};
                task->set_status(TaskStatus::failed, e.what());
                co_return;
            }
            auto* is_error = answer.if_contains("isError");
            bool tool_error = is_error && is_error->is_bool() && is_error->get_bool();
            task->result = std::move(answer);
            // A tool error is a finished call in 2026-07-28, a failed task in 2025-11-25.
            task->set_status(tool_error && !task->stateless ? TaskStatus::failed : TaskStatus::completed);
            co_return;
        }
        auto& input = std::get<InputRequired>(outcome);
        if (round + 1 >= state_->options.max_input_rounds) {
            task->error = json::object{{"code", jsonrpc::error_code::internal_error},
                                       {"message", "The tool asked for input more than " +
                                                       std::to_string(state_->options.max_input_rounds) + " times"}};
            task->set_status(TaskStatus::failed, "Too many questions");
            co_return;
        }
        json::object answers;
        try {
            answers = co_await gather_task_input(*task, input, peer);
        } catch (const Error& e) {
            if (is_terminal(task->status)) co_return;
            task->error = json::object{{"code", e.code()}, {"message", e.what()}};
            task->set_status(TaskStatus::failed, e.what());
            co_return;
        }
        if (is_terminal(task->status)) co_return;
        call->input_responses_ = std::move(answers);
        call->request_state_ = input.request_state;
        task->set_status(TaskStatus::working);
    }
}

asio::awaitable<json::object> ServerSession::gather_task_input(ServerTask& task, const InputRequired& input,
                                                               const PeerView& peer) {
    for (const auto& [key, input_request] : input.input_requests) {
        std::string_view method;
        if (auto* m = input_request.get_object().if_contains("method"); m && m->is_string()) method = m->get_string();
        std::string_view capability = capability_for(method);
        if (capability.empty() || !peer.client_capabilities.contains(capability))
            throw Error(mcp::error_code::missing_required_client_capability,
                        "The task needs the client's " + std::string(capability.empty() ? method : capability) +
                            " capability, which the request did not declare");
    }
    if (!task.stateless) {
        // 2025: ask the client through the session, as for any call, tagged with the task.
        auto session = task.session.lock();
        if (!session) throw Error::internal("The session that started the task has ended");
        task.set_status(TaskStatus::input_required);
        json::object tagged;
        for (const auto& [key, input_request] : input.input_requests) {
            json::object copy = input_request.get_object();
            json::value& params = copy["params"];
            if (!params.is_object()) params.emplace_object();
            params.get_object()["_meta"].emplace_object()[related_task_key] = json::object{{"taskId", task.id}};
            tagged[key] = std::move(copy);
        }
        jsonrpc::InboundRequest unrelated;
        unrelated.cancellation = task.cancellation.token();
        co_return co_await session->fulfil_input_requests(tagged, unrelated, peer);
    }
    // 2026: park until tasks/update has answered every question. Keys are never reused in a task.
    task.input_requests.clear();
    task.input_responses.clear();
    task.handler_key.clear();
    for (const auto& [key, input_request] : input.input_requests) {
        std::string shown(key);
        for (int n = 2; task.keys_used.contains(shown); ++n) shown = std::string(key) + "~" + std::to_string(n);
        task.keys_used.insert(shown);
        task.handler_key[shown] = std::string(key);
        task.input_requests[shown] = input_request;
    }
    task.set_status(TaskStatus::input_required);
    while (!task.input_requests.empty() && !is_terminal(task.status)) {
        task.wake->expires_at(asio::steady_timer::time_point::max());
        co_await task.wake->async_wait(asio::as_tuple(asio::use_awaitable));
    }
    json::object answers;
    for (const auto& [shown, answer] : task.input_responses) answers[task.handler_key[std::string(shown)]] = answer;
    task.input_responses.clear();
    co_return answers;
}

asio::awaitable<void> ServerSession::watch_shared_requests(std::shared_ptr<ServerTask> task,
                                                          std::shared_ptr<TaskStore> store) {
    auto self = shared_from_this();
    asio::steady_timer wait(co_await asio::this_coro::executor);
    bool store_away = false;
    while (!is_terminal(task->status)) {
        // Every quarter second; every two while the store does not answer.
        wait.expires_after(store_away ? std::chrono::milliseconds(2000) : std::chrono::milliseconds(250));
        co_await wait.async_wait(asio::as_tuple(asio::use_awaitable));
        if (is_terminal(task->status)) break;
        store_away = false;
        try {
            if (store->cancel_requested(task->id)) {
                task->cancellation.cancel("cancelled through another instance");
                task->set_status(TaskStatus::cancelled, "Cancelled by the client");
                break;
            }
            if (task->status != TaskStatus::input_required) continue;
            for (const auto& text : store->take_answers(task->id)) {
                boost::system::error_code ec;
                json::value answers = json::parse(text, ec);
                if (!ec && answers.is_object()) task->apply_answers(answers.get_object());
            }
        } catch (const std::exception& e) {
            state_->log(std::string("cannot read requests for task ") + task->id + ": " + e.what());
            store_away = true;
        }
    }
}

// ---- tasks/* ----

std::shared_ptr<ServerTask> ServerSession::task_for(jsonrpc::InboundRequest& request, const PeerView& peer) {
    if (peer.stateless && !declares_tasks(peer))
        throw missing_tasks_extension(request.method + " needs the " + std::string(tasks_extension) +
                                      " extension declared in the request's client capabilities");
    const json::object& params = params_object(request.params);
    std::string id = required_string(params, "taskId");
    auto task = state_->tasks_running.find(id);
    if (!task && state_->task_store) {
        std::optional<std::string> snapshot;
        try {
            snapshot = state_->task_store->load(id);
        } catch (const std::exception& e) {
            throw Error::internal(std::string("The task store cannot be reached: ") + e.what());
        }
        if (snapshot) task = task_from_snapshot(id, *snapshot);
    }
    // Another caller's task does not exist for this one.
    if (!task || task->stateless != peer.stateless || task->owner != owner_of(request))
        throw Error::invalid_params("Failed to retrieve task: Task not found (" + id + ")");
    return task;
}

asio::awaitable<json::object> ServerSession::method_tasks_get(jsonrpc::InboundRequest& request, const PeerView& peer) {
    auto task = task_for(request, peer);
    json::object answer = task_fields(*task);
    if (peer.stateless) {
        if (task->status == TaskStatus::input_required && !task->input_requests.empty())
            answer["inputRequests"] = task->input_requests;
        if (task->status == TaskStatus::completed) answer["result"] = task->result;
        if (task->status == TaskStatus::failed) answer["error"] = task->error;
    }
    co_return answer;
}

asio::awaitable<json::object> ServerSession::method_tasks_update(jsonrpc::InboundRequest& request,
                                                                 const PeerView& peer) {
    auto task = task_for(request, peer);
    const json::object& params = params_object(request.params);
    auto* responses = params.if_contains("inputResponses");
    if (!responses || !responses->is_object())
        throw Error::invalid_params("Invalid params: \"inputResponses\" must be an object keyed by input request");
    for (const auto& [key, answer] : responses->get_object())
        if (!answer.is_object())
            throw Error::invalid_params("Invalid params: \"inputResponses." + std::string(key) +
                                        "\" must be the result object of the input request");
    // Answers to questions not outstanding (never asked, answered already) are ignored.
    if (!task->remote_fields) {
        task->apply_answers(responses->get_object());
        co_return json::object();
    }
    // Another instance runs it: the answers wait for it in the store.
    json::object outstanding;
    for (const auto& [key, answer] : responses->get_object())
        if (task->input_requests.contains(key)) outstanding[key] = answer;
    if (!outstanding.empty()) state_->task_store->add_answers(task->id, json::serialize(outstanding));
    co_return json::object();
}

asio::awaitable<json::object> ServerSession::method_tasks_cancel(jsonrpc::InboundRequest& request,
                                                                 const PeerView& peer) {
    auto task = task_for(request, peer);
    if (is_terminal(task->status)) {
        // 2026: cancelling a finished task is acknowledged; 2025 says it is an error.
        if (peer.stateless) co_return json::object();
        throw Error::invalid_params("Cannot cancel task: already in terminal status '" +
                                    std::string(to_string(task->status)) + "'");
    }
    if (task->remote_fields) {
        // Another instance runs it: it stops within a quarter of a second.
        state_->task_store->request_cancel(task->id);
        if (peer.stateless) co_return json::object();
        json::object fields = *task->remote_fields;
        fields["status"] = "cancelled";
        co_return fields;
    }
    task->cancellation.cancel("the client cancelled the task");
    task->set_status(TaskStatus::cancelled, "Cancelled by the client");
    if (peer.stateless) co_return json::object();
    co_return task_fields(*task);
}

asio::awaitable<json::object> ServerSession::method_tasks_result(jsonrpc::InboundRequest& request,
                                                                 const PeerView& peer) {
    auto task = task_for(request, peer);
    while (task->remote_fields && !is_terminal(task->status) && !request.cancellation.cancelled()) {
        // Another instance runs it: follow its published state.
        asio::steady_timer wait(co_await asio::this_coro::executor, std::chrono::milliseconds(250));
        co_await wait.async_wait(asio::as_tuple(asio::use_awaitable));
        task = task_for(request, peer);
    }
    while (!is_terminal(task->status) && !request.cancellation.cancelled()) {
        auto executor = co_await asio::this_coro::executor;
        auto wait = std::make_shared<asio::steady_timer>(executor, asio::steady_timer::time_point::max());
        task->waiting_for_end.push_back(wait);
        auto callback = request.cancellation.on_cancel([wait] { wait->cancel(); });
        co_await wait->async_wait(asio::as_tuple(asio::use_awaitable));
        request.cancellation.forget(callback);
        std::erase(task->waiting_for_end, wait);
    }
    if (!is_terminal(task->status)) throw Error(jsonrpc::error_code::request_cancelled, "tasks/result was cancelled");
    if (task->status == TaskStatus::cancelled) throw Error::invalid_params("Task " + task->id + " was cancelled");
    if (!task->error.empty()) {
        auto* data = task->error.if_contains("data");
        throw Error(static_cast<int>(task->error.at("code").to_number<std::int64_t>()),
                    std::string(task->error.at("message").get_string()), data ? *data : json::value(nullptr));
    }
    json::object result = task->result;
    json::value& meta = result["_meta"];
    if (!meta.is_object()) meta.emplace_object();
    meta.get_object()[related_task_key] = json::object{{"taskId", task->id}};
    co_return result;
}

asio::awaitable<json::object> ServerSession::method_tasks_list(jsonrpc::InboundRequest& request, const PeerView&) {
    json::array tasks;
    std::string owner = owner_of(request);
    for (const auto& task : state_->tasks_running.of_session(this))
        if (task->owner == owner) tasks.push_back(task_fields(*task));
    co_return json::object{{"tasks", std::move(tasks)}};
}

}  // namespace mcp::detail
