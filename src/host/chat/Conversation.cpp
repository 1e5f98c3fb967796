#include "host/chat/Conversation.hpp"

#include "host/chat/UserQuestions.hpp"
#include "host/history/HistoryWindow.hpp"

#include <mcp/Error.hpp>
#include <mcp/JsonFields.hpp>

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>

namespace mcpkit::host {
namespace asio = boost::asio;
namespace json = boost::json;
namespace json_fields = mcp::json_fields;

namespace {


asio::awaitable<void> sleep_for(std::chrono::milliseconds delay) {
    asio::steady_timer timer(co_await asio::this_coro::executor, delay);
    boost::system::error_code ec;
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
}

}  // namespace

Conversation::Conversation(McpCoordinator& coordinator, LanguageModel* model, ChatStore& store, HostLog& log,
                           ConversationSettings settings, ChatEvents& events, ToolRunner& tools)
    : coordinator_(coordinator), model_(model), store_(store), log_(log), settings_(std::move(settings)),
      events_(events), tools_(tools) {}

void Conversation::record(ChatSession& session, ChatMessage message) {
    message.created_at = now_milliseconds();
    // The first message after an edit's or a new answer's cut carries the versions it replaced,
    // and replaces in the store the stretch it kept until now (a host that stops before this
    // still has it there).
    std::optional<std::size_t> replaces;
    if (session.carried_versions) {
        carry_versions(message, std::move(session.carried_versions->versions));
        replaces = session.carried_versions->at;
        session.carried_versions.reset();
    }
    if (session.removed) {  // deleted meanwhile: nothing more goes to the store
        session.history.push_back(std::move(message));
        return;
    }
    try {
        if (!session.in_store) {
            store_.touch(session.id(), session.created_at, message.created_at);
            session.in_store = true;
            session.stored_active = message.created_at;
        }
        session.stored_revision = replaces ? store_.replace_from(session.id(), *replaces, {message})
                                           : store_.append(session.id(), message);
    } catch (const std::exception& e) {
        log_.error("Session", "store_failed", {{"sessionId", session.id()}, {"error", e.what()}});
    }
    session.history.push_back(std::move(message));
}

void Conversation::add_usage(ChatSession& session, const TokenUsage& usage) {
    session.usage.prompt_tokens += usage.prompt_tokens;
    session.usage.completion_tokens += usage.completion_tokens;
    session.usage.total_tokens += usage.total_tokens ? usage.total_tokens : usage.prompt_tokens + usage.completion_tokens;
    try {
        if (!session.removed) store_.set_usage(session.id(), session.usage);
    } catch (const std::exception&) {
    }
    events_.usage(session, session.usage);
}

void Conversation::stop(ChatSession& session) {
    if (!session.turn_running) return;
    session.request_stop("stopped by the user");  // aborts the model's answer too
    session.answers.cancel_all();
}

asio::awaitable<std::string> Conversation::user_content(ChatSession& session, const UserInput& input) {
    std::string content = input.text;
    if (input.prompt) {
        auto server = coordinator_.server(input.prompt->server);
        std::shared_ptr<mcp::Client> client = server ? server->client() : nullptr;
        if (!client) throw std::runtime_error("the server " + input.prompt->server + " is not running");
        mcp::GetPromptResult prompt = co_await client->get_prompt(input.prompt->name, input.prompt->arguments);
        std::string text;
        for (const auto& message : prompt.messages) {
            auto* type = message.content.json.if_contains("type");
            if (type && type->is_string() && type->get_string() == "text")
                text += json_fields::text(message.content.json, "text") + "\n";
            else
                text += "[" + std::string(message.content.type()) + " content]\n";
        }
        content = text + (content.empty() ? "" : "\n" + content);
    }
    for (const auto& attachment : input.attachments) {
        auto server = coordinator_.server(attachment.server);
        std::shared_ptr<mcp::Client> client = server ? server->client() : nullptr;
        if (!client) throw std::runtime_error("the server " + attachment.server + " is not running");
        auto contents = co_await client->read_resource(attachment.uri);
        content += "\n\nAttached resource " + attachment.uri + ":\n";
        for (const auto& item : contents) {
            json::object json = item.to_json();
            if (auto text = json_fields::text(json, "text"); !text.empty()) content += text;
            else content += "[binary content, " + json_fields::text(json, "mimeType") + "]";
        }
    }
    (void)session;
    co_return content;
}

void Conversation::keep_unfinished(ChatSession& session) {
    AnswerInProgress& answer = *session.answer;
    std::int64_t now = now_milliseconds();
    // A second after the answer began, then every second: an answer written within a second (most
    // of them, and every one in a benchmark) costs the store nothing.
    if (now - std::max(answer.started_at, answer.saved_at) < 1000 || !session.in_store || session.removed) return;
    answer.saved_at = now;
    ChatMessage copy;
    copy.id = answer.message_id;
    copy.role = Role::assistant;
    copy.model = answer.model;
    copy.content = answer.text;
    copy.reasoning = answer.reasoning;
    copy.created_at = now;
    // Read back only if the host stops before the answer ends.
    copy.ending = "Interrupted: the host stopped while this answer was being written.";
    try {
        store_.keep_unfinished(session.id(), &copy);
    } catch (const std::exception& e) {
        log_.error("Session", "store_failed", {{"sessionId", session.id()}, {"error", e.what()}});
    }
}

void Conversation::finish_answer(ChatSession& session) {
    bool saved = session.answer && session.answer->saved_at != 0;
    session.answer.reset();
    if (!saved || session.removed) return;
    try {
        store_.keep_unfinished(session.id(), nullptr);
    } catch (const std::exception& e) {
        log_.error("Session", "store_failed", {{"sessionId", session.id()}, {"error", e.what()}});
    }
}

asio::awaitable<ModelReply> Conversation::generate(ChatSession& session) {
    ToolList tools = choose_tools(session);
    // The tools' declarations take room in the window too (counted once per list).
    if (tools != counted_tools_) {
        counted_tools_ = tools;
        counted_tool_tokens_ = declared_tokens(*tools);
    }
    std::int64_t tool_tokens = counted_tool_tokens_;
    std::int64_t budget = model_->settings().context_tokens - settings_.max_output_tokens - tool_tokens -
                          estimate_tokens(settings_.system_prompt);
    HistoryWindow window = history_window(session.history, {std::max<std::int64_t>(budget, 1024), settings_.retain_newest});
    ModelRequest request;
    request.system_prompt = settings_.system_prompt;
    if (window.omitted > 0)
        request.system_prompt += "\n\n(" + std::to_string(window.omitted) +
                                 " earlier messages of this conversation were left out to fit the context window.)";
    request.history = std::span<const ChatMessage>(session.history).subspan(window.omitted);
    request.tools = std::move(tools);
    request.model = session.model;
    std::string turn_id = session.turn_id;
    // Each piece of the answer is reported as it arrives, and kept: an answer that breaks off
    // keeps what the person already read.
    struct ReportedText : AnswerSink {
        Conversation& conversation;
        ChatSession& session;
        const std::string& turn_id;
        AnswerInProgress& so_far;
        ReportedText(Conversation& conversation, ChatSession& session, const std::string& turn_id)
            : conversation(conversation), session(session), turn_id(turn_id), so_far(*session.answer) {}
        // Kept before it is shown: what a page showed, a restart finds.
        void text(std::string_view piece) override {
            so_far.text += piece;
            conversation.keep_unfinished(session);
            conversation.events_.text(session, turn_id, so_far.message_id, piece);
            conversation.events_.flush(session);  // the first token's latency is the one users feel
        }
        void reasoning(std::string_view piece) override {
            so_far.reasoning += piece;
            conversation.keep_unfinished(session);
            conversation.events_.reasoning(session, turn_id, so_far.message_id, piece);
            conversation.events_.flush(session);
        }
    };
    AnswerInProgress& so_far = *session.answer;
    int attempts = settings_.retries + 1;
    for (int attempt = 1;; ++attempt) {
        ReportedText sink(*this, session, turn_id);
        std::optional<ModelError> failure;
        try {
            // A stream that stalls is cut by the provider's silence limit; the turn then fails (or
            // retries) as for any broken stream, instead of waiting for Stop.
            mcp::CancellationToken stop = session.stop_token();  // named: g++ 12 and temporaries in co_await
            ModelReply reply = co_await model_->generate(request, stop, sink);
            co_return reply;
        } catch (const ModelError& e) {
            failure = e;
        } catch (const std::exception& e) {
            failure = ModelError("The model's answer failed.", e.what(), 0, false);
        }
        if (session.stopped()) throw ModelError("Stopped.", 0, false);
        log_.warn("LLM", "request_failed",
                  {{"sessionId", session.id()}, {"requestId", turn_id}, {"attempt", attempt},
                   {"status", failure->status}, {"error", failure->what()}, {"details", failure->details}});
        // Text already shown cannot be taken back, so a stream that broke after it is not retried.
        if (!failure->transient || !so_far.text.empty() || attempt >= attempts) throw *failure;
        auto delay = std::max(settings_.retry_delay, failure->retry_after.value_or(std::chrono::milliseconds(0)));
        delay = std::min(delay, std::chrono::milliseconds(std::chrono::seconds(30)));
        events_.retrying(session, turn_id, {attempt + 1, attempts, delay, failure->what()});
        events_.flush(session);
        so_far.reasoning.clear();  // the next attempt thinks again
        // Slept in short steps so that Stop is heard during a long Retry-After.
        for (auto slept = std::chrono::milliseconds(0); slept < delay && !session.stopped(); slept += std::chrono::milliseconds(100))
            co_await sleep_for(std::min(std::chrono::milliseconds(100), delay - slept));
        if (session.stopped()) throw ModelError("Stopped.", 0, false);
    }
}

asio::awaitable<void> Conversation::run_turn(std::shared_ptr<ChatSession> session, UserInput input) {
    session->turn_running = true;
    session->turn_id = new_id("turn");
    session->arm_stop();
    std::string turn_id = session->turn_id;
    events_.turn(*session, TurnState::started, turn_id, {});
    if (log_.enabled(LogLevel::info))
        log_.info("Orchestrator", "turn_started", {{"sessionId", session->id()}, {"requestId", turn_id}});
    TurnState state = TurnState::finished;
    TurnEnd end;
    std::optional<ChatMessage> cut_short;  // the answer a failure broke off, recorded with it below
    bool regenerating = !input.regenerates.empty();
    try {
        if ((regenerating || !input.edits.empty()) && !cut_for(*session, input))
            throw std::invalid_argument("That message is no longer in this conversation; nothing was changed.");
        if (!regenerating) {
            ChatMessage user;
            user.id = new_id("msg");
            user.role = Role::user;
            user.content = co_await user_content(*session, input);
            for (auto& file : input.files) {
                if (!file.data.empty()) {
                    user.images.push_back({std::move(file.mime_type), std::move(file.data), std::move(file.name)});
                } else {
                    if (!user.content.empty()) user.content += "\n\n";
                    user.content += "File " + file.name + ":\n" + fenced_block(file.text);
                }
            }
            // What the views asked the model to know since the last message (ui/update-model-context).
            user.context = view_contexts_for_model(session->view_contexts);
            session->view_contexts.clear();
            record(*session, std::move(user));
            // Other tabs on the session show what was asked (the sender shows it already).
            events_.user_message(*session, turn_id, session->history.back());
        }
        if (!model_) {
            state = TurnState::failed;
            end.message = "No LLM is configured. Set GEMINI_API_KEY, ANTHROPIC_API_KEY, or OPENAI_API_KEY (and "
                          "OPENAI_BASE_URL for a local server such as llama.cpp or Ollama), and start the host again. "
                          "Tools can still be called by hand from the server panel.";
        }
        for (int step = 0; model_ && step < settings_.max_steps; ++step) {
            // The answer's author is the model asked, whatever the page picks meanwhile.
            session->answer = std::make_unique<AnswerInProgress>(
                AnswerInProgress{new_id("msg"), session->model, {}, {}, now_milliseconds(), 0});
            std::optional<ModelError> failure;
            ModelReply reply;
            try {
                reply = co_await generate(*session);
            } catch (const ModelError& e) {
                failure = e;
            }
            AnswerInProgress& so_far = *session->answer;
            ChatMessage assistant;
            assistant.id = so_far.message_id;
            assistant.role = Role::assistant;
            assistant.model = so_far.model;
            if (failure) {
                // What the person already read stays, with why it ended.
                assistant.content = std::move(so_far.text);
                assistant.reasoning = std::move(so_far.reasoning);
                if (session->stopped()) {
                    if (!assistant.content.empty()) {
                        assistant.ending = "Stopped.";
                        record(*session, std::move(assistant));
                    }
                } else {
                    state = TurnState::failed;
                    end.message = failure->what();
                    end.details = failure->details;
                    cut_short = std::move(assistant);
                }
                finish_answer(*session);
                break;
            }
            add_usage(*session, reply.usage);
            assistant.content = std::move(reply.text);
            assistant.reasoning = std::move(reply.reasoning);
            assistant.provider_data = std::move(reply.provider_data);
            assistant.tool_calls = reply.tool_calls;
            assistant.ending = reply.ending;
            end.notice = reply.ending;
            if (!reply.ending.empty() && log_.enabled(LogLevel::info))
                log_.info("LLM", "answer_ended_short", {{"sessionId", session->id()}, {"requestId", turn_id},
                                                        {"finishReason", reply.finish_reason}, {"ending", reply.ending}});
            record(*session, std::move(assistant));
            finish_answer(*session);
            if (reply.tool_calls.empty()) break;
            for (const auto& call : reply.tool_calls) {
                if (session->stopped()) {
                    // Every call gets its answer, or providers refuse the history next time.
                    ChatMessage skipped;
                    skipped.id = new_id("msg");
                    skipped.role = Role::tool;
                    skipped.tool_call_id = call.id;
                    skipped.tool_name = call.name;
                    skipped.is_error = true;
                    skipped.content = "The user stopped the turn before this call ran.";
                    skipped.data = mcp::CallToolResult::error(skipped.content).to_json();
                    record(*session, std::move(skipped));
                    continue;
                }
                co_await run_tool_call(session, call);
            }
            if (session->stopped()) break;
            if (step + 1 == settings_.max_steps) {
                state = TurnState::failed;
                end.message = "The model kept calling tools for " + std::to_string(settings_.max_steps) +
                              " rounds; the turn was ended there. Send a message to let it go on.";
            }
        }
    } catch (const std::exception& e) {
        state = TurnState::failed;
        end.message = e.what();
    }
    if (session->stopped()) {
        state = TurnState::stopped;
        end = {};
    } else if (state == TurnState::failed && model_) {
        // The seed's fallback: the failure is part of the conversation, said once, with the
        // answer it broke off when there was one.
        ChatMessage failed;
        if (cut_short) {
            failed = std::move(*cut_short);
        } else {
            failed.id = new_id("msg");
            failed.role = Role::assistant;
        }
        failed.ending = end.message;
        failed.ending_details = end.details;
        failed.is_error = true;
        record(*session, std::move(failed));
    }
    if (state == TurnState::failed) end.notice.clear();
    finish_answer(*session);
    // Stopped before anything replaced what was cut: it comes back, as it was.
    bool restored = session->carried_versions != nullptr;
    if (restored) restore_cut(*session);
    // No cancel_all here: the turn's own questions were all awaited; any still open belong to a
    // view's call or a call made by hand, which go on after the turn.
    session->turn_running = false;
    events_.turn(*session, state, turn_id, end);
    // The new answer's versions (streamed, it could not show them): the pages see them now.
    if (regenerating && !restored) events_.history_changed(*session);
    if (log_.enabled(LogLevel::info))
        log_.info("Orchestrator", "turn_" + std::string(turn_state_name(state)),
                  {{"sessionId", session->id()}, {"requestId", turn_id}});
}

asio::awaitable<void> Conversation::run_tool_call(std::shared_ptr<ChatSession> session, const ToolCall& call) {
    // Held: the registry may be rebuilt while this call waits (list_changed, a reload).
    if (is_host_tool(call.name)) {
        run_host_tool(*session, call);
        co_return;
    }
    std::shared_ptr<const RegisteredTool> tool = coordinator_.find_tool(call.name);
    if (tool && !tool->visible_to_model) tool.reset();
    ToolRunResult run = co_await tools_.run(session, ToolCaller::model, call, tool);
    ChatMessage result;
    result.id = new_id("msg");
    result.role = Role::tool;
    result.tool_call_id = call.id;
    result.tool_name = call.name;
    // A long result reaches the model as a preview; the page and read_tool_result have it whole.
    result.content = text_for_model(tool_result_text(run.outcome.result), call.id, result.cut);
    if (run.edited_arguments)
        result.content = "(The user changed the arguments before allowing the call; it ran with " +
                         json::serialize(*run.edited_arguments) + ".)\n" + result.content;
    result.data = std::move(run.outcome.result);
    result.is_error = run.outcome.is_error;
    result.refused = run.outcome.refused;
    result.app = std::move(run.app);  // a page opened later shows the view too, while the host serves it
    record(*session, std::move(result));
}

asio::awaitable<json::object> Conversation::sample(std::shared_ptr<ChatSession> session, std::string server,
                                                   json::object params) {
    if (!model_) throw mcp::Error(-1, "the host has no LLM configured to answer sampling requests");
    SamplingQuestion question{new_id("sampling"), server, params};
    auto answer = co_await ask_user(*session, events_, std::move(question), settings_.approval_timeout);
    if (!answer || json_fields::text(*answer, "decision") != "approve")
        throw mcp::Error(-1, "The user declined the sampling request");

    std::vector<ChatMessage> history;
    if (auto* messages = params.if_contains("messages"); messages && messages->is_array()) {
        for (const auto& item : messages->get_array()) {
            if (!item.is_object()) continue;
            ChatMessage message;
            message.role = json_fields::text(item.get_object(), "role") == "assistant" ? Role::assistant : Role::user;
            if (auto* content = item.get_object().if_contains("content"); content && content->is_object())
                message.content = json_fields::text(content->get_object(), "text");
            history.push_back(std::move(message));
        }
    }
    ModelRequest request;
    request.system_prompt = json_fields::text(params, "systemPrompt");
    request.history = history;
    request.model = session->model;
    // The server's number, of any form (a fraction, 1e300): clamped, never thrown on.
    if (auto* max = params.if_contains("maxTokens"); max && max->is_number())
        request.max_output_tokens =
            static_cast<int>(std::clamp<std::int64_t>(json_fields::integer(params, "maxTokens"), 1, 1'000'000));
    AnswerSink whole_answer;  // the server gets the answer whole
    mcp::CancellationToken not_stopped;  // not the turn's: a sampling request may come outside one
    ModelReply reply = co_await model_->generate(request, not_stopped, whole_answer);
    add_usage(*session, reply.usage);
    // MCP's stop reasons: endTurn, stopSequence, maxTokens. Named, not inline: g++ 12 and
    // temporaries in a coroutine's conditional expressions.
    std::string stop_reason = "endTurn";
    const std::string& finish = reply.finish_reason;
    if (finish == "length" || finish == "MAX_TOKENS" || finish == "max_tokens") stop_reason = "maxTokens";
    std::string model_name = session->model;
    if (model_name.empty()) model_name = model_->settings().model;
    json::object content{{"type", "text"}, {"text", reply.text}};
    json::object result{{"role", "assistant"}, {"content", std::move(content)}, {"model", std::move(model_name)},
                        {"stopReason", std::move(stop_reason)}};
    co_return result;
}

asio::awaitable<json::object> Conversation::elicit(std::shared_ptr<ChatSession> session, std::string server,
                                                   json::object params) {
    ElicitationQuestion question;
    question.request_id = new_id("elicitation");
    question.server = server;
    question.message = json_fields::text(params, "message");
    std::string mode = json_fields::text(params, "mode");
    question.mode = mode;
    if (question.mode.empty()) question.mode = "form";
    if (auto* schema = params.if_contains("requestedSchema")) question.requested_schema = *schema;
    if (auto* url = params.if_contains("url")) question.url = *url;
    auto answer = co_await ask_user(*session, events_, std::move(question), settings_.approval_timeout);
    if (!answer) co_return json::object{{"action", "cancel"}};
    std::string action = json_fields::text(*answer, "action");
    json::object result{{"action", action}};
    if (action == "accept" && mode != "url") {
        auto* content = answer->if_contains("content");
        result["content"] = content && content->is_object() ? content->get_object() : json::object{};
    }
    co_return result;
}

}  // namespace mcpkit::host
