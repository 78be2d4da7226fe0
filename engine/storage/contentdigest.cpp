#include "storage/contentdigest.h"

#include <QtGlobal>
#include <openssl/evp.h>

namespace berth {

namespace {

// SHA-256 is always there in OpenSSL's default provider: a failure can only be an out-of-memory, as in Qt's own
// containers, and the process stops (with a line in the log) rather than store content under a wrong name.
void require(bool ok)
{
    if (!ok)
        qFatal("OpenSSL's SHA-256 failed");
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
    require(EVP_DigestInit_ex(m_context.get(), EVP_sha256(), nullptr) == 1);
}

ContentDigest::~ContentDigest() = default;

void ContentDigest::addData(QByteArrayView bytes)
{
    require(EVP_DigestUpdate(m_context.get(), bytes.data(), static_cast<size_t>(bytes.size())) == 1);
}

QByteArray ContentDigest::hexResult()
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    require(EVP_DigestFinal_ex(m_context.get(), digest, &length) == 1);
    return QByteArray(reinterpret_cast<const char *>(digest), static_cast<qsizetype>(length)).toHex();
}

QByteArray ContentDigest::hexOf(QByteArrayView bytes)
{
    ContentDigest digest;
    digest.addData(bytes);
    return digest.hexResult();
}

} // namespace berth
