#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>

namespace berth {

// A named link to a private site: who holds its token may open the site until it expires, its opens run out or its
// owner revokes it. Only the token's SHA-256 is kept; the token itself is shown once, when the link is made.
struct ShareLink
{
    QString id; // "lnk_" + base62
    QString deploymentId;
    QString label;
    QByteArray tokenHash; // hex SHA-256 of the token
    QDateTime createdAt; // UTC
    QDateTime expiresAt; // UTC; invalid: never
    int maxOpens = 0; // 0: no limit
    qint64 opens = 0;
    QDateTime lastOpenedAt; // UTC; invalid: never opened
    bool revoked = false;
};

// Opens of one link counted since the last write, added to its row.
struct ShareLinkOpens
{
    QString id;
    qint64 opens = 0;
    QDateTime lastOpenedAt; // UTC
};

} // namespace berth
