// The analyze tools through the MCP client API: the envelope as structuredContent that matches
// the declared outputSchema, errors as failed envelopes, and sessions linking related results.

#include "analyze/server/AnalyzeServer.hpp"
#include "server/ServerClientFixture.hpp"

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>

using namespace mcpkit::analyze;
using namespace mcp::testing;
namespace asio = boost::asio;
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

struct AnalyzeFixture {
    std::unique_ptr<SessionStore> store = make_memory_session_store();
    CallRunner runner{*store, SessionPolicy{}};
    fs::path root = fs::temp_directory_path() / ("analyze-server-" + std::to_string(::getpid()));
    ServerClientFixture fixture;
    explicit AnalyzeFixture(std::int64_t max_file_bytes = 4 << 20, bool confined = false, SessionPolicy policy = {})
        : runner(*store, policy) {
        fs::create_directories(root / "pkg");
        std::ofstream(root / "pkg/a.py") << "import pkg.b\n\ndef f(x):\n    return 1 if x else 2\n";
        std::ofstream(root / "pkg/b.py") << "def g():\n    pass\n";
        add_analyze_tools(fixture.server, runner,
                          {.root = root.string(), .confine_to_root = confined, .cache_path = "", .max_file_bytes = max_file_bytes});
    }
    ~AnalyzeFixture() { fs::remove_all(root); }
};

const json::object& envelope(const mcp::CallToolResult& result) {
    static const json::object missing{{"status", {{"code", 0}, {"message", "no structuredContent"}}},
                                      {"metadata", json::object()}, {"data", nullptr}};
    if (!result.structured_content || !result.structured_content->is_object()) {
        ADD_FAILURE() << "the result has no structuredContent envelope";
        return missing;
    }
    return result.structured_content->as_object();
}

// Outside the coroutines: g++ 12 cannot put string literals of a macro's temporaries in a coroutine frame.
// g++ 12 cannot hold a braced initializer list inside a co_await expression: arguments come from text.
json::object arguments(std::string_view text) { return json::parse(text).as_object(); }

json::object with_session(json::object object, const std::string& session) {
    object["sessionId"] = session;
    return object;
}

bool equals(const json::value& text, const char* expected) { return text.is_string() && text.get_string() == expected; }
bool contains(const json::value& text, std::string needle) {
    return text.is_string() && std::string_view(text.get_string()).find(needle) != std::string_view::npos;
}

}  // namespace

TEST(AnalyzeServer, EveryToolDeclaresTheEnvelopeAndDescribesEveryParameter) {
    AnalyzeFixture f;
    f.fixture.with_client({}, [&](mcp::Client& client) -> asio::awaitable<void> {
        auto tools = co_await client.list_tools();
        std::vector<std::string> names;
        for (const mcp::Tool& tool : tools) {
            names.push_back(tool.name);
            EXPECT_TRUE(tool.output_schema) << tool.name;
            if (tool.output_schema) {
                EXPECT_EQ(tool.output_schema->at("required").as_array().size(), 3u) << tool.name;
            }
            for (const auto& [parameter, schema] : tool.input_schema.at("properties").as_object())
                EXPECT_TRUE(schema.as_object().contains("description")) << tool.name << "." << parameter;
        }
        for (const char* expected : {"analyze-file", "analyze-code", "analyze-project", "create-session", "get-session-info",
                                     "get-session-history", "clear-session", "list-sessions", "list-available-tools",
                                     "get-tool-details", "get-symbols", "get-dependencies"})
            EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
    });
}

