#include "http/requestbodystream.h"

namespace berth {

RequestBodyStream::RequestBodyStream(qint64 length, qint64 capacity)
    : m_length(length)
    , m_capacity(capacity)
{
}

QByteArray RequestBodyStream::take()
{
    std::function<void()> room;
    QByteArray taken;
    {
        const std::lock_guard lock(m_mutex);
        if (m_pieces.size() == 1)
            taken = std::move(m_pieces.first());
        else if (!m_pieces.isEmpty())
            taken = m_pieces.join();
        m_pieces.clear();
        m_waiting = 0;
        if (!taken.isEmpty())
            room = std::move(m_room);
        m_room = nullptr;
    }
    if (room) // outside the lock: it posts to the connection's thread
        room();
    return taken;
}

RequestBodyStream::State RequestBodyStream::state() const
{
    const std::lock_guard lock(m_mutex);
    if (m_failed)
        return State::Failed;
    return m_arrived == m_length ? State::Complete : State::Open;
}

void RequestBodyStream::whenReadable(std::function<void()> wake)
{
    {
        const std::lock_guard lock(m_mutex);
        if (!readableLocked()) {
            m_readable = std::move(wake);
            return;
        }
    }
    wake();
}

void RequestBodyStream::stop()
{
    const std::lock_guard lock(m_mutex);
    m_stopped = true;
    m_pieces.clear();
    m_waiting = 0;
    m_room = nullptr; // never again: the connection reads no more until the answer, which closes it
    m_readable = nullptr;
}

bool RequestBodyStream::readableLocked() const
{
    // Woken for half the capacity at a time, not for every piece the socket gives: each wake-up costs the reader a
    // task on a worker, and the other half arrives meanwhile.
    return m_failed || m_arrived == m_length || m_waiting >= m_capacity / 2;
}

qint64 RequestBodyStream::room() const
{
    const std::lock_guard lock(m_mutex);
    if (m_stopped || m_failed)
        return 0; // the rest is not wanted: the client waits for the answer
    return qMin(m_capacity - m_waiting, m_length - m_arrived);
}

void RequestBodyStream::append(QByteArray bytes)
{
    std::function<void()> readable;
    {
        const std::lock_guard lock(m_mutex);
        if (m_failed)
            return;
        m_arrived += bytes.size();
        if (!m_stopped && !bytes.isEmpty()) {
            m_waiting += bytes.size();
            m_pieces.append(std::move(bytes));
        }
        if (readableLocked())
            readable = std::exchange(m_readable, nullptr);
    }
    if (readable)
        readable();
}

void RequestBodyStream::fail()
{
    std::function<void()> readable;
    {
        const std::lock_guard lock(m_mutex);
        if (m_failed || m_arrived == m_length)
            return;
        m_failed = true;
        readable = std::exchange(m_readable, nullptr);
    }
    if (readable)
        readable();
}

void RequestBodyStream::whenRoom(std::function<void()> wake)
{
    {
        const std::lock_guard lock(m_mutex);
        if (m_stopped)
            return;
        if (m_waiting >= m_capacity) {
            m_room = std::move(wake);
            return;
        }
    }
    wake();
}

} // namespace berth
