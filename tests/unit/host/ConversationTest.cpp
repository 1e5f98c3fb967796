// The conversation as chat/ shapes it, without a page: a scripted LanguageModel answers, a real
// MCP server (libmcp, over Streamable HTTP on loopback, in this process) runs the tools, and a
// recording ChatEvents stands where the pages would be and answers their questions.
//
// Everything runs on one io_context, as in the host; nothing waits on the clock except the
// scripted model's "wait for Stop", which polls the cancellation it was given.

#include "host/chat/Conversation.hpp"
#include "host/chat/ToolRunner.hpp"
#include "host/store/ChatStore.hpp"

#include <mcp/server/Server.hpp>
#include <mcp/transport/StreamableHttpServer.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <gtest/gtest.h>

#include <deque>
#include <functional>

namespace mcpkit::host {
namespace {

namespace asio = boost::asio;
namespace json = boost::json;

/// One answer the model gives, in order.
struct ScriptedAnswer {
    std::vector<std::string> pieces;
    std::vector<ToolCall> calls;
    bool wait_for_stop = false;  ///< after the pieces, until the conversation cancels
    std::optional<ModelError> failure = std::nullopt;  ///< thrown after the pieces
    std::string ending = {};     ///< why the answer ended short
};

/// What a request to the model held (copied: the request's span points into the session).
struct SeenRequest {
    std::string system_prompt;
    std::vector<ChatMessage> history;
    std::size_t tools = 0;
};

class ScriptedModel : public LanguageModel {
public:
    std::deque<ScriptedAnswer> answers;
    std::vector<SeenRequest> requests;

    asio::awaitable<ModelReply> generate(const ModelRequest& request, mcp::CancellationToken cancellation,
                                         AnswerSink& sink) override {
        requests.push_back({request.system_prompt, {request.history.begin(), request.history.end()},
                            request.tools ? request.tools->size() : 0});
        if (answers.empty()) throw ModelError("the script has no answer left", 0, false);
        ScriptedAnswer answer = std::move(answers.front());
        answers.pop_front();
        ModelReply reply;
        for (const auto& piece : answer.pieces) {
            sink.text(piece);
            reply.text += piece;
        }
        if (answer.failure) throw *answer.failure;
        reply.ending = answer.ending;
        if (answer.wait_for_stop) {
            asio::steady_timer timer(co_await asio::this_coro::executor);
            while (!cancellation.cancelled()) {
                timer.expires_after(std::chrono::milliseconds(1));
                co_await timer.async_wait(asio::use_awaitable);
            }
            throw ModelError("stopped", 0, false);
        }
        reply.tool_calls = std::move(answer.calls);
        reply.usage = {10, 5, 15};
        co_return reply;
    }
    const ModelSettings& settings() const override { return settings_; }
    asio::awaitable<std::vector<ModelChoice>> list_models(mcp::CancellationToken) override {
        co_return std::vector<ModelChoice>{{"scripted", "Scripted"}};
    }
    ModelSettings settings_{.provider = "openai", .model = "scripted"};
};

/// The pages, as a list of what they were told; questions are answered by `answer`.
class RecordingEvents : public ChatEvents {
public:
    std::vector<std::string> said;
    std::vector<ToolCard> finished_cards;
    std::vector<std::string> finished_messages;
    std::function<std::optional<json::object>(const Question&)> answer;
    std::function<void(ChatSession&)> on_text;

