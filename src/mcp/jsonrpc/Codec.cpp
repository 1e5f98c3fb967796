#include "mcp/jsonrpc/Codec.hpp"

#include "mcp/jsonrpc/ErrorCodes.hpp"

namespace mcp::jsonrpc {
namespace json = boost::json;

namespace {

DecodeError invalid(RequestId id, std::string message) {
    return DecodeError{std::move(id), ErrorObject{error_code::invalid_request, std::move(message), nullptr}};
}

bool valid_params(const json::value& params) { return params.is_object() || params.is_array(); }

}  // namespace

Decoder::Decoder() : parser_(json::storage_ptr(), json::parse_options{.max_depth = 64}) {}

Decoded Decoder::decode(std::string_view frame) {
    Decoded out;
    parser_.reset();
    boost::system::error_code ec;
    parser_.write(frame.data(), frame.size(), ec);
    if (ec) {
        parser_.reset();
        out.single = DecodeError{RequestId(),
                                 ErrorObject{error_code::parse_error, "Parse error: " + ec.message(), nullptr}};
        return out;
    }
    json::value value = parser_.release();
    if (value.is_array()) {
        out.is_batch = true;
        auto& array = value.get_array();
        if (array.empty()) {
            out.is_batch = false;
            out.single = invalid(RequestId(), "Invalid request: an empty batch is not a message");
            return out;
        }
        // Each member costs a decoded item and, in a session, a reply: a body of "[1,1,…]" would
        // cost a hundred times its size before anything else is checked.
        if (array.size() > max_batch_members) {
            out.is_batch = false;
            out.single = invalid(RequestId(), "Invalid request: a batch of " + std::to_string(array.size()) +
                                                  " messages; at most " + std::to_string(max_batch_members) +
                                                  " are taken at once");
            return out;
        }
        out.batch.reserve(array.size());
        for (auto& member : array) out.batch.push_back(decode_value(std::move(member)));
        return out;
    }
    out.single = decode_value(std::move(value));
    return out;
}

DecodedItem decode_value(json::value&& value) {
    if (!value.is_object()) return invalid(RequestId(), "Invalid request: a message must be a JSON object");
    auto& object = value.get_object();

    RequestId id;
    const json::value* id_field = object.if_contains("id");
    bool has_valid_id = id_field && RequestId::from_json(*id_field, id);

    const json::value* version = object.if_contains("jsonrpc");
    if (!version || !version->is_string() || version->get_string() != "2.0")
        return invalid(id, "Invalid request: \"jsonrpc\" must be the string \"2.0\"");

    if (const json::value* method = object.if_contains("method")) {
        if (!method->is_string()) return invalid(id, "Invalid request: \"method\" must be a string");
        json::value* p = object.if_contains("params");
        if (p && !valid_params(*p)) return invalid(id, "Invalid request: \"params\" must be an object or an array");
        json::value params = p ? json::value(std::move(*p)) : json::value(nullptr);
        if (!id_field) return Message(Notification{std::string(method->get_string()), std::move(params)});
        if (!has_valid_id)
            return invalid(RequestId(), "Invalid request: \"id\" must be a string or an integer (not null)");
        return Message(Request{std::move(id), std::string(method->get_string()), std::move(params)});
    }

    const json::value* result = object.if_contains("result");
    const json::value* error = object.if_contains("error");
    if (!result && !error)
        return invalid(id, "Invalid request: a message needs \"method\" (a call) or \"result\"/\"error\" (a response)");
    if (result && error) return invalid(id, "Invalid response: it has both \"result\" and \"error\"");
    if (!id_field || (!has_valid_id && !id_field->is_null()))
        return invalid(RequestId(), "Invalid response: \"id\" must be a string or an integer");

    if (result) return Message(Response{std::move(id), json::value(std::move(*object.if_contains("result"))), std::nullopt});
    Response response{std::move(id), nullptr, std::nullopt};
    if (!error->is_object()) return invalid(response.id, "Invalid response: \"error\" must be an object");
    const auto& error_object = error->get_object();
    const json::value* code = error_object.if_contains("code");
    const json::value* message = error_object.if_contains("message");
    if (!code || !code->is_int64()) return invalid(response.id, "Invalid response: \"error.code\" must be an integer");
    ErrorObject parsed{static_cast<int>(code->get_int64()),
                       message && message->is_string() ? std::string(message->get_string()) : std::string(),
                       nullptr};
    if (const json::value* data = error_object.if_contains("data")) parsed.data = *data;
    response.error = std::move(parsed);
    return Message(std::move(response));
}

void encode_request(std::string& out, const RequestId& id, std::string_view method, const json::value& params) {
    out += R"({"jsonrpc":"2.0","id":)";
    id.append_json(out);
    out += R"(,"method":)";
    append_json_string(out, method);
    if (!params.is_null()) {
        out += R"(,"params":)";
        append_json(out, params);
    }
    out += '}';
}

void encode_notification(std::string& out, std::string_view method, const json::value& params) {
    out += R"({"jsonrpc":"2.0","method":)";
    append_json_string(out, method);
    if (!params.is_null()) {
        out += R"(,"params":)";
        append_json(out, params);
    }
    out += '}';
}

void encode_result(std::string& out, const RequestId& id, const json::value& result) {
    out += R"({"jsonrpc":"2.0","id":)";
    id.append_json(out);
    out += R"(,"result":)";
    append_json(out, result);
    out += '}';
}

void encode_result_text(std::string& out, const RequestId& id, std::string_view result_json) {
    out += R"({"jsonrpc":"2.0","id":)";
    id.append_json(out);
    out += R"(,"result":)";
    out += result_json;
    out += '}';
}

void encode_error(std::string& out, const RequestId& id, const ErrorObject& error) {
    out += R"({"jsonrpc":"2.0","id":)";
    id.append_json(out);
    out += R"(,"error":{"code":)";
    out += std::to_string(error.code);
    out += R"(,"message":)";
    append_json_string(out, error.message);
    if (!error.data.is_null()) {
        out += R"(,"data":)";
        append_json(out, error.data);
    }
    out += "}}";
}

void encode(std::string& out, const Message& message) {
    std::visit(
        [&](const auto& m) {
            using T = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<T, Request>) {
                encode_request(out, m.id, m.method, m.params);
            } else if constexpr (std::is_same_v<T, Notification>) {
                encode_notification(out, m.method, m.params);
            } else if (m.error) {
                encode_error(out, m.id, *m.error);
            } else {
                encode_result(out, m.id, m.result);
            }
        },
        message);
}

}  // namespace mcp::jsonrpc
