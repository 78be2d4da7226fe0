#include "requesthandler.h"

#include <QAbstractSocket>
#include <QThread>

namespace berth {

ResponseSink::ResponseSink(QObject *connection, SendFunction send)
    : m_state(std::make_shared<State>())
{
    m_state->connection = connection;
    m_state->send = std::move(send);
}

void ResponseSink::send(HttpResponse response) const
{
    // Only the first send counts, and only while the connection exists (it is destroyed when the client leaves).
    Q_ASSERT_X(!m_state->connection || m_state->connection->thread() == QThread::currentThread(), "ResponseSink::send",
        "call it on the connection's thread, e.g. from QFuture::then(sink.context(), ...)");
    if (m_state->sent)
        return;
    m_state->sent = true;
    if (m_state->connection && m_state->send)
        m_state->send(std::move(response));
    m_state->send = nullptr;
}

bool ResponseSink::isConnected() const
{
    const auto *socket = qobject_cast<const QAbstractSocket *>(m_state->connection.data());
    return socket && socket->state() == QAbstractSocket::ConnectedState;
}

QObject *ResponseSink::context() const
{
    return m_state->connection.data();
}

} // namespace berth
