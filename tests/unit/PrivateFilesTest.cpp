// mcp::private_directory and friends on a real file system: what another user could have made in
// advance (a directory of theirs, a symlink, an open directory under a shared parent) is refused
// with the path and the fix named; the user's own open directory under a private parent is
// narrowed; databases are 0600 with their companions.
#include <mcp/PrivateFiles.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace {
namespace fs = std::filesystem;

mode_t mode_of(const fs::path& path) {
    struct stat status {};
    ::lstat(path.c_str(), &status);
    return status.st_mode & 07777;
}

class PrivateFiles : public ::testing::Test {
protected:
    void SetUp() override {
        char pattern[] = "/tmp/mcpkit-private-XXXXXX";
        base_ = ::mkdtemp(pattern);  // 0700: a private parent
    }
    void TearDown() override { fs::remove_all(base_); }
    fs::path base_;
};

std::string refusal(const fs::path& path) {
    try {
        mcp::private_directory(path);
    } catch (const mcp::PrivateDirectoryError& e) {
        return e.what();
    }
    return {};
}

TEST_F(PrivateFiles, MadeWithModeSevenHundred) {
    auto made = mcp::private_directory(base_ / "state" / "mcpkit");
    EXPECT_EQ(mode_of(made), 0700u);
}

TEST_F(PrivateFiles, AnOpenDirectoryOfOursUnderAPrivateParentIsNarrowed) {
    fs::create_directory(base_ / "old");
    ::chmod((base_ / "old").c_str(), 0755);
    mcp::private_directory(base_ / "old");
    EXPECT_EQ(mode_of(base_ / "old"), 0700u);
}

TEST_F(PrivateFiles, AnOpenDirectoryUnderASharedParentIsRefused) {
    fs::create_directory(base_ / "shared");
    ::chmod((base_ / "shared").c_str(), 01777);  // as /tmp
    fs::create_directory(base_ / "shared" / "mcpkit-1000");
    ::chmod((base_ / "shared" / "mcpkit-1000").c_str(), 0777);
    auto message = refusal(base_ / "shared" / "mcpkit-1000");
    EXPECT_NE(message.find("has mode 0777 under the shared directory"), std::string::npos) << message;
    EXPECT_NE(message.find("rm -r"), std::string::npos) << message;
    EXPECT_EQ(mode_of(base_ / "shared" / "mcpkit-1000"), 0777u) << "left as it is";
}

TEST_F(PrivateFiles, ASymlinkIsRefused) {
    fs::create_directory(base_ / "elsewhere");
    ::chmod((base_ / "elsewhere").c_str(), 0700);
    fs::create_directory_symlink(base_ / "elsewhere", base_ / "link");
    auto message = refusal(base_ / "link");
    EXPECT_NE(message.find("is a symbolic link"), std::string::npos) << message;
}

TEST_F(PrivateFiles, ADirectoryOfAnotherUserIsRefused) {
    if (::geteuid() != 0) GTEST_SKIP() << "giving a directory to another user needs root";
    fs::create_directory(base_ / "theirs");
    ::chmod((base_ / "theirs").c_str(), 0700);
    ASSERT_EQ(::chown((base_ / "theirs").c_str(), 54321, 54321), 0);
    auto message = refusal(base_ / "theirs");
    EXPECT_NE(message.find("belongs to user id 54321, not to you"), std::string::npos) << message;
}

TEST_F(PrivateFiles, ADatabaseAndItsCompanionsAreOwnerOnly) {
    auto database = base_ / "host.db";
    {
        std::ofstream wal(base_ / "host.db-wal");  // left 0644 by an older mcpkit
    }
    ::chmod((base_ / "host.db-wal").c_str(), 0644);
    mcp::prepare_private_database(database);
    EXPECT_EQ(mode_of(database), 0600u);
    EXPECT_EQ(mode_of(base_ / "host.db-wal"), 0600u);
}

}  // namespace
