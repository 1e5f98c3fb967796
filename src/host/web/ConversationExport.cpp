#include "host/web/ConversationExport.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <ctime>
#include <stdexcept>

namespace mcpkit::host {
namespace json = boost::json;

namespace {

std::string utc_time(std::int64_t milliseconds) {
    std::time_t seconds = static_cast<std::time_t>(milliseconds / 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &utc);
    return text;
}

/// "files › write_file" for the qualified name "files__write_file".
std::string shown_tool_name(std::string_view qualified) {
    auto split = qualified.find("__");
    if (split == std::string_view::npos || split == 0) return std::string(qualified);
    return std::string(qualified.substr(0, split)) + " › " + std::string(qualified.substr(split + 2));
}

std::string markdown(const StoredSession& conversation) {
    std::string out = "# " + (conversation.title.empty() ? std::string("Chat") : conversation.title) + "\n\n";
    out += "_Exported from mcpkit host; " + std::to_string(conversation.history.size()) + " messages";
    if (!conversation.history.empty()) out += ", from " + utc_time(conversation.history.front().created_at);
    out += "._\n";
    for (const auto& message : conversation.history) {
        out += "\n";
        switch (message.role) {
        case Role::user:
            out += "## You\n\n" + message.content + "\n";
            if (!message.context.empty()) out += "\n_Context from the app views:_\n\n" + fenced_block(message.context);
            break;
        case Role::assistant:
            out += "## Assistant" + (message.model.empty() ? std::string() : " (" + message.model + ")") + "\n\n";
            if (!message.reasoning.empty())
                out += "<details><summary>Thought</summary>\n\n" + message.reasoning + "\n\n</details>\n\n";
            if (!message.content.empty()) out += message.content + "\n";
            for (const auto& call : message.tool_calls)
                out += "\n**Tool call:** " + shown_tool_name(call.name) + "\n\n" +
                       fenced_block(json::serialize(call.arguments), "json");
            if (!message.ending.empty()) out += "\n_" + message.ending + "_\n";
            break;
        case Role::tool: {
            std::string what = message.refused ? "Not run" : message.is_error ? "Failed" : "Result";
            out += "### " + what + ": " + shown_tool_name(message.tool_name) + "\n\n" + fenced_block(message.content);
            break;
        }
        }
    }
    return out;
}

/// The title as a file name: letters, digits and - _ . kept, anything else a dash, at most 60.
std::string file_name(const std::string& title, std::string_view extension) {
    std::string name;
    for (char c : title) {
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
        if (plain) name += c;
        else if (!name.empty() && name.back() != '-') name += '-';
        if (name.size() >= 60) break;
    }
    while (!name.empty() && (name.back() == '-' || name.back() == '.')) name.pop_back();
    while (!name.empty() && name.front() == '.') name.erase(0, 1);
    return (name.empty() ? std::string("chat") : name) + "." + std::string(extension);
}

}  // namespace

ExportedConversation export_conversation(const StoredSession& conversation, std::string_view format) {
    if (format == "md")
        return {markdown(conversation), "text/markdown; charset=utf-8", file_name(conversation.title, "md")};
    if (format == "json") {
        json::array messages;
        for (const auto& message : conversation.history) messages.push_back(message.to_json());
        json::object document{{"id", conversation.id},       {"title", conversation.title},
                              {"createdAt", conversation.created_at}, {"messages", std::move(messages)},
                              {"exportedBy", "mcpkit host"}};
        return {json::serialize(document), "application/json", file_name(conversation.title, "json")};
    }
    throw std::invalid_argument("format must be \"md\" or \"json\"");
}

}  // namespace mcpkit::host
