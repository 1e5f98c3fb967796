// observe: reads what the extension captured (no command needed), and the page state that only
// the extension can read (page, tabs, waterfall, screenshot, storage).

#include "devconsole/tools/CommandCall.hpp"
#include "devconsole/tools/DevConsoleTools.hpp"
#include "devconsole/tools/EventViews.hpp"
#include "devconsole/tools/RingQuery.hpp"
#include "devconsole/tools/ToolSupport.hpp"

#include <boost/json.hpp>

namespace mcpkit::devconsole {
namespace json = boost::json;
namespace asio = boost::asio;

namespace {

constexpr std::string_view description =
    "Read what the browser extension captured, and the page's state.\n"
    "Captured (instant): logs (console, uncaught errors, failed requests; scope current_page|all, level, min_level, "
    "source, url), errors, extension_logs, network_bodies (fetch/XHR bodies; url, method, status_min/max, "
    "body_key, body_path), websocket_events (frames; connection_id, direction, url), websocket_status, actions, "
    "vitals (LCP, CLS, INP, load timing), timeline, error_bundles (context around each error), summarized_logs, "
    "history, pilot.\nFrom the page (a command to the extension): page, tabs, network_waterfall, screenshot "
    "(returned as a resource link), storage.\nCommands: command_result (correlation_id), pending_commands, "
    "failed_commands.\nPaging: limit (default 100, max 1000), last_n, and the cursors of metadata: before_cursor "
    "(older), after_cursor / since_cursor (newer); restart_on_eviction:true if a cursor's entries were evicted.\n"
    "indexeddb: the databases, a database's stores (database), or a store's records (database, store, limit).";

mcp::CallToolResult list_answer(std::string_view what, RingAnswer found, std::string_view noun) {
    auto count = found.entries.size();
    json::object fields{{"count", count}, {"entries", std::move(found.entries)}, {"metadata", std::move(found.metadata)}};
    return answer(what, std::to_string(count) + " " + std::string(noun), std::move(fields));
}

mcp::CallToolResult read_ring(DevConsole& console, std::string_view what, const json::object& arguments, Stream stream,
                              RingQuery query, std::string_view noun) {
    auto& ring = console.buffers().ring(stream);
    if (auto problem = read_paging(arguments, ring, query)) return failure(what, "invalid_cursor", *problem);
    return list_answer(what, run_query(ring, query), noun);
}

mcp::CallToolResult observe_commands(DevConsole& console, std::string_view what, const json::object& arguments) {
    if (what == "command_result") {
        auto id = string_argument(arguments, "correlation_id");
        if (!id || id->empty())
            return failure(what, "missing_correlation_id",
                           "\"correlation_id\" is required: the id a queued or still_processing answer gave");
        auto snapshot = console.commands().find(*id);
        if (!snapshot)
            return failure(what, "unknown_correlation_id",
                           "No command \"" + *id + "\": it never existed here, or its result was dropped after "
                           "10 minutes (or the daemon restarted)");
        return command_answer(*snapshot, what);
    }
    std::vector<CommandSnapshot> list = what == "pending_commands"
                                            ? console.commands().pending()
                                            : console.commands().failed(limit_argument(arguments, "limit", 100, 1000));
    json::array entries;
    for (const auto& snapshot : list) {
        json::object entry{{"correlation_id", snapshot.correlation_id},
                           {"command_id", snapshot.id},
                           {"type", snapshot.type},
                           {"origin", snapshot.origin},
                           {"status", to_string(snapshot.status)},
                           {"created_at", format_iso_time(snapshot.created_ms)},
                           {"elapsed_ms", snapshot.elapsed_ms},
                           {"delivered", snapshot.delivery_ms >= 0}};
        if (!snapshot.error.empty()) entry["error"] = snapshot.error;
        entries.push_back(std::move(entry));
    }
    auto count = entries.size();
    return answer(what, std::to_string(count) + (what == "pending_commands" ? " pending" : " failed") + " command(s)",
                  json::object{{"count", count},
                               {"entries", std::move(entries)},
                               {"metadata", json::object{{"queue_cap", console.options().commands.max_pending}}}});
}

std::string indexeddb_script(const json::object& arguments) {
    auto quoted = [](const std::optional<std::string>& text) { return text ? json::serialize(json::value(*text)) : std::string("null"); };
    auto limit = limit_argument(arguments, "limit", 100, 1000);
    return "(async () => {\n"
           "  const limit = " + std::to_string(limit) + ", wantedDb = " + quoted(string_argument(arguments, "database")) +
           ", wantedStore = " + quoted(string_argument(arguments, "store")) + ";\n"
           "  const request = (r) => new Promise((ok, fail) => { r.onsuccess = () => ok(r.result); r.onerror = () => fail(r.error); });\n"
           "  if (!wantedDb) return { databases: (await indexedDB.databases()).map((d) => ({ name: d.name, version: d.version })) };\n"
           "  const db = await new Promise((ok, fail) => { const r = indexedDB.open(wantedDb); r.onsuccess = () => ok(r.result);\n"
           "    r.onerror = () => fail(r.error); r.onupgradeneeded = () => { r.transaction.abort(); fail(new Error('no database ' + wantedDb)); }; });\n"
           "  try {\n"
           "    const stores = Array.from(db.objectStoreNames);\n"
           "    if (!wantedStore) return { database: wantedDb, version: db.version, stores };\n"
           "    if (!stores.includes(wantedStore)) return { error: 'no object store ' + wantedStore, stores };\n"
           "    const store = db.transaction(wantedStore, 'readonly').objectStore(wantedStore);\n"
           "    return { database: wantedDb, store: wantedStore, count: await request(store.count()),\n"
           "             records: await request(store.getAll(null, limit)) };\n"
           "  } finally { db.close(); }\n"
           "})()";
}

}  // namespace

void add_observe_tool(mcp::Server& server, DevConsole& console) {
    auto tool = make_tool("observe", std::string(description));
    tool.annotations = json::object{{"readOnlyHint", true}, {"openWorldHint", false}};
    server.add_tool(tool, audited(console, "observe", [&console](mcp::ToolCall& call) -> asio::awaitable<mcp::CallToolResult> {
        const auto& arguments = call.arguments;
        auto what = mode_of(arguments);
        auto tracked = console.link().tracked_tab().id;
        if (what == "logs" || what == "errors") {
            RingQuery query;
            if (auto problem = log_query(arguments, tracked, what == "errors", query, console.noise_rules()))
                co_return failure(what, "invalid_argument", *problem);
            co_return read_ring(console, what, arguments, Stream::logs, std::move(query),
                                what == "errors" ? "error(s)" : "log entries");
        }
        if (what == "extension_logs")
            co_return read_ring(console, what, arguments, Stream::extension_logs, RingQuery{}, "extension log lines");
        if (what == "network_bodies")
            co_return read_ring(console, what, arguments, Stream::network_bodies, network_query(arguments, console.artifacts(), console.noise_rules()),
                                "network bodies");
        if (what == "websocket_events")
            co_return read_ring(console, what, arguments, Stream::websocket, websocket_query(arguments), "WebSocket events");
        if (what == "actions")
            co_return read_ring(console, what, arguments, Stream::actions, url_query(arguments), "user actions");
        if (what == "websocket_status") co_return websocket_status(console.buffers().ring(Stream::websocket), what);
        if (what == "vitals") co_return vitals(console.buffers().ring(Stream::performance), what, arguments);
        if (what == "timeline") co_return timeline(console.buffers(), what, arguments, tracked);
        if (what == "error_bundles") co_return error_bundles(console.buffers(), what, arguments, tracked);
        if (what == "summarized_logs") co_return summarized_logs(console.buffers().ring(Stream::logs), what, arguments, tracked);
        if (what == "history") co_return navigation_history(console.buffers(), what, arguments);
        if (what == "pilot") {
            auto status = console.link().status();
            bool connected = status.at("extension_connected").as_bool();
            co_return answer(what, connected ? "The extension is connected" : "The extension is not connected",
                             json::object{{"pilot_enabled", connected}, {"extension", std::move(status)}});
        }
        if (what == "command_result" || what == "pending_commands" || what == "failed_commands")
            co_return observe_commands(console, what, arguments);
        CommandRequest request;
        request.what = what;
        request.params = arguments;
        request.origin = "observe " + what;
        if (what == "page") request.type = "page_info";
        if (what == "tabs") request.type = "tabs";
        if (what == "network_waterfall") request.type = "waterfall";
        if (what == "storage") request.type = "storage";
        if (what == "screenshot") request.type = "screenshot";
        if (!request.type.empty()) {
            request.prefix = request.type;
            ResultShaper shape;
            if (what == "screenshot") shape = screenshot_shaper(console.artifacts(), what);
            co_return co_await run_command(console, call, request, shape);
        }
        if (what == "indexeddb") {
            // Read in the page (IndexedDB belongs to its origin): a script, so a strict CSP refuses it with the reason.
            request.type = "execute";
            request.prefix = "indexeddb";
            request.params = arguments;
            request.params["what"] = "execute_js";
            request.params["script"] = indexeddb_script(arguments);
            request.params["timeout_ms"] = 10000;
            co_return co_await run_command(console, call, request);
        }
        if (what == "saved_videos" || what == "recordings" || what == "recording_actions" || what == "playback_results" ||
            what == "log_diff_report")
            co_return unsupported("observe", what,
                                  "tab recording and playback are not part of mcpkit devconsole; actions, logs and "
                                  "network are captured continuously instead (observe timeline)");
        co_return unknown_mode("observe", what);
    }));
}

}  // namespace mcpkit::devconsole
