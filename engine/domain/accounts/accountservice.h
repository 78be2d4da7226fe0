#pragma once

#include "core/error.h"
#include "storage/user.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>

namespace berth {

class ApiKeyRepository;
class Clock;
class UserRepository;

// Users and their API keys: the instance owner on first start, keys issued once and kept only as
// hashes, and the Bearer check every management request passes.
class AccountService final
{
public:
    // The most live (neither revoked nor expired) keys a user may hold: a stolen key cannot mint an unbounded
    // number of others.
    static constexpr int kMaxLiveKeysPerUser = 50;

    AccountService(UserRepository &users, ApiKeyRepository &keys, const Clock &clock);
    Q_DISABLE_COPY_MOVE(AccountService)

    struct NewKey
    {
        ApiKey key;
        QString secret; // "bk_..." — shown once, never stored
    };

    // The instance owner (plan pro); created with a first key when missing. `created` tells which.
    struct OwnerSetup
    {
        User owner;
        std::optional<NewKey> firstKey; // set only when the owner was created now
    };
    Result<OwnerSetup> ensureOwner();

    // Finds the user with this email or creates one with the given plan.
    Result<User> ensureUser(const QString &email, const QString &plan);
    Result<NewKey> createKey(const QString &userId, const QString &label);
    // A key that stops working at expiresAt (null: never).
    Result<NewKey> createKey(const QString &userId, const QString &label, const QDateTime &expiresAt);
    // A key made with another key (POST /auth/keys): it expires no later than `caller`, and 409 when the user
    // already holds kMaxLiveKeysPerUser live keys.
    Result<NewKey> createKeyWith(const ApiKey &caller, const QString &label, const QDateTime &expiresAt);
    // A key for a sign-in by email code. A user at kMaxLiveKeysPerUser loses the least recently used live key, so
    // that proving the email always gives a working key.
    Result<NewKey> createSignInKey(const QString &userId);
    // The user's keys, newest first, revoked ones included (their revokedAt is set).
    QList<ApiKey> keys(const QString &userId) const;
    // Revokes one of the user's keys; false when the user has no such key.
    bool revokeKey(const QString &userId, const QString &keyId);

    // The user behind an "Authorization: Bearer <key>" value: Unauthorized when the key is not live (or unknown),
    // Unavailable (503) when the database could not be asked, so that an outage never reads as a wrong key. An
    // Unauthorized error's message says why, in words fit for an RFC 6750 error_description: notBearerMessage(),
    // unknownKeyMessage() (never telling an unknown key from a revoked one), expiredKeyMessage() or
    // agentRemovedMessage() (the key of an agent removed for holding nothing a day after it was made).
    Result<User> authenticate(const QByteArray &authorizationHeader);
    static QString databaseUnavailableMessage();
    // The live key behind such a value (nothing is recorded); fails as authenticate() does.
    Result<ApiKey> liveKey(const QByteArray &authorizationHeader) const;
    // The secret of a "Bearer <secret>" value (the scheme in any case); empty when the value is not of that form.
    static QByteArray bearerSecret(const QByteArray &authorizationHeader);
    static QString notBearerMessage() { return QStringLiteral("The Authorization header must be: Bearer <API key>"); }
    static QString unknownKeyMessage() { return QStringLiteral("The API key is unknown or has been revoked"); }
    static QString expiredKeyMessage() { return QStringLiteral("The API key has expired"); }
    static QString agentRemovedMessage()
    {
        return QStringLiteral("The API key has expired: its agent was removed after a day without a deployment");
    }

    std::optional<User> findUser(const QString &id) const;
    std::optional<User> findUserByEmail(const QString &email) const; // case-insensitive

    // For the owner (dashboard, berthd): every user with what they hold, oldest first; any user's plan; every key
    // (no secrets), newest first; revoking any key.
    QList<UserUsage> listUsers() const;
    Result<User> setPlan(const QString &userId, const QString &plan); // 400 unknown plan, 404 unknown user
    QList<ApiKey> allKeys() const;
    Result<ApiKey> revokeAnyKey(const QString &keyId); // 404 when there is no such key

    static QByteArray hashSecret(const QByteArray &secret);

private:
    QList<ApiKey> liveKeys(const QString &userId) const;

    UserRepository &m_users;
    ApiKeyRepository &m_keys;
    const Clock &m_clock;
};

} // namespace berth
