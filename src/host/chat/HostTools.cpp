#include "host/chat/HostTools.hpp"

#include <mcp/JsonFields.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

namespace mcpkit::host {
namespace json = boost::json;
namespace json_fields = mcp::json_fields;

namespace {

constexpr std::size_t preview_head_bytes = 12 * 1024;
constexpr std::size_t preview_tail_bytes = 4 * 1024;
constexpr std::size_t max_found = 8;

/// `at` moved back to the start of the UTF-8 character it falls in.
std::size_t character_start(std::string_view text, std::size_t at) {
    while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
    return std::min(at, text.size());
}

ToolDeclaration search_tools_declaration() {
    ToolDeclaration tool;
    tool.name = std::string(search_tools_name);
    tool.description =
        "Finds tools. The MCP servers offer more tools than fit in this request, so only the ones used "
        "recently are listed; search by what you want to do (words such as \"currency convert\" or "
        "\"weather\"). The tools found can be called from your next step.";
    tool.input_schema = {
        {"type", "object"},
        {"properties", {{"query", {{"type", "string"}, {"description", "Words describing the task or the tool"}}}}},
        {"required", json::array{"query"}}};
    return tool;
}

ToolDeclaration read_tool_result_declaration() {
    ToolDeclaration tool;
    tool.name = std::string(read_tool_result_name);
    tool.description = "Reads part of a tool result that was too long to show whole (its preview says so and "
                       "gives its id). Offsets and lengths are in bytes; at most 32768 bytes per call.";
    tool.input_schema = {
        {"type", "object"},
        {"properties",
         {{"id", {{"type", "string"}, {"description", "The result's id, from its preview"}}},
          {"offset", {{"type", "integer"}, {"minimum", 0}, {"description", "Where to start, in bytes (default 0)"}}},
          {"length",
           {{"type", "integer"}, {"minimum", 1}, {"maximum", 32768}, {"description", "How many bytes (default 32768)"}}}}},
        {"required", json::array{"id"}}};
    return tool;
}

std::string lowered(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// An integer argument, or `fallback` when absent; nothing when present but not an integer.
std::optional<std::int64_t> integer_argument(const json::object& arguments, std::string_view name, std::int64_t fallback) {
    auto* value = arguments.if_contains(name);
    if (!value || value->is_null()) return fallback;
    if (value->is_int64()) return value->get_int64();
    if (value->is_uint64()) return static_cast<std::int64_t>(std::min<std::uint64_t>(value->get_uint64(), INT64_MAX));
    // A whole number within range only: casting 1e300 would be undefined.
    if (value->is_double() && std::fabs(value->get_double()) < 9.0e18 &&
        value->get_double() == static_cast<double>(static_cast<std::int64_t>(value->get_double())))
        return static_cast<std::int64_t>(value->get_double());
    return std::nullopt;
}

}  // namespace

bool is_host_tool(std::string_view name) { return name == search_tools_name || name == read_tool_result_name; }

std::string text_for_model(std::string whole, std::string_view id, bool& cut) {
    cut = whole.size() > long_result_bytes;
    if (!cut) return whole;
    std::size_t head = character_start(whole, preview_head_bytes);
    std::size_t tail = character_start(whole, whole.size() - preview_tail_bytes);
    std::string preview = whole.substr(0, head);
    preview += "\n\n[The result is " + std::to_string(whole.size()) + " bytes, too long to give whole: bytes " +
               std::to_string(head) + " to " + std::to_string(tail) + " are left out here. Call read_tool_result with "
               "{\"id\": \"" + std::string(id) + "\", \"offset\": " + std::to_string(head) +
               "} to read them, up to 32768 bytes a call.]\n\n";
    preview += whole.substr(tail);
    return preview;
}

std::vector<ToolDeclaration> offered_tools(const std::vector<ToolDeclaration>& all, bool too_many,
                                           const std::vector<std::string>& wanted, bool with_reader) {
    std::vector<ToolDeclaration> offered;
    if (!too_many) {
        offered = all;
    } else {
        offered.push_back(search_tools_declaration());
        std::size_t room = max_offered_tools - 1 - (with_reader ? 1 : 0);
        std::set<std::string_view> taken;
        for (const auto& name : wanted) {
            if (offered.size() > room) break;
            if (!taken.insert(name).second) continue;
            auto found = std::find_if(all.begin(), all.end(), [&](const ToolDeclaration& tool) { return tool.name == name; });
            if (found != all.end()) offered.push_back(*found);
        }
    }
    if (with_reader) offered.push_back(read_tool_result_declaration());
    return offered;
}

std::vector<std::string> recently_used_tools(const std::vector<ChatMessage>& history) {
    std::vector<std::string> names;
    for (auto message = history.rbegin(); message != history.rend(); ++message)
        for (auto call = message->tool_calls.rbegin(); call != message->tool_calls.rend(); ++call)
            if (!is_host_tool(call->name) && std::find(names.begin(), names.end(), call->name) == names.end())
                names.push_back(call->name);
    return names;
}

HostToolAnswer search_tools(const std::vector<ToolDeclaration>& tools, const json::object& arguments) {
    std::string query = json_fields::text(arguments, "query");
    std::vector<std::string> words;
    std::string word;
    for (char c : lowered(query) + " ") {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            word += c;
        } else {
            if (word.size() >= 2) words.push_back(word);
            word.clear();
        }
    }
    if (words.empty())
        return {"search_tools needs a query: words that describe the task, such as \"convert currency\".", true, {}};
    struct Match {
        int score;
        const ToolDeclaration* tool;
    };
    std::vector<Match> matches;
    for (const auto& tool : tools) {
        std::string name = lowered(tool.name), description = lowered(tool.description);
        int score = 0;
        for (const auto& each : words) score += (name.find(each) != std::string::npos ? 3 : 0) +
                                                (description.find(each) != std::string::npos ? 1 : 0);
        if (score > 0) matches.push_back({score, &tool});
    }
    std::stable_sort(matches.begin(), matches.end(), [](const Match& a, const Match& b) { return a.score > b.score; });
    if (matches.size() > max_found) matches.resize(max_found);
    HostToolAnswer answer;
    if (matches.empty()) {
        answer.text = "No tool matches \"" + query + "\" among the " + std::to_string(tools.size()) +
                      " tools. Try other words for what the tool would do.";
        return answer;
    }
    answer.text = "Found " + std::to_string(matches.size()) + " tools for \"" + query +
                  "\"; they can be called from your next step:\n";
    for (const auto& match : matches) {
        answer.text += "- " + match.tool->name + ": " + match.tool->description + "\n";
        answer.found.push_back(match.tool->name);
    }
    return answer;
}

HostToolAnswer read_tool_result(const std::vector<ChatMessage>& history, const json::object& arguments) {
    std::string id = json_fields::text(arguments, "id");
    if (id.empty()) return {"read_tool_result needs \"id\": the id its preview gives.", true, {}};
    auto message = std::find_if(history.rbegin(), history.rend(), [&](const ChatMessage& each) {
        return each.role == Role::tool && each.tool_call_id == id;
    });
    if (message == history.rend())
        return {"No tool result in this conversation has the id \"" + id + "\"; use the id a cut result's preview gives.",
                true, {}};
    auto offset = integer_argument(arguments, "offset", 0);
    auto length = integer_argument(arguments, "length", max_read_bytes);
    if (!offset || *offset < 0) return {"\"offset\" must be a whole number of bytes, 0 or more.", true, {}};
    if (!length || *length < 1 || *length > static_cast<std::int64_t>(max_read_bytes))
        return {"\"length\" must be a whole number of bytes from 1 to 32768.", true, {}};
    std::string whole = tool_result_text(message->data);
    if (static_cast<std::size_t>(*offset) >= whole.size())
        return {"\"offset\" " + std::to_string(*offset) + " is past the end: the result is " +
                    std::to_string(whole.size()) + " bytes.",
                true, {}};
    std::size_t start = character_start(whole, static_cast<std::size_t>(*offset));
    std::size_t end = character_start(whole, std::min(whole.size(), static_cast<std::size_t>(*offset + *length)));
    if (end <= start) end = std::min(whole.size(), start + 4);  // a length shorter than one character
    end = character_start(whole, end);
    HostToolAnswer answer;
    answer.text = "Bytes " + std::to_string(start) + " to " + std::to_string(end) + " of " + std::to_string(whole.size()) +
                  ":\n" + whole.substr(start, end - start);
    if (end < whole.size())
        answer.text += "\n[" + std::to_string(whole.size() - end) + " bytes follow: offset " + std::to_string(end) + ".]";
    return answer;
}

}  // namespace mcpkit::host
