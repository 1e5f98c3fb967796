#include "mcp/RandomId.hpp"

#include <sys/random.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>

namespace mcp {

namespace {

void random_bytes(unsigned char* out, std::size_t count) {
    thread_local unsigned char pool[512];
    thread_local std::size_t used = sizeof pool;
    while (count > 0) {
        if (used == sizeof pool) {
            std::size_t got = 0;
            while (got < sizeof pool) {
                ssize_t n = ::getrandom(pool + got, sizeof pool - got, 0);
                if (n > 0) got += static_cast<std::size_t>(n);
                else if (errno != EINTR) throw std::runtime_error("getrandom failed: no randomness for ids");
            }
            used = 0;
        }
        std::size_t take = std::min(count, sizeof pool - used);
        std::copy_n(pool + used, take, out);
        std::fill_n(pool + used, take, 0);  // a byte handed out is not kept
        used += take;
        out += take;
        count -= take;
    }
}

}  // namespace

std::string random_hex(std::size_t bytes) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string text;
    text.reserve(bytes * 2);
    unsigned char chunk[64];
    while (bytes > 0) {
        std::size_t take = std::min(bytes, sizeof chunk);
        random_bytes(chunk, take);
        for (std::size_t i = 0; i < take; ++i) {
            text += digits[chunk[i] >> 4];
            text += digits[chunk[i] & 0xF];
        }
        bytes -= take;
    }
    return text;
}

std::string random_uuid() {
    std::string digits = random_hex(16);
    digits[12] = '4';  // version 4
    int nibble = digits[16] <= '9' ? digits[16] - '0' : digits[16] - 'a' + 10;
    digits[16] = "89ab"[nibble & 3];  // RFC 4122 variant
    return digits.substr(0, 8) + '-' + digits.substr(8, 4) + '-' + digits.substr(12, 4) + '-' + digits.substr(16, 4) +
           '-' + digits.substr(20);
}

}  // namespace mcp
