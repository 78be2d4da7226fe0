#pragma once

#include "core/error.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHostAddress>
#include <QString>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <thread>

namespace berth {

class AccessLog;
class AccessLogFile;
struct AccessEntry;

struct AccessLogOptions
{
    QString path; // a file, or "-" for standard output
    int keepDays = 14; // rotated files kept: access.log.1 ... access.log.<keepDays>
    bool anonymize = false; // IPv4 without its last octet, IPv6 cut to /48
    std::function<qint64()> nowMs; // UTC milliseconds, read on any thread; null: the system clock
    int flushIntervalMs = 200; // how often the writer thread takes the waiting lines
    // Lines a serving thread may have waiting; beyond, while the disk is slow, its new lines are dropped.
    qint64 threadBufferBytes = 4 * 1024 * 1024;
};

// One serving thread's waiting lines. The serving thread appends under a mutex the writer takes only to swap the
// buffer for an empty one, so a line costs an uncontended lock and a few copies, and never waits for the disk.
class AccessLogBuffer final
{
public:
    explicit AccessLogBuffer(AccessLog &log);
    Q_DISABLE_COPY_MOVE(AccessLogBuffer)

    // On the buffer's serving thread. client is AccessLog::clientAddress() of the peer, kept by the connection.
    void add(const AccessEntry &entry, QByteArrayView client, int status, qint64 bytesSent);
    AccessLog &log() const { return m_log; }

private:
    friend class AccessLog;
    AccessLog &m_log;
    std::mutex m_mutex;
    QByteArray m_lines; // guarded by m_mutex
    bool m_wokeWriter = false; // guarded by m_mutex
    // The serving thread's own: the %t field, made once a second.
    qint64 m_stampSecs = -1;
    QByteArray m_stamp;
};

// The access log: one line per answered request in Apache's vhost_combined format (http/accesslogline.h), gathered
// per serving thread and written by a thread of its own, so that a slow or full disk costs serving nothing. What
// cannot be written (a full disk, a write error, a buffer over its bound) is dropped and counted; the first drop is
// reported once on the console.
class AccessLog final
{
public:
    explicit AccessLog(AccessLogOptions options);
    ~AccessLog(); // writes what is waiting, then stops its thread
    Q_DISABLE_COPY_MOVE(AccessLog)

    // Opens the file (creating its folder) and starts the writer thread. The error is for the operator.
    Result<void> start();
    // A buffer for one serving thread; the log owns it.
    AccessLogBuffer *newThreadBuffer();
    // Writes every waiting line now (tests; the stop).
    void flush();

    qint64 droppedLines() const { return m_dropped.load(std::memory_order_relaxed); }
    qint64 nowMs() const;
    QByteArray clientAddress(const QHostAddress &peer) const;

private:
    friend class AccessLogBuffer;
    void run();
    void writeWaiting(); // under m_writeMutex
    void warnOnce(const QString &reason); // under m_writeMutex
    void wakeWriter();

    const AccessLogOptions m_options;
    std::unique_ptr<AccessLogFile> m_file;
    std::mutex m_buffersMutex;
    std::list<AccessLogBuffer> m_buffers; // stable addresses; only ever added to
    std::mutex m_writeMutex; // the file and m_batch: the writer thread or flush()
    QByteArray m_batch;
    bool m_midLine = false; // a failed write left a partial line in the file
    bool m_warned = false;
    bool m_started = false; // set by start(), before the writer thread exists
    std::atomic<qint64> m_dropped {0};
    std::mutex m_wakeMutex;
    std::condition_variable m_wake;
    bool m_wakeRequested = false; // guarded by m_wakeMutex
    bool m_stopping = false; // guarded by m_wakeMutex
    std::thread m_writer;
};

} // namespace berth
