#include "auth/JsonWebKey.hpp"

#include "auth/JsonDocument.hpp"
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

namespace mcp::auth {
namespace json = boost::json;

namespace {

template <class T, void (*Free)(T*)>
using Owned = std::unique_ptr<T, decltype([](T* p) { Free(p); })>;

std::shared_ptr<EVP_PKEY> key_from_params(const char* type, OSSL_PARAM* params) {
    Owned<EVP_PKEY_CTX, EVP_PKEY_CTX_free> context(EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr));
    EVP_PKEY* key = nullptr;
    if (!context || EVP_PKEY_fromdata_init(context.get()) != 1 ||
        EVP_PKEY_fromdata(context.get(), &key, EVP_PKEY_PUBLIC_KEY, params) != 1)
        return nullptr;
    return std::shared_ptr<EVP_PKEY>(key, EVP_PKEY_free);
}

std::shared_ptr<EVP_PKEY> rsa_key(const std::string& n, const std::string& e) {
    Owned<BIGNUM, BN_free> modulus(BN_bin2bn(reinterpret_cast<const unsigned char*>(n.data()), static_cast<int>(n.size()), nullptr));
    Owned<BIGNUM, BN_free> exponent(BN_bin2bn(reinterpret_cast<const unsigned char*>(e.data()), static_cast<int>(e.size()), nullptr));
    Owned<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free> builder(OSSL_PARAM_BLD_new());
    if (!modulus || !exponent || !builder || BN_num_bits(modulus.get()) < 2048 ||
        OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_RSA_N, modulus.get()) != 1 ||
        OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_RSA_E, exponent.get()) != 1)
        return nullptr;
    Owned<OSSL_PARAM, OSSL_PARAM_free> params(OSSL_PARAM_BLD_to_param(builder.get()));
    return params ? key_from_params("RSA", params.get()) : nullptr;
}

std::shared_ptr<EVP_PKEY> ec_key(const std::string& curve, const std::string& x, const std::string& y) {
    const char* group = curve == "P-256" ? "prime256v1" : curve == "P-384" ? "secp384r1" : nullptr;
    std::size_t size = curve == "P-256" ? 32 : 48;
    if (!group || x.size() != size || y.size() != size) return nullptr;
    std::string point = "\x04" + x + y;  // uncompressed
    Owned<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free> builder(OSSL_PARAM_BLD_new());
    if (!builder || OSSL_PARAM_BLD_push_utf8_string(builder.get(), OSSL_PKEY_PARAM_GROUP_NAME, group, 0) != 1 ||
        OSSL_PARAM_BLD_push_octet_string(builder.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()) != 1)
        return nullptr;
    Owned<OSSL_PARAM, OSSL_PARAM_free> params(OSSL_PARAM_BLD_to_param(builder.get()));
    return params ? key_from_params("EC", params.get()) : nullptr;
}

/// A JWS ECDSA signature (r || s, fixed size) as the DER OpenSSL verifies.
std::optional<std::string> ecdsa_der(std::string_view raw, std::size_t part) {
    if (raw.size() != 2 * part) return std::nullopt;
    Owned<ECDSA_SIG, ECDSA_SIG_free> signature(ECDSA_SIG_new());
    BIGNUM* r = BN_bin2bn(reinterpret_cast<const unsigned char*>(raw.data()), static_cast<int>(part), nullptr);
    BIGNUM* s = BN_bin2bn(reinterpret_cast<const unsigned char*>(raw.data() + part), static_cast<int>(part), nullptr);
    if (!signature || !r || !s || ECDSA_SIG_set0(signature.get(), r, s) != 1) {
        BN_free(r);
        BN_free(s);
        return std::nullopt;
    }
    unsigned char* der = nullptr;
    int length = i2d_ECDSA_SIG(signature.get(), &der);
    if (length <= 0) return std::nullopt;
    std::string out(reinterpret_cast<char*>(der), static_cast<std::size_t>(length));
    OPENSSL_free(der);
    return out;
}

}  // namespace

