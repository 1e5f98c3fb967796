#include "host/web/PageProtocol.hpp"

#include "host/chat/FrameText.hpp"
#include "host/coordinator/ToolNames.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace mcpkit::host {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

/// A field the page must send, with its type checked; throws std::invalid_argument naming it.
class Fields {
public:
    Fields(const json::object& payload, std::string type) : payload_(payload), type_(std::move(type)) {}

    std::string text(std::string_view name, bool required = true) const {
        auto* value = payload_.if_contains(name);
        if (!value || value->is_null()) {
            if (required) fail(name, "is missing");
            return {};
        }
        if (!value->is_string()) fail(name, "must be a string");
        return std::string(value->get_string());
    }
    std::string one_of(std::string_view name, std::initializer_list<std::string_view> choices) const {
        std::string value = text(name);
        for (auto choice : choices)
            if (value == choice) return value;
        std::string list;
        for (auto choice : choices) list += (list.empty() ? "\"" : ", \"") + std::string(choice) + "\"";
        fail(name, "must be one of " + list + ", not \"" + value + "\"");
    }
    json::object object(std::string_view name) const {
        auto* value = payload_.if_contains(name);
        if (!value || value->is_null()) return {};
        if (!value->is_object()) fail(name, "must be an object");
        return value->get_object();
    }
    const json::array* array(std::string_view name) const {
        auto* value = payload_.if_contains(name);
        if (!value || value->is_null()) return nullptr;
        if (!value->is_array()) fail(name, "must be an array");
        return &value->get_array();
    }
    [[noreturn]] void fail(std::string_view name, const std::string& why) const {
        throw std::invalid_argument(type_ + ".payload." + std::string(name) + " " + why);
    }

private:
    const json::object& payload_;
    std::string type_;
};

void send(WebSocketClient& client, const json::object& frame) {
    client.send(std::make_shared<const std::string>(json::serialize(frame)));
}

}  // namespace

std::shared_ptr<const std::string> error_frame(const std::string& message, const std::string& request_id) {
    json::object payload{{"message", message}};
    if (!request_id.empty()) payload["requestId"] = request_id;
    return std::make_shared<const std::string>(json::serialize(json::object{{"type", "error"}, {"payload", payload}}));
}

PageProtocol::PageProtocol(asio::any_io_executor executor, SessionManager& sessions, Conversation& conversation,
                           McpCoordinator& coordinator, HostLog& log)
    : executor_(std::move(executor)), sessions_(sessions), conversation_(conversation), coordinator_(coordinator),
      log_(log) {}

json::object PageProtocol::servers_frame() {
    json::object payload{{"servers", coordinator_.describe_servers()}};
    if (auto* model = conversation_.model())
        payload["llm"] = {{"provider", model->settings().provider}, {"model", model->settings().model}};
    else {
        payload["llm"] = nullptr;
        payload["llmHelp"] = llm_help;
    }
    return {{"type", "servers"}, {"payload", std::move(payload)}};
}

void PageProtocol::broadcast_servers() {
    servers_text_ = std::make_shared<const std::string>(json::serialize(servers_frame()));
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
        page->send(error_frame("this connection's session ended; reload the page"));
        page->close();
        return;
    }
    bool resumed = page->resumed;
    session->attach(page);
    sessions_.touch(*session);
    log_.info("WebSocket", resumed ? "reconnected" : "connected",
              {{"sessionId", session->id()}, {"connectionId", page->id}, {"pages", session->clients()}});
    send(*page, {{"type", "connection"},
                 {"payload",
                  {{"state", resumed ? "reconnected" : "connected"},
                   {"message", resumed ? "Welcome back." : "Hello! I'm an AI assistant that can help answer questions "
                                                           "and use tools to get information."},
                   {"sessionId", session->id()}}}});
    json::array messages;
    for (const auto& message : session->history) {
        json::object item = message.to_json();
        // A view the host no longer serves (kept views are bounded; a restart forgets them) is
        // left out: the card shows the result alone rather than a frame that cannot load.
        if (auto* app = item.if_contains("app"); app && !(apps && apps->serves(*app))) item.erase("app");
        messages.push_back(std::move(item));
    }
    send(*page, {{"type", "history"}, {"payload", {{"messages", std::move(messages)}}}});
    if (!servers_text_) servers_text_ = std::make_shared<const std::string>(json::serialize(servers_frame()));
    page->send(servers_text_);
    send(*page, {{"type", "usage"}, {"payload", usage_json(session->usage)}});
    if (session->turn_running)
        send(*page, {{"type", "turn"}, {"payload", {{"state", "started"}, {"turnId", session->turn_id}}}});
    for (const auto& question : session->open_questions()) send(*page, question);
}

void PageProtocol::received(const std::shared_ptr<WebSocketClient>& page, std::string_view text) { handle(page, text); }

