// berthd: the headless Berth server and its administration subcommands.
#include "app/berthd/commands.h"

#include <QCoreApplication>
#include <QTextStream>

int main(int argc, char *argv[])
{
    // Qt's plain poll() event dispatcher instead of the glib one: glib wakes its loop up through an eventfd every
    // time a socket notifier is enabled or disabled, which Qt does for every response (two extra system calls
    // each, measured with strace). berthd shows no windows and needs no glib integration.
    if (!qEnvironmentVariableIsSet("QT_NO_GLIB"))
        qputenv("QT_NO_GLIB", "1");
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("berth"));
    QCoreApplication::setApplicationVersion(QStringLiteral(BERTH_VERSION));
    return berth::runCommand(app.arguments());
}