    void turn(ChatSession&, TurnState state, const std::string&, const TurnEnd& end) override {
        said.push_back("turn " + std::string(turn_state_name(state)) + (end.message.empty() ? "" : ": " + end.message) +
                       (end.notice.empty() ? "" : " (" + end.notice + ")"));
    }
    void reasoning(ChatSession&, const std::string&, const std::string&, std::string_view piece) override {
        said.push_back("reasoning " + std::string(piece));
    }
    void retrying(ChatSession&, const std::string&, const RetryNotice& notice) override {
        said.push_back("retrying " + std::to_string(notice.attempt) + " of " + std::to_string(notice.attempts) + " in " +
                       std::to_string(notice.delay.count()) + " ms: " + notice.reason);
    }
    void user_message(ChatSession&, const std::string&, const ChatMessage& message) override {
        said.push_back("user " + message.content);
    }
    void text(ChatSession& session, const std::string&, const std::string&, std::string_view piece) override {
        said.push_back("text " + std::string(piece));
        if (on_text) on_text(session);
    }
    void tool_started(ChatSession&, const ToolCard& card, const json::object&) override {
        said.push_back("tool " + card.tool + " started");
    }
    void tool_progress(ChatSession&, const std::string&, double, std::optional<double>, const std::string&) override {}
    void history_changed(ChatSession&) override {}
    void tool_task(ChatSession&, const std::string&, const std::string&, const std::string&, const std::string&) override {}
    void tool_finished(ChatSession&, const ToolCard& card, const ToolEnding& ending) override {
        said.push_back("tool " + card.tool + " finished: " + ending.message);
        finished_cards.push_back(card);
        finished_messages.push_back(ending.message);
    }
    void question_opened(ChatSession& session, const Question& question) override {
        said.push_back(std::string("asked ") + (std::holds_alternative<ApprovalQuestion>(question)   ? "approval"
                                               : std::holds_alternative<SamplingQuestion>(question) ? "sampling"
                                                                                                    : "elicitation"));
        if (!answer) return;
        // As a page would: later, on the same thread.
        std::string id = question_id(question);
        std::optional<json::object> reply = answer(question);
        if (reply) asio::post(executor, [&session, id, reply] { session.answers.answer(id, *reply); });
    }
    void question_closed(ChatSession&, const std::string&, std::string_view reason) override {
        said.push_back("closed " + std::string(reason));
    }
    void usage(ChatSession&, const TokenUsage& total) override { said.push_back("usage " + std::to_string(total.total_tokens)); }
    void flush(ChatSession&) override {}

    asio::any_io_executor executor;
};

json::object decision(std::string_view value) { return {{"decision", value}}; }

class ConversationTest : public testing::Test {
protected:
    asio::io_context io;
    mcp::Server lab{{"lab", "1.0"}};
    std::unique_ptr<mcp::StreamableHttpServer> http;
    HostLog log{false, LogLevel::error};
    std::unique_ptr<ChatStore> store = make_memory_chat_store();
    ScriptedModel model;
    RecordingEvents events;
    std::unique_ptr<McpCoordinator> coordinator;
    std::unique_ptr<ToolRunner> tools;
    std::unique_ptr<Conversation> conversation;
    std::shared_ptr<ChatSession> session = std::make_shared<ChatSession>(io.get_executor(), "session_1");
    int add_calls = 0;

    void SetUp() override {
        events.executor = io.get_executor();
        mcp::Tool add{.name = "add", .description = "Adds two numbers"};
        lab.add_tool(add, [this](mcp::ToolCall& call) {
            ++add_calls;
            double sum = call.arguments.at("a").to_number<double>() + call.arguments.at("b").to_number<double>();
            return mcp::CallToolResult::text(std::to_string(static_cast<int>(sum)));
        });
        lab.add_tool(mcp::Tool{.name = "fail", .description = "Always fails"},
                     [](mcp::ToolCall&) { return mcp::CallToolResult::error("disk full"); });
        lab.add_tool(mcp::Tool{.name = "ask_model", .description = "Asks the client's model"},
                     [](mcp::ToolCall& call) -> asio::awaitable<mcp::Outcome<mcp::CallToolResult>> {
                         json::object params{{"messages", json::array{json::object{
                                                              {"role", "user"},
                                                              {"content", {{"type", "text"}, {"text", "Say hi"}}}}}},
                                             {"maxTokens", 50}};
                         json::value answer;
                         if (call.stateless()) {
                             if (auto* given = call.input_response("sample")) {
                                 answer = *given;
                             } else {
                                 mcp::InputRequired question;
                                 question.input_requests["sample"] =
                                     json::object{{"method", "sampling/createMessage"}, {"params", params}};
                                 co_return question;
                             }
                         } else {
                             answer = co_await call.request_client("sampling/createMessage", params);
                         }
                         co_return mcp::CallToolResult::text(
                             "model said: " + std::string(answer.at("content").at("text").as_string()));
                     });
        mcp::StreamableHttpServerOptions options;
        options.http_threads = 0;  // one thread, as the host
        http = std::make_unique<mcp::StreamableHttpServer>(lab, io, options);
        http->start();

        ServerCallbacks callbacks;
        callbacks.on_sampling = [this](const std::string& server, const json::object& params, const std::string&) {
            return conversation->sample(session, server, params);
        };
        coordinator = std::make_unique<McpCoordinator>(io.get_executor(), callbacks);
        tools = std::make_unique<ToolRunner>(*coordinator, events, log, std::chrono::minutes(1));
        ConversationSettings settings;
        settings.retries = 0;
        conversation = std::make_unique<Conversation>(*coordinator, &model, *store, log, settings, events, *tools);
    }

