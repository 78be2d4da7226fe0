#pragma once

#include <QObject>

QT_BEGIN_NAMESPACE
class QSocketNotifier;
QT_END_NAMESPACE

namespace berth {

// Turns SIGTERM and SIGINT into an orderly quit of the event loop (so running deploys finish and the
// database closes cleanly) via the self-pipe pattern: the signal handler only writes a byte.
class ShutdownSignals final : public QObject
{
    Q_OBJECT

public:
    explicit ShutdownSignals(QObject *parent = nullptr);
    ~ShutdownSignals() override;
    Q_DISABLE_COPY_MOVE(ShutdownSignals)

    bool isInstalled() const { return m_notifier != nullptr; }

Q_SIGNALS:
    void received(int signal);

private:
    static void handle(int signal);
    void readSignal();

    QSocketNotifier *m_notifier = nullptr;
};

} // namespace berth
