#include "api/keyscontroller.h"

#include "domain/accounts/accountservice.h"
#include "domain/common/clock.h"
#include "web/apierror.h"
#include "web/jsonbody.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

constexpr qint64 kDayMs = 24 * 60 * 60 * 1000;

QJsonValue timeOrNull(const QDateTime &time)
{
    return time.isValid() ? QJsonValue(isoTimestamp(time)) : QJsonValue(QJsonValue::Null);
}

QJsonObject keyJson(const ApiKey &key)
{
    return {{u"id"_s, key.id}, {u"label"_s, key.label}, {u"created_at"_s, timeOrNull(key.createdAt)},
        {u"last_used_at"_s, timeOrNull(key.lastUsedAt)}, {u"expires_at"_s, timeOrNull(key.expiresAt)},
        {u"revoked_at"_s, timeOrNull(key.revokedAt)}};
}

struct NewKeyRequest
{
    QString label;
    int expiresInDays = 0; // 0: never
};

Result<NewKeyRequest> parseNewKey(const QByteArray &body)
{
    NewKeyRequest request {u"api"_s, 0};
    if (body.trimmed().isEmpty())
        return request;
    const auto object = JsonBody::parseObject(body);
    if (!object)
        return object.error();
    if (const QJsonValue label = object.value().value(u"label"_s); !label.isUndefined()) {
        if (!label.isString() || label.toString().size() > KeysController::kMaxLabelLength)
            return Error {Error::Kind::BadRequest,
                u"label must be a string of at most %1 characters"_s.arg(KeysController::kMaxLabelLength)};
        request.label = label.toString();
    }
    if (const QJsonValue days = object.value().value(u"expires_in_days"_s); !days.isUndefined()) {
        const double value = days.toDouble(-1);
        if (!days.isDouble() || value < 1 || value > KeysController::kMaxExpiryDays || value != int(value))
            return Error {Error::Kind::BadRequest,
                u"expires_in_days must be a whole number from 1 to %1"_s.arg(KeysController::kMaxExpiryDays)};
        request.expiresInDays = int(value);
    }
    return request;
}

} // namespace

KeysController::KeysController(AccountService &accounts, const Clock &clock)
    : m_accounts(accounts)
    , m_clock(clock)
{
}

void KeysController::registerRoutes(ApiRouter &router)
{
    using C = KeysController;
    static const ControllerRoute<C> kRoutes[] = {
        {"GET", "/auth/keys", &C::list},
        {"POST", "/auth/keys", &C::create},
        {"DELETE", "/auth/keys/:id", &C::revoke},
    };
    router.addRoutes(this, kRoutes);
}

void KeysController::list(ApiCall &call)
{
    QJsonArray keys;
    for (const ApiKey &key : m_accounts.keys(call.user.id))
        keys.append(keyJson(key));
    call.sink.send(HttpResponse::json(200, {{u"keys"_s, keys}}));
}

void KeysController::create(ApiCall &call)
{
    const auto request = parseNewKey(call.request.body);
    if (!request) {
        call.sink.send(errorResponse(request.error()));
        return;
    }
    const QDateTime expiresAt = request.value().expiresInDays > 0
        ? m_clock.now().addMSecs(request.value().expiresInDays * kDayMs)
        : QDateTime();
    // The router let the call through on this key; it is looked up again for its expiry.
    const QByteArray authorization = call.request.header("authorization");
    const Result<ApiKey> caller = m_accounts.liveKey(authorization);
    if (!caller || caller.value().userId != call.user.id) {
        call.sink.send(ApiRouter::refused(authorization,
            caller ? Error {Error::Kind::Unauthorized, AccountService::unknownKeyMessage()} : caller.error()));
        return;
    }
    const auto created = m_accounts.createKeyWith(caller.value(), request.value().label, expiresAt);
    if (!created) {
        call.sink.send(errorResponse(created.error()));
        return;
    }
    QJsonObject body = keyJson(created.value().key);
    body.insert(u"api_key"_s, created.value().secret);
    call.sink.send(HttpResponse::json(200, body));
}

void KeysController::revoke(ApiCall &call)
{
    const QString id = call.params.at(0);
    if (!m_accounts.revokeKey(call.user.id, id)) {
        call.sink.send(HttpResponse::jsonError(404, u"Key not found"_s));
        return;
    }
    call.sink.send(HttpResponse::json(200, {{u"id"_s, id}, {u"message"_s, u"API key revoked"_s}}));
}

} // namespace berth
