// The list of conversations and the unfinished answer, the same in each store (memory, an SQLite
// file, a real redis-server): newest first, paged without gaps or repeats, titled by the first
// user message unless renamed, searchable by what was said, and a deleted or cleared conversation
// gone from it.

#include "host/store/ChatStore.hpp"

#include "RedisTestServer.hpp"

#include <mcp/store/RedisConnection.hpp>

#include <boost/json/serialize.hpp>
#include <sqlite3.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <set>
#include <thread>

using namespace mcpkit::host;

namespace {

ChatMessage message(Role role, std::string text, std::int64_t at) {
    ChatMessage message;
    message.id = new_id("msg");
    message.role = role;
    message.content = std::move(text);
    message.created_at = at;
    return message;
}

/// A conversation: the user's message, the tool's result and the answer, the last one at `at`.
void add_conversation(ChatStore& store, const std::string& id, const std::string& question, std::int64_t at,
                      const std::string& answer = "An answer.") {
    store.touch(id, at, at);
    store.append(id, message(Role::user, question, at - 2));
    store.append(id, message(Role::tool, "tool output: needle-in-tool", at - 1));
    store.append(id, message(Role::assistant, answer, at));
}

struct StoreUnderTest {
    std::string name;
    std::function<std::unique_ptr<ChatStore>()> open;
};

void PrintTo(const StoreUnderTest& store, std::ostream* out) { *out << store.name; }

class ChatStoreConversations : public testing::TestWithParam<StoreUnderTest> {
protected:
    void SetUp() override { store_ = GetParam().open(); }
    ChatStore& store() { return *store_; }
    std::unique_ptr<ChatStore> store_;
};

std::vector<std::string> ids(const ConversationPage& page) {
    std::vector<std::string> out;
    for (const auto& item : page.items) out.push_back(item.id);
    return out;
}

TEST_P(ChatStoreConversations, ListsNewestFirstTitledByTheFirstUserMessage) {
    add_conversation(store(), "older", "How do I read   a file\nin C++?", 1000);
    add_conversation(store(), "newer", "Second question", 2000);
    store().touch("empty", 3000, 3000);  // opened, nothing said: not listed
    ConversationPage page = store().conversations({});
    ASSERT_EQ(ids(page), (std::vector<std::string>{"newer", "older"}));
    EXPECT_EQ(page.items[1].title, "How do I read a file in C++?");
    EXPECT_EQ(page.items[0].updated_at, 2000);
    EXPECT_TRUE(page.next.empty());

    // A later message moves it up; its title stays the first message's.
    store().append("older", message(Role::user, "And a follow-up", 4000));
    page = store().conversations({});
    ASSERT_EQ(ids(page), (std::vector<std::string>{"older", "newer"}));
    EXPECT_EQ(page.items[0].title, "How do I read a file in C++?");
}

TEST_P(ChatStoreConversations, PagesWithoutGapsOrRepeatsEvenWhenTimesTie) {
    std::set<std::string> added;
    for (int i = 0; i < 120; ++i) {
        std::string id = "conversation-" + std::to_string(1000 + i);
        add_conversation(store(), id, "Question " + std::to_string(i), 10000 + (i / 3) * 10);  // three per time
        added.insert(id);
    }
    std::vector<std::string> seen;
    ConversationQuery query;
    query.limit = 50;
    std::vector<std::size_t> sizes;
    for (;;) {
        ConversationPage page = store().conversations(query);
        sizes.push_back(page.items.size());
        for (const auto& item : page.items) seen.push_back(item.id);
        if (page.next.empty()) break;
        query.after = page.next;
    }
    EXPECT_EQ(sizes, (std::vector<std::size_t>{50, 50, 20}));
    EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()), added);
    EXPECT_EQ(seen.size(), added.size());
    EXPECT_EQ(seen.front(), "conversation-1119");
    EXPECT_EQ(seen.back(), "conversation-1000");
}

TEST_P(ChatStoreConversations, SearchFindsWhatTheUserOrTheModelSaidButNotToolOutput) {
    add_conversation(store(), "by-title", "Plan the Berlin trip", 1000);
    add_conversation(store(), "by-answer", "Where to eat?", 2000, "Try the BERLIN markets on Sunday.");
    add_conversation(store(), "other", "Unrelated 100% question", 3000);
    ConversationQuery query;
    query.search = "berlin";
    EXPECT_EQ(ids(store().conversations(query)), (std::vector<std::string>{"by-answer", "by-title"}));
    query.search = "needle-in-tool";
    EXPECT_TRUE(store().conversations(query).items.empty());
    // LIKE's wildcards are plain characters in a search.
    query.search = "0%";
    EXPECT_EQ(ids(store().conversations(query)), (std::vector<std::string>{"other"}));
    query.search = "_";
    EXPECT_TRUE(store().conversations(query).items.empty());
}

TEST_P(ChatStoreConversations, ARenameIsShownAndKeptAfterMoreMessages) {
    add_conversation(store(), "trip", "Plan the trip", 1000);
    store().rename("trip", "Holidays 2027");
    store().append("trip", message(Role::user, "More", 2000));
    ConversationPage page = store().conversations({});
    ASSERT_EQ(page.items.size(), 1u);
    EXPECT_EQ(page.items[0].title, "Holidays 2027");
    ConversationQuery query;
    query.search = "holidays";
    EXPECT_EQ(ids(store().conversations(query)), (std::vector<std::string>{"trip"}));
}

