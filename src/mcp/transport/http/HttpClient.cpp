// mcp::HttpClient: requests on the Streamable HTTP client's connection pools, one pool per origin,
// with redirects for GET and HEAD and one retry when a kept-alive connection turned out closed.

#include "mcp/transport/HttpClient.hpp"

#include "transport/http/HttpClientConnection.hpp"

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include <map>

namespace mcp {
namespace asio = boost::asio;
namespace web = boost::beast::http;

std::optional<std::string_view> HttpResponse::header(std::string_view name) const {
    for (const auto& [key, value] : headers)
        if (boost::beast::iequals(key, name)) return std::string_view(value);
    return std::nullopt;
}

namespace {

bool is_redirect(int status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

std::string resolve_location(const std::string& base, std::string_view location) {
    auto base_url = boost::urls::parse_absolute_uri(base);
    auto reference = boost::urls::parse_uri_reference(location);
    if (!base_url || !reference) throw HttpError("a redirect to \"" + std::string(location) + "\" cannot be followed");
    boost::urls::url resolved;
    if (!boost::urls::resolve(*base_url, *reference, resolved))
        throw HttpError("a redirect to \"" + std::string(location) + "\" cannot be followed");
    resolved.remove_fragment();
    return std::string(resolved.buffer());
}

/// scheme://host:port of an absolute URL ("" if it is not one).
std::string origin(const std::string& url) {
    auto parsed = boost::urls::parse_absolute_uri(url);
    if (!parsed) return {};
    std::string port = parsed->has_port() ? std::string(parsed->port()) : (parsed->scheme() == "https" ? "443" : "80");
    return std::string(parsed->scheme()) + "://" + std::string(parsed->encoded_host()) + ":" + port;
}

void check_header(const std::string& name, const std::string& value) {
    auto breaks = [](const std::string& text) { return text.find_first_of("\r\n") != std::string::npos; };
    if (name.empty() || breaks(name) || breaks(value))
        throw std::invalid_argument("the header \"" + name + "\" is empty or holds a line break");
}

}  // namespace

struct HttpClient::Impl {
    asio::any_io_executor executor;
    HttpClientOptions options;
    std::map<std::string, std::unique_ptr<http::ConnectionPool>> pools;  ///< by scheme, host and port

    http::ConnectionPool& pool_for(const http::HttpUrl& url) {
        std::string origin = std::string(url.tls ? "https://" : "http://") + url.host + ":" + url.port;
        auto& pool = pools[origin];
        if (!pool)
            pool = std::make_unique<http::ConnectionPool>(
                executor, url, http::ClientConnectionSettings{options.ca_file, options.proxy, options.allow_address});
        return *pool;
    }

    /// A client sends to one URL again and again (an LLM's endpoint): the last one parsed is kept.
    std::string last_url;
    http::HttpUrl last_parsed;

    http::HttpUrl parsed_url(const std::string& text) {
        if (text != last_url || last_url.empty()) {
            try {
                last_parsed = http::parse_http_url(text);
            } catch (const std::invalid_argument& e) {
                throw HttpError(e.what());
            }
            last_url = text;
        }
        return last_parsed;
    }

    asio::awaitable<HttpResponse> send(HttpRequest request, const std::function<void(std::string_view)>* on_data) {
        for (int redirects = 0;; ++redirects) {
            HttpResponse response = co_await send_once(request, on_data);
            auto location = response.header("Location");
            bool follow = is_redirect(response.status) && location && redirects < options.max_redirects &&
                          (request.method == "GET" || request.method == "HEAD" || response.status == 303);
            if (!follow) co_return response;
            std::string next = resolve_location(request.url, *location);
            // Credentials are for the origin they were given to, not for wherever it redirects.
            if (origin(next) != origin(request.url))
                std::erase_if(request.headers, [](const auto& header) {
                    return boost::beast::iequals(header.first, "Authorization") ||
                           boost::beast::iequals(header.first, "Cookie");
                });
            request.url = std::move(next);
            if (response.status == 303 && request.method != "HEAD") {
                request.method = "GET";
                request.body.clear();
            }
        }
    }

    /// The request's body is lent to the message it is sent in, and given back at the end (a
    /// redirect may send it again): an LLM request carries kilobytes of tool schemas.
    asio::awaitable<HttpResponse> send_once(HttpRequest& request, const std::function<void(std::string_view)>* on_data) {
        http::HttpUrl url = parsed_url(request.url);
        web::verb verb = web::string_to_verb(request.method);
        if (verb == web::verb::unknown) throw std::invalid_argument("unknown HTTP method \"" + request.method + "\"");
        web::request<web::string_body> message{verb, url.target, 11};
        message.set(web::field::host, url.host_header);
        message.set(web::field::user_agent, "mcpkit");
        for (const auto& [name, value] : request.headers) {
            check_header(name, value);
            message.set(name, value);
        }
        message.body().swap(request.body);
        message.prepare_payload();

        http::ConnectionPool& pool = pool_for(url);
        // A connection kept alive may have been closed by the server meanwhile: such a failure
        // is tried once more on a new connection, which also makes it safe for a POST.
        for (int attempt = 0;; ++attempt) {
            bool reused = false;
            auto stream = co_await pool.acquire(options.timeout, &reused);
            if (!stream) throw HttpError(pool.last_error());
            http::HttpExchange exchange(stream);
            if (verb == web::verb::head) exchange.expect_no_body();
            if (!co_await exchange.start(message, options.timeout)) {
                if (reused && attempt == 0 && exchange.closed_unanswered()) continue;
                throw HttpError("no answer from " + request.url + " within " +
                                std::to_string(options.timeout.count()) + " ms");
            }
            HttpResponse response;
            response.url = request.url;
            response.status = static_cast<int>(exchange.head().result_int());
            response.reason = std::string(exchange.head().reason());
            for (const auto& field : exchange.head())
                response.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
            exchange.limit_silence(options.idle_timeout);
            auto silent = [&] {
                return HttpError("the answer from " + request.url + " broke off: nothing came for " +
                                 std::to_string(options.idle_timeout.count()) + " ms");
            };
            if (on_data) {
                if (!co_await exchange.read_body(*on_data)) {
                    if (exchange.went_silent()) throw silent();
                    throw HttpError("the answer from " + request.url + " broke off");
                }
            } else {
                auto body = co_await exchange.read_all(options.max_body_bytes);
                if (!body && exchange.went_silent()) throw silent();
                if (!body)
                    throw HttpError("the answer from " + request.url + " broke off or passed " +
                                    std::to_string(options.max_body_bytes) + " bytes");
                response.body = std::move(*body);
            }
            if (exchange.reusable()) pool.release(stream);
            message.body().swap(request.body);
            co_return response;
        }
    }
};

HttpClient::HttpClient(asio::any_io_executor executor, HttpClientOptions options)
    : impl_(std::make_shared<Impl>(Impl{std::move(executor), std::move(options), {}, {}, {}})) {}

HttpClient::~HttpClient() { close(); }

asio::awaitable<HttpResponse> HttpClient::send(HttpRequest request) {
    auto impl = impl_;  // alive until the request ends, even if the client is destroyed meanwhile
    co_return co_await impl->send(std::move(request), nullptr);
}

asio::awaitable<HttpResponse> HttpClient::send_streaming(HttpRequest request,
                                                         std::function<void(std::string_view)> on_data) {
    auto impl = impl_;
    co_return co_await impl->send(std::move(request), &on_data);
}

void HttpClient::close() {
    for (auto& [origin, pool] : impl_->pools) pool->close_all();
}

}  // namespace mcp
