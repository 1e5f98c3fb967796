#include "host/web/PageProtocol.hpp"

#include "host/web/PageFields.hpp"

#include "host/chat/UserQuestions.hpp"
#include "host/coordinator/ToolNames.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <mcp/JsonFields.hpp>

#include <algorithm>
#include <cctype>
#include <set>

namespace mcpkit::host {
namespace asio = boost::asio;
namespace json = boost::json;
namespace json_fields = mcp::json_fields;

PageProtocol::PageProtocol(asio::any_io_executor executor, SessionManager& sessions, Conversation& conversation,
                           McpCoordinator& coordinator, ToolRunner& tools, PageFrames& frames, HostLog& log)
    : executor_(std::move(executor)), sessions_(sessions), conversation_(conversation), coordinator_(coordinator),
      tools_(tools), frames_(frames), log_(log) {}

Frame PageProtocol::servers_frame() {
    return PageFrames::servers(coordinator_.describe_servers(), conversation_.model(), llm_help);
}

void PageProtocol::broadcast_servers() {
    servers_text_ = servers_frame();
    for (const auto& [id, session] : sessions_.sessions()) session->broadcast(servers_text_);
}

void PageProtocol::open(const std::shared_ptr<WebSocketClient>& client, const std::string& session_id) {
    bool resumed = false;
    std::shared_ptr<ChatSession> session = sessions_.open(session_id, resumed);
    client->session_id = session->id();
    client->resumed = resumed;
    client->connected_at = now_milliseconds();
    client->handler = this;
}

void PageProtocol::opened(const std::shared_ptr<WebSocketClient>& page) {
    auto session = sessions_.find(page->session_id);
    if (!session) {
        page->send(PageFrames::error("this connection's session ended; reload the page"));
        page->close();
        return;
    }
    bool resumed = page->resumed;
    session->attach(page);
    sessions_.touch(*session);
    log_.info("WebSocket", resumed ? "reconnected" : "connected",
              {{"sessionId", session->id()}, {"connectionId", page->id}, {"pages", session->clients()}});
    page->send(PageFrames::connection(resumed, session->id()));
    if (!servers_text_) servers_text_ = servers_frame();
    greet(*page, *session, servers_text_);
}

void PageProtocol::greet(WebSocketClient& page, ChatSession& session, const Frame& servers) {
    json::array messages;
    for (const auto& message : session.history) {
        json::object item = PageFrames::message_for_page(message);
        // A view the host no longer serves (kept views are bounded; a restart forgets them) is
        // left out: the card shows the result alone rather than a frame that cannot load.
        if (auto* app = item.if_contains("app"); app && !(apps && apps->serves(*app))) item.erase("app");
        messages.push_back(std::move(item));
    }
    page.send(PageFrames::history(std::move(messages)));
    if (servers) page.send(servers);
    page.send(PageFrames::usage_frame(session.usage));
    // The default model is in `servers` (llm.model): only a conversation that picked another
    // needs a frame of its own (a greeting one frame longer costs every idle page memory).
    if (LanguageModel* model = conversation_.model(); model && !session.model.empty())
        page.send(PageFrames::model(session.model, model->settings().model));
    if (session.turn_running) {
        page.send(PageFrames::turn_frame(TurnState::started, session.turn_id, {}));
        // The answer being written, from its first character: the next pieces follow on.
        if (const auto& answer = session.answer) {
            if (!answer->reasoning.empty())
                page.send(PageFrames::reasoning_frame(session.turn_id, answer->message_id, answer->reasoning));
            if (!answer->text.empty())
                page.send(PageFrames::text_frame(session.turn_id, answer->message_id, answer->text));
        }
    }
    for (const auto& [id, question] : session.questions) page.send(PageFrames::question(question));
}

void PageProtocol::received(const std::shared_ptr<WebSocketClient>& page, std::string_view text) { handle(page, text); }

void PageProtocol::closed(const std::shared_ptr<WebSocketClient>& page) {
    auto session = sessions_.find(page->session_id);
    if (!session) return;
    session->detach(page.get());
    log_.info("WebSocket", "disconnected", {{"sessionId", session->id()}, {"pages", session->clients()}});
}

void PageProtocol::handle(const std::shared_ptr<WebSocketClient>& client, std::string_view text) {
    boost::system::error_code ec;
    json::value frame = json::parse(text, ec);
    if (ec || !frame.is_object()) {
        client->send(PageFrames::error("a frame must be a JSON object {\"type\": …, \"payload\": {…}}"));
        return;
    }
    const auto& object = frame.get_object();
    auto* type = object.if_contains("type");
    if (!type || !type->is_string()) {
        client->send(PageFrames::error("the frame's \"type\" must be a string"));
        return;
    }
    auto* payload = object.if_contains("payload");
    if (payload && !payload->is_object()) {
        client->send(PageFrames::error(std::string(type->get_string()) + ".payload must be an object"));
        return;
    }
    // A page whose conversation was deleted (in another tab) may still open another.
    auto session = sessions_.find(client->session_id);
    if (!session && type->get_string() != "open_conversation") {
        client->send(PageFrames::error("this connection's session ended; reload the page"));
        return;
    }
    static const json::object empty;
    std::string request_id;
    if (payload)
        if (auto* id = payload->get_object().if_contains("requestId"); id && id->is_string())
            request_id = std::string(id->get_string());
    try {
        dispatch(client, session, std::string(type->get_string()), payload ? payload->get_object() : empty);
    } catch (const std::invalid_argument& e) {
        client->send(PageFrames::error(e.what(), request_id));
    } catch (const std::exception& e) {
        // The store refused (Redis down, SQLite busy): that request fails, the page stays.
        log_.error("Session", "request_failed", {{"sessionId", client->session_id}, {"error", e.what()}});
        client->send(PageFrames::error(std::string("the host could not do that: ") + e.what(), request_id));
    }
}

void PageProtocol::dispatch(const std::shared_ptr<WebSocketClient>& client, const std::shared_ptr<ChatSession>& session,
                            const std::string& type, const json::object& payload) {
    PageFields fields(payload, type);
    if (type == "open_conversation") {
        open_conversation(client, session, fields.text("sessionId", false));
        return;
    }
    sessions_.touch(*session);
    if (type == "message") {
        UserInput input;
        input.text = fields.text("text", false);
        if (auto* attachments = fields.array("attachments")) {
            for (const auto& item : *attachments) {
                if (!item.is_object()) fields.fail("attachments", "must hold objects {server, uri}");
                PageFields attachment(item.get_object(), "message.payload.attachments[]", true);
                input.attachments.push_back({attachment.text("server"), attachment.text("uri")});
            }
        }
        if (json::object prompt = fields.object("prompt"); !prompt.empty()) {
            PageFields use(prompt, "message.payload.prompt", true);
            json::object arguments = use.object("arguments");
            for (const auto& [name, value] : arguments)
                if (!value.is_string()) use.fail("arguments." + std::string(name), "must be a string");
            input.prompt = UserInput::PromptUse{use.text("server"), use.text("name"), std::move(arguments)};
        }
        if (auto* files = fields.array("files")) input.files = attached_files(*files);
        if (input.text.empty() && !input.prompt && input.files.empty()) fields.fail("text", "is empty");
        if (session->turn_running)
            throw std::invalid_argument("an answer is still being written; wait for it or stop it first");
        session->turn_running = true;  // at once, so a second message right behind is refused
        asio::co_spawn(executor_, conversation_.run_turn(session, std::move(input)), asio::detached);
    } else if (type == "edit_message" || type == "regenerate") {
        UserInput input;
        std::string id = fields.text("messageId");
        if (type == "edit_message") {
            input.text = fields.text("text");
            if (input.text.find_first_not_of(" \n\t\r") == std::string::npos) fields.fail("text", "is empty");
            if (edit_point(session->history, id) == no_stretch)
                fields.fail("messageId", "names none of your messages in this conversation");
            input.edits = id;
        } else {
            if (regenerate_point(session->history, id) == no_stretch)
                fields.fail("messageId", "names no answer in this conversation");
            input.regenerates = id;
        }
        if (session->turn_running)
            throw std::invalid_argument("an answer is still being written; wait for it or stop it first");
        session->turn_running = true;
        asio::co_spawn(executor_, conversation_.run_turn(session, std::move(input)), asio::detached);
    } else if (type == "show_version") {
        std::string id = fields.text("messageId");
        auto* version = payload.if_contains("version");
        if (!version || !(version->is_int64() || version->is_uint64()) ||
            (version->is_int64() && version->get_int64() < 0))
            fields.fail("version", "must be a whole number, 0 or more");
        std::size_t chosen = version->is_int64() ? static_cast<std::size_t>(version->get_int64())
                                                 : static_cast<std::size_t>(version->get_uint64());
        conversation_.show_version(*session, id, chosen);
    } else if (type == "stop") {
        conversation_.stop(*session);
    } else if (type == "approval") {
        fields.one_of("decision", {"once", "conversation", "always", "deny"});
        fields.object("arguments");  // the arguments as the user edited them: an object, when given
        answer_question(client, *session, "callId", payload);
    } else if (type == "elicitation") {
        fields.one_of("action", {"accept", "decline", "cancel"});
        fields.object("content");
        answer_question(client, *session, "requestId", payload);
    } else if (type == "sampling") {
        fields.one_of("decision", {"approve", "deny"});
        answer_question(client, *session, "requestId", payload);
    } else if (type == "call_tool") {
        fields.text("requestId");
        fields.text("tool");
        fields.object("arguments");
        asio::co_spawn(executor_, call_tool(client, session, payload), asio::detached);
    } else if (type == "get_prompt") {
        fields.text("requestId");
        fields.text("server");
        fields.text("name");
        for (const auto& [name, value] : fields.object("arguments"))
            if (!value.is_string()) fields.fail("arguments." + std::string(name), "must be a string");
        asio::co_spawn(executor_, get_prompt(client, payload), asio::detached);
    } else if (type == "read_resource") {
        fields.text("requestId");
        fields.text("server");
        fields.text("uri");
        asio::co_spawn(executor_, read_resource(client, payload), asio::detached);
    } else if (type == "app_request") {
        fields.text("requestId");
        fields.text("server");
        std::string method = fields.one_of("method", {"tools/call", "resources/read", "ui/update-model-context"});
        fields.object("params");
        if (method == "ui/update-model-context") update_view_context(*client, *session, payload);
        else asio::co_spawn(executor_, app_request(client, session, payload), asio::detached);
    } else if (type == "list_models") {
        fields.text("requestId");
        asio::co_spawn(executor_, list_models(client, payload), asio::detached);
    } else if (type == "set_model") {
        LanguageModel* model = conversation_.model();
        if (!model) throw std::invalid_argument("no LLM is configured, so there is no model to pick");
        std::string name = fields.text("model", false);
        // It becomes part of the provider's URL (Gemini) or body: a name, not a path.
        if (!name.empty() && !is_model_name(name))
            fields.fail("model", "must be a model name (letters, digits and . _ : / @ + -, at most 200)");
        // A tool round goes back to the model that asked for the calls (its signatures are its own).
        if (session->turn_running) throw std::invalid_argument("pick a model once the answer being written is done");
        const std::string& default_model = model->settings().model;
        session->model = name == default_model ? std::string() : name;
        session->broadcast(PageFrames::model(name.empty() ? default_model : name, default_model));
    } else if (type == "list_approvals") {
        client->send(PageFrames::approvals(fields.text("requestId"), tools_.standing_approvals(*session)));
    } else if (type == "revoke_approval") {
        std::string request_id = fields.text("requestId");
        std::string scope = fields.one_of("scope", {"conversation", "always"});
        std::string tool = fields.text("tool");
        if (!tools_.revoke(*session, tool, scope == "always" ? ApprovalScope::always : ApprovalScope::conversation))
            fields.fail("tool", "names no tool allowed " + std::string(scope == "always" ? "always" : "in this chat"));
        log_.info("MCP", "approval_revoked", {{"sessionId", session->id()}, {"tool", tool}, {"scope", scope}});
        client->send(PageFrames::approvals(request_id, tools_.standing_approvals(*session)));
    } else if (type == "list_conversations") {
        list_conversations(*client, fields.text("requestId"), fields.text("search", false), fields.text("after", false));
    } else if (type == "rename_conversation") {
        rename_conversation(fields.text("sessionId"), fields.text("title"));
    } else if (type == "delete_conversation") {
        delete_conversation(fields.text("sessionId"));
    } else if (type == "clear") {
        if (session->turn_running) throw std::invalid_argument("stop the answer being written before a new chat");
        sessions_.clear(*session);
        session->broadcast(PageFrames::history({}));
    } else {
        throw std::invalid_argument("unknown frame type \"" + type +
                                    "\"; the page may send message, stop, approval, elicitation, sampling, call_tool, "
                                    "get_prompt, read_resource, app_request, list_models, set_model, open_conversation, "
                                    "list_conversations, rename_conversation, delete_conversation, list_approvals, "
                                    "revoke_approval, edit_message, regenerate, show_version or clear");
    }
}

asio::awaitable<void> PageProtocol::list_models(std::shared_ptr<WebSocketClient> client, json::object payload) {
    std::string request_id = json_fields::text(payload, "requestId");
    std::vector<ModelChoice> models;
    std::string error;
    LanguageModel* model = conversation_.model();
    if (!model) {
        error = "No LLM is configured.";
    } else {
        try {
            mcp::CancellationToken never;
            models = co_await model->list_models(never);
        } catch (const ModelError& e) {
            // Many local servers have no list: the configured name still works.
            error = std::string(e.what()) + " The configured model (" + model->settings().model + ") still works.";
            log_.info("LLM", "models_unlisted", {{"error", e.what()}, {"details", e.details}});
        } catch (const std::exception& e) {
            error = e.what();
        }
    }
    client->send(PageFrames::models(request_id, models, error));
}

void PageProtocol::answer_question(const std::shared_ptr<WebSocketClient>& client, ChatSession& session,
                                   const std::string& id_field, const json::object& payload) {
    PageFields fields(payload, "answer");
    std::string id = fields.text(id_field);
    if (!session.answers.answer(id, payload))
        client->send(PageFrames::error("nothing is waiting for an answer to " + id + " (answered already, or expired)"));
    else
        close_question(session, frames_, id, "answered");  // other tabs close it at once
}

void PageProtocol::update_view_context(WebSocketClient& client, ChatSession& session, const json::object& payload) {
    PageFields fields(payload, "app_request");
    std::string request_id = fields.text("requestId");
    // The view is named by its url, the same in every tab and after a reload, so that it has one
    // context however many frames show it; its server and tool are the host's own record.
    std::string view_url = fields.text("viewId");
    const AppView* view = apps ? apps->view_at(view_url) : nullptr;
    if (!view) fields.fail("viewId", "names no view this host serves (\"/apps/<id>\", the view's url)");
    ViewContext context{view_url, view->server, view->tool, {}};
    json::object error;
    try {
        context.text = view_context_text(fields.object("params"));
    } catch (const std::invalid_argument& e) {
        error = {{"code", -32602}, {"message", std::string("Invalid content format: ") + e.what()}};
    } catch (const std::length_error& e) {
        error = {{"code", -32000}, {"message", std::string("Context update denied: ") + e.what()}};
    }
    if (error.empty()) {
        log_.info("MCP", "view_context_updated", {{"sessionId", session.id()}, {"server", context.server},
                                                  {"tool", context.tool}, {"bytes", context.text.size()}});
        keep_view_context(session.view_contexts, std::move(context));
    }
    client.send(PageFrames::app_response(request_id, json::object{}, error));
}

// Coroutines take their inputs by value: a lambda's captures would die with the lambda.
asio::awaitable<void> PageProtocol::call_tool(std::shared_ptr<WebSocketClient> client,
                                              std::shared_ptr<ChatSession> session, json::object payload) {
    std::string request_id(payload.at("requestId").get_string());
    ToolCall call;
    call.id = new_id("hand_call");
    call.name = std::string(payload.at("tool").get_string());
    if (auto* given = payload.if_contains("arguments"); given && given->is_object()) call.arguments = given->get_object();
    // Held: the registry may change during the call.
    std::shared_ptr<const RegisteredTool> tool = coordinator_.find_tool(call.name);
    ToolRunResult run = co_await tools_.run(session, ToolCaller::hand, call, tool);
    client->send(PageFrames::tool_result(request_id, call.name, run));
}

asio::awaitable<void> PageProtocol::app_request(std::shared_ptr<WebSocketClient> client,
                                                std::shared_ptr<ChatSession> session, json::object payload) {
    std::string request_id(payload.at("requestId").get_string());
    std::string server_name(payload.at("server").get_string());
    std::string method(payload.at("method").get_string());
    json::object params;
    if (auto* given = payload.if_contains("params"); given && given->is_object()) params = given->get_object();
    json::value result = nullptr;
    json::object error;
    auto server = coordinator_.server(server_name);
    std::shared_ptr<mcp::Client> server_client = server ? server->client() : nullptr;
    if (!server_client) {
        error = {{"code", -32000}, {"message", "the server " + server_name + " is not running"}};
    } else if (method == "resources/read") {
        auto* uri = params.if_contains("uri");
        if (!uri || !uri->is_string()) {
            error = {{"code", -32602}, {"message", "resources/read needs params.uri"}};
        } else {
            std::string failure;
            json::array contents;
            try {
                auto items = co_await server_client->read_resource(uri->get_string());
                for (const auto& item : items) contents.push_back(item.to_json());
            } catch (const std::exception& e) {
                failure = e.what();
            }
            if (failure.empty()) result = json::object{{"contents", std::move(contents)}};
            else error = {{"code", -32603}, {"message", failure}};
        }
    } else {
        // tools/call: a view may call its own server's tools that are visible to apps.
        auto* name = params.if_contains("name");
        std::shared_ptr<const RegisteredTool> tool;
        if (name && name->is_string())
            for (const auto& candidate : server->tools())
                if (candidate.name == name->get_string())
                    if (auto registered = coordinator_.find_tool(qualified_tool_name(server_name, candidate.name)))
                        tool = registered;
        if (!tool || !tool->visible_to_app) {
            std::string named = "(no name)";
            if (name && name->is_string()) named = std::string(name->get_string());
            error = {{"code", -32602},
                     {"message", "the view may call only its own server's tools that are visible to apps; " + named +
                                     " is not one"}};
        } else {
            ToolCall call;
            call.id = new_id("app_call");
            call.name = tool->qualified_name;
            if (auto* given = params.if_contains("arguments"); given && given->is_object()) call.arguments = given->get_object();
            ToolRunResult run = co_await tools_.run(session, ToolCaller::view, call, tool);
            if (!run.refusal.empty()) error = {{"code", -32000}, {"message", run.refusal}};
            else result = std::move(run.outcome.result);
        }
    }
    log_.info("MCP", "app_request", {{"sessionId", session->id()}, {"server", server_name}, {"method", method},
                                     {"refused", !error.empty()}});
    client->send(PageFrames::app_response(request_id, result, error));
}

asio::awaitable<void> PageProtocol::get_prompt(std::shared_ptr<WebSocketClient> client, json::object payload) {
    {
        std::string request_id(payload.at("requestId").get_string());
        std::string server_name(payload.at("server").get_string());
        std::string name(payload.at("name").get_string());
        json::object arguments;
        if (auto* given = payload.if_contains("arguments"); given && given->is_object()) arguments = given->get_object();
        auto server = coordinator_.server(server_name);
        std::shared_ptr<mcp::Client> mcp_client = server ? server->client() : nullptr;
        std::string failure;
        json::array messages;
        if (!mcp_client) failure = "the server " + server_name + " is not running";
        else {
            try {
                mcp::GetPromptResult prompt = co_await mcp_client->get_prompt(name, arguments);
                for (const auto& message : prompt.messages)
                    messages.push_back(json::object{{"role", message.role}, {"content", message.content.json}});
            } catch (const std::exception& e) {
                failure = e.what();
            }
        }
        if (!failure.empty()) client->send(PageFrames::error("prompt " + name + ": " + failure, request_id));
        else client->send(PageFrames::prompt(request_id, messages));
    }
}

asio::awaitable<void> PageProtocol::read_resource(std::shared_ptr<WebSocketClient> client, json::object payload) {
    {
        std::string request_id(payload.at("requestId").get_string());
        std::string server_name(payload.at("server").get_string());
        std::string uri(payload.at("uri").get_string());
        auto server = coordinator_.server(server_name);
        std::shared_ptr<mcp::Client> mcp_client = server ? server->client() : nullptr;
        std::string failure;
        json::array contents;
        if (!mcp_client) failure = "the server " + server_name + " is not running";
        else {
            try {
                auto items = co_await mcp_client->read_resource(uri);
                for (const auto& item : items) contents.push_back(item.to_json());
            } catch (const std::exception& e) {
                failure = e.what();
            }
        }
        if (!failure.empty()) client->send(PageFrames::error("resource " + uri + ": " + failure, request_id));
        else client->send(PageFrames::resource(request_id, uri, contents));
    }
}

}  // namespace mcpkit::host
