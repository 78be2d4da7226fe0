#pragma once

#include "core/error.h"
#include "domain/acme/acmekey.h"

#include <QByteArray>
#include <QString>

namespace berth {

// A PKCS#10 request (DER) for one DNS name, signed with the certificate's key: what an ACME order is finalised with.
Result<QByteArray> certificateRequest(const AcmeKey &key, const QString &name);

// Whether the first certificate of a PEM chain is for this key: a key and a chain written apart (a crash between
// the two files) must not be served together.
bool certificateMatchesKey(const QByteArray &chainPem, const AcmeKey &key);

} // namespace berth
