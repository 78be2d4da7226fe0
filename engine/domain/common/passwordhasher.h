#pragma once

#include <QByteArray>
#include <QString>

namespace berth {

// Argon2id password hashes (libsodium's crypto_pwhash_str): salted, self-describing, slow on
// purpose. Hashing takes a noticeable fraction of a second: call it off the event loop.
namespace PasswordHasher {

QByteArray hash(const QString &password); // empty on failure (out of memory)
bool verify(const QByteArray &hash, const QString &password);

} // namespace PasswordHasher
} // namespace berth
