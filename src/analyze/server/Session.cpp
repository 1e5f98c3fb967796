#include "analyze/server/SessionStore.hpp"
#include "common/StoreLocation.hpp"

#include <mcp/JsonFields.hpp>

#include <boost/json.hpp>

#include <stdexcept>

namespace mcpkit::analyze {
namespace json = boost::json;

using mcp::json_fields::integer;
using mcp::json_fields::number;
using mcp::json_fields::text;

std::int64_t now_milliseconds() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

json::object to_json(const CallRecord& record, bool with_result) {
    json::object object{{"resultId", record.result_id},   {"tool", record.tool},
                        {"state", record.state},          {"subject", record.subject},
                        {"parameters", record.parameters}, {"summary", record.summary},
                        {"timestamp", record.timestamp_ms}, {"executionTime", record.execution_ms}};
    if (!record.error.empty()) object["error"] = record.error;
    if (with_result) object["result"] = record.result;
    return object;
}

CallRecord call_record_from_json(const json::object& object) {
    CallRecord record;
    record.result_id = text(object, "resultId");
    record.tool = text(object, "tool");
    record.state = text(object, "state");
    record.subject = text(object, "subject");
    if (const json::value* parameters = object.if_contains("parameters")) record.parameters = *parameters;
    if (const json::value* result = object.if_contains("result")) record.result = *result;
    record.summary = text(object, "summary");
    record.error = text(object, "error");
    record.timestamp_ms = integer(object, "timestamp");
    record.execution_ms = number(object, "executionTime");
    return record;
}

json::object to_json(const Session& session) {
    json::array history;
    for (const CallRecord& record : session.history) history.push_back(to_json(record, true));
    json::object object{{"id", session.id},
                        {"created", session.created_ms},
                        {"lastUsed", session.last_used_ms},
                        {"ttlSeconds", session.ttl_seconds},
                        {"calls", session.calls},
                        {"history", std::move(history)}};
    if (!session.owner.empty()) object["owner"] = session.owner;
    return object;
}

Session session_from_json(const json::object& object) {
    Session session;
    session.id = text(object, "id");
    if (session.id.empty()) throw std::runtime_error("stored session has no id");
    session.owner = text(object, "owner");
    session.created_ms = integer(object, "created");
    session.last_used_ms = integer(object, "lastUsed");
    session.ttl_seconds = integer(object, "ttlSeconds");
    session.calls = integer(object, "calls");
    if (const json::value* history = object.if_contains("history"); history && history->is_array())
        for (const json::value& record : history->get_array())
            if (record.is_object()) session.history.push_back(call_record_from_json(record.get_object()));
    return session;
}

std::unique_ptr<SessionStore> make_session_store(const std::string& specification) {
    StoreLocation location = parse_store_location(specification);
    switch (location.kind) {
    case StoreLocation::Kind::sqlite: return make_sqlite_session_store(location.path);
    case StoreLocation::Kind::redis: return make_redis_session_store(location.url);
    case StoreLocation::Kind::memory: break;
    }
    return make_memory_session_store();
}

}  // namespace mcpkit::analyze
