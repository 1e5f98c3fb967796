#include "transport/http/McpEndpoint.hpp"

#include "mcp/protocol/ErrorCodes.hpp"
#include "mcp/protocol/Versions.hpp"
#include "transport/http/HttpErrors.hpp"
#include "mcp/RandomId.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include <algorithm>

namespace mcp::http {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

/// A session's setup (initialize, then the messages below) is kept, and replayed by every instance
/// that serves it, for the session's whole life: these bound it at about 2 MiB a session.
constexpr std::size_t max_initialize_bytes = 64 * 1024;
constexpr std::size_t max_setup_message_bytes = 8 * 1024;
constexpr std::size_t max_setup_messages = 256;

/// Messages that change a session's state, which another instance must replay to rebuild it.
bool shapes_session(const jsonrpc::Message& message) {
    std::string_view method;
    if (auto* request = std::get_if<jsonrpc::Request>(&message)) method = request->method;
    if (auto* notification = std::get_if<jsonrpc::Notification>(&message)) method = notification->method;
    return method == "logging/setLevel" || method == "resources/subscribe" || method == "resources/unsubscribe" ||
           method == "notifications/initialized";
}

std::string requested_version(const jsonrpc::Request& initialize) {
    if (auto* params = initialize.params.if_object())
        if (auto* version = params->if_contains("protocolVersion"); version && version->is_string())
            return std::string(version->as_string());
    return {};
}

}  // namespace

McpEndpoint::McpEndpoint(Server& server, asio::io_context& io, const StreamableHttpServerOptions& options)
    : server_(server),
      io_(io),
      options_(options),
      store_(options.store),
      instance_(random_hex(8)),
      sweep_timer_(io),
      heartbeat_timer_(io) {
    if (!store_) store_ = make_memory_session_store();
}

void McpEndpoint::start() {
    schedule_sweep();
    schedule_heartbeat();
}

void McpEndpoint::handle(EndpointRequest& request) {
    if (shut_down_) {
        request.http->respond(503, error_body(jsonrpc::RequestId(), jsonrpc::error_code::internal_error,
                                              "The server is shutting down; retry against another instance"));
        return;
    }
    try {
        dispatch(request);
    } catch (const SessionStoreError& e) {
        if (options_.log) options_.log(std::string("session store: ") + e.what());
        request.http->respond(503, error_body(jsonrpc::RequestId(), jsonrpc::error_code::internal_error,
                                              std::string("The session store is unavailable (") + e.what() +
                                                  "); retry shortly"));
    }
}

void McpEndpoint::dispatch(EndpointRequest& request) {
    switch (request.verb) {
    case EndpointRequest::Verb::post:
        if (!has_required_scopes(request)) return;
        request.messages.origin = request.origin;
        if (request.modern) {
            post_stateless(request);
        } else {
            post_stateful(request);
        }
        break;
    case EndpointRequest::Verb::get:
        get(request);
        break;
    case EndpointRequest::Verb::remove:
        remove(request);
        break;
    }
}

bool McpEndpoint::has_required_scopes(EndpointRequest& request) {
    if (!options_.authorization) return true;
    auto check = [&](const jsonrpc::DecodedItem& item) {
        auto* message = std::get_if<jsonrpc::Message>(&item);
        auto* call = message ? std::get_if<jsonrpc::Request>(message) : nullptr;
        const json::object* params = call ? call->params.if_object() : nullptr;
        if (!params) return true;
        auto scopes = server_.required_scopes(call->method, *params);
        if (scopes.empty()) return true;
        auto verdict = options_.authorization->require(request.origin.get(), scopes);
        if (verdict.status == 0) return true;
        request.http->refuse(verdict.status, std::move(verdict.body), std::move(verdict.www_authenticate));
        return false;
    };
    if (!request.messages.is_batch) return check(request.messages.single);
    for (const auto& item : request.messages.batch)
        if (!check(item)) return false;
    return true;
}

bool McpEndpoint::priming_for(const EndpointRequest& request, std::string_view session_version) const {
    // The priming event (an id with empty data) confuses clients older than 2025-11-25.
    std::string_view version = request.version_header.empty() ? session_version : request.version_header;
    return version >= versions::v2025_11_25;
}

