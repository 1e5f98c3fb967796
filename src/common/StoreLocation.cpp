#include "common/StoreLocation.hpp"

#include <mcp/store/RedisConnection.hpp>

#include <stdexcept>

namespace mcpkit {

std::string StoreLocation::description() const {
    switch (kind) {
    case Kind::memory: return "memory";
    case Kind::sqlite: return "sqlite:" + path;
    case Kind::redis: {
        mcp::RedisAddress address = mcp::parse_redis_url(url);
        return "redis://" + address.where() + "/" + std::to_string(address.database);
    }
    }
    return "memory";
}

StoreLocation parse_store_location(std::string_view text, StoreLocationRules rules) {
    std::string forms = rules.sqlite ? "memory, sqlite:PATH or redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]"
                                     : "memory or redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]";
    StoreLocation location;
    if (text.empty() || text == "memory") return location;
    if (text.starts_with("redis://")) {
        try {
            mcp::parse_redis_url(text);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("--store: " + std::string(e.what()));
        }
        location.kind = StoreLocation::Kind::redis;
        location.url = std::string(text);
        return location;
    }
    bool prefixed = text.starts_with("sqlite:");
    if (rules.sqlite && (prefixed || rules.bare_path_is_sqlite)) {
        location.kind = StoreLocation::Kind::sqlite;
        location.path = std::string(prefixed ? text.substr(7) : text);
        if (location.path.empty())
            throw std::invalid_argument("--store sqlite:PATH needs a file path, as in sqlite:/tmp/sessions.db");
        return location;
    }
    throw std::invalid_argument("--store " + std::string(text) + ": use " + forms);
}

}  // namespace mcpkit
