#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>

namespace berth {

struct User
{
    QString id; // "usr_" + base62
    QString email; // empty for an agent or the instance owner without one
    QString plan; // "agent", "free" or "pro"
    bool isOwner = false;
    QDateTime createdAt;
};

// A user as the owner's list shows them: what they hold and when they last used a key.
struct UserUsage
{
    User user;
    int deployments = 0;
    int liveKeys = 0; // neither revoked nor expired
    int submissionsStored = 0; // over all their deployments
    QDateTime lastActive; // the latest last_used_at of their keys; null when none was used
};

struct ApiKey
{
    QString id; // "key_" + base62
    QString userId;
    QByteArray hash; // hex SHA-256 of the secret; the secret itself is never stored
    QString label;
    QDateTime createdAt;
    QDateTime lastUsedAt; // null when never used
    QDateTime expiresAt; // null: never expires
    QDateTime revokedAt; // null: live
};

} // namespace berth
