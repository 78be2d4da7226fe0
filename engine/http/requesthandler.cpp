#include "http/requesthandler.h"

#include <QAbstractSocket>
#include <QThread>

namespace berth {

void ThreadMailbox::post(std::function<void()> task)
{
    const std::lock_guard<std::mutex> locker(m_mutex);
    if (!m_anchor)
        return;
    // The task runs while the anchor lives, and the anchor's owner holds this mailbox: this outlives the call.
    QMetaObject::invokeMethod(
        m_anchor,
        [this, task = std::move(task)] {
            {
                const std::lock_guard<std::mutex> handedOver(m_mutex);
            }
            task();
        },
        Qt::QueuedConnection);
}

void ThreadMailbox::close()
{
    const std::lock_guard<std::mutex> locker(m_mutex);
    m_anchor = nullptr; // posts already queued die with the anchor
}

ResponseSink::ResponseSink(QObject *connection, std::shared_ptr<ThreadMailbox> mailbox, SendFunction send)
    : m_state(std::make_shared<State>())
{
    m_state->connection = connection;
    m_state->connectionThread = connection->thread();
    m_state->mailbox = std::move(mailbox);
    m_state->send = std::move(send);
}

ResponseSink::ResponseSink(QObject *owner, SendFunction send)
    : ResponseSink(owner, nullptr, std::move(send))
{
    m_state->context = owner;
}

void ResponseSink::send(HttpResponse response) const
{
    // Only the first send counts, and only while the connection exists (it is destroyed when the client leaves).
    if (m_state->sent.exchange(true))
        return;
    // Delivery does not write to the shared state (sent already makes it the only one): the last copy of the sink
    // may be dropped on another thread at any time.
    const auto deliver = [state = m_state](HttpResponse answer) {
        if (!state->connection || !state->send)
            return;
        if (state->observer)
            state->observer(answer);
        state->send(std::move(answer));
    };
    if (!m_state->mailbox || m_state->connectionThread == QThread::currentThread()) {
        deliver(std::move(response));
        return;
    }
    m_state->mailbox->post([deliver, response = std::move(response)]() mutable { deliver(std::move(response)); });
}

bool ResponseSink::isConnected() const
{
    const auto *socket = qobject_cast<const QAbstractSocket *>(m_state->connection.data());
    return socket && socket->state() == QAbstractSocket::ConnectedState;
}

QObject *ResponseSink::context() const
{
    return m_state->context;
}

void ResponseSink::continueOn(QObject *context)
{
    m_state->context = context;
}

} // namespace berth

namespace berth {

void runOnThreadOf(QObject *context, std::function<void()> task)
{
    if (context->thread() == QThread::currentThread())
        task();
    else
        QMetaObject::invokeMethod(context, std::move(task), Qt::QueuedConnection);
}

HttpResponse RequestHandler::tooLarge(const RequestHead & /*head*/, const BodyLimit &limit) const
{
    return HttpResponse::jsonError(
        413, limit.message.isEmpty() ? QStringLiteral("Request body too large") : limit.message);
}

} // namespace berth
