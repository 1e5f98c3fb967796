#include "devconsole/tools/ConfigureModes.hpp"

#include "devconsole/JsonFields.hpp"
#include "devconsole/tools/EventViews.hpp"
#include "devconsole/tools/Interaction.hpp"
#include "devconsole/tools/ToolSupport.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <set>

namespace mcpkit::devconsole {
namespace json = boost::json;
namespace asio = boost::asio;

namespace {

/// A regular expression matching `sample` with its numbers generalized.
std::string pattern_of(std::string_view sample) {
    std::string pattern = "^";
    for (std::size_t i = 0; i < sample.size() && pattern.size() < 200; ++i) {
        char c = sample[i];
        if (c >= '0' && c <= '9') {
            while (i + 1 < sample.size() && sample[i + 1] >= '0' && sample[i + 1] <= '9') ++i;
            pattern += "\\d+";
        } else if (std::string_view("\\^$.|?*+()[]{}/").find(c) != std::string_view::npos) {
            pattern += '\\';
            pattern += c;
        } else {
            pattern += c;
        }
    }
    return pattern;
}

/// Repeated, non-error console messages: each shape seen `threshold` times or more.
json::array detect_noise(DevConsole& console, std::size_t threshold) {
    std::map<std::string, std::pair<std::size_t, std::string>> shapes;
    console.buffers().ring(Stream::logs).visit_after(0, [&](const CapturedEntry& entry) {
        if (level_of(entry) >= LogLevel::error || kind_of(entry) != LogKind::console) return true;
        auto value = json::parse(entry.json);
        auto message = json_fields::text(value.as_object(), "message");
        auto& seen = shapes[message_shape(message)];
        if (seen.first++ == 0) seen.second = message;
        return true;
    });
    json::array added;
    for (const auto& [shape, seen] : shapes) {
        if (seen.first < threshold) continue;
        json::object description{{"category", "console"}, {"message_regex", pattern_of(seen.second)},
                                 {"reason", "repeated " + std::to_string(seen.first) + " times"}};
        auto rule = console.noise_rules().add(description, "auto");
        if (auto* made = std::get_if<NoiseRule>(&rule)) added.push_back(made->to_json());
    }
    return added;
}

}  // namespace

mcp::CallToolResult noise_rule(DevConsole& console, std::string_view what, const json::object& arguments) {
    auto action = string_argument(arguments, "noise_action").value_or("list");
    auto& rules = console.noise_rules();
    if (action == "list") {
        auto list = rules.list();
        auto count = list.size();
        return answer(what, std::to_string(count) + " noise rule(s)", json::object{{"count", count}, {"rules", std::move(list)}});
    }
    if (action == "reset") {
        rules.reset();
        return answer(what, "Noise rules removed; every entry shows again", json::object{{"count", 0}});
    }
    if (action == "remove") {
        auto id = string_argument(arguments, "rule_id");
        if (!id) return failure(what, "missing_rule_id", "\"rule_id\" is required to remove a rule (see noise_action:list)");
        bool removed = rules.remove(*id);
        return answer(what, removed ? "Removed " + *id : "No rule " + *id, json::object{{"removed", removed}});
    }
    if (action == "auto_detect") {
        auto added = detect_noise(console, 10);
        auto count = added.size();
        return answer(what, std::to_string(count) + " repeated message(s) now treated as noise",
                      json::object{{"count", count}, {"rules", std::move(added)}});
    }
    if (action != "add")
        return failure(what, "invalid_argument",
                       "\"noise_action\" is \"" + action + "\": use add, remove, list, reset or auto_detect");
    std::vector<json::object> descriptions;
    if (auto* list = arguments.if_contains("rules"); list && list->is_array()) {
        for (const auto& item : list->get_array())
            if (item.is_object()) descriptions.push_back(item.get_object());
    } else {
        descriptions.push_back(arguments);  // the flattened single-rule form
    }
    json::array added;
    for (std::size_t i = 0; i < descriptions.size(); ++i) {
        auto rule = rules.add(descriptions[i], "manual");
        if (auto* problem = std::get_if<std::string>(&rule))
            return failure(what, "invalid_rule", "rule " + std::to_string(i) + ": " + *problem,
                           json::object{{"added_before_failure", std::move(added)}});
        added.push_back(std::get<NoiseRule>(rule).to_json());
    }
    auto count = added.size();
    return answer(what, "Added " + std::to_string(count) + " noise rule(s)", json::object{{"count", count}, {"rules", std::move(added)}});
}

mcp::CallToolResult SequenceStore::handle(std::string_view what, const json::object& arguments) {
    std::lock_guard lock(mutex_);
    if (what == "list_sequences") {
        json::array list;
        for (const auto& [name, sequence] : sequences_)
            list.push_back(json::object{{"name", name}, {"steps", sequence.at("steps").as_array().size()},
                                        {"description", sequence.at("description")}, {"tags", sequence.at("tags")}});
        auto count = list.size();
        return answer(what, std::to_string(count) + " saved sequence(s)", json::object{{"count", count}, {"sequences", std::move(list)}});
    }
    auto name = string_argument(arguments, "name");
    if (!name || name->empty()) return failure(what, "missing_name", "\"name\" is required: the sequence's name");
    if (what == "save_sequence") {
        auto* steps = arguments.if_contains("steps");
        if (!steps || !steps->is_array() || steps->get_array().empty())
            return failure(what, "missing_steps", "\"steps\" is required: a non-empty array of interact arguments");
        for (std::size_t i = 0; i < steps->get_array().size(); ++i) {
            const auto* step = steps->get_array()[i].if_object();
            if (!step || mode_of(*step, "action").empty())
                return failure(what, "invalid_step", "step " + std::to_string(i) + " must be an object with \"what\" (an interact mode)");
        }
        if (!sequences_.contains(*name) && sequences_.size() >= 200)
            return failure(what, "too_many", "200 sequences saved already: delete some first");
        if (steps->get_array().size() > 100) return failure(what, "too_many_steps", "a sequence has at most 100 steps");
        sequences_[*name] = json::object{{"name", *name}, {"steps", *steps},
                                         {"description", json_fields::text(arguments, "description")},
                                         {"tags", arguments.contains("tags") ? arguments.at("tags") : json::array{}}};
        return answer(what, "Saved sequence " + *name + " (" + std::to_string(steps->get_array().size()) + " steps)",
                      json::object{{"name", *name}, {"steps", steps->get_array().size()}});
    }
    auto it = sequences_.find(*name);
    if (it == sequences_.end()) return failure(what, "unknown_sequence", "No sequence \"" + *name + "\": see list_sequences");
    if (what == "delete_sequence") {
        sequences_.erase(it);
        return answer(what, "Deleted sequence " + *name, json::object{{"deleted", true}});
    }
    return answer(what, "Sequence " + *name, json::object{{"sequence", it->second}});
}

std::optional<json::object> SequenceStore::find(const std::string& name) const {
    std::lock_guard lock(mutex_);
    auto it = sequences_.find(name);
    if (it == sequences_.end()) return std::nullopt;
    return it->second;
}

asio::awaitable<mcp::CallToolResult> replay_sequence(DevConsole& console, const SequenceStore& sequences,
                                                     mcp::ToolCall& call, std::string what, json::object arguments) {
    auto name = string_argument(arguments, "name").value_or("");
    auto sequence = sequences.find(name);
    if (!sequence) co_return failure(what, "unknown_sequence", "No sequence \"" + name + "\": see list_sequences");
    auto steps = sequence->at("steps").as_array();
    const json::array* overrides = nullptr;
    if (auto* value = arguments.if_contains("override_steps"); value && value->is_array()) overrides = &value->get_array();
    bool keep_going = bool_argument(arguments, "continue_on_error").value_or(true);
    auto stop_after = static_cast<std::size_t>(number_argument(arguments, "stop_after_step").value_or(1e9));
    json::array results;
    std::size_t failed = 0;
    for (std::size_t i = 0; i < steps.size() && i < stop_after && !call.cancelled(); ++i) {
        json::object step = steps[i].as_object();
        if (overrides && i < overrides->size() && (*overrides)[i].is_object()) step = (*overrides)[i].get_object();
        step.erase("background");  // a replay waits for each step: the next may depend on it
        auto result = co_await run_interact(console, call, step);
        auto fields = result.structured_content ? result.structured_content->as_object() : json::object{};
        bool ok = !result.is_error && json_fields::text(fields, "status") == "complete";
        if (!ok) ++failed;
        results.push_back(json::object{{"step", i}, {"what", mode_of(step, "action")}, {"status", json_fields::text(fields, "status")},
                                       {"ok", ok}, {"error", json_fields::text(fields, "error")}});
        if (!ok && !keep_going) break;
    }
    auto count = results.size();
    auto summary = "Replayed " + std::to_string(count) + " of " + std::to_string(steps.size()) + " step(s) of " + name +
                   (failed ? ", " + std::to_string(failed) + " failed" : "");
    auto replayed = answer(what, summary, json::object{{"name", name}, {"steps", std::move(results)}, {"failed", failed}});
    replayed.is_error = failed > 0;
    co_return replayed;
}

json::object SessionSnapshots::capture(DevConsole& console, const std::string& url_filter) const {
    std::set<std::string> errors, failed_requests;
    std::size_t warnings = 0;
    console.buffers().ring(Stream::logs).visit_after(0, [&](const CapturedEntry& entry) {
        auto value = json::parse(entry.json).as_object();
        if (!url_filter.empty() && json_fields::text(value, "url").find(url_filter) == std::string::npos) return true;
        if (level_of(entry) == LogLevel::error || kind_of(entry) == LogKind::exception)
            errors.insert(message_shape(json_fields::text(value, "message")));
        else if (level_of(entry) == LogLevel::warn)
            ++warnings;
        return true;
    });
    console.buffers().ring(Stream::network_bodies).visit_after(0, [&](const CapturedEntry& entry) {
        auto value = json::parse(entry.json).as_object();
        if (json_fields::number(value, "status") >= 400)
            failed_requests.insert(json_fields::text(value, "method") + " " + message_shape(json_fields::text(value, "url")) + " " +
                                   std::to_string(static_cast<int>(json_fields::number(value, "status"))));
        return true;
    });
    json::array error_list, request_list;
    for (const auto& error : errors) error_list.push_back(json::value(error));
    for (const auto& request : failed_requests) request_list.push_back(json::value(request));
    return json::object{{"captured_at", format_iso_time(wall_clock_ms())}, {"url", console.link().tracked_tab().url},
                        {"errors", std::move(error_list)}, {"failed_requests", std::move(request_list)},
                        {"warnings", warnings}};
}

mcp::CallToolResult SessionSnapshots::handle(DevConsole& console, std::string_view what, const json::object& arguments) {
    auto action = string_argument(arguments, "verif_session_action").value_or("list");
    std::lock_guard lock(mutex_);
    if (action == "list") {
        json::array names;
        for (const auto& [name, snapshot] : snapshots_) names.push_back(json::value(name));
        auto count = names.size();
        return answer(what, std::to_string(count) + " snapshot(s)", json::object{{"count", count}, {"snapshots", std::move(names)}});
    }
    if (action == "capture" || action == "delete") {
        auto name = string_argument(arguments, "name");
        if (!name) return failure(what, "missing_name", "\"name\" is required to " + action + " a snapshot");
        if (action == "delete")
            return answer(what, "Deleted " + *name, json::object{{"deleted", snapshots_.erase(*name) > 0}});
        if (!snapshots_.contains(*name) && snapshots_.size() >= 100)
            return failure(what, "too_many", "100 snapshots kept already: delete some first");
        auto snapshot = capture(console, string_argument(arguments, "url").value_or(""));
        snapshots_[*name] = snapshot;
        return answer(what, "Captured " + *name, json::object{{"name", *name}, {"snapshot", std::move(snapshot)}});
    }
    if (action != "compare")
        return failure(what, "invalid_argument", "\"verif_session_action\" is \"" + action + "\": use capture, compare, list or delete");
    auto a_name = string_argument(arguments, "compare_a"), b_name = string_argument(arguments, "compare_b");
    if (!a_name || !b_name) return failure(what, "missing_compare", "\"compare_a\" and \"compare_b\" name the snapshots to compare");
    auto a = snapshots_.find(*a_name), b = snapshots_.find(*b_name);
    if (a == snapshots_.end() || b == snapshots_.end())
        return failure(what, "unknown_snapshot", "Capture both snapshots first (verif_session_action: capture)");
    auto difference = [](const json::value& from, const json::value& to) {
        std::set<std::string> before;
        for (const auto& item : from.as_array()) before.insert(std::string(item.as_string()));
        json::array added;
        for (const auto& item : to.as_array())
            if (!before.contains(std::string(item.as_string()))) added.push_back(item);
        return added;
    };
    json::object diff{{"new_errors", difference(a->second.at("errors"), b->second.at("errors"))},
                      {"resolved_errors", difference(b->second.at("errors"), a->second.at("errors"))},
                      {"new_failed_requests", difference(a->second.at("failed_requests"), b->second.at("failed_requests"))},
                      {"resolved_failed_requests", difference(b->second.at("failed_requests"), a->second.at("failed_requests"))}};
    auto fresh = diff.at("new_errors").as_array().size(), resolved = diff.at("resolved_errors").as_array().size();
    return answer(what, std::to_string(fresh) + " new error(s), " + std::to_string(resolved) + " resolved, from " + *a_name +
                            " to " + *b_name,
                  json::object{{"compare_a", *a_name}, {"compare_b", *b_name}, {"diff", std::move(diff)},
                               {"verdict", fresh == 0 ? "no new errors" : "regressed"}});
}

}  // namespace mcpkit::devconsole
