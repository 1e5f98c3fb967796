#include "review/IpcClient.hpp"

#include <mcp/Cancellation.hpp>
#include <mcp/RandomId.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <deque>
#include <unordered_map>

namespace mcpkit::review {
namespace asio = boost::asio;
namespace json = boost::json;
using local = asio::local::stream_protocol;
using clock = std::chrono::steady_clock;

namespace {
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
}

struct IpcClient::State : std::enable_shared_from_this<State> {
    struct Pending {
        explicit Pending(const asio::any_io_executor& executor) : wake(executor) {}
        asio::steady_timer wake;
        std::optional<IpcOutcome> outcome;
    };

    State(asio::any_io_executor executor, IpcClientOptions options)
        : executor(std::move(executor)), options(std::move(options)) {}

    asio::any_io_executor executor;
    IpcClientOptions options;
    std::optional<local::socket> socket;
    std::string socket_path;
    std::uint64_t generation = 0;  ///< bumped on every connect, so a stale reader cannot close a new connection
    bool connecting = false;
    std::vector<std::shared_ptr<asio::steady_timer>> connect_waiters;
    std::unordered_map<std::string, std::shared_ptr<Pending>> pending;
    std::deque<std::string> outbox;
    std::uint64_t writer_of = 0;  ///< the connection whose outbox a writer is draining, or 0

    void finish(const std::shared_ptr<Pending>& entry, IpcOutcome outcome) {
        if (entry->outcome) return;
        entry->outcome = std::move(outcome);
        entry->wake.cancel();
    }

    void drop_connection(std::uint64_t which, const std::string& why) {
        if (which != generation || !socket) return;
        boost::system::error_code ignored;
        socket->close(ignored);
        socket.reset();
        outbox.clear();
        for (auto& [id, entry] : pending)
            finish(entry, IpcOutcome{IpcOutcome::Kind::connection_lost, false, why, socket_path});
    }

    void wake_connect_waiters() {
        for (auto& waiter : connect_waiters) waiter->cancel();
        connect_waiters.clear();
    }

    /// Tries each candidate until the deadline; nullopt once connected.
    asio::awaitable<std::optional<IpcOutcome>> connect(clock::time_point deadline) {
        auto self = shared_from_this();
        connecting = true;
        auto delay = options.first_retry;
        std::optional<IpcOutcome> failure;
        asio::steady_timer pause(executor);
        for (;;) {
            SocketCandidates candidates = options.locate ? options.locate() : SocketCandidates{};
            if (candidates.paths.empty())
                failure = IpcOutcome{IpcOutcome::Kind::no_panel, false, candidates.searched, {}};
            for (const auto& path : candidates.paths) {
                local::socket attempt(executor);
                auto [ec] = co_await attempt.async_connect(local::endpoint(path), use_tuple);
                if (!ec) {
                    socket.emplace(std::move(attempt));
                    socket_path = path;
                    ++generation;
                    asio::co_spawn(executor, read_replies(generation), asio::detached);
                    connecting = false;
                    wake_connect_waiters();
                    co_return std::nullopt;
                }
                failure = IpcOutcome{IpcOutcome::Kind::unreachable, false, ec.message(), path};
            }
            if (clock::now() + delay >= deadline) break;
            pause.expires_after(delay);
            co_await pause.async_wait(use_tuple);
            delay = std::min(delay * 2, options.max_retry);
        }
        connecting = false;
        wake_connect_waiters();
        co_return failure;
    }

    asio::awaitable<std::optional<IpcOutcome>> ensure_connected(clock::time_point deadline) {
        auto self = shared_from_this();
        while (!socket) {
            if (!connecting) co_return co_await connect(deadline);
            // Another request is connecting: wait for it (or for our own deadline), then look again.
            auto waiter = std::make_shared<asio::steady_timer>(executor, deadline);
            connect_waiters.push_back(waiter);
            co_await waiter->async_wait(use_tuple);
            if (!socket && clock::now() >= deadline)
                co_return IpcOutcome{IpcOutcome::Kind::timed_out, false, "connecting", socket_path};
        }
        co_return std::nullopt;
    }

    void send(std::string line) {
        outbox.push_back(std::move(line));
        if (writer_of != generation) asio::co_spawn(executor, write_outbox(generation), asio::detached);
    }

