#include "mcp/store/RedisConnection.hpp"

#include <boost/url/parse.hpp>
#include <hiredis/hiredis.h>

#include <charconv>
#include <vector>

namespace mcp {

namespace {
constexpr std::string_view expected_form = "expected redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]";
}  // namespace

std::string RedisAddress::where() const {
    return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

RedisAddress parse_redis_url(std::string_view text) {
    auto bad = [&](const std::string& why) {
        return std::invalid_argument("Invalid Redis URL \"" + std::string(text) + "\": " + why + " (" +
                                     std::string(expected_form) + ")");
    };
    auto parsed = boost::urls::parse_uri(text);
    if (!parsed) throw bad(parsed.error().message());
    if (parsed->scheme() == "rediss") throw bad("TLS to Redis (rediss://) is not supported; use a local tunnel");
    if (parsed->scheme() != "redis") throw bad("the scheme must be redis");
    if (parsed->encoded_host().empty()) throw bad("the host is missing");
    RedisAddress address;
    address.host = parsed->host_address();
    if (parsed->has_port()) {
        if (parsed->port_number() == 0) throw bad("the port must be a number from 1 to 65535");
        address.port = parsed->port_number();
    }
    if (parsed->has_userinfo()) {
        address.username = parsed->user();
        if (parsed->has_password()) address.password = parsed->password();
        else std::swap(address.username, address.password);  // redis://SECRET@host: the password alone
    }
    std::string_view path = parsed->encoded_path();
    if (path.size() > 1) {
        path.remove_prefix(1);
        auto [end, error] = std::from_chars(path.data(), path.data() + path.size(), address.database);
        if (error != std::errc() || end != path.data() + path.size() || address.database < 0)
            throw bad("the path must be a database number");
    }
    if (parsed->has_query() || parsed->has_fragment()) throw bad("a query or fragment means nothing here");
    return address;
}

bool RedisReply::is_nil() const { return node_->type == REDIS_REPLY_NIL; }
bool RedisReply::is_string() const { return node_->type == REDIS_REPLY_STRING || node_->type == REDIS_REPLY_STATUS; }
bool RedisReply::is_integer() const { return node_->type == REDIS_REPLY_INTEGER; }
bool RedisReply::is_array() const { return node_->type == REDIS_REPLY_ARRAY; }
std::string_view RedisReply::text() const {
    return node_->str ? std::string_view(node_->str, node_->len) : std::string_view();
}
long long RedisReply::integer() const { return is_integer() ? node_->integer : 0; }
std::size_t RedisReply::size() const { return is_array() ? node_->elements : 0; }
RedisReply RedisReply::operator[](std::size_t index) const {
    if (index >= size()) throw std::out_of_range("Redis reply has no element " + std::to_string(index));
    return RedisReply(root_, node_->element[index]);
}

RedisConnection::RedisConnection(RedisAddress address, std::chrono::milliseconds timeout)
    : address_(std::move(address)), timeout_(timeout) {
    std::lock_guard lock(mutex_);
    connect();
}

RedisConnection::~RedisConnection() {
    if (context_) redisFree(context_);
}

void RedisConnection::connect() {
    if (context_) redisFree(context_);
    context_ = nullptr;
    timeval limit{static_cast<time_t>(timeout_.count() / 1000), static_cast<suseconds_t>((timeout_.count() % 1000) * 1000)};
    redisContext* context = redisConnectWithTimeout(address_.host.c_str(), address_.port, limit);
    if (!context) throw RedisError("Redis at " + address_.where() + ": out of memory");
    if (context->err) {
        std::string why = context->errstr;
        redisFree(context);
        throw RedisError("Redis at " + address_.where() + " cannot be reached: " + why + "; is redis-server running?");
    }
    redisSetTimeout(context, limit);
    context_ = context;
    try {
        if (!address_.password.empty()) {
            if (address_.username.empty()) command({"AUTH", address_.password});
            else command({"AUTH", address_.username, address_.password});
        }
        if (address_.database != 0) command({"SELECT", std::to_string(address_.database)});
    } catch (const RedisError&) {
        // A connection without its password or database must not serve the next command.
        if (context_) redisFree(context_);
        context_ = nullptr;
        throw;
    }
}

RedisReply RedisConnection::command(std::initializer_list<std::string_view> arguments) {
    std::vector<const char*> pointers;
    std::vector<std::size_t> lengths;
    pointers.reserve(arguments.size());
    lengths.reserve(arguments.size());
    for (auto argument : arguments) {
        pointers.push_back(argument.data());
        lengths.push_back(argument.size());
    }
    auto* raw = static_cast<redisReply*>(
        redisCommandArgv(context_, static_cast<int>(pointers.size()), pointers.data(), lengths.data()));
    if (!raw) {
        std::string why = context_->errstr;
        redisFree(context_);
        context_ = nullptr;  // broken: the next command reconnects
        throw RedisError("Redis at " + address_.where() + " failed: " + why);
    }
    std::shared_ptr<redisReply> reply(raw, freeReplyObject);
    if (reply->type == REDIS_REPLY_ERROR) {
        // AUTH's arguments are secrets: name the command, never its arguments.
        throw RedisError("Redis at " + address_.where() + " refused " + std::string(*arguments.begin()) + ": " +
                         std::string(reply->str, reply->len));
    }
    const redisReply* root = reply.get();
    return RedisReply(std::move(reply), root);
}

RedisReply RedisConnection::run(std::initializer_list<std::string_view> arguments) {
    std::lock_guard lock(mutex_);
    if (!context_) connect();
    try {
        return command(arguments);
    } catch (const RedisError&) {
        if (context_) throw;  // Redis answered with an error: trying again will not help
        connect();
        return command(arguments);
    }
}

}  // namespace mcp
