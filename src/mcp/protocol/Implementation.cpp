#include "mcp/protocol/Implementation.hpp"

#include "protocol/JsonFields.hpp"

namespace mcp {

boost::json::object Implementation::to_json() const {
    boost::json::object json{{"name", name}, {"version", version}};
    detail::put(json, "title", title);
    detail::put(json, "description", description);
    detail::put(json, "websiteUrl", website_url);
    detail::put_nonempty(json, "icons", icons);
    return json;
}

Implementation Implementation::from_json(const boost::json::object& json) {
    return Implementation{detail::string_field(json, "name"),         detail::string_field(json, "version"),
                          detail::optional_string(json, "title"),      detail::optional_string(json, "description"),
                          detail::optional_string(json, "websiteUrl"), detail::array_field(json, "icons")};
}

}  // namespace mcp
