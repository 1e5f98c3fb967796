// libFuzzer target: what an outside client POSTs to the Streamable HTTP endpoint, as the MCP
// header set plus a body, sent over a real socket to a real StreamableHttpServer (the connection,
// the header rules, the endpoint's session and stateless paths, both protocol eras, the Server
// behind it). The first bytes of an input pick each header: MCP-Protocol-Version (absent, each
// era's, unknown, empty, or bytes of the input), Mcp-Method and Mcp-Name (absent, the body's own,
// mismatched, empty, raw), Mcp-Session-Id (absent, unknown, empty, a live session's); the rest
// is the body. The CI fuzzers once varied only bodies, and a notification POSTed without
// Mcp-Method killed every server. Whatever arrives, the server must answer it with a status line,
// and must still answer a well-formed request afterwards.

#include <mcp/server/Server.hpp>
#include <mcp/transport/StreamableHttpServer.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/describe.hpp>
#include <boost/json/parse.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>

namespace {

struct EchoArgs {
    std::string text;
};
BOOST_DESCRIBE_STRUCT(EchoArgs, (), (text))

/// The server under test, on its own thread for the whole run.
struct Endpoint {
    mcp::Server server{mcp::Implementation{.name = "fuzz-endpoint", .version = "1.0.0"}};
    boost::asio::io_context io;
    std::unique_ptr<mcp::StreamableHttpServer> http;
    std::thread thread;
    std::uint16_t port = 0;
    std::string live_session;

    Endpoint() {
        server.add_tool("echo", "Echoes text", [](const EchoArgs& args) { return args.text; });
        mcp::StreamableHttpServerOptions options;
        options.port = 0;
        options.http_threads = 0;  // one thread: the fuzzer's run stays deterministic enough
        options.max_sessions = 256;
        http = std::make_unique<mcp::StreamableHttpServer>(server, io, std::move(options));
        http->start();
        port = http->port();
        thread = std::thread([this] { io.run(); });
        std::string initialize =
            R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
            R"("capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}})";
        std::string answer = exchange(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Accept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: " +
            std::to_string(initialize.size()) + "\r\n\r\n" + initialize);
        auto at = answer.find("Mcp-Session-Id: ");
        if (at == std::string::npos) {
            std::fprintf(stderr, "no session from initialize:\n%s\n", answer.c_str());
            std::abort();
        }
        live_session = answer.substr(at + 16, answer.find("\r\n", at) - at - 16);
    }

    /// Sends `request` on a new connection and returns all that comes back before the server
    /// closes it, or before half a second of silence (`silent`: a stream may stay open, as
    /// subscriptions/listen's does, which is not a failure).
    std::string exchange(const std::string& request, bool* silent = nullptr, bool* reset = nullptr) const {
        int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        int connected = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
        if (connected != 0 && errno == EINTR) {
            // The connection goes on in the background: wait until it is made.
            pollfd ready{fd, POLLOUT, 0};
            while (::poll(&ready, 1, 2000) < 0 && errno == EINTR) {}
            int error = 0;
            socklen_t length = sizeof error;
            ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length);
            connected = error == 0 ? 0 : -1;
        }
        if (connected != 0) {
            std::perror("the server stopped accepting connections");
            std::abort();
        }
        timeval timeout{0, 500000};
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        for (std::size_t sent = 0; sent < request.size();) {
            ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;  // the server may refuse early (a head it rejects) and close
            sent += static_cast<std::size_t>(n);
        }
        std::string answer;
        char buffer[4096];
        for (;;) {
            ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
            if (n < 0 && errno == EINTR) continue;  // libFuzzer's timer signal, every second
            if (n < 0 && silent && (errno == EAGAIN || errno == EWOULDBLOCK)) *silent = true;
            if (n < 0 && reset && errno == ECONNRESET) *reset = true;
            if (n <= 0) break;
            answer.append(buffer, static_cast<std::size_t>(n));
            if (answer.size() > (1u << 20)) break;
        }
        ::close(fd);
        return answer;
    }
};

Endpoint& endpoint() {
    static Endpoint* instance = new Endpoint();  // never destroyed: its thread runs to the end
    return *instance;
}

