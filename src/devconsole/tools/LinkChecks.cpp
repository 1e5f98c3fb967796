#include "devconsole/tools/LinkChecks.hpp"

#include "devconsole/JsonFields.hpp"
#include "devconsole/tools/CommandCall.hpp"
#include "devconsole/tools/ToolSupport.hpp"

#include "mcp/transport/HttpClient.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json.hpp>
#include <boost/url.hpp>

#include <algorithm>
#include <cctype>
#include <set>

namespace mcpkit::devconsole {
namespace json = boost::json;
namespace asio = boost::asio;

namespace {

constexpr std::size_t max_links = 100;

/// `href` resolved against the page, or "" when it is not an http(s) link worth requesting.
std::string absolute_link(std::string_view href, std::string_view page) {
    if (href.empty() || href.front() == '#') return {};
    auto base = boost::urls::parse_uri(page);
    auto reference = boost::urls::parse_uri_reference(href);
    if (!base || !reference) return {};
    boost::urls::url resolved;
    if (!boost::urls::resolve(*base, *reference, resolved)) return {};
    resolved.remove_fragment();
    if (resolved.scheme() != "http" && resolved.scheme() != "https") return {};
    return std::string(resolved.buffer());
}

std::string host_of(std::string_view url) {
    auto parsed = boost::urls::parse_uri(url);
    if (!parsed) return {};
    std::string host(parsed->host());
    if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
    std::transform(host.begin(), host.end(), host.begin(), [](unsigned char c) { return std::tolower(c); });
    return host;
}

/// Loopback, private, shared (carrier NAT), link-local and unspecified addresses: the user's own
/// network, which a page on the internet must not make the daemon probe.
bool is_internal_address(const asio::ip::address& address) {
    if (address.is_loopback() || address.is_unspecified()) return true;
    if (address.is_v6() && address.to_v6().is_v4_mapped())
        return is_internal_address(asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6()));
    if (address.is_v4()) {
        auto bytes = address.to_v4().to_bytes();
        return bytes[0] == 0 || bytes[0] == 10 || (bytes[0] == 172 && (bytes[1] & 0xF0) == 16) ||
               (bytes[0] == 192 && bytes[1] == 168) || (bytes[0] == 169 && bytes[1] == 254) ||
               (bytes[0] == 100 && (bytes[1] & 0xC0) == 64);
    }
    auto bytes = address.to_v6().to_bytes();
    return (bytes[0] & 0xFE) == 0xFC || (bytes[0] == 0xFE && (bytes[1] & 0xC0) == 0x80);
}

/// An internal host by its name or address literal (what a name resolves to is checked when the
/// daemon connects: see check_links).
bool is_internal_host(const std::string& host) {
    if (host == "localhost" || host.ends_with(".localhost")) return true;
    boost::system::error_code ec;
    auto address = asio::ip::make_address(host, ec);
    return !ec && is_internal_address(address);
}

struct LinkResult {
    std::string url;
    int status = 0;
    std::string error;
    std::int64_t elapsed_ms = 0;
};

asio::awaitable<LinkResult> check_one(mcp::HttpClient& http, std::string url) {
    LinkResult result;
    result.url = url;
    auto started = std::chrono::steady_clock::now();
    try {
        mcp::HttpRequest request;
        request.method = "HEAD";
        request.url = url;
        auto response = co_await http.send(request);
        if (response.status == 405 || response.status == 501) {
            request.method = "GET";  // some servers refuse HEAD
            response = co_await http.send(request);
        }
        result.status = response.status;
    } catch (const std::exception& e) {
        result.error = e.what();
    }
    result.elapsed_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
    co_return result;
}

}  // namespace

