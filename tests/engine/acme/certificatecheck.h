#pragma once

#include <QByteArray>
#include <QString>

namespace berth::test {

QByteArray readFile(const QString &path); // empty when it cannot be read
// `openssl verify` of a chain's first certificate against a root, the rest of the chain as intermediates; folder
// holds the files openssl is given.
bool verifiesAgainst(const QByteArray &chainPem, const QByteArray &rootPem, const QString &folder);

} // namespace berth::test
