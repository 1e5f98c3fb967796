// JWK import and JWS checks refuse what must be refused: algorithms that do not fit the key, "none"
// and HMAC, private keys published by mistake, short RSA keys, keys for encryption; and accept
// a signature OpenSSL made with the same key. (Tokens signed by jose, an independent
// implementation, are checked end to end in tests/interop/oauth-resource-server.test.mjs.)

#include "auth/JsonWebKey.hpp"
#include "auth/OAuthEncoding.hpp"

#include <gtest/gtest.h>

#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>

using namespace mcp::auth;
namespace json = boost::json;

namespace {

struct EcKey {
    EVP_PKEY* key = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
    ~EcKey() { EVP_PKEY_free(key); }

    json::object jwk() const {
        unsigned char point[65];
        size_t length = 0;
        EXPECT_EQ(EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point, &length), 1);
        std::string_view bytes(reinterpret_cast<const char*>(point), length);
        return {{"kty", "EC"}, {"crv", "P-256"}, {"kid", "k1"}, {"x", base64url(bytes.substr(1, 32))},
                {"y", base64url(bytes.substr(33, 32))}};
    }

    /// The JWS form of an ES256 signature: r || s, 32 bytes each.
    std::string sign(std::string_view input) const {
        EVP_MD_CTX* context = EVP_MD_CTX_new();
        EVP_DigestSignInit(context, nullptr, EVP_sha256(), nullptr, key);
        size_t length = 0;
        EVP_DigestSign(context, nullptr, &length, reinterpret_cast<const unsigned char*>(input.data()), input.size());
        std::string der(length, '\0');
        EVP_DigestSign(context, reinterpret_cast<unsigned char*>(der.data()), &length,
                       reinterpret_cast<const unsigned char*>(input.data()), input.size());
        EVP_MD_CTX_free(context);
        const unsigned char* at = reinterpret_cast<const unsigned char*>(der.data());
        ECDSA_SIG* signature = d2i_ECDSA_SIG(nullptr, &at, static_cast<long>(length));
        std::string raw(64, '\0');
        BN_bn2binpad(ECDSA_SIG_get0_r(signature), reinterpret_cast<unsigned char*>(raw.data()), 32);
        BN_bn2binpad(ECDSA_SIG_get0_s(signature), reinterpret_cast<unsigned char*>(raw.data() + 32), 32);
        ECDSA_SIG_free(signature);
        return raw;
    }
};

}  // namespace

TEST(JsonWebKey, Base64urlDecodesWithOrWithoutPaddingAndRefusesOtherAlphabets) {
    EXPECT_EQ(base64url_decode("aGVsbG8_Pz8-"), "hello?\x3f?>");  // the url-safe alphabet: _ and -
    EXPECT_EQ(base64url_decode("aGk"), "hi");
    EXPECT_EQ(base64url_decode("aGk="), "hi");
    EXPECT_FALSE(base64url_decode("aGk+"));  // standard Base64, not url-safe
    EXPECT_FALSE(base64url_decode("a"));
    EXPECT_EQ(base64url_decode(""), "");
}

TEST(JsonWebKey, Es256SignatureVerifiesOnlyForItsKeyItsInputAndItsAlgorithm) {
    EcKey signer;
    auto key = public_key_from_jwk(signer.jwk());
    ASSERT_TRUE(key);
    std::string input = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9";
    std::string signature = signer.sign(input);
    EXPECT_TRUE(verify_jws_signature(*key, "ES256", input, signature));
    EXPECT_FALSE(verify_jws_signature(*key, "ES256", input + "x", signature));
    std::string flipped = signature;
    flipped[10] ^= 1;
    EXPECT_FALSE(verify_jws_signature(*key, "ES256", input, flipped));
    EXPECT_FALSE(verify_jws_signature(*key, "ES256", input, signature.substr(0, 63)));
    // An algorithm that does not fit the key is refused, whatever the signature.
    for (const char* alg : {"RS256", "PS256", "ES384", "HS256", "none", ""})
        EXPECT_FALSE(verify_jws_signature(*key, alg, input, signature)) << alg;
    EcKey other;
    auto other_key = public_key_from_jwk(other.jwk());
    ASSERT_TRUE(other_key);
    EXPECT_FALSE(verify_jws_signature(*other_key, "ES256", input, signature));
    // A key that names its algorithm is used for that one alone.
    auto pinned = signer.jwk();
    pinned["alg"] = "ES384";
    EXPECT_FALSE(verify_jws_signature(*public_key_from_jwk(pinned), "ES256", input, signature));
}

TEST(JsonWebKey, KeysThatMustNotBeUsedAreRefused) {
    EcKey signer;
    auto with_private = signer.jwk();
    with_private["d"] = "jpsQnnGQmL-YBIffH1136cLHDgscBCKsIqNVFI8YDQk";
    EXPECT_FALSE(public_key_from_jwk(with_private));
    auto for_encryption = signer.jwk();
    for_encryption["use"] = "enc";
    EXPECT_FALSE(public_key_from_jwk(for_encryption));
    auto wrong_curve = signer.jwk();
    wrong_curve["crv"] = "P-521";
    EXPECT_FALSE(public_key_from_jwk(wrong_curve));
    // A 512-bit RSA modulus (any 64 bytes) is too short to trust.
    json::object short_rsa{{"kty", "RSA"}, {"n", base64url(std::string(64, '\x81'))}, {"e", "AQAB"}};
    EXPECT_FALSE(public_key_from_jwk(short_rsa));
    EXPECT_FALSE(public_key_from_jwk(json::object{{"kty", "oct"}, {"k", "c2VjcmV0"}}));
}