void McpEndpoint::post_stateful(EndpointRequest& request) {
    const jsonrpc::Request* initialize = single_request(request.messages);
    if (initialize && initialize->method != "initialize") initialize = nullptr;
    std::shared_ptr<HttpSessionTransport> transport;
    std::string version;
    if (initialize) {
        if (!request.session_id.empty()) {
            request.http->respond(400, error_body(initialize->id, jsonrpc::error_code::invalid_request,
                                                  "initialize must be sent without Mcp-Session-Id: it starts a "
                                                  "new session"));
            return;
        }
        std::string id = random_hex(16);
        std::string message;
        jsonrpc::encode(message, std::get<jsonrpc::Message>(request.messages.single));
        // Kept for the session's life (and replayed by every instance that serves it): bounded
        // far below a request body, or sessions times bodies would fill memory.
        if (message.size() > max_initialize_bytes) {
            request.http->respond(413, error_body(initialize->id, jsonrpc::error_code::invalid_request,
                                                  "initialize is " + std::to_string(message.size()) + " bytes; at most " +
                                                      std::to_string(max_initialize_bytes) +
                                                      " are kept for a session: send shorter clientInfo and capabilities"));
            return;
        }
        std::string principal = options_.authorization ? options_.authorization->principal(request.origin.get()) : "";
        if (!principal.empty()) {
            auto held = static_cast<std::size_t>(std::count_if(
                sessions_.begin(), sessions_.end(), [&](const auto& entry) { return entry.second.principal == principal; }));
            if (held >= options_.max_sessions_per_principal) {
                request.http->respond(503, error_body(initialize->id, jsonrpc::error_code::internal_error,
                                                      "You hold " + std::to_string(held) +
                                                          " sessions, the most one user may: end unused ones with "
                                                          "DELETE, or let them time out"));
                return;
            }
        }
        if (!store_->create(id, message, options_.max_sessions, options_.session_idle_timeout)) {
            request.http->respond(503, error_body(initialize->id, jsonrpc::error_code::internal_error,
                                                  "Too many sessions (limit " + std::to_string(options_.max_sessions) +
                                                      "); end unused ones with DELETE or retry later"));
            return;
        }
        version = requested_version(*initialize);
        auto& live = start_session(id);
        live.version = version;
        live.principal = std::move(principal);
        live.setup_applied = 1;
        transport = live.transport;
        request.http->set_session_id(id);
    } else {
        if (request.session_id.empty()) {
            auto* first = single_request(request.messages);
            request.http->respond(400, error_body(first ? first->id : jsonrpc::RequestId(),
                                                  jsonrpc::error_code::invalid_request,
                                                  "Mcp-Session-Id header is required: send initialize first and "
                                                  "echo the session id it returns"));
            return;
        }
        auto* live = find_session_for(request);
        if (!live) {
            request.http->respond(404, session_not_found_body());
            return;
        }
        transport = live->transport;
        version = live->version;
        // The messages that shape the session are kept for its life: each one and their number
        // are bounded, checked before any is kept.
        std::vector<std::string> setup;
        auto collect = [&](const jsonrpc::DecodedItem& item) {
            if (auto* message = std::get_if<jsonrpc::Message>(&item); message && shapes_session(*message)) {
                jsonrpc::encode(setup.emplace_back(), *message);
            }
        };
        if (request.messages.is_batch) {
            for (const auto& item : request.messages.batch) collect(item);
        } else {
            collect(request.messages.single);
        }
        for (const std::string& text : setup) {
            if (text.size() > max_setup_message_bytes) {
                request.http->respond(413, error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                                      "a logging/setLevel, resources/subscribe or unsubscribe message is kept "
                                                      "for the session's life, and this one is over " +
                                                          std::to_string(max_setup_message_bytes) + " bytes"));
                return;
            }
        }
        if (!setup.empty() && live->setup_applied + setup.size() > max_setup_messages) {
            request.http->respond(400, error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                                  "this session has had " + std::to_string(live->setup_applied) +
                                                      " setup messages (logging/setLevel, resources/subscribe, "
                                                      "unsubscribe), the most one session keeps: start a new session"));
            return;
        }
        for (const std::string& text : setup) {
            // If another instance added one meanwhile, the next catch_up replays both.
            if (store_->append_setup(request.session_id, text) == live->setup_applied + 1) ++live->setup_applied;
        }
    }
    watch_client(transport, request.http);
    PostExchange exchange{std::move(request.messages), request.http, request.accepts_sse, priming_for(request, version),
                          false, std::move(request.body)};
    transport->deliver(std::move(exchange));
}

