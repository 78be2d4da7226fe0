#include "app/berthd/server/keycommand.h"

#include "app/berthd/cli.h"
#include "domain/accounts/accountservice.h"
#include "domain/plans/plantable.h"
#include "instance/engine.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

using Cli::err;
using Cli::out;
using Cli::usageError;
const QCommandLineOption &kDataDir = Cli::dataDirOption();

} // namespace

int createKey(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Create an API key and print it alone on standard output.\n"
                                     "Without --user the key is the instance owner's."_s);
    parser.addHelpOption();
    const QCommandLineOption user(u"user"_s, u"Email of the user; created when missing."_s, u"EMAIL"_s);
    const QCommandLineOption plan(
        u"plan"_s, u"Plan of a newly created user: agent, free or pro (default free)."_s, u"PLAN"_s, u"free"_s);
    const QCommandLineOption label(u"label"_s, u"A label to recognise the key by."_s, u"TEXT"_s, u"cli"_s);
    parser.addOptions({user, plan, label, kDataDir, Cli::databaseOption()});
    if (!parser.parse(arguments))
        return usageError(parser.errorText(), u"key create"_s);
    if (parser.isSet(u"help"_s)) {
        out() << parser.helpText().replace(u"berthd [options]"_s, u"berthd key create [options]"_s);
        return ExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return usageError(
            u"unexpected argument '%1'"_s.arg(parser.positionalArguments().constFirst()), u"key create"_s);
    if (!PlanTable::isPlan(parser.value(plan)))
        return usageError(u"--plan must be agent, free or pro"_s, u"key create"_s);
    if (parser.isSet(plan) && !parser.isSet(user))
        return usageError(u"--plan needs --user (the owner's plan is pro)"_s, u"key create"_s);

    const Result<EngineSettings> settings = Cli::instanceSettings(parser);
    if (!settings)
        return usageError(settings.error().message, u"key create"_s);
    // A fresh instance's first key is this command's answer (below), on standard output.
    const std::unique_ptr<Engine> opened = Cli::openEngine(settings.value(), false);
    if (!opened)
        return ExitFailure;
    Engine &engine = *opened;
    AccountService &accounts = engine.accounts();
    QString userId;
    if (parser.isSet(user)) {
        const auto created = accounts.ensureUser(parser.value(user), parser.value(plan));
        if (!created) {
            err() << "berthd: " << created.error().message << "\n";
            return created.error().kind == Error::Kind::BadRequest ? ExitUsage : ExitFailure;
        }
        userId = created.value().id;
    } else if (const auto firstKey = engine.ownerFirstKey()) {
        out() << *firstKey << "\n"; // a fresh instance: the owner's first key is the one to hand out
        return ExitOk;
    } else {
        userId = accounts.ensureOwner().value().owner.id;
    }
    const auto key = accounts.createKey(userId, parser.value(label));
    if (!key) {
        err() << "berthd: " << key.error().message << "\n";
        return ExitFailure;
    }
    out() << key.value().secret << "\n";
    return ExitOk;
}

} // namespace berth
