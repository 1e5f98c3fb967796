#pragma once
// Serves a Server over Streamable HTTP: one endpoint (POST, GET, DELETE) that answers both
// protocol eras, telling them apart per request. 2025-era clients get sessions (Mcp-Session-Id),
// SSE streams with event ids, resumption with Last-Event-ID and a standalone GET stream;
// 2026-07-28 clients are served statelessly, one POST per request.
//
//   boost::asio::io_context io;
//   mcp::StreamableHttpServer http(server, io, {.port = 3000});
//   http.start();     // binds; http.port() tells the port when 0 was asked
//   io.run();         // the Server's own thread; extra HTTP threads run by themselves
//
// Threads: every MCP session runs on `io` (the Server's thread, where its handlers and timers
// run). HTTP parsing, JSON decoding and socket writes are spread over `http_threads` more
// threads; a request hops to `io` only to be dispatched.

#include "mcp/Export.hpp"
#include "mcp/server/Server.hpp"
#include "mcp/transport/HttpRequestAuthorizer.hpp"
#include "mcp/transport/HttpRoutes.hpp"
#include "mcp/transport/SessionStore.hpp"

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mcp {

/// Where a StreamableHttpServer listens and how it guards, limits and keeps its sessions and streams.
struct MCP_API StreamableHttpServerOptions {
    /// Loopback by default: a server on another interface must say which Host names it answers to.
    std::string host = "127.0.0.1";
    std::uint16_t port = 0;  ///< The port to bind; 0 lets the system choose (see StreamableHttpServer::port).
    std::string path = "/mcp";  ///< The path of the MCP endpoint.
    /// Threads that parse and write HTTP besides the Server's own. Default: one per core this
    /// process may use (its CPU affinity), minus one; with a single core everything runs on the
    /// Server's thread and requests make no hop between threads.
    std::optional<std::size_t> http_threads;
    /// DNS rebinding protection: Host names accepted (any port). Empty: localhost, 127.0.0.1 and
    /// [::1] when bound to loopback, and no check otherwise.
    std::vector<std::string> allowed_hosts;
    /// Origins accepted besides the allowed hosts over http/https (e.g. "https://app.example.com").
    std::vector<std::string> allowed_origins;
    /// Browser pages: false accepts a page served from an allowed host (any port of a loopback
    /// name, for a local web client); true refuses every request that carries an Origin that
    /// allowed_origins does not list, with no CORS answer, for servers no web page may reach
    /// (they hold what a browser captured, or act in it).
    bool only_listed_origins = false;
    /// The largest request body accepted; a larger one is refused with 413.
    std::size_t max_body_bytes = 4 * 1024 * 1024;
    /// Sessions beyond this are refused with 503 until others end.
    std::size_t max_sessions = 10000;
    /// Behind an authorizer that tells users apart (OAuth): sessions one principal may hold in
    /// this process, so one user cannot take all of max_sessions from the others.
    std::size_t max_sessions_per_principal = 1000;
    /// A session with no request and no open stream for this long is ended.
    std::chrono::seconds session_idle_timeout{std::chrono::minutes(30)};
    /// A connection that sends nothing for this long (between requests) is closed.
    std::chrono::seconds connection_idle_timeout{std::chrono::seconds(60)};
    /// The SSE `retry:` field, in milliseconds: how long a client waits before resuming a stream.
    std::chrono::milliseconds sse_retry{std::chrono::milliseconds(1000)};
    /// Comment lines sent on idle SSE streams so proxies keep them open.
    std::chrono::seconds sse_keepalive{std::chrono::seconds(15)};
    /// Events kept per session for resumption.
    std::size_t max_events_per_session = 1024;
    /// On stop(), requests in flight get this long to finish.
    std::chrono::milliseconds shutdown_grace{std::chrono::seconds(5)};
    /// Where sessions and SSE event logs live. Default: this process's memory.
    std::shared_ptr<SessionStore> store;
    /// HTTPS: the PEM certificate chain and its private key (both, or neither for plain HTTP).
    /// serve_http reads them again on SIGHUP.
    std::string tls_certificate_file;
    std::string tls_private_key_file;  ///< The private key of `tls_certificate_file`, in PEM.
    /// Guards the endpoint (mcp::auth::ResourceServer for OAuth 2.1): every request needs its
    /// verdict, and the documents it serves (protected resource metadata) are served beside the
    /// endpoint. None: no authorization (fine on loopback).
    std::shared_ptr<HttpRequestAuthorizer> authorization;
    /// The application's own routes on the same port (a health check, a browser extension's
    /// channel): requests for their paths go to them, whatever the endpoint's rules.
    std::shared_ptr<HttpRoutes> routes;
    /// Where the server reports what it refused or could not do. Default: nothing.
    std::function<void(std::string_view)> log;
};

/// Serves a Server over Streamable HTTP: one endpoint (POST, GET, DELETE) answering both protocol
/// eras, telling them apart per request. Sessions run on `io`; HTTP work is spread over
/// `http_threads` more threads.
class MCP_API StreamableHttpServer {
public:
    /// Serves `server`, whose sessions run on `io`; nothing is bound until start(). `server` must
    /// outlive this object.
    StreamableHttpServer(Server& server, boost::asio::io_context& io, StreamableHttpServerOptions options = {});
    /// Stops the extra HTTP threads.
    ~StreamableHttpServer();
    StreamableHttpServer(const StreamableHttpServer&) = delete;
    StreamableHttpServer& operator=(const StreamableHttpServer&) = delete;

    /// Binds and starts accepting, and starts the extra HTTP threads. Throws on a bind failure, or
    /// std::invalid_argument for unusable TLS files.
    void start();
    /// The bound port (after start()).
    std::uint16_t port() const;
    /// Reads the TLS certificate and key files again, for new connections (a renewed certificate).
    /// Throws std::invalid_argument, keeping the current ones, when they are unusable. Call on the
    /// Server's thread.
    void reload_tls();
    /// Stops accepting, ends sessions and streams, lets requests in flight finish within
    /// shutdown_grace, then calls `done` on the Server's thread. Safe from any thread.
    void stop(std::function<void()> done = {});

    /// The listener and endpoint, defined inside the library.
    struct Impl;

private:
    std::shared_ptr<Impl> impl_;
};

/// The whole life of an HTTP server process: serves until SIGINT/SIGTERM, then shuts down
/// gracefully. Prints nothing on stdout. Returns the exit code.
MCP_API int serve_http(Server& server, boost::asio::io_context& io, StreamableHttpServerOptions options,
               std::function<void(std::uint16_t port)> on_listening = {});

}  // namespace mcp
