#include "contentdigest.h"

#include <sodium.h>

namespace berth {

ContentDigest::ContentDigest()
    : m_state(std::make_unique<crypto_hash_sha256_state>())
{
    crypto_hash_sha256_init(m_state.get());
}

ContentDigest::~ContentDigest() = default;

void ContentDigest::addData(QByteArrayView bytes)
{
    crypto_hash_sha256_update(m_state.get(), reinterpret_cast<const unsigned char *>(bytes.data()),
        static_cast<unsigned long long>(bytes.size()));
}

QByteArray ContentDigest::hexResult()
{
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256_final(m_state.get(), digest);
    return QByteArray(reinterpret_cast<const char *>(digest), sizeof(digest)).toHex();
}

QByteArray ContentDigest::hexOf(QByteArrayView bytes)
{
    ContentDigest digest;
    digest.addData(bytes);
    return digest.hexResult();
}

} // namespace berth
