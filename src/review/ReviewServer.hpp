#pragma once
// `mcpkit review`: the MCP server with the `present_review` tool (and the seed's name
// `present-review` as an alias). It validates the arguments and hands the review to a sink:
// the editor's IPC socket in production, anything else in tests (the seam seed 000 asks for).

#include "review/IpcClient.hpp"
#include "review/ReviewRequest.hpp"

#include <mcp/server/Server.hpp>

#include <boost/asio/awaitable.hpp>

#include <functional>
#include <string>

namespace mcpkit::review {

/// Whether the review reached the panel, and what to tell the caller.
struct PresentOutcome {
    bool shown = false;
    std::string message;
};

class ReviewSink {
public:
    virtual ~ReviewSink() = default;
    virtual boost::asio::awaitable<PresentOutcome> present(const ReviewRequest& request,
                                                           const mcp::CancellationToken& cancellation) = 0;
};

/// Sends reviews to the panel over IPC, turning each failure into advice.
class IpcReviewSink : public ReviewSink {
public:
    /// `log` hears one line per call: its outcome and how many requests are still pending.
    explicit IpcReviewSink(IpcClient& client, std::function<void(std::string_view)> log = {})
        : client_(client), log_(std::move(log)) {}
    boost::asio::awaitable<PresentOutcome> present(const ReviewRequest& request,
                                                   const mcp::CancellationToken& cancellation) override;

private:
    IpcClient& client_;
    std::function<void(std::string_view)> log_;
};

/// The tool's description: the seed's guidance on purpose, structure, references and modes.
std::string present_review_description();

/// Registers `present_review` and `present-review` on `server`. Relative references resolve
/// against `default_base` (the working directory) when a call gives no baseUri.
void add_review_tools(mcp::Server& server, ReviewSink& sink, std::string default_base);

}  // namespace mcpkit::review
