#pragma once
// Where an application keeps its sessions, as `--store` names it: "memory", "sqlite:PATH" or
// "redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]". One reading for analyze, the host and everything,
// so that the same text means the same store in each.

#include <string>
#include <string_view>

namespace mcpkit {

struct StoreLocation {
    enum class Kind { memory, sqlite, redis };
    Kind kind = Kind::memory;
    std::string path;  ///< sqlite: the database file
    std::string url;   ///< redis: the whole URL, password included

    /// For logs, /health and tool answers: the kind and place, never a password.
    std::string description() const;
};

struct StoreLocationRules {
    bool sqlite = true;  ///< the application can keep sessions in SQLite
    /// A text of none of the forms is a SQLite file (the host's first releases took a bare path).
    bool bare_path_is_sqlite = false;
};

/// Reads `text` (empty means memory). Throws std::invalid_argument naming `--store`, what is wrong
/// and the forms accepted; a Redis URL is checked whole here (host, port, database).
StoreLocation parse_store_location(std::string_view text, StoreLocationRules rules = {});

}  // namespace mcpkit