TEST(AnalyzeServer, AnswersWithTheEnvelopeAndAMeasuredTime) {
    AnalyzeFixture f;
    f.fixture.with_client({}, [&](mcp::Client& client) -> asio::awaitable<void> {
        auto result = co_await client.call_tool("analyze-file", arguments(R"({"path": "pkg/a.py"})"));
        EXPECT_FALSE(result.is_error);
        const json::object& answer = envelope(result);
        EXPECT_EQ(answer.at("status").at("code").as_int64(), 200);
        EXPECT_TRUE(answer.at("status").at("success").as_bool());
        EXPECT_TRUE(equals(answer.at("metadata").at("tool"), "analyze-file"));
        EXPECT_TRUE(equals(answer.at("metadata").at("state"), "succeeded"));
        EXPECT_GT(answer.at("metadata").at("executionTime").to_number<double>(), 0.0);
        EXPECT_EQ(answer.at("data").at("functions").as_array()[0].at("cyclomatic").as_int64(), 2);
        EXPECT_TRUE(contains(result.content[0].json.at("text"), "cyclomatic 2"));
    });
}

TEST(AnalyzeServer, FailuresAreFailedEnvelopesThatSayWhy) {
    AnalyzeFixture f;
    f.fixture.with_client({}, [&](mcp::Client& client) -> asio::awaitable<void> {
        auto missing = co_await client.call_tool("analyze-file", arguments(R"({"path": "pkg/nope.py"})"));
        EXPECT_TRUE(missing.is_error);
        EXPECT_EQ(envelope(missing).at("status").at("code").as_int64(), 404);
        EXPECT_TRUE(equals(envelope(missing).at("metadata").at("state"), "failed"));
        EXPECT_TRUE(contains(envelope(missing).at("status").at("message"), "no such file"));
        auto no_language = co_await client.call_tool("analyze-code", arguments(R"({"code": "x = 1"})"));
        EXPECT_EQ(envelope(no_language).at("status").at("code").as_int64(), 400);
        EXPECT_TRUE(contains(envelope(no_language).at("status").at("message"), "language"));
        auto no_session = co_await client.call_tool("analyze-file", arguments(R"({"path": "pkg/a.py", "sessionId": "gone"})"));
        EXPECT_EQ(envelope(no_session).at("status").at("code").as_int64(), 404);
        // Refused by the inputSchema before any handler runs: still an envelope that names the field.
        auto wrong_type = co_await client.call_tool("analyze-code", arguments(R"({"code": 42, "language": "python"})"));
        EXPECT_TRUE(wrong_type.is_error);
        EXPECT_EQ(envelope(wrong_type).at("status").at("code").as_int64(), 400);
        EXPECT_TRUE(equals(envelope(wrong_type).at("metadata").at("state"), "failed"));
        EXPECT_TRUE(equals(envelope(wrong_type).at("metadata").at("tool"), "analyze-code"));
        EXPECT_TRUE(contains(envelope(wrong_type).at("status").at("message"), "code"));
        auto bad_depth = co_await client.call_tool("analyze-project", arguments(R"({"projectPath": ".", "options": {"maxDepth": -1}})"));
        EXPECT_EQ(envelope(bad_depth).at("status").at("code").as_int64(), 400);
        EXPECT_TRUE(contains(envelope(bad_depth).at("status").at("message"), "maxDepth"));
    });
}

TEST(AnalyzeServer, SourcesOverTheSizeLimitAreRefusedAloneAndSkippedInATree) {
    AnalyzeFixture f(30);  // pkg/a.py has 49 bytes, pkg/b.py 20
    f.fixture.with_client({}, [&](mcp::Client& client) -> asio::awaitable<void> {
        auto file = co_await client.call_tool("analyze-file", arguments(R"({"path": "pkg/a.py"})"));
        EXPECT_TRUE(file.is_error);
        EXPECT_EQ(envelope(file).at("status").at("code").as_int64(), 413);
        EXPECT_TRUE(contains(envelope(file).at("status").at("message"), "--max-file-bytes"));
        auto code = co_await client.call_tool("analyze-code", arguments(R"({"code": "def f(x):\n    return [x, x, x, x]\n", "language": "python"})"));
        EXPECT_EQ(envelope(code).at("status").at("code").as_int64(), 413);
        auto project = co_await client.call_tool("analyze-project", arguments(R"({"projectPath": "pkg"})"));
        EXPECT_FALSE(project.is_error);
        const json::object& data = envelope(project).at("data").as_object();
        EXPECT_EQ(data.at("totals").at("files").as_int64(), 1);
        const json::array& skipped = data.at("skipped").as_array();
        CO_ASSERT_EQ(skipped.size(), 1u);
        EXPECT_TRUE(equals(skipped[0].at("path"), "a.py"));
        EXPECT_TRUE(contains(skipped[0].at("reason"), "larger than 30 bytes"));
    });
}

