#include "domain/accounts/accountservice.h"

#include "domain/common/clock.h"
#include "domain/common/randomid.h"
#include "domain/plans/plantable.h"
#include "storage/apikeyrepository.h"
#include "storage/userrepository.h"

#include <QCryptographicHash>
#include <QLoggingCategory>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
Q_LOGGING_CATEGORY(lcAccounts, "berth.accounts")
constexpr int kKeySecretLength = 40; // base62 characters: ~238 bits
constexpr qint64 kTouchIntervalMs = 60'000; // last_used_at is refreshed at most once a minute per key
} // namespace

AccountService::AccountService(UserRepository &users, ApiKeyRepository &keys, const Clock &clock)
    : m_users(users)
    , m_keys(keys)
    , m_clock(clock)
{
}

QByteArray AccountService::hashSecret(const QByteArray &secret)
{
    return QCryptographicHash::hash(secret, QCryptographicHash::Sha256).toHex();
}

Result<AccountService::OwnerSetup> AccountService::ensureOwner()
{
    if (auto owner = m_users.owner())
        return OwnerSetup {*owner, std::nullopt};

    User owner;
    owner.id = RandomId::make(u"usr_");
    owner.plan = u"pro"_s;
    owner.isOwner = true;
    owner.createdAt = m_clock.now();
    if (!m_users.insert(owner))
        return Error {Error::Kind::Internal, u"Could not create the owner account"_s};
    auto key = createKey(owner.id, u"owner"_s);
    if (!key)
        return key.error();
    return OwnerSetup {owner, key.value()};
}

Result<User> AccountService::ensureUser(const QString &email, const QString &plan)
{
    const QString trimmed = email.trimmed();
    if (trimmed.isEmpty() || !trimmed.contains(u'@'))
        return Error {Error::Kind::BadRequest, u"A valid email address is required"_s};
    if (!PlanTable::isPlan(plan))
        return Error {Error::Kind::BadRequest, u"plan must be one of agent, free, pro"_s};
    if (auto existing = m_users.findByEmail(trimmed))
        return *existing;

    User user;
    user.id = RandomId::make(u"usr_");
    user.email = trimmed;
    user.plan = plan;
    user.createdAt = m_clock.now();
    if (!m_users.insert(user))
        return Error {Error::Kind::Internal, u"Could not create the user"_s};
    return user;
}

Result<AccountService::NewKey> AccountService::createKey(const QString &userId, const QString &label)
{
    return createKey(userId, label, QDateTime());
}

Result<AccountService::NewKey> AccountService::createKey(
    const QString &userId, const QString &label, const QDateTime &expiresAt)
{
    if (!m_users.find(userId))
        return Error {Error::Kind::NotFound, u"User not found"_s, Error::Code::UserNotFound};
    NewKey created;
    created.secret = u"bk_"_s + RandomId::base62(kKeySecretLength);
    created.key.id = RandomId::make(u"key_");
    created.key.userId = userId;
    created.key.hash = hashSecret(created.secret.toLatin1());
    created.key.label = label;
    created.key.createdAt = m_clock.now();
    created.key.expiresAt = expiresAt;
    if (!m_keys.insert(created.key))
        return Error {Error::Kind::Internal, u"Could not store the API key"_s};
    return created;
}

Result<AccountService::NewKey> AccountService::createKeyWith(
    const ApiKey &caller, const QString &label, const QDateTime &expiresAt)
{
    if (liveKeys(caller.userId).size() >= kMaxLiveKeysPerUser)
        return Error {Error::Kind::Conflict,
            u"You already have %1 live API keys, the most allowed: revoke one first (DELETE /auth/keys/:id)"_s.arg(
                kMaxLiveKeysPerUser)};
    // A key cannot outlive the key that made it: a short-lived key handed to a script stays short-lived.
    QDateTime until = expiresAt;
    if (!caller.expiresAt.isNull() && (until.isNull() || caller.expiresAt < until))
        until = caller.expiresAt;
    return createKey(caller.userId, label, until);
}

Result<AccountService::NewKey> AccountService::createSignInKey(const QString &userId)
{
    const QList<ApiKey> live = liveKeys(userId);
    if (live.size() >= kMaxLiveKeysPerUser) {
        const auto lastActive
            = [](const ApiKey &key) { return key.lastUsedAt.isNull() ? key.createdAt : key.lastUsedAt; };
        const auto idlest = std::min_element(live.cbegin(), live.cend(),
            [&](const ApiKey &a, const ApiKey &b) { return lastActive(a) < lastActive(b); });
        if (!m_keys.revoke(idlest->id, m_clock.now()))
            return Error {Error::Kind::Internal, u"Could not store the API key"_s};
    }
    return createKey(userId, u"sign-in"_s);
}

