#include "domain/accounts/signinpolicy.h"

#include "domain/accounts/emailaddress.h"
#include "domain/common/clock.h"
#include "storage/enumnames.h"
#include "storage/settingsrepository.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

const QString kSignupsOpen = u"signups_open"_s;
const QString kAgentSessions = u"agent_sessions"_s;
const QString kAgentsPerHour = u"agents_per_hour"_s;
const QString kSmtp = u"smtp"_s;
const QString kSmtpLastError = u"smtp_last_error"_s;

const EnumName<AgentSessionScope> kScopeNames[] = {
    {AgentSessionScope::Loopback, "loopback"_L1},
    {AgentSessionScope::Lan, "lan"_L1},
    {AgentSessionScope::Anywhere, "anywhere"_L1},
};

QJsonObject jsonSetting(const SettingsRepository &settings, const QString &key)
{
    return QJsonDocument::fromJson(settings.value(key).toUtf8()).object();
}

QString compact(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

} // namespace

SignInPolicy::SignInPolicy(SettingsRepository &settings, AllowListRepository &allowList, const Clock &clock)
    : m_settings(settings)
    , m_allowList(allowList)
    , m_clock(clock)
{
}

bool SignInPolicy::maySignIn(const QString &email) const
{
    // Both looked up every time, so that an allowed and a refused email cost the same.
    const bool listed = isAllowListed(email);
    const bool open = signupsOpen();
    return listed || open;
}

bool SignInPolicy::signupsOpen() const
{
    return m_settings.value(kSignupsOpen) == u"1";
}

bool SignInPolicy::setSignupsOpen(bool open)
{
    return m_settings.setValue(kSignupsOpen, open ? u"1"_s : u"0"_s).ok();
}

QList<AllowedEmail> SignInPolicy::allowList() const
{
    return m_allowList.list();
}

Result<AllowedEmail> SignInPolicy::allow(const QString &email)
{
    const auto normalised = EmailAddress::normalised(email);
    if (!normalised)
        return Error {Error::Kind::BadRequest, u"A valid email address is required"_s};
    const QDateTime now = m_clock.now();
    if (!m_allowList.add(*normalised, now))
        return Error {Error::Kind::Internal, u"Could not change the allow-list"_s};
    return AllowedEmail {*normalised, now};
}

Result<QString> SignInPolicy::disallow(const QString &email)
{
    const QString normalised = EmailAddress::normalised(email).value_or(email.trimmed());
    if (!m_allowList.remove(normalised))
        return Error {Error::Kind::NotFound, u"%1 is not on the allow-list"_s.arg(normalised)};
    return normalised;
}

bool SignInPolicy::isAllowListed(const QString &email) const
{
    return m_allowList.contains(email);
}

AgentSessionScope SignInPolicy::agentSessionScope() const
{
    return scopeFromName(m_settings.value(kAgentSessions)).value_or(AgentSessionScope::Loopback);
}

bool SignInPolicy::setAgentSessionScope(AgentSessionScope scope)
{
    return m_settings.setValue(kAgentSessions, scopeName(scope)).ok();
}

int SignInPolicy::agentsPerHour() const
{
    bool ok = false;
    const int count = m_settings.value(kAgentsPerHour).toInt(&ok);
    return ok && count >= 0 && count <= kMaxAgentsPerHour ? count : kDefaultAgentsPerHour;
}

bool SignInPolicy::setAgentsPerHour(int count)
{
    if (count < 0 || count > kMaxAgentsPerHour)
        return false;
    return m_settings.setValue(kAgentsPerHour, QString::number(count)).ok();
}

bool SignInPolicy::allowsAgentSessionFrom(const QHostAddress &client) const
{
    switch (agentSessionScope()) {
    case AgentSessionScope::Loopback:
        return client.isLoopback();
    case AgentSessionScope::Lan:
        return isLanAddress(client);
    case AgentSessionScope::Anywhere:
        break;
    }
    return true;
}

bool SignInPolicy::isLanAddress(const QHostAddress &address)
{
    static const QList<QPair<QHostAddress, int>> kLanSubnets = {
        QHostAddress::parseSubnet(u"10.0.0.0/8"_s),
        QHostAddress::parseSubnet(u"172.16.0.0/12"_s),
        QHostAddress::parseSubnet(u"192.168.0.0/16"_s),
        QHostAddress::parseSubnet(u"169.254.0.0/16"_s),
        QHostAddress::parseSubnet(u"fc00::/7"_s),
        QHostAddress::parseSubnet(u"fe80::/10"_s),
    };
    if (address.isLoopback())
        return true;
    for (const auto &subnet : kLanSubnets) {
        if (address.isInSubnet(subnet))
            return true;
    }
    return false;
}

QString SignInPolicy::scopeName(AgentSessionScope scope)
{
    return nameOf(kScopeNames, scope);
}

std::optional<AgentSessionScope> SignInPolicy::scopeFromName(const QString &name)
{
    return valueOf(kScopeNames, name);
}

SmtpConfig SignInPolicy::smtp() const
{
    return SmtpConfig::fromJson(jsonSetting(m_settings, kSmtp)).value_or(SmtpConfig());
}

Result<SmtpConfig> SignInPolicy::setSmtp(const SmtpConfig &config)
{
    if (const QString error = config.validationError(); !error.isEmpty())
        return Error {Error::Kind::BadRequest, error};
    if (!m_settings.setValue(kSmtp, compact(config.toJson())))
        return Error {Error::Kind::Internal, u"Could not store the SMTP settings"_s};
    return config;
}

bool SignInPolicy::clearSmtp()
{
    m_settings.remove(kSmtpLastError);
    return m_settings.remove(kSmtp) || !m_settings.contains(kSmtp);
}

QString SignInPolicy::smtpLastError(QDateTime *when) const
{
    const QJsonObject last = jsonSetting(m_settings, kSmtpLastError);
    if (when)
        *when = QDateTime::fromString(last.value(u"at"_s).toString(), Qt::ISODateWithMs);
    return last.value(u"error"_s).toString();
}

void SignInPolicy::recordSmtpResult(const QString &error)
{
    if (error.isEmpty())
        m_settings.remove(kSmtpLastError);
    else
        m_settings.setValue(kSmtpLastError, compact({{u"at"_s, isoTimestamp(m_clock.now())}, {u"error"_s, error}}));
}

} // namespace berth
