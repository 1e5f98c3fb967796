#pragma once
// Who a peer is: the `serverInfo` / `clientInfo` object.

#include "mcp/Export.hpp"

#include <boost/json/object.hpp>

#include <optional>
#include <string>

namespace mcp {

/// Who a peer is: the `serverInfo` or `clientInfo` object exchanged at initialization.
struct MCP_API Implementation {
    std::string name;  ///< The program's name, a short identifier such as "weather-server".
    std::string version;  ///< The program's version string.
    std::optional<std::string> title;  ///< A display name for people (clients fall back to `name`).
    std::optional<std::string> description;  ///< What the program is, in a sentence.
    std::optional<std::string> website_url;  ///< Sent as "websiteUrl".
    boost::json::array icons;  ///< Icon objects (src, mimeType, sizes) as sent; omitted when empty.

    /// The JSON object, leaving out fields that are unset or empty.
    boost::json::object to_json() const;
    /// Lenient: missing fields stay empty.
    static Implementation from_json(const boost::json::object& json);
};

}  // namespace mcp
