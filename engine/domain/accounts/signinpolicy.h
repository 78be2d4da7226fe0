#pragma once

#include "core/error.h"
#include "domain/accounts/smtpconfig.h"
#include "storage/allowlistrepository.h"

#include <QHostAddress>
#include <QList>
#include <optional>

namespace berth {

class Clock;
class SettingsRepository;

// Where POST /auth/session is answered from: this machine only (the default), also private networks, or anywhere.
enum class AgentSessionScope
{
    Loopback,
    Lan,
    Anywhere
};

// The owner's rules for signing in, kept in the database so that they survive restarts and so that `berthd`
// changes them under a running server: who may sign in (the allow-list, or anyone while sign-ups are open), where
// agents may come from, and how sign-in codes are mailed. Read from the database on each use.
class SignInPolicy final
{
public:
    SignInPolicy(SettingsRepository &settings, AllowListRepository &allowList, const Clock &clock);
    Q_DISABLE_COPY_MOVE(SignInPolicy)

    // May this (normalised) email sign in: on the allow-list, or anyone while sign-ups are open.
    bool maySignIn(const QString &email) const;

    bool signupsOpen() const; // closed by default
    bool setSignupsOpen(bool open);

    QList<AllowedEmail> allowList() const;
    Result<AllowedEmail> allow(const QString &email); // 400 for a malformed email; adding twice is fine
    Result<QString> disallow(const QString &email); // 404 when it was not on the list
    bool isAllowListed(const QString &email) const;

    AgentSessionScope agentSessionScope() const;
    bool setAgentSessionScope(AgentSessionScope scope);
    bool allowsAgentSessionFrom(const QHostAddress &client) const;
    static bool isLanAddress(const QHostAddress &address); // loopback, RFC 1918, link-local, IPv6 unique local
    static QString scopeName(AgentSessionScope scope); // "loopback", "lan", "anywhere"
    static std::optional<AgentSessionScope> scopeFromName(const QString &name);
    // How many agents the whole instance makes in an hour (POST /auth/session and MCP without a key, from every
    // address together): a bound on what anonymous callers can hold, whatever addresses they come from.
    static constexpr int kDefaultAgentsPerHour = 60;
    static constexpr int kMaxAgentsPerHour = 100000;
    int agentsPerHour() const;
    bool setAgentsPerHour(int count); // false when out of 0..kMaxAgentsPerHour (0: no new agents) or not stored

    SmtpConfig smtp() const; // not configured (empty host) by default
    Result<SmtpConfig> setSmtp(const SmtpConfig &config); // 400 with the reason when it cannot be used
    bool clearSmtp();
    // The last delivery failure, for the owner ("" after a success or before any mail), with its time.
    QString smtpLastError(QDateTime *when = nullptr) const;
    void recordSmtpResult(const QString &error);

private:
    SettingsRepository &m_settings;
    AllowListRepository &m_allowList;
    const Clock &m_clock;
};

} // namespace berth
