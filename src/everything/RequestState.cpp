// requestState helpers. A 2026 client echoes requestState back verbatim, so whatever we put in it
// comes back attacker-controlled: state that decides anything is sealed with an HMAC, and a
// nonce keeps two rounds' states distinct even when their content is the same.

#include "everything/FixtureParts.hpp"

#include <mcp/RandomId.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>
#include <stdexcept>

namespace mcpkit::everything {
namespace json = boost::json;

namespace {

std::string hex(const unsigned char* bytes, std::size_t size) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(size * 2);
    for (std::size_t i = 0; i < size; ++i) {
        out += digits[bytes[i] >> 4];
        out += digits[bytes[i] & 0x0f];
    }
    return out;
}

std::optional<json::object> parse_object(std::string_view text) {
    boost::system::error_code error;
    json::value parsed = json::parse(text, error);
    if (error || !parsed.is_object()) return std::nullopt;
    return std::move(parsed.get_object());
}

}  // namespace

// The secret lives only in this process, like the fixture's: states do not survive a restart,
// which a client handles by starting the request over.
StateSigner::StateSigner() : secret_("conformance-mrtr-secret-" + mcp::random_uuid()) {}

std::string StateSigner::hmac_hex(std::string_view data) const {
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int digest_size = 0;
    if (!HMAC(EVP_sha256(), secret_.data(), static_cast<int>(secret_.size()),
              reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest.data(), &digest_size))
        throw std::runtime_error("HMAC-SHA256 failed in OpenSSL");
    return hex(digest.data(), digest_size);
}

std::string StateSigner::seal(const json::object& payload) const {
    std::string data = json::serialize(payload);
    std::string mac = hmac_hex(data);
    return json::serialize(json::object{{"data", data}, {"hmac", mac}});
}

std::optional<json::object> StateSigner::open(std::string_view state) const {
    auto sealed = parse_object(state);
    if (!sealed) return std::nullopt;
    auto* data = sealed->if_contains("data");
    auto* mac = sealed->if_contains("hmac");
    if (!data || !data->is_string() || !mac || !mac->is_string()) return std::nullopt;
    std::string expected = hmac_hex(data->get_string());
    std::string_view given = mac->get_string();
    // Constant time, so the comparison does not tell an attacker how much of a forgery was right.
    if (given.size() != expected.size() || CRYPTO_memcmp(given.data(), expected.data(), expected.size()) != 0)
        return std::nullopt;
    return parse_object(data->get_string());
}

std::optional<json::object> parse_plain_state(const std::optional<std::string>& state) {
    if (!state) return std::nullopt;
    return parse_object(*state);
}

}  // namespace mcpkit::everything
