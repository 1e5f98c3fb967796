// The token stores: what is saved comes back, by issuer and resource; the file is its owner's
// alone; registrations are bound to their issuer; a damaged file is reported, never overwritten.

#include "mcp/auth/TokenStore.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

using namespace mcp::auth;

namespace {

std::filesystem::path fresh_folder() {
    auto folder = std::filesystem::temp_directory_path() /
                  ("mcpkit-token-store-" + std::to_string(::getpid()) + "-" +
                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(folder);
    return folder;
}

void exercise(TokenStore& store) {
    EXPECT_FALSE(store.tokens("https://as.example", "https://mcp.example/mcp"));
    Tokens tokens{"access-1", "Bearer", "refresh-1", "mcp:read offline_access", 1900000000};
    store.save_tokens("https://as.example", "https://mcp.example/mcp", tokens);
    store.save_tokens("https://as.example", "https://other.example/mcp", {"access-2", "Bearer", "", "", 0});
    store.save_client("https://as.example", {"client-1", "secret-1", "client_secret_basic", "http://127.0.0.1:1/cb"});

    auto back = store.tokens("https://as.example", "https://mcp.example/mcp");
    ASSERT_TRUE(back);
    EXPECT_EQ(back->access_token, "access-1");
    EXPECT_EQ(back->refresh_token, "refresh-1");
    EXPECT_EQ(back->scope, "mcp:read offline_access");
    EXPECT_EQ(back->expires_at, 1900000000);
    EXPECT_FALSE(store.tokens("https://other-as.example", "https://mcp.example/mcp"));
    auto client = store.client("https://as.example");
    ASSERT_TRUE(client);
    EXPECT_EQ(client->client_secret, "secret-1");
    EXPECT_EQ(client->redirect_uri, "http://127.0.0.1:1/cb");

    store.forget_tokens("https://as.example", "https://other.example/mcp");
    EXPECT_FALSE(store.tokens("https://as.example", "https://other.example/mcp"));
    EXPECT_TRUE(store.tokens("https://as.example", "https://mcp.example/mcp"));
    // Tokens die with the registration that obtained them.
    store.forget_client("https://as.example");
    EXPECT_FALSE(store.client("https://as.example"));
    EXPECT_FALSE(store.tokens("https://as.example", "https://mcp.example/mcp"));
}

}  // namespace

TEST(TokenStore, MemoryStoreKeepsTokensByIssuerAndResource) {
    auto store = make_memory_token_store();
    exercise(*store);
}

TEST(TokenStore, FileStoreKeepsThemAcrossInstancesInAFileOnlyItsOwnerReads) {
    auto folder = fresh_folder();
    auto file = folder / "sub" / "oauth.json";
    {
        auto store = make_file_token_store(file);
        store->save_tokens("https://as.example", "https://mcp.example/mcp", {"access-1", "Bearer", "r", "s", 5});
    }
    struct stat info {};
    ASSERT_EQ(::stat(file.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0600u);
    ASSERT_EQ(::stat(file.parent_path().c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0700u);
    auto again = make_file_token_store(file);
    auto back = again->tokens("https://as.example", "https://mcp.example/mcp");
    ASSERT_TRUE(back);
    EXPECT_EQ(back->access_token, "access-1");
    again->forget_tokens("https://as.example", "https://mcp.example/mcp");
    exercise(*again);
    std::filesystem::remove_all(folder);
}

TEST(TokenStore, FileStoreMergesChangesFromAnotherProcessInsteadOfOverwritingThem) {
    auto folder = fresh_folder();
    auto file = folder / "oauth.json";
    auto first = make_file_token_store(file);
    auto second = make_file_token_store(file);  // as another process would hold it
    first->save_tokens("https://as.example", "https://one.example/mcp", {"one", "Bearer", "", "", 0});
    second->save_tokens("https://as.example", "https://two.example/mcp", {"two", "Bearer", "", "", 0});
    EXPECT_TRUE(first->tokens("https://as.example", "https://one.example/mcp"));
    EXPECT_TRUE(first->tokens("https://as.example", "https://two.example/mcp"));
    std::filesystem::remove_all(folder);
}

TEST(TokenStore, ADamagedFileIsReportedAndLeftAlone) {
    auto folder = fresh_folder();
    std::filesystem::create_directories(folder);
    auto file = folder / "oauth.json";
    std::ofstream(file) << "{ not json";
    try {
        make_file_token_store(file);
        FAIL() << "a damaged token file was accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("not a JSON object"), std::string::npos) << e.what();
    }
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "{ not json");
    std::filesystem::remove_all(folder);
}
