#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>

namespace berth {

struct User
{
    QString id;    // "usr_" + base62
    QString email; // empty for an agent or the instance owner without one
    QString plan;  // "agent", "free" or "pro"
    bool isOwner = false;
    QDateTime createdAt;
};

struct ApiKey
{
    QString id;      // "key_" + base62
    QString userId;
    QByteArray hash; // hex SHA-256 of the secret; the secret itself is never stored
    QString label;
    QDateTime createdAt;
    QDateTime lastUsedAt; // null when never used
    QDateTime expiresAt;  // null: never expires
    QDateTime revokedAt;  // null: live
};

} // namespace berth
