#include "host/history/ChatMessage.hpp"

#include <algorithm>

#include <mcp/JsonFields.hpp>

#include <boost/json/serialize.hpp>

#include <stdexcept>

namespace mcpkit::host {
namespace json = boost::json;

std::string_view role_name(Role role) {
    switch (role) {
    case Role::user: return "user";
    case Role::assistant: return "assistant";
    case Role::tool: return "tool";
    }
    return "user";
}

json::object ChatMessage::to_json() const {
    json::object out{{"id", id}, {"role", role_name(role)}, {"createdAt", created_at}};
    if (!content.empty() || role != Role::tool) out["content"] = content;
    if (!context.empty()) out["context"] = context;
    if (!images.empty()) {
        json::array list;
        for (const auto& image : images) {
            json::object item{{"mimeType", image.mime_type}, {"data", image.data}};
            if (!image.name.empty()) item["name"] = image.name;
            list.push_back(std::move(item));
        }
        out["images"] = std::move(list);
    }
    if (!tool_calls.empty()) {
        json::array calls;
        for (const auto& call : tool_calls) {
            json::object item{{"id", call.id}, {"name", call.name}, {"arguments", call.arguments}};
            if (!call.arguments_error.empty()) item["argumentsError"] = call.arguments_error;
            if (!call.provider_data.empty()) item["providerData"] = call.provider_data;
            calls.push_back(std::move(item));
        }
        out["toolCalls"] = std::move(calls);
    }
    if (role == Role::assistant) {
        if (!model.empty()) out["model"] = model;
        if (!reasoning.empty()) out["reasoning"] = reasoning;
        if (!ending.empty()) out["ending"] = ending;
        if (!ending_details.empty()) out["endingDetails"] = ending_details;
        if (is_error) out["isError"] = true;
        if (!provider_data.empty()) out["providerData"] = provider_data;
    }
    if (!other_versions.empty()) {
        json::array versions;
        for (const auto& stretch : other_versions) {
            json::array messages;
            for (const auto& message : stretch) messages.push_back(message.to_json());
            versions.push_back(std::move(messages));
        }
        out["versions"] = std::move(versions);
        out["version"] = version;
    }
    if (role == Role::tool) {
        out["toolCallId"] = tool_call_id;
        out["toolName"] = tool_name;
        out["data"] = data;
        out["isError"] = is_error;
        if (refused) out["refused"] = true;
        if (cut) out["cut"] = true;
        if (app.is_object()) out["app"] = app;
    }
    return out;
}

namespace {

std::string text_at(const json::object& json, std::string_view key, bool required = false) {
    auto* value = json.if_contains(key);
    if (!value || value->is_null()) {
        if (required) throw std::invalid_argument("message." + std::string(key) + " is missing");
        return {};
    }
    if (!value->is_string()) throw std::invalid_argument("message." + std::string(key) + " must be a string");
    return std::string(value->get_string());
}

}  // namespace

ChatMessage ChatMessage::from_json(const json::object& json) {
    ChatMessage message;
    message.id = text_at(json, "id", true);
    std::string role = text_at(json, "role", true);
    if (role == "user") message.role = Role::user;
    else if (role == "assistant") message.role = Role::assistant;
    else if (role == "tool") message.role = Role::tool;
    else throw std::invalid_argument("message.role \"" + role + "\" is not user, assistant or tool");
    message.content = text_at(json, "content");
    message.context = text_at(json, "context");
    if (auto* created = json.if_contains("createdAt"); created && created->is_number())
        message.created_at = mcp::json_fields::integer(json, "createdAt");
    if (auto* calls = json.if_contains("toolCalls"); calls && calls->is_array()) {
        for (const auto& item : calls->get_array()) {
            if (!item.is_object()) throw std::invalid_argument("message.toolCalls holds a non-object");
            const auto& object = item.get_object();
            ToolCall call;
            call.id = text_at(object, "id");
            call.name = text_at(object, "name", true);
            if (auto* arguments = object.if_contains("arguments"); arguments && arguments->is_object())
                call.arguments = arguments->get_object();
            call.arguments_error = text_at(object, "argumentsError");
            if (auto* data = object.if_contains("providerData"); data && data->is_object())
                call.provider_data = data->get_object();
            message.tool_calls.push_back(std::move(call));
        }
    }
    if (auto* images = json.if_contains("images"); images && images->is_array())
        for (const auto& item : images->get_array())
            if (item.is_object())
                message.images.push_back({text_at(item.get_object(), "mimeType"), text_at(item.get_object(), "data"),
                                          text_at(item.get_object(), "name")});
    if (auto* versions = json.if_contains("versions"); versions && versions->is_array()) {
        for (const auto& stretch : versions->get_array()) {
            if (!stretch.is_array() || stretch.get_array().empty()) continue;
            std::vector<ChatMessage> messages;
            for (const auto& item : stretch.get_array())
                if (item.is_object()) messages.push_back(from_json(item.get_object()));
            message.other_versions.push_back(std::move(messages));
        }
        if (auto* version = json.if_contains("version"); version && (version->is_int64() || version->is_uint64())) {
            std::int64_t at = version->is_int64() ? version->get_int64() : static_cast<std::int64_t>(
                                  std::min<std::uint64_t>(version->get_uint64(), INT64_MAX));
            message.version = static_cast<std::size_t>(std::clamp<std::int64_t>(
                at, 0, static_cast<std::int64_t>(message.other_versions.size())));
        }
    }
    if (message.role == Role::assistant) {
        message.model = text_at(json, "model");
        message.reasoning = text_at(json, "reasoning");
        message.ending = text_at(json, "ending");
        message.ending_details = text_at(json, "endingDetails");
        if (auto* error = json.if_contains("isError"); error && error->is_bool()) message.is_error = error->get_bool();
        if (auto* data = json.if_contains("providerData"); data && data->is_object()) message.provider_data = data->get_object();
    }
    if (message.role == Role::tool) {
        message.tool_call_id = text_at(json, "toolCallId");
        message.tool_name = text_at(json, "toolName");
        if (auto* data = json.if_contains("data")) message.data = *data;
        if (auto* error = json.if_contains("isError"); error && error->is_bool()) message.is_error = error->get_bool();
        if (auto* refused = json.if_contains("refused"); refused && refused->is_bool()) message.refused = refused->get_bool();
        if (auto* cut = json.if_contains("cut"); cut && cut->is_bool()) message.cut = cut->get_bool();
        if (auto* app = json.if_contains("app"); app && app->is_object()) message.app = *app;
    }
    return message;
}

std::string tool_result_text(const json::value& result) {
    if (result.is_string()) return std::string(result.get_string());
    if (!result.is_object()) return json::serialize(result);
    const auto& object = result.get_object();
    std::string text;
    std::string others;
    if (auto* content = object.if_contains("content"); content && content->is_array()) {
        for (const auto& item : content->get_array()) {
            if (!item.is_object()) continue;
            const auto& block = item.get_object();
            auto* type = block.if_contains("type");
            std::string_view kind = type && type->is_string() ? std::string_view(type->get_string()) : "";
            if (kind == "text") {
                if (auto* value = block.if_contains("text"); value && value->is_string()) {
                    if (!text.empty()) text += "\n";
                    text += value->get_string();
                }
            } else if (kind == "resource_link") {
                auto* uri = block.if_contains("uri");
                others += "[resource link " + (uri && uri->is_string() ? std::string(uri->get_string()) : "") + "]";
            } else if (kind == "resource") {
                auto* resource = block.if_contains("resource");
                if (resource && resource->is_object()) {
                    if (auto* body = resource->get_object().if_contains("text"); body && body->is_string()) {
                        if (!text.empty()) text += "\n";
                        text += body->get_string();
                    } else {
                        others += "[binary resource]";
                    }
                }
            } else if (!kind.empty()) {
                others += "[" + std::string(kind) + " content]";
            }
        }
    }
    if (auto* structured = object.if_contains("structuredContent"); structured && !structured->is_null() && text.empty())
        text = json::serialize(*structured);
    if (text.empty()) text = others.empty() ? "(no content)" : others;
    return text;
}

std::string fenced_block(std::string_view content, std::string_view language) {
    std::size_t longest = 0, run = 0;
    for (char c : content) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    std::string fence(std::max<std::size_t>(3, longest + 1), '`');
    std::string block = fence + std::string(language) + "\n" + std::string(content);
    if (!block.ends_with('\n')) block += '\n';
    return block + fence + "\n";
}

std::vector<MessageImage> images_for_model(const ChatMessage& message) {
    if (message.role == Role::user) return message.images;
    std::vector<MessageImage> images;
    if (message.role != Role::tool || !message.data.is_object()) return images;
    auto* content = message.data.get_object().if_contains("content");
    if (!content || !content->is_array()) return images;
    for (const auto& item : content->get_array()) {
        if (!item.is_object()) continue;
        const auto& block = item.get_object();
        auto* type = block.if_contains("type");
        if (!type || !type->is_string() || type->get_string() != "image") continue;
        std::string mime = text_at(block, "mimeType"), data = text_at(block, "data");
        // What every provider takes, within their limits (Anthropic's is 5 MB a picture): another
        // kind or size from a server would make every later request of the conversation fail.
        bool takeable = mime == "image/png" || mime == "image/jpeg" || mime == "image/gif" || mime == "image/webp";
        // (The result's text already names each picture, so one left out here is still said.)
        if (!data.empty() && takeable && data.size() / 4 * 3 <= 3'500'000)
            images.push_back({std::move(mime), std::move(data), {}});
    }
    return images;
}

std::string image_note(const MessageImage& image) {
    std::size_t bytes = image.data.size() / 4 * 3;
    return "[a picture" + (image.name.empty() ? std::string() : " (" + image.name + ")") + ", " + image.mime_type + ", " +
           std::to_string((bytes + 1023) / 1024) + " KB: not shown, this model takes no pictures]";
}

std::string conversation_title(const ChatMessage& first_user_message) {
    constexpr std::size_t limit = 80;
    std::string title;
    bool space = false;
    for (char c : first_user_message.content) {
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
            space = !title.empty();
            continue;
        }
        if (space) title += ' ';
        space = false;
        title += c;
        if (title.size() > limit) break;
    }
    if (title.size() <= limit) return title;
    // Cut between characters (the text came over a WebSocket, so it is valid UTF-8), at a word
    // when there is one near.
    std::size_t cut = limit;
    while (cut > 0 && (static_cast<unsigned char>(title[cut]) & 0xC0) == 0x80) --cut;
    if (auto word = title.rfind(' ', cut); word != std::string::npos && word > limit / 2) cut = word;
    title.resize(cut);
    return title + "…";
}

}  // namespace mcpkit::host
