#include "mcp/jsonrpc/Connection.hpp"

#include "mcp/jsonrpc/ErrorCodes.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcp::jsonrpc {
namespace asio = boost::asio;
namespace json = boost::json;

/// One of our requests waiting for its response. The timer doubles as the wake-up signal:
/// its expiry is the deadline, and cancelling it wakes the waiting coroutine early.
struct Connection::PendingCall {
    enum class State { waiting, answered, cancelled, closed, deadline_moved };
    explicit PendingCall(const asio::any_io_executor& executor) : timer(executor) {}
    asio::steady_timer timer;
    State state = State::waiting;
    std::chrono::milliseconds timeout{0};
    std::string cancel_reason;
    Response response;
};

/// Collects the replies to one batch so they leave as one array, as JSON-RPC requires.
struct Connection::Batch {
    std::string replies = "[";
    std::size_t outstanding = 0;
    bool any = false;
    /// The first member with an id: the channel finds the batch's exchange by it, since two
    /// batches of one session may be answered in either order.
    std::optional<RequestId> member;
};

namespace {
void encode_reply(std::string& out, const RequestId& id, const Reply& reply) {
    if (reply.error) {
        encode_error(out, id, *reply.error);
    } else if (!reply.result_text.empty()) {
        encode_result_text(out, id, reply.result_text);
    } else {
        encode_result(out, id, reply.result);
    }
}
}  // namespace

Connection::Connection(std::shared_ptr<MessageChannel> channel, std::shared_ptr<Dispatcher> dispatcher,
                       ConnectionOptions options)
    : channel_(std::move(channel)),
      dispatcher_(dispatcher),
      options_(std::move(options)),
      io_thread_(std::this_thread::get_id()) {}

Connection::~Connection() = default;

asio::awaitable<void> Connection::run() {
    auto self = shared_from_this();
    io_thread_ = std::this_thread::get_id();
    bool abandoned = false;
    while (!closed_) {
        ChannelRead read = co_await channel_->read();
        if (read.kind == ChannelRead::Kind::end_of_stream) {
            abandoned = read.abandoned;
            break;
        }
        if (read.kind == ChannelRead::Kind::decoded) {
            handle_decoded(std::move(*read.decoded));
            continue;
        }
        if (read.kind == ChannelRead::Kind::oversized) {
            ErrorObject error{error_code::invalid_request,
                              "Message of " + std::to_string(read.size) + " bytes exceeds the limit of " +
                                  std::to_string(read.limit) +
                                  " bytes; it was skipped. Send smaller messages, or start the server with a "
                                  "larger limit (mcpkit's stdio servers take --max-message-size BYTES).",
                              nullptr};
            refuse(RequestId(), error, nullptr);
            continue;
        }
        handle_frame(read.text);
    }
    // Nothing more will arrive: our calls cannot be answered.
    input_ended_ = true;
    for (auto& [id, call] : pending_) {
        if (call->state == PendingCall::State::waiting) call->state = PendingCall::State::closed;
        call->timer.cancel();
    }
    pending_.clear();
    // The peer's requests in flight may still finish and be answered, for a while.
    if (auto dispatcher = dispatcher_.lock()) dispatcher->input_ended();
    if (!inbound_.empty() && options_.drain_timeout.count() > 0 && !close_requested_ && !abandoned) {
        drain_timer_ = std::make_unique<asio::steady_timer>(channel_->executor(), options_.drain_timeout);
        co_await drain_timer_->async_wait(asio::as_tuple(asio::use_awaitable));
        drain_timer_.reset();
    }
    closed_ = true;
    auto inbound = std::move(inbound_);
    inbound_.clear();
    for (auto& [id, source] : inbound) source.cancel(abandoned ? "the client closed the request's stream" : "connection closed");
}

void Connection::handle_frame(std::string_view frame) {
    // Blank lines between messages are tolerated, as most peers emit them by accident.
    if (frame.find_first_not_of(" \t\r\n") == std::string_view::npos) return;
    handle_decoded(decoder_.decode(frame));
}

void Connection::handle_decoded(Decoded&& decoded) {
    if (!decoded.is_batch) {
        handle_item(std::move(decoded.single), nullptr, decoded.origin);
        return;
    }
    if (!options_.allow_batches) {
        ErrorObject error{error_code::invalid_request,
                          "Invalid request: batches are not allowed in this protocol version; send one "
                          "message per frame",
                          nullptr};
        refuse(RequestId(), error, nullptr);
        return;
    }
    auto batch = std::make_shared<Batch>();
    batch->outstanding = 1;  // held until every member is started
    for (auto& item : decoded.batch) handle_item(std::move(item), batch, decoded.origin);
    finish_batch_member(*batch);  // releases the hold
}

