// configure: the daemon's state and utilities: health, clearing buffers, a small key-value store
// for the assistant's notes, test boundaries in the logs, and what the daemon can do.

#include "devconsole/tools/ConfigureModes.hpp"
#include "devconsole/tools/DevConsoleTools.hpp"
#include "devconsole/tools/ToolSupport.hpp"

#include <boost/json.hpp>

#include <map>
#include <mutex>

namespace mcpkit::devconsole {
namespace json = boost::json;
namespace asio = boost::asio;

namespace {

constexpr std::string_view description =
    "The daemon's state and utilities. health (daemon, extension, buffers, queue), doctor (what is wrong and how "
    "to fix it), clear (buffer: logs, network, websocket, actions, all), store / load (store_action save|load|list|"
    "delete|stats, namespace, key, data or value: notes kept while the daemon runs), test_boundary_start / "
    "test_boundary_end (test_id, label: a marker in the logs), noise_rule (noise_action add|remove|list|reset|"
    "auto_detect: console or network entries to leave out of reads; rules, or one flattened: message_regex, "
    "source_regex, url_regex, method, status_min/max, level, category, reason), save_sequence / get_sequence / "
    "list_sequences / delete_sequence / replay_sequence (name, steps: interact arguments; override_steps, "
    "continue_on_error, stop_after_step), diff_sessions (verif_session_action capture|compare|list|delete: errors "
    "and failed requests before and after a fix), audit_log (tool_name, since, limit), describe_capabilities "
    "(every mode and whether it is served), tutorial / examples (how to use the tools).";

constexpr std::string_view tutorial_text =
    "1. The user installs the mcpkit devconsole extension (extensions/chrome) and presses \"Track this tab\" on the "
    "page to debug.\n2. Read what happened: observe({what:'errors'}), observe({what:'logs', min_level:'warn'}), "
    "observe({what:'network_bodies', status_min:400}), observe({what:'websocket_events'}), observe({what:'actions'}).\n"
    "3. Act: interact({what:'click', selector:'text=Save'}), interact({what:'type', selector:'#email', "
    "text:'a@b.c'}), interact({what:'execute_js', script:'document.title'}), interact({what:'navigate', url:'…'}).\n"
    "4. Look closer: analyze({what:'accessibility'}), analyze({what:'dom', selector:'form'}), "
    "analyze({what:'error_clusters'}).\n5. Produce: generate({what:'reproduction'}) (a Playwright script from the "
    "user's actions), generate({what:'har'}), generate({what:'pr_summary'}).\nLong commands answer "
    "still_processing after 15 s: fetch them with observe({what:'command_result', correlation_id}).";

struct NoteStore {
    std::mutex mutex;
    std::map<std::string, std::map<std::string, json::value>> namespaces;
};

mcp::CallToolResult store_notes(NoteStore& store, std::string_view what, const json::object& arguments) {
    auto action = string_argument(arguments, "store_action").value_or(what == "load" ? "load" : "list");
    if (what == "store" && !arguments.contains("store_action") && (arguments.contains("data") || arguments.contains("value")))
        action = "save";
    auto space = string_argument(arguments, "namespace").value_or("session");
    auto key = string_argument(arguments, "key");
    std::lock_guard lock(store.mutex);
    auto& entries = store.namespaces[space];
    if (action == "save") {
        if (!key) return failure(what, "missing_key", "\"key\" is required to save");
        json::value data = arguments.contains("data") ? arguments.at("data") : json::value(nullptr);
        if (data.is_null()) {
            auto value = string_argument(arguments, "value");
            if (!value) return failure(what, "missing_data", "\"data\" (any JSON) or \"value\" (text) is required to save");
            data = json::value(*value);
        }
        if (json::serialize(data).size() > 1024 * 1024) return failure(what, "too_large", "\"data\" is over 1 MB");
        if (!entries.contains(*key) && entries.size() >= 1000)
            return failure(what, "too_many", "1000 keys in " + space + " already: delete some first");
        entries[*key] = std::move(data);
        return answer(what, "Saved " + space + "/" + *key, json::object{{"namespace", space}, {"key", *key}});
    }
    if (action == "load") {
        if (!key) return failure(what, "missing_key", "\"key\" is required to load");
        auto it = entries.find(*key);
        if (it == entries.end()) return failure(what, "not_found", "Nothing saved under " + space + "/" + *key);
        return answer(what, "Loaded " + space + "/" + *key,
                      json::object{{"namespace", space}, {"key", *key}, {"data", it->second}});
    }
    if (action == "delete") {
        if (!key) return failure(what, "missing_key", "\"key\" is required to delete");
        bool removed = entries.erase(*key) > 0;
        return answer(what, removed ? "Deleted " + space + "/" + *key : "Nothing under " + space + "/" + *key,
                      json::object{{"deleted", removed}});
    }
    if (action == "list" || action == "stats") {
        json::array keys;
        for (const auto& [name, value] : entries) keys.push_back(json::value(name));
        auto count = keys.size();
        return answer(what, std::to_string(count) + " key(s) in " + space,
                      json::object{{"namespace", space}, {"count", count}, {"keys", std::move(keys)}});
    }
    return failure(what, "invalid_argument", "\"store_action\" is \"" + action + "\": use save, load, list, delete or stats");
}

mcp::CallToolResult doctor(DevConsole& console, std::string_view what) {
    auto health = json::parse(console.health()).as_object();
    const auto& capture = health.at("capture").as_object();
    json::array problems;
    if (!capture.at("extension_connected").as_bool())
        problems.push_back(json::value(
            "The extension is not connected: install extensions/chrome (chrome://extensions, Load unpacked), check its "
            "daemon URL is http://localhost:" + std::to_string(console.options().port) + " in its options"));
    else if (capture.at("tracked_tab_id").as_int64() == 0)
        problems.push_back(json::value("No tab is tracked: open the page and press \"Track this tab\" in the extension popup"));
    if (auto* csp = capture.if_contains("csp_restricted"); csp && csp->is_bool() && csp->get_bool())
        problems.push_back(json::value("The tracked page has a strict Content-Security-Policy: execute_js is refused; "
                                       "DOM actions (click, type, get_text) still work"));
    const auto& logs = health.at("buffers").as_object().at("logs").as_object();
    if (logs.at("evicted").to_number<std::uint64_t>() > 0)
        problems.push_back(json::value("The log buffer evicted " + json::serialize(logs.at("evicted")) +
                                       " entries: read more often, or start the daemon with a larger --max-entries"));
    auto count = problems.size();
    return answer(what, count ? std::to_string(count) + " problem(s) found" : "Everything looks right",
                  json::object{{"problems", std::move(problems)}, {"health", std::move(health)}});
}

struct ConfigureStores {
    NoteStore notes;
    SequenceStore sequences;
    SessionSnapshots snapshots;
};

asio::awaitable<mcp::CallToolResult> run_configure(DevConsole& console, ConfigureStores& stores, mcp::ToolCall& call) {
    const auto& arguments = call.arguments;
    auto what = mode_of(arguments, "action");
    if (what == "noise_rule") co_return noise_rule(console, what, arguments);
    if (what == "save_sequence" || what == "get_sequence" || what == "list_sequences" || what == "delete_sequence")
        co_return stores.sequences.handle(what, arguments);
    if (what == "replay_sequence") co_return co_await replay_sequence(console, stores.sequences, call, what, arguments);
    if (what == "diff_sessions") co_return stores.snapshots.handle(console, what, arguments);
    if (what == "audit_log") co_return console.audit_log().handle(what, arguments);
    if (what == "health") {
        auto health = json::parse(console.health()).as_object();
        bool connected = health.at("capture").as_object().at("extension_connected").as_bool();
        co_return answer(what, connected ? "Daemon up, extension connected" : "Daemon up, extension NOT connected",
                      std::move(health));
    }
    if (what == "doctor") co_return doctor(console, what);
    if (what == "clear") {
        auto buffer = string_argument(arguments, "buffer").value_or("all");
        std::vector<Stream> streams;
        if (buffer == "logs") streams = {Stream::logs, Stream::extension_logs};
        else if (buffer == "network") streams = {Stream::network_bodies};
        else if (buffer == "websocket") streams = {Stream::websocket};
        else if (buffer == "actions") streams = {Stream::actions};
        else if (buffer == "all")
            streams = {Stream::logs, Stream::network_bodies, Stream::websocket, Stream::actions, Stream::performance,
                       Stream::extension_logs};
        else
            co_return failure(what, "invalid_argument",
                           "\"buffer\" is \"" + buffer + "\": use network, websocket, actions, logs or all");
        for (auto stream : streams) console.buffers().clear(stream);
        co_return answer(what, "Cleared " + buffer, json::object{{"buffer", buffer}});
    }
    if (what == "store" || what == "load") co_return store_notes(stores.notes, what, arguments);
    if (what == "test_boundary_start" || what == "test_boundary_end") {
        auto test_id = string_argument(arguments, "test_id").value_or("test");
        auto label = string_argument(arguments, "label").value_or(test_id);
        bool start = what == "test_boundary_start";
        json::array marker{json::object{{"level", "info"},
                                        {"type", "console"},
                                        {"source", "devconsole"},
                                        {"message", std::string(start ? "[test start] " : "[test end] ") + label},
                                        {"test_id", test_id}}};
        console.buffers().ingest_array(Stream::logs, marker);
        co_return answer(what, std::string(start ? "Started" : "Ended") + " test boundary " + test_id,
                      json::object{{"test_id", test_id}, {"label", label}});
    }
    if (what == "tutorial" || what == "examples")
        co_return answer(what, "How to use the devconsole tools", json::object{{"guide", tutorial_text}});
    if (what == "describe_capabilities") {
        json::object tools;
        for (std::string_view name : {"observe", "analyze", "interact", "configure", "generate"}) {
            json::array modes;
            for (const auto& mode : tool_modes(name)) modes.push_back(json::value(mode));
            tools[name] = std::move(modes);
        }
        co_return answer(what, "The five tools and their modes; a mode that is not served answers why",
                      json::object{{"tools", std::move(tools)},
                                   {"queue_cap", console.options().commands.max_pending},
                                   {"tool_wait_ms", console.options().tool_wait.count()}});
    }
    if (what == "telemetry")
        co_return answer(what, "Every answer carries its metadata; there is no telemetry to switch",
                      json::object{{"telemetry_mode", "full"}});
    if (what == "recording_start" || what == "recording_stop" || what == "playback" || what == "log_diff")
        co_return unsupported("configure", what,
                           "tab recording and playback are not part of mcpkit devconsole; diff_sessions compares "
                           "errors and failed requests before and after a change");
    if (what == "streaming")
        co_return unsupported("configure", what,
                           "the daemon does not push events to the assistant; read what is new with "
                           "observe({what:'logs', after_cursor}) from the previous answer's cursor");
    if (what == "restart")
        co_return unsupported("configure", what,
                           "a daemon that answers this is not stuck; stop it with SIGTERM (mcpkit devconsole "
                           "--stdio starts a new one on the next call)");
    if (what == "security_mode")
        co_return unsupported("configure", what,
                           "mcpkit never rewrites a page's security headers (the original's insecure_proxy mode)");
    co_return unknown_mode("configure", what);
}

}  // namespace

void add_configure_tool(mcp::Server& server, DevConsole& console) {
    auto tool = make_tool("configure", std::string(description));
    auto stores = std::make_shared<ConfigureStores>();
    server.add_tool(tool, audited(console, "configure", [&console, stores](mcp::ToolCall& call) -> asio::awaitable<mcp::CallToolResult> {
        co_return co_await run_configure(console, *stores, call);
    }));
}

}  // namespace mcpkit::devconsole