TEST(AnalyzeServer, SessionsRecordCallsAndRelateResultsAboutTheSameFiles) {
    AnalyzeFixture f;
    f.fixture.with_client({}, [&](mcp::Client& client) -> asio::awaitable<void> {
        auto created = co_await client.call_tool("create-session", arguments(R"({"ttlSeconds": 600})"));
        std::string session(envelope(created).at("data").at("sessionId").as_string());
        auto project = co_await client.call_tool("analyze-project", with_session(arguments(R"({"projectPath": "."})"), session));
        EXPECT_FALSE(project.is_error) << project.content[0].json;
        std::string project_result(envelope(project).at("context").at("resultId").as_string());
        EXPECT_EQ(envelope(project).at("data").at("totals").at("files").as_int64(), 2);
        auto file = co_await client.call_tool("analyze-file", with_session(arguments(R"({"path": "pkg/b.py"})"), session));
        const json::object& context = envelope(file).at("context").as_object();
        EXPECT_EQ(context.at("sessionId").as_string(), session);
        EXPECT_EQ(context.at("relatedResults").as_array().size(), 1u);
        EXPECT_EQ(context.at("relatedResults").as_array()[0].as_string(), project_result);

        // Refused by the inputSchema, and still part of the session's story.
        auto refused = co_await client.call_tool("analyze-code", with_session(arguments(R"({"code": 7, "language": "c"})"), session));
        EXPECT_EQ(envelope(refused).at("status").at("code").as_int64(), 400);
        EXPECT_EQ(envelope(refused).at("context").at("sessionId").as_string(), session);

        auto history = co_await client.call_tool("get-session-history", with_session(json::object(), session));
        const json::array& calls = envelope(history).at("data").at("history").as_array();
        CO_ASSERT_EQ(calls.size(), 3u);
        EXPECT_TRUE(equals(calls[0].at("tool"), "analyze-project"));
        EXPECT_TRUE(equals(calls[1].at("state"), "succeeded"));
        EXPECT_TRUE(equals(calls[2].at("state"), "failed"));
        EXPECT_TRUE(contains(calls[2].at("error"), "code")) << calls[2];
        auto cleared = co_await client.call_tool("clear-session", with_session(json::object(), session));
        EXPECT_FALSE(cleared.is_error);
        auto after = co_await client.call_tool("get-session-info", with_session(json::object(), session));
        EXPECT_EQ(envelope(after).at("status").at("code").as_int64(), 404);
    });
}

TEST(AnalyzeServer, OneCallerHoldsABoundedNumberOfSessions) {
    SessionPolicy policy;
    policy.max_sessions_per_owner = 3;
    AnalyzeFixture f(4 << 20, false, policy);
    f.fixture.with_client({}, [&](mcp::Client& client) -> asio::awaitable<void> {
        std::string first;
        for (int i = 0; i < 3; ++i) {
            auto created = co_await client.call_tool("create-session", json::object());
            EXPECT_FALSE(created.is_error);
            if (i == 0) first = std::string(envelope(created).at("data").at("sessionId").as_string());
        }
        auto refused = co_await client.call_tool("create-session", json::object());
        EXPECT_TRUE(refused.is_error);
        EXPECT_EQ(envelope(refused).at("status").at("code").as_int64(), 429);
        EXPECT_TRUE(contains(envelope(refused).at("status").at("message"), "clear-session")) << envelope(refused);
        auto listed = co_await client.call_tool("list-sessions", json::object());
        EXPECT_EQ(envelope(listed).at("data").at("sessions").as_array().size(), 3u);
        co_await client.call_tool("clear-session", with_session(json::object(), first));
        auto again = co_await client.call_tool("create-session", json::object());
        EXPECT_FALSE(again.is_error);
    });
}

