#include "devconsole/capture/NoiseRules.hpp"

#include "devconsole/JsonFields.hpp"

#include <boost/json.hpp>

#include <algorithm>

namespace mcpkit::devconsole {
namespace json = boost::json;

json::object NoiseRule::to_json() const {
    json::object rule{{"id", id}, {"category", category}, {"classification", classification}};
    if (!level.empty()) rule["level"] = level;
    if (!message_regex.empty()) rule["message_regex"] = message_regex;
    if (!source_regex.empty()) rule["source_regex"] = source_regex;
    if (!url_regex.empty()) rule["url_regex"] = url_regex;
    if (!method.empty()) rule["method"] = method;
    if (status_min) rule["status_min"] = *status_min;
    if (status_max) rule["status_max"] = *status_max;
    if (!reason.empty()) rule["reason"] = reason;
    return rule;
}

std::variant<NoiseRule, std::string> NoiseRules::add(const json::object& description, std::string classification) {
    NoiseRule rule;
    rule.classification = std::move(classification);
    rule.category = json_fields::text(description, "category");
    if (rule.category.empty()) rule.category = "console";
    if (rule.category != "console" && rule.category != "network" && rule.category != "websocket")
        return "\"category\" is \"" + rule.category + "\": use console, network or websocket";
    rule.level = json_fields::text(description, "level");
    rule.message_regex = json_fields::text(description, "message_regex");
    if (rule.message_regex.empty()) rule.message_regex = json_fields::text(description, "pattern");
    rule.source_regex = json_fields::text(description, "source_regex");
    rule.url_regex = json_fields::text(description, "url_regex");
    rule.method = json_fields::text(description, "method");
    if (auto* value = description.if_contains("status_min"); value && value->is_number()) rule.status_min = value->to_number<double>();
    if (auto* value = description.if_contains("status_max"); value && value->is_number()) rule.status_max = value->to_number<double>();
    rule.reason = json_fields::text(description, "reason");
    if (rule.message_regex.empty() && rule.source_regex.empty() && rule.url_regex.empty() && rule.method.empty() &&
        !rule.status_min && !rule.status_max && rule.level.empty())
        return std::string("a rule needs something to match: message_regex (or pattern), source_regex, url_regex, "
                           "method, status_min/status_max or level");
    // The polynomial executor: the default one recurses once per character of what it reads.
    auto flags = std::regex::ECMAScript | std::regex::icase | std::regex::optimize | std::regex_constants::__polynomial;
    for (auto [text, compiled, name] : {std::tuple{&rule.message_regex, &rule.message, "message_regex"},
                                        std::tuple{&rule.source_regex, &rule.source, "source_regex"},
                                        std::tuple{&rule.url_regex, &rule.url, "url_regex"}}) {
        if (text->empty()) continue;
        if (text->size() > 500) return std::string("\"") + name + "\" is longer than 500 characters";
        try {
            std::regex checked(*text, flags);  // the expression as written must be valid on its own
            // Searched as "anything, then the expression" from the start: one pass over the text,
            // where libstdc++'s search tries each starting position in turn (O(n²) when unanchored).
            *compiled = std::regex("^[\\s\\S]*(?:" + *text + ")", flags);
        } catch (const std::regex_error& e) {
            return std::string("\"") + name + "\" is not a valid regular expression (back-references are not supported): " +
                   e.what();
        }
    }
    std::lock_guard lock(mutex_);
    if (rules_.size() >= 200) return std::string("200 rules already: remove some first");
    rule.id = "noise_" + std::to_string(next_++);
    rules_.push_back(std::make_shared<const NoiseRule>(rule));
    return rule;
}

bool NoiseRules::remove(std::string_view id) {
    std::lock_guard lock(mutex_);
    auto before = rules_.size();
    rules_.erase(std::remove_if(rules_.begin(), rules_.end(), [&](const auto& rule) { return rule->id == id; }),
                 rules_.end());
    return rules_.size() != before;
}

void NoiseRules::reset() {
    std::lock_guard lock(mutex_);
    rules_.clear();
}

json::array NoiseRules::list() const {
    std::lock_guard lock(mutex_);
    json::array list;
    for (const auto& rule : rules_) list.push_back(rule->to_json());
    return list;
}

bool NoiseRules::empty() const {
    std::lock_guard lock(mutex_);
    return rules_.empty();
}

namespace {

/// libstdc++'s regex matcher recurses per character matched: a page's 500 KB message would
/// overflow the stack. Rules see the start of each field, which is where noise shows.
constexpr std::size_t matched_prefix = 2000;

std::string field_prefix(const json::object& entry, std::string_view key) {
    auto text = json_fields::text(entry, key);
    if (text.size() > matched_prefix) text.resize(matched_prefix);
    return text;
}

}  // namespace

bool NoiseRules::matches(std::string_view category, const json::object& entry) const {
    std::vector<std::shared_ptr<const NoiseRule>> rules;
    {
        std::lock_guard lock(mutex_);
        if (rules_.empty()) return false;
        rules = rules_;
    }
    for (const auto& rule : rules) {
        if (rule->category != category) continue;
        if (!rule->level.empty() && json_fields::text(entry, "level") != rule->level) continue;
        if (!rule->message_regex.empty() && !std::regex_search(field_prefix(entry, "message"), rule->message)) continue;
        if (!rule->source_regex.empty()) {
            auto source = field_prefix(entry, "source");
            if (source.empty()) source = field_prefix(entry, "filename");
            if (!std::regex_search(source, rule->source)) continue;
        }
        if (!rule->url_regex.empty() && !std::regex_search(field_prefix(entry, "url"), rule->url)) continue;
        if (!rule->method.empty() && json_fields::text(entry, "method") != rule->method) continue;
        double status = json_fields::number(entry, "status", -1);
        if (rule->status_min && status < *rule->status_min) continue;
        if (rule->status_max && status > *rule->status_max) continue;
        return true;
    }
    return false;
}

}  // namespace mcpkit::devconsole
