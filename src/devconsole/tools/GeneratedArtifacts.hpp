#pragma once
// The documents generate() builds from the capture buffers, as text.

#include "devconsole/capture/CaptureBuffers.hpp"

#include <boost/json/object.hpp>

#include <string>

namespace mcpkit::devconsole {

struct GeneratedArtifact {
    std::string name;
    std::string mime_type;
    std::string content;
    std::string summary;
    boost::json::object details;
};

GeneratedArtifact make_har(const CaptureBuffers& buffers, const boost::json::object& arguments);
/// A Playwright script (or, with `as_test`, a test with assertions) replaying the captured actions.
GeneratedArtifact make_playwright_script(const CaptureBuffers& buffers, const boost::json::object& arguments, bool as_test,
                                         std::string_view page_url);
GeneratedArtifact make_pr_summary(const CaptureBuffers& buffers, const boost::json::object& arguments,
                                  std::string_view page_url);
GeneratedArtifact make_content_security_policy(const CaptureBuffers& buffers, const boost::json::object& arguments,
                                               std::string_view page_url);

/// SARIF 2.1.0 from an accessibility audit's result ({violations:[{rule, selector, message}], …}).
GeneratedArtifact make_sarif(const boost::json::object& audit);

}  // namespace mcpkit::devconsole
