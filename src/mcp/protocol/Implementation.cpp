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
    return Implementation{json_fields::text(json, "name"),         json_fields::text(json, "version"),
                          json_fields::optional_text(json, "title"),      json_fields::optional_text(json, "description"),
                          json_fields::optional_text(json, "websiteUrl"), json_fields::array(json, "icons")};
}

}  // namespace mcp
