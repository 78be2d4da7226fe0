#include "ui/mainwindow/instancechannel.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kNameHashChars = 24;
}

InstanceChannel::InstanceChannel(const QString &dataDir, QObject *parent)
    : QObject(parent)
    , m_name(serverName(dataDir))
{
}

InstanceChannel::~InstanceChannel() = default;

QString InstanceChannel::serverName(const QString &dataDir)
{
    // The same folder reached by another spelling (a trailing slash, a symlink) is the same folder.
    const QFileInfo info(dataDir);
    QString path = info.canonicalFilePath();
    if (path.isEmpty())
        path = QDir::cleanPath(info.absoluteFilePath());
    const QByteArray hash = QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha256).toHex();
    return u"berth-"_s + QString::fromLatin1(hash.left(kNameHashChars));
}

bool InstanceChannel::listen()
{
    if (m_server)
        return m_server->isListening();
    m_server = new QLocalServer(this);
    m_server->setSocketOptions(QLocalServer::UserAccessOption);
    QLocalServer::removeServer(m_name);
    // Any connection is the request: there is nothing else to say.
    connect(m_server, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket *socket = m_server->nextPendingConnection()) {
            socket->disconnectFromServer();
            socket->deleteLater();
            Q_EMIT raiseRequested();
        }
    });
    return m_server->listen(m_name);
}

bool InstanceChannel::askToRaise(int timeoutMs) const
{
    QLocalSocket socket;
    socket.connectToServer(m_name);
    if (!socket.waitForConnected(timeoutMs))
        return false;
    socket.disconnectFromServer();
    return true;
}

} // namespace berth
