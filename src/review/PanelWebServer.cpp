#include "review/PanelWebServer.hpp"

#include "review/PanelAssets.hpp"

#include "common/SameToken.hpp"

#include <mcp/transport/HostPolicy.hpp>
#include <mcp/transport/HttpServer.hpp>
#include <mcp/transport/SseWriter.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/url/parse.hpp>

#include <list>
#include <stdexcept>

namespace mcpkit::review {
namespace asio = boost::asio;
namespace json = boost::json;
using tcp = asio::ip::tcp;

namespace {

using common::same_token;
using Request = mcp::HttpRouteRequest;
using Response = mcp::HttpRouteResponse;

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

struct Target {
    std::string path;
    std::string token;
    std::string revision;
};

Target parse_target(const Request& request) {
    Target parsed;
    std::string target = request.path + "?" + request.query;  // the view below points into it
    auto url = boost::urls::parse_origin_form(target);
    if (!url) return parsed;
    parsed.path = std::string(url->path());  // percent-decoded
    for (auto parameter : url->params()) {
        if (parameter.key == "token") parsed.token = parameter.value;
        if (parameter.key == "revision") parsed.revision = parameter.value;
    }
    return parsed;
}

/// An answer with the headers every page's answers carry: the type, no caching, no sniffing.
Response reply(int status, std::string body, std::string_view type = "application/json") {
    Response response;
    response.status = status;
    response.body = std::move(body);
    response.content_type = std::string(type);
    response.headers = {{"Cache-Control", "no-store"}, {"X-Content-Type-Options", "nosniff"}};
    return response;
}

Response error(int status, const std::string& message) {
    return reply(status, json::serialize(json::object{{"error", message}}));
}

}  // namespace

struct PanelWebServer::State : std::enable_shared_from_this<State> {
    State(asio::io_context& io, PanelWebOptions options, ReviewPanelModel& model, const EditorLauncher& editor)
        : io(io), options(std::move(options)), model(model), editor(editor) {}

    asio::io_context& io;
    PanelWebOptions options;
    ReviewPanelModel& model;
    const EditorLauncher& editor;
    std::optional<mcp::HttpServer> server;
    std::uint16_t port = 0;  ///< bound, kept: the acceptor may be closed while a request is answered
    std::list<std::shared_ptr<asio::steady_timer>> listeners;  ///< one per open event stream
    std::list<std::weak_ptr<tcp::socket>> streams;              ///< closed on stop()
    bool stopping = false;

    void log(std::string_view message) const {
        if (options.log) options.log(message);
    }

    /// The loopback names on the panel's own port, and a page only from the panel's loopback port.
    std::optional<std::string> refuse_host_or_origin(const Request& request) const {
        auto policy = mcp::HostPolicy::loopback(port);
        return policy.check(request.header("host").value_or(""), request.header("origin"));
    }

    Response open_reference(const Request& request) {
        std::string_view host = request.header("host").value_or("");
        if (!mcp::HostPolicy::same_origin(request.header("origin").value_or(""), host))
            return error(403, "Opening the editor is allowed only from the panel's own page (Origin http://" +
                                  std::string(host) + ")");
        if (!same_token(request.header("x-review-token").value_or(""), options.token))
            return error(403, "Missing or wrong X-Review-Token; reload the panel page");
        boost::system::error_code ec;
        json::value body = json::parse(request.body, ec);
        const json::object* object = ec ? nullptr : body.if_object();
        const json::value* path = object ? object->if_contains("path") : nullptr;
        const json::value* line = object ? object->if_contains("line") : nullptr;
        if (!path || !path->is_string() || !line || !line->is_int64() || line->get_int64() < 1)
            return error(400, "Expected a JSON body {\"path\": \"/absolute/file\", \"line\": 1, \"end\"?: 2}");
        std::string file(path->get_string());
        if (file.empty() || file.front() != '/' || !model.links_to(file))
            return error(403, "The panel opens only files a shown review links to: " + file);
        int end = 0;
        if (const json::value* end_line = object->if_contains("end"); end_line && end_line->is_int64())
            end = static_cast<int>(end_line->get_int64());
        std::string problem = editor.open(file, static_cast<int>(line->get_int64()), end);
        if (!problem.empty()) {
            log(problem);
            return error(500, problem);
        }
        log("opened " + file + ":" + std::to_string(line->get_int64()));
        return reply(200, json::serialize(json::object{{"opened", file + ":" + std::to_string(line->get_int64())}}));
    }

