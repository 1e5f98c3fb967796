// mcp::JsonSchema against the official JSON Schema Test Suite: every required (non-optional) case
// of draft2020-12 and draft7. Prints the pass rate per keyword file. A case whose schema refers to
// another document (the suite's remotes, or the meta-schemas) is refused by design and counted
// apart; every other case must pass.

#include "mcp/schema/JsonSchema.hpp"

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

struct Tally {
    int passed = 0, failed = 0, remote = 0;
};

std::string read_file(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void run_suite(const std::string& draft) {
    fs::path folder = fs::path(MCPKIT_JSON_SCHEMA_SUITE) / draft;
    ASSERT_TRUE(fs::is_directory(folder)) << folder;
    std::map<std::string, Tally> tallies;
    std::vector<std::string> failures;
    for (const auto& entry : fs::directory_iterator(folder)) {
        if (entry.path().extension() != ".json") continue;
        std::string keyword = entry.path().stem().string();
        Tally& tally = tallies[keyword];
        json::value groups = json::parse(read_file(entry.path()));
        for (const auto& group_value : groups.as_array()) {
            const auto& group = group_value.as_object();
            json::value schema = group.at("schema");
            // The suite's draft7 schemas name no dialect; a schema without one is 2020-12 here.
            if (draft == "draft7" && schema.is_object() && !schema.as_object().contains("$schema"))
                schema.as_object()["$schema"] = "http://json-schema.org/draft-07/schema#";
            std::optional<mcp::JsonSchema> compiled;
            std::string compile_error;
            try {
                compiled = mcp::JsonSchema::compile(schema);
            } catch (const std::invalid_argument& e) {
                compile_error = e.what();
            }
            for (const auto& test_value : group.at("tests").as_array()) {
                const auto& test = test_value.as_object();
                std::string name = keyword + ": " + std::string(group.at("description").as_string()) + ": " +
                                   std::string(test.at("description").as_string());
                if (!compiled) {
                    if (compile_error.find("references to other documents are not fetched") != std::string::npos) {
                        ++tally.remote;
                    } else {
                        ++tally.failed;
                        failures.push_back(name + " (compile: " + compile_error + ")");
                    }
                    continue;
                }
                bool expected = test.at("valid").as_bool();
                bool actual = false;
                std::string problem;
                try {
                    auto result = compiled->validate(test.at("data"));
                    actual = !result;
                    if (result) problem = *result;
                } catch (const std::exception& e) {
                    problem = std::string("threw: ") + e.what();
                }
                if (actual == expected) {
                    ++tally.passed;
                } else {
                    ++tally.failed;
                    failures.push_back(name + (expected ? " (refused: " + problem + ")" : " (accepted)"));
                }
            }
        }
    }
    Tally total;
    std::cout << "JSON Schema Test Suite, " << draft << " (required cases):\n";
    for (const auto& [keyword, tally] : tallies) {
        int scored = tally.passed + tally.failed;
        std::printf("  %-28s %4d/%-4d %6.1f%%%s\n", keyword.c_str(), tally.passed, scored,
                    scored ? 100.0 * tally.passed / scored : 100.0,
                    tally.remote ? ("  (" + std::to_string(tally.remote) + " refer to other documents)").c_str() : "");
        total.passed += tally.passed;
        total.failed += tally.failed;
        total.remote += tally.remote;
    }
    std::printf("  %-28s %4d/%-4d %6.1f%%  (%d refer to other documents, refused by design)\n", "all", total.passed,
                total.passed + total.failed, 100.0 * total.passed / std::max(1, total.passed + total.failed), total.remote);
    for (const auto& failure : failures) ADD_FAILURE() << failure;
}

}  // namespace

TEST(JsonSchemaSuite, Draft2020_12RequiredCasesPass) { run_suite("draft2020-12"); }
TEST(JsonSchemaSuite, Draft7RequiredCasesPass) { run_suite("draft7"); }
