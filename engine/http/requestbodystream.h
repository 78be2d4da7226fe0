#pragma once

#include <QByteArray>
#include <QByteArrayList>
#include <functional>
#include <mutex>

namespace berth {

// A request body handed to its handler while it still arrives (an archive upload): the connection appends what the
// client sends, on its serving thread; one reader takes it, on any thread, without waiting. At most `capacity` bytes
// wait at a time: beyond, the connection reads no more from the client (TCP backpressure) until the reader has taken
// some. The reader is woken when there is something to take, the connection when there is room again.
class RequestBodyStream final
{
public:
    enum class State
    {
        Open, // more of the body is to come
        Complete, // every byte has arrived (take() may still have some)
        Failed, // the client left or was too slow: the rest will never come
    };

    RequestBodyStream(qint64 length, qint64 capacity);
    Q_DISABLE_COPY_MOVE(RequestBodyStream)

    // The reader's side. take() returns what waits (empty when nothing does); state() says whether more will come.
    QByteArray take();
    State state() const;
    qint64 length() const { return m_length; }
    // wake runs once, on the connection's thread or the caller's, when take() has half the capacity or more, or the
    // body is whole, or state() changed; at once when that is so already.
    void whenReadable(std::function<void()> wake);
    // The reader wants no more: the connection reads nothing more of the body (its answer comes and closes it).
    void stop();

    // The connection's side.
    qint64 room() const; // what append() may take now
    void append(QByteArray bytes);
    void fail();
    // wake runs once, on the reader's thread, when room() is no longer 0; never once the reader stopped.
    void whenRoom(std::function<void()> wake);

private:
    bool readableLocked() const;

    mutable std::mutex m_mutex;
    const qint64 m_length;
    const qint64 m_capacity;
    QByteArrayList m_pieces;
    qint64 m_waiting = 0; // bytes in m_pieces
    qint64 m_arrived = 0;
    bool m_failed = false;
    bool m_stopped = false;
    std::function<void()> m_readable;
    std::function<void()> m_room;
};

} // namespace berth