asio::awaitable<mcp::CallToolResult> check_links(DevConsole& console, mcp::ToolCall& call, std::string what,
                                                 json::object arguments) {
    std::vector<std::string> urls;
    std::set<std::string> seen;
    auto add = [&](const std::string& url) {
        if (!url.empty() && urls.size() < max_links && seen.insert(url).second) urls.push_back(url);
    };
    std::size_t skipped = 0;
    bool page_internal = false;  // link_health: whether the page is itself on the user's network
    if (what == "link_validation") {
        auto* given = arguments.if_contains("urls");
        if (!given || !given->is_array() || given->get_array().empty())
            co_return failure(what, "missing_urls", "\"urls\" is required: the http(s) URLs to check");
        for (const auto& item : given->get_array()) {
            auto url = item.is_string() ? absolute_link(item.get_string(), item.get_string()) : std::string();
            if (url.empty()) ++skipped;
            add(url);
        }
    } else {
        CommandRequest request;
        request.what = what;
        request.type = "dom";
        request.prefix = "links";
        request.origin = "analyze " + what;
        request.params = json::object{{"what", "dom"}, {"selector", "a[href]"}};
        auto found = co_await run_command(console, call, request);
        auto* fields = found.structured_content ? found.structured_content->if_object() : nullptr;
        const auto* found_result = fields ? fields->if_contains("result") : nullptr;
        if (found.is_error || !fields || json_fields::text(*fields, "status") != "complete" || !found_result ||
            !found_result->is_object())
            co_return found;
        const auto& result = found_result->get_object();
        auto page = json_fields::text(result, "effective_tab_url");
        auto domain = string_argument(arguments, "domain");
        // A page on the internet must not make the daemon probe the user's own network; a page
        // served from it (the usual development server) may have its links there checked.
        page_internal = is_internal_host(host_of(page));
        if (auto* matches = result.if_contains("matches"); matches && matches->is_array())
            for (const auto& match : matches->get_array()) {
                const auto* attributes = match.is_object() ? match.get_object().if_contains("attributes") : nullptr;
                auto href = attributes && attributes->is_object() ? json_fields::text(attributes->get_object(), "href") : std::string();
                auto url = absolute_link(href, page);
                auto host = host_of(url);
                bool wanted = !url.empty() && (!domain || host == *domain || host.ends_with("." + *domain)) &&
                              (page_internal || !is_internal_host(host));
                if (!wanted) {
                    ++skipped;
                    continue;
                }
                add(url);
            }
    }
    auto workers = static_cast<std::size_t>(std::clamp(number_argument(arguments, "max_workers").value_or(4), 1.0, 16.0));
    mcp::HttpClientOptions options;
    options.timeout = std::chrono::milliseconds(
        static_cast<std::int64_t>(std::clamp(number_argument(arguments, "timeout_ms").value_or(5000), 100.0, 60000.0)));
    options.max_body_bytes = 1u << 20;
    if (what != "link_validation" && !page_internal) {
        // A name of the page's links may resolve to the user's network, or a link may redirect
        // there: every address is checked as it is connected to, so the requests go direct (with
        // a proxy, only the proxy's address could be).
        options.allow_address = [](const asio::ip::address& address) { return !is_internal_address(address); };
        options.proxy = std::string();
    }
    auto executor = co_await asio::this_coro::executor;
    mcp::HttpClient http(executor, options);
    std::vector<LinkResult> results(urls.size());
    std::size_t next = 0;
    // A few workers take URLs in turn until none is left.
    auto worker = [&]() -> asio::awaitable<void> {
        while (next < urls.size() && !call.cancelled()) {
            auto index = next++;
            results[index] = co_await check_one(http, urls[index]);
        }
    };
    std::size_t running = std::min(workers, urls.size());
    asio::steady_timer all_done(executor, asio::steady_timer::time_point::max());
    for (std::size_t i = 0, started = running; i < started; ++i)
        asio::co_spawn(executor, worker(), [&](std::exception_ptr) {
            if (--running == 0) all_done.cancel();
        });
    if (running > 0) co_await all_done.async_wait(asio::as_tuple(asio::use_awaitable));
    json::array checked;
    std::size_t broken = 0;
    for (const auto& result : results) {
        bool ok = result.error.empty() && result.status > 0 && result.status < 400;
        if (!ok) ++broken;
        json::object item{{"url", result.url}, {"ok", ok}, {"elapsed_ms", result.elapsed_ms}};
        if (result.status) item["status"] = result.status;
        if (!result.error.empty()) item["error"] = result.error;
        checked.push_back(std::move(item));
    }
    auto count = checked.size();
    co_return answer(what, std::to_string(broken) + " broken of " + std::to_string(count) + " link(s) checked",
                     json::object{{"count", count}, {"broken", broken}, {"skipped", skipped}, {"links", std::move(checked)},
                                  {"note", "Requested by the daemon, not the browser: pages behind the user's login may "
                                           "answer 401/403 here"}});
}

}  // namespace mcpkit::devconsole
