#include "app/berthd/server/settingscommands.h"

#include "app/berthd/cli.h"
#include "domain/accounts/otpservice.h"
#include "domain/accounts/signinpolicy.h"
#include "domain/common/clock.h"
#include "domain/plans/plansettings.h"
#include "instance/engine.h"

#include <QFile>

using namespace Qt::StringLiterals;

namespace berth::SettingsCommands {

namespace {

int defaultPort(SmtpConfig::Security security)
{
    switch (security) {
    case SmtpConfig::Security::None:
        return 25;
    case SmtpConfig::Security::StartTls:
        return SmtpConfig::kDefaultPort;
    case SmtpConfig::Security::Tls:
        break;
    }
    return 465;
}

// The command-line names of PlanLimits' fields.
struct LimitOption
{
    QLatin1String name;
    QLatin1String help;
    int PlanLimits::*member;
};
const LimitOption kLimitOptions[] = {
    {"deployments"_L1, "Active deployments per user."_L1, &PlanLimits::deployments},
    {"submissions-per-day"_L1, "Form submissions a deployment accepts per day."_L1, &PlanLimits::submissionsPerDay},
    {"submissions-stored"_L1, "Form submissions kept per deployment (the oldest are pruned)."_L1,
        &PlanLimits::submissionsStored},
    {"counters"_L1, "Counters per deployment."_L1, &PlanLimits::countersPerDeployment},
};

void printPlans(const PlanTable &table)
{
    QList<QStringList> rows {
        {u"PLAN"_s, u"DEPLOYMENTS"_s, u"SUBMISSIONS/DAY"_s, u"SUBMISSIONS STORED"_s, u"COUNTERS"_s}};
    for (const QString &plan : PlanTable::plans()) {
        const PlanLimits limits = table.limits(plan);
        rows.append({plan, QString::number(limits.deployments), QString::number(limits.submissionsPerDay),
            QString::number(limits.submissionsStored), QString::number(limits.countersPerDeployment)});
    }
    Cli::printTable(rows);
}

} // namespace

int smtpShow(const QStringList &arguments)
{
    return Cli::run(arguments, {u"smtp show"_s, {}, u"Show how sign-in codes are mailed."_s},
        [](const QCommandLineParser &, Engine &engine) {
            const SmtpConfig smtp = engine.signInPolicy().smtp();
            if (!smtp.isConfigured()) {
                Cli::out() << "SMTP is not configured: sign-in codes wait in 'berthd signin-requests' "
                              "for you to pass on.\n";
                return int(ExitOk);
            }
            Cli::printTable({{u"host"_s, smtp.host}, {u"port"_s, QString::number(smtp.port)},
                {u"security"_s, SmtpConfig::securityName(smtp.security)},
                {u"user"_s, smtp.user.isEmpty() ? u"-"_s : smtp.user},
                {u"password"_s, smtp.password.isEmpty() ? u"-"_s : u"(set)"_s}, {u"from"_s, smtp.from}});
            QDateTime when;
            if (const QString error = engine.signInPolicy().smtpLastError(&when); !error.isEmpty())
                Cli::out() << "\nLast delivery failed at " << isoTimestamp(when) << ": " << error << "\n";
            return int(ExitOk);
        });
}

int smtpSet(const QStringList &arguments)
{
    const QCommandLineOption host(u"host"_s, u"SMTP server (required)."_s, u"HOST"_s);
    const QCommandLineOption port(
        u"port"_s, u"Port (default 587 for starttls, 465 for tls, 25 for none)."_s, u"PORT"_s);
    const QCommandLineOption user(u"user"_s, u"User name, when the server wants one."_s, u"USER"_s);
    const QCommandLineOption password(u"password"_s,
        u"Password (visible to other local users; prefer "
        "--password-file)."_s,
        u"PASSWORD"_s);
    const QCommandLineOption passwordFile(
        u"password-file"_s, u"Read the password from the first line of FILE."_s, u"FILE"_s);
    const QCommandLineOption from(u"from"_s, u"Sender address (required)."_s, u"EMAIL"_s);
    const QCommandLineOption tls(u"tls"_s, u"starttls (default), tls or none."_s, u"MODE"_s, u"starttls"_s);
    const Cli::Command command {u"smtp set"_s, {}, u"Mail sign-in codes through an SMTP server."_s};
    const auto action = [&](const QCommandLineParser &parser, Engine &engine) {
        SmtpConfig config;
        config.security = *SmtpConfig::securityFromName(parser.value(tls));
        config.host = parser.value(host);
        config.from = parser.value(from);
        config.user = parser.value(user);
        config.password = parser.value(password);
        config.port = parser.isSet(port) ? parser.value(port).toInt() : defaultPort(config.security);
        if (parser.isSet(passwordFile)) {
            QFile file(parser.value(passwordFile));
            if (!file.open(QIODevice::ReadOnly))
                return Cli::failure(u"cannot read %1"_s.arg(file.fileName()));
            config.password = QString::fromUtf8(file.readLine()).trimmed();
        }
        const auto stored = engine.signInPolicy().setSmtp(config);
        if (!stored)
            return Cli::refusal(stored.error(), command.name);
        Cli::out() << "Sign-in codes are mailed through " << config.host << ':' << config.port << " ("
                   << SmtpConfig::securityName(config.security) << "). Try it: berthd smtp test --to YOU@EXAMPLE\n";
        return int(ExitOk);
    };
    const auto check = [&](const QCommandLineParser &parser) {
        bool portOk = true;
        if (parser.isSet(port))
            parser.value(port).toInt(&portOk);
        if (!SmtpConfig::securityFromName(parser.value(tls)))
            return u"--tls must be starttls, tls or none"_s;
        if (!portOk)
            return u"--port must be a number"_s;
        if (parser.value(host).isEmpty() || parser.value(from).isEmpty())
            return u"--host and --from are required"_s;
        return QString();
    };
    return Cli::run(arguments, command, action, {host, port, user, password, passwordFile, from, tls}, check);
}

int smtpClear(const QStringList &arguments)
{
    return Cli::run(arguments, {u"smtp clear"_s, {}, u"Stop mailing codes; you relay them instead."_s},
        [](const QCommandLineParser &, Engine &engine) {
            if (!engine.signInPolicy().clearSmtp())
                return Cli::failure(u"could not change the setting"_s);
            Cli::out() << "SMTP is off: sign-in codes wait in 'berthd signin-requests'.\n";
            return int(ExitOk);
        });
}

int smtpTest(const QStringList &arguments)
{
    const QCommandLineOption to(u"to"_s, u"Recipient (required)."_s, u"EMAIL"_s);
    return Cli::run(
        arguments, {u"smtp test"_s, {}, u"Send a test message with the SMTP settings."_s},
        [&to](const QCommandLineParser &parser, Engine &engine) {
            QFuture<QString> sent = engine.signIns().sendTestMessage(parser.value(to));
            sent.waitForFinished();
            if (!sent.result().isEmpty())
                return Cli::failure(sent.result());
            Cli::out() << "Sent a test message to " << parser.value(to) << "\n";
            return int(ExitOk);
        },
        {to}, [&to](const QCommandLineParser &parser) { return parser.isSet(to) ? QString() : u"--to is required"_s; });
}

int plansShow(const QStringList &arguments)
{
    return Cli::run(arguments, {u"plans show"_s, {}, u"Show the limits of each plan."_s},
        [](const QCommandLineParser &, Engine &engine) {
            printPlans(engine.planSettings().table());
            return int(ExitOk);
        });
}

int plansSet(const QStringList &arguments)
{
    QList<QCommandLineOption> options;
    for (const LimitOption &limit : kLimitOptions)
        options.append(QCommandLineOption(limit.name, limit.help, u"N"_s));
    const Cli::Command command {u"plans set"_s, u"PLAN"_s,
        u"Change a plan's limits (agent, free or pro). A running server applies them at its "
        "next start."_s,
        1, 1};
    const auto action = [&command](const QCommandLineParser &parser, Engine &engine) {
        const QString plan = parser.positionalArguments().at(0);
        PlanLimits limits = engine.planSettings().table().limits(plan);
        for (const LimitOption &limit : kLimitOptions) {
            if (parser.isSet(limit.name))
                limits.*limit.member = parser.value(limit.name).toInt();
        }
        const auto changed = engine.planSettings().setLimits(plan, limits);
        if (!changed)
            return Cli::refusal(changed.error(), command.name);
        printPlans(engine.planSettings().table());
        return int(ExitOk);
    };
    const auto check = [](const QCommandLineParser &parser) {
        if (!PlanTable::isPlan(parser.positionalArguments().at(0)))
            return u"PLAN must be agent, free or pro"_s;
        bool any = false;
        for (const LimitOption &limit : kLimitOptions) {
            if (!parser.isSet(limit.name))
                continue;
            bool ok = false;
            if (parser.value(limit.name).toInt(&ok) < 0 || !ok)
                return u"--%1 must be a whole number of 0 or more"_s.arg(limit.name);
            any = true;
        }
        return any ? QString() : u"name at least one limit to change"_s;
    };
    return Cli::run(arguments, command, action, options, check);
}

int plansReset(const QStringList &arguments)
{
    const Cli::Command command {
        u"plans reset"_s, u"[PLAN]"_s, u"Put a plan's limits (or every plan's) back to the defaults."_s, 0, 1};
    const auto action = [&command](const QCommandLineParser &parser, Engine &engine) {
        const QString plan = parser.positionalArguments().value(0);
        for (const QString &name : plan.isEmpty() ? PlanTable::plans() : QStringList {plan}) {
            if (const auto reset = engine.planSettings().resetLimits(name); !reset)
                return Cli::refusal(reset.error(), command.name);
        }
        printPlans(engine.planSettings().table());
        return int(ExitOk);
    };
    return Cli::run(arguments, command, action, {}, [](const QCommandLineParser &parser) {
        const QString plan = parser.positionalArguments().value(0);
        return plan.isEmpty() || PlanTable::isPlan(plan) ? QString() : u"PLAN must be agent, free or pro"_s;
    });
}

} // namespace berth::SettingsCommands