TEST(AnalyzeServer, DiscoveryListsByCategoryWithExamples) {
    AnalyzeFixture f;
    f.fixture.with_client({}, [&](mcp::Client& client) -> asio::awaitable<void> {
        auto listed = co_await client.call_tool("list-available-tools",
                                                arguments(R"({"category": "session", "includeExamples": true})"));
        const json::array& tools = envelope(listed).at("data").at("tools").as_array();
        EXPECT_EQ(tools.size(), 5u);
        auto details = co_await client.call_tool("get-tool-details", arguments(R"({"toolName": "analyze-project"})"));
        const json::object& data = envelope(details).at("data").as_object();
        EXPECT_FALSE(data.at("examples").as_array().empty());
        EXPECT_FALSE(data.at("parameters").as_array().empty());
        auto unknown = co_await client.call_tool("get-tool-details", arguments(R"({"toolName": "nope"})"));
        EXPECT_EQ(envelope(unknown).at("status").at("code").as_int64(), 404);
    });
}

TEST(AnalyzeServer, DependenciesAreFollowedBothWaysUpToMaxDepth) {
    AnalyzeFixture f;
    // d imports c, c imports a, a imports b (from the fixture).
    std::ofstream(f.root / "pkg/c.py") << "from pkg import a\n";
    std::ofstream(f.root / "pkg/d.py") << "import pkg.c\n";
    f.fixture.with_client({}, [&](mcp::Client& client) -> asio::awaitable<void> {
        auto direct = co_await client.call_tool("get-dependencies", arguments(R"({"path": "pkg/a.py", "projectPath": "."})"));
        const json::object& one = envelope(direct).at("data").as_object();
        EXPECT_EQ(one.at("dependsOn"), json::array({"pkg/b.py"}));
        EXPECT_EQ(one.at("importedBy"), json::array({"pkg/c.py"}));
        EXPECT_EQ(one.at("transitive").at("maxDepth").as_int64(), 1);
        EXPECT_EQ(one.at("transitive").at("importedBy").as_array().size(), 1u);

        auto deeper = co_await client.call_tool("get-dependencies",
                                                arguments(R"({"path": "pkg/a.py", "projectPath": ".", "maxDepth": 3})"));
        const json::object& three = envelope(deeper).at("data").at("transitive").as_object();
        EXPECT_EQ(three.at("importedBy"), json::parse(R"([{"path": "pkg/c.py", "steps": 1}, {"path": "pkg/d.py", "steps": 2}])"));
        EXPECT_EQ(three.at("dependsOn"), json::parse(R"([{"path": "pkg/b.py", "steps": 1}])"));
        EXPECT_TRUE(contains(deeper.content[0].json.at("text"), "within 3 steps it reaches 1 file and is reached from 2 files"));

        auto refused = co_await client.call_tool("get-dependencies", arguments(R"({"path": "pkg/a.py", "maxDepth": 0})"));
        EXPECT_EQ(envelope(refused).at("status").at("code").as_int64(), 400);
        EXPECT_TRUE(contains(envelope(refused).at("status").at("message"), "maxDepth"));
    });
}

