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
    p.name = json_fields::text(in, "name");
    p.title = json_fields::optional_text(in, "title");
    p.description = json_fields::optional_text(in, "description");
    for (const auto& a : json_fields::array(in, "arguments")) {
        if (!a.is_object()) continue;
        const auto& o = a.get_object();
        PromptArgument arg{json_fields::text(o, "name"), json_fields::optional_text(o, "title"),
                           json_fields::optional_text(o, "description"), false};
        if (auto* r = o.if_contains("required"); r && r->is_bool()) arg.required = r->get_bool();
        p.arguments.push_back(std::move(arg));
    }
    p.icons = json_fields::array(in, "icons");
    p.meta = json_fields::object(in, "_meta");
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
    result.description = json_fields::optional_text(in, "description");
    for (const auto& item : json_fields::array(in, "messages")) {
        if (!item.is_object()) continue;
        const auto& message = item.get_object();
        result.messages.push_back(PromptMessage{json_fields::text(message, "role"),
                                                Content{json_fields::object(message, "content")}});
    }
    return result;
}

Completion Completion::from_json(const json::object& in) {
    Completion result;
    json::object completion = json_fields::object(in, "completion");
    for (const auto& value : json_fields::array(completion, "values"))
        if (value.is_string()) result.values.emplace_back(value.get_string());
    if (auto* total = completion.if_contains("total"); total && total->is_int64()) result.total = total->get_int64();
    if (auto* more = completion.if_contains("hasMore"); more && more->is_bool()) result.has_more = more->get_bool();
    return result;
}

}  // namespace mcp