QList<ApiKey> AccountService::liveKeys(const QString &userId) const
{
    const QDateTime now = m_clock.now();
    QList<ApiKey> live = m_keys.listForUser(userId);
    live.removeIf([&](const ApiKey &key) {
        return !key.revokedAt.isNull() || (!key.expiresAt.isNull() && key.expiresAt <= now);
    });
    return live;
}

QList<ApiKey> AccountService::keys(const QString &userId) const
{
    return m_keys.listForUser(userId);
}

bool AccountService::revokeKey(const QString &userId, const QString &keyId)
{
    const auto key = m_keys.find(keyId);
    if (!key || key->userId != userId)
        return false;
    return m_keys.revoke(keyId, m_clock.now()).ok();
}

QString AccountService::databaseUnavailableMessage()
{
    return u"The database is unavailable; try again in a moment"_s;
}

QByteArray AccountService::bearerSecret(const QByteArray &authorizationHeader)
{
    static constexpr QByteArrayView kScheme = "bearer ";
    if (authorizationHeader.size() <= kScheme.size()
        || !authorizationHeader.first(kScheme.size()).toLower().startsWith(kScheme))
        return {};
    return authorizationHeader.mid(kScheme.size()).trimmed();
}

Result<ApiKey> AccountService::liveKey(const QByteArray &authorizationHeader) const
{
    const QByteArray secret = bearerSecret(authorizationHeader);
    if (secret.isEmpty())
        return Error {Error::Kind::Unauthorized, notBearerMessage()};
    const Error unknown {Error::Kind::Unauthorized, unknownKeyMessage()};
    if (!secret.startsWith("bk_") || secret.size() > 128)
        return unknown;

    const Result<std::optional<ApiKey>> found = m_keys.lookupByHash(hashSecret(secret));
    if (!found) {
        qCWarning(lcAccounts).noquote() << "key lookup failed:" << found.error().message;
        return Error {Error::Kind::Unavailable, databaseUnavailableMessage()};
    }
    // A revoked key reads as an unknown one: its holder learns nothing of what became of it (docs/auth-and-keys.md).
    const std::optional<ApiKey> &key = found.value();
    if (!key) {
        // Only the refusal path asks: a removed agent's key is told why it stopped, a made-up one learns nothing.
        const Result<bool> removed = m_keys.isRemovedAgentKey(hashSecret(secret));
        return removed && removed.value() ? Error {Error::Kind::Unauthorized, agentRemovedMessage()} : unknown;
    }
    if (!key->revokedAt.isNull())
        return unknown;
    if (!key->expiresAt.isNull() && key->expiresAt <= m_clock.now())
        return Error {Error::Kind::Unauthorized, expiredKeyMessage()};
    return *key;
}

Result<User> AccountService::authenticate(const QByteArray &authorizationHeader)
{
    const Result<ApiKey> key = liveKey(authorizationHeader);
    if (!key)
        return key.error();
    const QDateTime now = m_clock.now();
    if (key.value().lastUsedAt.isNull() || key.value().lastUsedAt.msecsTo(now) >= kTouchIntervalMs)
        m_keys.touch(key.value().id, now); // only a record: a failed write does not refuse the request
    const Result<std::optional<User>> user = m_users.lookup(key.value().userId);
    if (!user) {
        qCWarning(lcAccounts).noquote() << "user lookup failed:" << user.error().message;
        return Error {Error::Kind::Unavailable, databaseUnavailableMessage()};
    }
    if (!user.value())
        return Error {Error::Kind::Unauthorized, unknownKeyMessage()};
    return *user.value();
}

std::optional<User> AccountService::findUser(const QString &id) const
{
    return m_users.find(id);
}

std::optional<User> AccountService::findUserByEmail(const QString &email) const
{
    return m_users.findByEmail(email.trimmed());
}

QList<UserUsage> AccountService::listUsers() const
{
    return m_users.listWithUsage(m_clock.now());
}

Result<User> AccountService::setPlan(const QString &userId, const QString &plan)
{
    if (!PlanTable::isPlan(plan))
        return Error {Error::Kind::BadRequest, u"plan must be one of agent, free, pro"_s};
    auto user = m_users.find(userId);
    if (!user)
        return Error {Error::Kind::NotFound, u"User not found"_s, Error::Code::UserNotFound};
    if (!m_users.setPlan(userId, plan))
        return Error {Error::Kind::Internal, u"Could not change the plan"_s};
    user->plan = plan;
    return *user;
}

QList<ApiKey> AccountService::allKeys() const
{
    return m_keys.listAll();
}

Result<ApiKey> AccountService::revokeAnyKey(const QString &keyId)
{
    if (!m_keys.find(keyId))
        return Error {Error::Kind::NotFound, u"Key not found"_s, Error::Code::KeyNotFound};
    if (!m_keys.revoke(keyId, m_clock.now()))
        return Error {Error::Kind::Internal, u"Could not revoke the key"_s};
    return *m_keys.find(keyId);
}

} // namespace berth
