#include "domain/deploy/expiryrules.h"

#include <QJsonValue>
#include <QRegularExpression>
#include <cmath>

using namespace Qt::StringLiterals;

namespace berth::ExpiryRules {

namespace {

Error badRequest(const QString &message)
{
    return {Error::Kind::BadRequest, message};
}

// RFC 3339: a date, 'T' (or 't' or a space), a time with optional fraction, and 'Z' or an offset; never a local time.
std::optional<QDateTime> rfc3339(const QString &text)
{
    static const QRegularExpression kShape(
        u"^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$"_s);
    if (!kShape.match(text).hasMatch())
        return std::nullopt;
    QString iso = text;
    iso[10] = u'T';
    if (iso.endsWith(u'z'))
        iso.back() = u'Z';
    const QDateTime time = QDateTime::fromString(iso, Qt::ISODateWithMs);
    if (!time.isValid())
        return std::nullopt;
    return time.toUTC();
}

struct Unit
{
    char16_t letter;
    qint64 seconds;
};
constexpr Unit kUnits[] = {{u'd', 24 * 60 * 60}, {u'h', 60 * 60}, {u'm', 60}, {u's', 1}}; // largest first

} // namespace

Result<void> parse(const QJsonObject &body, DeployRequest &request)
{
    const auto at = body.constFind("expires_at"_L1);
    const auto in = body.constFind("expires_in"_L1);
    if (at != body.constEnd() && in != body.constEnd())
        return badRequest(u"Provide either expires_at or expires_in, not both"_s);
    if (at != body.constEnd()) {
        if (at->isNull()) {
            request.expiresAt.emplace(); // never
            return {};
        }
        const std::optional<QDateTime> time = rfc3339(at->toString());
        if (!time)
            return badRequest(u"expires_at must be an RFC 3339 time, e.g. 2026-12-31T00:00:00Z"_s);
        request.expiresAt.emplace(*time);
    }
    if (in != body.constEnd()) {
        if (in->isNull()) {
            request.expiresAt.emplace(); // never
            return {};
        }
        const double seconds = in->toDouble();
        if (seconds != std::floor(seconds) || seconds < 1 || seconds > double(kMaxLifetimeSeconds))
            return badRequest(u"expires_in must be a whole number of seconds from 1 to %1"_s.arg(kMaxLifetimeSeconds));
        request.expiresIn = qint64(seconds);
    }
    return {};
}

Result<void> settle(DeployRequest &request, const QDateTime &now, std::optional<qint64> defaultLifetime)
{
    if (request.expiresIn) {
        request.expiresAt.emplace(now.addSecs(*request.expiresIn));
        request.expiresIn.reset();
    } else if (!request.expiresAt && defaultLifetime) {
        request.expiresAt.emplace(now.addSecs(*defaultLifetime));
    }
    if (!request.expiresAt || !request.expiresAt->has_value())
        return {};
    const QDateTime at = **request.expiresAt;
    if (at <= now)
        return badRequest(u"expires_at must be in the future"_s);
    if (at > now.addSecs(kMaxLifetimeSeconds))
        return badRequest(u"expires_at must be at most ten years ahead"_s);
    return {};
}

Result<std::optional<qint64>> parseLifetime(const QString &text)
{
    if (text == u"never")
        return std::optional<qint64>();
    const Error wrong {Error::Kind::BadRequest,
        u"expected a time like 30m, 24h or 7d (at most ten years), or never, not '%1'"_s.arg(text)};
    if (text.size() < 2)
        return wrong;
    bool ok = false;
    const qint64 count = QStringView(text).chopped(1).toLongLong(&ok);
    if (!ok || count < 1 || !text.at(0).isDigit())
        return wrong;
    for (const Unit &unit : kUnits) {
        if (text.back() == unit.letter && count <= kMaxLifetimeSeconds / unit.seconds)
            return std::optional<qint64>(count * unit.seconds);
    }
    return wrong;
}

QString lifetimeText(std::optional<qint64> seconds)
{
    if (!seconds)
        return u"never"_s;
    // Days from two on: a day is said as 24h, as people set it.
    for (const Unit &unit : kUnits) {
        if (*seconds % unit.seconds == 0 && (unit.letter != u'd' || *seconds >= 2 * unit.seconds))
            return QString::number(*seconds / unit.seconds) + QChar(unit.letter);
    }
    return QString::number(*seconds) + u's';
}

} // namespace berth::ExpiryRules
