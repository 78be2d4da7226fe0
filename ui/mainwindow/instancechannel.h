#pragma once

#include <QObject>

QT_BEGIN_NAMESPACE
class QLocalServer;
QT_END_NAMESPACE

namespace berth {

// How a second `berth` on the same data folder reaches the first: the running one listens on a
// local socket named after the data folder; a connection to it asks it to bring its window forward.
class InstanceChannel final : public QObject
{
    Q_OBJECT

public:
    explicit InstanceChannel(const QString &dataDir, QObject *parent = nullptr);
    ~InstanceChannel() override;
    Q_DISABLE_COPY_MOVE(InstanceChannel)

    // As the running instance (which holds the data folder's lock, so a socket left behind by a crash is ours to
    // replace).
    bool listen();
    // As a second instance: true when a running one was reached and will show itself.
    bool askToRaise(int timeoutMs = 2000) const;

    // The socket's name: one per user and data folder.
    static QString serverName(const QString &dataDir);

Q_SIGNALS:
    void raiseRequested();

private:
    QString m_name;
    QLocalServer *m_server = nullptr;
};

} // namespace berth