void McpEndpoint::post_stateless(EndpointRequest& request) {
    // SEP-2243: arguments the tool mirrors in headers must match them (the headers may have been
    // used for routing by a proxy that never read the body).
    if (const jsonrpc::Request* call = single_request(request.messages); call && call->method == "tools/call") {
        const json::object* params = call->params.if_object();
        const json::value* name = params ? params->if_contains("name") : nullptr;
        const json::value* arguments = params ? params->if_contains("arguments") : nullptr;
        const Tool* tool = name && name->is_string() ? server_.find_tool(name->get_string()) : nullptr;
        if (tool && arguments && arguments->is_object()) {
            if (auto problem = check_parameter_headers(tool->input_schema, arguments->get_object(),
                                                       request.parameter_headers)) {
                request.http->respond(400, error_body(call->id, mcp::error_code::header_mismatch, problem->message));
                return;
            }
        }
    }
    auto transport = std::make_shared<HttpSessionTransport>(io_.get_executor(), SessionSettings{.store = store_});
    exchanges_.insert(transport);
    std::weak_ptr<McpEndpoint> weak_self = weak_from_this();
    std::weak_ptr<HttpSessionTransport> weak_transport = transport;
    transport->on_finished = [weak_self, weak_transport] {
        auto self = weak_self.lock();
        auto finished = weak_transport.lock();
        if (!finished) return;
        finished->close();
        if (self) self->exchanges_.erase(finished);
    };
    asio::co_spawn(io_, server_.serve(transport), asio::detached);
    watch_client(transport, request.http);
    PostExchange exchange{std::move(request.messages), request.http, request.accepts_sse, false, true};
    transport->deliver(std::move(exchange));
    // Notifications alone were answered with 202 and leave nothing in flight.
    if (transport->idle()) transport->report_finished();
}

void McpEndpoint::get(EndpointRequest& request) {
    if (request.session_id.empty()) {
        if (request.modern || versions::is_stateless(request.version_header)) {
            request.http->respond(405, error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                                  "GET is not used in protocol 2026-07-28: server messages come "
                                                  "on the response to subscriptions/listen"));
        } else {
            request.http->respond(400, error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                                  "Mcp-Session-Id header is required to open the GET stream"));
        }
        return;
    }
    auto* live = find_session_for(request);
    if (!live) {
        request.http->respond(404, session_not_found_body());
        return;
    }
    auto transport = live->transport;
    watch_client(transport, request.http);
    if (!request.last_event_id.empty()) {
        // Event ids are "<stream>_<sequence>".
        auto separator = request.last_event_id.rfind('_');
        std::uint64_t after = 0;
        bool valid = separator != std::string::npos && separator > 0;
        if (valid) {
            try {
                after = std::stoull(request.last_event_id.substr(separator + 1));
            } catch (const std::exception&) {
                valid = false;
            }
        }
        if (!valid || !transport->resume(request.last_event_id.substr(0, separator), after, request.http)) {
            request.http->respond(404, error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                                  "Unknown Last-Event-ID \"" + request.last_event_id +
                                                      "\": the stream ended or its events expired"));
        }
        return;
    }
    if (!transport->open_standalone(request.http, priming_for(request, live->version))) {
        request.http->respond(409, error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                              "This session already has a GET stream open; only one is allowed"));
    }
}

void McpEndpoint::remove(EndpointRequest& request) {
    if (request.session_id.empty()) {
        request.http->respond(request.modern || versions::is_stateless(request.version_header) ? 405 : 400,
                              error_body(jsonrpc::RequestId(), jsonrpc::error_code::invalid_request,
                                         "Mcp-Session-Id header is required to end a session"));
        return;
    }
    if (options_.authorization && !find_session_for(request)) {
        request.http->respond(404, session_not_found_body());
        return;
    }
    bool known = sessions_.contains(request.session_id);
    bool stored = store_->remove(request.session_id);
    if (!known && !stored) {
        request.http->respond(404, session_not_found_body());
        return;
    }
    end_session(request.session_id);
    request.http->respond(200, "");
}

McpEndpoint::LiveSession& McpEndpoint::start_session(const std::string& id) {
    SessionSettings settings{id, store_, options_.max_events_per_session, options_.sse_retry, instance_, options_.log};
    auto transport = std::make_shared<HttpSessionTransport>(io_.get_executor(), std::move(settings));
    auto& live = sessions_[id];
    live = LiveSession{transport, {}, std::chrono::steady_clock::now()};
    asio::co_spawn(io_, server_.serve(transport), asio::detached);
    return live;
}

McpEndpoint::LiveSession* McpEndpoint::find_session(const std::string& id) {
    // The store is the authority: a session another instance ended (DELETE) ends here too.
    std::size_t setup_count = store_->touch(id);
    auto it = sessions_.find(id);
    if (setup_count == 0) {
        if (it != sessions_.end()) end_session(id);
        return nullptr;
    }
    if (it != sessions_.end() && it->second.transport->closed()) {
        sessions_.erase(it);
        it = sessions_.end();
    }
    // Another instance may have started it: rebuild it from its setup messages.
    LiveSession& live = it != sessions_.end() ? it->second : start_session(id);
    live.last_seen = std::chrono::steady_clock::now();
    catch_up(id, live, setup_count);
    return &live;
}

