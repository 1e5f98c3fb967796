#include "review/EditorLauncher.hpp"

#include <cerrno>
#include <cstring>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>

extern char** environ;

namespace mcpkit::review {

std::vector<std::string> split_command(std::string_view command) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    char quote = 0;
    for (std::size_t i = 0; i < command.size(); ++i) {
        char c = command[i];
        if (quote) {
            if (c == quote) {
                quote = 0;
            } else if (c == '\\' && quote == '"' && i + 1 < command.size()) {
                word += command[++i];
            } else {
                word += c;
            }
        } else if (c == '\'' || c == '"') {
            quote = c;
            in_word = true;
        } else if (c == '\\' && i + 1 < command.size()) {
            word += command[++i];
            in_word = true;
        } else if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) words.push_back(std::move(word));
            word.clear();
            in_word = false;
        } else {
            word += c;
            in_word = true;
        }
    }
    if (quote) throw std::invalid_argument("unclosed " + std::string(1, quote) + " quote in the command");
    if (in_word) words.push_back(std::move(word));
    return words;
}

EditorLauncher::EditorLauncher(std::string_view command_template) : template_(split_command(command_template)) {
    if (template_.empty())
        throw std::invalid_argument("the editor command is empty; give one such as 'code -g {path}:{line}'");
}

std::vector<std::string> EditorLauncher::arguments_for(const std::string& path, int line, int end_line) const {
    std::vector<std::string> arguments;
    for (std::string word : template_) {
        for (auto [placeholder, value] : {std::pair<std::string_view, std::string>{"{path}", path},
                                          {"{line}", std::to_string(line)},
                                          {"{end}", std::to_string(end_line > 0 ? end_line : line)}}) {
            for (auto at = word.find(placeholder); at != std::string::npos; at = word.find(placeholder, at + value.size()))
                word.replace(at, placeholder.size(), value);
        }
        arguments.push_back(std::move(word));
    }
    return arguments;
}

std::string EditorLauncher::open(const std::string& path, int line, int end_line) const {
    auto arguments = arguments_for(path, line, end_line);
    std::vector<char*> argv;
    for (auto& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    int error = ::posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
    if (error != 0)
        return "could not start the editor command \"" + arguments[0] + "\": " + std::strerror(error) +
               " (set it with --editor)";
    // Reap it whenever it exits; the panel does not wait for the editor.
    std::thread([pid] {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }).detach();
    return {};
}

}  // namespace mcpkit::review