TEST_P(ChatStoreConversations, DeletedAndClearedConversationsLeaveTheList) {
    add_conversation(store(), "kept", "Keep me", 1000);
    add_conversation(store(), "deleted", "Delete me", 2000);
    add_conversation(store(), "cleared", "Clear me", 3000);
    store().remove("deleted");
    store().clear("cleared");
    EXPECT_EQ(ids(store().conversations({})), (std::vector<std::string>{"kept"}));
    EXPECT_FALSE(store().load("deleted"));
    // A cleared conversation that starts again takes its new first message as its title.
    store().append("cleared", message(Role::user, "Fresh start", 4000));
    ConversationPage page = store().conversations({});
    ASSERT_EQ(ids(page), (std::vector<std::string>{"cleared", "kept"}));
    EXPECT_EQ(page.items[0].title, "Fresh start");
}

TEST_P(ChatStoreConversations, TheUnfinishedAnswerIsKeptUntilForgotten) {
    add_conversation(store(), "s", "Write a long story", 1000);
    ChatMessage partial = message(Role::assistant, "Once upon a", 1500);
    store().keep_unfinished("s", &partial);
    partial.content = "Once upon a time";
    store().keep_unfinished("s", &partial);
    auto loaded = store().load("s");
    ASSERT_TRUE(loaded && loaded->unfinished);
    EXPECT_EQ(loaded->unfinished->content, "Once upon a time");
    EXPECT_EQ(loaded->unfinished->id, partial.id);
    EXPECT_EQ(loaded->history.size(), 3u);
    store().keep_unfinished("s", nullptr);
    EXPECT_FALSE(store().load("s")->unfinished);
}

TEST_P(ChatStoreConversations, ACursorThatIsNotANextIsRefused) {
    ConversationQuery query;
    query.after = "yesterday";
    EXPECT_THROW(store().conversations(query), std::invalid_argument);
    query.after = "12x/abc";
    EXPECT_THROW(store().conversations(query), std::invalid_argument);
}

std::string fresh_folder() {
    auto folder = std::filesystem::temp_directory_path() / new_id("mcpkit-conversations");
    std::filesystem::create_directories(folder);
    return folder.string();
}

std::unique_ptr<ChatStore> fresh_redis_store() {
    // A database of its own, emptied: the list is one key for the whole database.
    std::string url = mcp::testing::RedisTestServer::instance().url() + "/7";
    for (int attempt = 0;; ++attempt) {
        try {
            mcp::RedisConnection(mcp::parse_redis_url(url)).run({"FLUSHDB"});
            return make_redis_chat_store(url);
        } catch (const std::exception&) {
            if (attempt == 100) throw;  // redis-server takes a moment to listen
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Stores, ChatStoreConversations,
    testing::Values(StoreUnderTest{"memory", [] { return make_memory_chat_store(); }},
                    StoreUnderTest{"sqlite", [] { return make_sqlite_chat_store(fresh_folder() + "/host.db"); }},
                    StoreUnderTest{"redis", fresh_redis_store}),
    [](const testing::TestParamInfo<StoreUnderTest>& info) { return info.param.name; });

TEST(ChatStoreConversationsMigration, AFileFromBeforeTheListGetsItsConversationsTitled) {
    std::string path = fresh_folder() + "/host.db";
    {
        // The schema as it was: no title, time of last message or unfinished answer.
        sqlite3* database = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &database), SQLITE_OK);
        ChatMessage first = message(Role::user, "An old question", 1000);
        std::string sql =
            "CREATE TABLE host_sessions (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, last_active INTEGER NOT "
            "NULL, usage TEXT NOT NULL DEFAULT '{}');"
            "CREATE TABLE host_messages (session_id TEXT NOT NULL REFERENCES host_sessions(id) ON DELETE CASCADE, "
            "seq INTEGER PRIMARY KEY AUTOINCREMENT, message TEXT NOT NULL);"
            "INSERT INTO host_sessions VALUES ('old', 900, 5000, '{}'), ('silent', 900, 6000, '{}');"
            "INSERT INTO host_messages (session_id, message) VALUES ('old', '" +
            boost::json::serialize(first.to_json()) + "');";
        ASSERT_EQ(sqlite3_exec(database, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(database);
    }
    auto store = make_sqlite_chat_store(path);
    ConversationPage page = store->conversations({});
    ASSERT_EQ(ids(page), (std::vector<std::string>{"old"}));
    EXPECT_EQ(page.items[0].title, "An old question");
    EXPECT_EQ(page.items[0].updated_at, 5000);
    EXPECT_EQ(store->load("old")->history.size(), 1u);
}

TEST(ConversationTitle, IsTheFirstWordsOnOneLineCutBetweenCharacters) {
    EXPECT_EQ(conversation_title(message(Role::user, "  Hello\n\n world  ", 0)), "Hello world");
    EXPECT_EQ(conversation_title(message(Role::user, "", 0)), "");
    std::string long_text;
    for (int i = 0; i < 40; ++i) long_text += "é";  // two bytes each, no spaces
    long_text += " and more words after the limit";
    std::string title = conversation_title(message(Role::user, long_text, 0));
    EXPECT_LE(title.size(), 80u + std::string("…").size());
    EXPECT_TRUE(title.ends_with("…"));
    std::string words = conversation_title(message(Role::user, std::string(50, 'a') + " " + std::string(50, 'b'), 0));
    EXPECT_EQ(words, std::string(50, 'a') + "…");
}

}  // namespace
