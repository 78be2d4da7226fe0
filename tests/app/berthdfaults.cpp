// berthd for the crash-safety test: the same commands, plus fault points. With BERTH_FAULT_POINT=<name> in its
// environment the process kills itself (SIGKILL, nothing flushed) when a deploy reaches the point <name>.
#include "app/berthd/commands.h"
#include "domain/deploy/faultpoints.h"
#include "instance/engine.h"

#include <QCoreApplication>
#include <csignal>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("berth"));
    QCoreApplication::setApplicationVersion(QStringLiteral(BERTH_VERSION));
    const QByteArray point = qgetenv("BERTH_FAULT_POINT");
    return berth::runCommand(app.arguments(), [point](berth::Engine &engine) {
        if (point.isEmpty())
            return;
        engine.faultPoints().setHook([point](const char *reached) {
            if (point == reached)
                std::raise(SIGKILL);
        });
    });
}
