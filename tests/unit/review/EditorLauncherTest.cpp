#include "review/EditorLauncher.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

using namespace mcpkit::review;

TEST(EditorLauncher, SplitsLikeAShellAndFillsPlaceholders) {
    EXPECT_EQ(split_command(R"(code -g '{path}:{line}' "a \"b\"" c\ d)"),
              (std::vector<std::string>{"code", "-g", "{path}:{line}", "a \"b\"", "c d"}));
    EXPECT_THROW(split_command("vim 'unclosed"), std::invalid_argument);
    EXPECT_THROW(EditorLauncher("  "), std::invalid_argument);
    EditorLauncher launcher("code -g {path}:{line} --range {line}-{end}");
    EXPECT_EQ(launcher.arguments_for("/a b/c.cpp", 4, 0),
              (std::vector<std::string>{"code", "-g", "/a b/c.cpp:4", "--range", "4-4"}));
}

TEST(EditorLauncher, RunsTheCommandWithoutAShell) {
    auto record = std::filesystem::temp_directory_path() / ("opened-" + std::to_string(::getpid()));
    EditorLauncher launcher("sh -c 'printf \"%s|%s\" \"$1\" \"$2\" > " + record.string() + "' sh {path} {line}");
    EXPECT_EQ(launcher.open("/tmp/x; rm -rf /", 12, 0), "");
    std::string opened;
    for (int i = 0; i < 100 && opened.empty(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        std::ifstream file(record);
        std::getline(file, opened);
    }
    EXPECT_EQ(opened, "/tmp/x; rm -rf /|12");  // the path arrived as one argument, never as shell text
    std::filesystem::remove(record);
    EXPECT_NE(EditorLauncher("/no/such/editor {path}").open("/a", 1, 0).find("could not start"), std::string::npos);
}
