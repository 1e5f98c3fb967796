#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// Matching URIs against RFC 6570 templates, for resources/read on resource templates.
// Supports simple `{var}` (no '/' in the value), reserved `{+var}` (anything) and lists `{a,b}`
// are treated as one variable each.

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mcp::detail {

class UriTemplate {
public:
    explicit UriTemplate(std::string_view pattern);
    /// The variables if `uri` matches, percent-decoded.
    std::optional<std::unordered_map<std::string, std::string>> match(std::string_view uri) const;
    const std::vector<std::string>& variable_names() const { return names_; }

private:
    struct Part {
        bool is_variable = false;
        bool reserved = false;  ///< {+var}: may contain '/'
        std::string text;       ///< literal text, or the variable name
    };
    std::vector<Part> parts_;
    std::vector<std::string> names_;
};

}  // namespace mcp::detail
