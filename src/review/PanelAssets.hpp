#pragma once
// The panel page's files (web/review/), compiled into the binary so that `mcpkit` stays one file.

#include <string_view>

namespace mcpkit::review {

std::string_view panel_page();        ///< web/review/index.html
std::string_view panel_script();      ///< web/review/review.js
std::string_view panel_stylesheet();  ///< web/review/review.css

}  // namespace mcpkit::review
