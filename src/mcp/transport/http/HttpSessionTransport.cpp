#include "transport/http/HttpSessionTransport.hpp"

#include "mcp/jsonrpc/ErrorCodes.hpp"
#include "transport/http/HttpErrors.hpp"
#include "mcp/RandomId.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcp::http {
namespace asio = boost::asio;

/// One outgoing stream as the session sees it: a POST's answer, or the standalone GET stream.
/// It outlives the HTTP response it is written to, which may come and go (resumption).
struct HttpSessionTransport::OutboundStream {
    std::string id;  ///< set when a session stream turns to SSE; stateless streams' events carry no id
    std::uint64_t next_sequence = 1;
    std::shared_ptr<ResponseStream> http;  ///< null while the client is away
    std::vector<jsonrpc::RequestId> request_ids;
    std::string request;  ///< the POST body, until the stream is recorded in the store
    std::size_t outstanding = 0;  ///< answers still due (a batch counts once)
    bool events = false;          ///< turned into an SSE stream
    bool accepts_sse = true;
    bool priming = false;
    bool modern = false;
};

namespace {

void collect_request_ids(const jsonrpc::DecodedItem& item, std::vector<jsonrpc::RequestId>& ids) {
    if (auto* message = std::get_if<jsonrpc::Message>(&item)) {
        if (auto* request = std::get_if<jsonrpc::Request>(message)) ids.push_back(request->id);
    } else if (const auto& error = std::get<jsonrpc::DecodeError>(item); !error.id.is_null()) {
        ids.push_back(error.id);
    }
}

/// The ids that will be answered: requests, and undecodable items that carried an id.
std::vector<jsonrpc::RequestId> request_ids(const jsonrpc::Decoded& messages) {
    std::vector<jsonrpc::RequestId> ids;
    if (messages.is_batch) {
        for (const auto& item : messages.batch) collect_request_ids(item, ids);
    } else {
        collect_request_ids(messages.single, ids);
    }
    return ids;
}

/// "<stream>_<sequence>", which McpEndpoint::get takes apart again.
std::string event_id(std::string_view stream, std::uint64_t sequence) {
    std::string id(stream);
    id.append("_").append(std::to_string(sequence));
    return id;
}

}  // namespace

template <typename Call>
void HttpSessionTransport::record(Call&& call) {
    try {
        call();
    } catch (const SessionStoreError& e) {
        if (settings_.log) settings_.log(std::string("session store: ") + e.what() + " (this stream cannot be resumed)");
    }
}

HttpSessionTransport::HttpSessionTransport(asio::any_io_executor executor, SessionSettings settings)
    : executor_(std::move(executor)),
      settings_(std::move(settings)),
      reader_wake_(executor_, asio::steady_timer::time_point::max()) {}

HttpSessionTransport::~HttpSessionTransport() = default;

asio::awaitable<jsonrpc::ChannelRead> HttpSessionTransport::read() {
    auto self = shared_from_this();
    while (inbound_.empty() && !closed_) {
        reader_waiting_ = true;
        reader_wake_.expires_at(asio::steady_timer::time_point::max());
        co_await reader_wake_.async_wait(asio::as_tuple(asio::use_awaitable));
        reader_waiting_ = false;
    }
    if (inbound_.empty()) {
        jsonrpc::ChannelRead end;
        end.abandoned = abandoned_;
        co_return end;
    }
    current_ = std::move(inbound_.front());
    inbound_.pop_front();
    jsonrpc::ChannelRead read;
    read.kind = jsonrpc::ChannelRead::Kind::decoded;
    read.decoded = &current_;
    co_return read;
}

void HttpSessionTransport::wake_reader() {
    if (reader_waiting_) reader_wake_.cancel();
}

void HttpSessionTransport::deliver(PostExchange exchange) {
    if (closed_) {
        if (exchange.http) exchange.http->respond(404, session_not_found_body());
        return;
    }
    auto ids = request_ids(exchange.messages);
    if (ids.empty()) {
        if (exchange.http) exchange.http->finish();  // 202: notifications and responses need no answer
        inbound_.push_back(std::move(exchange.messages));
        wake_reader();
        return;
    }
    if (const jsonrpc::RequestId* busy = id_in_flight(ids)) {
        // The engine would refuse the duplicate; its refusal must not steal the first one's stream.
        if (exchange.http)
            exchange.http->respond(200, error_body(*busy, jsonrpc::error_code::invalid_request,
                                                   "Invalid request: id " + busy->to_display() +
                                                       " is already in use by a request in flight; use a fresh id"));
        return;
    }
    auto stream = new_stream(exchange.http, exchange.priming, exchange.modern);
    stream->accepts_sse = exchange.accepts_sse;
    if (!settings_.session_id.empty()) stream->request = std::move(exchange.body);
    enqueue(stream, std::move(ids), std::move(exchange.messages));
}

