#pragma once
// The review panel's web page, on a loopback port (routes on libmcp's mcp::HttpServer): the page
// and its assets, the current review and the history as JSON, a server-sent event stream that
// announces each change, and the one action, opening the editor at a reference.
//
// Only the page's own origin may use it: every API call carries the per-run token (in the query
// for GET and the event stream, which cannot set headers; in X-Review-Token for POST), the Host
// header must name this server (DNS rebinding), a POST must come with the page's own Origin, and
// only files that a shown review links to can be opened.

#include "review/EditorLauncher.hpp"
#include "review/ReviewPanelModel.hpp"

#include <boost/asio/io_context.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace mcpkit::review {

struct PanelWebOptions {
    std::string host = "127.0.0.1";
    std::uint16_t port = 0;  ///< 0: any free port
    std::string token;       ///< required on every API call
    std::function<void(std::string_view)> log;
};

class PanelWebServer {
public:
    PanelWebServer(boost::asio::io_context& io, PanelWebOptions options, ReviewPanelModel& model,
                   const EditorLauncher& editor);
    ~PanelWebServer();

    /// Binds and listens; throws std::runtime_error naming the address on failure.
    void start();
    void stop();
    std::uint16_t port() const;
    /// The page's address, token included: what to open in a browser.
    std::string page_url() const;
    /// Tells every open page that the review changed.
    void notify_changed();

    struct State;

private:
    std::shared_ptr<State> state_;
};

}  // namespace mcpkit::review
