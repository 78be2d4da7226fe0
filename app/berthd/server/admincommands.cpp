#include "app/berthd/server/admincommands.h"

#include "app/berthd/cli.h"
#include "app/berthd/server/accountcommands.h"
#include "app/berthd/server/backupcommands.h"
#include "app/berthd/server/domainpolicycommand.h"
#include "app/berthd/server/migratecommands.h"
#include "app/berthd/server/settingscommands.h"
#include "app/berthd/server/webhooktargetscommand.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {

struct AdminCommand
{
    const char *group;
    const char *name; // null: the group alone is the command
    int (*run)(const QStringList &arguments);
    const char *summary;
};

// "key list" and "key revoke" also work, beside the older "key create".
const AdminCommand kCommands[] = {
    {"users", "list", &AccountCommands::usersList, "Users with plan and usage."},
    {"users", "plan", &AccountCommands::usersPlan, "Set a user's plan: USER PLAN."},
    {"allow", "list", &AccountCommands::allowList, "Emails that may sign in."},
    {"allow", "add", &AccountCommands::allowAdd, "Let an email sign in."},
    {"allow", "remove", &AccountCommands::allowRemove, "Take an email off the list."},
    {"signups", nullptr, &AccountCommands::signups, "Show, open or close sign-ups."},
    {"agents", nullptr, &AccountCommands::agents, "Where agents may come from; how many an hour."},
    {"webhooks", "targets", &webhookTargets, "Where webhooks may deliver: public, lan or any."},
    {"domains", "policy", &domainPolicy, "Who may give sites custom domains: owner or everyone."},
    {"signin-requests", nullptr, &AccountCommands::signInRequests, "Pending sign-ins (codes to relay)."},
    {"keys", "list", &AccountCommands::keysList, "API keys of every user (no secrets)."},
    {"keys", "revoke", &AccountCommands::keysRevoke, "Revoke any key."},
    {"key", "list", &AccountCommands::keysList, nullptr},
    {"key", "revoke", &AccountCommands::keysRevoke, nullptr},
    {"smtp", "show", &SettingsCommands::smtpShow, "How sign-in codes are mailed."},
    {"smtp", "set", &SettingsCommands::smtpSet, "Mail codes through an SMTP server."},
    {"smtp", "clear", &SettingsCommands::smtpClear, "Stop mailing codes."},
    {"smtp", "test", &SettingsCommands::smtpTest, "Send a test message."},
    {"plans", "show", &SettingsCommands::plansShow, "Limits of each plan."},
    {"plans", "set", &SettingsCommands::plansSet, "Change a plan's limits."},
    {"plans", "reset", &SettingsCommands::plansReset, "Back to the default limits."},
    {"backup", nullptr, &BackupCommands::backup, "Copy the instance (running or not) to DEST."},
    {"restore", nullptr, &BackupCommands::restore, "Bring a backup back: SRC --data-dir DIR."},
    {"migrate", nullptr, &MigrateCommands::migrate,
        "Copy an instance into PostgreSQL: --from-sqlite DIR --database URL."},
};

} // namespace

std::optional<int> runAdminCommand(const QStringList &arguments)
{
    const QString program = arguments.value(0);
    const QString group = arguments.value(1);
    const QString name = arguments.value(2);
    QStringList names;
    bool known = false;
    for (const AdminCommand &command : kCommands) {
        if (group != QLatin1String(command.group))
            continue;
        known = true;
        if (!command.name)
            return command.run(QStringList {program} + arguments.mid(2));
        if (name == QLatin1String(command.name))
            return command.run(QStringList {program} + arguments.mid(3));
        names.append(QLatin1String(command.name));
    }
    // "webhooks" is a client command too (list, add, ...): only its "targets" works on the data folder.
    // "domains" too: only "domains policy" is the owner's; "domains SLUG ..." is a client command.
    if (!known || (group == u"key" && name == u"create") || (group == u"webhooks" && name != u"targets")
        || (group == u"domains" && name != u"policy"))
        return std::nullopt;
    if (group == u"key")
        names.prepend(u"create"_s);
    if (name == u"--help" || name == u"-h") {
        Cli::out() << "Usage: berthd " << group << " <" << names.join(u'|') << "> [options]\n"
                   << "Run 'berthd " << group << " <subcommand> --help' for its options.\n";
        return ExitOk;
    }
    const QString message = name.isEmpty() || name.startsWith(u'-')
        ? u"'%1' needs a subcommand: %2"_s.arg(group, names.join(u", "_s))
        : u"unknown %1 subcommand '%2'"_s.arg(group, name);
    return Cli::usageError(message, QString());
}

QString adminCommandsOverview()
{
    QString overview;
    for (const AdminCommand &command : kCommands) {
        if (!command.summary)
            continue;
        QString usage = QLatin1String(command.group);
        if (command.name)
            usage += u' ' + QLatin1String(command.name);
        overview += u"  "_s + usage.leftJustified(20) + QLatin1String(command.summary) + u'\n';
    }
    return overview;
}

} // namespace berth