const jsonrpc::RequestId* HttpSessionTransport::id_in_flight(const std::vector<jsonrpc::RequestId>& ids) const {
    for (const auto& id : ids)
        if (by_request_.contains(id)) return &id;
    return nullptr;
}

void HttpSessionTransport::enqueue(const std::shared_ptr<OutboundStream>& stream, std::vector<jsonrpc::RequestId> ids,
                                   jsonrpc::Decoded messages) {
    stream->request_ids = std::move(ids);
    stream->outstanding = 1;
    if (messages.is_batch) batch_streams_.push_back(stream);
    for (const auto& id : stream->request_ids) by_request_.emplace(id, stream);
    inbound_.push_back(std::move(messages));
    wake_reader();
}

std::shared_ptr<HttpSessionTransport::OutboundStream> HttpSessionTransport::new_stream(
    const std::shared_ptr<ResponseStream>& http, bool priming, bool modern) {
    auto stream = std::make_shared<OutboundStream>();
    stream->http = http;
    stream->priming = priming;
    stream->modern = modern;
    return stream;
}

void HttpSessionTransport::send(std::string_view frame, jsonrpc::FrameInfo context) {
    if (closed_) return;
    if (context.response) {
        std::shared_ptr<OutboundStream> stream;
        if (context.request && !context.request->is_null()) {
            auto it = by_request_.find(*context.request);
            if (it != by_request_.end()) stream = it->second;
        }
        if (!stream && !batch_streams_.empty()) {
            stream = batch_streams_.front();
            batch_streams_.pop_front();
        }
        if (!stream) return;  // nobody waits for it (the exchange was refused)
        for (const auto& id : stream->request_ids) by_request_.erase(id);
        std::erase(batch_streams_, stream);
        answer(stream, frame, context);
        return;
    }
    std::shared_ptr<OutboundStream> stream;
    if (context.request) {
        auto it = by_request_.find(*context.request);
        if (it != by_request_.end() && it->second->accepts_sse) stream = it->second;
    }
    if (!stream) stream = standalone_;
    if (!stream) return;  // unrelated messages with no GET stream open have nowhere to go
    emit(stream, frame);
}

void HttpSessionTransport::answer(const std::shared_ptr<OutboundStream>& stream, std::string_view frame,
                                  const jsonrpc::FrameInfo& context) {
    if (stream->outstanding > 0) --stream->outstanding;
    if (!stream->events && stream->outstanding == 0) {
        // The common case: nothing came before the answer, so it goes out as plain JSON.
        int status = stream->modern ? modern_error_status(context.error_code) : 200;
        if (stream->http) stream->http->respond(status, std::string(frame));
        stream->http.reset();
        end_stream(*stream);
        return;
    }
    emit(stream, frame);
    if (stream->outstanding == 0) end_stream(*stream);
}

void HttpSessionTransport::start_events(const std::shared_ptr<OutboundStream>& stream_pointer) {
    auto& stream = *stream_pointer;
    stream.events = true;
    if (!settings_.session_id.empty() && stream.id.empty()) {
        // Only a stream that carries events can be resumed, so only it needs an id (most answers
        // are plain JSON and never do).
        stream.id = random_hex(8);
        live_streams_.emplace(stream.id, stream_pointer);
        record([&] { settings_.store->open_stream(settings_.session_id, stream.id, settings_.instance, stream.request); });
        stream.request = std::string();
    }
    if (!stream.http) return;
    stream.http->start_events();
    if (stream.priming && !stream.id.empty()) {
        // The priming event gives the client an id to resume from before anything else is sent.
        std::uint64_t sequence = stream.next_sequence++;
        stream.http->push_event(event_id(stream.id, sequence), "", settings_.retry);
    }
}