// Before: /etc/passwd, "../" and links out of the tree were analysed, and get-symbols returned the
// identifiers of any file the process could read.
TEST(AnalyzeServer, AConfinedServerRefusesPathsOutsideItsRoot) {
    AnalyzeFixture f(4 << 20, true);
    fs::path outside = fs::temp_directory_path() / ("analyze-outside-" + std::to_string(::getpid()) + ".py");
    std::ofstream(outside) << "secret = 1\n";
    fs::create_symlink(outside, f.root / "pkg/link.py");
    fs::create_symlink(f.root / "loop-b", f.root / "loop-a");
    fs::create_symlink(f.root / "loop-a", f.root / "loop-b");
    std::string outside_text = outside.string();
    f.fixture.with_client({}, [&](mcp::Client& client) -> asio::awaitable<void> {
        for (std::string path : {std::string("/etc/passwd"), outside_text, std::string("../analyze-outside-") +
                                     std::to_string(::getpid()) + ".py", std::string("pkg/link.py"), std::string("pkg/../../x.py")}) {
            json::object call{{"path", path}};
            auto result = co_await client.call_tool("analyze-file", call);
            EXPECT_TRUE(result.is_error) << path;
            EXPECT_EQ(envelope(result).at("status").at("code").as_int64(), 403) << path;
            EXPECT_TRUE(contains(envelope(result).at("status").at("message"), "outside the server's root " + fs::canonical(f.root).string()))
                << path;
            auto symbols = co_await client.call_tool("get-symbols", call);
            EXPECT_EQ(envelope(symbols).at("status").at("code").as_int64(), 403) << path;
        }
        auto project = co_await client.call_tool("analyze-project", arguments(R"({"projectPath": "/"})"));
        EXPECT_EQ(envelope(project).at("status").at("code").as_int64(), 403);
        auto dependencies = co_await client.call_tool("get-dependencies", arguments(R"({"path": "pkg/a.py", "projectPath": ".."})"));
        EXPECT_EQ(envelope(dependencies).at("status").at("code").as_int64(), 403);
        auto loop = co_await client.call_tool("analyze-file", arguments(R"({"path": "loop-a"})"));
        EXPECT_EQ(envelope(loop).at("status").at("code").as_int64(), 400);
        EXPECT_TRUE(contains(envelope(loop).at("status").at("message"), "symlink loop"));
        // Inside the root, relative or absolute, still works.
        auto inside = co_await client.call_tool("analyze-file", arguments(R"({"path": "pkg/../pkg/a.py"})"));
        EXPECT_FALSE(inside.is_error);
        json::object absolute{{"path", (f.root / "pkg/b.py").string()}};
        auto absolute_inside = co_await client.call_tool("analyze-file", absolute);
        EXPECT_FALSE(absolute_inside.is_error);
    });
    fs::remove(outside);
}

// Before: "a.py", a NUL byte, then ".js" analysed a.py, since the system reads a path only up to its NUL.
TEST(AnalyzeServer, PathsHoldingANulByteAreRefusedEvenUnconfined) {
    AnalyzeFixture f;
    f.fixture.with_client({}, [&](mcp::Client& client) -> asio::awaitable<void> {
        for (const char* tool : {"analyze-file", "get-symbols", "get-dependencies"}) {
            auto result = co_await client.call_tool(tool, arguments(R"({"path": "pkg/a.py\u0000.js"})"));
            EXPECT_EQ(envelope(result).at("status").at("code").as_int64(), 400) << tool;
            EXPECT_TRUE(contains(envelope(result).at("status").at("message"), "path contains a NUL byte")) << tool;
        }
        auto project = co_await client.call_tool("analyze-project", arguments(R"({"projectPath": "pkg\u0000/x"})"));
        EXPECT_TRUE(contains(envelope(project).at("status").at("message"), "projectPath contains a NUL byte"));
        auto code = co_await client.call_tool("analyze-code", arguments(R"({"code": "x = 1", "filePath": "a.py\u0000.js"})"));
        EXPECT_TRUE(contains(envelope(code).at("status").at("message"), "filePath contains a NUL byte"));
        // Unconfined, a path outside the root is still read (the stdio server's --allow-outside-root).
        json::object outside{{"path", (f.root / "pkg/a.py").string()}};
        auto plain = co_await client.call_tool("analyze-file", outside);
        EXPECT_FALSE(plain.is_error);
    });
}
