#include "auth/OAuthEncoding.hpp"

#include "transport/http/OutgoingHeaders.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <cctype>
#include <stdexcept>

namespace mcp::auth {

std::string base64url(std::string_view bytes) {
    std::string text = http::base64(bytes);
    while (!text.empty() && text.back() == '=') text.pop_back();
    for (auto& c : text) {
        if (c == '+') c = '-';
        else if (c == '/') c = '_';
    }
    return text;
}

std::string random_token(std::size_t bytes) {
    std::string buffer(bytes, '\0');
    if (RAND_bytes(reinterpret_cast<unsigned char*>(buffer.data()), static_cast<int>(bytes)) != 1)
        throw std::runtime_error("the system's random number generator failed");
    return base64url(buffer);
}

std::string sha256_base64url(std::string_view bytes) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 failed");
    return base64url(std::string_view(reinterpret_cast<const char*>(digest), length));
}

std::string pkce_s256_challenge(std::string_view verifier) { return sha256_base64url(verifier); }

namespace {

void append_form_escaped(std::string& out, std::string_view text) {
    static constexpr char hex[] = "0123456789ABCDEF";
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
            out += static_cast<char>(c);
        } else if (c == ' ') {
            out += '+';
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
}

}  // namespace

std::string basic_authorization(std::string_view client_id, std::string_view client_secret) {
    std::string credentials;
    append_form_escaped(credentials, client_id);
    credentials += ':';
    append_form_escaped(credentials, client_secret);
    return "Basic " + http::base64(credentials);
}

std::string form_encode(const std::vector<std::pair<std::string, std::string>>& fields) {
    std::string body;
    for (const auto& [name, value] : fields) {
        if (!body.empty()) body += '&';
        append_form_escaped(body, name);
        body += '=';
        append_form_escaped(body, value);
    }
    return body;
}

}  // namespace mcp::auth
