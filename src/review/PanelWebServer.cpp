#include "review/PanelWebServer.hpp"

#include "review/PanelAssets.hpp"

#include "common/PageServer.hpp"
#include "common/SameToken.hpp"

#include <mcp/transport/HostPolicy.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/url/parse.hpp>

#include <list>
#include <stdexcept>

namespace mcpkit::review {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace web = boost::beast::http;
namespace json = boost::json;

namespace {

using common::PageServer;
using common::same_token;

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
using Request = PageServer::Request;
using Response = PageServer::Response;

struct Target {
    std::string path;
    std::string token;
    std::string revision;
};

Target parse_target(std::string_view target) {
    Target parsed;
    auto url = boost::urls::parse_origin_form(target);
    if (!url) return parsed;
    parsed.path = std::string(url->path());
    for (auto parameter : url->params()) {
        if (parameter.key == "token") parsed.token = parameter.value;
        if (parameter.key == "revision") parsed.revision = parameter.value;
    }
    return parsed;
}

}  // namespace

struct PanelWebServer::State : std::enable_shared_from_this<State> {
    State(asio::any_io_executor executor, PanelWebOptions options, ReviewPanelModel& model, const EditorLauncher& editor)
        : executor(executor), options(std::move(options)), model(model), editor(editor) {}

    asio::any_io_executor executor;
    PanelWebOptions options;
    ReviewPanelModel& model;
    const EditorLauncher& editor;
    std::optional<PageServer> server;
    std::list<std::shared_ptr<asio::steady_timer>> listeners;  ///< one per open event stream
    bool stopping = false;

    void log(std::string_view message) const {
        if (options.log) options.log(message);
    }

    /// The loopback names on the panel's own port, and a page only from the panel's loopback port.
    std::optional<std::string> refuse_host_or_origin(const Request& request) const {
        auto policy = mcp::HostPolicy::loopback(server->port());
        auto origin = request.find(web::field::origin);
        return policy.check(request[web::field::host],
                            origin == request.end() ? std::nullopt : std::optional<std::string_view>(origin->value()));
    }

    Response reply(const Request& request, web::status status, std::string body,
                   std::string_view type = "application/json") const {
        return common::page_reply(request, status, std::move(body), type);
    }

    Response error(const Request& request, web::status status, const std::string& message) const {
        return common::page_error(request, status, message);
    }

    Response open_reference(const Request& request) {
        if (!mcp::HostPolicy::same_origin(request[web::field::origin], request[web::field::host]))
            return error(request, web::status::forbidden,
                         "Opening the editor is allowed only from the panel's own page (Origin http://" +
                             std::string(request[web::field::host]) + ")");
        if (!same_token(request["X-Review-Token"], options.token))
            return error(request, web::status::forbidden, "Missing or wrong X-Review-Token; reload the panel page");
        boost::system::error_code ec;
        json::value body = json::parse(request.body(), ec);
        const json::object* object = ec ? nullptr : body.if_object();
        const json::value* path = object ? object->if_contains("path") : nullptr;
        const json::value* line = object ? object->if_contains("line") : nullptr;
        if (!path || !path->is_string() || !line || !line->is_int64() || line->get_int64() < 1)
            return error(request, web::status::bad_request,
                         "Expected a JSON body {\"path\": \"/absolute/file\", \"line\": 1, \"end\"?: 2}");
        std::string file(path->get_string());
        if (file.empty() || file.front() != '/' || !model.links_to(file))
            return error(request, web::status::forbidden, "The panel opens only files a shown review links to: " + file);
        int end = 0;
        if (const json::value* end_line = object->if_contains("end"); end_line && end_line->is_int64())
            end = static_cast<int>(end_line->get_int64());
        std::string problem = editor.open(file, static_cast<int>(line->get_int64()), end);
        if (!problem.empty()) {
            log(problem);
            return error(request, web::status::internal_server_error, problem);
        }
        log("opened " + file + ":" + std::to_string(line->get_int64()));
        return reply(request, web::status::ok,
                     json::serialize(json::object{{"opened", file + ":" + std::to_string(line->get_int64())}}));
    }

