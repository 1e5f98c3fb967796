#include "review/ReviewPanel.hpp"

#include "review/SocketDiscovery.hpp"

#include <mcp/RandomId.hpp>

#include <unistd.h>

namespace mcpkit::review {

std::string random_token() { return mcp::random_hex(16); }

namespace {
ReviewPanelOptions with_defaults(ReviewPanelOptions options) {
    if (options.socket_path.empty()) options.socket_path = default_socket_path();
    if (options.discovery_file.empty()) options.discovery_file = discovery_file_path();
    if (options.working_directory.empty()) {
        char buffer[4096];
        options.working_directory = ::getcwd(buffer, sizeof buffer) ? buffer : "/";
    }
    return options;
}
}  // namespace

ReviewPanel::ReviewPanel(boost::asio::io_context& io, ReviewPanelOptions options)
    : options_(with_defaults(std::move(options))),
      editor_(options_.editor_command),
      model_(options_.working_directory),
      ipc_(io.get_executor(), options_.socket_path,
           [this](std::string_view type, const boost::json::object& payload) { return handle(type, payload); }),
      web_(io, PanelWebOptions{options_.http_host, options_.http_port, random_token(), options_.log}, model_,
           editor_) {}

ReviewPanel::~ReviewPanel() { stop(); }

void ReviewPanel::log(std::string_view message) const {
    if (options_.log) options_.log(message);
}

void ReviewPanel::start() {
    ipc_.start();
    web_.start();
    if (options_.discovery_file != "-") {
        write_discovery_file(options_.discovery_file,
                             DiscoveryRecord{options_.socket_path, static_cast<long>(::getpid()), web_.page_url()});
        discovery_written_ = true;
    }
}

void ReviewPanel::stop() {
    ipc_.stop();
    web_.stop();
    if (discovery_written_) {
        remove_discovery_file(options_.discovery_file, static_cast<long>(::getpid()));
        discovery_written_ = false;
    }
}

IpcReply ReviewPanel::handle(std::string_view type, const boost::json::object& payload) {
    if (type == "present-review" || type == "present_review") {
        auto parsed = parse_review_request(payload, options_.working_directory);
        if (auto* error = std::get_if<ArgumentError>(&parsed)) return IpcReply{false, error->message};
        const auto& request = std::get<ReviewRequest>(parsed);
        model_.apply(request);
        web_.notify_changed();
        log("review " + std::to_string(model_.revision()) + " (" + std::string(to_string(request.mode)) +
            ", " + std::to_string(request.content.size()) + " bytes)");
        return IpcReply{};
    }
    if (type == "log") {
        auto* message = payload.if_contains("message");
        auto* level = payload.if_contains("level");
        log("from review: " + std::string(level && level->is_string() ? level->get_string() : "info") + ": " +
            std::string(message && message->is_string() ? message->get_string() : ""));
        return IpcReply{};
    }
    return IpcReply{false, "Unknown message type: " + std::string(type)};
}

}  // namespace mcpkit::review
