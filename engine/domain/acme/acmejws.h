#pragma once

#include "core/error.h"
#include "domain/acme/acmekey.h"

#include <QJsonObject>
#include <optional>

namespace berth {

// The body of an ACME POST (RFC 8555 section 6.2): a flattened JWS signed ES256, naming the account by kid, or by
// its jwk before the account exists (kid empty). No payload: a POST-as-GET (an empty payload string).
Result<QByteArray> acmeJws(const AcmeKey &key, const QString &kid, const QString &url, const QByteArray &nonce,
    const std::optional<QJsonObject> &payload);

} // namespace berth
