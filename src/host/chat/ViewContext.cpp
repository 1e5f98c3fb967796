#include "host/chat/ViewContext.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <stdexcept>

namespace mcpkit::host {
namespace json = boost::json;

std::string view_context_text(const json::object& params) {
    std::string text;
    if (auto* content = params.if_contains("content"); content && !content->is_null()) {
        if (!content->is_array()) throw std::invalid_argument("params.content must be an array of content blocks");
        std::size_t index = 0;
        for (const auto& block : content->get_array()) {
            std::string where = "params.content[" + std::to_string(index++) + "]";
            auto* type = block.is_object() ? block.get_object().if_contains("type") : nullptr;
            if (!type || !type->is_string()) throw std::invalid_argument(where + " must be an object with a string \"type\"");
            if (type->get_string() == "text") {
                auto* value = block.get_object().if_contains("text");
                if (!value || !value->is_string()) throw std::invalid_argument(where + ".text must be a string");
                if (!text.empty()) text += "\n";
                text += value->get_string();
            } else {
                if (!text.empty()) text += "\n";
                text += "[" + std::string(type->get_string()) + " content]";
            }
        }
    }
    if (auto* structured = params.if_contains("structuredContent"); structured && !structured->is_null()) {
        if (!structured->is_object()) throw std::invalid_argument("params.structuredContent must be an object");
        if (!structured->get_object().empty()) {
            if (!text.empty()) text += "\n";
            text += "Data: " + json::serialize(*structured);
        }
    }
    if (text.size() > max_view_context_bytes)
        throw std::length_error("the context is " + std::to_string(text.size()) + " bytes as text; at most " +
                                std::to_string(max_view_context_bytes) + " are kept for the model");
    return text;
}

void keep_view_context(std::vector<ViewContext>& contexts, ViewContext context) {
    std::erase_if(contexts, [&](const ViewContext& kept) { return kept.view_id == context.view_id; });
    if (context.text.empty()) return;
    contexts.push_back(std::move(context));
    if (contexts.size() > max_view_contexts) contexts.erase(contexts.begin());
}

std::string view_contexts_for_model(const std::vector<ViewContext>& contexts) {
    std::string text;
    for (const auto& context : contexts) {
        if (!text.empty()) text += "\n\n";
        text += "Context from the view of the tool " + (context.tool.empty() ? std::string("(unnamed)") : context.tool) +
                " (server " + context.server + "), as it stands now:\n" + context.text;
    }
    return text;
}

}  // namespace mcpkit::host