void PageProtocol::closed(const std::shared_ptr<WebSocketClient>& page) {
    auto session = sessions_.find(page->session_id);
    if (!session) return;
    session->detach(page.get());
    log_.info("WebSocket", "disconnected", {{"sessionId", session->id()}, {"pages", session->clients()}});
}

void PageProtocol::handle(const std::shared_ptr<WebSocketClient>& client, std::string_view text) {
    auto session = sessions_.find(client->session_id);
    if (!session) {
        client->send(error_frame("this connection's session ended; reload the page"));
        return;
    }
    boost::system::error_code ec;
    json::value frame = json::parse(text, ec);
    if (ec || !frame.is_object()) {
        client->send(error_frame("a frame must be a JSON object {\"type\": …, \"payload\": {…}}"));
        return;
    }
    const auto& object = frame.get_object();
    auto* type = object.if_contains("type");
    if (!type || !type->is_string()) {
        client->send(error_frame("the frame's \"type\" must be a string"));
        return;
    }
    auto* payload = object.if_contains("payload");
    if (payload && !payload->is_object()) {
        client->send(error_frame(std::string(type->get_string()) + ".payload must be an object"));
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
        client->send(error_frame(e.what(), request_id));
    } catch (const std::exception& e) {
        // The store refused (Redis down, SQLite busy): that request fails, the page stays.
        log_.error("Session", "request_failed", {{"sessionId", session->id()}, {"error", e.what()}});
        client->send(error_frame(std::string("the host could not do that: ") + e.what(), request_id));
    }
}

void PageProtocol::dispatch(const std::shared_ptr<WebSocketClient>& client, const std::shared_ptr<ChatSession>& session,
                            const std::string& type, const json::object& payload) {
    Fields fields(payload, type);
    sessions_.touch(*session);
    if (type == "message") {
        UserInput input;
        input.text = fields.text("text", false);
        if (auto* attachments = fields.array("attachments")) {
            for (const auto& item : *attachments) {
                if (!item.is_object()) fields.fail("attachments", "must hold objects {server, uri}");
                Fields attachment(item.get_object(), "message.attachments[]");
                input.attachments.push_back({attachment.text("server"), attachment.text("uri")});
            }
        }
        if (json::object prompt = fields.object("prompt"); !prompt.empty()) {
            Fields use(prompt, "message.prompt");
            json::object arguments = use.object("arguments");
            for (const auto& [name, value] : arguments)
                if (!value.is_string()) use.fail("arguments." + std::string(name), "must be a string");
            input.prompt = UserInput::PromptUse{use.text("server"), use.text("name"), std::move(arguments)};
        }
        if (input.text.empty() && !input.prompt) fields.fail("text", "is empty");
        if (session->turn_running)
            throw std::invalid_argument("an answer is still being written; wait for it or stop it first");
        session->turn_running = true;  // at once, so a second message right behind is refused
        asio::co_spawn(executor_, conversation_.run_turn(session, std::move(input)), asio::detached);
    } else if (type == "stop") {
        conversation_.stop(*session);
    } else if (type == "approval") {
        fields.one_of("decision", {"once", "always", "deny"});
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
    } else if (type == "clear") {
        if (session->turn_running) throw std::invalid_argument("stop the answer being written before a new chat");
        sessions_.clear(*session);
        session->broadcast(FrameText("history").json("messages", json::array{}).finish());
    } else {
        throw std::invalid_argument("unknown frame type \"" + type +
                                    "\"; the page may send message, stop, approval, elicitation, sampling, call_tool, "
                                    "get_prompt, read_resource, app_request or clear");
    }
}

void PageProtocol::answer_question(const std::shared_ptr<WebSocketClient>& client, ChatSession& session,
                                   const std::string& id_field, const json::object& payload) {
    Fields fields(payload, "answer");
    std::string id = fields.text(id_field);
    if (!session.answers.answer(id, payload))
        client->send(error_frame("nothing is waiting for an answer to " + id + " (answered already, or expired)"));
    else
        session.forget_question(id);
}

void PageProtocol::update_view_context(WebSocketClient& client, ChatSession& session, const json::object& payload) {
    Fields fields(payload, "app_request");
    std::string request_id = fields.text("requestId");
    // The view is named by its url, the same in every tab and after a reload, so that it has one
    // context however many frames show it; its server and tool are the host's own record.
    std::string view_url = fields.text("viewId");
    const AppView* view = apps ? apps->view_at(view_url) : nullptr;
    if (!view) fields.fail("viewId", "names no view this host serves (\"/apps/<id>\", the view's url)");
    ViewContext context{view_url, view->server, view->tool, {}};
    json::object answer{{"requestId", request_id}};
    try {
        context.text = view_context_text(fields.object("params"));
        answer["result"] = json::object{};
    } catch (const std::invalid_argument& e) {
        answer["error"] = {{"code", -32602}, {"message", std::string("Invalid content format: ") + e.what()}};
    } catch (const std::length_error& e) {
        answer["error"] = {{"code", -32000}, {"message", std::string("Context update denied: ") + e.what()}};
    }
    if (answer.contains("result")) {
        log_.info("MCP", "view_context_updated", {{"sessionId", session.id()}, {"server", context.server},
                                                  {"tool", context.tool}, {"bytes", context.text.size()}});
        keep_view_context(session.view_contexts, std::move(context));
    }
    send(client, {{"type", "app_response"}, {"payload", std::move(answer)}});
}

