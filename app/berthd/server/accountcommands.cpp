#include "app/berthd/server/accountcommands.h"

#include "app/berthd/cli.h"
#include "domain/accounts/accountservice.h"
#include "domain/accounts/otpservice.h"
#include "domain/accounts/signinpolicy.h"
#include "domain/common/clock.h"
#include "domain/deploy/agentsitelifetime.h"
#include "domain/deploy/expiryrules.h"
#include "domain/plans/plantable.h"
#include "instance/engine.h"

using namespace Qt::StringLiterals;

namespace berth::AccountCommands {

namespace {

QString timeText(const QDateTime &time)
{
    return time.isValid() ? isoTimestamp(time) : u"-"_s;
}

QString userName(const User &user)
{
    if (user.isOwner)
        return user.email.isEmpty() ? u"(owner)"_s : user.email + u" (owner)"_s;
    return user.email.isEmpty() ? u"(agent)"_s : user.email;
}

// A user named by email or by id ("usr_...").
std::optional<User> findUser(AccountService &accounts, const QString &name)
{
    return name.startsWith(u"usr_") ? accounts.findUser(name) : accounts.findUserByEmail(name);
}

QString keyState(const ApiKey &key, const QDateTime &now)
{
    if (key.revokedAt.isValid())
        return u"revoked"_s;
    if (key.expiresAt.isValid() && key.expiresAt <= now)
        return u"expired"_s;
    return u"live"_s;
}

QString argument(const QCommandLineParser &parser, int index)
{
    return parser.positionalArguments().value(index);
}

// "after 24h" or "never", as berthd agents shows the setting.
QString agentSitesExpire(std::optional<qint64> lifetime)
{
    return lifetime ? u"after "_s + ExpiryRules::lifetimeText(lifetime) : u"never"_s;
}

} // namespace

int usersList(const QStringList &arguments)
{
    return Cli::run(arguments, {u"users list"_s, {}, u"List every user with plan and usage."_s},
        [](const QCommandLineParser &, Engine &engine) {
            QList<QStringList> rows {
                {u"ID"_s, u"USER"_s, u"PLAN"_s, u"DEPLOYMENTS"_s, u"KEYS"_s, u"SUBMISSIONS"_s, u"LAST ACTIVE"_s}};
            for (const UserUsage &usage : engine.accounts().listUsers())
                rows.append({usage.user.id, userName(usage.user), usage.user.plan, QString::number(usage.deployments),
                    QString::number(usage.liveKeys), QString::number(usage.submissionsStored),
                    timeText(usage.lastActive)});
            Cli::printTable(rows);
            return int(ExitOk);
        });
}

int usersPlan(const QStringList &arguments)
{
    const Cli::Command command {u"users plan"_s, u"USER PLAN"_s,
        u"Set a user's plan (agent, free or pro). USER is an email or a user id."_s, 2, 2};
    return Cli::run(
        arguments, command,
        [&command](const QCommandLineParser &parser, Engine &engine) {
            const auto user = findUser(engine.accounts(), argument(parser, 0));
            if (!user)
                return Cli::failure(u"no user %1"_s.arg(argument(parser, 0)));
            const auto changed = engine.accounts().setPlan(user->id, argument(parser, 1));
            if (!changed)
                return Cli::refusal(changed.error(), command.name);
            Cli::out() << userName(changed.value()) << " is on plan " << changed.value().plan << "\n";
            return int(ExitOk);
        },
        {},
        [](const QCommandLineParser &parser) {
            return PlanTable::isPlan(argument(parser, 1)) ? QString() : u"PLAN must be agent, free or pro"_s;
        });
}

int allowList(const QStringList &arguments)
{
    return Cli::run(arguments, {u"allow list"_s, {}, u"List the emails that may sign in."_s},
        [](const QCommandLineParser &, Engine &engine) {
            QList<QStringList> rows {{u"EMAIL"_s, u"ADDED"_s}};
            for (const AllowedEmail &allowed : engine.signInPolicy().allowList())
                rows.append({allowed.email, timeText(allowed.addedAt)});
            Cli::printTable(rows);
            Cli::out() << "\nSign-ups are " << (engine.signInPolicy().signupsOpen() ? "open" : "closed") << ".\n";
            return int(ExitOk);
        });
}

int allowAdd(const QStringList &arguments)
{
    const Cli::Command command {u"allow add"_s, u"EMAIL"_s, u"Let an email sign in while sign-ups are closed."_s, 1, 1};
    return Cli::run(arguments, command, [&command](const QCommandLineParser &parser, Engine &engine) {
        const auto added = engine.signInPolicy().allow(argument(parser, 0));
        if (!added)
            return Cli::refusal(added.error(), command.name);
        Cli::out() << added.value().email << " may sign in\n";
        return int(ExitOk);
    });
}

int allowRemove(const QStringList &arguments)
{
    const Cli::Command command {u"allow remove"_s, u"EMAIL"_s,
        u"Take an email off the allow-list. Its keys keep working until revoked."_s, 1, 1};
    return Cli::run(arguments, command, [&command](const QCommandLineParser &parser, Engine &engine) {
        const auto removed = engine.signInPolicy().disallow(argument(parser, 0));
        if (!removed)
            return Cli::refusal(removed.error(), command.name);
        Cli::out() << removed.value() << " is off the allow-list\n";
        return int(ExitOk);
    });
}

int signups(const QStringList &arguments)
{
    const Cli::Command command {u"signups"_s, u"[open|close]"_s,
        u"Show whether anyone may sign up, or open or close sign-ups.\n"
        "Closed (the default): only emails on the allow-list may sign in."_s,
        0, 1};
    return Cli::run(
        arguments, command,
        [](const QCommandLineParser &parser, Engine &engine) {
            const QString state = argument(parser, 0);
            if (!state.isEmpty() && !engine.signInPolicy().setSignupsOpen(state == u"open"))
                return Cli::failure(u"could not change the setting"_s);
            Cli::out() << "Sign-ups are " << (engine.signInPolicy().signupsOpen() ? "open" : "closed") << "\n";
            return int(ExitOk);
        },
        {},
        [](const QCommandLineParser &parser) {
            const QString state = argument(parser, 0);
            return state.isEmpty() || state == u"open" || state == u"close"
                ? QString()
                : u"expected open or close, not '%1'"_s.arg(state);
        });
}

int agents(const QStringList &arguments)
{
    const Cli::Command command {u"agents"_s, u"[loopback|lan|anywhere | limit N | expire TIME|never]"_s,
        u"Show or set where agent sessions (POST /auth/session) may be requested from:\n"
        "loopback (this machine, the default), lan (also private networks) or anywhere;\n"
        "or how many new agents the instance makes in an hour, from all addresses together (limit N;\n"
        "0 makes none, the default is 60); or how long the sites agents deploy live (expire 24h, 7d, 30m\n"
        "or never, the default; a claim keeps them)."_s,
        0, 2};
    return Cli::run(
        arguments, command,
        [](const QCommandLineParser &parser, Engine &engine) {
            SignInPolicy &policy = engine.signInPolicy();
            if (argument(parser, 0) == u"limit") {
                if (!policy.setAgentsPerHour(argument(parser, 1).toInt()))
                    return Cli::failure(u"could not change the setting"_s);
            } else if (argument(parser, 0) == u"expire") {
                if (!engine.agentSiteLifetime().set(ExpiryRules::parseLifetime(argument(parser, 1)).value()))
                    return Cli::failure(u"could not change the setting"_s);
            } else if (const auto scope = SignInPolicy::scopeFromName(argument(parser, 0));
                       scope && !policy.setAgentSessionScope(*scope)) {
                return Cli::failure(u"could not change the setting"_s);
            }
            Cli::out() << "Agent sessions: " << SignInPolicy::scopeName(policy.agentSessionScope()) << "\n"
                       << "New agents: at most " << policy.agentsPerHour() << " an hour\n"
                       << "Agents' sites expire: " << agentSitesExpire(engine.agentSiteLifetime().seconds()) << "\n";
            return int(ExitOk);
        },
        {},
        [](const QCommandLineParser &parser) {
            const QString name = argument(parser, 0);
            if (name == u"expire") {
                const auto lifetime = ExpiryRules::parseLifetime(argument(parser, 1));
                return lifetime ? QString() : lifetime.error().message;
            }
            if (name == u"limit") {
                bool ok = false;
                const int count = argument(parser, 1).toInt(&ok);
                return ok && count >= 0 && count <= SignInPolicy::kMaxAgentsPerHour
                    ? QString()
                    : u"expected a number of agents an hour from 0 to %1, not '%2'"_s.arg(
                        QString::number(SignInPolicy::kMaxAgentsPerHour), argument(parser, 1));
            }
            if (parser.positionalArguments().size() > 1)
                return u"expected loopback, lan, anywhere or limit N"_s;
            return name.isEmpty() || SignInPolicy::scopeFromName(name)
                ? QString()
                : u"expected loopback, lan, anywhere or limit N, not '%1'"_s.arg(name);
        });
}

int signInRequests(const QStringList &arguments)
{
    const Cli::Command command {u"signin-requests"_s, {},
        u"List pending sign-in requests. Codes shown here were not mailed (no SMTP, or "
        "delivery failed): pass them on to the people who asked."_s};
    return Cli::run(arguments, command, [](const QCommandLineParser &, Engine &engine) {
        QList<QStringList> rows {{u"EMAIL"_s, u"REQUESTED"_s, u"EXPIRES"_s, u"STATUS"_s, u"CODE"_s}};
        for (const SignInRequest &request : engine.signIns().pendingRequests()) {
            QString status = SignInRequest::deliveryName(request.delivery);
            if (request.delivery == SignInRequest::Delivery::Refused)
                status = u"refused (not on the allow-list)"_s;
            else if (!request.deliveryError.isEmpty())
                status += u": "_s + request.deliveryError;
            rows.append({request.email, timeText(request.requestedAt), timeText(request.expiresAt), status,
                request.relayCode.isEmpty() ? u"-"_s : request.relayCode});
        }
        Cli::printTable(rows);
        return int(ExitOk);
    });
}

int keysList(const QStringList &arguments)
{
    const QCommandLineOption user(u"user"_s, u"Only this user's keys (an email or a user id)."_s, u"USER"_s);
    const Cli::Command command {u"keys list"_s, {}, u"List API keys (never secrets)."_s};
    return Cli::run(arguments, command,
        [&user](const QCommandLineParser &parser, Engine &engine) {
            AccountService &accounts = engine.accounts();
            QList<ApiKey> keys = accounts.allKeys();
            if (parser.isSet(user)) {
                const auto owner = findUser(accounts, parser.value(user));
                if (!owner)
                    return Cli::failure(u"no user %1"_s.arg(parser.value(user)));
                keys = accounts.keys(owner->id);
            }
            const QDateTime now = QDateTime::currentDateTimeUtc();
            QList<QStringList> rows {{u"ID"_s, u"USER"_s, u"LABEL"_s, u"CREATED"_s, u"LAST USED"_s, u"STATE"_s}};
            for (const ApiKey &key : keys) {
                const auto owner = accounts.findUser(key.userId);
                rows.append({key.id, owner ? userName(*owner) : key.userId, key.label.isEmpty() ? u"-"_s : key.label,
                    timeText(key.createdAt), timeText(key.lastUsedAt), keyState(key, now)});
            }
            Cli::printTable(rows);
            return int(ExitOk);
        },
        {user});
}

int keysRevoke(const QStringList &arguments)
{
    const Cli::Command command {
        u"keys revoke"_s, u"KEY_ID"_s, u"Revoke any API key at once (see 'berthd keys list')."_s, 1, 1};
    return Cli::run(arguments, command, [&command](const QCommandLineParser &parser, Engine &engine) {
        const auto revoked = engine.accounts().revokeAnyKey(argument(parser, 0));
        if (!revoked)
            return Cli::refusal(revoked.error(), command.name);
        Cli::out() << revoked.value().id << " is revoked\n";
        return int(ExitOk);
    });
}

} // namespace berth::AccountCommands
