#include "frontdoor.h"

#include "httpconnection.h"
#include "requestframer.h"

#include <QTimer>
#include <unistd.h>

namespace berth {

FrontDoor::FrontDoor(RequestHandler &handler, const HttpConfig &config, QObject *parent)
    : QTcpServer(parent)
    , m_handler(handler)
    , m_config(config)
    , m_writer(config.serverHeader)
    , m_scratch(kMaxHeadBytes + 1, Qt::Uninitialized)
{
    connect(this, &QTcpServer::acceptError, this, &FrontDoor::onAcceptError);
}

FrontDoor::~FrontDoor()
{
    // Connections report to this object when they go: delete them while it is still whole.
    qDeleteAll(findChildren<HttpConnection *>(Qt::FindDirectChildrenOnly));
}

void FrontDoor::incomingConnection(qintptr descriptor)
{
    const bool overCap = m_live >= m_config.maxConnections;
    auto *connection = new HttpConnection(*this, this);
    if (!connection->adopt(descriptor, !overCap)) {
        delete connection;
        ::close(int(descriptor));
        return;
    }
    if (overCap) {
        connection->refuseAtAccept();
        return;
    }
    ++m_live;
    // Qt 6.4 emits pendingConnectionAvailable from here, synchronously: QtHttpServer connects its readyRead slot
    // now, after the guard's.
    addPendingConnection(connection);
}

void FrontDoor::onAcceptError(QAbstractSocket::SocketError error)
{
    // QTcpServer pauses accepting on errors such as EMFILE and never resumes by itself.
    ++m_acceptErrors;
    if (m_retryScheduled)
        return;
    if (m_acceptErrors == 1 || m_acceptErrors % 1000 == 0)
        qWarning("berth: accept failed (%d): %s; retrying", int(error), qUtf8Printable(errorString()));
    m_retryScheduled = true;
    QTimer::singleShot(m_config.acceptRetryMs, this, [this] {
        m_retryScheduled = false;
        resumeAccepting();
    });
}

bool FrontDoor::acquireUploadSlot()
{
    if (m_largeUploads >= m_config.maxLargeUploads)
        return false;
    ++m_largeUploads;
    return true;
}

void FrontDoor::releaseUploadSlot()
{
    --m_largeUploads;
}

void FrontDoor::connectionClosed()
{
    --m_live;
}

} // namespace berth
