#pragma once

#include "core/error.h"
#include "domain/deploy/deployrequest.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <optional>

namespace berth {

// The rules of a site's expiry: when it passes, the site goes offline as on a delete (SiteExpiry sweeps).
namespace ExpiryRules {

// The furthest an expiry may lie ahead: further is a mistake (seconds taken for milliseconds) more than a wish.
constexpr qint64 kMaxLifetimeSeconds = 10LL * 365 * 24 * 60 * 60;

// expires_at (an RFC 3339 time with its offset, or null) or expires_in (whole seconds, or null) of a deploy body
// into request; 400 for both at once, a malformed time or a number that is not a whole number of seconds. Pure, for
// the worker that parses the body.
Result<void> parse(const QJsonObject &body, DeployRequest &request);

// The request's expiry made absolute against now: expires_in added to now, and when the request names none,
// defaultLifetime (an agent's new site). 400 when the time is not after now or lies beyond kMaxLifetimeSeconds.
Result<void> settle(DeployRequest &request, const QDateTime &now, std::optional<qint64> defaultLifetime = {});

// A lifetime as the command lines take it: "30m", "24h", "7d", "90s" or "never" (nullopt); an error (its message for
// the person typing) otherwise, or beyond kMaxLifetimeSeconds.
Result<std::optional<qint64>> parseLifetime(const QString &text);
// The lifetime in parseLifetime's words, the largest whole unit: "24h", "7d", "never".
QString lifetimeText(std::optional<qint64> seconds);

} // namespace ExpiryRules
} // namespace berth