std::optional<std::string> base64url_decode(std::string_view text) {
    while (!text.empty() && text.back() == '=') text.remove_suffix(1);
    if (text.size() % 4 == 1) return std::nullopt;
    std::string standard(text);
    for (auto& c : standard) {
        if (c == '-') c = '+';
        else if (c == '_') c = '/';
        else if (!std::isalnum(static_cast<unsigned char>(c))) return std::nullopt;
    }
    std::size_t padding = (4 - standard.size() % 4) % 4;
    standard.append(padding, '=');
    std::string out(standard.size() / 4 * 3, '\0');
    int length = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                 reinterpret_cast<const unsigned char*>(standard.data()), static_cast<int>(standard.size()));
    if (length < 0) return std::nullopt;
    out.resize(static_cast<std::size_t>(length) - padding);
    return out;
}

std::optional<PublicKey> public_key_from_jwk(const json::object& jwk) {
    PublicKey key;
    key.kid = json_fields::text(jwk, "kid");
    key.alg = json_fields::text(jwk, "alg");
    key.kty = json_fields::text(jwk, "kty");
    if (std::string use = json_fields::text(jwk, "use"); !use.empty() && use != "sig") return std::nullopt;
    if (jwk.contains("d")) return std::nullopt;  // a private key published by mistake is not used
    if (key.kty == "RSA") {
        auto n = base64url_decode(json_fields::text(jwk, "n"));
        auto e = base64url_decode(json_fields::text(jwk, "e"));
        if (!n || !e || n->empty() || e->empty()) return std::nullopt;
        key.key = rsa_key(*n, *e);
    } else if (key.kty == "EC") {
        key.crv = json_fields::text(jwk, "crv");
        auto x = base64url_decode(json_fields::text(jwk, "x"));
        auto y = base64url_decode(json_fields::text(jwk, "y"));
        if (!x || !y) return std::nullopt;
        key.key = ec_key(key.crv, *x, *y);
    }
    if (!key.key) return std::nullopt;
    return key;
}

bool verify_jws_signature(const PublicKey& key, std::string_view alg, std::string_view signing_input,
                          std::string_view signature) {
    if (!key.alg.empty() && key.alg != alg) return false;
    const EVP_MD* digest = nullptr;
    bool pss = false;
    std::string der;
    std::string_view checked = signature;
    if (alg == "RS256" || alg == "RS384" || alg == "RS512" || alg == "PS256") {
        if (key.kty != "RSA") return false;
        digest = alg == "RS384" ? EVP_sha384() : alg == "RS512" ? EVP_sha512() : EVP_sha256();
        pss = alg == "PS256";
    } else if ((alg == "ES256" && key.crv == "P-256") || (alg == "ES384" && key.crv == "P-384")) {
        if (key.kty != "EC") return false;
        digest = alg == "ES256" ? EVP_sha256() : EVP_sha384();
        auto converted = ecdsa_der(signature, alg == "ES256" ? 32 : 48);
        if (!converted) return false;
        der = std::move(*converted);
        checked = der;
    } else {
        return false;  // "none", HMAC (a shared secret is not a public key), or unknown
    }
    Owned<EVP_MD_CTX, EVP_MD_CTX_free> context(EVP_MD_CTX_new());
    EVP_PKEY_CTX* key_context = nullptr;
    if (!context || EVP_DigestVerifyInit(context.get(), &key_context, digest, nullptr, key.key.get()) != 1) return false;
    if (pss && (EVP_PKEY_CTX_set_rsa_padding(key_context, RSA_PKCS1_PSS_PADDING) != 1 ||
                EVP_PKEY_CTX_set_rsa_pss_saltlen(key_context, RSA_PSS_SALTLEN_DIGEST) != 1))
        return false;
    return EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char*>(checked.data()), checked.size(),
                            reinterpret_cast<const unsigned char*>(signing_input.data()), signing_input.size()) == 1;
}

}  // namespace mcp::auth
