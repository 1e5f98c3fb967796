#include "analyze/server/CallRunner.hpp"

#include <boost/json.hpp>

#include <algorithm>

namespace mcpkit::analyze {
namespace json = boost::json;

std::optional<std::string> optional_string(const json::object& arguments, std::string_view key) {
    const json::value* value = arguments.if_contains(key);
    if (!value || value->is_null()) return std::nullopt;
    if (!value->is_string()) throw ToolError(status_code::bad_request, std::string(key) + " must be a string");
    return std::string(value->get_string());
}

std::string required_string(const json::object& arguments, std::string_view key, std::string_view hint) {
    auto value = optional_string(arguments, key);
    if (!value || value->empty())
        throw ToolError(status_code::bad_request, "Missing required parameter: " + std::string(key) + " (" +
                                                      std::string(hint) + ")");
    return *value;
}

namespace {

// Two subjects are related when one is the other or lies inside it (a file inside a project).
bool related(const std::string& a, const std::string& b) {
    if (a.empty() || b.empty()) return false;
    if (a == b) return true;
    auto inside = [](const std::string& inner, const std::string& outer) {
        return inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 &&
               (outer.back() == '/' || inner[outer.size()] == '/');
    };
    return inside(a, b) || inside(b, a);
}

}  // namespace

std::string owner_of(const mcp::ToolCall& call) {
    const mcp::auth::AccessToken* token = call.access_token();
    if (!token) return {};
    return token->issuer + " " + (token->subject.empty() ? "client " + token->client_id : token->subject);
}

mcp::CallToolResult CallRunner::refuse_arguments(const std::string& tool, const json::object& arguments,
                                                 const std::string& problem, bool recorded) {
    ToolExecution execution;
    execution.select_tool(tool);
    execution.refuse_parameters("Invalid arguments: " + problem);
    Envelope envelope;
    envelope.tool = tool;
    envelope.state = std::string(to_string(execution.state()));
    envelope.success = false;
    envelope.code = status_code::bad_request;
    envelope.message = execution.error();
    // A refused call still belongs to the session it names, so its history shows what was tried.
    const json::value* session_id = recorded ? arguments.if_contains("sessionId") : nullptr;
    if (session_id && session_id->is_string()) {
        // Who calls is not known here: only a session of the server's one user is written to.
        std::optional<Session> session = store_.load(std::string(session_id->get_string()));
        if (session && session->owner.empty()) {
            envelope.session_id = session->id;
            record_call(*session, envelope, arguments, {}, envelope.message, execution.error());
        }
    }
    return to_tool_result(envelope, "Error: " + envelope.message);
}

mcp::ToolOptions CallRunner::tool_options(const std::string& tool, bool blocking, bool recorded) {
    return {.blocking = blocking,
            .on_invalid_arguments = [this, tool, recorded](const json::object& arguments, const std::string& problem) {
                return refuse_arguments(tool, arguments, problem, recorded);
            }};
}

void CallRunner::record_call(Session& session, Envelope& envelope, const json::object& arguments,
                             const std::string& subject, const std::string& summary, const std::string& error) {
    // Reload: a long call must not overwrite what other calls added meanwhile.
    if (auto fresh = store_.load(session.id)) session = std::move(*fresh);
    CallRecord record;
    record.result_id = session.id + "/" + std::to_string(session.calls + 1);
    record.tool = envelope.tool;
    record.state = envelope.state;
    record.subject = subject;
    record.parameters = arguments;
    record.summary = summary;
    record.error = error;
    record.timestamp_ms = now_milliseconds();
    record.execution_ms = envelope.execution_ms;
    if (envelope.success && json::serialize(envelope.data).size() <= policy_.max_result_bytes)
        record.result = envelope.data;
    for (auto it = session.history.rbegin(); it != session.history.rend(); ++it)
        if (it->state == "succeeded" && related(it->subject, record.subject))
            envelope.related_results.push_back(it->result_id);
    envelope.result_id = record.result_id;
    session.history.push_back(std::move(record));
    if (session.history.size() > policy_.max_history)
        session.history.erase(session.history.begin(),
                              session.history.begin() +
                                  static_cast<std::ptrdiff_t>(session.history.size() - policy_.max_history));
    ++session.calls;
    session.last_used_ms = now_milliseconds();
    try {
        store_.save(session);
    } catch (const std::exception& failure) {
        envelope.message += (envelope.message.empty() ? "" : " ") +
                            std::string("(The session could not be saved: ") + failure.what() + ")";
    }
}

mcp::CallToolResult CallRunner::run(const std::string& tool, mcp::ToolCall& call, const ToolBody& body, bool recorded) {
    ToolExecution execution;
    execution.select_tool(tool);
    execution.set_parameters(call.arguments);

    Envelope envelope;
    envelope.tool = tool;
    std::optional<Session> session;
    std::string text;
    ToolOutput output;

    std::atomic<bool> cancelled{false};
    std::size_t callback = call.cancellation().on_cancel([&cancelled] { cancelled.store(true); });
    CallControl control{&cancelled,
                        [&call](double done, double total, std::string message) {
                            call.progress(done, total, std::move(message));
                        },
                        owner_of(call)};

    execution.execute();
    try {
        if (auto session_id = recorded ? optional_string(call.arguments, "sessionId") : std::nullopt) {
            session = store_.load(*session_id);
            if (session && session->owner != control.owner) session.reset();  // another's: as if absent
            if (!session)
                throw ToolError(status_code::not_found, "Session " + *session_id +
                                                            " does not exist or has expired; start one with "
                                                            "create-session, or leave sessionId out.");
            envelope.session_id = session->id;
        }
        output = body(call.arguments, control);
        if (cancelled.load()) {
            execution.cancel();
        } else {
            execution.succeed();
        }
    } catch (const ToolError& error) {
        // Once the client has cancelled, what broke on the way out is part of stopping.
        if (cancelled.load()) {
            execution.cancel();
        } else {
            execution.fail(error.what());
            envelope.code = error.code;
        }
    } catch (const std::exception& error) {
        if (cancelled.load()) {
            execution.cancel();
        } else {
            execution.fail(error.what());
            envelope.code = status_code::internal_error;
        }
    }
    call.cancellation().forget(callback);

    envelope.execution_ms = execution.execution_milliseconds();
    envelope.state = std::string(to_string(execution.state()));
    switch (execution.state()) {
    case CallState::succeeded:
        envelope.data = std::move(output.data);
        text = std::move(output.text);
        break;
    case CallState::cancelled:
        envelope.success = false;
        envelope.code = status_code::cancelled;
        envelope.message = "Cancelled by the client before it finished.";
        text = envelope.message;
        break;
    default:
        envelope.success = false;
        envelope.message = execution.error();
        text = "Error: " + execution.error();
        break;
    }

    if (session)
        record_call(*session, envelope, call.arguments, output.subject,
                    execution.state() == CallState::succeeded ? output.summary : envelope.message, execution.error());
    return to_tool_result(envelope, std::move(text));
}

}  // namespace mcpkit::analyze