void Connection::handle_item(DecodedItem&& item, const std::shared_ptr<Batch>& batch,
                             const std::shared_ptr<const MessageOrigin>& origin) {
    if (auto* error = std::get_if<DecodeError>(&item)) {
        if (batch && !batch->member && !error->id.is_null()) batch->member = error->id;
        refuse(error->id, error->error, batch);
        return;
    }
    auto& message = std::get<Message>(item);
    if (auto* request = std::get_if<Request>(&message)) {
        if (batch && !batch->member) batch->member = request->id;
        start_request(std::move(*request), batch, origin);
    } else if (auto* notification = std::get_if<Notification>(&message)) {
        if (auto dispatcher = dispatcher_.lock()) dispatcher->handle_notification(*notification);
    } else {
        complete(std::move(std::get<Response>(message)));
    }
}

void Connection::start_request(Request&& request, const std::shared_ptr<Batch>& batch,
                               const std::shared_ptr<const MessageOrigin>& origin) {
    if (inbound_.contains(request.id)) {
        ErrorObject error{error_code::invalid_request,
                          "Invalid request: id " + request.id.to_display() +
                              " is already in use by a request in flight; use a fresh id",
                          nullptr};
        refuse(request.id, error, batch);
        return;
    }
    auto dispatcher = dispatcher_.lock();
    if (!dispatcher) {
        // Nobody serves this connection any more; the peer still deserves an answer.
        answer_at_once(request.id,
                       Reply::failure(error_code::internal_error, "The endpoint is shutting down; the request was not run"),
                       batch);
        return;
    }
    InboundRequest inbound{std::move(request.id), std::move(request.method), std::move(request.params), {}, {}, origin};
    std::optional<Reply> immediate;
    try {
        immediate = dispatcher->try_handle_now(inbound);
    } catch (const std::exception& e) {
        immediate = Reply::failure(error_code::internal_error, std::string("Internal error: ") + e.what());
    }
    if (immediate) {
        answer_at_once(inbound.id, *immediate, batch);
        return;
    }
    if (inbound_.size() >= options_.max_requests_in_flight) {
        ErrorObject error{error_code::too_many_requests,
                          "Too many requests in flight: " + std::to_string(inbound_.size()) +
                              " of this connection are still running, the most it serves at once; the request "
                              "was not run. Wait for answers (or cancel some) before sending more.",
                          nullptr};
        // Not reported to on_protocol_error: a peer flooding past the cap would flood the log too.
        answer_at_once(inbound.id, Reply{nullptr, error, {}}, batch);
        return;
    }
    auto [entry, inserted] = inbound_.try_emplace(inbound.id);
    inbound.cancellation = entry->second.token();
    if (batch) ++batch->outstanding;
    asio::co_spawn(channel_->executor(), serve(std::move(inbound), batch, std::move(dispatcher)), asio::detached);
}

asio::awaitable<void> Connection::serve(InboundRequest request, std::shared_ptr<Batch> batch,
                                        std::shared_ptr<Dispatcher> dispatcher) {
    auto self = shared_from_this();
    Reply reply;
    try {
        reply = co_await dispatcher->handle_request(request);
    } catch (const std::exception& e) {
        reply = Reply::failure(error_code::internal_error, std::string("Internal error: ") + e.what());
    }
    // A request the peer cancelled gets no reply (MCP cancellation rules; harmless for JSON-RPC).
    bool cancelled_by_peer = request.cancellation.cancelled();
    inbound_.erase(request.id);
    if (inbound_.empty() && drain_timer_) drain_timer_->cancel();
    if (cancelled_by_peer && batch) {
        finish_batch_member(*batch);
        co_return;
    }
    if (cancelled_by_peer) {
        channel_->request_ended_unanswered(request.id);
        co_return;
    }
    deliver_reply(request.id, reply, batch.get());
}

void Connection::answer_at_once(const RequestId& id, const Reply& reply, const std::shared_ptr<Batch>& batch) {
    if (batch) ++batch->outstanding;
    deliver_reply(id, reply, batch.get());
}

void Connection::refuse(const RequestId& id, const ErrorObject& error, const std::shared_ptr<Batch>& batch) {
    answer_at_once(id, Reply{nullptr, error, {}}, batch);
    if (options_.on_protocol_error) options_.on_protocol_error(error);
}

void Connection::deliver_reply(const RequestId& id, const Reply& reply, Batch* batch) {
    if (!batch) {
        scratch_.clear();
        encode_reply(scratch_, id, reply);
        send_frame(scratch_, FrameInfo{&id, true, reply.error ? reply.error->code : 0});
        return;
    }
    if (batch->any) batch->replies += ',';
    batch->any = true;
    encode_reply(batch->replies, id, reply);
    finish_batch_member(*batch);
}

void Connection::finish_batch_member(Batch& batch) {
    if (--batch.outstanding != 0) return;
    if (batch.any) {
        batch.replies += ']';
        send_frame(batch.replies, FrameInfo{batch.member ? &*batch.member : nullptr, true, 0});
    } else if (batch.member && !closed_) {
        // Every member was cancelled: nothing is sent, and the channel may let the exchange go.
        channel_->request_ended_unanswered(*batch.member);
    }
}

void Connection::send_frame(std::string_view frame, FrameInfo context) {
    if (closed_) return;
    channel_->send(frame, context);
}

