// create-session, get-session-info, get-session-history, clear-session, list-sessions.

#include "analyze/server/AnalyzeServer.hpp"
#include "analyze/server/ToolCatalog.hpp"

#include <mcp/RandomId.hpp>

#include <boost/json.hpp>


namespace mcpkit::analyze {
namespace json = boost::json;

namespace {

json::object session_info(const Session& session) {
    return {{"sessionId", session.id},
            {"created", session.created_ms},
            {"lastUsed", session.last_used_ms},
            {"ttlSeconds", session.ttl_seconds},
            {"expiresAt", session.last_used_ms + session.ttl_seconds * 1000},
            {"calls", session.calls},
            {"historyLength", session.history.size()}};
}

// Another owner's session is answered as if it did not exist, so its id cannot even be confirmed.
Session require_session(SessionStore& store, const json::object& arguments, const CallControl& control) {
    std::string id = required_string(arguments, "sessionId", "a session id from create-session or list-sessions");
    auto session = store.load(id);
    if (!session || session->owner != control.owner)
        throw ToolError(status_code::not_found, "Session " + id + " does not exist or has expired; list-sessions shows the live ones.");
    return *session;
}

}  // namespace

void add_session_tools(mcp::Server& server, CallRunner& runner) {
    auto add = [&](const char* tool_name, ToolBody body) {
        server.add_tool(
            catalog_tool(tool_name),
            [&runner, name = std::string(tool_name), body = std::move(body)](mcp::ToolCall& call) {
                return runner.run(name, call, body, false);
            },
            runner.tool_options(tool_name, true, false));
    };
    SessionStore& store = runner.store();

    add("create-session", [&store, &runner](const json::object& arguments, CallControl& control) {
        store.evict_expired();
        std::size_t held = 0;
        for (const Session& live : store.list()) held += live.owner == control.owner;
        if (held >= runner.policy().max_sessions_per_owner)
            throw ToolError(status_code::too_many, "You hold " + std::to_string(held) +
                                                       " live sessions, the most allowed: clear-session the ones you are done "
                                                       "with, or let them expire.");
        Session session;
        session.id = mcp::random_uuid();
        session.owner = control.owner;
        session.created_ms = session.last_used_ms = now_milliseconds();
        session.ttl_seconds = runner.policy().default_ttl_seconds;
        if (const json::value* ttl = arguments.if_contains("ttlSeconds")) {
            if (!ttl->is_int64() || ttl->get_int64() < 1 || ttl->get_int64() > 604800)
                throw ToolError(status_code::bad_request, "ttlSeconds must be a whole number from 1 to 604800 (a week)");
            session.ttl_seconds = ttl->get_int64();
        }
        store.save(session);
        ToolOutput output;
        output.data = session_info(session);
        output.text = "Session " + session.id + " created; it expires after " + std::to_string(session.ttl_seconds) +
                      " s without use. Pass sessionId to the analysis tools.";
        output.summary = output.text;
        return output;
    });

    add("get-session-info", [&store](const json::object& arguments, CallControl& control) {
        Session session = require_session(store, arguments, control);
        ToolOutput output;
        output.data = session_info(session);
        output.text = "Session " + session.id + ": " + std::to_string(session.calls) + " calls, TTL " +
                      std::to_string(session.ttl_seconds) + " s";
        return output;
    });

    add("get-session-history", [&store](const json::object& arguments, CallControl& control) {
        Session session = require_session(store, arguments, control);
        std::size_t limit = session.history.size();
        if (const json::value* value = arguments.if_contains("limit")) {
            if (!value->is_int64() || value->get_int64() < 1) throw ToolError(status_code::bad_request, "limit must be a whole number, 1 or more");
            limit = std::min(limit, static_cast<std::size_t>(value->get_int64()));
        }
        const json::value* include = arguments.if_contains("includeResults");
        bool with_results = include && include->is_bool() && include->get_bool();
        json::array history;
        std::string text = "Session " + session.id + ", last " + std::to_string(limit) + " calls:\n";
        for (std::size_t i = session.history.size() - limit; i < session.history.size(); ++i) {
            const CallRecord& record = session.history[i];
            history.push_back(to_json(record, with_results));
            text += "  " + record.result_id + " " + record.tool + " " + record.state + ": " + record.summary + "\n";
        }
        ToolOutput output;
        output.data = json::object{{"sessionId", session.id}, {"calls", session.calls}, {"history", std::move(history)}};
        output.text = std::move(text);
        return output;
    });

    add("clear-session", [&store](const json::object& arguments, CallControl& control) {
        std::string id = required_string(arguments, "sessionId", "the session to end");
        std::optional<Session> session = store.load(id);
        bool removed = session && session->owner == control.owner && store.remove(id);
        if (!removed) throw ToolError(status_code::not_found, "Session " + id + " does not exist or has already expired.");
        ToolOutput output;
        output.data = json::object{{"sessionId", id}, {"cleared", true}};
        output.text = "Session " + id + " cleared.";
        return output;
    });

    add("list-sessions", [&store](const json::object&, CallControl& control) {
        store.evict_expired();
        json::array sessions;
        std::string text;
        for (const Session& session : store.list()) {
            if (session.owner != control.owner) continue;
            sessions.push_back(session_info(session));
            text += session.id + ": " + std::to_string(session.calls) + " calls\n";
        }
        ToolOutput output;
        output.text = sessions.empty() ? "No live sessions." : text;
        output.data = json::object{{"store", store.description()}, {"sessions", std::move(sessions)}};
        return output;
    });
}

}  // namespace mcpkit::analyze
