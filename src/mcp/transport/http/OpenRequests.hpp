#pragma once
#ifndef MCPKIT_BUILDING_LIBMCP
#error "A private header of libmcp: applications use the public headers in include/mcp/"
#endif
// What a Streamable HTTP client still has on the wire. A 2026-07-28 request is cancelled by
// closing its response stream (there is no session to send notifications/cancelled in), so the
// client keeps each such POST's connection by request id. And a notification being sent (a 2025
// cancellation above all) must reach the server before the client goes away: shutdown waits for
// the sends in flight, briefly.

#include "mcp/jsonrpc/RequestId.hpp"
#include "transport/http/PlainOrTlsStream.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <memory>
#include <unordered_map>
#include <unordered_set>

namespace mcp::http {

class OpenRequests {
public:
    explicit OpenRequests(boost::asio::any_io_executor executor) : sends_done_(std::move(executor)) {}

    /// While alive, the request `id` can be cancelled by closing `stream`. A registration made
    /// while another holds the id (a resumed stream) stands in for it, then gives it back.
    class Registration {
    public:
        Registration(OpenRequests& owner, jsonrpc::RequestId id, std::weak_ptr<ClientStream> stream)
            : owner_(&owner), id_(std::move(id)) {
            auto [it, inserted] = owner_->streams_.try_emplace(id_);
            if (!inserted) previous_ = std::move(it->second);
            nested_ = !inserted;
            it->second = std::move(stream);
        }
        Registration(const Registration&) = delete;
        Registration& operator=(const Registration&) = delete;
        ~Registration() {
            if (nested_) {
                owner_->streams_[id_] = std::move(previous_);
                return;
            }
            owner_->streams_.erase(id_);
        }

    private:
        OpenRequests* owner_;
        jsonrpc::RequestId id_;
        std::weak_ptr<ClientStream> previous_;
        bool nested_ = false;
    };

    /// While alive, a send is in flight.
    class Send {
    public:
        explicit Send(OpenRequests& owner) : owner_(&owner) { ++owner_->sends_; }
        Send(const Send&) = delete;
        Send& operator=(const Send&) = delete;
        ~Send() {
            if (--owner_->sends_ == 0) owner_->sends_done_.cancel();
        }

    private:
        OpenRequests* owner_;
    };

    /// Closes the stream of request `id`, if it is open: true when that cancelled it.
    bool cancel(const jsonrpc::RequestId& id) {
        auto it = streams_.find(id);
        if (it == streams_.end()) return false;
        given_up_.insert(id);
        if (auto stream = it->second.lock()) {
            boost::system::error_code ignored;
            stream->lowest().socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
            stream->lowest().socket().close(ignored);
        }
        return true;
    }

    /// The client gave up on request `id` (it sent notifications/cancelled for it, in 2025).
    void abandon(const jsonrpc::RequestId& id) { given_up_.insert(id); }
    /// Whether the client gave up on request `id`, either way: it is not sent again (after a
    /// sign-in, on a new connection, in a new session) and its stream is not resumed.
    bool given_up(const jsonrpc::RequestId& id) const { return given_up_.contains(id); }
    /// The request's POST is over: nothing more to remember of it.
    void forget(const jsonrpc::RequestId& id) { given_up_.erase(id); }

    /// Whether request `id` is registered (a 2026-07-28 request still on the wire).
    bool tracks(const jsonrpc::RequestId& id) const { return streams_.contains(id); }

    /// Waits until no send is in flight, or `limit` passes.
    boost::asio::awaitable<void> sends_finished(std::chrono::milliseconds limit) {
        if (sends_ == 0) co_return;
        sends_done_.expires_after(limit);
        co_await sends_done_.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
    }

    std::size_t sends_in_flight() const { return sends_; }

private:
    std::unordered_map<jsonrpc::RequestId, std::weak_ptr<ClientStream>> streams_;
    std::unordered_set<jsonrpc::RequestId> given_up_;  ///< until the request's outermost POST ends
    std::size_t sends_ = 0;
    boost::asio::steady_timer sends_done_;
};

}  // namespace mcp::http
