// berthd: the headless Berth server and its administration subcommands.
#include "commands.h"

#include <QCoreApplication>
#include <QTextStream>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("berth"));
    QCoreApplication::setApplicationVersion(QStringLiteral(BERTH_VERSION));
    return berth::runCommand(app.arguments());
}