/// A header value from the input: no line breaks (those would only end the head early).
std::string header_text(std::string_view bytes) {
    std::string text;
    for (char c : bytes)
        if (c != '\r' && c != '\n' && c != '\0') text += c;
    return text;
}

/// The body's method, or for `"params"` its name, uri or taskId: what matching headers carry.
std::string body_field(std::string_view body, bool params_name) {
    boost::system::error_code ec;
    auto value = boost::json::parse(body, ec);
    if (ec || !value.is_object()) return {};
    const auto& object = value.get_object();
    if (!params_name) {
        auto* method = object.if_contains("method");
        return method && method->is_string() ? std::string(method->get_string()) : std::string();
    }
    auto* params = object.if_contains("params");
    if (!params || !params->is_object()) return {};
    for (const char* name : {"name", "uri", "taskId"})
        if (auto* item = params->get_object().if_contains(name); item && item->is_string())
            return std::string(item->get_string());
    return {};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Endpoint& server = endpoint();
    if (size < 5) return 0;
    std::string_view input(reinterpret_cast<const char*>(data), size);
    auto choice = [&](std::size_t index) { return static_cast<unsigned char>(input[index]); };
    std::string_view body = input.substr(5);
    // A short run of body bytes doubles as a raw header value when a header asks for one.
    std::string raw = header_text(body.substr(0, std::min<std::size_t>(body.size(), 24)));

    std::string head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
    switch (choice(4) % 4) {
    case 0: head += "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"; break;
    case 1: head += "Content-Type: application/json\r\nAccept: */*\r\n"; break;
    case 2: head += "Content-Type: text/plain\r\nAccept: application/json, text/event-stream\r\n"; break;
    default: head += "Content-Type: application/json\r\nAccept: application/json\r\n"; break;
    }
    static const char* const versions[] = {"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "1999-01-01", ""};
    if (unsigned pick = choice(0) % 9; pick < 7) head += std::string("MCP-Protocol-Version: ") + versions[pick] + "\r\n";
    else if (pick == 7) head += "MCP-Protocol-Version: " + raw + "\r\n";
    switch (choice(1) % 5) {
    case 0: break;
    case 1: head += "Mcp-Method: " + header_text(body_field(body, false)) + "\r\n"; break;
    case 2: head += "Mcp-Method: tools/list\r\n"; break;
    case 3: head += "Mcp-Method: \r\n"; break;
    default: head += "Mcp-Method: " + raw + "\r\n"; break;
    }
    switch (choice(2) % 4) {
    case 0: break;
    case 1: head += "Mcp-Name: " + header_text(body_field(body, true)) + "\r\n"; break;
    case 2: head += "Mcp-Name: =?base64?" + raw + "?=\r\n"; break;
    default: head += "Mcp-Name: " + raw + "\r\nMcp-Param-Text: " + raw + "\r\n"; break;
    }
    switch (choice(3) % 4) {
    case 0: break;
    case 1: head += "Mcp-Session-Id: 0123456789abcdef0123456789abcdef\r\n"; break;
    case 2: head += "Mcp-Session-Id: \r\n"; break;
    default: head += "Mcp-Session-Id: " + server.live_session + "\r\n"; break;
    }
    head += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
    head.append(body);
    bool silent = false;
    bool reset = false;
    std::string answer = server.exchange(head, &silent, &reset);
    // A reset may discard an answer the server did write (it closed with bytes of ours unread):
    // then the server must still answer a well-formed request.
    if (reset && !answer.starts_with("HTTP/1.1 ")) {
        std::string ping = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
        answer = server.exchange("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                                 "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                                 "MCP-Protocol-Version: 2025-11-25\r\nMcp-Session-Id: " + server.live_session +
                                 "\r\nContent-Length: " + std::to_string(ping.size()) + "\r\n\r\n" + ping);
    }
    // Every request is answered: a connection the server closed holds a status line first.
    if (!silent && !answer.starts_with("HTTP/1.1 ")) {
        std::fprintf(stderr, "no answer to:\n%s\n(got %zu bytes)\n", head.c_str(), answer.size());
        std::abort();
    }
    return 0;
}
