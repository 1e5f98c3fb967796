// libmcp's one Redis connection, used by every store: URL rules, AUTH with a user, the database,
// and a reconnect after Redis dropped the connection, against a real redis-server.

#include "RedisTestServer.hpp"
#include "mcp/store/RedisConnection.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace mcp;

namespace {
/// The test server starts on first use: wait for it.
std::unique_ptr<RedisConnection> connect_when_up(const std::string& url) {
    for (int attempt = 0;; ++attempt) {
        try {
            return std::make_unique<RedisConnection>(parse_redis_url(url));
        } catch (const RedisError&) {
            if (attempt == 100) throw;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
}
}  // namespace

TEST(RedisConnection, UrlsAreReadWhole) {
    auto full = parse_redis_url("redis://reader:s%40cret@db.example:6380/4");
    EXPECT_EQ(full.host, "db.example");
    EXPECT_EQ(full.port, 6380);
    EXPECT_EQ(full.username, "reader");
    EXPECT_EQ(full.password, "s@cret");
    EXPECT_EQ(full.database, 4);
    auto password_only = parse_redis_url("redis://:secret@127.0.0.1");
    EXPECT_EQ(password_only.username, "");
    EXPECT_EQ(password_only.password, "secret");
    EXPECT_EQ(password_only.port, 6379);
    EXPECT_EQ(parse_redis_url("redis://secret@127.0.0.1").password, "secret");
    EXPECT_EQ(parse_redis_url("redis://[::1]:7000").where(), "[::1]:7000");
    for (const char* bad : {"http://127.0.0.1:6379", "redis://", "redis://host:0", "redis://host:6379/x",
                            "redis://host:notaport", "rediss://host", "redis://host/1?timeout=1", "redis://host/-1"}) {
        try {
            parse_redis_url(bad);
            ADD_FAILURE() << bad << " was accepted";
        } catch (const std::invalid_argument& error) {
            EXPECT_NE(std::string(error.what()).find("redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]"), std::string::npos)
                << error.what();
        }
    }
}

TEST(RedisConnection, AuthenticatesAsAUserInItsDatabaseAndNeverShowsThePassword) {
    std::string url = mcp::testing::RedisTestServer::instance().url();
    auto admin = connect_when_up(url);
    admin->run({"ACL", "SETUSER", "mcpkit-test", "on", ">right-password", "~*", "+@all"});
    std::string base = url.substr(std::string("redis://").size());
    auto user = connect_when_up("redis://mcpkit-test:right-password@" + base + "/3");
    EXPECT_EQ(user->run({"ACL", "WHOAMI"}).text(), "mcpkit-test");
    user->run({"SET", "mcpkit:test:db", "three"});
    EXPECT_TRUE(admin->run({"GET", "mcpkit:test:db"}).is_nil()) << "the key went to database 0";
    try {
        RedisConnection wrong(parse_redis_url("redis://mcpkit-test:wrong-password@" + base));
        ADD_FAILURE() << "a wrong password was accepted";
    } catch (const RedisError& error) {
        std::string message = error.what();
        EXPECT_NE(message.find("refused AUTH"), std::string::npos) << message;
        EXPECT_EQ(message.find("wrong-password"), std::string::npos) << message;
    }
}

TEST(RedisConnection, ReconnectsOnceWhenRedisDroppedTheConnection) {
    auto redis = connect_when_up(mcp::testing::RedisTestServer::instance().url());
    redis->run({"SET", "mcpkit:test:reconnect", "still here"});
    auto id = redis->run({"CLIENT", "ID"}).integer();
    redis->run({"CLIENT", "KILL", "ID", std::to_string(id), "SKIPME", "no"});
    EXPECT_EQ(redis->run({"GET", "mcpkit:test:reconnect"}).text(), "still here");
    EXPECT_NE(redis->run({"CLIENT", "ID"}).integer(), id);
    auto reply = redis->run({"MGET", "mcpkit:test:reconnect", "mcpkit:test:absent"});
    ASSERT_EQ(reply.size(), 2u);
    EXPECT_EQ(reply[0].text(), "still here");
    EXPECT_TRUE(reply[1].is_nil());
    EXPECT_THROW(redis->run({"NO-SUCH-COMMAND"}), RedisError);
}
