#include "transport/http/RandomId.hpp"

#include <stdexcept>
#include <sys/random.h>
#include <vector>

namespace mcp::http {

std::string random_hex(std::size_t bytes) {
    std::vector<unsigned char> raw(bytes);
    std::size_t filled = 0;
    while (filled < bytes) {
        ssize_t got = ::getrandom(raw.data() + filled, bytes - filled, 0);
        if (got < 0) throw std::runtime_error("getrandom failed: no randomness for session ids");
        filled += static_cast<std::size_t>(got);
    }
    static constexpr char digits[] = "0123456789abcdef";
    std::string text;
    text.reserve(bytes * 2);
    for (unsigned char byte : raw) {
        text += digits[byte >> 4];
        text += digits[byte & 0xF];
    }
    return text;
}

}  // namespace mcp::http
