#include "mcp/server/RequestContext.hpp"

#include "mcp/protocol/Methods.hpp"
#include "mcp/protocol/Versions.hpp"
#include "mcp/Error.hpp"
#include "server/HandlerRunner.hpp"

#include <array>

namespace mcp {
namespace json = boost::json;

namespace {
constexpr std::array<std::string_view, 8> level_names = {"debug",    "info",  "notice", "warning",
                                                         "error",    "critical", "alert", "emergency"};
}

std::string_view to_string(LoggingLevel level) { return level_names[static_cast<std::size_t>(level)]; }

std::optional<LoggingLevel> parse_logging_level(std::string_view text) {
    for (std::size_t i = 0; i < level_names.size(); ++i)
        if (level_names[i] == text) return static_cast<LoggingLevel>(i);
    return std::nullopt;
}

RequestContext::RequestContext(std::shared_ptr<detail::ServerSession> session, jsonrpc::RequestId id,
                               std::string method, const json::object& params, CancellationToken cancellation)
    : session_(std::move(session)),
      id_(std::move(id)),
      method_(std::move(method)),
      params_(&params),
      cancellation_(std::move(cancellation)) {}

RequestContext::~RequestContext() = default;

bool RequestContext::stateless() const { return versions::is_stateless(protocol_version_); }

void RequestContext::progress(double progress, std::optional<double> total, std::optional<std::string> message) const {
    if (progress_token_.is_null() || cancelled()) return;
    // Whole numbers go out as integers: Boost.JSON would write 100.0 as 1E2.
    auto number = [](double value) -> json::value {
        if (value == static_cast<double>(static_cast<std::int64_t>(value))) return static_cast<std::int64_t>(value);
        return value;
    };
    json::object params{{"progressToken", progress_token_}, {"progress", number(progress)}};
    if (total) params["total"] = number(*total);
    if (message) params["message"] = *message;
    session_->send_notification(notifications::progress, params, &id_);
}

void RequestContext::log_data(LoggingLevel level, json::value data, std::optional<std::string> logger) const {
    if (cancelled()) return;
    if (!log_everything_ && (!log_level_ || level < *log_level_)) return;
    json::object params{{"level", to_string(level)}, {"data", std::move(data)}};
    if (logger) params["logger"] = *logger;
    session_->send_notification(notifications::message, params, &id_);
}

const json::value* RequestContext::input_response(std::string_view key) const {
    if (!input_responses_) return nullptr;
    return input_responses_->if_contains(key);
}

void RequestContext::close_stream() const {
    if (session_) session_->close_request_stream(id_);
}

boost::asio::awaitable<json::value> RequestContext::request_client(std::string_view method, json::object params) const {
    if (stateless())
        throw Error::internal("Requests to the client do not exist in protocol 2026-07-28: return mcp::InputRequired");
    std::string_view capability = detail::capability_for(method);
    if (!capability.empty() && !client_supports(capability))
        throw Error(jsonrpc::error_code::invalid_request,
                    "The client did not declare the " + std::string(capability) + " capability");
    jsonrpc::Response response = co_await session_->call_client(method, std::move(params), id_, cancellation_);
    if (response.error) throw Error(response.error->code, response.error->message, response.error->data);
    co_return std::move(response.result);
}

}  // namespace mcp
