// One contract, three stores: analyze's sessions in memory, in SQLite and in a real redis-server.

#include "analyze/server/SessionStore.hpp"
#include "RedisTestServer.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <filesystem>
#include <thread>

using namespace mcpkit::analyze;
using namespace std::chrono_literals;

namespace {

// The SQLite store's file, removed when the test ends.
std::filesystem::path sqlite_path() {
    return std::filesystem::temp_directory_path() / ("analyze-sessions-" + std::to_string(::getpid()) + ".db");
}

std::unique_ptr<SessionStore> open_store(const std::string& kind) {
    if (kind == "memory") return make_memory_session_store();
    if (kind == "sqlite") return make_sqlite_session_store(sqlite_path().string());
    for (int attempt = 0;; ++attempt) {  // redis-server takes a moment to listen
        try {
            return make_redis_session_store(mcp::testing::RedisTestServer::instance().url());
        } catch (const std::runtime_error&) {
            if (attempt == 100) throw;
            std::this_thread::sleep_for(50ms);
        }
    }
}

class AnalyzeSessionStore : public testing::TestWithParam<std::string> {
protected:
    void SetUp() override { store = open_store(GetParam()); }
    void TearDown() override {
        store.reset();
        if (GetParam() == "sqlite")
            for (const char* suffix : {"", "-wal", "-shm", "-journal"})
                std::filesystem::remove(sqlite_path().string() + suffix);
    }
    std::string id(std::string_view name) const {
        return GetParam() + "-" + testing::UnitTest::GetInstance()->current_test_info()->name() + "-" + std::string(name);
    }
    Session session(std::string_view name, std::int64_t ttl_seconds = 60) const {
        Session session;
        session.id = id(name);
        session.created_ms = session.last_used_ms = now_milliseconds();
        session.ttl_seconds = ttl_seconds;
        return session;
    }
    std::unique_ptr<SessionStore> store;
};

TEST_P(AnalyzeSessionStore, SavedSessionLoadsWithItsHistory) {
    Session saved = session("a");
    CallRecord record;
    record.result_id = saved.id + "/1";
    record.tool = "analyze-file";
    record.state = "succeeded";
    record.subject = "/src/a.py";
    record.parameters = boost::json::object{{"path", "a.py"}};
    record.result = boost::json::object{{"functions", 3}};
    record.summary = "a.py: 3 functions";
    record.timestamp_ms = 42;
    record.execution_ms = 1.5;
    saved.history.push_back(record);
    saved.calls = 1;
    store->save(saved);

    auto loaded = store->load(saved.id);
    ASSERT_TRUE(loaded);
    EXPECT_EQ(loaded->calls, 1);
    ASSERT_EQ(loaded->history.size(), 1u);
    EXPECT_EQ(loaded->history[0].result_id, record.result_id);
    EXPECT_EQ(loaded->history[0].subject, "/src/a.py");
    EXPECT_EQ(loaded->history[0].result.at("functions").as_int64(), 3);
    EXPECT_DOUBLE_EQ(loaded->history[0].execution_ms, 1.5);
}

TEST_P(AnalyzeSessionStore, UnknownSessionsAreAbsent) {
    EXPECT_FALSE(store->load(id("none")));
    EXPECT_FALSE(store->remove(id("none")));
}

TEST_P(AnalyzeSessionStore, RemovedSessionIsGoneAndNotListed) {
    store->save(session("a"));
    store->save(session("b"));
    EXPECT_TRUE(store->remove(id("a")));
    EXPECT_FALSE(store->load(id("a")));
    bool listed_a = false, listed_b = false;
    for (const Session& live : store->list()) {
        listed_a |= live.id == id("a");
        listed_b |= live.id == id("b");
        EXPECT_TRUE(live.history.empty()) << "list() leaves histories out";
    }
    EXPECT_FALSE(listed_a);
    EXPECT_TRUE(listed_b);
}

TEST_P(AnalyzeSessionStore, ExpiredSessionsAreNeitherLoadedNorListed) {
    Session stale = session("stale", 1);
    stale.last_used_ms -= 5000;  // unused for 5 s with a 1 s TTL
    store->save(stale);
    EXPECT_FALSE(store->load(stale.id));
    store->evict_expired();
    for (const Session& live : store->list()) EXPECT_NE(live.id, stale.id);
}

INSTANTIATE_TEST_SUITE_P(Stores, AnalyzeSessionStore, testing::Values("memory", "sqlite", "redis"));

TEST(AnalyzeSessionStoreFactory, NamesTheAcceptedFormsWhenGivenSomethingElse) {
    try {
        make_session_store("postgres://x");
        FAIL() << "accepted an unknown store";
    } catch (const std::invalid_argument& error) {
        EXPECT_NE(std::string(error.what()).find("memory, sqlite:PATH or redis://"), std::string::npos) << error.what();
    }
    EXPECT_THROW(make_session_store("sqlite:"), std::invalid_argument);
    EXPECT_THROW(make_session_store("redis://127.0.0.1:notaport"), std::invalid_argument);
}

TEST(AnalyzeSessionStoreFactory, UnreachableRedisSaysWhere) {
    try {
        make_session_store("redis://127.0.0.1:1");
        FAIL() << "connected to nothing";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find("127.0.0.1:1"), std::string::npos) << error.what();
    }
}

}  // namespace