    /// Starts the coordinator on the lab server, runs `body`, shuts down; fails the test on a throw.
    void run(std::function<asio::awaitable<void>()> body) {
        ServerEntry entry;
        entry.name = "lab";
        entry.transport = ServerTransport::http;
        entry.url = "http://127.0.0.1:" + std::to_string(http->port()) + "/mcp";
        McpConfig config;
        config.servers.push_back(entry);
        std::exception_ptr failure;
        asio::co_spawn(
            io,
            [&]() -> asio::awaitable<void> {
                co_await coordinator->start(config);
                co_await body();
                co_await coordinator->shutdown();
            },
            [&](std::exception_ptr error) {
                failure = error;
                http->stop([this] { io.stop(); });
            });
        io.run();
        if (failure) std::rethrow_exception(failure);
    }

    asio::awaitable<void> turn(std::string text) {
        session->turn_running = true;  // as the page protocol sets it
        UserInput input;
        input.text = std::move(text);
        co_await conversation->run_turn(session, std::move(input));
    }

    static ToolCall call_of(std::string name, json::object arguments) {
        return ToolCall{new_id("call"), std::move(name), std::move(arguments), {}, {}};
    }

    std::shared_ptr<const RegisteredTool> lab_tool(const std::string& name) { return coordinator->find_tool("lab__" + name); }
};

TEST_F(ConversationTest, TextIsReportedPieceByPieceAndRecordedWhole) {
    model.answers.push_back({{"Hel", "lo"}, {}});
    run([&]() -> asio::awaitable<void> { co_await turn("Hi"); });
    EXPECT_EQ(events.said, (std::vector<std::string>{"turn started", "user Hi", "text Hel", "text lo", "usage 15",
                                                     "turn finished"}));
    ASSERT_EQ(session->history.size(), 2u);
    EXPECT_EQ(session->history[1].role, Role::assistant);
    EXPECT_EQ(session->history[1].content, "Hello");
    EXPECT_EQ(model.requests.at(0).tools, 3u) << "the lab server's tools are offered";
    EXPECT_EQ(store->load(session->id())->history.size(), 2u) << "both messages are stored";
}

TEST_F(ConversationTest, AToolAllowedOnceIsAskedForAgainNextTurn) {
    events.answer = [](const Question&) { return decision("once"); };
    for (int turn_number = 0; turn_number < 2; ++turn_number) {
        model.answers.push_back({{}, {call_of("lab__add", {{"a", 2}, {"b", 3}})}});
        model.answers.push_back({{"It is 5."}, {}});
    }
    run([&]() -> asio::awaitable<void> {
        co_await turn("2+3?");
        co_await turn("Again?");
    });
    EXPECT_EQ(add_calls, 2);
    EXPECT_EQ(std::count(events.said.begin(), events.said.end(), "asked approval"), 2);
    EXPECT_EQ(std::count(events.said.begin(), events.said.end(), "tool lab__add finished: Done"), 2);
    const ChatMessage& result = session->history.at(2);
    EXPECT_EQ(result.role, Role::tool);
    EXPECT_EQ(result.content, "5");
    EXPECT_FALSE(result.is_error);
    EXPECT_EQ(model.requests.at(1).history.back().content, "5") << "the model reads the result";
    EXPECT_TRUE(session->servers_in_use.empty());
}

TEST_F(ConversationTest, AToolAllowedAlwaysIsNotAskedForAgain) {
    events.answer = [](const Question&) { return decision("always"); };
    for (int turn_number = 0; turn_number < 2; ++turn_number) {
        model.answers.push_back({{}, {call_of("lab__add", {{"a", 1}, {"b", 1}})}});
        model.answers.push_back({{"2."}, {}});
    }
    run([&]() -> asio::awaitable<void> {
        co_await turn("1+1?");
        co_await turn("Again?");
    });
    EXPECT_EQ(add_calls, 2);
    EXPECT_EQ(std::count(events.said.begin(), events.said.end(), "asked approval"), 1);
}

TEST_F(ConversationTest, ADeniedCallNeverRunsAndTheModelIsToldWhy) {
    events.answer = [](const Question&) { return decision("deny"); };
    model.answers.push_back({{}, {call_of("lab__add", {{"a", 1}, {"b", 1}})}});
    model.answers.push_back({{"Understood."}, {}});
    run([&]() -> asio::awaitable<void> { co_await turn("1+1?"); });
    EXPECT_EQ(add_calls, 0);
    const ChatMessage& result = session->history.at(2);
    EXPECT_TRUE(result.is_error) << "an error result for the model";
    EXPECT_TRUE(result.refused) << "but denied, not failed, for the person";
    EXPECT_EQ(result.content, "The user declined this call.");
    EXPECT_EQ(events.finished_messages.at(0), "Not run");
    EXPECT_EQ(events.said.back(), "turn finished");
}

TEST_F(ConversationTest, StopMidStreamEndsTheTurnStoppedWithNoFallbackAnswer) {
    model.answers.push_back({{"Hel"}, {}, true});
    events.on_text = [this](ChatSession& stopped) {
        asio::post(io, [this, &stopped] { conversation->stop(stopped); });
    };
    run([&]() -> asio::awaitable<void> { co_await turn("Hi"); });
    EXPECT_EQ(events.said, (std::vector<std::string>{"turn started", "user Hi", "text Hel", "turn stopped"}));
    ASSERT_EQ(session->history.size(), 2u);
    EXPECT_EQ(session->history[1].content, "Hel") << "what the person read stays";
    EXPECT_EQ(session->history[1].ending, "Stopped.");
    EXPECT_FALSE(session->history[1].is_error) << "a Stop is no failure";
    EXPECT_FALSE(session->turn_running);
}

TEST_F(ConversationTest, AFailingToolIsAnErrorResultTheModelReads) {
    events.answer = [](const Question&) { return decision("once"); };
    model.answers.push_back({{}, {call_of("lab__fail", {})}});
    model.answers.push_back({{"The disk is full."}, {}});
    run([&]() -> asio::awaitable<void> { co_await turn("Save it"); });
    const ChatMessage& result = session->history.at(2);
    EXPECT_TRUE(result.is_error);
    EXPECT_EQ(result.content, "disk full");
    EXPECT_EQ(events.finished_messages.at(0), "The call failed");
    EXPECT_TRUE(model.requests.at(1).history.back().is_error);
    EXPECT_EQ(session->history.back().content, "The disk is full.");
}

TEST_F(ConversationTest, ASamplingRequestDuringACallIsApprovedAndAnsweredByTheModel) {
    events.answer = [](const Question& question) {
        return std::holds_alternative<SamplingQuestion>(question) ? json::object{{"decision", "approve"}} : decision("once");
    };
    model.answers.push_back({{}, {call_of("lab__ask_model", {})}});
    model.answers.push_back({{"hi there"}, {}});  // the sampling request's answer
    model.answers.push_back({{"Done."}, {}});
    run([&]() -> asio::awaitable<void> { co_await turn("Ask it"); });
    ASSERT_EQ(model.requests.size(), 3u);
    EXPECT_EQ(model.requests[1].history.at(0).content, "Say hi") << "the server's messages, not the chat's";
    EXPECT_EQ(model.requests[1].tools, 0u);
    EXPECT_EQ(session->history.at(2).content, "model said: hi there");
    EXPECT_EQ(std::count(events.said.begin(), events.said.end(), "asked sampling"), 1);
}

TEST_F(ConversationTest, ALongHistoryIsPrunedToTheWindowFromAUserMessage) {
    model.settings_.context_tokens = 4096 + 1500;  // the output budget (4096) and room for about 1,500 tokens
    for (int i = 0; i < 40; ++i) {
        ChatMessage message;
        message.id = new_id("msg");
        message.role = i % 2 ? Role::assistant : Role::user;
        message.content = std::string(400, 'a' + i % 26);  // about 100 tokens each
        session->history.push_back(std::move(message));
    }
    model.answers.push_back({{"ok"}, {}});
    run([&]() -> asio::awaitable<void> { co_await turn("And now?"); });
    const SeenRequest& request = model.requests.at(0);
    EXPECT_LT(request.history.size(), 41u);
    EXPECT_GE(request.history.size(), 6u) << "the newest few are always kept";
    EXPECT_EQ(request.history.front().role, Role::user) << "no answer without its question";
    EXPECT_EQ(request.history.back().content, "And now?");
    EXPECT_NE(request.system_prompt.find("earlier messages of this conversation were left out"), std::string::npos);
}

// The one tool run through its other two callers.

TEST_F(ConversationTest, AHandCallRunsWithoutAQuestionOrACard) {
    events.answer = [](const Question&) { return decision("deny"); };  // would refuse, were it asked
    ToolRunResult run_result;
    // Named, not braced inside co_await: g++ 12 miscompiles that.
    ToolCall call = call_of("lab__add", {{"a", 4}, {"b", 4}});
    run([&]() -> asio::awaitable<void> {
        auto tool = lab_tool("add");
        run_result = co_await tools->run(session, ToolCaller::hand, call, tool);
    });
    EXPECT_TRUE(run_result.refusal.empty());
    EXPECT_EQ(run_result.outcome.result.at("content").at(0).at("text"), "8");
    EXPECT_EQ(add_calls, 1);
    EXPECT_TRUE(events.said.empty()) << "the page that asked gets the result; no card, no question";
    EXPECT_TRUE(session->servers_in_use.empty());
}

TEST_F(ConversationTest, AViewCallIsAskedForAndItsCardBelongsToNoTurn) {
    events.answer = [](const Question&) { return decision("deny"); };
    ToolRunResult denied, allowed;
    ToolCall call = call_of("lab__add", {{"a", 1}, {"b", 2}});  // named: see above
    run([&]() -> asio::awaitable<void> {
        auto tool = lab_tool("add");
        denied = co_await tools->run(session, ToolCaller::view, call, tool);
        events.answer = [](const Question&) { return decision("always"); };
        allowed = co_await tools->run(session, ToolCaller::view, call, tool);
        events.said.push_back("-- allowed always from here");
        co_await tools->run(session, ToolCaller::view, call, tool);
    });
    EXPECT_EQ(denied.refusal, "The user declined this call.");
    EXPECT_TRUE(denied.outcome.refused);
    EXPECT_TRUE(allowed.refusal.empty());
    EXPECT_EQ(add_calls, 2);
    ASSERT_EQ(events.finished_cards.size(), 2u) << "a card only where the user was asked";
    EXPECT_EQ(events.finished_cards[0].turn_id, "");
    EXPECT_EQ(events.finished_messages[0], "Called by the app's view");
    EXPECT_EQ(events.said.back(), "-- allowed always from here") << "no question, no card once allowed always";
}

TEST_F(ConversationTest, ArgumentsTheModelGarbledAreRefusedWithoutAsking) {
    events.answer = [](const Question&) { return decision("once"); };
    ToolCall garbled = call_of("lab__add", {});
    garbled.arguments_error = "expected '}' at 12";
    model.answers.push_back({{}, {garbled}});
    model.answers.push_back({{"Sorry."}, {}});
    run([&]() -> asio::awaitable<void> { co_await turn("1+1?"); });
    EXPECT_EQ(add_calls, 0);
    EXPECT_EQ(std::count(events.said.begin(), events.said.end(), "asked approval"), 0);
    EXPECT_NE(session->history.at(2).content.find("could not be read: expected '}' at 12"), std::string::npos);
}

}  // namespace
}  // namespace mcpkit::host

