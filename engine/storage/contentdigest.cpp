#include "contentdigest.h"

#include <cstdlib>
#include <openssl/evp.h>

namespace berth {

namespace {

// SHA-256 is always there in OpenSSL's default provider; without it (an out-of-memory at the first call) no blob
// could be named correctly, so the process stops rather than store content under a wrong name.
void require(int ok)
{
    if (ok != 1)
        std::abort();
}

} // namespace

void ContentDigest::FreeContext::operator()(evp_md_ctx_st *context) const
{
    EVP_MD_CTX_free(context);
}

ContentDigest::ContentDigest()
    : m_context(EVP_MD_CTX_new())
{
    require(m_context != nullptr);
    require(EVP_DigestInit_ex(m_context.get(), EVP_sha256(), nullptr));
}

ContentDigest::~ContentDigest() = default;

void ContentDigest::addData(QByteArrayView bytes)
{
    require(EVP_DigestUpdate(m_context.get(), bytes.data(), static_cast<size_t>(bytes.size())));
}

QByteArray ContentDigest::hexResult()
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    require(EVP_DigestFinal_ex(m_context.get(), digest, &length));
    return QByteArray(reinterpret_cast<const char *>(digest), static_cast<qsizetype>(length)).toHex();
}

QByteArray ContentDigest::hexOf(QByteArrayView bytes)
{
    ContentDigest digest;
    digest.addData(bytes);
    return digest.hexResult();
}

} // namespace berth
