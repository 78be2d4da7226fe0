#pragma once

#include <QByteArray>
#include <QString>
#include <QStringView>

namespace berth {

// Unguessable identifiers and tokens from the system's cryptographic random source.
namespace RandomId {

// length characters of [0-9A-Za-z], each uniformly distributed.
QString base62(int length);

// prefix followed by length base62 characters, e.g. make(u"dep_") -> "dep_" + 20 characters (~119 bits).
QString make(QStringView prefix, int length = 20);

// bytes random bytes as URL-safe base64 without padding, e.g. for share tokens (24 bytes -> 32 characters).
QByteArray token(int bytes = 24);

} // namespace RandomId
} // namespace berth
