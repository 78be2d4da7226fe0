#include "app/berthd/commands.h"

#include "app/berthd/cli.h"
#include "app/berthd/client/clientcommands.h"
#include "app/berthd/server/admincommands.h"
#include "app/berthd/server/keycommand.h"
#include "app/berthd/server/servecommand.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {

using Cli::out;
using Cli::usageError;

void printOverview()
{
    out() << "Usage: berthd [command] [options]\n\n"
             "Commands:\n"
             "  serve               Serve the API and every site (the default).\n"
             "  key create          Create an API key and print it.\n"
          << adminCommandsOverview() << "\nTalking to a running instance (--url, key from BERTH_API_KEY):\n"
          << clientCommandsOverview() << "\nRun 'berthd <command> --help' for a command's options.\n";
}

} // namespace

int runCommand(const QStringList &arguments, const EngineHook &beforeServing)
{
    const QString program = arguments.value(0, u"berthd"_s);
    const QStringList rest = arguments.mid(1);
    const QString first = rest.value(0);

    if (first == u"key" && rest.value(1) == u"create")
        return createKey(QStringList {program} + rest.mid(2));
    if (const auto exit = runAdminCommand(arguments))
        return *exit;
    if (const auto exit = runClientCommand(arguments))
        return *exit;
    if (first == u"serve")
        return serve(QStringList {program} + rest.mid(1), beforeServing);
    if (first == u"help" || ((first == u"--help" || first == u"-h") && rest.size() == 1)) {
        printOverview();
        out() << "\n";
        return serve(QStringList {program, u"--help"_s}, beforeServing);
    }
    if (!first.isEmpty() && !first.startsWith(u'-'))
        return usageError(u"unknown command '%1'"_s.arg(first), QString());
    return serve(arguments, beforeServing);
}

} // namespace berth