void HttpSessionTransport::emit(const std::shared_ptr<OutboundStream>& stream_pointer, std::string_view frame) {
    auto& stream = *stream_pointer;
    if (!stream.events) start_events(stream_pointer);
    std::string id;
    if (!stream.id.empty()) {
        std::uint64_t sequence = stream.next_sequence++;
        id = event_id(stream.id, sequence);
        record([&] {
            settings_.store->append_event(settings_.session_id, stream.id, sequence, frame, settings_.max_events);
        });
    }
    if (stream.http) stream.http->push_event(id, frame);
}

void HttpSessionTransport::end_stream(OutboundStream& stream) {
    if (stream.http) stream.http->finish();
    stream.http.reset();
    if (!stream.id.empty()) {
        live_streams_.erase(stream.id);
        record([&] { settings_.store->finish_stream(settings_.session_id, stream.id); });
    }
    if (settings_.session_id.empty() && by_request_.empty() && batch_streams_.empty()) report_finished();
}

void HttpSessionTransport::report_finished() {
    if (!on_finished) return;
    auto finished = std::move(on_finished);
    on_finished = nullptr;
    finished();
}

void HttpSessionTransport::request_ended_unanswered(const jsonrpc::RequestId& id) {
    if (closed_) return;
    auto it = by_request_.find(id);
    if (it == by_request_.end()) return;
    auto stream = it->second;
    by_request_.erase(it);
    if (stream->outstanding > 0) --stream->outstanding;
    if (stream->outstanding > 0) return;  // other requests of the same POST are still to answer
    for (const auto& member : stream->request_ids) by_request_.erase(member);  // a batch's others
    std::erase(batch_streams_, stream);
    // Nothing more will come on it: the POST ends as an event stream without an answer, which is
    // what a client that cancelled expects.
    if (!stream->events) start_events(stream);
    end_stream(*stream);
}

void HttpSessionTransport::close_request_stream(const jsonrpc::RequestId& id) {
    auto it = by_request_.find(id);
    if (it == by_request_.end() || settings_.session_id.empty()) return;
    auto& stream = *it->second;
    if (!stream.http) return;
    // Give the client an event id first, so it can come back for the rest.
    if (!stream.events) start_events(it->second);
    stream.http->finish();
    stream.http.reset();
}

bool HttpSessionTransport::open_standalone(const std::shared_ptr<ResponseStream>& http, bool priming) {
    if (standalone_ && standalone_->http && !standalone_->http->client_gone()) return false;
    if (!standalone_) standalone_ = new_stream(http, priming, false);
    standalone_->http = http;
    standalone_->priming = priming;
    start_events(standalone_);
    return true;
}

bool HttpSessionTransport::resume(const std::string& stream_id, std::uint64_t after,
                                  const std::shared_ptr<ResponseStream>& http) {
    auto events = settings_.store->events_after(settings_.session_id, stream_id, after);
    auto live = live_streams_.find(stream_id);
    std::optional<StreamRecord> elsewhere;
    if (live == live_streams_.end()) elsewhere = settings_.store->find_stream(settings_.session_id, stream_id);
    if (live == live_streams_.end() && events.empty() && !elsewhere) return false;
    http->start_events();
    std::uint64_t last = after;
    std::size_t replayed = 0;
    for (const auto& event : events) {
        if (replayed > 0 && replayed + event.data.size() > ResponseStream::max_replay_bytes) {
            // The rest comes when the client resumes from the last id it got: a replay larger than
            // a stream may hold unsent would be given up, and asked for again, for ever.
            http->finish();
            return true;
        }
        http->push_event(event_id(stream_id, event.sequence), event.data);
        replayed += event.data.size();
        last = std::max(last, event.sequence);
    }
    if (live != live_streams_.end()) {
        auto& stream = *live->second;
        if (stream.http && stream.http != http) stream.http->finish();
        stream.http = http;
        stream.events = true;
        return true;
    }
    if (!elsewhere || elsewhere->owner == settings_.instance) {
        http->finish();  // the stream ended: what was logged is all there is
        return true;
    }
    asio::co_spawn(executor_, follow(stream_id, last, http), asio::detached);
    return true;
}