namespace mcpkit::host {
namespace {

TEST_F(ConversationTest, ATransientFailureIsRetriedWithTheWaitReportedAndOneAfterTextIsKeptWithItsReason) {
    ConversationSettings settings;
    settings.retries = 2;
    settings.retry_delay = std::chrono::milliseconds(1);
    Conversation retrying(*coordinator, &model, *store, log, settings, events, *tools);
    model.answers.push_back({{}, {}, false, ModelError("The model server failed (HTTP 503).", "openai answered 503", 503, true)});
    model.answers.push_back({{"Par"}, {}, false, ModelError("The connection broke off.", "openai: reset", 0, true)});
    run([&]() -> asio::awaitable<void> {
        session->turn_running = true;
        UserInput input;  // named: g++ 12 and braced temporaries in co_await
        input.text = "Hi";
        co_await retrying.run_turn(session, std::move(input));
    });
    EXPECT_EQ(events.said, (std::vector<std::string>{"turn started", "user Hi",
                                                     "retrying 2 of 3 in 1 ms: The model server failed (HTTP 503).",
                                                     "text Par", "turn failed: The connection broke off."}))
        << "not retried once text was shown";
    ASSERT_EQ(session->history.size(), 2u);
    const ChatMessage& failed = session->history[1];
    EXPECT_EQ(failed.content, "Par") << "what the person read stays";
    EXPECT_TRUE(failed.is_error);
    EXPECT_EQ(failed.ending, "The connection broke off.");
    EXPECT_EQ(failed.ending_details, "openai: reset");
    EXPECT_EQ(model.requests.size(), 2u);
}

TEST_F(ConversationTest, AnAnswerCutShortFinishesWithItsReasonKept) {
    model.answers.push_back({{"Half an"}, {}, false, std::nullopt, "The model stopped: output limit reached."});
    run([&]() -> asio::awaitable<void> { co_await turn("Long story?"); });
    EXPECT_EQ(events.said.back(), "turn finished (The model stopped: output limit reached.)");
    EXPECT_EQ(session->history.back().content, "Half an");
    EXPECT_EQ(session->history.back().ending, "The model stopped: output limit reached.");
    EXPECT_FALSE(session->history.back().is_error);
}

}  // namespace
}  // namespace mcpkit::host
