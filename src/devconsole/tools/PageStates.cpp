#include "devconsole/tools/PageStates.hpp"

#include "devconsole/JsonFields.hpp"
#include "devconsole/tools/CommandCall.hpp"
#include "devconsole/tools/Interaction.hpp"
#include "devconsole/tools/ToolSupport.hpp"

#include <boost/json.hpp>

namespace mcpkit::devconsole {
namespace json = boost::json;
namespace asio = boost::asio;

namespace {

/// "state_save" → "save_state": the original schema lists both spellings.
std::string canonical(std::string_view what) {
    if (what == "state_save") return "save_state";
    if (what == "state_load") return "load_state";
    if (what == "state_list") return "list_states";
    if (what == "state_delete") return "delete_state";
    return std::string(what);
}

bool succeeded(const mcp::CallToolResult& result) {
    if (result.is_error || !result.structured_content) return false;
    auto* fields = result.structured_content->if_object();
    return fields && json_fields::text(*fields, "status") == "complete";
}

}  // namespace

void PageStateStore::save(const std::string& name, json::object state) {
    std::lock_guard lock(mutex_);
    states_[name] = std::move(state);
}

std::optional<json::object> PageStateStore::find(const std::string& name) const {
    std::lock_guard lock(mutex_);
    auto it = states_.find(name);
    if (it == states_.end()) return std::nullopt;
    return it->second;
}

bool PageStateStore::remove(const std::string& name) {
    std::lock_guard lock(mutex_);
    return states_.erase(name) > 0;
}

json::array PageStateStore::list() const {
    std::lock_guard lock(mutex_);
    json::array names;
    for (const auto& [name, state] : states_)
        names.push_back(json::object{{"name", name}, {"url", state.at("url")}, {"saved_at", state.at("saved_at")}});
    return names;
}

bool is_page_state_mode(std::string_view what) {
    auto mode = canonical(what);
    return mode == "save_state" || mode == "load_state" || mode == "list_states" || mode == "delete_state";
}

asio::awaitable<mcp::CallToolResult> run_page_state(DevConsole& console, mcp::ToolCall& call,
                                                    std::string what, json::object arguments) {
    auto& store = console.page_states();
    auto mode = canonical(what);
    if (mode == "list_states") {
        auto states = store.list();
        auto count = states.size();
        co_return answer(what, std::to_string(count) + " saved page state(s)",
                         json::object{{"count", count}, {"states", std::move(states)}});
    }
    auto name = string_argument(arguments, "snapshot_name");
    if (!name || name->empty())
        co_return failure(what, "missing_snapshot_name", "\"snapshot_name\" is required: the state's name");
    if (mode == "delete_state") {
        bool removed = store.remove(*name);
        co_return answer(what, removed ? "Deleted state " + *name : "No state " + *name, json::object{{"deleted", removed}});
    }
    if (mode == "save_state") {
        CommandRequest read;
        read.what = what;
        read.type = "storage";
        read.prefix = "state";
        read.params = json::object{{"what", "storage"}};
        read.origin = "interact " + what;
        auto snapshot = co_await run_command(console, call, read);
        if (!succeeded(snapshot)) co_return snapshot;
        json::object result = snapshot.structured_content->as_object().at("result").as_object();
        json::object state{{"url", json_fields::text(result, "url")},
                           {"saved_at", format_iso_time(wall_clock_ms())},
                           {"local_storage", result.contains("local_storage") ? result.at("local_storage") : json::object{}},
                           {"session_storage", result.contains("session_storage") ? result.at("session_storage") : json::object{}},
                           {"cookies", result.contains("cookies") ? result.at("cookies") : json::object{}}};
        auto summary = "Saved state " + *name + " of " + json_fields::text(result, "url");
        if (!store.find(*name) && store.list().size() >= 100)
            co_return failure(what, "too_many", "100 page states saved already: delete some first");
        store.save(*name, state);
        co_return answer(what, summary, json::object{{"snapshot_name", *name}, {"state", std::move(state)}});
    }
    // load_state: navigate back (include_url), then replace both storages and set the cookies.
    auto state = store.find(*name);
    if (!state) co_return failure(what, "unknown_snapshot", "No state \"" + *name + "\": list them with list_states");
    std::size_t writes = 0;
    std::vector<json::object> steps;
    if (bool_argument(arguments, "include_url").value_or(false) && !json_fields::text(*state, "url").empty())
        steps.push_back(json::object{{"what", "navigate"}, {"url", state->at("url")}});
    for (auto [field, area] : {std::pair{"local_storage", "localStorage"}, std::pair{"session_storage", "sessionStorage"}}) {
        steps.push_back(json::object{{"what", "clear_storage"}, {"storage_type", area}});
        const auto* stored = state->at(field).if_object();
        const json::object* items = stored && stored->contains("items") ? stored->at("items").if_object() : nullptr;
        if (!items) continue;
        for (const auto& [key, value] : *items)
            steps.push_back(json::object{{"what", "set_storage"}, {"storage_type", area}, {"key", key},
                                         {"value", value.is_string() ? value : json::value(json::serialize(value))}});
    }
    if (const auto* cookies = state->at("cookies").if_object())
        for (const auto& [key, value] : *cookies)
            steps.push_back(json::object{{"what", "set_cookie"}, {"name", key}, {"value", value}});
    for (auto& step : steps) {
        auto done = co_await run_interact(console, call, std::move(step));
        if (!succeeded(done)) co_return done;
        ++writes;
    }
    co_return answer(what, "Restored state " + *name + " (" + std::to_string(writes) + " step(s))",
                     json::object{{"snapshot_name", *name}, {"steps", writes}, {"url", state->at("url")}});
}

}  // namespace mcpkit::devconsole
