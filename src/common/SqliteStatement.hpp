#pragma once
// One prepared SQLite statement, finalized with its owner; errors become std::runtime_error
// carrying SQLite's message and the caller's prefix ("chat store: …").

#include <sqlite3.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mcpkit::common {

class SqliteStatement {
public:
    SqliteStatement(sqlite3* database, const char* sql, std::string what = "sqlite")
        : database_(database), what_(std::move(what)) {
        if (sqlite3_prepare_v2(database, sql, -1, &statement_, nullptr) != SQLITE_OK)
            throw std::runtime_error(what_ + ": " + sqlite3_errmsg(database));
    }
    ~SqliteStatement() { sqlite3_finalize(statement_); }
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    SqliteStatement& bind(int index, std::string_view text) {
        sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
        return *this;
    }
    SqliteStatement& bind(int index, std::int64_t value) {
        sqlite3_bind_int64(statement_, index, value);
        return *this;
    }
    /// True while there is a row to read; false when done.
    bool step() {
        int status = sqlite3_step(statement_);
        if (status == SQLITE_ROW) return true;
        if (status != SQLITE_DONE) throw std::runtime_error(what_ + ": " + sqlite3_errmsg(database_));
        return false;
    }
    std::string text(int column) {
        auto* data = reinterpret_cast<const char*>(sqlite3_column_text(statement_, column));
        return data ? std::string(data, static_cast<std::size_t>(sqlite3_column_bytes(statement_, column))) : std::string();
    }
    std::int64_t integer(int column) { return sqlite3_column_int64(statement_, column); }

private:
    sqlite3* database_;
    std::string what_;
    sqlite3_stmt* statement_ = nullptr;
};

}  // namespace mcpkit::common
