#include "review/ReviewRequest.hpp"
#include "review/Text.hpp"

#include <boost/json/string.hpp>
#include <mcp/jsonrpc/JsonWriter.hpp>

#include <cstdio>

namespace mcpkit::review {
namespace json = boost::json;

namespace {

bool is_unreserved_in_path(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' || c == '-' ||
           c == '.' || c == '_' || c == '~';
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

std::string_view to_string(ReviewMode mode) {
    switch (mode) {
    case ReviewMode::replace: return "replace";
    case ReviewMode::append: return "append";
    case ReviewMode::update_section: return "update-section";
    }
    return "replace";
}

std::optional<ReviewMode> parse_mode(std::string_view text) {
    if (text == "replace") return ReviewMode::replace;
    if (text == "append") return ReviewMode::append;
    if (text == "update-section" || text == "update_section") return ReviewMode::update_section;
    return std::nullopt;
}

std::string to_file_uri(std::string_view path_or_uri) {
    if (path_or_uri.starts_with("file://")) return std::string(path_or_uri);
    std::string uri = "file://";
    for (char c : path_or_uri) {
        if (is_unreserved_in_path(c)) {
            uri += c;
        } else {
            char escaped[4];
            std::snprintf(escaped, sizeof escaped, "%%%02X", static_cast<unsigned char>(c));
            uri += escaped;
        }
    }
    return uri;
}

std::optional<std::string> file_uri_to_path(std::string_view uri) {
    if (!uri.starts_with("file://")) return std::nullopt;
    uri.remove_prefix(7);
    if (uri.starts_with("localhost/")) uri.remove_prefix(9);
    if (!uri.starts_with('/')) return std::nullopt;  // file://host/… names another machine
    std::string path;
    for (std::size_t i = 0; i < uri.size(); ++i) {
        if (uri[i] == '%' && i + 2 < uri.size() && hex_value(uri[i + 1]) >= 0 && hex_value(uri[i + 2]) >= 0) {
            path += static_cast<char>(hex_value(uri[i + 1]) * 16 + hex_value(uri[i + 2]));
            i += 2;
        } else {
            path += uri[i];
        }
    }
    return path;
}

std::variant<ReviewRequest, ArgumentError> parse_review_request(const json::object& arguments,
                                                                std::string_view default_base) {
    ReviewRequest request;
    const json::value* content = arguments.if_contains("content");
    if (!content) return ArgumentError{"Missing required parameter: content (the review, as markdown)"};
    if (!content->is_string())
        return ArgumentError{"Invalid content: expected a string of markdown, got " +
                             std::string(json::to_string(content->kind()))};
    if (trim(content->get_string()).empty())
        return ArgumentError{"Invalid content: cannot be empty; write the review as markdown"};
    request.content = std::string(content->get_string());

    if (const json::value* mode = arguments.if_contains("mode"); mode && !mode->is_null()) {
        auto parsed = mode->is_string() ? parse_mode(mode->get_string()) : std::nullopt;
        if (!parsed)
            return ArgumentError{"Invalid mode " + mcp::jsonrpc::to_json_text(*mode) +
                                 ": must be one of replace, append, update-section"};
        request.mode = *parsed;
    }

    if (request.mode == ReviewMode::update_section) {
        const json::value* section = arguments.if_contains("section");
        if (!section || section->is_null())
            return ArgumentError{"Missing required parameter: section (required for update-section mode: the "
                                 "heading whose body to replace, e.g. \"Findings\")"};
        if (!section->is_string() || trim(section->get_string()).empty())
            return ArgumentError{"Invalid section: expected the non-empty text of a heading, e.g. \"Findings\""};
        request.section = std::string(trim(section->get_string()));
        // "## Findings" names the heading "Findings".
        while (request.section.starts_with('#')) request.section.erase(0, 1);
        request.section = std::string(trim(request.section));
        if (request.section.empty())
            return ArgumentError{"Invalid section: expected the text of a heading, e.g. \"Findings\", not only '#'"};
    }

    std::string_view base = default_base;
    if (const json::value* base_uri = arguments.if_contains("baseUri"); base_uri && !base_uri->is_null()) {
        if (!base_uri->is_string() || base_uri->get_string().empty())
            return ArgumentError{"Invalid baseUri: expected an absolute path or a file:// URI of the directory "
                                 "that relative references are under"};
        base = base_uri->get_string();
        // The editor would open the path only up to the NUL ("/a\u0000/b" is "/a"), raw or as %00.
        auto decoded = file_uri_to_path(base);
        if (base.find('\0') != std::string_view::npos || (decoded && decoded->find('\0') != std::string::npos))
            return ArgumentError{"Invalid baseUri: it contains a NUL byte (\\u0000 or %00), which no path can "
                                 "hold; remove it"};
        if (base.find("://") != std::string_view::npos && !file_uri_to_path(base))
            return ArgumentError{"Invalid baseUri \"" + std::string(base) +
                                 "\": only local file:// URIs (or absolute paths) can be opened in the editor"};
        if (base.find("://") == std::string_view::npos && !base.starts_with('/'))
            return ArgumentError{"Invalid baseUri \"" + std::string(base) +
                                 "\": expected an absolute path or a file:// URI, e.g. file:///home/me/project"};
    }
    request.base_uri = to_file_uri(base);
    return request;
}

json::object to_payload(const ReviewRequest& request) {
    json::object payload;
    payload["content"] = request.content;
    payload["mode"] = to_string(request.mode);
    if (request.mode == ReviewMode::update_section) payload["section"] = request.section;
    payload["baseUri"] = request.base_uri;
    return payload;
}

}  // namespace mcpkit::review
