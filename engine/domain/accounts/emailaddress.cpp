#include "domain/accounts/emailaddress.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace berth::EmailAddress {

namespace {
constexpr int kMaxLength = 254; // RFC 5321's limit on a forward path
constexpr int kMaxLocalLength = 64;
} // namespace

std::optional<QString> normalised(const QString &address)
{
    // The local part's characters (RFC 5322 atext and dots), then dot-separated domain labels.
    static const QRegularExpression kShape(u"^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@"
                                           "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
                                           "(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$"_s);
    const QString trimmed = address.trimmed().toLower();
    if (trimmed.isEmpty() || trimmed.size() > kMaxLength || trimmed.indexOf(u'@') > kMaxLocalLength)
        return std::nullopt;
    if (!kShape.match(trimmed).hasMatch())
        return std::nullopt;
    return trimmed;
}

} // namespace berth::EmailAddress