asio::awaitable<void> HttpSessionTransport::follow(std::string stream_id, std::uint64_t last,
                                                   std::shared_ptr<ResponseStream> http) {
    auto self = shared_from_this();
    asio::steady_timer timer(executor_);
    // Polling keeps the store interface plain; a tenth of a second is well inside SSE latency needs.
    while (!closed_ && !http->client_gone()) {
        timer.expires_after(std::chrono::milliseconds(100));
        co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
        if (closed_ || http->client_gone()) break;
        try {
            auto relay = [&] {
                std::size_t relayed = 0;  // a large backlog goes over several polls, as a replay does
                for (auto& event : settings_.store->events_after(settings_.session_id, stream_id, last)) {
                    if (relayed > 0 && relayed + event.data.size() > ResponseStream::max_replay_bytes) break;
                    http->push_event(event_id(stream_id, event.sequence), event.data);
                    relayed += event.data.size();
                    last = event.sequence;
                }
            };
            relay();
            auto record = settings_.store->find_stream(settings_.session_id, stream_id);
            if (!record) {
                relay();  // events written between the two reads
                http->finish();
                co_return;
            }
            if (!settings_.store->alive(record->owner) &&
                settings_.store->adopt_stream(settings_.session_id, stream_id, record->owner, settings_.instance)) {
                if (settings_.log)
                    settings_.log("session " + settings_.session_id + ": instance " + record->owner +
                                  " is gone; stream " + stream_id + " continues here");
                relay();
                adopt(stream_id, last + 1, record->request, http);
                co_return;
            }
        } catch (const SessionStoreError& e) {
            if (settings_.log) settings_.log(std::string("session store: ") + e.what());
        }
    }
    http->finish();
}

void HttpSessionTransport::adopt(const std::string& stream_id, std::uint64_t next_sequence, const std::string& request,
                                 const std::shared_ptr<ResponseStream>& http) {
    if (closed_) {
        http->finish();
        return;
    }
    auto stream = new_stream(http, false, false);
    stream->id = stream_id;
    stream->next_sequence = next_sequence;
    stream->events = true;
    if (request.empty()) {
        // A GET stream: it becomes this session's standalone stream here.
        live_streams_[stream_id] = stream;
        if (standalone_ && standalone_->http) standalone_->http->finish();
        standalone_ = stream;
        return;
    }
    // A POST that was never answered: run it again here, at least once being better than never.
    jsonrpc::Decoder decoder;
    auto decoded = decoder.decode(request);
    auto ids = request_ids(decoded);
    if (id_in_flight(ids)) {
        http->finish();
        return;
    }
    live_streams_[stream_id] = stream;
    enqueue(stream, std::move(ids), std::move(decoded));
}

void HttpSessionTransport::client_left(const std::shared_ptr<ResponseStream>& http) {
    auto detach = [&](const std::shared_ptr<OutboundStream>& stream) {
        if (stream && stream->http == http) stream->http.reset();
    };
    for (auto& [id, stream] : by_request_) detach(stream);
    for (auto& [id, stream] : live_streams_) detach(stream);
    detach(standalone_);
    if (settings_.session_id.empty()) {
        // Stateless: closing the response is how a 2026 client cancels, at once (not after the
        // drain a session's end allows its requests).
        abandoned_ = true;
        close();
        report_finished();
    }
}

bool HttpSessionTransport::idle() const {
    return by_request_.empty() && batch_streams_.empty() && !(standalone_ && standalone_->http);
}

void HttpSessionTransport::fail_requests_in_flight(std::string_view message) {
    std::vector<jsonrpc::RequestId> ids;
    for (const auto& [id, stream] : by_request_)
        if (stream->request_ids.size() == 1) ids.push_back(id);  // a batch ends with the session (404)
    constexpr int server_error = -32000;
    for (const auto& id : ids) {
        std::string frame;
        jsonrpc::encode_error(frame, id, jsonrpc::ErrorObject{server_error, std::string(message), nullptr});
        send(frame, jsonrpc::FrameInfo{&id, true, server_error});
    }
}

void HttpSessionTransport::close() {
    if (closed_) return;
    closed_ = true;
    wake_reader();
    auto end = [](const std::shared_ptr<OutboundStream>& stream) {
        if (stream && stream->http) {
            stream->http->respond(404, session_not_found_body());  // no effect once streaming
            stream->http->finish();
            stream->http.reset();
        }
    };
    for (auto& [id, stream] : by_request_) end(stream);
    for (auto& [id, stream] : live_streams_) end(stream);
    end(standalone_);
    by_request_.clear();
    batch_streams_.clear();
    live_streams_.clear();
    standalone_.reset();
}

}  // namespace mcp::http
