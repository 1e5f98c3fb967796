#include "review/References.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace mcpkit::review;

TEST(References, ParsesTheThreeForms) {
    auto line = parse_reference("src/server.cpp:42");
    ASSERT_TRUE(line);
    EXPECT_EQ(line->path, "src/server.cpp");
    EXPECT_EQ(line->line, 42);
    auto range = parse_reference("src/server.cpp:42-60");
    ASSERT_TRUE(range);
    EXPECT_EQ(range->end_line, 60);
    auto column = parse_reference("main.rs:7:15");
    ASSERT_TRUE(column);
    EXPECT_EQ(column->line, 7);
    auto search = parse_reference("src/server.cpp?void handle(");
    ASSERT_TRUE(search);
    EXPECT_EQ(search->search, "void handle(");
    for (const char* prose : {"ratio 3:1", "note:5", "http://host/a.cpp:3", "a.cpp:0", "a.cpp:9-3", "a.cpp:x", "-rf.c:1", "..:3"})
        EXPECT_FALSE(parse_reference(prose)) << prose;
}

TEST(References, FindsReferencesInProseWithoutItsPunctuation) {
    std::string text = "See (src/a.cpp:4), then lib/b.h:1-3. Also c_d.py?def f and 10:30 or e.g. done.";
    auto found = find_references(text);
    ASSERT_EQ(found.size(), 3u);
    EXPECT_EQ(text.substr(found[0].offset, found[0].length), "src/a.cpp:4");
    EXPECT_EQ(text.substr(found[1].offset, found[1].length), "lib/b.h:1-3");
    EXPECT_EQ(text.substr(found[2].offset, found[2].length), "c_d.py?def");
}

TEST(References, ResolvesAgainstTheBaseAndSearchesFiles) {
    auto directory = std::filesystem::temp_directory_path() / ("references-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(directory / "src");
    std::ofstream(directory / "src" / "a.cpp") << "int x;\nvoid handle(int) {\n}\n";
    auto found = resolve(*parse_reference("src/../src/a.cpp?void handle("), directory.string());
    EXPECT_EQ(found.path, (directory / "src" / "a.cpp").string());
    EXPECT_EQ(found.line, 2);
    EXPECT_TRUE(found.exists);
    EXPECT_TRUE(found.note.empty());
    auto missing_text = resolve(*parse_reference("src/a.cpp?nowhere"), directory.string());
    EXPECT_EQ(missing_text.line, 1);
    EXPECT_NE(missing_text.note.find("no line"), std::string::npos);
    auto missing_file = resolve(*parse_reference("src/gone.cpp:9"), directory.string());
    EXPECT_FALSE(missing_file.exists);
    EXPECT_EQ(missing_file.line, 9);
    std::filesystem::remove_all(directory);
}