    asio::awaitable<void> write_outbox(std::uint64_t which) {
        auto self = shared_from_this();
        writer_of = which;
        while (!outbox.empty() && socket && which == generation) {
            auto [ec, n] = co_await asio::async_write(*socket, asio::buffer(outbox.front()), use_tuple);
            if (ec) {
                drop_connection(which, "writing to the panel failed: " + ec.message());
                break;
            }
            if (which == generation && !outbox.empty()) outbox.pop_front();
        }
        if (writer_of == which) writer_of = 0;
    }

    asio::awaitable<void> read_replies(std::uint64_t which) {
        auto self = shared_from_this();
        std::string buffer;
        for (;;) {
            if (!socket || which != generation) co_return;
            auto [ec, n] = co_await asio::async_read_until(*socket, asio::dynamic_buffer(buffer, options.max_reply_bytes),
                                                           '\n', use_tuple);
            if (ec) {
                drop_connection(which, ec == asio::error::eof ? "the panel closed the connection"
                                       : ec == asio::error::not_found
                                           ? "the panel sent a reply longer than " +
                                                 std::to_string(options.max_reply_bytes) + " bytes"
                                           : ec.message());
                co_return;
            }
            std::string_view line(buffer.data(), n - 1);
            handle_reply(line);
            buffer.erase(0, n);
        }
    }

    void handle_reply(std::string_view line) {
        boost::system::error_code ec;
        json::value reply = json::parse(line, ec);
        const json::object* object = ec ? nullptr : reply.if_object();
        const json::value* id = object ? object->if_contains("id") : nullptr;
        if (!id || !id->is_string()) return;  // an answer to no request of ours (e.g. "unknown")
        auto it = pending.find(std::string(id->get_string()));
        if (it == pending.end()) return;  // late: that request already timed out
        const json::value* success = object->if_contains("success");
        if (!success || !success->is_bool()) {
            finish(it->second, IpcOutcome{IpcOutcome::Kind::bad_reply, false,
                                          "the panel's reply has no boolean \"success\"", socket_path});
            return;
        }
        IpcOutcome outcome{IpcOutcome::Kind::answered, success->get_bool(), {}, socket_path};
        if (const json::value* error = object->if_contains("error"); error && error->is_string())
            outcome.error = std::string(error->get_string());
        finish(it->second, std::move(outcome));
    }
};

IpcClient::IpcClient(asio::any_io_executor executor, IpcClientOptions options)
    : state_(std::make_shared<State>(std::move(executor), std::move(options))) {}

IpcClient::~IpcClient() { close(); }

std::size_t IpcClient::pending() const { return state_->pending.size(); }
bool IpcClient::connected() const { return state_->socket.has_value(); }
std::chrono::milliseconds IpcClient::timeout() const { return state_->options.timeout; }
void IpcClient::close() { state_->drop_connection(state_->generation, "the client closed"); }

asio::awaitable<IpcOutcome> IpcClient::request(std::string type, json::object payload,
                                               const mcp::CancellationToken* cancellation) {
    auto state = state_;
    auto deadline = clock::now() + state->options.timeout;
    if (auto failure = co_await state->ensure_connected(deadline)) co_return *failure;

    std::string id = mcp::random_uuid();
    auto entry = std::make_shared<State::Pending>(state->executor);
    state->pending.emplace(id, entry);
    json::object message;
    message["type"] = type;
    message["payload"] = std::move(payload);
    message["id"] = id;
    std::string line = json::serialize(message);
    line += '\n';
    state->send(std::move(line));

    std::size_t cancel_callback = 0;
    if (cancellation)
        cancel_callback = cancellation->on_cancel([state, entry] {
            asio::post(state->executor, [state, entry] {
                state->finish(entry, IpcOutcome{IpcOutcome::Kind::cancelled, false, "cancelled", state->socket_path});
            });
        });
    if (!entry->outcome) {
        entry->wake.expires_at(deadline);
        co_await entry->wake.async_wait(use_tuple);
    }
    if (cancellation) cancellation->forget(cancel_callback);
    state->pending.erase(id);
    if (entry->outcome) co_return *entry->outcome;
    co_return IpcOutcome{IpcOutcome::Kind::timed_out, false, "no reply", state->socket_path};
}

}  // namespace mcpkit::review
