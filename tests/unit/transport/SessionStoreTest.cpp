// One contract, two stores: every SessionStore behaviour the HTTP server relies on, proven against
// the memory store and against the Redis store talking to a real redis-server started here.

#include "mcp/store/RedisStores.hpp"
#include "RedisTestServer.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <thread>

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using namespace std::chrono_literals;

std::shared_ptr<mcp::SessionStore> connect_redis() {
    // redis-server takes a moment to listen.
    for (int attempt = 0;; ++attempt) {
        try {
            return mcp::make_redis_session_store(mcp::testing::RedisTestServer::instance().url());
        } catch (const mcp::SessionStoreError&) {
            if (attempt == 100) throw;
            std::this_thread::sleep_for(50ms);
        }
    }
}

class SessionStoreContract : public testing::TestWithParam<std::string> {
protected:
    void SetUp() override { store = GetParam() == "memory" ? mcp::make_memory_session_store() : connect_redis(); }
    /// Session ids unique per test, so tests on the shared Redis do not see each other.
    std::string id(std::string_view name) const {
        return std::string(testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" + std::string(name);
    }
    std::shared_ptr<mcp::SessionStore> store;
};

TEST_P(SessionStoreContract, CreatedSessionLoadsItsSetupInOrder) {
    ASSERT_TRUE(store->create(id("a"), R"({"method":"initialize"})", 100, 60s));
    EXPECT_EQ(store->append_setup(id("a"), R"({"method":"logging/setLevel"})"), 2u);
    auto setup = store->load(id("a"));
    ASSERT_TRUE(setup);
    EXPECT_EQ(*setup, (std::vector<std::string>{R"({"method":"initialize"})", R"({"method":"logging/setLevel"})"}));
    EXPECT_EQ(store->touch(id("a")), 2u);
    EXPECT_FALSE(store->create(id("a"), "{}", 100, 60s)) << "an id is never reused";
}

TEST_P(SessionStoreContract, UnknownSessionsAreAbsentEverywhere) {
    EXPECT_FALSE(store->load(id("none")));
    EXPECT_EQ(store->touch(id("none")), 0u);
    EXPECT_EQ(store->append_setup(id("none"), "{}"), 0u);
    EXPECT_FALSE(store->remove(id("none")));
    store->append_event(id("none"), "s", 1, "x", 10);
    EXPECT_TRUE(store->events_after(id("none"), "s", 0).empty());
}

TEST_P(SessionStoreContract, RemoveEndsTheSessionAndItsEvents) {
    ASSERT_TRUE(store->create(id("a"), "{}", 100, 60s));
    store->append_event(id("a"), "s", 1, "x", 10);
    EXPECT_TRUE(store->remove(id("a")));
    EXPECT_FALSE(store->load(id("a")));
    EXPECT_TRUE(store->events_after(id("a"), "s", 0).empty());
    EXPECT_EQ(store->touch(id("a")), 0u);
}

TEST_P(SessionStoreContract, TheLimitCountsLiveSessionsOnly) {
    // The Redis store's limit spans every test's sessions; count what is there first.
    std::size_t base = store->count();
    ASSERT_TRUE(store->create(id("1"), "{}", base + 2, 60s));
    ASSERT_TRUE(store->create(id("2"), "{}", base + 2, 1s));
    EXPECT_FALSE(store->create(id("3"), "{}", base + 2, 60s));
    EXPECT_EQ(store->count(), base + 2);
    ASSERT_TRUE(store->remove(id("1")));
    EXPECT_TRUE(store->create(id("3"), "{}", base + 2, 60s));
    // An idle session expires, and frees its slot.
    std::this_thread::sleep_for(1100ms);
    EXPECT_FALSE(store->load(id("2")));
    EXPECT_TRUE(store->create(id("4"), "{}", base + 2, 60s));
    store->remove(id("3"));
    store->remove(id("4"));
}

TEST_P(SessionStoreContract, TouchKeepsAnIdleSessionAlive) {
    ASSERT_TRUE(store->create(id("a"), "{}", 100, 1s));
    for (int i = 0; i < 3; ++i) {
        std::this_thread::sleep_for(500ms);
        EXPECT_EQ(store->touch(id("a")), 1u);
    }
    EXPECT_TRUE(store->load(id("a")));
    store->remove(id("a"));
}

TEST_P(SessionStoreContract, EventsReplayPerStreamAfterASequenceAndKeepTheNewest) {
    ASSERT_TRUE(store->create(id("a"), "{}", 100, 60s));
    for (std::uint64_t n = 1; n <= 5; ++n) {
        store->append_event(id("a"), "one", n, "one " + std::to_string(n), 6);
        store->append_event(id("a"), "two", n, "two " + std::to_string(n), 6);
    }
    auto events = store->events_after(id("a"), "one", 3);
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0].sequence, 4u);
    EXPECT_EQ(events[0].data, "one 4");
    EXPECT_EQ(events[1].data, "one 5");
    // Six kept in all: the oldest four are gone.
    auto two = store->events_after(id("a"), "two", 0);
    ASSERT_EQ(two.size(), 3u);
    EXPECT_EQ(two[0].sequence, 3u);
    EXPECT_EQ(store->events_after(id("a"), "one", 0).size(), 3u);
    store->remove(id("a"));
}

