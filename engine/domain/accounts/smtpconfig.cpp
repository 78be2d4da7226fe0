#include "domain/accounts/smtpconfig.h"

#include "domain/accounts/emailaddress.h"
#include "storage/enumnames.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kMaxPort = 65535;

const EnumName<SmtpConfig::Security> kSecurityNames[] = {
    {SmtpConfig::Security::None, "none"_L1},
    {SmtpConfig::Security::StartTls, "starttls"_L1},
    {SmtpConfig::Security::Tls, "tls"_L1},
};

bool hasLineBreak(const QString &text)
{
    return text.contains(u'\r') || text.contains(u'\n') || text.contains(QChar(0));
}
} // namespace

QString SmtpConfig::validationError() const
{
    if (host.isEmpty() || host.contains(u' ') || host.contains(u'/') || hasLineBreak(host))
        return u"host must be a host name or address"_s;
    if (port < 1 || port > kMaxPort)
        return u"port must be from 1 to 65535"_s;
    if (!EmailAddress::normalised(from))
        return u"from must be an email address"_s;
    if (hasLineBreak(user) || hasLineBreak(password))
        return u"user and password must be single lines"_s;
    return {};
}

QJsonObject SmtpConfig::toJson() const
{
    return {{u"host"_s, host}, {u"port"_s, port}, {u"user"_s, user}, {u"password"_s, password}, {u"from"_s, from},
        {u"security"_s, securityName(security)}};
}

std::optional<SmtpConfig> SmtpConfig::fromJson(const QJsonObject &json)
{
    SmtpConfig config;
    const auto security = securityFromName(json.value(u"security"_s).toString());
    if (!security || !json.value(u"port"_s).isDouble())
        return std::nullopt;
    config.host = json.value(u"host"_s).toString();
    config.port = json.value(u"port"_s).toInt();
    config.user = json.value(u"user"_s).toString();
    config.password = json.value(u"password"_s).toString();
    config.from = json.value(u"from"_s).toString();
    config.security = *security;
    return config;
}

QString SmtpConfig::securityName(Security security)
{
    return nameOf(kSecurityNames, security);
}

std::optional<SmtpConfig::Security> SmtpConfig::securityFromName(const QString &name)
{
    return valueOf(kSecurityNames, name);
}

} // namespace berth