    /// Answers one request; nullopt means the connection became an event stream and is done.
    asio::awaitable<std::optional<Response>> route(const Request& request, beast::tcp_stream& stream) {
        if (auto problem = refuse_host_or_origin(request))
            co_return error(request, web::status::forbidden, *problem + "; open the panel at the address it printed");
        Target target = parse_target(request.target());
        bool get = request.method() == web::verb::get;
        if (get && (target.path == "/review.js" || target.path == "/review.css")) {
            const auto& asset = target.path == "/review.js" ? panel_script() : panel_stylesheet();
            co_return reply(request, web::status::ok, std::string(asset),
                            target.path == "/review.js" ? "text/javascript" : "text/css");
        }
        if (target.path == "/open" && request.method() == web::verb::post) co_return open_reference(request);
        if (!get)
            co_return error(request, web::status::method_not_allowed, "Only GET, and POST /open, are served here");
        bool authorised = same_token(target.token, options.token);
        if (target.path == "/") {
            if (!authorised)
                co_return reply(request, web::status::forbidden,
                                "<!doctype html><title>Review panel</title><p>Open the address that "
                                "<code>mcpkit review-panel</code> printed: it carries this run's token.</p>",
                                "text/html; charset=utf-8");
            co_return reply(request, web::status::ok, std::string(panel_page()), "text/html; charset=utf-8");
        }
        if (!authorised) co_return error(request, web::status::forbidden, "Missing or wrong token; reload the panel page");
        if (target.path == "/api/review") {
            if (target.revision.empty()) co_return reply(request, web::status::ok, json::serialize(model.current_json()));
            auto review = model.review_json(std::strtoull(target.revision.c_str(), nullptr, 10));
            if (!review) co_return error(request, web::status::not_found, "No review " + target.revision + " in the history");
            co_return reply(request, web::status::ok, json::serialize(*review));
        }
        if (target.path == "/api/events") {
            co_await stream_events(stream);
            co_return std::nullopt;
        }
        co_return error(request, web::status::not_found, "Nothing at " + target.path);
    }

    asio::awaitable<void> stream_events(beast::tcp_stream& stream) {
        stream.expires_never();
        std::string head =
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n";
        auto listener = std::make_shared<asio::steady_timer>(executor);
        listeners.push_back(listener);
        std::uint64_t announced = 0;
        std::string event = head;
        for (;;) {
            if (model.revision() != announced) {
                announced = model.revision();
                event += "event: review\ndata: {\"revision\":" + std::to_string(announced) + "}\n\n";
            }
            if (event.empty()) event = ": keepalive\n\n";
            auto [ec, n] = co_await asio::async_write(stream.socket(), asio::buffer(event), use_tuple);
            event.clear();
            if (ec || stopping) break;
            if (model.revision() != announced) continue;  // changed while we were writing
            listener->expires_after(std::chrono::seconds(15));
            co_await listener->async_wait(use_tuple);
            if (stopping) break;
        }
        listeners.remove(listener);
    }
};

PanelWebServer::PanelWebServer(asio::any_io_executor executor, PanelWebOptions options, ReviewPanelModel& model,
                               const EditorLauncher& editor)
    : state_(std::make_shared<State>(std::move(executor), std::move(options), model, editor)) {}

PanelWebServer::~PanelWebServer() { stop(); }

void PanelWebServer::start() {
    auto& state = *state_;
    auto address = PageServer::address_of(state.options.host);
    if (!address.is_loopback())
        throw std::runtime_error("--http: the panel serves loopback addresses only (127.0.0.1 or ::1), not " +
                                 state.options.host);
    std::weak_ptr<State> weak = state_;
    auto route = [weak](Request& request, std::shared_ptr<PageServer::Stream> stream) -> asio::awaitable<std::optional<Response>> {
        auto self = weak.lock();  // held while the route runs (an event stream runs long)
        if (!self || self->stopping) co_return common::page_error(request, web::status::service_unavailable, "stopping");
        co_return co_await self->route(request, *stream);
    };
    state.server.emplace(state.executor, std::move(route), PageServer::Options{64 * 1024, "the panel page"});
    state.server->listen(address, state.options.port);
}

void PanelWebServer::stop() {
    auto& state = *state_;
    if (state.stopping) return;
    state.stopping = true;
    for (auto& listener : state.listeners) listener->cancel();
    if (state.server) state.server->stop();
}

std::uint16_t PanelWebServer::port() const { return state_->server ? state_->server->port() : 0; }

std::string PanelWebServer::page_url() const {
    std::string host = state_->options.host.find(':') != std::string::npos ? "[" + state_->options.host + "]"
                                                                            : state_->options.host;
    return "http://" + host + ":" + std::to_string(port()) + "/?token=" + state_->options.token;
}

void PanelWebServer::notify_changed() {
    for (auto& listener : state_->listeners) listener->cancel();
}

}  // namespace mcpkit::review