// Coroutines take their inputs by value: a lambda's captures would die with the lambda.
asio::awaitable<void> PageProtocol::call_tool(std::shared_ptr<WebSocketClient> client,
                                              std::shared_ptr<ChatSession> session, json::object payload) {
    {
        std::string request_id(payload.at("requestId").get_string());
        std::string tool(payload.at("tool").get_string());
        json::object arguments;
        if (auto* given = payload.if_contains("arguments"); given && given->is_object()) arguments = given->get_object();
        // Held: the registry may change during the call.
        std::shared_ptr<const RegisteredTool> registered = coordinator_.find_tool(tool);
        std::string server = registered ? registered->server : "";
        ++session->servers_in_use[server];
        ToolCallOptions options;  // named: g++ 12 mishandles a braced temporary inside co_await
        options.session_id = session->id();
        ToolOutcome outcome = co_await coordinator_.call_tool(tool, std::move(arguments), std::move(options));
        if (--session->servers_in_use[server] <= 0) session->servers_in_use.erase(server);
        json::value app = nullptr;
        if (apps && registered && !outcome.refused) app = co_await apps->app_for(*registered);
        log_.info("MCP", "tool_called_by_hand",
                  {{"sessionId", session->id()}, {"requestId", request_id}, {"tool", tool}, {"isError", outcome.is_error}});
        json::object payload{{"requestId", request_id},
                             {"tool", tool},
                             {"result", outcome.result},
                             {"isError", outcome.is_error},
                             {"durationMs", outcome.duration.count()}};
        if (!app.is_null()) payload["app"] = std::move(app);
        send(*client, {{"type", "tool_result"}, {"payload", std::move(payload)}});
    }
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
            error = {{"code", -32602},
                     {"message", "the view may call only its own server's tools that are visible to apps; " +
                                     (name && name->is_string() ? std::string(name->get_string()) : std::string("(no name)")) +
                                     " is not one"}};
        } else {
            json::object arguments;
            if (auto* given = params.if_contains("arguments"); given && given->is_object()) arguments = given->get_object();
            ToolCall call{new_id("app_call"), tool->qualified_name, arguments, {}, {}};
            // A call the user must approve gets a card (the question opens one); it is closed the
            // same way the model's calls are, so the transcript shows what the view did.
            bool asks = tool->needs_approval && !session->always_allowed.allows(call.name, tool->server, tool->tool);
            std::string refusal;
            bool allowed = co_await conversation_.approved(*session, call, *tool, refusal);
            ToolOutcome outcome;
            if (!allowed) {
                error = {{"code", -32000}, {"message", refusal}};
                outcome.result = {{"content", json::array{json::object{{"type", "text"}, {"text", refusal}}}}, {"isError", true}};
                outcome.is_error = true;
            } else {
                ToolCallOptions options;
                options.caller = "app";
                options.session_id = session->id();
                outcome = co_await coordinator_.call_tool(tool->qualified_name, std::move(arguments), std::move(options));
                result = outcome.result;
            }
            if (asks)
                session->broadcast({{"type", "status"},
                                    {"payload",
                                     {{"state", "complete"},
                                      {"tool", call.name},
                                      {"server", server_name},
                                      {"callId", call.id},
                                      {"data", outcome.result},
                                      {"isError", outcome.is_error},
                                      {"durationMs", outcome.duration.count()},
                                      {"message", "Called by the app's view"}}}});
        }
    }
    json::object answer{{"requestId", request_id}};
    if (!error.empty()) answer["error"] = std::move(error);
    else answer["result"] = std::move(result);
    log_.info("MCP", "app_request", {{"sessionId", session->id()}, {"server", server_name}, {"method", method},
                                     {"refused", answer.contains("error")}});
    send(*client, {{"type", "app_response"}, {"payload", std::move(answer)}});
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
        if (!failure.empty()) client->send(error_frame("prompt " + name + ": " + failure, request_id));
        else send(*client, {{"type", "prompt"}, {"payload", {{"requestId", request_id}, {"messages", std::move(messages)}}}});
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
        if (!failure.empty()) client->send(error_frame("resource " + uri + ": " + failure, request_id));
        else
            send(*client, {{"type", "resource"},
                           {"payload", {{"requestId", request_id}, {"uri", uri}, {"contents", std::move(contents)}}}});
    }
}

}  // namespace mcpkit::host
