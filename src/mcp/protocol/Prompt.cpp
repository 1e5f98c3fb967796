#include "mcp/protocol/Prompt.hpp"

#include "protocol/JsonFields.hpp"

namespace mcp {
namespace json = boost::json;

json::object Prompt::to_json() const {
    json::object out{{"name", name}};
    detail::put(out, "title", title);
    detail::put(out, "description", description);
    if (!arguments.empty()) {
        json::array args;
        for (const auto& a : arguments) {
            json::object arg{{"name", a.name}};
            detail::put(arg, "title", a.title);
            detail::put(arg, "description", a.description);
            if (a.required) arg["required"] = true;
            args.push_back(std::move(arg));
        }
        out["arguments"] = std::move(args);
    }
    detail::put_nonempty(out, "icons", icons);
    detail::put_nonempty(out, "_meta", meta);
    return out;
}

Prompt Prompt::from_json(const json::object& in) {
    Prompt p;
    p.name = detail::string_field(in, "name");
    p.title = detail::optional_string(in, "title");
    p.description = detail::optional_string(in, "description");
    for (const auto& a : detail::array_field(in, "arguments")) {
        if (!a.is_object()) continue;
        const auto& o = a.get_object();
        PromptArgument arg{detail::string_field(o, "name"), detail::optional_string(o, "title"),
                           detail::optional_string(o, "description"), false};
        if (auto* r = o.if_contains("required"); r && r->is_bool()) arg.required = r->get_bool();
        p.arguments.push_back(std::move(arg));
    }
    p.icons = detail::array_field(in, "icons");
    p.meta = detail::object_field(in, "_meta");
    return p;
}

json::object GetPromptResult::to_json() const {
    json::array items;
    for (const auto& m : messages) items.push_back(json::object{{"role", m.role}, {"content", m.content.json}});
    json::object out{{"messages", std::move(items)}};
    detail::put(out, "description", description);
    return out;
}

json::object Completion::to_json() const {
    json::array items;
    for (const auto& v : values) items.push_back(json::string(v));
    json::object completion{{"values", std::move(items)}, {"hasMore", has_more}};
    if (total) completion["total"] = *total;
    return json::object{{"completion", std::move(completion)}};
}

GetPromptResult GetPromptResult::from_json(const json::object& in) {
    GetPromptResult result;
    result.description = detail::optional_string(in, "description");
    for (const auto& item : detail::array_field(in, "messages")) {
        if (!item.is_object()) continue;
        const auto& message = item.get_object();
        result.messages.push_back(PromptMessage{detail::string_field(message, "role"),
                                                Content{detail::object_field(message, "content")}});
    }
    return result;
}

Completion Completion::from_json(const json::object& in) {
    Completion result;
    json::object completion = detail::object_field(in, "completion");
    for (const auto& value : detail::array_field(completion, "values"))
        if (value.is_string()) result.values.emplace_back(value.get_string());
    if (auto* total = completion.if_contains("total"); total && total->is_int64()) result.total = total->get_int64();
    if (auto* more = completion.if_contains("hasMore"); more && more->is_bool()) result.has_more = more->get_bool();
    return result;
}

}  // namespace mcp