TEST(MemorySessionStore, EventsAreWeighedAsWellAsCounted) {
    auto store = mcp::make_memory_session_store();
    ASSERT_TRUE(store->create("s", "{}", 100, 60s));
    std::string ten_mebibytes(10u << 20, 'x');
    for (std::uint64_t n = 1; n <= 10; ++n) store->append_event("s", "one", n, ten_mebibytes, 1024);
    auto kept = store->events_after("s", "one", 0);
    ASSERT_EQ(kept.size(), 6u) << "64 MiB hold six events of 10 MiB";
    EXPECT_EQ(kept.front().sequence, 5u);
    // One event larger than the budget is still kept, alone: the newest is never dropped.
    store->append_event("s", "one", 11, std::string(70u << 20, 'y'), 1024);
    kept = store->events_after("s", "one", 0);
    ASSERT_EQ(kept.size(), 1u);
    EXPECT_EQ(kept.front().sequence, 11u);
}

TEST_P(SessionStoreContract, EventDataKeepsSpacesAndNewlines) {
    ASSERT_TRUE(store->create(id("a"), "{}", 100, 60s));
    store->append_event(id("a"), "s", 1, "a b\nc d ", 10);
    auto events = store->events_after(id("a"), "s", 0);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].data, "a b\nc d ");
    store->remove(id("a"));
}

TEST_P(SessionStoreContract, AStreamIsTakenOverOnlyFromItsRecordedOwner) {
    ASSERT_TRUE(store->create(id("a"), "{}", 100, 60s));
    store->open_stream(id("a"), "s", "instance-1", R"({"id":7,"method":"tools/call"})");
    auto record = store->find_stream(id("a"), "s");
    ASSERT_TRUE(record);
    EXPECT_EQ(record->owner, "instance-1");
    EXPECT_EQ(record->request, R"({"id":7,"method":"tools/call"})");
    EXPECT_FALSE(store->adopt_stream(id("a"), "s", "instance-9", "instance-2"));
    EXPECT_TRUE(store->adopt_stream(id("a"), "s", "instance-1", "instance-2"));
    EXPECT_FALSE(store->adopt_stream(id("a"), "s", "instance-1", "instance-3")) << "only one instance wins";
    record = store->find_stream(id("a"), "s");
    ASSERT_TRUE(record);
    EXPECT_EQ(record->owner, "instance-2");
    EXPECT_EQ(record->request, R"({"id":7,"method":"tools/call"})");
    store->finish_stream(id("a"), "s");
    EXPECT_FALSE(store->find_stream(id("a"), "s"));
    EXPECT_FALSE(store->adopt_stream(id("a"), "s", "instance-2", "instance-3"));
    store->remove(id("a"));
}

TEST_P(SessionStoreContract, AnInstanceIsAliveUntilItsHeartbeatLapses) {
    EXPECT_FALSE(store->alive(id("instance")));
    store->heartbeat(id("instance"), 300ms);
    EXPECT_TRUE(store->alive(id("instance")));
    std::this_thread::sleep_for(400ms);
    EXPECT_FALSE(store->alive(id("instance")));
}

INSTANTIATE_TEST_SUITE_P(Stores, SessionStoreContract, testing::Values("memory", "redis"),
                         [](const auto& info) { return info.param; });

TEST(RedisSessionStore, MalformedUrlsAreRefusedWithTheExpectedForm) {
    for (std::string url : {"http://127.0.0.1:6379", "redis://", "redis://host:0", "redis://host:6379/x"}) {
        try {
            mcp::make_redis_session_store(url);
            ADD_FAILURE() << url << " was accepted";
        } catch (const mcp::SessionStoreError& e) {
            EXPECT_NE(std::string(e.what()).find("redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]"), std::string::npos) << e.what();
        }
    }
}

TEST(RedisSessionStore, AnUnreachableServerIsReportedWithItsAddress) {
    try {
        mcp::make_redis_session_store("redis://127.0.0.1:1", 500ms);
        ADD_FAILURE() << "connected to port 1";
    } catch (const mcp::SessionStoreError& e) {
        EXPECT_NE(std::string(e.what()).find("Redis at 127.0.0.1:1 cannot be reached"), std::string::npos) << e.what();
    }
}

}  // namespace
