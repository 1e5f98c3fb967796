#pragma once
// `mcpkit review-panel`: the editor side of the review IPC, with a web page instead of an
// editor pane. It listens on the Unix socket, keeps the review (ReviewPanelModel), serves the
// page (PanelWebServer) and writes the discovery file that lets `mcpkit review` find it.

#include "review/EditorLauncher.hpp"
#include "review/IpcServer.hpp"
#include "review/PanelWebServer.hpp"
#include "review/ReviewPanelModel.hpp"

#include <boost/asio/io_context.hpp>

#include <functional>
#include <memory>
#include <string>

namespace mcpkit::review {

struct ReviewPanelOptions {
    std::string socket_path;             ///< default: default_socket_path()
    std::string http_host = "127.0.0.1";
    std::uint16_t http_port = 0;
    std::string editor_command = "code -g {path}:{line}";
    std::string discovery_file;          ///< default: discovery_file_path(); "-" writes none
    std::string working_directory;       ///< resolves references of payloads without baseUri
    std::function<void(std::string_view)> log;
};

class ReviewPanel {
public:
    /// Throws std::invalid_argument for a bad editor command.
    ReviewPanel(boost::asio::io_context& io, ReviewPanelOptions options);
    ~ReviewPanel();

    /// Listens on the socket and the web port and writes the discovery file; throws
    /// std::runtime_error naming what failed and the fix.
    void start();
    void stop();

    /// One IPC message (type and payload already checked for shape).
    IpcReply handle(std::string_view type, const boost::json::object& payload);

    const std::string& socket_path() const { return options_.socket_path; }
    std::string page_url() const { return web_.page_url(); }
    const ReviewPanelModel& model() const { return model_; }

private:
    void log(std::string_view message) const;

    ReviewPanelOptions options_;
    EditorLauncher editor_;
    ReviewPanelModel model_;
    IpcServer ipc_;
    PanelWebServer web_;
    bool discovery_written_ = false;
};

/// 32 random hex digits, for the page's token.
std::string random_token();

}  // namespace mcpkit::review
