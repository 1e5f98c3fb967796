#pragma once
// Who a peer is: the `serverInfo` / `clientInfo` object.

#include <boost/json/object.hpp>

#include <optional>
#include <string>

namespace mcp {

struct Implementation {
    std::string name;
    std::string version;
    std::optional<std::string> title;
    std::optional<std::string> description;
    std::optional<std::string> website_url;
    boost::json::array icons;

    boost::json::object to_json() const;
    /// Lenient: missing fields stay empty.
    static Implementation from_json(const boost::json::object& json);
};

}  // namespace mcp