    Response route(const Request& request) {
        if (auto problem = refuse_host_or_origin(request))
            return error(403, *problem + "; open the panel at the address it printed");
        Target target = parse_target(request);
        bool get = request.method == "GET";
        if (get && (target.path == "/review.js" || target.path == "/review.css")) {
            const auto& asset = target.path == "/review.js" ? panel_script() : panel_stylesheet();
            return reply(200, std::string(asset), target.path == "/review.js" ? "text/javascript" : "text/css");
        }
        if (target.path == "/open" && request.method == "POST") return open_reference(request);
        if (!get) return error(405, "Only GET, and POST /open, are served here");
        bool authorised = same_token(target.token, options.token);
        if (target.path == "/") {
            if (!authorised)
                return reply(403,
                             "<!doctype html><title>Review panel</title><p>Open the address that "
                             "<code>mcpkit review-panel</code> printed: it carries this run's token.</p>",
                             "text/html; charset=utf-8");
            return reply(200, std::string(panel_page()), "text/html; charset=utf-8");
        }
        if (!authorised) return error(403, "Missing or wrong token; reload the panel page");
        if (target.path == "/api/review") {
            if (target.revision.empty()) return reply(200, json::serialize(model.current_json()));
            auto review = model.review_json(std::strtoull(target.revision.c_str(), nullptr, 10));
            if (!review) return error(404, "No review " + target.revision + " in the history");
            return reply(200, json::serialize(*review));
        }
        if (target.path == "/api/events") {
            Response stream;
            stream.headers = {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-store"}};
            stream.take_over = [weak = weak_from_this()](mcp::TakenConnection taken) {
                auto self = weak.lock();
                if (!self || self->stopping) return;
                auto socket = std::make_shared<tcp::socket>(std::move(taken.socket));
                asio::co_spawn(self->io, self->stream_events(socket), asio::detached);
            };
            return stream;
        }
        return error(404, "Nothing at " + target.path);
    }

    /// Announces each new revision (and a keep-alive comment every 15 s) until the page leaves.
    asio::awaitable<void> stream_events(std::shared_ptr<tcp::socket> socket) {
        auto self = shared_from_this();
        auto listener = std::make_shared<asio::steady_timer>(io);
        listeners.push_back(listener);
        streams.remove_if([](const std::weak_ptr<tcp::socket>& stream) { return stream.expired(); });
        streams.push_back(socket);
        std::uint64_t announced = 0;
        std::string event;
        for (;;) {
            if (model.revision() != announced) {
                announced = model.revision();
                mcp::append_sse_event(event, "{\"revision\":" + std::to_string(announced) + "}", "review");
            }
            if (event.empty()) mcp::append_sse_comment(event);
            auto [ec, n] = co_await asio::async_write(*socket, asio::buffer(event), use_tuple);
            event.clear();
            if (ec || stopping) break;
            if (model.revision() != announced) continue;  // changed while we were writing
            listener->expires_after(std::chrono::seconds(15));
            co_await listener->async_wait(use_tuple);
            if (stopping) break;
        }
        listeners.remove(listener);
        boost::system::error_code ignored;
        socket->close(ignored);
    }
};

namespace {

/// Every path is the panel's. Holds the state weakly: the state holds the server that holds these.
class PanelRoutes : public mcp::HttpRoutes {
public:
    explicit PanelRoutes(std::weak_ptr<PanelWebServer::State> state) : state_(std::move(state)) {}
    bool serves(std::string_view) const override { return true; }
    std::size_t max_body_bytes(std::string_view) const override { return 64 * 1024; }
    void handle(Request request, std::function<void(Response)> respond) override {
        auto state = state_.lock();
        if (!state || state->stopping) return respond(error(503, "the panel is stopping"));
        respond(state->route(request));
    }

private:
    std::weak_ptr<PanelWebServer::State> state_;
};

}  // namespace

PanelWebServer::PanelWebServer(asio::io_context& io, PanelWebOptions options, ReviewPanelModel& model,
                               const EditorLauncher& editor)
    : state_(std::make_shared<State>(io, std::move(options), model, editor)) {}

PanelWebServer::~PanelWebServer() { stop(); }

void PanelWebServer::start() {
    auto& state = *state_;
    boost::system::error_code ec;
    auto address = asio::ip::make_address(state.options.host, ec);
    if (ec) throw std::runtime_error("--http: \"" + state.options.host + "\" is not an IP address; use e.g. 127.0.0.1");
    if (!address.is_loopback())
        throw std::runtime_error("--http: the panel serves loopback addresses only (127.0.0.1 or ::1), not " +
                                 state.options.host);
    mcp::HttpServerOptions http;
    http.host = state.options.host;
    http.port = state.options.port;
    http.routes = std::make_shared<PanelRoutes>(state_);
    http.max_body_bytes = 64 * 1024;
    http.log = state.options.log;
    state.server.emplace(state.io, std::move(http));
    state.server->start();
    state.port = state.server->port();
}

void PanelWebServer::stop() {
    auto& state = *state_;
    if (state.stopping) return;
    state.stopping = true;
    for (auto& listener : state.listeners) listener->cancel();
    for (auto& weak : state.streams)
        if (auto socket = weak.lock()) {
            boost::system::error_code ignored;
            socket->close(ignored);
        }
    if (state.server) state.server->stop();
}

std::uint16_t PanelWebServer::port() const { return state_->port; }

std::string PanelWebServer::page_url() const {
    std::string host = state_->options.host.find(':') != std::string::npos ? "[" + state_->options.host + "]"
                                                                            : state_->options.host;
    return "http://" + host + ":" + std::to_string(port()) + "/?token=" + state_->options.token;
}

void PanelWebServer::notify_changed() {
    for (auto& listener : state_->listeners) listener->cancel();
}

}  // namespace mcpkit::review
