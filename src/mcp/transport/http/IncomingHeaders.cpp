#include "transport/http/IncomingHeaders.hpp"

#include "transport/http/AsciiCase.hpp"

namespace mcp::http {

IncomingHeaders read_headers(const HttpRequest& request) {
    IncomingHeaders found;
    auto keep = [](std::optional<std::string_view>& slot, std::string_view value) {
        if (!slot) slot = value;
    };
    constexpr std::string_view parameter_prefix = "mcp-param-";
    for (const auto& [name, value] : request.fields) {
        if (name.size() < 4) continue;
        switch (ascii_lower(name[0])) {
        case 'h':
            if (field_name_is(name, "host")) keep(found.host, value);
            continue;
        case 'o':
            if (field_name_is(name, "origin")) keep(found.origin, value);
            continue;
        case 'c':
            if (field_name_is(name, "content-type")) keep(found.content_type, value);
            continue;
        case 'a':
            if (field_name_is(name, "accept")) keep(found.accept, value);
            else if (field_name_is(name, "authorization")) keep(found.authorization, value);
            else if (field_name_is(name, "access-control-request-headers")) keep(found.cors_request_headers, value);
            continue;
        case 'l':
            if (field_name_is(name, "last-event-id")) keep(found.last_event_id, value);
            continue;
        case 'm': break;
        default: continue;
        }
        if (field_name_is(name, "mcp-session-id")) {
            keep(found.session_id, value);
        } else if (field_name_is(name, "mcp-protocol-version")) {
            keep(found.protocol_version, value);
        } else if (field_name_is(name, "mcp-method")) {
            keep(found.mcp_method, value);
        } else if (field_name_is(name, "mcp-name")) {
            keep(found.mcp_name, value);
        } else if (name.size() > parameter_prefix.size() &&
                   field_name_is(name.substr(0, parameter_prefix.size()), parameter_prefix)) {
            found.parameters.emplace_back(name.substr(parameter_prefix.size()), value);
        }
    }
    return found;
}

}  // namespace mcp::http
