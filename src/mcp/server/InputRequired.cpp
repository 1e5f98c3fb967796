#include "mcp/server/InputRequired.hpp"

#include "mcp/protocol/Methods.hpp"

namespace mcp {
namespace json = boost::json;

InputRequired& InputRequired::elicit(std::string_view key, std::string_view message, json::object requested_schema) {
    input_requests[key] = json::object{
        {"method", methods::elicitation_create},
        {"params", {{"message", message}, {"requestedSchema", std::move(requested_schema)}}}};
    return *this;
}

InputRequired& InputRequired::elicit_url(std::string_view key, std::string_view message, std::string_view url) {
    input_requests[key] = json::object{{"method", methods::elicitation_create},
                                       {"params", {{"mode", "url"}, {"message", message}, {"url", url}}}};
    return *this;
}

InputRequired& InputRequired::sample(std::string_view key, json::object params) {
    input_requests[key] = json::object{{"method", methods::sampling_create_message}, {"params", std::move(params)}};
    return *this;
}

InputRequired& InputRequired::roots(std::string_view key) {
    input_requests[key] = json::object{{"method", methods::roots_list}, {"params", json::object()}};
    return *this;
}

InputRequired& InputRequired::state(std::string value) {
    request_state = std::move(value);
    return *this;
}

json::object InputRequired::to_json() const {
    json::object out;
    if (!input_requests.empty()) out["inputRequests"] = input_requests;
    if (request_state) out["requestState"] = *request_state;
    return out;
}

}  // namespace mcp
