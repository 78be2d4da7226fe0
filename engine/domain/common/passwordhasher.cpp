#include "domain/common/passwordhasher.h"

#include <sodium.h>

namespace berth::PasswordHasher {

namespace {
bool ensureSodium()
{
    static const bool ready = sodium_init() >= 0;
    return ready;
}
} // namespace

QByteArray hash(const QString &password)
{
    if (!ensureSodium())
        return {};
    const QByteArray utf8 = password.toUtf8();
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str(out, utf8.constData(), quint64(utf8.size()), crypto_pwhash_OPSLIMIT_INTERACTIVE,
            crypto_pwhash_MEMLIMIT_INTERACTIVE)
        != 0)
        return {};
    return QByteArray(out);
}

bool verify(const QByteArray &hash, const QString &password)
{
    if (!ensureSodium() || hash.isEmpty())
        return false;
    const QByteArray utf8 = password.toUtf8();
    return crypto_pwhash_str_verify(hash.constData(), utf8.constData(), quint64(utf8.size())) == 0;
}

} // namespace berth::PasswordHasher
