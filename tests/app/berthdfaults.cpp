// berthd for the crash-safety test: the same commands, plus fault points. With BERTH_FAULT_POINT=<name> in its
// environment the process kills itself (SIGKILL, nothing flushed) when a deploy reaches the point <name>; with
// BERTH_FAULT_COUNT=<n> too, when it reaches it the n-th time (a point reached once per file, say).
#include "app/berthd/commands.h"
#include "domain/deploy/faultpoints.h"
#include "instance/engine.h"

#include <QCoreApplication>
#include <atomic>
#include <csignal>
#include <memory>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("berth"));
    QCoreApplication::setApplicationVersion(QStringLiteral(BERTH_VERSION));
    const QByteArray point = qgetenv("BERTH_FAULT_POINT");
    const int count = qMax(1, qEnvironmentVariableIntValue("BERTH_FAULT_COUNT"));
    return berth::runCommand(app.arguments(), [point, count](berth::Engine &engine) {
        if (point.isEmpty())
            return;
        auto reaches = std::make_shared<std::atomic<int>>(0); // points on workers are reached from several threads
        engine.faultPoints().setHook([point, count, reaches](const char *reached) {
            if (point == reached && ++*reaches >= count)
                std::raise(SIGKILL);
        });
    });
}