void Connection::complete(Response&& response) {
    auto it = pending_.find(response.id);
    if (it == pending_.end()) return;  // late or unknown: the spec says to ignore it
    auto call = it->second;
    pending_.erase(it);
    call->response = std::move(response);
    call->state = PendingCall::State::answered;
    call->timer.cancel();
}

asio::awaitable<Response> Connection::call(std::string_view method, json::value params, CallOptions options) {
    auto self = shared_from_this();
    RequestId id(next_id_++);
    if (options.on_id_assigned) options.on_id_assigned(id);
    if (input_ended_ || closed_) {
        co_return Response{id, nullptr, ErrorObject{error_code::connection_closed, "Connection closed", nullptr}};
    }
    auto call = std::make_shared<PendingCall>(channel_->executor());
    call->timeout = options.timeout.value_or(options_.default_timeout);
    if (call->timeout.count() > 0) {
        call->timer.expires_after(call->timeout);
    } else {
        call->timer.expires_at(asio::steady_timer::time_point::max());
    }
    pending_.emplace(id, call);

    std::string frame;
    encode_request(frame, id, method, params);
    FrameInfo context;
    if (options.related_request) context.request = &*options.related_request;
    send_frame(frame, context);

    std::size_t cancel_hook = 0;
    if (!options.cancellation.cancelled()) {
        std::weak_ptr<PendingCall> weak = call;
        auto executor = channel_->executor();
        cancel_hook = options.cancellation.on_cancel([weak, executor, token = options.cancellation] {
            asio::post(executor, [weak, token] {
                if (auto pending = weak.lock(); pending && pending->state == PendingCall::State::waiting) {
                    pending->state = PendingCall::State::cancelled;
                    pending->cancel_reason = token.reason();
                    pending->timer.cancel();
                }
            });
        });
    } else {
        call->state = PendingCall::State::cancelled;
        call->cancel_reason = options.cancellation.reason();
    }

    while (call->state == PendingCall::State::waiting || call->state == PendingCall::State::deadline_moved) {
        call->state = PendingCall::State::waiting;
        auto [ec] = co_await call->timer.async_wait(asio::as_tuple(asio::use_awaitable));
        if (call->state != PendingCall::State::waiting) continue;  // answered, cancelled, closed, or moved
        if (!ec) {
            // The deadline passed.
            pending_.erase(id);
            options.cancellation.forget(cancel_hook);
            std::string reason = "Request timed out after " + std::to_string(call->timeout.count()) + " ms";
            if (options_.on_request_abandoned) options_.on_request_abandoned(id, reason);
            co_return Response{id, nullptr, ErrorObject{error_code::request_timeout, reason, nullptr}};
        }
        // The waiting coroutine itself was cancelled through Asio (e.g. an awaitable operator).
        call->state = PendingCall::State::cancelled;
        call->cancel_reason = "cancelled by the caller";
    }
    options.cancellation.forget(cancel_hook);

    switch (call->state) {
        case PendingCall::State::answered:
            co_return std::move(call->response);
        case PendingCall::State::closed:
            co_return Response{id, nullptr,
                               ErrorObject{error_code::connection_closed,
                                           "Connection closed before the response to " + std::string(method) +
                                               " arrived",
                                           nullptr}};
        default: {
            pending_.erase(id);
            std::string reason = call->cancel_reason.empty() ? "cancelled" : call->cancel_reason;
            if (options_.on_request_abandoned && !closed_) options_.on_request_abandoned(id, reason);
            co_return Response{id, nullptr, ErrorObject{error_code::request_cancelled, "Request cancelled: " + reason,
                                                        nullptr}};
        }
    }
}

void Connection::notify(std::string_view method, const json::value& params, FrameInfo context) {
    std::string frame;
    encode_notification(frame, method, params);
    if (on_io_thread()) {
        send_frame(frame, context);
        return;
    }
    std::optional<RequestId> related;
    if (context.request) related = *context.request;
    asio::post(channel_->executor(), [self = shared_from_this(), frame = std::move(frame), related] {
        FrameInfo ctx;
        if (related) ctx.request = &*related;
        self->send_frame(frame, ctx);
    });
}

bool Connection::cancel_inbound(const RequestId& id, const std::string& reason) {
    auto it = inbound_.find(id);
    if (it == inbound_.end()) return false;
    it->second.cancel(reason);
    return true;
}

void Connection::extend_deadline(const RequestId& id) {
    auto it = pending_.find(id);
    if (it == pending_.end()) return;
    auto& call = *it->second;
    if (call.timeout.count() <= 0 || call.state != PendingCall::State::waiting) return;
    call.state = PendingCall::State::deadline_moved;
    call.timer.expires_after(call.timeout);  // cancels the current wait; the loop waits again
}

void Connection::close() {
    if (closed_) return;
    close_requested_ = true;
    if (drain_timer_) drain_timer_->cancel();
    channel_->close();
}

}  // namespace mcp::jsonrpc
