#include "review/IpcServer.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <list>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace mcpkit::review {
namespace asio = boost::asio;
namespace json = boost::json;
using local = asio::local::stream_protocol;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

std::string reply(std::string_view id, bool success, std::string_view error = {}) {
    json::object object{{"id", id}, {"success", success}};
    if (!success) object["error"] = error;
    return json::serialize(object);
}

}  // namespace

std::string answer_line(std::string_view line, const IpcServer::Handler& handler) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    boost::system::error_code ec;
    json::value message = json::parse(line, ec);
    if (ec) return reply("unknown", false, "Invalid JSON message");
    const json::object* object = message.if_object();
    if (!object) return reply("unknown", false, "Invalid message: expected a JSON object {type, payload, id}");
    const json::value* id = object->if_contains("id");
    if (!id || !id->is_string())
        return reply("unknown", false, "Invalid message: \"id\" must be a string (a UUID) to match the reply to");
    const json::value* type = object->if_contains("type");
    if (!type || !type->is_string())
        return reply(id->get_string(), false, "Invalid message: \"type\" must be a string such as \"present-review\"");
    static const json::object empty;
    const json::value* payload = object->if_contains("payload");
    if (payload && !payload->is_object() && !payload->is_null())
        return reply(id->get_string(), false, "Invalid message: \"payload\" must be an object");
    IpcReply outcome = handler(type->get_string(), payload && payload->is_object() ? payload->get_object() : empty);
    return reply(id->get_string(), outcome.success, outcome.error);
}

struct IpcServer::State : std::enable_shared_from_this<State> {
    State(asio::any_io_executor executor, std::string path, Handler handler, std::size_t max_bytes)
        : executor(executor), acceptor(executor), path(std::move(path)), handler(std::move(handler)),
          max_bytes(max_bytes) {}

    asio::any_io_executor executor;
    local::acceptor acceptor;
    std::string path;
    Handler handler;
    std::size_t max_bytes;
    std::list<std::shared_ptr<local::socket>> clients;
    bool stopped = false;

    asio::awaitable<void> accept_loop() {
        auto self = shared_from_this();
        for (;;) {
            local::socket socket(executor);
            auto [ec] = co_await acceptor.async_accept(socket, use_tuple);
            if (ec) co_return;
            auto client = std::make_shared<local::socket>(std::move(socket));
            clients.push_back(client);
            asio::co_spawn(executor, serve(client), asio::detached);
        }
    }

    asio::awaitable<void> serve(std::shared_ptr<local::socket> client) {
        auto self = shared_from_this();
        std::string buffer;
        for (;;) {
            auto [ec, n] = co_await asio::async_read_until(*client, asio::dynamic_buffer(buffer, max_bytes), '\n', use_tuple);
            if (ec == asio::error::not_found) {
                std::string line = reply("unknown", false,
                                         "Message longer than " + std::to_string(max_bytes) +
                                             " bytes, or not ended by a newline; send one JSON message per line") +
                                   "\n";
                co_await asio::async_write(*client, asio::buffer(line), use_tuple);
                break;
            }
            if (ec) break;
            std::string_view line(buffer.data(), n - 1);
            std::string answer = line.find_first_not_of(" \t\r") == std::string_view::npos
                                     ? std::string()  // blank lines between messages carry nothing
                                     : answer_line(line, handler) + "\n";
            buffer.erase(0, n);
            if (answer.empty()) continue;
            auto [write_error, written] = co_await asio::async_write(*client, asio::buffer(answer), use_tuple);
            if (write_error) break;
        }
        boost::system::error_code ignored;
        client->close(ignored);
        clients.remove(client);
    }
};

IpcServer::IpcServer(asio::any_io_executor executor, std::string socket_path, Handler handler,
                     std::size_t max_message_bytes)
    : state_(std::make_shared<State>(std::move(executor), std::move(socket_path), std::move(handler),
                                     max_message_bytes)) {}

IpcServer::~IpcServer() { stop(); }

const std::string& IpcServer::socket_path() const { return state_->path; }

void IpcServer::start() {
    auto& state = *state_;
    struct stat info {};
    if (::lstat(state.path.c_str(), &info) == 0) {
        if (!S_ISSOCK(info.st_mode))
            throw std::runtime_error(state.path + " exists and is not a socket; remove it or choose another --socket");
        local::socket probe(state.executor);
        boost::system::error_code ec;
        probe.connect(local::endpoint(state.path), ec);
        if (!ec)
            throw std::runtime_error("another review panel is listening on " + state.path +
                                     "; stop it, or give this one another --socket");
        ::unlink(state.path.c_str());  // left behind by a panel that died
    }
    state.acceptor.open(local());
    mode_t previous = ::umask(0177);  // the socket is created 0600: only this user may send reviews
    boost::system::error_code ec;
    state.acceptor.bind(local::endpoint(state.path), ec);
    ::umask(previous);
    if (ec) throw std::runtime_error("cannot listen on " + state.path + ": " + ec.message());
    ::chmod(state.path.c_str(), 0600);
    state.acceptor.listen();
    asio::co_spawn(state.executor, state_->accept_loop(), asio::detached);
}

void IpcServer::stop() {
    auto& state = *state_;
    if (state.stopped || !state.acceptor.is_open()) return;
    state.stopped = true;
    boost::system::error_code ignored;
    state.acceptor.close(ignored);
    for (auto& client : state.clients) client->close(ignored);
    ::unlink(state.path.c_str());
}

}  // namespace mcpkit::review
