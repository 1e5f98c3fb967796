// Two host instances sharing one store (a real redis-server, or one SQLite file): whatever one
// writes moves the session's revision as the other sees it, so an instance knows when the copy it
// keeps in memory is no longer the latest.

#include "host/store/ChatStore.hpp"

#include "RedisTestServer.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <thread>

using namespace mcpkit::host;

namespace {

ChatMessage user_message(std::string text) {
    ChatMessage message;
    message.id = new_id("message");
    message.role = Role::user;
    message.content = std::move(text);
    message.created_at = now_milliseconds();
    return message;
}

std::unique_ptr<ChatStore> redis_chat_store() {
    // redis-server takes a moment to listen.
    for (int attempt = 0;; ++attempt) {
        try {
            return make_redis_chat_store(mcp::testing::RedisTestServer::instance().url());
        } catch (const std::exception&) {
            if (attempt == 100) throw;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
}

struct TwoInstances {
    std::unique_ptr<ChatStore> a;
    std::unique_ptr<ChatStore> b;
};

void every_write_moves_the_revision_both_see(TwoInstances stores) {
    ChatStore& a = *stores.a;
    ChatStore& b = *stores.b;
    const std::string id = new_id("session");
    a.touch(id, now_milliseconds(), now_milliseconds());
    const std::int64_t empty = *b.revision(id);

    std::int64_t after_a = a.append(id, user_message("on a"));
    EXPECT_NE(after_a, empty);
    EXPECT_EQ(b.revision(id), after_a);

    std::int64_t after_b = b.append(id, user_message("on b"));
    EXPECT_NE(after_b, after_a);
    EXPECT_EQ(a.revision(id), after_b);
    auto loaded = a.load(id);
    ASSERT_TRUE(loaded);
    EXPECT_EQ(loaded->revision, after_b);
    ASSERT_EQ(loaded->history.size(), 2u);
    EXPECT_EQ(loaded->history[1].content, "on b");

    std::int64_t cleared = b.clear(id);
    EXPECT_NE(cleared, after_b);
    EXPECT_EQ(a.revision(id), cleared);
    EXPECT_EQ(a.load(id)->revision, cleared);
    EXPECT_TRUE(a.load(id)->history.empty());

    // After a clear, a new history never takes a revision an earlier one had.
    std::int64_t again = a.append(id, user_message("again"));
    for (std::int64_t earlier : {empty, after_a, after_b, cleared}) EXPECT_NE(again, earlier);
    EXPECT_EQ(b.revision(id), again);
}

}  // namespace

TEST(ChatStoreRevision, TwoInstancesOnOneRedisSeeEachOthersWrites) {
    every_write_moves_the_revision_both_see({redis_chat_store(), redis_chat_store()});
}

TEST(ChatStoreRevision, TwoInstancesOnOneSqliteFileSeeEachOthersWrites) {
    auto folder = std::filesystem::temp_directory_path() / new_id("mcpkit-chat-store");
    std::filesystem::create_directories(folder);
    const std::string path = (folder / "host.db").string();
    every_write_moves_the_revision_both_see({make_sqlite_chat_store(path), make_sqlite_chat_store(path)});
    std::filesystem::remove_all(folder);
}

TEST(ChatStoreRevision, AStoreOnlyThisProcessWritesHasNoneToCompare) {
    auto store = make_memory_chat_store();
    store->touch("s", 1, 1);
    store->append("s", user_message("only here"));
    EXPECT_EQ(store->revision("s"), std::nullopt);
}
