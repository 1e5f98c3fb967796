#pragma once
// Indented JSON for people reading the CLI's output (Boost.JSON 1.81 only writes it compact).

#include <boost/json/value.hpp>

#include <string>

namespace mcpkit::cli {

std::string pretty_json(const boost::json::value& value);

}  // namespace mcpkit::cli
