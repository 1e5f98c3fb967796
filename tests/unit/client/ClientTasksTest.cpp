// Tool calls that run as tasks, from the Client API against a real Server over memory
// transports, in both eras: the call returns the task's result as if it were an ordinary call,
// on_task sees the statuses, the task's questions are answered by the client's handlers, and
// cancelling the call cancels the task on the server.

#include "server/ServerClientFixture.hpp"

using namespace mcp;
using namespace mcp::testing;
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

/// A tool that asks a question, waits while `hold` is set (or until cancelled), then answers.
void add_task_tool(Server& server, std::shared_ptr<std::atomic<bool>> hold, std::shared_ptr<std::atomic<bool>> saw_cancel) {
    json::object schema{{"type", "object"}, {"properties", {{"ok", {{"type", "boolean"}}}}}};
    server.add_tool(
        Tool{.name = "long_job"},
        [hold, saw_cancel, schema](ToolCall& call) -> asio::awaitable<Outcome<CallToolResult>> {
            if (!call.input_response("go")) co_return InputRequired{}.elicit("go", "Start?", schema);
            while (*hold && !call.cancelled()) co_await sleep_for(std::chrono::milliseconds(5));
            if (call.cancelled()) {
                *saw_cancel = true;
                co_return CallToolResult::text("stopped");
            }
            co_return CallToolResult::text("done in task " + call.task_id());
        },
        ToolOptions{.task_support = TaskSupport::required});
}

ClientOptions task_client(std::string version) {
    ClientOptions options;
    options.protocol_version = std::move(version);
    options.tasks = true;
    options.on_elicitation = [](const json::object&, const ServerRequestContext&) -> asio::awaitable<json::object> {
        co_return json::object{{"action", "accept"}, {"content", {{"ok", true}}}};
    };
    return options;
}

}  // namespace

class ClientTasks : public ::testing::TestWithParam<std::string> {};

TEST_P(ClientTasks, ACallRunAsATaskReturnsItsResultAndAnswersItsQuestions) {
    ServerClientFixture f({.task_poll_interval = std::chrono::milliseconds(10)});
    auto hold = std::make_shared<std::atomic<bool>>(false);
    auto saw_cancel = std::make_shared<std::atomic<bool>>(false);
    add_task_tool(f.server, hold, saw_cancel);
    f.with_client(task_client(GetParam()), [&](Client& client) -> asio::awaitable<void> {
        std::vector<std::string> statuses;
        RequestOptions options;
        options.on_task = [&](const TaskUpdate& update) {
            if (statuses.empty() || statuses.back() != update.status) statuses.push_back(update.status);
        };
        CallToolResult result = co_await client.call_tool("long_job", {}, options);
        CO_ASSERT_EQ(result.content.size(), 1u);
        EXPECT_TRUE(std::string(result.content[0].json.at("text").as_string()).starts_with("done in task "));
        CO_ASSERT_TRUE(!statuses.empty());
        EXPECT_EQ(statuses.front(), "working");
        EXPECT_EQ(statuses.back(), "completed");
    });
}

TEST_P(ClientTasks, CancellingTheCallCancelsTheTask) {
    ServerClientFixture f({.task_poll_interval = std::chrono::milliseconds(10)});
    auto hold = std::make_shared<std::atomic<bool>>(true);
    auto saw_cancel = std::make_shared<std::atomic<bool>>(false);
    add_task_tool(f.server, hold, saw_cancel);
    f.with_client(task_client(GetParam()), [&](Client& client) -> asio::awaitable<void> {
        CancellationSource cancel;
        RequestOptions options;
        options.cancellation = cancel.token();
        // Cancelled once the task is seen working again after its question was answered.
        int working = 0;
        options.on_task = [&](const TaskUpdate& update) {
            if (update.status == "working" && ++working == 2) cancel.cancel("the user changed their mind");
        };
        std::exception_ptr outcome;
        try {
            co_await client.call_tool("long_job", {}, options);
        } catch (...) {
            outcome = std::current_exception();
        }
        EXPECT_EQ(error_code_of(outcome), jsonrpc::error_code::request_cancelled);
        for (int i = 0; i < 400 && !*saw_cancel; ++i) co_await sleep_for(std::chrono::milliseconds(5));
        EXPECT_TRUE(*saw_cancel) << "the server's handler never saw the task cancelled";
    });
}

INSTANTIATE_TEST_SUITE_P(BothEras, ClientTasks, ::testing::Values("2025-11-25", "2026-07-28"),
                         [](const auto& info) { return info.param == "2025-11-25" ? std::string("Sessions") : std::string("Stateless"); });
