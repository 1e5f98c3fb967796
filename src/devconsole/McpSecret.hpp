#pragma once
// The secret /mcp asks for. What the browser captured (response bodies, cookies in a script's
// result) and what the extension will run in the user's tab are the user's alone: another local
// user, or any program, must not read them through /mcp. The secret is MCPKIT_DEVCONSOLE_TOKEN
// when set (scripts, tests), else kept in <runtime directory>/devconsole-<port>.token (0600, in a
// checked 0700 directory) so that the stdio bridge and a restarted daemon find the same one.

#include <cstdint>
#include <filesystem>
#include <string>

namespace mcpkit::devconsole {

/// Where the secret for the daemon on `port` is kept.
std::filesystem::path mcp_secret_file(std::uint16_t port);

/// The secret for the daemon on `port`: the environment's, or the file's, made (and written) when
/// there is none yet. Throws mcp::PrivateDirectoryError or std::runtime_error naming the problem.
std::string mcp_secret(std::uint16_t port);

/// For a client of the daemon (the stdio bridge): the environment's secret, else the file's, else "".
std::string existing_mcp_secret(std::uint16_t port);

}  // namespace mcpkit::devconsole
