// `--store` as analyze, the host and everything read it.

#include "common/StoreLocation.hpp"

#include <gtest/gtest.h>

namespace mcpkit {
namespace {

TEST(StoreLocation, ReadsTheThreeForms) {
    EXPECT_EQ(parse_store_location("").kind, StoreLocation::Kind::memory);
    EXPECT_EQ(parse_store_location("memory").kind, StoreLocation::Kind::memory);
    StoreLocation sqlite = parse_store_location("sqlite:/tmp/a.db");
    EXPECT_EQ(sqlite.kind, StoreLocation::Kind::sqlite);
    EXPECT_EQ(sqlite.path, "/tmp/a.db");
    StoreLocation redis = parse_store_location("redis://:hunter2@cache:6380/3");
    EXPECT_EQ(redis.kind, StoreLocation::Kind::redis);
    EXPECT_EQ(redis.url, "redis://:hunter2@cache:6380/3") << "the store connects with the password";
}

TEST(StoreLocation, TheDescriptionNeverShowsThePassword) {
    EXPECT_EQ(parse_store_location("redis://:hunter2@cache:6380/3").description(), "redis://cache:6380/3");
    EXPECT_EQ(parse_store_location("redis://user:hunter2@cache").description(), "redis://cache:6379/0");
    EXPECT_EQ(parse_store_location("sqlite:x.db").description(), "sqlite:x.db");
    EXPECT_EQ(parse_store_location("memory").description(), "memory");
}

TEST(StoreLocation, ErrorsNameTheOptionAndTheForms) {
    auto message = [](std::string_view text, StoreLocationRules rules = {}) {
        try {
            parse_store_location(text, rules);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(message("postgres://x").find("--store postgres://x: use memory, sqlite:PATH or redis://"), std::string::npos);
    EXPECT_NE(message("sqlite:").find("needs a file path"), std::string::npos);
    EXPECT_NE(message("redis://127.0.0.1:notaport").find("--store: "), std::string::npos);
    StoreLocationRules no_sqlite;
    no_sqlite.sqlite = false;
    EXPECT_NE(message("sqlite:x.db", no_sqlite).find("use memory or redis://"), std::string::npos);
    StoreLocationRules bare;
    bare.bare_path_is_sqlite = true;
    EXPECT_EQ(parse_store_location("host.db", bare).path, "host.db");
    EXPECT_NE(message("host.db").find("use memory, sqlite:PATH"), std::string::npos) << "only where the rules say";
}

}  // namespace
}  // namespace mcpkit
