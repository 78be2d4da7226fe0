#include "http/accesslog.h"

#include "http/accesslogfile.h"
#include "http/accesslogline.h"

#include <QDateTime>
#include <cstring>
#include <vector>

namespace berth {

namespace {

// A serving thread wakes the writer early once this much waits, instead of letting it grow until the next round.
constexpr qint64 kWakeWriterBytes = 256 * 1024;
// Room for a line without growing the buffer: the fields a client controls are escaped, at most four times longer.
constexpr qsizetype kLineReserveBytes = 1024;

} // namespace

AccessLogBuffer::AccessLogBuffer(AccessLog &log)
    : m_log(log)
{
}

void AccessLogBuffer::add(const AccessEntry &entry, QByteArrayView client, int status, qint64 bytesSent)
{
    const qint64 secs = entry.receivedMs / 1000;
    if (secs != m_stampSecs) {
        m_stampSecs = secs;
        m_stamp = AccessLogLine::timestamp(secs);
    }
    bool wake = false;
    {
        const std::lock_guard<std::mutex> locked(m_mutex);
        if (m_lines.size() >= m_log.m_options.threadBufferBytes) {
            m_log.m_dropped.fetch_add(1, std::memory_order_relaxed);
            return;
        }
        if (m_lines.capacity() - m_lines.size() < kLineReserveBytes)
            m_lines.reserve(qMax<qsizetype>(2 * m_lines.capacity(), 64 * 1024));
        AccessLogLine::append(m_lines, entry, client, m_stamp, status, bytesSent);
        if (!m_wokeWriter && m_lines.size() >= kWakeWriterBytes) {
            m_wokeWriter = true;
            wake = true;
        }
    }
    if (wake)
        m_log.wakeWriter();
}

AccessLog::AccessLog(AccessLogOptions options)
    : m_options(std::move(options))
    , m_file(std::make_unique<AccessLogFile>(m_options.path, m_options.keepDays))
{
}

AccessLog::~AccessLog()
{
    if (m_writer.joinable()) {
        {
            const std::lock_guard<std::mutex> locked(m_wakeMutex);
            m_stopping = true;
        }
        m_wake.notify_one();
        m_writer.join();
    }
    flush();
}

Result<void> AccessLog::start()
{
    if (Result<void> opened = m_file->open(nowMs()); !opened)
        return opened;
    m_started = true;
    m_writer = std::thread([this] { run(); });
    return {};
}

AccessLogBuffer *AccessLog::newThreadBuffer()
{
    const std::lock_guard<std::mutex> locked(m_buffersMutex);
    return &m_buffers.emplace_back(*this);
}

qint64 AccessLog::nowMs() const
{
    return m_options.nowMs ? m_options.nowMs() : QDateTime::currentMSecsSinceEpoch();
}

QByteArray AccessLog::clientAddress(const QHostAddress &peer) const
{
    return AccessLogLine::clientAddress(peer, m_options.anonymize);
}

void AccessLog::run()
{
    std::unique_lock<std::mutex> locked(m_wakeMutex);
    while (!m_stopping) {
        m_wake.wait_for(locked, std::chrono::milliseconds(m_options.flushIntervalMs),
            [this] { return m_stopping || m_wakeRequested; });
        m_wakeRequested = false;
        locked.unlock();
        flush();
        locked.lock();
    }
}

void AccessLog::wakeWriter()
{
    {
        const std::lock_guard<std::mutex> locked(m_wakeMutex);
        m_wakeRequested = true;
    }
    m_wake.notify_one();
}

void AccessLog::flush()
{
    if (!m_started)
        return;
    const std::lock_guard<std::mutex> locked(m_writeMutex);
    writeWaiting();
}

void AccessLog::writeWaiting()
{
    const Result<void> ready = m_file->prepare(nowMs());
    std::vector<AccessLogBuffer *> buffers;
    {
        const std::lock_guard<std::mutex> locked(m_buffersMutex);
        for (AccessLogBuffer &buffer : m_buffers)
            buffers.push_back(&buffer);
    }
    for (AccessLogBuffer *buffer : buffers) {
        {
            const std::lock_guard<std::mutex> swapping(buffer->m_mutex);
            std::swap(buffer->m_lines, m_batch); // the serving thread goes on in the emptied one, capacity kept
            buffer->m_wokeWriter = false;
        }
        if (m_batch.isEmpty())
            continue;
        int error = 0;
        if (m_midLine && ready && m_file->write("\n", &error) == 1)
            m_midLine = false;
        const qint64 written = ready && !m_midLine ? m_file->write(m_batch, &error) : 0;
        if (written < m_batch.size()) {
            m_midLine = m_midLine || (written > 0 && m_batch.at(written - 1) != '\n');
            m_dropped.fetch_add(QByteArrayView(m_batch).sliced(written).count('\n'), std::memory_order_relaxed);
            warnOnce(ready ? QString::fromLocal8Bit(std::strerror(error)) : ready.error().message);
        }
        m_batch.resize(0);
    }
    if (droppedLines() > 0) // lines a serving thread dropped itself: the disk is not keeping up
        warnOnce(QStringLiteral("the disk is too slow"));
}

void AccessLog::warnOnce(const QString &reason)
{
    if (m_warned)
        return;
    m_warned = true;
    qWarning("berth: cannot write the access log %s (%s); its lines are dropped and counted while this lasts",
        qUtf8Printable(m_options.path), qUtf8Printable(reason));
}

} // namespace berth