McpEndpoint::LiveSession* McpEndpoint::find_session_for(const EndpointRequest& request) {
    LiveSession* live = find_session(request.session_id);
    if (!live || !options_.authorization) return live;
    std::string who = options_.authorization->principal(request.origin.get());
    // A session rebuilt here from the store belongs to its first user here (the store keeps no
    // principal): see docs/authorization.md.
    if (live->principal.empty()) live->principal = who;
    return live->principal == who ? live : nullptr;
}

void McpEndpoint::catch_up(const std::string& id, LiveSession& live, std::size_t setup_count) {
    if (live.setup_applied >= setup_count) return;
    auto setup = store_->load(id);
    if (!setup) return;
    jsonrpc::Decoder decoder;
    for (std::size_t index = live.setup_applied; index < setup->size(); ++index) {
        auto decoded = decoder.decode((*setup)[index]);
        if (decoded.is_batch) continue;
        auto* message = std::get_if<jsonrpc::Message>(&decoded.single);
        if (!message) continue;
        if (auto* request = std::get_if<jsonrpc::Request>(message)) {
            if (request->method == "initialize") live.version = requested_version(*request);
            // Fresh ids, so a replayed request can never collide with the client's own.
            request->id = jsonrpc::RequestId("mcpkit-restore-" + std::to_string(++live.replayed));
        }
        live.transport->deliver(PostExchange{std::move(decoded), nullptr, false, false, false, {}});
    }
    live.setup_applied = setup->size();
}

void McpEndpoint::end_session(const std::string& id) {
    auto it = sessions_.find(id);
    if (it == sessions_.end()) return;
    auto transport = it->second.transport;
    sessions_.erase(it);
    transport->close();
}

void McpEndpoint::watch_client(const std::shared_ptr<HttpSessionTransport>& transport,
                               const std::shared_ptr<ResponseStream>& http) {
    std::weak_ptr<HttpSessionTransport> weak_transport = transport;
    std::weak_ptr<ResponseStream> weak_http = http;
    http->on_client_gone = [weak_transport, weak_http] {
        auto transport = weak_transport.lock();
        auto http = weak_http.lock();
        if (transport && http) transport->client_left(http);
    };
}

void McpEndpoint::schedule_sweep() {
    auto period = std::max<std::chrono::steady_clock::duration>(
        std::min<std::chrono::steady_clock::duration>(options_.session_idle_timeout / 4, std::chrono::seconds(30)),
        std::chrono::milliseconds(100));
    sweep_timer_.expires_after(period);
    sweep_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
        auto self = weak.lock();
        if (ec || !self || self->shut_down_) return;
        auto now = std::chrono::steady_clock::now();
        std::vector<std::string> expired;
        for (const auto& [id, live] : self->sessions_) {
            if (live.transport->closed() ||
                (live.transport->idle() && now - live.last_seen >= self->options_.session_idle_timeout))
                expired.push_back(id);
        }
        // Only this instance's copy ends: the store expires the session itself when no instance
        // has touched it for the idle timeout.
        for (const auto& id : expired) self->end_session(id);
        self->schedule_sweep();
    });
}

void McpEndpoint::schedule_heartbeat() {
    // Other instances take over this one's streams once its heartbeat lapses.
    try {
        store_->heartbeat(instance_, std::chrono::seconds(3));
    } catch (const SessionStoreError& e) {
        if (options_.log) options_.log(std::string("session store: heartbeat failed: ") + e.what());
    }
    heartbeat_timer_.expires_after(std::chrono::seconds(1));
    heartbeat_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
        auto self = weak.lock();
        if (ec || !self || self->shut_down_) return;
        self->schedule_heartbeat();
    });
}

void McpEndpoint::shutdown() {
    shut_down_ = true;
    sweep_timer_.cancel();
    heartbeat_timer_.cancel();
    try {
        store_->heartbeat(instance_, std::chrono::milliseconds(1));  // gone now: others may take over at once
    } catch (const SessionStoreError&) {
    }
    auto sessions = std::move(sessions_);
    sessions_.clear();
    auto exchanges = std::move(exchanges_);
    exchanges_.clear();
    // What did not finish within the grace period is answered, not dropped.
    constexpr std::string_view going_away =
        "The server is shutting down and could not finish this request; send it again once it is back";
    for (auto& [id, live] : sessions) {
        live.transport->fail_requests_in_flight(going_away);
        live.transport->close();
    }
    for (const auto& exchange : exchanges) {
        exchange->fail_requests_in_flight(going_away);
        exchange->close();
    }
}

bool McpEndpoint::requests_in_flight() const {
    for (const auto& [id, live] : sessions_)
        if (live.transport->requests_in_flight()) return true;
    for (const auto& exchange : exchanges_)
        if (exchange->requests_in_flight()) return true;
    return false;
}

bool McpEndpoint::busy() const {
    for (const auto& [id, live] : sessions_)
        if (!live.transport->idle()) return true;
    return !exchanges_.empty();
}

}  // namespace mcp::http
