#include "http/frontdoor.h"

#include "http/clienthello.h"
#include "http/connectionbudget.h"
#include "http/guardedsocket.h"
#include "http/requestframer.h"
#include "http/requesthandler.h"

#include <QTimer>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace berth {

FrontDoor::FrontDoor(RequestHandler &handler, const HttpConfig &config, ConnectionBudget &budget, QObject *parent)
    : QTcpServer(parent)
    , m_handler(handler)
    , m_config(config)
    , m_budget(budget)
    , m_mailbox(std::make_shared<ThreadMailbox>(this))
    , m_writer(config.serverHeader)
    , m_scratch(qMax(kMaxHeadBytes + 1, ClientHello::kMaxRecordBytes), Qt::Uninitialized)
{
    connect(this, &QTcpServer::acceptError, this, &FrontDoor::onAcceptError);
}

FrontDoor::~FrontDoor()
{
    m_mailbox->close(); // answers finished on other threads from now on find no one to deliver to
    // Connections report to this object when they go: delete them while it is still whole.
    qDeleteAll(findChildren<QTcpSocket *>(Qt::FindDirectChildrenOnly));
}

QList<ConnectionGuard *> FrontDoor::connections() const
{
    QList<ConnectionGuard *> guards;
    for (QTcpSocket *socket : findChildren<QTcpSocket *>(Qt::FindDirectChildrenOnly))
        guards.append(&ConnectionGuard::of(socket));
    return guards;
}

void FrontDoor::incomingConnection(qintptr descriptor)
{
    // Plain connections are plain QTcpSockets: a QSslSocket costs a second buffer layer even unencrypted.
    QTcpSocket *socket = isTls() ? static_cast<QTcpSocket *>(new GuardedSocket<QSslSocket>(*this, this))
                                 : new GuardedSocket<QTcpSocket>(*this, this);
    ConnectionGuard *connection = &ConnectionGuard::of(socket);
    if (!connection->adopt(descriptor)) {
        delete socket;
        ::close(int(descriptor));
        return;
    }
    ConnectionBudget::Admission admission = m_budget.admit(connection->peer());
    if (admission == ConnectionBudget::Admission::OverTotal && shedIdleConnection())
        admission = m_budget.admit(connection->peer());
    switch (admission) {
    case ConnectionBudget::Admission::Admitted:
        break;
    case ConnectionBudget::Admission::OverTotal:
        connection->refuseAtAccept(u"Too many connections; retry later"_s);
        return;
    case ConnectionBudget::Admission::OverAddress:
        connection->refuseAtAccept(u"Too many connections from your address; retry later"_s);
        return;
    }
    connection->setCounted();
    // Qt 6.4 emits pendingConnectionAvailable from here, synchronously: QtHttpServer connects its readyRead slot
    // now, after the guard's. An HTTPS connection is handed over by its guard once its handshake starts.
    if (!isTls())
        addPendingConnection(socket);
}

bool FrontDoor::shedIdleConnection()
{
    // The connection idle longest on this thread makes room: a keep-alive client reconnects when it needs to,
    // a refused one gets nothing.
    ConnectionGuard *oldest = nullptr;
    for (ConnectionGuard *connection : connections()) {
        if (connection->isIdle() && (!oldest || connection->idleSince() < oldest->idleSince()))
            oldest = connection;
    }
    if (!oldest)
        return false;
    oldest->shed();
    return true;
}

void FrontDoor::drain()
{
    pauseAccepting();
    close();
    for (ConnectionGuard *connection : connections())
        connection->drain();
}

void FrontDoor::noteUnsent(qint64 bytes)
{
    qint64 peak = m_peakUnsent.load();
    while (bytes > peak && !m_peakUnsent.compare_exchange_weak(peak, bytes)) { }
}

void FrontDoor::onAcceptError(QAbstractSocket::SocketError error)
{
    // QTcpServer pauses accepting on errors such as EMFILE and never resumes by itself.
    const int errors = ++m_acceptErrors;
    if (m_retryScheduled)
        return;
    if (errors == 1 || errors % 1000 == 0)
        qWarning("berth: accept failed (%d): %s; retrying", int(error), qUtf8Printable(errorString()));
    m_retryScheduled = true;
    QTimer::singleShot(m_config.acceptRetryMs, this, [this] {
        m_retryScheduled = false;
        resumeAccepting();
    });
}

} // namespace berth
